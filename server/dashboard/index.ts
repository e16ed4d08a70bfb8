import { Elysia } from "elysia";
import type { Guard } from "../guard.ts";
import { SCRIPT_JS } from "./assets/script.ts";
import { STYLE_CSS } from "./assets/style.ts";
import { checkOrigin, type DashboardDeps, errorPage, PageRequest, readForm, signInPath } from "./context.ts";
import { BASE } from "./layout.ts";
import { csrfRefused, pageNotFound } from "./page-error.ts";
import { cancelJob, jobEvents, showJob, showJobs } from "./pages/jobs.ts";
import { confirmRevoke, createKey, revoke, showKeys } from "./pages/keys.ts";
import { playground } from "./pages/playground.ts";
import { showSignIn, signIn, signOut } from "./pages/sign-in.ts";
import { showUsage } from "./pages/usage.ts";
import { showWatch, showWatches } from "./pages/watches.ts";
import { readCookie, SESSION_COOKIE, Sessions } from "./session.ts";

/**
 * Who may reach a page: `public` pages render for anyone (the sign-in form, the demo
 * playground); `view` pages need a session and send everyone else to sign in; `action`s are
 * forms that change something, refused unless they come from this site with the session's
 * CSRF token. On the loopback daemon everyone is the local account, signed in on first sight.
 */
type Access = "public" | "view" | "action";
type Handler = (ctx: PageRequest) => Response | Promise<Response>;

function asset(body: string, type: string) {
  return () =>
    new Response(body, {
      headers: {
        "content-type": type,
        // The URL carries the asset version: a cached copy is never stale.
        "cache-control": "public, max-age=31536000, immutable",
        "x-content-type-options": "nosniff",
      },
    });
}

/**
 * The web dashboard at /dashboard: server-rendered pages over the same core functions as the
 * API (keys, usage report and stats, jobs and their event stream, the fetch pipeline, the
 * demo), with a small script for copy buttons and live progress. Register it before the
 * app's JSON body parser: its forms are form-encoded.
 */
export function dashboardRoutes(deps: DashboardDeps, guard: Guard) {
  const sessions = new Sessions(guard);

  const run =
    (access: Access, handler: Handler) =>
    async ({ request, params }: { request: Request; params?: Record<string, string> }) => {
      const ctx = new PageRequest(request, params ?? {}, sessions, deps, guard);
      try {
        ctx.session = await sessions.resolve(readCookie(request, SESSION_COOKIE));
        if (access === "action") {
          checkOrigin(request);
          if (!ctx.session) throw csrfRefused();
          ctx.form = await readForm(request);
          sessions.checkCsrf(sessions.csrfToken(ctx.session), ctx.form.get("csrf"));
        } else if (!ctx.session && sessions.localMode) {
          const { token, session } = sessions.issue({ who: "local", accountId: "acct_local", keyId: null });
          ctx.session = session;
          ctx.setSession(token);
        } else if (!ctx.session && access === "view") {
          return ctx.redirect(signInPath(ctx.url.pathname + ctx.url.search));
        }
        return await handler(ctx);
      } catch (error) {
        return errorPage(ctx, error);
      }
    };

  const home: Handler = (ctx) => ctx.redirect(`${BASE}/usage`);
  const hidden = { detail: { hide: true } };
  const form = { detail: { hide: true }, parse: "none" as const };

  return new Elysia({ name: "dashboard" })
    .get(`${BASE}/assets/app.css`, asset(STYLE_CSS, "text/css; charset=utf-8"), hidden)
    .get(`${BASE}/assets/app.js`, asset(SCRIPT_JS, "text/javascript; charset=utf-8"), hidden)
    .get(BASE, run("view", home), hidden)
    .get(`${BASE}/`, run("view", home), hidden)
    .get(`${BASE}/sign-in`, run("public", showSignIn), hidden)
    .post(`${BASE}/sign-in`, run("public", signIn), form)
    .post(`${BASE}/sign-out`, run("action", signOut), form)
    .get(`${BASE}/usage`, run("view", showUsage), hidden)
    .get(`${BASE}/keys`, run("view", showKeys), hidden)
    .post(`${BASE}/keys`, run("action", createKey), form)
    .get(`${BASE}/keys/:id/revoke`, run("view", confirmRevoke), hidden)
    .post(`${BASE}/keys/:id/revoke`, run("action", revoke), form)
    .get(`${BASE}/jobs`, run("view", showJobs), hidden)
    .get(`${BASE}/jobs/:id`, run("view", showJob), hidden)
    .get(`${BASE}/jobs/:id/events`, run("view", jobEvents), hidden)
    .post(`${BASE}/jobs/:id/cancel`, run("action", cancelJob), form)
    .get(`${BASE}/watches`, run("view", showWatches), hidden)
    .get(`${BASE}/watches/:id`, run("view", showWatch), hidden)
    .get(`${BASE}/playground`, run("public", playground), hidden)
    .post(`${BASE}/playground`, run("action", playground), form)
    .get(
      `${BASE}/*`,
      run("public", () => {
        throw pageNotFound();
      }),
      hidden,
    );
}
