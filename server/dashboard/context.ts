import { SiphonError, toSiphonError } from "../../src/errors.ts";
import type { JobRunner } from "../../src/jobs/runner.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import type { WatchService } from "../../src/watch/index.ts";
import type { Guard } from "../guard.ts";
import { html, type SafeHtml } from "./html.ts";
import { BASE, layout, type Section, type Viewer } from "./layout.ts";
import { csrfRefused, PageError } from "./page-error.ts";
import {
  COOKIE_PATH,
  cookie,
  type DashboardSession,
  overHttps,
  readCookie,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  type Sessions,
} from "./session.ts";

/** What the dashboard's pages use: the API's own core services. */
export interface DashboardDeps extends FetchDeps {
  runner: JobRunner;
  /** The app's watch service (the API's watch routes use the same one). */
  watches: WatchService;
  /** Called with unexpected errors, so they are logged and never shown. */
  onInternalError?: (error: unknown, requestId: string) => void;
}

/** The largest form the dashboard accepts (a playground's options are the biggest). */
const FORM_LIMIT = 64 * 1024;

/** Every page is the viewer's own and may hold a key shown once: never cached, never framed. */
const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

/** One request to a dashboard page, with its session once known. */
export class PageRequest {
  readonly url: URL;
  readonly secure: boolean;
  /** Set-Cookie values to send with the answer. */
  readonly cookies: string[] = [];
  session: DashboardSession | null = null;
  form: URLSearchParams | null = null;

  constructor(
    readonly request: Request,
    readonly params: Record<string, string>,
    readonly sessions: Sessions,
    readonly deps: DashboardDeps,
    readonly guard: Guard,
  ) {
    this.url = new URL(request.url);
    this.secure = overHttps(request);
  }

  /** The signed-in session; only called by handlers that required one. */
  get signedIn(): DashboardSession {
    if (!this.session) throw new SiphonError("unauthorized", "Sign in first");
    return this.session;
  }

  get csrf(): string {
    return this.sessions.csrfToken(this.signedIn);
  }

  field(name: string): string {
    return this.form?.get(name)?.trim() ?? "";
  }

  setSession(token: string): void {
    this.cookies.push(cookie(SESSION_COOKIE, token, SESSION_TTL_MS / 1000, this.secure));
  }

  clearSession(): void {
    this.cookies.push(cookie(SESSION_COOKIE, "", 0, this.secure));
  }

  viewer(): Viewer | null {
    const session = this.session;
    if (!session) return null;
    if (session.who === "local") return { label: "Local account", csrf: null };
    if (session.who === "operator") return { label: "Operator", csrf: this.csrf };
    return { label: `Account ${session.accountId}`, csrf: this.csrf };
  }

  /** A full page with the dashboard's frame. */
  page(title: string, section: Section, body: SafeHtml, status = 200): Response {
    return this.respond(layout({ title, section, viewer: this.viewer(), body }).value, status);
  }

  respond(body: string, status = 200, headers: Record<string, string> = {}): Response {
    const out = new Headers({ "content-type": "text/html; charset=utf-8", ...SECURITY_HEADERS, ...headers });
    for (const value of this.cookies) out.append("set-cookie", value);
    return new Response(body, { status, headers: out });
  }

  /** 303 See Other: the answer to a form, so reloading the next page never sends it again. */
  redirect(path: string): Response {
    return this.respond("", 303, { location: path });
  }
}

/**
 * Refuses a form that another site made the browser send: its Origin must be this server
 * (by host: a TLS-terminating proxy changes the scheme), and Sec-Fetch-Site, when the browser
 * sends it, same-origin. The CSRF token and the SameSite=Strict cookie are the other two locks.
 */
export function checkOrigin(request: Request): void {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") throw csrfRefused();
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const host = request.headers.get("host") ?? new URL(request.url).host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw csrfRefused();
  }
  if (originHost.toLowerCase() !== host.toLowerCase()) throw csrfRefused();
}

/** Reads a form-encoded body, at most FORM_LIMIT bytes. */
export async function readForm(request: Request): Promise<URLSearchParams> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > FORM_LIMIT) throw formTooLarge();
  const text = await request.text();
  if (text.length > FORM_LIMIT) throw formTooLarge();
  return new URLSearchParams(text);
}

function formTooLarge(): PageError {
  return new PageError(413, "Form too large", `The form is larger than ${FORM_LIMIT / 1024} KiB.`);
}

/** An error as a page: its status, what happened and what to do next; unexpected ones are logged, never shown. */
export function errorPage(ctx: PageRequest, raw: unknown): Response {
  if (raw instanceof PageError) {
    return ctx.page(
      raw.title,
      "usage",
      html`<div class="panel notice error" role="alert"><p>${raw.message}</p>${raw.hint ? html`<p>${raw.hint}</p>` : ""}</div>
      <p><a href="${BASE}">Back to the dashboard</a></p>`,
      raw.status,
    );
  }
  const error = toSiphonError(raw);
  const requestId = ctx.request.headers.get("x-request-id") ?? crypto.randomUUID();
  if (error.type === "internal_error") ctx.deps.onInternalError?.(raw, requestId);
  return ctx.page(
    error.type === "internal_error" ? "Something went wrong" : "Request refused",
    "usage",
    html`<div class="panel notice error" role="alert">
      <p>${error.message}</p>
      ${error.hint ? html`<p>${error.hint}</p>` : ""}
      <p class="hint">Error type <code>${error.type}</code>${error.type === "internal_error" ? html`, request ${requestId}` : ""}</p>
    </div>
    <p><a href="${BASE}">Back to the dashboard</a></p>`,
    error.status,
  );
}

/** The sign-in page's path, remembering where the visitor was going. */
export function signInPath(next: string): string {
  return `${BASE}/sign-in?next=${encodeURIComponent(next)}`;
}

/** Only dashboard paths are followed after signing in: never another site. */
export function safeNext(next: string | null): string {
  return next?.startsWith(`${COOKIE_PATH}/`) ? next : `${BASE}/usage`;
}

export { readCookie };
