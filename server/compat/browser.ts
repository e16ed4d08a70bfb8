import { Type as T } from "@sinclair/typebox";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { SiphonError } from "../../src/errors.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { SessionCreateBody } from "../../src/schemas/sessions.ts";
import { validate } from "../../src/schemas/validate.ts";
import { sessionsOf } from "../../src/sessions/index.ts";
import { type Guard, identify } from "../guard.ts";
import { authRequest, compatMetered, compatPlugin, readFirecrawlBody } from "./http.ts";

type Set = { headers: Record<string, string | number> };

const CreateBody = T.Object(
  {
    ttl: T.Optional(SessionCreateBody.properties.ttl),
    activityTtl: T.Optional(SessionCreateBody.properties.activityTtl),
    streamWebView: T.Optional(T.Boolean()),
  },
  { additionalProperties: false },
);

const ExecuteBody = T.Object(
  {
    code: T.String({ minLength: 1, maxLength: 100_000 }),
    language: T.Optional(T.String()),
    timeout: T.Optional(T.Integer({ minimum: 1, maximum: 120, description: "seconds" })),
  },
  { additionalProperties: false },
);

const notSupported = (what: string, hint: string) =>
  new SiphonError("not_implemented", `${what} is not supported by siphon`, { hint });

async function accountOf(guard: Guard, request: Request): Promise<string> {
  if (guard.off) return LOCAL_ACCOUNT_ID;
  return (await identify(guard, authRequest(request))).account.id;
}

/** An execute or interact body: JavaScript for the page ("node"); other languages and prompts refused. */
function readExecute(body: unknown, defaultLanguage: string) {
  const input = validate(
    ExecuteBody,
    readFirecrawlBody(body ?? {}, {
      accepted: ["code", "language", "timeout"],
      ignored: [],
      unsupported: { prompt: (value) => value === undefined || value === null || value === "" },
    }),
  );
  const language = (input.language ?? defaultLanguage).toLowerCase();
  if (language !== "node" && language !== "javascript" && language !== "js") {
    throw notSupported(
      `language "${language}"`,
      'Send JavaScript with language "node": it runs in the page.',
    );
  }
  return input;
}

/**
 * Runs an execute's code in a session's page as the body of an async function: what it returns
 * comes back in `result` as JSON; what it throws, or a return JSON cannot hold, in `stderr` with
 * exitCode 1, as a process's failure would.
 */
async function execute(
  deps: FetchDeps,
  accountId: string,
  sessionId: string,
  input: { code: string; timeout?: number },
) {
  const action = { type: "executeJavascript", script: input.code };
  try {
    const outcome = await sessionsOf(deps.engines).act(accountId, sessionId, {
      actions: [action as never],
      timeout: (input.timeout ?? 30) * 1000,
    });
    const value = outcome.actions.javascriptReturns[0]?.value ?? null;
    return { success: true, result: JSON.stringify(value), stdout: "", stderr: "", exitCode: 0 };
  } catch (error) {
    if (!(error instanceof SiphonError) || error.type !== "invalid_request") throw error;
    return { success: true, result: "", stdout: "", stderr: error.message, exitCode: 1 };
  }
}

/**
 * Firecrawl's browser sessions over siphon's (src/sessions): create (ttl, activityTtl), execute
 * (node code, run in the page as the body of an async function: what it returns comes back in
 * `result` as JSON, what it throws in `stderr` with exitCode 1; bash and python are refused),
 * list and delete. siphon exposes no CDP URL and no live view, so those fields are empty.
 */
export function browserRoutes(deps: FetchDeps, guard: Guard) {
  return compatPlugin("compat:browser")
    .post(
      "/v2/browser",
      ({ body, set, request }) => {
        const raw = readFirecrawlBody(body ?? {}, {
          accepted: ["ttl", "activityTtl", "streamWebView"],
          ignored: ["integration"],
          unsupported: { profile: (value) => value === undefined || value === null },
        });
        const given = validate(CreateBody, raw);
        if (given.streamWebView) throw notSupported("streamWebView", "siphon has no live view of a session");
        const input = validate(SessionCreateBody, { ttl: given.ttl, activityTtl: given.activityTtl });
        return compatMetered(guard, request, set as Set, "browser", async (admission) => {
          const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
          const session = await sessionsOf(deps.engines).create(accountId, input, deps);
          return {
            body: {
              success: true,
              id: session.id,
              cdpUrl: "",
              liveViewUrl: "",
              expiresAt: session.expiresAt,
            },
            credits: 0,
          };
        });
      },
      { detail: { summary: "Open a browser session (Firecrawl v2)" } as never },
    )
    .post(
      "/v2/browser/:id/execute",
      ({ body, params, set, request }) =>
        compatMetered(guard, request, set as Set, "browser", async (admission) => {
          const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
          // Whose session it is comes first: another's, or one that ended, is a 404 whatever the body.
          sessionsOf(deps.engines).check(accountId, params.id);
          const input = readExecute(body, "bash");
          return { body: await execute(deps, accountId, params.id, input), credits: 0 };
        }),
      { detail: { summary: "Run code in a browser session's page (Firecrawl v2)" } as never },
    )
    .post(
      "/v2/scrape/:id/interact",
      ({ body, params, set, request }) =>
        compatMetered(guard, request, set as Set, "browser", async (admission) => {
          const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
          sessionsOf(deps.engines).checkScrape(accountId, params.id);
          const input = readExecute(body, "node");
          const session = await sessionsOf(deps.engines).continueScrape(accountId, params.id, deps);
          return { body: await execute(deps, accountId, session, input), credits: 0 };
        }),
      {
        detail: {
          summary: "Continue a scrape's page (Firecrawl v2 scrape interaction)",
          description:
            "Runs node code in the page of a scrape made in the last 10 minutes by the same account: the first call opens a browser session at the scrape's page (its actions run again), later calls go on in it. DELETE closes it. prompt, bash and python are refused.",
        } as never,
      },
    )
    .delete(
      "/v2/scrape/:id/interact",
      async ({ params, request }) => {
        const stopped = await sessionsOf(deps.engines).stopScrape(await accountOf(guard, request), params.id);
        return { success: true, status: stopped ? "closed" : "none" };
      },
      { detail: { summary: "Stop continuing a scrape's page (Firecrawl v2)" } as never },
    )
    .get(
      "/v2/browser",
      async ({ request }) => ({
        success: true,
        sessions: sessionsOf(deps.engines)
          .list(await accountOf(guard, request))
          .map((s) => ({
            id: s.id,
            status: s.status,
            cdpUrl: "",
            liveViewUrl: "",
            streamWebView: false,
            createdAt: s.createdAt,
            lastActivity: s.lastActivity,
          })),
      }),
      { detail: { summary: "Your browser sessions (Firecrawl v2)" } as never },
    )
    .delete(
      "/v2/browser/:id",
      async ({ params, request }) => {
        const { durationMs } = await sessionsOf(deps.engines).close(
          await accountOf(guard, request),
          params.id,
        );
        return { success: true, status: "closed", sessionDurationMs: durationMs, creditsBilled: 0 };
      },
      { detail: { summary: "Close a browser session (Firecrawl v2)" } as never },
    );
}
