import { createHmac } from "node:crypto";
import type { Config } from "../config.ts";
import { isRetryable, SiphonError } from "../errors.ts";
import { createHttpClient } from "../fetch/http-client.ts";
import { effectivePort, ipLiteral, parseAllowList, type Resolver, refusalReason } from "../fetch/ssrf.ts";
import { parseTargetUrl } from "../fetch/url.ts";

/** A job moment a webhook can subscribe to (SPEC "Events > Webhooks"), or a watch's `changed`. */
export type WebhookEvent = "started" | "page" | "completed" | "failed" | "changed";

/** SPEC "Webhook config object". Missing or empty `events` subscribes to all four. */
export interface WebhookConfig {
  url: string;
  events?: WebhookEvent[];
  /** When set, every delivery carries X-Siphon-Signature (see `signPayload`). */
  secret?: string;
  /** Echoed as `metadata` in every payload. */
  metadata?: Record<string, unknown>;
  /**
   * Set for hooks another API surface gave (the Firecrawl-compatible one): deliveries take that
   * surface's shape, made by the shaper it registered (registerWebhookShape); `type` is the
   * surface's name for what the hook reports on. Absent: siphon's own shape.
   */
  shape?: WebhookShape;
  /** Extra request headers the receiver asked for (Firecrawl's webhook.headers). */
  headers?: Record<string, string>;
}

/** Which surface shapes a hook's deliveries, and the surface's kind of hook. */
export interface WebhookShape {
  surface: string;
  type: string;
}

/** A delivery as a surface shapes it: the body's bytes and the headers that go with it (a signature). */
export interface ShapedDelivery {
  body: string;
  headers: Record<string, string>;
}

/** How a surface shapes the deliveries of its hooks. */
export interface WebhookShaper {
  /** The body and headers of `event` (data as the core sends it: jobId, the page, the result...). */
  deliver(hook: WebhookConfig, event: WebhookEvent, data: Record<string, unknown>): ShapedDelivery;
  /** Headers only the shaper sets (its signature): a receiver's own `headers` cannot replace them. */
  reservedHeaders: readonly string[];
}

const shapers = new Map<string, WebhookShaper>();

/**
 * Registers how `surface` shapes its hooks' deliveries; every sender in the process uses it. A
 * surface registers when its routes are built, before any job or watch of its can send.
 * Returns a function that puts back what was registered before.
 */
export function registerWebhookShape(surface: string, shaper: WebhookShaper): () => void {
  const before = shapers.get(surface);
  shapers.set(surface, shaper);
  return () => {
    if (before) shapers.set(surface, before);
    else shapers.delete(surface);
  };
}

/** A hook's shape; hooks stored before shapes had a name carry `firecrawl: {type}` instead. */
function shapeOf(hook: WebhookConfig): WebhookShape | undefined {
  const legacy = (hook as { firecrawl?: { type?: unknown } }).firecrawl;
  if (hook.shape) return hook.shape;
  return typeof legacy?.type === "string" ? { surface: "firecrawl", type: legacy.type } : undefined;
}

/** Headers a receiver's own `headers` cannot replace. */
const OWN_HEADERS = new Set(["content-type", "user-agent", "x-siphon-signature", "x-siphon-event"]);

/** Every job event, in the order a job emits them (a watch's hook subscribes to `changed` explicitly). */
export const WEBHOOK_EVENTS: readonly WebhookEvent[] = ["started", "page", "completed", "failed"];

/** Retries after the first attempt (SPEC: up to 3). */
const MAX_RETRIES = 3;
const USER_AGENT = "siphon-webhooks/1";
const HTTPS_HINT =
  "Use an https:// receiver; a self-hosted server can allow http:// with DISABLE_SSRF_PROTECTION=true.";
const FORBIDDEN_HINT =
  "Send webhooks to a public address; a self-hosted server can exempt a trusted receiver with SIPHON_SSRF_ALLOW=host:port.";

/**
 * Validates a webhook target when a job is submitted, without any DNS lookup (names are
 * checked again, resolved, at every delivery). Returns the parsed URL.
 *
 * @throws SiphonError invalid_request/invalid_url/forbidden_url from the URL rules;
 *   invalid_request for a non-https URL while SSRF protection is on; forbidden_url for a
 *   localhost name or a literal non-public IP while protection is on (unless allow-listed)
 */
export function checkWebhookTarget(url: string, config: Config): URL {
  const target = parseTargetUrl(url);
  if (config.disableSsrfProtection) return target;
  if (target.protocol !== "https:") {
    throw new SiphonError("invalid_request", "webhook url must be https://", { hint: HTTPS_HINT });
  }
  const hostname = target.hostname.toLowerCase();
  if (parseAllowList(config.ssrfAllow).includes(`${hostname}:${effectivePort(target)}`)) return target;
  const name = hostname.replace(/\.+$/, "");
  const literal = ipLiteral(hostname)?.address ?? null;
  const reason =
    name === "localhost" || name.endsWith(".localhost") ? "loopback" : literal && refusalReason(literal);
  if (reason) {
    throw new SiphonError(
      "forbidden_url",
      `The webhook host ${target.hostname} is not a public address (${reason}).`,
      { hint: FORBIDDEN_HINT },
    );
  }
  return target;
}

/** The X-Siphon-Signature value for a body (surfaces sign theirs alike): `sha256=<hex HMAC-SHA256(secret, rawBody)>`. */
export function signPayload(secret: string, rawBody: string): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
}

