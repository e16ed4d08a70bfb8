import { Elysia } from "elysia";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { actionsJson } from "../../src/pipeline/result.ts";
import { FetchResult } from "../../src/schemas/fetch.ts";
import { SessionActBody, SessionCreateBody, SessionReadBody } from "../../src/schemas/sessions.ts";
import { validate } from "../../src/schemas/validate.ts";
import { sessionsOf } from "../../src/sessions/index.ts";
import { type Guard, identify, metered } from "../guard.ts";
import { jsonRequestBody, responses } from "../openapi.ts";

type Set = { headers: Record<string, string | number> };

/** The caller's account, for requests that are not metered (list, close). */
async function accountOf(guard: Guard, request: Request): Promise<string> {
  if (guard.off) return LOCAL_ACCOUNT_ID;
  return (await identify(guard, request)).account.id;
}

const DOC =
  "A browser session keeps one page open between requests: open it (POST /v1/browser, optionally at a url), go to pages and run actions step by step (POST /v1/browser/:id/actions: url, actions as POST /v1/fetch's, executeJavascript and screenshot included), read the page as it is now in any format (POST /v1/browser/:id/read: format, formats, onlyMainContent, extract, …), list (GET /v1/browser) and close (DELETE /v1/browser/:id). A session closes after its ttl or activityTtl (seconds); an account keeps at most SIPHON_BROWSER_SESSIONS_PER_ACCOUNT open, and sessions leave the pool one page for fetches (429 past either). Every request the page makes goes through the SSRF guard. Credits: 1 for each step that goes to a page (opening at a url included); reading and acting on the page already there are free. Sessions live in the server process that opened them.";

/** POST/GET /v1/browser, POST /v1/browser/:id/actions and /read, DELETE /v1/browser/:id. */
export function browserRoutes(deps: FetchDeps, guard: Guard) {
  return new Elysia({ name: "routes:browser" })
    .post(
      "/v1/browser",
      ({ body, set, request }) => {
        const input = validate(SessionCreateBody, body);
        return metered(guard, request, set as Set, "browser", async (admission) => {
          const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
          const session = await sessionsOf(deps.engines).create(accountId, input, deps);
          return { body: { success: true, ...session }, credits: input.url ? 1 : 0 };
        });
      },
      {
        detail: {
          summary: "Open a browser session",
          description: DOC,
          requestBody: jsonRequestBody(SessionCreateBody),
        } as never,
      },
    )
    .get(
      "/v1/browser",
      async ({ request }) => ({
        success: true,
        sessions: sessionsOf(deps.engines).list(await accountOf(guard, request)),
      }),
      { detail: { summary: "Your open browser sessions", description: DOC } as never },
    )
    .post(
      "/v1/browser/:id/actions",
      ({ body, params, set, request }) =>
        metered(guard, request, set as Set, "browser", async (admission) => {
          const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
          // Whose session it is comes first: another's, or one that ended, is a 404 whatever the body.
          sessionsOf(deps.engines).check(accountId, params.id);
          const input = validate(SessionActBody, body);
          const outcome = await sessionsOf(deps.engines).act(accountId, params.id, input);
          return {
            body: { success: true, url: outcome.url, actions: actionsJson(outcome.actions) },
            credits: outcome.visited ? 1 : 0,
          };
        }),
      {
        detail: {
          summary: "Go to a page and/or run actions in a browser session",
          description: `Answers {success, url, actions: {screenshots, scrapes, javascriptReturns, pdfs}} (base64 images and PDFs). ${DOC}`,
          requestBody: jsonRequestBody(SessionActBody),
        } as never,
      },
    )
    .post(
      "/v1/browser/:id/read",
      ({ body, params, set, request }) =>
        metered(guard, request, set as Set, "browser", async (admission) => {
          const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
          sessionsOf(deps.engines).check(accountId, params.id);
          const input = validate(SessionReadBody, body ?? {});
          const outcome = await sessionsOf(deps.engines).read(accountId, params.id, input, {
            ...deps,
            signal: request.signal,
            apiBasePolicy: "guard",
          });
          // The page is already in the session: reading it visits nothing.
          return { body: outcome.result, credits: 0, tokens: outcome.tokens };
        }),
      {
        detail: {
          summary: "Read a browser session's page as it is now",
          description: `The Fetch result of the page as it is now (the same extraction and formats as POST /v1/parse). ${DOC}`,
          requestBody: jsonRequestBody(SessionReadBody),
          responses: responses(FetchResult),
        } as never,
      },
    )
    .delete(
      "/v1/browser/:id",
      async ({ params, request }) => {
        const { durationMs } = await sessionsOf(deps.engines).close(
          await accountOf(guard, request),
          params.id,
        );
        return { success: true, status: "closed", sessionDurationMs: durationMs };
      },
      { detail: { summary: "Close a browser session", description: DOC } as never },
    );
}
