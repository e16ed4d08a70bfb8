import { Type as T } from "@sinclair/typebox";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { SiphonError } from "../../src/errors.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { SessionCreateBody } from "../../src/schemas/sessions.ts";
import { validate } from "../../src/schemas/validate.ts";
import { type Guard, identify } from "../guard.ts";
import { sessionsOf } from "../routes/browser.ts";
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
          const session = await sessionsOf(deps).create(accountId, input, deps);
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
      ({ body, params, set, request }) => {
        const input = validate(
          ExecuteBody,
          readFirecrawlBody(body ?? {}, {
            accepted: ["code", "language", "timeout"],
            ignored: [],
            unsupported: {},
          }),
        );
        const language = (input.language ?? "bash").toLowerCase();
        if (language !== "node" && language !== "javascript" && language !== "js") {
          throw notSupported(
            `language "${language}"`,
            'Send JavaScript with language "node": it runs in the page.',
          );
        }
        return compatMetered(guard, request, set as Set, "browser", async (admission) => {
          const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
          const action = { type: "executeJavascript", script: input.code };
          try {
            const outcome = await sessionsOf(deps).act(accountId, params.id, {
              actions: [action as never],
              timeout: (input.timeout ?? 30) * 1000,
            });
            const value = outcome.actions.javascriptReturns[0]?.value ?? null;
            return {
              body: { success: true, result: JSON.stringify(value), stdout: "", stderr: "", exitCode: 0 },
              credits: 0,
            };
          } catch (error) {
            // The script's own failure is the run's outcome, as a process's non-zero exit is.
            if (!(error instanceof SiphonError) || error.type !== "invalid_request") throw error;
            return {
              body: { success: true, result: "", stdout: "", stderr: error.message, exitCode: 1 },
              credits: 0,
            };
          }
        });
      },
      { detail: { summary: "Run code in a browser session's page (Firecrawl v2)" } as never },
    )
    .get(
      "/v2/browser",
      async ({ request }) => ({
        success: true,
        sessions: sessionsOf(deps)
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
        const { durationMs } = await sessionsOf(deps).close(await accountOf(guard, request), params.id);
        return { success: true, status: "closed", sessionDurationMs: durationMs, creditsBilled: 0 };
      },
      { detail: { summary: "Close a browser session (Firecrawl v2)" } as never },
    );
}
