import { Elysia } from "elysia";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { SiphonError } from "../../src/errors.ts";
import { namedLinks } from "../../src/extract/link-summary.ts";
import { operationCredits } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { type ScrapeOutcome, scrape } from "../../src/pipeline/scrape.ts";
import { FetchBody } from "../../src/schemas/fetch.ts";
import { SearchBody } from "../../src/schemas/search.ts";
import { validate } from "../../src/schemas/validate.ts";
import { search } from "../../src/search/index.ts";
import { type Guard, metered, meteredStream } from "../guard.ts";
import { type ReaderOptions, readerOptions } from "./reader-options.ts";

/**
 * The target of a reader URL: everything after /r/, query string included, as Jina Reader
 * reads it; percent-encoded (https%3A%2F%2F…) or without a scheme (https:// is assumed).
 */
export function readerTarget(requestUrl: string): string {
  const url = new URL(requestUrl);
  return targetOf(url.pathname.replace(/^\/r\/?/, "") + url.search);
}

/** A page named as Jina names it: percent-encoded or not, https:// assumed without a scheme. */
function targetOf(raw: string): string {
  let rest = raw.trim();
  if (/^https?%3a/i.test(rest)) {
    try {
      rest = decodeURIComponent(rest);
    } catch {
      // Left as it is: the URL rules refuse it with a reason.
    }
  }
  if (!rest) throw new SiphonError("invalid_request", "Put the page after /r/, e.g. /r/https://example.com/");
  return /^[a-z][a-z0-9+.-]*:/i.test(rest) ? rest : `https://${rest}`;
}

type SetHeaders = { headers: Record<string, string | number> };

/** How the caller wants the answer: Jina's text layout, its JSON, server-sent events, or an image's bytes. */
type Shape = "text" | "json" | "stream" | "image";

function shapeOf(request: Request): Shape {
  const accept = request.headers.get("accept") ?? "";
  if (/text\/event-stream/i.test(accept)) return "stream";
  if (/application\/json|text\/json/i.test(accept)) return "json";
  if (/image\//i.test(accept)) return "image";
  return "text";
}

/** The content with its images kept, reduced to their alt text, or left out (markdown only). */
function retained(content: string, mode: ReaderOptions["retainImages"]): string {
  if (mode === "all") return content;
  return content
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, (_all, alt: string) => (mode === "alt" ? alt : ""))
    .replace(/\n{3,}/g, "\n\n");
}

/** What the reader answers for one page, in Jina's names. */
interface ReaderPage {
  title: string;
  description: string;
  url: string;
  content?: string;
  publishedTime?: string;
  images?: Record<string, string>;
  links?: Record<string, string>;
  screenshotUrl?: string;
  pageshotUrl?: string;
  usage: { tokens: number };
}

/**
 * A scrape's outcome as Jina's page: the content in the asked format (images retained as asked,
 * cut to X-Max-Output-Tokens), summaries of images and links, screenshots as data: URLs.
 * Throws invalid_request when the content is over X-Token-Budget.
 */
function readerPage(
  outcome: Pick<ScrapeOutcome, "result" | "screenshot">,
  options: ReaderOptions,
): ReaderPage {
  const { result } = outcome;
  let content =
    options.content === "markdown" ? retained(result.content, options.retainImages) : result.content;
  if (options.maxOutputTokens !== undefined) content = content.slice(0, options.maxOutputTokens * 4);
  const tokens = Math.ceil(content.length / 4);
  if (options.tokenBudget !== undefined && tokens > options.tokenBudget) {
    throw new SiphonError(
      "invalid_request",
      `The page is ${tokens} tokens, over X-Token-Budget (${options.tokenBudget})`,
      {
        hint: "Raise X-Token-Budget, narrow the page with X-Target-Selector, or cut it with X-Max-Output-Tokens.",
      },
    );
  }
  const page: ReaderPage = {
    title: result.title,
    description: result.metadata.description ?? "",
    url: result.url,
    usage: { tokens },
  };
  if (options.withContent) page.content = content;
  if (result.metadata.published) page.publishedTime = result.metadata.published;
  if (options.imagesSummary) {
    page.images = {};
    for (const [index, image] of (result.images ?? []).entries()) {
      page.images[`Image ${index + 1}${image.alt ? `: ${image.alt}` : ""}`] = image.src;
    }
  }
  if (options.linksSummary) {
    page.links = {};
    for (const link of namedLinks(result.rawHtml ?? "", result.url))
      page.links[link.text || link.url] ??= link.url;
  }
  const shot =
    outcome.screenshot ?? (result.screenshot ? `data:image/png;base64,${result.screenshot}` : undefined);
  if (shot && options.pageshot) page.pageshotUrl = shot;
  else if (shot) page.screenshotUrl = shot;
  return page;
}

