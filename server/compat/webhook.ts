import { Type as T } from "@sinclair/typebox";
import { SiphonError } from "../../src/errors.ts";
import {
  type ShapedDelivery,
  signPayload,
  type WebhookConfig,
  type WebhookEvent,
  type WebhookShaper,
} from "../../src/jobs/webhooks.ts";
import { validate } from "../../src/schemas/validate.ts";

/** Firecrawl's webhook object; `secret` is siphon's (see FirecrawlWebhook). */
const WebhookObject = T.Object(
  {
    url: T.String({ description: "HTTPS URL receiving the events" }),
    headers: T.Optional(
      T.Record(T.String({ maxLength: 200 }), T.String({ maxLength: 2000 }), {
        maxProperties: 20,
        description: "Sent with every delivery",
      }),
    ),
    metadata: T.Optional(T.Object({}, { additionalProperties: true, description: "Echoed as metadata" })),
    events: T.Optional(
      T.Array(T.String(), {
        maxItems: 20,
        description:
          'started, page, completed, failed (or Firecrawl\'s full names, "crawl.page"…); all when absent',
      }),
    ),
    secret: T.Optional(
      T.String({
        maxLength: 512,
        description: "siphon's: signs every delivery, X-Firecrawl-Signature: sha256=<hex HMAC-SHA256>",
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Firecrawl's `webhook`: a URL, or `{url, headers?, metadata?, events?}`; `secret` is siphon's
 * (Firecrawl signs with a secret set in its dashboard, siphon has none): with it, deliveries
 * carry X-Firecrawl-Signature: sha256=<hex HMAC-SHA256(secret, body)>.
 */
export const FirecrawlWebhook = T.Union([
  T.String({ description: "Webhook URL: every event, unsigned" }),
  WebhookObject,
]);

const EVENTS: readonly WebhookEvent[] = ["started", "page", "completed", "failed"];
/** Agent events Firecrawl has and siphon never sends (no actions, no cancel webhook). */
const NEVER_SENT = new Set(["action", "cancelled"]);

/**
 * A Firecrawl webhook as the job's webhook config (deliveries in Firecrawl's shape, named
 * `<type>.<event>`); undefined when absent, or when every event it subscribes to is one siphon
 * never sends. Throws invalid_request for an event Firecrawl does not have. The target is
 * checked (HTTPS, SSRF) when the job is submitted.
 */
export function toWebhook(raw: unknown, type: FirecrawlJobType): WebhookConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === "string") return { url: raw, shape: shapeFor(type) };
  const given = validate(WebhookObject, raw);
  const hook: WebhookConfig = { url: given.url, shape: shapeFor(type) };
  if (given.headers && Object.keys(given.headers).length) hook.headers = given.headers;
  if (given.metadata) hook.metadata = given.metadata;
  if (given.secret) hook.secret = given.secret;
  if (given.events?.length) {
    const events = new Set<WebhookEvent>();
    for (const name of given.events) {
      const short = name.startsWith(`${type}.`) ? name.slice(type.length + 1) : name;
      if ((EVENTS as readonly string[]).includes(short)) events.add(short as WebhookEvent);
      else if (!NEVER_SENT.has(short)) {
        throw new SiphonError("invalid_request", `webhook.events: unknown event "${name}"`, {
          hint: `Events: started, page, completed, failed (or ${type}.started…).`,
        });
      }
    }
    if (!events.size) return undefined;
    hook.events = [...events];
  }
  return hook;
}

/** The prefix of Firecrawl's event names for each kind of job (and for a watch's monitor). */
export type FirecrawlJobType = "crawl" | "batch_scrape" | "extract" | "agent" | "monitor";

/** The surface name Firecrawl-shaped hooks carry (WebhookConfig.shape). */
export const FIRECRAWL_SURFACE = "firecrawl";

/** A hook of Firecrawl's shape for `type`. */
export const shapeFor = (type: FirecrawlJobType) => ({ surface: FIRECRAWL_SURFACE, type });

/**
 * A delivery in Firecrawl's shape: `{success, type: "<type>.<event>", id, webhookId, data,
 * error?, metadata}`. `data` is [] but for a page (the page as the job keeps it: the runner's
 * url and title taken off) and for a completed extract or agent job (its result).
 */
export function firecrawlPayload(
  hook: WebhookConfig,
  event: WebhookEvent,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const type = hook.shape?.type ?? "crawl";
  if (type === "monitor") return monitorPayload(hook, event, data);
  const { jobId, ...rest } = data;
  let items: unknown[] = [];
  if (event === "page") {
    const { url: _url, title: _title, ...page } = rest;
    items = [page];
  } else if (event === "completed" && rest.result !== undefined) items = [rest.result];
  else if (event === "completed" && rest.data !== undefined) items = [rest.data];
  const payload: Record<string, unknown> = {
    success: event !== "failed",
    type: `${type}.${event}`,
    id: jobId,
    webhookId: crypto.randomUUID(),
    data: items,
    metadata: hook.metadata ?? {},
  };
  if (event === "failed") payload.error = rest.error;
  return payload;
}

/**
 * A monitor's delivery in Firecrawl's shape: `monitor.page` (event page) or
 * `monitor.check.completed` (event completed), `id` the check's id, `data` the items the surface
 * built (`data.items`), `success` false when the surface says the check had errors.
 */
function monitorPayload(hook: WebhookConfig, event: WebhookEvent, data: Record<string, unknown>) {
  return {
    success: data.success !== false,
    type: event === "page" ? "monitor.page" : "monitor.check.completed",
    id: data.checkId,
    webhookId: crypto.randomUUID(),
    data: data.items ?? [],
    metadata: hook.metadata ?? {},
  };
}

/** Firecrawl's deliveries: its payload, signed X-Firecrawl-Signature when the hook has a secret. */
export const firecrawlShaper: WebhookShaper = {
  deliver(hook, event, data): ShapedDelivery {
    const body = JSON.stringify(firecrawlPayload(hook, event, data));
    const headers: Record<string, string> = {};
    if (hook.secret) headers["x-firecrawl-signature"] = signPayload(hook.secret, body);
    return { body, headers };
  },
  reservedHeaders: ["x-firecrawl-signature"],
};
