import { type Static, Type as T } from "@sinclair/typebox";
import { operationCredits } from "../../src/pipeline/credits.ts";
import { mapUrls } from "../../src/pipeline/map.ts";
import { MapBody } from "../../src/schemas/map.ts";
import { validate } from "../../src/schemas/validate.ts";
import { ItemPage, itemPaging, itemWindow } from "../paging.ts";
import type { ToolDef } from "../types.ts";
import { itemsNote } from "./render.ts";

const p = MapBody.properties;

export const MapToolInput = T.Object(
  {
    url: p.url,
    search: p.search,
    limit: p.limit,
    includeSubdomains: p.includeSubdomains,
    ignoreSitemap: p.ignoreSitemap,
    sitemap: p.sitemap,
    ...itemPaging("URLs"),
  },
  { additionalProperties: false },
);
type MapToolInput = Static<typeof MapToolInput>;

export const MapToolOutput = T.Object({
  links: T.Array(T.String(), { description: "The site's URLs, the part named by page" }),
  page: ItemPage,
});

export const mapTool: ToolDef<MapToolInput> = {
  name: "siphon_map",
  description:
    "List the URLs of a website (from its sitemaps and a short link crawl) without reading the pages: fast and " +
    "cheap (1 credit). Use it to find the right page on a site before siphon_fetch, or to choose what to give " +
    "siphon_batch; search keeps only URLs containing a word. Long lists come in parts (nextStartIndex).",
  input: MapToolInput,
  output: MapToolOutput,
  annotations: {
    title: "Map a site's URLs",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  async run(args, ctx) {
    const { startIndex, maxLength, ...rest } = args;
    const input = validate(MapBody, rest);
    const links = await ctx.host.meter("map", async () => ({
      body: await mapUrls(input, { ...ctx.host.deps, signal: ctx.signal }),
      credits: operationCredits.map(),
    }));
    // Each URL takes its own line.
    const window = itemWindow(
      links.slice(startIndex),
      startIndex,
      maxLength,
      (link) => link.length + 1,
      links.length,
    );
    const note = itemsNote(window.page, "URLs", "siphon_map again with the same arguments");
    const lines = [`# ${links.length} URLs on ${input.url}`];
    if (note) lines.push(note);
    lines.push("", ...window.items);
    return { text: lines.join("\n"), structured: { links: window.items, page: window.page } };
  },
};
