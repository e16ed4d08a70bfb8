import { SiphonError } from "../errors.ts";
import { displayBaseUrl, type ResolvedTarget } from "./providers.ts";
import type { Usage } from "./types.ts";

/**
 * How vendor failures become SiphonErrors. The rule: the type says whose move it is.
 *
 * | vendor answer                          | type            | HTTP | what to fix                      |
 * |----------------------------------------|-----------------|------|----------------------------------|
 * | 401 bad key                            | invalid_request | 400  | llmApiKey                        |
 * | 403 key not allowed (model, region)    | invalid_request | 400  | llmApiKey / llmModel             |
 * | 404 unknown model                      | invalid_request | 400  | llmModel                         |
 * | 404 no chat completions at that URL    | invalid_request | 400  | llmApiBase / SIPHON_*_BASE_URL   |
 * | other 4xx (context too long, bad param) | invalid_request | 400  | the request, as the vendor says  |
 * | 429 rate limit or quota used up        | rate_limited    | 429  | wait (Retry-After) or billing    |
 * | 5xx                                    | answer_failed   | 500  | retry later                      |
 * | answer that is not a chat completion   | answer_failed   | 500  | the server at the base URL       |
 * | JSON that does not match the schema    | answer_failed   | 500  | retry or another model           |
 * | no connection (DNS, refused, reset)    | network_error   | 502  | the base URL                     |
 * | no answer within SIPHON_LLM_TIMEOUT_MS | timeout         | 504  | retry, faster model, the setting |
 *
 * A bad LLM key is the caller's parameter, not siphon's authentication, so it is a 400 and
 * never a 401 (which clients read as "your siphon key is wrong"). Every message names the
 * provider. The caller's key never appears in a message, hint or log line: vendor text is
 * scrubbed (OpenAI's 401 echoes a masked key) and the SDK error is not kept as the cause.
 */

/** A completion whose text is not the JSON asked for; carries what callers need to retry. */
export class LlmOutputError extends SiphonError {
  /** What is wrong, one line per problem (JSON parse error or schema violations). */
  readonly issues: string[];
  /** The model's answer as received (scrubbed of the key). */
  readonly text: string;
  /** Tokens the failed call still consumed. */
  readonly usage: Usage;

  constructor(message: string, options: { hint?: string; issues: string[]; text: string; usage: Usage }) {
    super("answer_failed", message, { hint: options.hint });
    this.name = "LlmOutputError";
    this.issues = options.issues;
    this.text = options.text;
    this.usage = options.usage;
  }
}

const REDACTED = "[redacted]";

/**
 * Removes a secret from text a vendor or the SDK produced: the key itself, any word holding a
 * long enough prefix or suffix of it (vendors echo "sk-abc…xyz"), and masked key echoes
 * ("sk-ab****yz"). Cuts the result to `max` characters.
 */
