import { type Static, Type as T } from "@sinclair/typebox";
import { scrape } from "../../src/pipeline/scrape.ts";
import { StringEnum } from "../../src/schemas/common.ts";
import { FetchBody, FetchResult } from "../../src/schemas/fetch.ts";
import {
  AttributesFormat,
  ChunksFormat,
  HighlightsFormat,
  QuestionFormat,
} from "../../src/schemas/formats.ts";
import { validate } from "../../src/schemas/validate.ts";
import { TextPage, textPaging, textWindow } from "../paging.ts";
import type { ToolDef, ToolImage } from "../types.ts";
import { jsonBlock, partNote } from "./render.ts";

const p = FetchBody.properties;

/** The outputs one fetch can make, as names or, for options, objects (a json extraction is `extract`). */
const Formats = T.Array(
  T.Union([
    StringEnum([
      "markdown",
      "text",
      "html",
      "rawHtml",
      "links",
      "images",
      "screenshot",
      "screenshot@fullPage",
      "summary",
      "branding",
      "changeTracking",
      "chunks",
    ]),
    T.Object(
      {
        type: T.Literal("screenshot"),
        fullPage: T.Optional(T.Boolean()),
        quality: T.Optional(T.Integer({ minimum: 1, maximum: 100, description: "JPEG quality" })),
        viewport: T.Optional(
          T.Object(
            {
              width: T.Integer({ minimum: 100, maximum: 5000 }),
              height: T.Integer({ minimum: 100, maximum: 5000 }),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false, description: "A screenshot with options" },
    ),
    T.Object(
      {
        type: T.Literal("changeTracking"),
        modes: T.Optional(T.Array(T.Literal("git-diff"), { maxItems: 1 })),
        tag: T.Optional(T.String({ maxLength: 200 })),
        record: T.Optional(
          T.Boolean({ description: "false: compare without keeping this fetch as the next one's previous" }),
        ),
      },
      { additionalProperties: false, description: "Change tracking with a git-style diff or a tag" },
    ),
    AttributesFormat,
    HighlightsFormat,
    QuestionFormat,
    ChunksFormat,
  ]),
  {
    maxItems: 12,
    description:
      "Outputs of the one fetch: markdown, text or html (the first also sets content), rawHtml (the page's own HTML), " +
      "links (listed in the answer), images, screenshot or screenshot@fullPage (returned as an image; an object " +
      "for quality or viewport), summary (a few sentences: your LLM's with llmProvider and llmApiKey, else the " +
      "page's own), branding (colours, fonts, logo), changeTracking (the page against your previous fetch of it; " +
      '{"type":"changeTracking","modes":["git-diff"]} adds a diff), {"type":"question","question":"…"} (an answer ' +
      "from the page: your LLM's with llmProvider and llmApiKey, else the page's most relevant passage), " +
      '{"type":"highlights","query":"…"} (the passages most relevant to the query), ' +
      '{"type":"attributes","selectors":[{"selector":"a","attribute":"href"}]} (attribute values), chunks or ' +
      '{"type":"chunks","maxTokens":512,"overlap":0} (the markdown in pieces for retrieval, each with its heading ' +
      "path, token count and a stable id, in the structured answer's chunks). Default: [format]",
  },
);

export const FetchToolInput = T.Object(
  {
    url: p.url,
    formats: T.Optional(Formats),
    format: p.format,
    onlyMainContent: T.Boolean({
      default: false,
      description:
        "true: only the main content (the article body), dropping sidebars and related links; saves tokens on articles and docs",
    }),
    includeTags: p.includeTags,
    excludeTags: p.excludeTags,
    render: T.Boolean({
      default: false,
      description:
        "Render in a headless browser. Usually not needed: siphon renders by itself when a page needs JavaScript",
    }),
    wait: p.wait,
    stealth: T.Boolean({
      default: false,
      description: "Browser with bot-detection evasions, for sites that block automated requests (slower)",
    }),
    actions: p.actions,
    images: p.images,
    location: p.location,
    languages: p.languages,
    headers: p.headers,
    cookies: p.cookies,
    maxAge: p.maxAge,
    storeInCache: p.storeInCache,
    siteMarkdown: p.siteMarkdown,
    lockdown: p.lockdown,
    minAge: p.minAge,
    timeout: p.timeout,
    extract: p.extract,
    llmProvider: p.llmProvider,
    llmApiKey: p.llmApiKey,
    llmModel: p.llmModel,
    llmApiBase: p.llmApiBase,
    ...textPaging(),
  },
  { additionalProperties: false },
);
type FetchToolInput = Static<typeof FetchToolInput>;

export const FetchToolOutput = T.Composite(
  [
    T.Omit(FetchResult, ["screenshot", "actions"]),
    T.Object({
      actions: T.Optional(
        T.Omit(FetchResult.properties.actions, ["screenshots"], {
          description:
            "What the actions made besides screenshots (those are image blocks): scrapes, javascriptReturns, pdfs (base64)",
        }),
      ),
      page: TextPage,
      cached: T.Boolean({ description: "Answered from siphon's cache (no credit used)" }),
      credits: T.Integer({
        description: "Credits this fetch used: 1 when the page was fetched, 0 for a cache hit",
      }),
      degraded: T.Optional(T.String({ description: "Why the fetch ran with less than it could" })),
    }),
  ],
  { description: "The Fetch result; the text fields hold the part named by page" },
);

/** Text fields of a result, cut to the same window as content. */
const TEXT_FIELDS = ["content", "markdown", "text", "html", "rawHtml"] as const;

/** The result's screenshots (a screenshot format, screenshot actions) as image blocks. */
function screenshotsOf(result: FetchResult): ToolImage[] {
  const shots = [...(result.screenshot ? [result.screenshot] : []), ...(result.actions?.screenshots ?? [])];
  return shots.map((data) => ({ data, mimeType: "image/png" }));
}

export const fetchTool: ToolDef<FetchToolInput> = {
  name: "siphon_fetch",
  description:
    "Read one web page (or PDF, DOCX, JSON, feed) and get its content as clean markdown, with title, metadata, " +
    "links and a quality score. Use it whenever you have a URL and need what the page says. JavaScript pages " +
    "are rendered automatically; set stealth: true when a site blocks bots, actions to click or type first. " +
    "extract returns structured JSON too (a JSON Schema alone reads the page's own data; a prompt needs your " +
    "llmProvider and llmApiKey); formats adds a summary, the page's branding or what changed since your last " +
    "fetch of it. Answers are cached for maxAge ms. Long pages come in parts of maxLength " +
    "characters: the answer says where the next part starts (nextStartIndex); call again with startIndex " +
    "set to it for more.",
  input: FetchToolInput,
  output: FetchToolOutput,
  annotations: {
    title: "Fetch a web page",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  async run(args, ctx) {
    const { startIndex, maxLength, ...request } = args;
    const input = validate(FetchBody, request);
    const outcome = await ctx.host.meter("fetch", async (grant) => {
      const fetched = await scrape(
        { fetch: input, accountId: grant.accountId },
        { ...ctx.host.deps, signal: ctx.signal, httpOnly: grant.httpOnly },
      );
      return { body: fetched, credits: fetched.credits, degraded: fetched.degraded, tokens: fetched.tokens };
    });
    const { screenshot: _s, actions, ...result } = outcome.result;
    const present = TEXT_FIELDS.filter((field) => typeof result[field] === "string");
    const { parts, page } = textWindow(
      present.map((field) => result[field] as string),
      startIndex,
      maxLength,
    );
    const cut = Object.fromEntries(present.map((field, i) => [field, parts[i]]));
    const structured: Record<string, unknown> = {
      ...result,
      ...cut,
      page,
      cached: outcome.cache.hit,
      credits: outcome.credits,
    };
    if (outcome.degraded) structured.degraded = outcome.degraded;
    if (actions) {
      const { screenshots: _shots, ...made } = actions;
      structured.actions = made;
    }

    const lines = [
      `# ${result.title || result.url}`,
      `${result.url} · ${result.method} · HTTP ${result.statusCode} · ${result.contentType} · ` +
        `${result.tokens} tokens · quality ${result.quality.toFixed(2)}${outcome.cache.hit ? " · cached" : ""}`,
    ];
    if (result.warning) lines.push(`Warning: ${result.warning}`);
    if (outcome.degraded) lines.push(`Note: ${outcome.degraded}`);
    const note = partNote(page, "siphon_fetch");
    if (note) lines.push(note);
    lines.push("", cut.content ?? "");
    // Other text formats asked for, when they differ from content.
    for (const field of present) {
      if (field === "content" || cut[field] === cut.content) continue;
      lines.push("", `## ${field}`, "```", cut[field] ?? "", "```");
    }
    if (result.json !== undefined) lines.push("", "## Extracted JSON", jsonBlock(result.json));
    if (page.startIndex === 0) {
      if (result.summary !== undefined) lines.push("", "## Summary", result.summary);
      if (result.answerMethod !== undefined) {
        const how = result.answerMethod === "llm" ? "" : " (the page's most relevant passage)";
        lines.push(
          "",
          `## Answer${how}`,
          result.answer ?? "No passage of the page has the question's words.",
        );
      }
      if (result.highlights !== undefined)
        lines.push("", "## Highlights", result.highlights || "No passage of the page has the query's words.");
      if (result.attributes !== undefined) lines.push("", "## Attributes", jsonBlock(result.attributes));
      if (actions?.javascriptReturns.length)
        lines.push("", "## Script returns", jsonBlock(actions.javascriptReturns));
      if (actions?.scrapes.length || actions?.pdfs.length) {
        lines.push(
          "",
          `Actions made ${actions.scrapes.length} page copies and ${actions.pdfs.length} PDFs: see structuredContent.actions.`,
        );
      }
      if (result.branding !== undefined) lines.push("", "## Branding", jsonBlock(result.branding));
      if (result.changeTracking !== undefined)
        lines.push("", "## Change tracking", jsonBlock(result.changeTracking));
    }
    if (input.formats?.includes("links") && page.startIndex === 0) {
      lines.push("", `## Links (${result.links.length})`, ...result.links.map((link) => `- ${link}`));
    }
    return {
      text: lines.join("\n"),
      structured,
      images: page.startIndex === 0 ? screenshotsOf(outcome.result) : [],
    };
  },
};
