import { type Static, Type as T } from "@sinclair/typebox";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { SiphonError } from "../../src/errors.ts";
import { operationCredits } from "../../src/pipeline/credits.ts";
import { queryNumber } from "../../src/schemas/common.ts";
import { validate } from "../../src/schemas/validate.ts";
import { WATCH_HISTORY_KEPT, type WatchCreateInput, type WatchPatchInput } from "../../src/schemas/watch.ts";
import type { WatchCheckRecord, WatchRecord } from "../../src/store/types.ts";
import type { WatchService } from "../../src/watch/index.ts";
import { type Guard, identify } from "../guard.ts";
import { jsonRequestBody } from "../openapi.ts";
import { authRequest, compatMetered, compatPlugin, readFirecrawlBody } from "./http.ts";
import {
  BODY_FIELDS,
  MonitorCreateBody,
  MonitorUpdateBody,
  refuseUnsupported,
  SURFACE,
  toHook,
  toPage,
} from "./monitor-body.ts";
import { scheduleMinutes } from "./monitor-schedule.ts";
import { checkView, firecrawlMonitorEvents, monitorView, pageView } from "./monitor-views.ts";

/**
 * Firecrawl's monitor API (/v2/monitor) over siphon's watches: a monitor is a watch of one
 * page, its checks the watch's checks, its webhook a watch webhook in Firecrawl's shape
 * (monitor.page and monitor.check.completed, X-Firecrawl-Signature). This file translates
 * shapes; scheduling, noise filters, diffs and history are the watch's (src/watch).
 */

const ListQuery = T.Object(
  {
    limit: T.Integer({ minimum: 1, maximum: 1000, default: 100 }),
    offset: T.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
    status: T.Optional(T.String({ maxLength: 40 })),
  },
  { additionalProperties: true },
);
const PageQuery = T.Object(
  {
    limit: T.Integer({ minimum: 1, maximum: 1000, default: 100 }),
    skip: T.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
    status: T.Optional(T.String({ maxLength: 40 })),
  },
  { additionalProperties: true },
);

// ---------------------------------------------------------------------------------------------

/** Paging of a list: limit with offset (monitors, checks) or skip (a check's pages), and a status. */
function query<S extends typeof ListQuery | typeof PageQuery>(
  raw: Record<string, unknown>,
  schema: S,
): Static<S> {
  const numbers = Object.fromEntries(
    ["limit", "offset", "skip"]
      .filter((k) => raw[k] !== undefined)
      .map((k) => [k, queryNumber(raw[k] as string)]),
  );
  return validate(schema, { ...raw, ...numbers });
}

/**
 * POST/GET /v2/monitor, GET/PATCH/DELETE /v2/monitor/:id, POST /v2/monitor/:id/run, GET
 * /v2/monitor/:id/checks[/:checkId], answered Firecrawl's way. Creating is a metered request (no
 * credit), a run costs a credit when it reads the page; the rest is not metered.
 */
