import type OpenAI from "openai";
import { SiphonError } from "../errors.ts";
import { createHttpClient } from "../fetch/http-client.ts";
import { fromStatus, malformed, timedOut, unreachable, vendorMessage } from "./errors.ts";
import { displayBaseUrl, type LlmTarget, type ResolvedTarget, resolveTarget } from "./providers.ts";
import type { LlmDeps } from "./types.ts";

type OpenAIModule = typeof import("openai");

let sdk: Promise<OpenAIModule> | undefined;

/** The SDK is loaded on first use, so commands that never call an LLM never pay for it. */
function loadSdk(): Promise<OpenAIModule> {
  sdk ??= import("openai");
  return sdk;
}

/** A refusal of the guarded client, said about the base URL the caller gave. */
function refusedBase(error: SiphonError, target: ResolvedTarget): SiphonError {
  if (error.type !== "forbidden_url" || !target.customBase) return error;
  return new SiphonError("forbidden_url", `llmApiBase ${displayBaseUrl(target.baseUrl)}: ${error.message}`, {
    hint: error.hint,
  });
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** One LLM call in flight: the client, its target, and the signal that ends it. */
export interface LlmCall {
  client: OpenAI;
  target: ResolvedTarget;
  /** Aborted by the caller's signal, the deadline (SIPHON_LLM_TIMEOUT_MS) or `abort()`. */
  signal: AbortSignal;
  /** Stops the call and its upstream HTTP request. */
  abort(): void;
  /** Maps anything thrown during the call to what the caller should see, and logs the failure. */
  fail(error: unknown): unknown;
  /** Clears the deadline; call once the call is over, however it ended. */
  finish(): void;
}

/**
 * Resolves the target and creates a client that reads nothing from the environment, logs
 * nothing, never retries on its own, stops at the deadline and sends every request (each
 * redirect hop too) through the guarded HTTP client: a per-request base URL that is, or
 * redirects to, an internal address fails the call with forbidden_url without connecting.
 *
 * @throws SiphonError invalid_request (unknown provider, bad llmApiBase, missing key)
 */
export async function openCall(llm: LlmTarget, deps: LlmDeps): Promise<LlmCall> {
  const target = resolveTarget(llm, deps.config);
  const timeoutMs = deps.config.llmTimeoutMs;
  if (deps.signal?.aborted) throw deps.signal.reason;

  // Every hop goes through the guarded client. A base URL the operator configured, or the
  // caller's own on a machine they run ("trust"), is exempt from the range checks; a caller's
  // base on a server is not, and a redirect from any base to anywhere else is checked.
  const trusted = !target.customBase || deps.apiBasePolicy === "trust" ? [target.baseUrl] : [];
  const http = createHttpClient({ config: deps.config, trusted, maxBodyBytes: deps.config.maxBodyBytes });

  const {
    default: OpenAIClient,
    APIError,
    APIConnectionError,
    APIConnectionTimeoutError,
    APIUserAbortError,
  } = await loadSdk();
  const deadline = new AbortController();
  const own = new AbortController();
  const signals = [deadline.signal, own.signal];
  if (deps.signal) signals.push(deps.signal);
  const signal = AbortSignal.any(signals);
  const started = performance.now();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);

  const client = new OpenAIClient({
    apiKey: target.apiKey,
    baseURL: target.baseUrl,
    // The SDK would otherwise read OPENAI_* variables and send them to every vendor.
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: "off",
    logger: silent,
    fetch: http.fetch,
  });

  function translate(error: unknown): unknown {
    if (deps.signal?.aborted) return deps.signal.reason;
    if (deadline.signal.aborted || error instanceof APIConnectionTimeoutError)
      return timedOut(target, timeoutMs);
    if (own.signal.aborted || error instanceof APIUserAbortError) {
      return own.signal.reason ?? new DOMException("The LLM call was aborted", "AbortError");
    }
    if (error instanceof SiphonError) return refusedBase(error, target);
    // The guarded client's refusals (a hop to an internal address) arrive wrapped by the SDK.
    if (error instanceof APIConnectionError && error.cause instanceof SiphonError) {
      return refusedBase(error.cause, target);
    }
    if (error instanceof APIConnectionError) return unreachable(target, error);
    if (error instanceof APIError) {
      if (typeof error.status === "number") return fromStatus(error, target);
      // An error event in the middle of a stream: the vendor gave up after it started answering.
      const said = vendorMessage(error.error, target.apiKey);
      return new SiphonError(
        "answer_failed",
        `${target.provider} stopped answering with an error${said ? `: ${said}` : ""}; retry later`,
      );
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return malformed(target, message);
  }

  return {
    client,
    target,
    signal,
    abort: () => own.abort(),
    fail(error) {
      const out = translate(error);
      if (deps.log && out instanceof SiphonError) {
        const ms = Math.round(performance.now() - started);
        deps.log(
          `llm ${target.provider} model=${target.model} failed: ${out.type} after ${ms} ms: ${out.message}`,
        );
      }
      return out;
    },
    finish: () => clearTimeout(timer),
  };
}
