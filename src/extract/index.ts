import { unwrapAdmonitions } from "./admonitions.ts";
import { revealCfEmails } from "./cf-email.ts";
import { cleanTree } from "./clean.ts";
import { dropLineNumbers, mayHoldCodeTables, mayHoldLineNumbers, unwrapCodeTables } from "./code-tables.ts";
import { type CheerioAPI, loadMarkedHtml } from "./dom.ts";
import { excludeElements, includeElements } from "./filter.ts";
import { dropImageVariants } from "./image-variants.ts";
import { collectImages, dropAvatars } from "./images.ts";
import { dropPhoneTwins } from "./layout-twins.ts";
import { extractLinks } from "./links.ts";
import { selectMainContent } from "./main-content.ts";
import { toMarkdown } from "./markdown.ts";
import { baseUrlOf, extractMetadata } from "./metadata.ts";
import { repairMojibakeIn } from "./mojibake.ts";
import { type AnyNode, type Element, firstElement, isElement, visibleTextLength } from "./nodes.ts";
import { findNotations, type Notations } from "./notation.ts";
import { keepPageContent } from "./page-content.ts";
import { declaredPageType, declaredTypes, declaresArticleSchema, type PageType } from "./page-type.ts";
import { declaredProductDescription, missingDescription } from "./product-data.ts";
import { qaThread } from "./qa-thread.ts";
import { qualityScore } from "./quality.ts";
import { resolveUrls } from "./resolve-urls.ts";
import { parenthesizeRuby } from "./ruby.ts";
import { scanPage } from "./scan.ts";
import { joinSplitTables } from "./split-tables.ts";
import { measure, sumStats } from "./stats.ts";
import { placeStreamedContent } from "./streamed.ts";
import { toText } from "./text.ts";
import { titleHeading } from "./title-heading.ts";
import { dropTrailingHeadings } from "./trailing-headings.ts";
import { dropTrailingPrompts } from "./trailing-prompts.ts";
import type { ExtractedDocument, ExtractOptions, ImageInfo, OutputFormat, PageMetadata } from "./types.ts";
import { settleInlineEdges } from "./word-breaks.ts";

/** State handed from step to step; each step reads what earlier ones left. */
interface ExtractContext {
  readonly $: CheerioAPI;
  readonly options: ExtractOptions;
  readonly baseUrl: string;
  /** The page's own address (after redirects): markdown writes a link to it as its text. */
  readonly url: string;
  readonly body: Element;
  /** The content so far: the cleaned body, then the main content (in the default mode, the page around it), then the included elements. */
  roots: Element[];
  title: string;
  metadata: PageMetadata;
  links: string[];
  images?: ImageInfo[];
  /** What the page declares itself to be (schema.org, OpenGraph), when that decides it. */
  pageType: PageType | null;
  /** The page type rests on `og:type` alone (see declaresArticleSchema). */
  weakType: boolean;
  /** The markup has two tables or more (noted by the parser: pages without spare a walk). */
  readonly tables: boolean;
  /** The markup has a table and a code block: it may lay code out beside line numbers. */
  readonly codeTables: boolean;
  /** The page may hold Asciidoctor's admonition tables (admonitions.ts). */
  readonly admonitions: boolean;
  /** Whether the page may number lines inside its code blocks (dropped, see code-tables.ts). */
  readonly lineNumbers: boolean;
  /** Whether the page may annotate text with ruby (readings set in parentheses, see ruby.ts). */
  readonly ruby: boolean;
  /** Whether a class may name a part only phones show (layout-twins.ts). */
  readonly phoneOnly: boolean;
  /** Whether a class or an image source may name a person's picture (images.ts). */
  readonly avatars: boolean;
  /** Visible text of the whole body before cleaning (for the quality score). */
  pageText: number;
  content: string;
  /** Math and footnotes in the settled content, read once for every format that shows them. */
  notations?: Notations;
  formats?: Partial<Record<OutputFormat, string>>;
  quality: number;
}

type Step = (ctx: ExtractContext) => void;