/** Jina's text layout: Title, URL Source, Published Time, the content under its label, then the summaries. */
function readerText(page: ReaderPage, options: ReaderOptions): string {
  const label =
    options.content === "markdown" ? "Markdown Content" : options.content === "html" ? "HTML" : "Text";
  const lines = [`Title: ${page.title}`, "", `URL Source: ${page.url}`, ""];
  if (page.publishedTime) lines.push(`Published Time: ${page.publishedTime}`, "");
  if (page.screenshotUrl) lines.push(`Screenshot: ${page.screenshotUrl}`, "");
  if (page.pageshotUrl) lines.push(`Pageshot: ${page.pageshotUrl}`, "");
  if (page.content !== undefined) lines.push(`${label}:`, page.content);
  if (page.images) {
    lines.push("", "Images:", ...Object.entries(page.images).map(([alt, src]) => `- ![${alt}](${src})`));
  }
  if (page.links) {
    lines.push(
      "",
      "Links/Buttons:",
      ...Object.entries(page.links).map(([text, url]) => `- [${text}](${url})`),
    );
  }
  return lines.join("\n");
}

/** The fetch a reader request makes: the page, its content format, and what the summaries and images need. */
function readerFetch(target: string, options: ReaderOptions) {
  if (options.screenshot && options.pageshot) {
    throw new SiphonError("invalid_request", "Ask for screenshot or pageshot, not both");
  }
  const formats: unknown[] = [options.content];
  if (options.imagesSummary) formats.push("images");
  if (options.linksSummary) formats.push("rawHtml");
  if (options.screenshot) formats.push({ type: "screenshot" });
  if (options.pageshot) formats.push({ type: "screenshot", fullPage: true });
  return validate(FetchBody, { url: target, ...options.fetch, formats });
}

/**
 * Reads one page as Jina Reader does, through the scrape operation (cache, escalation, SSRF),
 * and answers in the caller's shape: Jina's text, its JSON `{code, status, data}`, one
 * server-sent event with the whole page, or the screenshot's bytes. Metered like a fetch.
 */
function readPage(target: string, deps: FetchDeps, guard: Guard, request: Request, set: SetHeaders) {
  const options = readerOptions(request.headers);
  const input = readerFetch(target, options);
  const shape = shapeOf(request);
  if (shape === "image" && !options.screenshot && !options.pageshot) {
    throw new SiphonError("invalid_request", "An image answer needs X-Respond-With: screenshot or pageshot");
  }
  if (shape === "stream") return streamPage(input, options, deps, guard, request, set);
  return metered<unknown>(guard, request, set, "reader", async (admission) => {
    const outcome = await scrape(
      {
        fetch: input,
        accountId: admission?.principal.account.id ?? LOCAL_ACCOUNT_ID,
        timeoutMs: options.timeoutMs,
      },
      { ...deps, signal: request.signal, httpOnly: admission?.softLimited },
    );
    set.headers["x-cache"] = outcome.cache.hit ? "HIT" : "MISS";
    set.headers["x-fetch-type"] = outcome.result.method === "stealth" ? "stealth" : "basic";
    const page = readerPage(outcome, options);
    const answer = { credits: outcome.credits, degraded: outcome.degraded, tokens: outcome.tokens };
    if (shape === "json") return { body: { code: 200, status: 20000, data: page }, ...answer };
    if (shape === "image") {
      const url = page.pageshotUrl ?? page.screenshotUrl ?? "";
      const bytes = Buffer.from(url.slice(url.indexOf(",") + 1), "base64");
      const type = /^data:([^;]+)/.exec(url)?.[1] ?? "image/png";
      return { body: new Response(bytes, { headers: { "content-type": type } }), ...answer };
    }
    set.headers["content-type"] = "text/plain; charset=utf-8";
    return { body: readerText(page, options), ...answer };
  });
}

