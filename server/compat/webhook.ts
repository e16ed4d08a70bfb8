import { Type as T } from "@sinclair/typebox";
import { SiphonError } from "../../src/errors.ts";
import type { FirecrawlJobType, WebhookConfig, WebhookEvent } from "../../src/jobs/webhooks.ts";
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
  if (typeof raw === "string") return { url: raw, firecrawl: { type } };
  const given = validate(WebhookObject, raw);
  const hook: WebhookConfig = { url: given.url, firecrawl: { type } };
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