export function monitorRoutes(options: { watches: WatchService }, guard: Guard) {
  const watches = options.watches;
  watches.setNotifier(SURFACE, firecrawlMonitorEvents);
  const accountOf = async (request: Request) => (await identify(guard, authRequest(request))).account.id;
  const owned = async (request: Request, id: string) => watches.get(id, await accountOf(request));
  const last = async (watch: WatchRecord) => (await watches.history(watch, 1))[0];

  return compatPlugin("compat:monitor")
    .post(
      "/v2/monitor",
      ({ body, set, request }) => {
        const read = validate(MonitorCreateBody, readFirecrawlBody(body, BODY_FIELDS));
        const warnings = refuseUnsupported(read);
        const page = toPage(read.targets);
        const input: WatchCreateInput = {
          ...page,
          name: read.name ?? `Monitor ${page.url}`,
          checkIntervalMinutes: scheduleMinutes(read.schedule),
        };
        const webhook = toHook(read.webhook);
        return compatMetered(guard, request, set, "monitor", async (admission) => {
          const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
          const watch = await watches.create(input, accountId, { webhook });
          const answer: Record<string, unknown> = { success: true, data: monitorView(watch, undefined) };
          if (warnings.length) answer.warning = warnings.join("; ");
          return { body: answer, credits: 0 };
        });
      },
      {
        detail: {
          summary: "Create a monitor (Firecrawl): a watch of one page",
          description:
            "Firecrawl's monitor over a siphon watch: one scrape target of one URL; schedule.cron of a fixed interval or schedule.text in words; webhook (a URL or {url, headers, metadata, events, secret}) gets monitor.page and monitor.check.completed, signed X-Firecrawl-Signature with secret. goal is accepted and not kept (no judge). Refused (400): crawl and search targets, several URLs, notification, retentionDays, judgeEnabled, times of day. 200 {success, data: monitor}.",
          requestBody: jsonRequestBody(MonitorCreateBody),
        } as never,
      },
    )
    .get(
      "/v2/monitor",
      async ({ query: raw, request }) => {
        const { limit, offset } = query(raw as Record<string, unknown>, ListQuery);
        const list = await watches.list(await accountOf(request), limit + 1, offset);
        const page = list.slice(0, limit);
        const data = await Promise.all(page.map(async (watch) => monitorView(watch, await last(watch))));
        return { success: true, data, pagination: { limit, offset, hasMore: list.length > limit } };
      },
      { detail: { summary: "List your monitors (Firecrawl): {success, data, pagination}; not metered" } },
    )
    .get(
      "/v2/monitor/:id",
      async ({ params, request }) => {
        const watch = await owned(request, params.id);
        return { success: true, data: monitorView(watch, await last(watch)) };
      },
      { detail: { summary: "A monitor (Firecrawl); not metered" } },
    )
    .patch(
      "/v2/monitor/:id",
      async ({ params, body, request }) => {
        const accountId = await accountOf(request);
        await watches.get(params.id, accountId);
        const read = validate(MonitorUpdateBody, readFirecrawlBody(body, BODY_FIELDS));
        refuseUnsupported(read);
        const patch: WatchPatchInput = read.targets ? toPage(read.targets) : {};
        if (read.name !== undefined) patch.name = read.name;
        if (read.status !== undefined) patch.status = read.status;
        if (read.schedule) patch.checkIntervalMinutes = scheduleMinutes(read.schedule);
        const webhook = toHook(read.webhook);
        const watch = await watches.update(
          params.id,
          accountId,
          patch,
          webhook === undefined ? {} : { webhook },
        );
        return { success: true, data: monitorView(watch, await last(watch)) };
      },
      {
        detail: {
          summary: "Change, pause or resume a monitor (Firecrawl); not metered",
          requestBody: jsonRequestBody(MonitorUpdateBody),
        } as never,
      },
    )
    .delete(
      "/v2/monitor/:id",
      async ({ params, request }) => {
        await watches.remove(params.id, await accountOf(request));
        return { success: true, data: { id: params.id, deleted: true } };
      },
      { detail: { summary: "Delete a monitor and its checks (Firecrawl)" } },
    )
    .post(
      "/v2/monitor/:id/run",
      ({ params, set, request }) =>
        compatMetered(guard, authRequest(request), set, "monitor", async (admission) => {
          const accountId = admission?.principal.account.id ?? LOCAL_ACCOUNT_ID;
          const watch = await watches.get(params.id, accountId);
          try {
            const check = await watches.checkNow(params.id, accountId, {
              httpOnly: admission?.softLimited,
              signal: request.signal,
            });
            return {
              body: { success: true, data: checkView(watch, check) },
              credits: operationCredits.watchCheck(),
            };
          } catch (error) {
            // A page that could not be read is a failed check, recorded: Firecrawl answers it as one.
            const kind = (error as SiphonError).type;
            const recorded = await last(watch);
            if (
              recorded?.status !== "error" ||
              ["not_found", "rate_limited", "not_implemented"].includes(kind)
            )
              throw error;
            return {
              body: { success: true, data: checkView(watch, recorded as WatchCheckRecord) },
              credits: 0,
            };
          }
        }),
      { detail: { summary: "Check a monitor now (Firecrawl): {success, data: check}; 1 credit" } },
    )
    .get(
      "/v2/monitor/:id/checks",
      async ({ params, query: raw, request }) => {
        const watch = await owned(request, params.id);
        const { limit, offset, status } = query(raw as Record<string, unknown>, ListQuery);
        const all = (await watches.history(watch, WATCH_HISTORY_KEPT)).map((check) =>
          checkView(watch, check),
        );
        const matching = status ? all.filter((check) => check.status === status) : all;
        const data = matching.slice(offset, offset + limit);
        return {
          success: true,
          data,
          pagination: { limit, offset, hasMore: offset + limit < matching.length },
        };
      },
      {
        detail: {
          summary: `A monitor's checks, newest first (Firecrawl); the newest ${WATCH_HISTORY_KEPT} are kept; not metered`,
        },
      },
    )
    .get(
      "/v2/monitor/:id/checks/:checkId",
      async ({ params, query: raw, request }) => {
        const watch = await owned(request, params.id);
        const { limit, skip, status } = query(raw as Record<string, unknown>, PageQuery);
        const check = (await watches.history(watch, WATCH_HISTORY_KEPT)).find((c) => c.id === params.checkId);
        if (!check) throw new SiphonError("not_found", `No check ${params.checkId} of monitor ${watch.id}`);
        const pages = [pageView(watch, check)].filter((page) => !status || page.status === status);
        return {
          success: true,
          data: { ...checkView(watch, check), pages: pages.slice(skip, skip + limit), next: null },
        };
      },
      { detail: { summary: "One check of a monitor with its page and diff (Firecrawl); not metered" } },
    );
}