export function scrubSecret(text: string, secret: string | undefined, max = 300): string {
  let out = text;
  if (secret && secret.length >= 4) {
    out = out.split(secret).join(REDACTED);
    const part = secret.length >= 16 ? 6 : secret.length >= 8 ? 4 : 0;
    const head = part ? secret.slice(0, part) : "";
    const tail = part ? secret.slice(-part) : "";
    out = out.replace(/\S+/g, (word) =>
      (head && word.includes(head)) || (tail && word.includes(tail)) ? REDACTED : word,
    );
  }
  // Masked echoes of any key, whoever's it is.
  out = out.replace(/\S*\*{3,}\S*/g, REDACTED);
  out = out.replace(/\s+/g, " ").trim();
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

interface ApiErrorLike {
  status?: number;
  error?: unknown;
  code?: string | null;
  type?: string;
  headers?: Headers;
  message?: string;
}

/**
 * The vendor's own error message, scrubbed of the key. Only the message of an OpenAI-shaped
 * error (`{"error": {"message": ...}}` or `{"error": "..."}`) is quoted: any other body may be
 * what a server that is not an LLM answered, and is never echoed to the caller.
 */
export function vendorMessage(body: unknown, key: string): string {
  const error = body as { message?: unknown } | string | undefined;
  const raw = typeof error === "string" ? error : typeof error?.message === "string" ? error.message : "";
  return scrubSecret(raw, key);
}

function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function where(target: ResolvedTarget): string {
  return displayBaseUrl(target.baseUrl);
}

function baseSetting(target: ResolvedTarget): string {
  return target.customBase ? "llmApiBase" : `SIPHON_${target.provider.toUpperCase()}_BASE_URL`;
}

function looksLikeUnknownModel(error: ApiErrorLike, detail: string): boolean {
  if (error.code === "model_not_found") return true;
  return /model/i.test(detail) && /not[ _]?found|does not exist|unknown|not supported|no such/i.test(detail);
}

/**
 * Turns an HTTP error answer of the vendor (the SDK's APIError with a status) into a
 * SiphonError that names the provider and what to fix.
 */
export function fromStatus(error: ApiErrorLike, target: ResolvedTarget): SiphonError {
  const { provider, model } = target;
  const status = error.status ?? 0;
  const detail = vendorMessage(error.error, target.apiKey);
  const said = detail ? `: ${detail}` : "";
  if (status === 401) {
    return new SiphonError(
      "invalid_request",
      target.hasKey
        ? `${provider} rejected the API key (401); check llmApiKey`
        : `${provider} at ${where(target)} wants an API key (401); pass llmApiKey`,
      { hint: `Use a key issued by ${provider} for this endpoint; it is sent only to ${where(target)}.` },
    );
  }
  if (status === 403) {
    return new SiphonError(
      "invalid_request",
      `${provider} refused the request (403)${said}; check that llmApiKey may use model "${model}" from this region`,
    );
  }
  if (status === 404) {
    if (looksLikeUnknownModel(error, detail)) {
      return new SiphonError(
        "invalid_request",
        `${provider} does not know model "${model}" (404); check llmModel`,
        {
          hint: `Leave llmModel out to use ${provider}'s default model, or name one the key can use.`,
        },
      );
    }
    return new SiphonError(
      "invalid_request",
      `${provider} has no chat completions endpoint at ${where(target)}/chat/completions (404)${said}; check ${baseSetting(target)}`,
      {
        hint: "The base URL is the part before /chat/completions, e.g. http://localhost:11434/v1 for Ollama.",
      },
    );
  }
  if (status === 429) {
    const quota = error.code === "insufficient_quota" || /quota|billing|credit/i.test(detail);
    const seconds = retryAfterSeconds(error.headers);
    return new SiphonError(
      "rate_limited",
      quota
        ? `${provider} says the key's quota is used up (429)${said}; check the plan and billing of llmApiKey`
        : `${provider} rate-limited the request (429)${said}; wait${seconds === undefined ? "" : ` ${seconds} s`} and retry`,
      { headers: seconds === undefined ? {} : { "Retry-After": String(seconds) } },
    );
  }
  if (status >= 500) {
    return new SiphonError("answer_failed", `${provider} failed with HTTP ${status}${said}; retry later`);
  }
  return new SiphonError(
    "invalid_request",
    `${provider} refused the request (${status || "error"})${said}; check the llm fields of the request`,
  );
}

/** The vendor (or the server at the base URL) could not be reached. */
export function unreachable(target: ResolvedTarget, cause: unknown): SiphonError {
  const reason = describeCause(cause, target.apiKey);
  return new SiphonError(
    "network_error",
    `Could not reach ${target.provider} at ${where(target)}${reason ? ` (${reason})` : ""}; check ${baseSetting(target)} and the network`,
  );
}

/** The whole call took longer than SIPHON_LLM_TIMEOUT_MS. */
export function timedOut(target: ResolvedTarget, timeoutMs: number): SiphonError {
  return new SiphonError(
    "timeout",
    `${target.provider} did not finish answering within ${formatMs(timeoutMs)} (model "${target.model}")`,
    { hint: "Retry, use a faster model (llmModel), or raise SIPHON_LLM_TIMEOUT_MS." },
  );
}

/** The answer was not a chat completion (not JSON, no choices). */
export function malformed(target: ResolvedTarget, what: string): SiphonError {
  return new SiphonError(
    "answer_failed",
    `${target.provider} at ${where(target)} sent an answer siphon cannot read (${scrubSecret(what, target.apiKey, 120)}); check that ${baseSetting(target)} points at an OpenAI-compatible server`,
  );
}

function describeCause(cause: unknown, key: string): string {
  // Network errors nest: APIConnectionError -> TypeError("fetch failed") -> system error with a code.
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z]+/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  const message = (cause as { cause?: { message?: string } })?.cause?.message ?? (cause as Error)?.message;
  return typeof message === "string" ? scrubSecret(message, key, 120) : "";
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