/**
 * Jina's stream (Accept: text/event-stream): `event: data` frames, each a more complete page
 * than the one before: the plain HTTP answer when the page goes on to the browser, then the
 * page as read. A failure after the stream began is an `{error: {type, message}}` event.
 * Metered once the stream ends, with the page's credits.
 */
function streamPage(
  input: ReturnType<typeof readerFetch>,
  options: ReaderOptions,
  deps: FetchDeps,
  guard: Guard,
  request: Request,
  set: SetHeaders,
) {
  return meteredStream(
    guard,
    request,
    set,
    "reader",
    async (admission) => {
      const pages: unknown[] = [];
      let wake = () => {};
      let finished = false;
      let outcome: ScrapeOutcome | undefined;
      const push = (event: unknown) => {
        pages.push(event);
        wake();
      };
      const work = scrape(
        {
          fetch: input,
          accountId: admission?.principal.account.id ?? LOCAL_ACCOUNT_ID,
          timeoutMs: options.timeoutMs,
        },
        {
          ...deps,
          signal: request.signal,
          httpOnly: admission?.softLimited,
          // A lesser page past a limit of the caller's is left out: the final one says so.
          onPartial: (result) => {
            try {
              push(readerPage({ result }, options));
            } catch {
              // Over the caller's token budget: the final page says so.
            }
          },
        },
      )
        .then((done) => {
          outcome = done;
          push(readerPage(done, options));
        })
        .catch((error: unknown) => {
          const failure =
            error instanceof SiphonError ? error : new SiphonError("internal_error", "The read failed");
          push({ error: { type: failure.type, message: failure.message } });
        })
        .finally(() => {
          finished = true;
          wake();
        });
      async function* events() {
        for (;;) {
          const next = pages.shift();
          if (next !== undefined) yield next;
          else if (finished) return;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      }
      return {
        events: events(),
        credits: async () => {
          await work;
          return outcome?.credits ?? 0;
        },
      };
    },
    "data",
  );
}

/** The page a POST names: `url` in a JSON or form body. */
async function postedTarget(body: unknown): Promise<string> {
  const url = body && typeof body === "object" ? (body as { url?: unknown }).url : undefined;
  if (typeof url !== "string" || !url.trim()) {
    throw new SiphonError("invalid_request", 'Send the page as {"url": "https://…"}');
  }
  return targetOf(url);
}

const READER_DOC =
  "Jina Reader's headers: X-Respond-With (or X-Return-Format): content, markdown, html, text, screenshot, pageshot; X-Target-Selector, X-Remove-Selector, X-Wait-For-Selector; X-With-Links-Summary, X-With-Images-Summary, X-Retain-Images (all, none, alt); X-Token-Budget (400 past it), X-Max-Output-Tokens; X-Engine (auto, browser, direct), X-Respond-Timing; X-Set-Cookie, X-Locale, X-User-Agent, X-Referer; X-No-Cache, X-Cache-Tolerance (s), DNT; X-Timeout (s). Accept: application/json for {code, status, data}, text/event-stream for one event with the page, image/* for a screenshot's bytes. Headers Jina defines that siphon cannot honour (X-With-Generated-Alt, X-Proxy, X-Proxy-Url, …) are 400s naming them. One credit; a cache hit is free.";

const SEARCH_COUNT = 5;

/**
 * Jina's search (GET /s/<query>, or /s/?q=…): the operator's search provider, the top results
 * (`count`, default 5, at most 10) each read as a page (main content as markdown) unless
 * X-Respond-With is no-content; `site` (repeatable) keeps results to those sites. Answers Jina's
 * numbered text layout, or `{code, status, data: [{title, url, description, content, usage}]}`
 * with Accept: application/json. Credits as siphon's search: 1, plus 1 per page fetched.
 */
function searchPages(deps: FetchDeps, guard: Guard, request: Request, set: SetHeaders) {
  const url = new URL(request.url);
  let q = url.searchParams.get("q") ?? "";
  if (!q) {
    try {
      q = decodeURIComponent(url.pathname.replace(/^\/s\/?/, "")).replace(/\+/g, " ");
    } catch {
      throw new SiphonError("invalid_request", "The query after /s/ is not valid percent-encoding");
    }
  }
  const count = Number(url.searchParams.get("count") ?? SEARCH_COUNT);
  const sites = url.searchParams.getAll("site");
  const noContent = /no-content/i.test(request.headers.get("x-respond-with") ?? "");
  const input = validate(SearchBody, {
    q: q.trim(),
    count,
    scrapeResults: !noContent,
    includeDomains: sites.length ? sites : undefined,
  });
  const json = shapeOf(request) === "json";
  return metered<unknown>(guard, request, set, "search", async (admission) => {
    const outcome = await search(input, {
      ...deps,
      signal: request.signal,
      httpOnly: admission?.softLimited,
    });
    const data = outcome.response.data.web.map((hit) => {
      const entry: Record<string, unknown> = { title: hit.title, url: hit.url, description: hit.snippet };
      if (!noContent) entry.content = hit.content ?? "";
      entry.usage = { tokens: Math.ceil(String(entry.content ?? hit.snippet).length / 4) };
      return entry;
    });
    const answer = { credits: operationCredits.search(outcome.pagesFetched), degraded: outcome.degraded };
    if (json) return { body: { code: 200, status: 20000, data }, ...answer };
    set.headers["content-type"] = "text/plain; charset=utf-8";
    const text = data
      .map((entry, index) => {
        const n = `[${index + 1}]`;
        const lines = [
          `${n} Title: ${entry.title}`,
          `${n} URL Source: ${entry.url}`,
          `${n} Description: ${entry.description}`,
        ];
        if (entry.content !== undefined) lines.push(`${n} Markdown Content:`, String(entry.content));
        return lines.join("\n");
      })
      .join("\n\n");
    return { body: text, ...answer };
  });
}

/**
 * Jina Reader's URL form (GET /r/<url>), its POST form (POST / and POST /r/ with {url}) and its
 * search (GET /s/<query>), over siphon's scrape operation and search.
 */
export function readerRoutes(deps: FetchDeps, guard: Guard) {
  const posted = async ({ body, request, set }: { body: unknown; request: Request; set: SetHeaders }) =>
    readPage(await postedTarget(body), deps, guard, request, set);
  const postDoc = {
    detail: {
      summary: "Read a page (Jina Reader's POST form)",
      description: `{"url": "https://…"}. ${READER_DOC}`,
    } as never,
  };
  return new Elysia({ name: "compat:reader" })
    .get("/r/*", ({ request, set }) => readPage(readerTarget(request.url), deps, guard, request, set), {
      detail: {
        summary: "Read a page (Jina Reader's URL form)",
        description: `GET /r/https://example.com/page. ${READER_DOC}`,
      } as never,
    })
    .post("/", posted, postDoc)
    .post("/r/", posted, postDoc)
    .get("/s/*", ({ request, set }) => searchPages(deps, guard, request, set), {
      detail: {
        summary: "Search the web and read the results (Jina's search)",
        description:
          "GET /s/<query> (or /s/?q=): the top results (count, default 5) of the operator's search provider, each read as a page, in Jina's numbered text layout, or {code, status, data: [{title, url, description, content, usage}]} with Accept: application/json. site= (repeatable) keeps results to those sites; X-Respond-With: no-content reads no page. Credits: 1, plus 1 per page fetched.",
      } as never,
    });
}