/** The settled content in one output format. */
function render(ctx: ExtractContext, format: OutputFormat): string {
  if (format === "html") return ctx.roots.map((el) => ctx.$.html(el)).join("\n");
  ctx.notations ??= findNotations(ctx.roots);
  if (format === "text") return toText(ctx.roots, ctx.notations);
  return toMarkdown(ctx.roots, ctx.notations, ctx.url);
}

/**
 * The extraction steps, in order. Metadata and links read the original
 * document, so they run before cleaning; URL resolution runs after the content
 * is settled so it touches only what is returned.
 */
const STEPS: Step[] = [
  function readMetadataAndLinks(ctx) {
    const { title, metadata } = extractMetadata(ctx.$, ctx.baseUrl);
    ctx.title = title;
    ctx.metadata = metadata;
    ctx.links = extractLinks(ctx.$, ctx.baseUrl);
    ctx.pageText = visibleTextLength(ctx.body);
    const declared = declaredTypes(scanPage(ctx.$));
    ctx.pageType = declaredPageType(declared);
    ctx.weakType = ctx.pageType === "article" && !declaresArticleSchema(declared);
  },
  function clean(ctx) {
    cleanTree(ctx.body, ctx.pageText);
    if (ctx.codeTables) unwrapCodeTables(ctx.body);
    if (ctx.admonitions) unwrapAdmonitions(ctx.body);
    if (ctx.lineNumbers) dropLineNumbers(ctx.body);
    if (ctx.ruby) parenthesizeRuby(ctx.body);
    if (ctx.tables) joinSplitTables(ctx.body);
  },
  function mainContent(ctx) {
    // The page's scan already knows whether it marks up a question: no walk for the pages that do not.
    const scan = scanPage(ctx.$);
    const thread = scan.itemTypes.includes("Question") ? qaThread(ctx.body) : null;
    ctx.roots =
      thread ??
      selectMainContent(ctx.body, ctx.pageType, ctx.weakType, !ctx.options.onlyMainContent, scan.tagLinks);
  },
  function title(ctx) {
    // A product's title comes with its price (selectMainContent's productHeader).
    if (ctx.pageType === "product") return;
    ctx.roots = [...titleHeading(ctx.body, ctx.roots, ctx.title), ...ctx.roots];
  },
  function pageContent(ctx) {
    // The default mode: the page's own content around the main content.
    if (ctx.options.onlyMainContent) return;
    const { roots } = ctx;
    // A part the selection made (the rule between a thread's posts) goes into the page before the part it precedes.
    roots.forEach((root, i) => {
      const next = roots[i + 1];
      if (!root.parent && next?.parent) ctx.$(next).before(root);
    });
    keepPageContent(
      ctx.body,
      roots.filter((root) => root.parent),
      ctx.pageType === "article" && !ctx.weakType,
    );
    ctx.roots = [ctx.body];
  },
  function declaredProductDetails(ctx) {
    // A product's description is content even where the page only declares it (JSON-LD), in both modes.
    if (ctx.pageType !== "product") return;
    const extra = missingDescription(ctx.$, ctx.roots, declaredProductDescription(scanPage(ctx.$)));
    if (extra) ctx.roots = [...ctx.roots, extra];
  },
  function includeAndExclude(ctx) {
    const { includeTags, excludeTags } = ctx.options;
    if (includeTags?.length) ctx.roots = includeElements(ctx.$, ctx.roots, includeTags);
    if (excludeTags?.length) excludeElements(ctx.$, ctx.roots, excludeTags);
  },
  function layoutTwins(ctx) {
    // Chosen elements are the caller's, as the page marks them up.
    if (ctx.phoneOnly && !ctx.options.includeTags?.length) ctx.roots = dropPhoneTwins(ctx.roots);
  },
  function trailingHeadings(ctx) {
    // Chosen elements are the caller's: a selection of headings is all headings.
    if (ctx.options.includeTags?.length) return;
    // A prompt first: the heading over it ("Newsletter:") then ends the content.
    dropTrailingPrompts(ctx.roots);
    dropTrailingHeadings(ctx.roots);
  },
  function absoluteUrls(ctx) {
    resolveUrls(ctx.roots, ctx.baseUrl);
  },
  function imageVariants(ctx) {
    dropImageVariants(ctx.roots);
    if (ctx.avatars) dropAvatars(ctx.roots);
  },
  function images(ctx) {
    if (ctx.options.images) ctx.images = collectImages(ctx.roots);
  },
  function format(ctx) {
    const { format, formats } = ctx.options;
    const wanted = formats?.length ? [format, ...formats] : [format];
    const out: Partial<Record<OutputFormat, string>> = {};
    // HTML is the markup as the page has it: rendered before markdown and text set words apart.
    if (wanted.includes("html")) out.html = render(ctx, "html");
    if (wanted.some((f) => f !== "html")) settleInlineEdges(ctx.roots);
    for (const f of wanted) out[f] ??= render(ctx, f);
    ctx.content = out[format]!;
    if (formats?.length) ctx.formats = out;
  },
  function quality(ctx) {
    const content = sumStats(ctx.roots.map((root) => measure(root).get(root)!));
    ctx.quality = qualityScore(content, ctx.pageText);
  },
];

