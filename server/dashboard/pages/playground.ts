import { admit, settle } from "../../../src/auth/meter.ts";
import { LOCAL_ACCOUNT_ID, type Principal } from "../../../src/auth/principal.ts";
import { SiphonError, toSiphonError } from "../../../src/errors.ts";
import { scrape } from "../../../src/pipeline/scrape.ts";
import { splitList } from "../../../src/schemas/common.ts";
import { FetchBody, type FetchInput, type FetchResult } from "../../../src/schemas/fetch.ts";
import { validate } from "../../../src/schemas/validate.ts";
import { demo } from "../../demo/index.ts";
import { curlCommand, demoCurlCommand, siphonCommand } from "../commands.ts";
import type { PageRequest } from "../context.ts";
import { html, type SafeHtml } from "../html.ts";
import { BASE, csrfField, notice } from "../layout.ts";
import { renderMarkdown } from "../markdown.ts";

/** What the form holds, as typed (re-shown after a run or a refusal). */
interface FormValues {
  url: string;
  onlyMainContent: boolean;
  render: boolean;
  stealth: boolean;
  images: boolean;
  noCache: boolean;
  wait: string;
  includeTags: string;
  excludeTags: string;
  location: string;
}

function valuesOf(ctx: PageRequest, fallbackUrl: string): FormValues {
  const source = ctx.form ?? ctx.url.searchParams;
  const text = (name: string) => source.get(name)?.trim() ?? "";
  const on = (name: string) => source.get(name) === "on";
  return {
    url: text("url") || fallbackUrl,
    onlyMainContent: on("onlyMainContent"),
    render: on("render"),
    stealth: on("stealth"),
    images: on("images"),
    noCache: on("noCache"),
    wait: text("wait"),
    includeTags: text("includeTags"),
    excludeTags: text("excludeTags"),
    location: text("location"),
  };
}

/** The form's values as a fetch request, checked by the API's own schema. */
function inputOf(values: FormValues): FetchInput {
  return validate(
    FetchBody,
    Object.fromEntries(
      Object.entries({
        url: values.url,
        onlyMainContent: values.onlyMainContent || undefined,
        render: values.render || undefined,
        stealth: values.stealth || undefined,
        images: values.images || undefined,
        wait: values.wait === "" ? undefined : Number(values.wait),
        includeTags: values.includeTags ? splitList(values.includeTags) : undefined,
        excludeTags: values.excludeTags ? splitList(values.excludeTags) : undefined,
        location: values.location || undefined,
        maxAge: values.noCache ? 0 : undefined,
        storeInCache: values.noCache ? false : undefined,
      }).filter(([, v]) => v !== undefined),
    ),
  );
}

const check = (id: string, name: keyof FormValues, label: string, values: FormValues, hint?: string) =>
  html`<div class="field check"><input type="checkbox" id="${id}" name="${name}"${values[name] ? " checked" : ""}${hint ? html` aria-describedby="${id}-hint"` : ""}>
    <label for="${id}">${label}</label>${hint ? html` <span id="${id}-hint" class="hint">${hint}</span>` : ""}</div>`;

function form(ctx: PageRequest, values: FormValues, live: boolean): SafeHtml {
  return html`<form method="${live ? "post" : "get"}" action="${BASE}/playground" aria-label="Fetch a page">
    ${live ? csrfField(ctx.csrf) : ""}
    <div class="field">
      <label for="pg-url">URL</label>
      <input id="pg-url" name="url" type="url" required value="${values.url}" placeholder="https://example.com/article" spellcheck="false">
    </div>
    <fieldset>
      <legend>Fetch options</legend>
      <div class="options">
        ${check("pg-main", "onlyMainContent", "Only the main content", values)}
        ${check("pg-render", "render", "Render in the browser", values)}
        ${check("pg-stealth", "stealth", "Stealth browser", values)}
        ${check("pg-images", "images", "List images", values)}
        ${check("pg-nocache", "noCache", "Bypass the cache", values, "(costs a credit)")}
        <div class="field"><label for="pg-wait">Wait after load (ms)</label>
          <input id="pg-wait" name="wait" type="number" min="0" max="60000" step="100" value="${values.wait}" inputmode="numeric"></div>
        <div class="field"><label for="pg-include">Keep only (selectors)</label>
          <input id="pg-include" name="includeTags" type="text" value="${values.includeTags}" placeholder="article, .post" spellcheck="false"></div>
        <div class="field"><label for="pg-exclude">Remove (selectors)</label>
          <input id="pg-exclude" name="excludeTags" type="text" value="${values.excludeTags}" placeholder=".ads, aside" spellcheck="false"></div>
        <div class="field"><label for="pg-location">Country <span class="hint">(2 letters)</span></label>
          <input id="pg-location" name="location" type="text" maxlength="2" value="${values.location}" autocomplete="off"></div>
      </div>
    </fieldset>
    <p class="actions"><button type="submit">Fetch</button>${live ? "" : html`<span class="hint">Shows the built-in demo result: <a href="${BASE}/sign-in?next=${encodeURIComponent(`${BASE}/playground`)}">sign in</a> to fetch any URL.</span>`}</p>
  </form>`;
}

function commandBlock(id: string, label: string, command: string): SafeHtml {
  return html`<div class="field">
    <span id="${id}-label"><strong>${label}</strong></span>
    <div class="secret"><pre id="${id}" aria-labelledby="${id}-label">${command}</pre>
    <button type="button" class="secondary" data-copy="${id}" hidden>Copy<span class="visually-hidden"> ${label}</span></button></div>
  </div>`;
}

