import { randomBytes } from "node:crypto";
import { SiphonError } from "../../../src/errors.ts";
import { checkOrigin, type PageRequest, readForm, safeNext } from "../context.ts";
import { html } from "../html.ts";
import { BASE, notice } from "../layout.ts";
import { csrfRefused } from "../page-error.ts";
import { cookie, PRESESSION_COOKIE, readCookie } from "../session.ts";

const PRESESSION_MAX_AGE_S = 3600;

function form(ctx: PageRequest, token: string, next: string, problem?: string) {
  const admin = ctx.guard.config.adminKey !== "";
  return html`
  <p class="lead">Sign in with one of your API keys${admin ? " (or the operator's admin key)" : ""}. The key is checked as the API checks it and is not kept: the dashboard holds a session cookie instead.</p>
  ${problem ? notice("error", problem) : ""}
  <form class="stack" method="post" action="${BASE}/sign-in">
    <input type="hidden" name="csrf" value="${token}">
    <input type="hidden" name="next" value="${next}">
    <div class="field">
      <label for="key">API key</label>
      <input id="key" name="key" type="password" autocomplete="off" required spellcheck="false"
        placeholder="sph_live_…" aria-describedby="key-hint">
      <span id="key-hint" class="hint">Keys are created with <code>siphon keys create</code> or here once signed in.</span>
    </div>
    <div><button type="submit">Sign in</button></div>
  </form>
  <p>No key? The <a href="${BASE}/playground">playground</a> shows what siphon returns, with built-in demo results.</p>`;
}

/** The sign-in form, with a presession cookie its CSRF token is tied to. */
export function signInPage(ctx: PageRequest, problem?: string, status = 200): Response {
  let presession = readCookie(ctx.request, PRESESSION_COOKIE);
  if (!presession || !/^[A-Za-z0-9_-]{22,64}$/.test(presession)) {
    presession = randomBytes(16).toString("base64url");
    ctx.cookies.push(cookie(PRESESSION_COOKIE, presession, PRESESSION_MAX_AGE_S, ctx.secure));
  }
  const next = safeNext(ctx.url.searchParams.get("next") ?? ctx.field("next"));
  return ctx.page(
    "Sign in",
    "sign-in",
    form(ctx, ctx.sessions.presessionToken(presession), next, problem),
    status,
  );
}

/** GET /dashboard/sign-in: the form, or straight on when already signed in (or local). */
export function showSignIn(ctx: PageRequest): Response {
  if (ctx.session) return ctx.redirect(safeNext(ctx.url.searchParams.get("next")));
  return signInPage(ctx);
}

/** POST /dashboard/sign-in: exchanges a key for a session cookie. */
export async function signIn(ctx: PageRequest): Promise<Response> {
  checkOrigin(ctx.request);
  ctx.form = await readForm(ctx.request);
  const presession = readCookie(ctx.request, PRESESSION_COOKIE);
  if (!presession) throw csrfRefused();
  ctx.sessions.checkCsrf(ctx.sessions.presessionToken(presession), ctx.form.get("csrf"));
  const key = ctx.field("key");
  if (!key) return signInPage(ctx, "Enter an API key.", 400);
  try {
    const session = await ctx.sessions.signIn(key);
    ctx.setSession(session.token);
    ctx.cookies.push(cookie(PRESESSION_COOKIE, "", 0, ctx.secure));
    return ctx.redirect(safeNext(ctx.field("next")));
  } catch (error) {
    if (error instanceof SiphonError && (error.type === "unauthorized" || error.type === "invalid_token"))
      return signInPage(ctx, `${error.message}.`, 401);
    throw error;
  }
}

/** POST /dashboard/sign-out: ends the session. */
export async function signOut(ctx: PageRequest): Promise<Response> {
  const session = ctx.signedIn;
  ctx.sessions.signOut(session);
  ctx.clearSession();
  return ctx.redirect(`${BASE}/sign-in`);
}