/**
 * The page body, as a browser would build it: markup after `</body>` or
 * `</html>` (common on real pages) is moved into it, and a fragment without a
 * body gets one (htmlparser2 does neither, unlike an HTML5 parser).
 */
function bodyOf($: CheerioAPI): Element {
  // Found without compiling a CSS selector for every page.
  const body = firstElement($.root()[0]!, "body");
  if (!body) {
    const wrapper = $("<body></body>");
    wrapper.append($.root().contents());
    $.root().append(wrapper);
    return wrapper[0] as Element;
  }
  const stray: AnyNode[] = [];
  for (let node: AnyNode | null = body; node && node.type !== "root"; node = node.parent) {
    for (let next = node.next; next; next = next.next)
      if (isElement(next) || next.type === "text") stray.push(next);
  }
  if (stray.length) $(body).append(stray);
  return body;
}

/**
 * Turns an HTML page into the content of a fetch result: title, metadata and
 * links from the original document; content cleaned of boilerplate (or only
 * the main content), filtered by include/exclude tags, with absolute URLs, in
 * the requested format; images when asked; and a quality score. Never throws
 * on malformed HTML.
 */
export function extractHtml(html: string, url: string, options: ExtractOptions): ExtractedDocument {
  const { $, marks } = loadMarkedHtml(html);
  // Every step reads the page as a browser shows it: streamed content in its place.
  if (marks.streamed) placeStreamedContent($.root()[0]!, html);
  // Text encoded twice reads as it was written ("computerâ€™s" is "computer's").
  if (marks.mojibake) repairMojibakeIn($.root()[0]!);
  // An address Cloudflare hides until its script runs ("[email protected]") reads as the address.
  if (marks.cfEmail) revealCfEmails($.root()[0]!);
  const body = bodyOf($);
  const ctx: ExtractContext = {
    $,
    options,
    baseUrl: baseUrlOf($, url),
    url,
    body,
    roots: [body],
    title: "",
    metadata: { description: null, author: null, published: null, image: null, canonical: null },
    links: [],
    pageType: null,
    weakType: false,
    tables: marks.tables > 1,
    codeTables: mayHoldCodeTables(html, marks),
    admonitions: marks.admonitions,
    lineNumbers: mayHoldLineNumbers(html, marks),
    ruby: marks.ruby,
    phoneOnly: marks.phoneOnly,
    avatars: marks.avatars,
    pageText: 0,
    content: "",
    quality: 0,
  };
  for (const step of STEPS) step(ctx);
  const doc: ExtractedDocument = {
    title: ctx.title,
    content: ctx.content,
    metadata: ctx.metadata,
    links: ctx.links,
    quality: ctx.quality,
  };
  if (ctx.images) doc.images = ctx.images;
  if (ctx.formats) doc.formats = ctx.formats;
  return doc;
}
