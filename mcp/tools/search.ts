import { type Static, Type as T } from "@sinclair/typebox";
import { operationCredits } from "../../src/pipeline/credits.ts";
import { ImageResult, NewsResult, SearchBody, WebResult } from "../../src/schemas/search.ts";
import { validate } from "../../src/schemas/validate.ts";
import { search } from "../../src/search/index.ts";
import { MAX_MAX_LENGTH, MIN_MAX_LENGTH } from "../paging.ts";
import type { ToolDef } from "../types.ts";
import { cutWithNote } from "./render.ts";

const DEFAULT_RESULT_LENGTH = 5000;
const p = SearchBody.properties;

export const SearchToolInput = T.Object(
  {
    q: p.q,
    count: p.count,
    sources: p.sources,
    scrapeResults: T.Boolean({
      default: false,
      description:
        "Also read every web result and return its main content as markdown (1 credit per page): saves a siphon_fetch per result",
    }),
    categories: p.categories,
    includeDomains: p.includeDomains,
    excludeDomains: p.excludeDomains,
    tbs: p.tbs,
    country: p.country,
    location: p.location,
    provider: p.provider,
    searchApiKey: p.searchApiKey,
    maxLength: T.Integer({
      minimum: MIN_MAX_LENGTH,
      maximum: MAX_MAX_LENGTH,
      default: DEFAULT_RESULT_LENGTH,
      description: `With scrapeResults: most characters of each result's content (default ${DEFAULT_RESULT_LENGTH}); a longer one is cut with a note naming the siphon_fetch call that reads on`,
    }),
  },
  { additionalProperties: false },
);
type SearchToolInput = Static<typeof SearchToolInput>;

export const SearchToolOutput = T.Object({
  provider: T.String({ description: "The search provider that answered" }),
  web: T.Array(
    T.Composite([
      WebResult,
      T.Object({
        contentLength: T.Optional(
          T.Integer({ description: "Characters of the whole content, when content was cut" }),
        ),
      }),
    ]),
  ),
  news: T.Optional(T.Array(NewsResult)),
  images: T.Optional(T.Array(ImageResult)),
  degraded: T.Optional(T.String()),
});

export const searchTool: ToolDef<SearchToolInput> = {
  name: "siphon_search",
  description:
    "Search the web and get titles, URLs and snippets (web results; news and images with sources). Use it to " +
    "find pages when you have no URL. scrapeResults: true also reads each web result and returns its content, " +
    "which saves calling siphon_fetch per result. categories narrows to github, pdf, docs, blog, news, video or " +
    "social; tbs to the past day, week, month or year.",
  input: SearchToolInput,
  output: SearchToolOutput,
  annotations: {
    title: "Search the web",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  async run(args, ctx) {
    const { maxLength, ...rest } = args;
    if (rest.searchApiKey === undefined && ctx.host.searchApiKey) rest.searchApiKey = ctx.host.searchApiKey;
    const input = validate(SearchBody, rest);
    const outcome = await ctx.host.meter("search", async (grant) => {
      const found = await search(input, { ...ctx.host.deps, signal: ctx.signal, httpOnly: grant.httpOnly });
      return { body: found, credits: operationCredits.search(found.pagesFetched), degraded: found.degraded };
    });
    const { web, news, images } = outcome.response.data;
    const cutWeb = web.map((item) => {
      if (typeof item.content !== "string" || item.content.length <= maxLength) return item;
      return {
        ...item,
        content: cutWithNote(item.content, maxLength, item.url),
        contentLength: item.content.length,
      };
    });
    const structured: Record<string, unknown> = { provider: outcome.provider, web: cutWeb };
    if (news) structured.news = news;
    if (images) structured.images = images;
    if (outcome.degraded) structured.degraded = outcome.degraded;

    const lines = [`# Search: ${input.q}`];
    if (outcome.degraded) lines.push(`Note: ${outcome.degraded}`);
    if (input.sources.includes("web")) {
      lines.push("", `## Web results (${web.length})`);
      if (!web.length) lines.push("No results.");
      for (const [i, item] of cutWeb.entries()) {
        lines.push("", `${i + 1}. [${item.title}](${item.url})`, item.snippet ? `   ${item.snippet}` : "");
        if (typeof item.content === "string") lines.push("", item.content);
        else if (item.error) lines.push(`   (Could not read the page: ${item.error.message})`);
      }
    }
    if (news) {
      lines.push("", `## News (${news.length})`);
      for (const [i, item] of news.entries()) {
        const when = [item.source, item.date].filter(Boolean).join(", ");
        lines.push(
          `${i + 1}. [${item.title}](${item.url})${when ? ` (${when})` : ""} ${item.snippet}`.trimEnd(),
        );
      }
    }
    if (images) {
      lines.push("", `## Images (${images.length})`);
      for (const [i, item] of images.entries())
        lines.push(`${i + 1}. ${item.title}: ${item.imageUrl} (on ${item.url})`);
    }
    return { text: lines.join("\n"), structured };
  },
};
