import { Elysia } from "elysia";
import { operationCredits } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { queryNumber } from "../../src/schemas/common.ts";
import { validate } from "../../src/schemas/validate.ts";
import {
  MAX_STORED_DIFF_CHARS,
  WATCH_HISTORY_KEPT,
  WatchCheckResponse,
  WatchCreateBody,
  WatchDeleteResponse,
  WatchDetailResponse,
  WatchGetQuery,
  WatchListQuery,
  WatchListResponse,
  WatchPatchBody,
  WatchResponse,
} from "../../src/schemas/watch.ts";
import { checkView, createWatchService, type WatchService, watchView } from "../../src/watch/index.ts";
import { type Guard, identify, metered } from "../guard.ts";
import { jsonRequestBody, queryParameters, responses } from "../openapi.ts";

/** A creation answers 201 with the body the 200 of `responses` describes. */
function created(described: Record<string, unknown>) {
  const { 200: ok, ...rest } = described;
  return { 201: { ...(ok as object), description: "Created" }, ...rest };
}

const accountOf = async (guard: Guard, request: Request) => (await identify(guard, request)).account.id;

const CREATE =
  "Creates a watch: the page is checked every checkIntervalMinutes (aliases interval, intervalMinutes; default " +
  "60, at least SIPHON_WATCH_MIN_INTERVAL_MINUTES) while `siphon serve` runs; the first check, due at once, " +
  "records the baseline. format, onlyMainContent, includeTags (or selector), excludeTags and render choose " +
  "what is compared; `ignore` filters noise before comparing (whitespace, dates and times, audience counters, " +
  "your regular expressions and CSS selectors; all but yours on by default). A webhook gets a `changed` event " +
  "signed with X-Siphon-Signature, retried like job webhooks. Counts as a request (no credit); each check " +
  "costs 1 credit when it reads the page.";

const CHECK =
  "Checks the watch now (paused ones too) and answers the check: {changed, previousFingerprint, " +
  "currentFingerprint, summary, addedText, removedText, diff} (a unified, line-based diff of the compared " +
  `content, cut at ${MAX_STORED_DIFF_CHARS} characters). A page that cannot be read answers the fetch's ` +
  "error (the failed check is recorded, the watch's status becomes error). 1 credit.";

/**
 * /v1/watch: translate the request, call the watch service, shape the answer. Create and
 * check are metered (a check costs a credit); reading, changing and deleting are not.
 */
export function watchRoutes(deps: FetchDeps, guard: Guard, given?: WatchService) {
  const service = given ?? createWatchService({ ...deps, now: guard.now });
  return new Elysia({ name: "routes:watch" })
    .post(
      "/v1/watch",
      ({ body, set, request }) => {
        const input = validate(WatchCreateBody, body);
        return metered(guard, request, set, "watch", async (admission) => {
          const accountId = admission?.principal.account.id ?? (await accountOf(guard, request));
          const watch = await service.create(input, accountId);
          set.status = 201;
          return { body: { success: true, watch: watchView(watch) }, credits: 0 };
        });
      },
      {
        detail: {
          summary: "Create a watch (change monitoring of one page)",
          description: CREATE,
          requestBody: jsonRequestBody(WatchCreateBody),
          responses: created(responses(WatchResponse, [400, 401, 403, 429])),
        } as never,
      },
    )
    .get(
      "/v1/watch",
      async ({ query, request }) => {
        const page = validate(WatchListQuery, {
          ...query,
          limit: queryNumber(query.limit as string | undefined),
          offset: queryNumber(query.offset as string | undefined),
        });
        const watches = await service.list(await accountOf(guard, request), page.limit, page.offset);
        return { success: true, count: watches.length, watches: watches.map(watchView) };
      },
      {
        detail: {
          summary: "List your watches",
          description: "Oldest first; ?limit= (default 100) and ?offset=. Not metered.",
          parameters: queryParameters(WatchListQuery),
          responses: responses(WatchListResponse, [400, 401]),
        } as never,
      },
    )
    .get(
      "/v1/watch/:id",
      async ({ params, query, request }) => {
        const { history } = validate(WatchGetQuery, {
          ...query,
          history: queryNumber(query.history as string | undefined),
        });
        const watch = await service.get(params.id, await accountOf(guard, request));
        const checks = await service.history(watch, history);
        return { success: true, watch: watchView(watch), history: checks.map(checkView) };
      },
      {
        detail: {
          summary: "A watch's status and its newest checks",
          description: `?history= newest checks (default 10; the newest ${WATCH_HISTORY_KEPT} are kept). Not metered.`,
          parameters: queryParameters(WatchGetQuery),
          responses: responses(WatchDetailResponse, [400, 401, 404]),
        } as never,
      },
    )
    .patch(
      "/v1/watch/:id",
      async ({ params, body, request }) => {
        const accountId = await accountOf(guard, request);
        // An unknown watch is a 404 whatever the body.
        await service.get(params.id, accountId);
        const watch = await service.update(params.id, accountId, validate(WatchPatchBody, body));
        return { success: true, watch: watchView(watch) };
      },
      {
        detail: {
          summary: "Change, pause or resume a watch",
          description:
            "Any field of the create body; status active|paused; webhook null removes it. A new url, fetch " +
            "options or noise rules start a new baseline at the next check (due at once). Not metered.",
          requestBody: jsonRequestBody(WatchPatchBody),
          responses: responses(WatchResponse, [400, 401, 403, 404]),
        } as never,
      },
    )
    .delete(
      "/v1/watch/:id",
      async ({ params, request }) => {
        await service.remove(params.id, await accountOf(guard, request));
        return { success: true, id: params.id, deleted: true };
      },
      {
        detail: {
          summary: "Delete a watch and its history",
          description: "Not metered.",
          responses: responses(WatchDeleteResponse, [401, 404]),
        } as never,
      },
    )
    .post(
      "/v1/watch/:id/check",
      ({ params, set, request }) =>
        metered(guard, request, set, "watch", async (admission) => {
          const accountId = admission?.principal.account.id ?? (await accountOf(guard, request));
          const check = await service.checkNow(params.id, accountId, {
            httpOnly: admission?.softLimited,
            signal: request.signal,
          });
          return { body: { success: true, ...checkView(check) }, credits: operationCredits.watchCheck() };
        }),
      {
        detail: {
          summary: "Check a watch now",
          description: CHECK,
          responses: responses(WatchCheckResponse, [401, 403, 404, 429, 502, 504]),
        } as never,
      },
    );
}
