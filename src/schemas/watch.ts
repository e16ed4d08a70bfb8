import { type Static, Type as T } from "@sinclair/typebox";
import { MAX_URL_LENGTH } from "../fetch/url.ts";
import { StringEnum } from "./common.ts";

/** The check interval when a watch names none, minutes. */
export const DEFAULT_INTERVAL_MINUTES = 60;
/** The longest check interval, minutes (30 days). */
export const MAX_INTERVAL_MINUTES = 43_200;
/** Checks kept per watch, newest first; older ones are dropped as new ones are recorded. */
export const WATCH_HISTORY_KEPT = 100;
/** Longest diff kept with a check (characters); a longer one is cut and says so. */
export const MAX_STORED_DIFF_CHARS = 100_000;
/** Most watches one account may have. */
export const MAX_WATCHES_PER_ACCOUNT = 1000;

const interval = (name: string) =>
  T.Optional(
    T.Integer({
      minimum: 1,
      maximum: MAX_INTERVAL_MINUTES,
      description:
        name === "checkIntervalMinutes"
          ? `Minutes between checks (default ${DEFAULT_INTERVAL_MINUTES}; at least the server's minimum, SIPHON_WATCH_MIN_INTERVAL_MINUTES, default 5)`
          : "Alias of checkIntervalMinutes",
    }),
  );

const selectorList = (description: string) =>
  T.Array(T.String({ minLength: 1, maxLength: 500 }), { maxItems: 50, description });

/** What a check leaves out before it compares (docs/watch.md lists the rules). */
export const WatchIgnore = T.Object(
  {
    whitespace: T.Boolean({
      default: true,
      description: "Compare lines with runs of spaces collapsed, trimmed, blank lines dropped",
    }),
    dates: T.Boolean({
      default: true,
      description: 'Drop dates, times, weekdays and relative times ("3 minutes ago") before comparing',
    }),
    counters: T.Boolean({
      default: true,
      description: 'Drop the numbers of audience counters ("1,234 views", "Visitors: 56", "12 online")',
    }),
    patterns: T.Array(T.String({ minLength: 1, maxLength: 500 }), {
      maxItems: 50,
      default: [],
      description:
        "Regular expressions (JavaScript syntax, or /source/flags); every match is removed before comparing",
    }),
    selectors: T.Array(T.String({ minLength: 1, maxLength: 500 }), {
      maxItems: 50,
      default: [],
      description: "CSS selectors of elements left out of the compared content",
    }),
  },
  { additionalProperties: false, description: "Noise filters; all on by default" },
);
export type WatchIgnoreInput = Static<typeof WatchIgnore>;

/** A watch's webhook: `changed` events, signed like job webhooks. */
export const WatchWebhook = T.Object(
  {
    url: T.String({ description: "HTTPS URL receiving the events" }),
    events: T.Optional(
      T.Array(StringEnum(["changed"]), {
        maxItems: 1,
        description: 'Events to send: "changed" (the default)',
      }),
    ),
    secret: T.Optional(
      T.String({ maxLength: 512, description: "HMAC-SHA256 key: X-Siphon-Signature: sha256=<hex>" }),
    ),
    metadata: T.Optional(
      T.Object({}, { additionalProperties: true, description: "Echoed in every payload" }),
    ),
  },
  { additionalProperties: false },
);
export type WatchWebhookInput = Static<typeof WatchWebhook>;

const url = T.String({ maxLength: MAX_URL_LENGTH, description: "The page to watch (http or https)" });

/** The fields besides url, status and webhook that a watch is created with and PATCH may change. */
const watchFields = {
  name: T.Optional(T.String({ maxLength: 200, description: "A name to recognise the watch by" })),
  checkIntervalMinutes: interval("checkIntervalMinutes"),
  interval: interval("interval"),
  intervalMinutes: interval("intervalMinutes"),
  format: T.Optional(
    StringEnum(["markdown", "text", "html"], {
      description: "Format of the content compared (default markdown)",
    }),
  ),
  onlyMainContent: T.Optional(T.Boolean({ description: "Compare only the main content (default false)" })),
  includeTags: T.Optional(selectorList("Tags or CSS selectors: compare only these parts of the page")),
  selector: T.Optional(
    T.String({
      minLength: 1,
      maxLength: 500,
      description: "One CSS selector: compare only this part of the page (includeTags: [selector])",
    }),
  ),
  excludeTags: T.Optional(selectorList("Tags or CSS selectors removed from the content")),
  render: T.Optional(
    T.Boolean({ description: "Render the page in a headless browser (default false: plain HTTP)" }),
  ),
  ignore: T.Optional(
    T.Partial(WatchIgnore, {
      additionalProperties: false,
      description:
        "Noise filters (all on by default); a PATCH replaces them, fields left out taking their defaults",
    }),
  ),
};

/** POST /v1/watch body, and `siphon watch add`'s flags. */
export const WatchCreateBody = T.Object(
  {
    url,
    ...watchFields,
    status: T.Optional(StringEnum(["active", "paused"], { description: "Start paused (default active)" })),
    webhook: T.Optional(WatchWebhook),
  },
  { additionalProperties: false },
);
export type WatchCreateInput = Static<typeof WatchCreateBody>;

