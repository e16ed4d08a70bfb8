import { type Static, Type as T } from "@sinclair/typebox";
import { SiphonError } from "../../src/errors.ts";
import type { WebhookEvent } from "../../src/jobs/webhooks.ts";
import { WATCH_HISTORY_KEPT, type WatchCreateInput } from "../../src/schemas/watch.ts";
import type { WatchHook } from "../../src/watch/index.ts";
import type { BodyFields } from "./http.ts";
import { notImplemented, Schedule } from "./monitor-schedule.ts";
import { shapeFor } from "./webhook.ts";

/** Firecrawl's monitor request bodies, and how one becomes a watch of one page. */

/** The surface a monitor's watch and webhook belong to. */
export const SURFACE = "firecrawl";

const Target = T.Object(
  {
    id: T.Optional(T.String({ maxLength: 100 })),
    type: T.String({ description: 'Only "scrape" (crawl and search targets are refused)' }),
    urls: T.Optional(T.Array(T.String(), { maxItems: 100, description: "Exactly one URL" })),
    url: T.Optional(T.String()),
    scrapeOptions: T.Optional(
      T.Object(
        {},
        {
          additionalProperties: true,
          description:
            "onlyMainContent (default true), includeTags, excludeTags, formats markdown/changeTracking",
        },
      ),
    ),
  },
  { additionalProperties: true },
);

const MonitorWebhook = T.Object(
  {
    url: T.String({ description: "HTTPS URL receiving monitor.page and monitor.check.completed" }),
    headers: T.Optional(
      T.Record(T.String({ maxLength: 200 }), T.String({ maxLength: 2000 }), { maxProperties: 20 }),
    ),
    metadata: T.Optional(T.Object({}, { additionalProperties: true })),
    events: T.Optional(
      T.Array(T.String(), {
        maxItems: 10,
        description: "monitor.page, monitor.check.completed; both when absent",
      }),
    ),
    secret: T.Optional(
      T.String({ maxLength: 512, description: "siphon's: X-Firecrawl-Signature: sha256=<hex HMAC-SHA256>" }),
    ),
  },
  { additionalProperties: false },
);

const fields = {
  name: T.String({ maxLength: 200 }),
  schedule: Schedule,
  targets: T.Array(Target, { minItems: 1, maxItems: 10, description: "One scrape target of one URL" }),
  webhook: T.Union([T.String(), MonitorWebhook, T.Null()]),
  notification: T.Union([T.Object({}, { additionalProperties: true }), T.Null()], {
    description: "Refused unless null or disabled: siphon sends no email",
  }),
  retentionDays: T.Union([T.Integer({ minimum: 1 }), T.Null()], {
    description: `Refused: siphon keeps the newest ${WATCH_HISTORY_KEPT} checks`,
  }),
  goal: T.Union([T.String({ maxLength: 2000 }), T.Null()], {
    description: "Accepted and not kept: siphon reports every change, without a judge",
  }),
  judgeEnabled: T.Boolean({ description: "Only false" }),
};

/** The fields both bodies may leave out. */
const optional = {
  name: T.Optional(fields.name),
  webhook: T.Optional(fields.webhook),
  notification: T.Optional(fields.notification),
  retentionDays: T.Optional(fields.retentionDays),
  goal: T.Optional(fields.goal),
  judgeEnabled: T.Optional(fields.judgeEnabled),
};

/** POST /v2/monitor. */
export const MonitorCreateBody = T.Object(
  { ...optional, schedule: fields.schedule, targets: fields.targets },
  { additionalProperties: false },
);

/** PATCH /v2/monitor/:id. */
export const MonitorUpdateBody = T.Object(
  {
    ...optional,
    status: T.Optional(T.Union([T.Literal("active"), T.Literal("paused")])),
    schedule: T.Optional(fields.schedule),
    targets: T.Optional(fields.targets),
  },
  { additionalProperties: false },
);

const SCRAPE_OPTIONS = new Set(["onlyMainContent", "includeTags", "excludeTags", "formats"]);
/** Scrape options that change nothing for a check (it always reads the page fresh). */
const IGNORED_OPTIONS = new Set(["maxAge", "storeInCache", "timeout", "origin", "proxy", "blockAds"]);