function results(result: FetchResult, commands: SafeHtml): SafeHtml {
  const markdown = result.markdown ?? result.content;
  return html`<section aria-labelledby="result-heading">
    <h2 id="result-heading">${result.title || result.url}</h2>
    <p class="hint">${result.url} · ${result.method} · HTTP ${result.statusCode} · ${result.tokens} tokens · quality ${result.quality} · ${result.elapsed} ms</p>
    ${result.warning ? notice("warn", result.warning) : ""}
    <div class="side-by-side">
      <section aria-labelledby="rendered-heading"><h3 id="rendered-heading">Rendered</h3>
        <div class="rendered" data-rendered>${renderMarkdown(markdown)}</div></section>
      <section aria-labelledby="raw-heading"><h3 id="raw-heading">Markdown</h3>
        <pre id="raw-markdown" data-raw>${markdown}</pre></section>
    </div>
    <h3>The same request</h3>
    ${commands}
    <details><summary>JSON result</summary><pre id="json-result" data-json>${JSON.stringify(result, null, 2)}</pre></details>
  </section>`;
}

/** The server's origin as the browser sees it, for the commands. */
function originOf(ctx: PageRequest): string {
  const host = ctx.request.headers.get("host") ?? ctx.url.host;
  return `${ctx.secure ? "https" : "http"}://${host}`;
}

/** Runs the fetch as the API would for the session's account: admitted, metered and settled alike. */
async function meteredFetch(ctx: PageRequest, principal: Principal | null, input: FetchInput) {
  const deps = { ...ctx.deps, signal: ctx.request.signal };
  const request = { fetch: input, accountId: principal?.account.id ?? LOCAL_ACCOUNT_ID };
  if (ctx.guard.off || !principal) return (await scrape(request, deps)).result;
  const started = performance.now();
  const admission = await admit(principal, ctx.guard);
  try {
    const outcome = await scrape(request, { ...deps, httpOnly: admission.softLimited });
    await settle(
      admission,
      {
        credits: outcome.credits,
        route: "fetch",
        status: 200,
        durationMs: performance.now() - started,
      },
      ctx.guard,
    );
    return outcome.result;
  } catch (raw) {
    const error = toSiphonError(raw);
    await settle(
      admission,
      { credits: 0, route: "fetch", status: error.status, durationMs: performance.now() - started },
      ctx.guard,
    );
    throw error;
  }
}

/**
 * GET /dashboard/playground (and POST, with a session): a URL and fetch options in, the
 * rendered and raw markdown side by side, the JSON result and the same request as curl and
 * siphon commands out. Without a session (or for the operator, who has no account) it shows
 * the demo endpoint's result and fetches nothing.
 */
export async function playground(ctx: PageRequest): Promise<Response> {
  const principal = ctx.session ? await ctx.sessions.principal(ctx.session) : null;
  const live = principal !== null || (ctx.session !== null && ctx.guard.off);
  const origin = originOf(ctx);
  const target = { origin, keyNeeded: !ctx.guard.keyOptional };
  const posted = ctx.request.method === "POST";
  if (!live) {
    const result = demo("fetch", ctx.guard.now) as FetchResult;
    const values = valuesOf(ctx, result.url);
    const commands = html`${commandBlock("cmd-demo", "curl (the demo endpoint)", demoCurlCommand(origin))}
      ${commandBlock(
        "cmd-curl",
        "curl (with your key)",
        safeCommand(() => curlCommand(inputOf(values), target)),
      )}`;
    return ctx.page(
      "Playground",
      "playground",
      html`${notice("info", html`No key: this is the demo endpoint's built-in result (<code>POST /v1/demo</code>), whatever the URL. ${ctx.session ? "" : html`<a href="${BASE}/sign-in?next=${encodeURIComponent(`${BASE}/playground`)}">Sign in</a> to fetch pages.`}`)}
        ${form(ctx, values, false)}${results(result, commands)}`,
    );
  }
  const values = valuesOf(ctx, "");
  if (!posted || !values.url)
    return ctx.page(
      "Playground",
      "playground",
      html`<p class="lead">Fetch a page as <code>POST /v1/fetch</code> does, with your account's quota.</p>${form(ctx, values, true)}`,
    );
  let input: FetchInput;
  let result: FetchResult;
  try {
    input = inputOf(values);
    result = await meteredFetch(ctx, principal, input);
  } catch (raw) {
    const error = toSiphonError(raw);
    if (error.type === "internal_error") throw raw;
    return ctx.page(
      "Playground",
      "playground",
      html`${notice("error", html`<strong>${error.type}</strong>: ${error.message}${error.hint ? html`<br>${error.hint}` : ""}`)}${form(ctx, values, true)}`,
      error.status,
    );
  }
  const commands = html`${commandBlock("cmd-curl", "curl", curlCommand(input, target))}
    ${commandBlock("cmd-siphon", "siphon", siphonCommand(input, target))}`;
  return ctx.page("Playground", "playground", html`${form(ctx, values, true)}${results(result, commands)}`);
}

/** A command for input that may not validate (the demo form's): the refusal's message instead. */
function safeCommand(build: () => string): string {
  try {
    return build();
  } catch (error) {
    return error instanceof SiphonError ? `# ${error.message}` : "#";
  }
}