/** Replaceable collaborators of the sender. */
export interface WebhookSenderDeps {
  /** Replaces the system DNS resolver used by the SSRF guard. */
  resolver?: Resolver;
  /** Clock for the payload timestamp (ms since epoch). */
  now?: () => number;
  /** Where failed and abandoned deliveries are reported. */
  log?: (message: string) => void;
}

/** Delivers webhook events in the background. */
export interface WebhookSender {
  /**
   * Queues one event for delivery and returns at once; never throws. Events the hook did not
   * subscribe to are skipped. Events sent to the same hook object arrive in the order sent.
   */
  send(hook: WebhookConfig, event: WebhookEvent, data: Record<string, unknown>): void;
  /** Resolves once every queued delivery, retries included, has succeeded or been given up. */
  drain(): Promise<void>;
}

/**
 * Creates the webhook sender. A delivery fails on a non-2xx answer (3xx included: redirects
 * are not followed), a network error or no answer within config.webhookTimeoutMs, and is then
 * retried up to 3 times after config.webhookBaseDelayMs, twice and four times that. SSRF rules
 * (config.disableSsrfProtection, config.ssrfAllow) are applied at each attempt; a refused target
 * is given up at once, as retrying cannot change the answer.
 */
export function createWebhookSender(config: Config, deps: WebhookSenderDeps = {}): WebhookSender {
  // Redirects are never followed: a receiver that moved answers 3xx, which is a failed delivery.
  const http = createHttpClient({ config, resolver: deps.resolver, maxRedirects: 0 });
  const now = deps.now ?? Date.now;
  const log = deps.log ?? ((message: string) => console.warn(message));
  // One chain per hook object: a job's events stay ordered while different jobs deliver in parallel.
  const queues = new WeakMap<WebhookConfig, Promise<void>>();
  const pending = new Set<Promise<void>>();

  async function attempt(url: URL, headers: Record<string, string>, body: string): Promise<void> {
    // One deadline for the whole attempt: a slow DNS answer counts against it too.
    const signal = AbortSignal.timeout(config.webhookTimeoutMs);
    try {
      const response = await http.hop(url, { method: "POST", body, signal, headers: new Headers(headers) });
      await response.body?.cancel().catch(() => {});
      if (response.status < 200 || response.status > 299) {
        throw new SiphonError("network_error", `the receiver answered HTTP ${response.status}`);
      }
    } catch (error) {
      if (error instanceof SiphonError) throw error;
      if (signal.aborted) {
        throw new SiphonError("timeout", `no answer within ${config.webhookTimeoutMs} ms`, { cause: error });
      }
      const detail = (error as Error | null)?.message ?? String(error);
      throw new SiphonError("network_error", `the request failed: ${detail}`, { cause: error });
    }
  }

  async function deliver(
    hook: WebhookConfig,
    event: WebhookEvent,
    headers: Record<string, string>,
    body: string,
  ) {
    let url: URL;
    try {
      url = parseTargetUrl(hook.url);
    } catch (error) {
      log(`webhook ${event}: invalid url, not delivered: ${(error as Error).message}`);
      return;
    }
    // Origin and path only: query strings of receivers often carry tokens.
    const where = `${url.origin}${url.pathname}`;
    for (let retry = 0; ; retry++) {
      try {
        await attempt(url, headers, body);
        return;
      } catch (error) {
        const failure = error as SiphonError;
        if (!isRetryable(failure.type) || retry >= MAX_RETRIES) {
          log(`webhook ${event} to ${where} given up after ${retry + 1} attempt(s): ${failure.message}`);
          return;
        }
        await Bun.sleep(config.webhookBaseDelayMs * 2 ** retry);
      }
    }
  }

  return {
    send(hook, event, data) {
      try {
        const events = hook.events?.length ? hook.events : WEBHOOK_EVENTS;
        if (!events.includes(event)) return;
        // Built once per event so every retry sends the same bytes under the same signature.
        const shape = shapeOf(hook);
        const shaper = shape && shapers.get(shape.surface);
        if (shape && !shaper)
          log(`webhook ${event}: no shape "${shape.surface}" registered; sent in siphon's`);
        const reserved = new Set([...OWN_HEADERS, ...(shaper?.reservedHeaders ?? [])]);
        let body: string;
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(hook.headers ?? {}))
          if (!reserved.has(name.toLowerCase())) headers[name] = value;
        Object.assign(headers, { "content-type": "application/json", "user-agent": USER_AGENT });
        if (shape && shaper) {
          const shaped = shaper.deliver({ ...hook, shape }, event, data);
          body = shaped.body;
          Object.assign(headers, shaped.headers);
        } else {
          const payload: Record<string, unknown> = { event, timestamp: new Date(now()).toISOString(), data };
          if (hook.metadata !== undefined) payload.metadata = hook.metadata;
          body = JSON.stringify(payload);
          headers["x-siphon-event"] = event;
          if (hook.secret) headers["x-siphon-signature"] = signPayload(hook.secret, body);
        }
        const next = (queues.get(hook) ?? Promise.resolve())
          .then(() => deliver(hook, event, headers, body))
          .catch(() => {});
        queues.set(hook, next);
        pending.add(next);
        void next.then(() => pending.delete(next));
      } catch (error) {
        // A payload that cannot be serialised must not break the job that emitted it.
        log(`webhook ${event} not sent: ${(error as Error | null)?.message ?? String(error)}`);
      }
    },
    async drain() {
      // Deliveries queued while waiting are waited for as well.
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