/** PATCH /v1/watch/:id body: any field of the create body; webhook null removes it. */
export const WatchPatchBody = T.Object(
  {
    url: T.Optional(url),
    ...watchFields,
    status: T.Optional(StringEnum(["active", "paused"], { description: "Pause or resume the watch" })),
    webhook: T.Optional(T.Union([WatchWebhook, T.Null()], { description: "The webhook; null removes it" })),
  },
  { additionalProperties: false },
);
export type WatchPatchInput = Static<typeof WatchPatchBody>;

/** GET /v1/watch query. */
export const WatchListQuery = T.Object(
  {
    limit: T.Integer({ minimum: 1, maximum: MAX_WATCHES_PER_ACCOUNT, default: 100 }),
    offset: T.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
  },
  { additionalProperties: false },
);

/** GET /v1/watch/:id query: how much history to include. */
export const WatchGetQuery = T.Object(
  {
    history: T.Integer({
      minimum: 0,
      maximum: WATCH_HISTORY_KEPT,
      default: 10,
      description: `Newest checks to include (0-${WATCH_HISTORY_KEPT}, default 10)`,
    }),
  },
  { additionalProperties: false },
);

const nullableTime = (description: string) => T.Union([T.String(), T.Null()], { description });

/** A watch as the API shows it (the webhook's secret is never shown). */
export const WatchView = T.Object({
  id: T.String({ description: "watch_<uuid>" }),
  url: T.String(),
  name: T.Union([T.String(), T.Null()]),
  status: StringEnum(["active", "paused", "error"], {
    description:
      "error: the last check failed; the watch keeps being checked and is active again once one succeeds",
  }),
  checkIntervalMinutes: T.Integer(),
  format: StringEnum(["markdown", "text", "html"]),
  onlyMainContent: T.Boolean(),
  includeTags: T.Array(T.String()),
  excludeTags: T.Array(T.String()),
  render: T.Boolean(),
  ignore: WatchIgnore,
  webhook: T.Union(
    [
      T.Object({
        url: T.String(),
        events: T.Array(T.String()),
        signed: T.Boolean({ description: "A secret is set: deliveries carry X-Siphon-Signature" }),
        metadata: T.Optional(T.Object({}, { additionalProperties: true })),
      }),
      T.Null(),
    ],
    { description: "null when no webhook is set" },
  ),
  lastFingerprint: T.Union([T.String(), T.Null()], {
    description: "Fingerprint of the content compared at the last successful check (after the noise filters)",
  }),
  lastCheckedAt: nullableTime("ISO 8601; null before the first check"),
  lastChangedAt: nullableTime("ISO 8601 of the last check that found a change"),
  lastError: T.Union([T.String(), T.Null()], { description: "Why the last check failed, when it did" }),
  changeCount: T.Integer({ description: "Checks that found a change" }),
  checkCount: T.Integer({ description: "Checks recorded, failed ones included" }),
  nextCheckAt: nullableTime("ISO 8601 of the next scheduled check; null while paused"),
  createdAt: T.String(),
  updatedAt: T.String(),
});
export type WatchViewShape = Static<typeof WatchView>;

/** One check of a watch, as POST /v1/watch/:id/check answers it and the history lists it. */
export const WatchCheckView = T.Object({
  id: T.String({ description: "chk_<uuid>" }),
  watchId: T.String(),
  checkedAt: T.String({ description: "ISO 8601" }),
  trigger: StringEnum(["scheduled", "manual"]),
  status: StringEnum(["baseline", "same", "changed", "error"], {
    description: "baseline: the first check (or the first after the watch's page or options changed)",
  }),
  changed: T.Boolean(),
  previousFingerprint: T.Union([T.String(), T.Null()]),
  currentFingerprint: T.Union([T.String(), T.Null()], { description: "null when the check failed" }),
  summary: T.String({ description: "One line saying what happened" }),
  addedText: T.Array(T.String(), { description: "Lines added since the previous check (at most 200)" }),
  removedText: T.Array(T.String(), { description: "Lines removed since the previous check (at most 200)" }),
  diff: T.Union([T.String(), T.Null()], {
    description: `Unified, line-based diff of the compared content (previous.md -> current.md); only when changed; cut at ${MAX_STORED_DIFF_CHARS} characters`,
  }),
  statusCode: T.Union([T.Integer(), T.Null()], { description: "HTTP status the page answered with" }),
  error: T.Union([T.String(), T.Null()], { description: "Why the check failed" }),
});
export type WatchCheckViewShape = Static<typeof WatchCheckView>;

export const WatchResponse = T.Object({ success: T.Literal(true), watch: WatchView });
export const WatchDetailResponse = T.Object({
  success: T.Literal(true),
  watch: WatchView,
  history: T.Array(WatchCheckView, {
    description: `Newest checks first (?history=, default 10; ${WATCH_HISTORY_KEPT} are kept)`,
  }),
});
export const WatchListResponse = T.Object({
  success: T.Literal(true),
  count: T.Integer(),
  watches: T.Array(WatchView),
});
export const WatchCheckResponse = T.Composite([T.Object({ success: T.Literal(true) }), WatchCheckView]);
export const WatchDeleteResponse = T.Object({
  success: T.Literal(true),
  id: T.String(),
  deleted: T.Literal(true),
});