/** The one page a monitor's targets name, with its compare options. */
export function toPage(targets: Static<typeof Target>[]): Partial<WatchCreateInput> & { url: string } {
  if (targets.length !== 1 || targets[0]?.type !== "scrape") {
    const kinds = [...new Set(targets.map((target) => target.type))].join(", ");
    throw notImplemented(
      targets.length !== 1 ? "siphon monitors have one target" : `siphon monitors have no ${kinds} target`,
      "Give one scrape target of one URL, and create a monitor per page.",
    );
  }
  const target = targets[0];
  const urls = target.urls ?? (target.url ? [target.url] : []);
  if (urls.length !== 1) {
    throw notImplemented(
      `siphon monitors watch one page each; this target has ${urls.length}`,
      "Create a monitor per URL (POST /v2/monitor once for each).",
    );
  }
  const options = (target.scrapeOptions ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(options)) {
    if (SCRAPE_OPTIONS.has(key) || IGNORED_OPTIONS.has(key)) continue;
    if (value === undefined || value === null || value === false) continue;
    throw notImplemented(
      `scrapeOptions.${key} is not supported by siphon monitors`,
      "A monitor compares a page's markdown: onlyMainContent, includeTags and excludeTags choose what.",
    );
  }
  for (const format of (options.formats as unknown[] | undefined) ?? []) {
    const name = typeof format === "string" ? format : (format as { type?: unknown } | null)?.type;
    if (name !== "markdown" && name !== "changeTracking") {
      throw notImplemented(
        `formats ${JSON.stringify(format)} is not supported by siphon monitors`,
        'A monitor compares markdown: formats may name "markdown" and "changeTracking".',
      );
    }
  }
  const list = (key: string) => {
    const value = options[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
      throw new SiphonError("invalid_request", `scrapeOptions.${key} must be an array of strings`);
    }
    return value as string[];
  };
  const only = options.onlyMainContent;
  if (only !== undefined && typeof only !== "boolean") {
    throw new SiphonError("invalid_request", "scrapeOptions.onlyMainContent must be true or false");
  }
  return {
    url: urls[0] as string,
    // Firecrawl's default, as its scrape's.
    onlyMainContent: only ?? true,
    includeTags: list("includeTags") ?? [],
    excludeTags: list("excludeTags") ?? [],
  };
}

const EVENT_NAMES: Record<string, WebhookEvent> = {
  "monitor.page": "page",
  page: "page",
  "monitor.check.completed": "completed",
  "check.completed": "completed",
};

/** A Firecrawl monitor webhook as a watch's (Firecrawl's shape and signature); null removes it. */
export function toHook(raw: Static<typeof fields.webhook> | undefined): WatchHook | null | undefined {
  if (raw === undefined || raw === null) return raw;
  const base = { surface: SURFACE, shape: shapeFor("monitor") };
  if (typeof raw === "string") return { url: raw, ...base };
  const hook: WatchHook = { url: raw.url, ...base };
  if (raw.headers && Object.keys(raw.headers).length) hook.headers = raw.headers;
  if (raw.metadata) hook.metadata = raw.metadata;
  if (raw.secret) hook.secret = raw.secret;
  if (raw.events?.length) {
    hook.events = raw.events.map((name) => {
      const event = EVENT_NAMES[name];
      if (!event) {
        throw new SiphonError("invalid_request", `webhook.events: unknown event "${name}"`, {
          hint: "Events: monitor.page, monitor.check.completed.",
        });
      }
      return event;
    });
  }
  return hook;
}

/** Refuses what siphon cannot do (email, a retention in days, the judge); the warnings of what it drops. */
export function refuseUnsupported(body: Static<typeof MonitorUpdateBody>): string[] {
  const email = (body.notification as { email?: { enabled?: unknown } } | null | undefined)?.email;
  if (body.notification && email?.enabled !== false && Object.keys(body.notification).length) {
    throw notImplemented("notification is not supported by siphon", "Use a webhook: siphon sends no email.");
  }
  if (body.retentionDays !== undefined && body.retentionDays !== null) {
    throw notImplemented(
      "retentionDays is not supported by siphon",
      `siphon keeps the newest ${WATCH_HISTORY_KEPT} checks of a monitor; leave retentionDays out.`,
    );
  }
  if (body.judgeEnabled) {
    throw notImplemented("judgeEnabled is not supported by siphon", "siphon reports every change it finds.");
  }
  return body.goal
    ? ["goal is not kept: siphon does not judge changes, it reports every change it finds"]
    : [];
}

export const BODY_FIELDS: BodyFields = { accepted: Object.keys(MonitorUpdateBody.properties) };
