import { type Static, Type as T } from "@sinclair/typebox";
import { MAX_ACTIONS, PageActionDoc } from "./actions.ts";
import { inputFromQuery, StringEnum } from "./common.ts";
import { extractFields } from "./extract-spec.ts";
import { LlmFieldsOptional } from "./llm.ts";

export const DEFAULT_MAX_AGE_MS = 172_800_000;
/** The longest maxAge a request may ask for (30 days); the cache drops entries older than this. */
export const MAX_CACHE_AGE_MS = 2_592_000_000;

const Format = StringEnum(["markdown", "text", "html"], {
  default: "markdown",
  description: "Output format of `content`",
});

/** Custom request headers, name to value. */
export const Headers = T.Record(
  T.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" }),
  // What HTTP can carry in a field value: no CR, LF or other control characters, Latin-1 only.
  T.String({
    maxLength: 8192,
    pattern: "^[\\t\\x20-\\x7E\\x80-\\xFF]*$",
    description: "a header value: printable characters, no line breaks",
  }),
  {
    // typebox leaves names outside the pattern unchecked unless told otherwise.
    additionalProperties: false,
    description: "Custom HTTP headers sent with the request (token names, printable values)",
  },
);

/** Cookies as name=value pairs. */
export const Cookies = T.Array(
  T.String({
    pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+=[\\x20-\\x3A\\x3C-\\x7E]*$",
    maxLength: 4096,
    description: 'a cookie as "name=value" (printable ASCII, no ";")',
  }),
  {
    maxItems: 50,
    description: 'Cookies as "name=value" pairs',
  },
);

/**
 * The one request model of a fetch: POST /v1/fetch's body, GET /v1/fetch's
 * query after `fetchInputFromQuery`, and the CLI's flags all end up here.
 */
export const FetchBody = T.Object(
  {
    url: T.String({ description: "http(s) URL to fetch, at most 2048 characters, no #fragment" }),
    format: Format,
    render: T.Boolean({ default: false, description: "Force headless browser rendering" }),
    wait: T.Integer({
      minimum: 0,
      maximum: 60_000,
      default: 0,
      description:
        "Milliseconds to wait after the rendered page is ready (see docs/fetching.md: When a rendered page is read)",
    }),
    includeTags: T.Optional(
      T.Array(T.String(), { maxItems: 100, description: "Tags or CSS selectors to keep (others dropped)" }),
    ),
    excludeTags: T.Optional(
      T.Array(T.String(), { maxItems: 100, description: "Tags or CSS selectors to remove" }),
    ),
    onlyMainContent: T.Boolean({
      default: false,
      description:
        "Keep only the main content (article body). When false (the default), the page's own content: the main content with the page's other text around it (sections, lists, tables, pictures, a byline), without navigation, link lists, related rails, forms, reviews, labels and prompts",
    }),
    images: T.Boolean({ default: false, description: "Return the images of the content in `images`" }),
    location: T.Optional(
      T.String({
        pattern: "^[A-Za-z]{2}$",
        description: "ISO 3166-1 alpha-2 country code; sets Accept-Language",
      }),
    ),
    languages: T.Optional(
      // Language tags (BCP 47: "de", "de-CH", "zh-Hant-TW") or "*": they go into Accept-Language.
      T.Array(T.String({ maxLength: 35, pattern: "^(\\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)$" }), {
        maxItems: 20,
        description: "Language preferences, e.g. de-CH, fr",
      }),
    ),
    actions: T.Optional(
      T.Array(PageActionDoc, {
        maxItems: MAX_ACTIONS,
        description: "Page actions run in order after load; enables browser rendering",
      }),
    ),
    stealth: T.Boolean({
      default: false,
      description: "Force stealth mode (browser with bot-detection evasions)",
    }),
    headers: T.Optional(Headers),
    cookies: T.Optional(Cookies),
    maxAge: T.Integer({
      minimum: 0,
      maximum: MAX_CACHE_AGE_MS,
      default: DEFAULT_MAX_AGE_MS,
      description: "Accept a cached result at most this old (ms, at most 30 days); 0 bypasses the cache",
    }),
    storeInCache: T.Boolean({ default: true, description: "false: do not write this result to the cache" }),
    siteMarkdown: T.Boolean({
      default: true,
      description:
        "Use the site's own markdown of the page when it offers one (it answers Accept: text/markdown, or announces a markdown twin with <link rel=alternate type=text/markdown> or a Link header; a crawl also reads /llms.txt's .md twins) and it is sane: then markdown comes from it and `source` is \"site-markdown\"; every other format still comes from the page. false: always extract the page",
    }),
    lockdown: T.Boolean({
      default: false,
      description:
        "Answer from the cache only and never reach the site: a cached copy of any age (unless maxAge asks for a younger one), else 404 not_found",
    }),
    minAge: T.Optional(
      T.Integer({
        minimum: 0,
        maximum: MAX_CACHE_AGE_MS,
        description:
          "Answer from the cache only, with a copy at least this old (ms); never reaches the site; none: 404 not_found",
      }),
    ),
    extract: T.Optional(
      T.Object(extractFields, {
        additionalProperties: false,
        description:
          "Inline extraction: schema and/or prompt (with an LLM: llmProvider, llmApiKey), or a schema alone (no LLM: the page's structured data), or selectors; the result gains json (and extractTokensUsed)",
      }),
    ),
    ...LlmFieldsOptional,
    formats: T.Optional(
      T.Array(T.Unknown(), {
        maxItems: 20,
        description:
          'Any set of "markdown", "text", "html" (each returned in a field of that name; the first also sets ' +
          '`content`), "rawHtml", "links" (always returned), "images", "screenshot" (or ' +
          '{"type":"screenshot","fullPage":true,"quality":80,"viewport":{"width":1280,"height":800}}), ' +
          '"summary" (by the LLM of llmProvider/llmApiKey, else extractive), "branding" (colours, fonts, logo), ' +
          '"changeTracking" (or {"type":"changeTracking","modes":["git-diff"],"tag":"…","record":false}: the page ' +
          "against your previous scrape of it), " +
          '{"type":"attributes","selectors":[{"selector":"a.story","attribute":"href"}]} (attribute values, in ' +
          '`attributes`), {"type":"highlights","query":"…"} (the most relevant passages, in `highlights`), ' +
          '{"type":"question","question":"…"} (an answer from the page, in `answer`: by the LLM of llmProvider/llmApiKey, ' +
          "else the most relevant passage; `answerMethod` says which), all made from one fetch of the page; " +
          '{"type":"json","schema":{…},"prompt":"…"} extracts into json, like extract',
      }),
    ),
    timeout: T.Optional(
      T.Integer({
        minimum: 1000,
        maximum: 300_000,
        description:
          "ms for the whole request (fetch, extraction, summary, branding); past it: 504 timeout. Default: " +
          "no bound beyond each engine's own (SIPHON_FETCH_TIMEOUT_MS)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type FetchInput = Static<typeof FetchBody>;

/** GET /v1/fetch query parameters, as strings on the wire (documented for OpenAPI). */
export const FetchQuery = T.Object({
  url: T.String({ description: "http(s) URL to fetch" }),
  format: T.Optional(T.String({ description: "markdown (default), text or html" })),
  formats: T.Optional(
    T.String({
      description:
        "Comma-separated: markdown, text, html, rawHtml, links, images, screenshot, summary, branding, changeTracking",
    }),
  ),
  render: T.Optional(T.String({ description: "true to force browser rendering" })),
  wait: T.Optional(T.String({ description: "ms after load, 0-60000 (render only)" })),
  includeTags: T.Optional(T.String({ description: "Comma-separated tags or selectors to keep" })),
  excludeTags: T.Optional(T.String({ description: "Comma-separated tags or selectors to remove" })),
  onlyMainContent: T.Optional(T.String({ description: "true to keep only the main content" })),
  images: T.Optional(T.String({ description: "true to list images" })),
  location: T.Optional(T.String({ description: "ISO 3166-1 alpha-2 country code" })),
  languages: T.Optional(T.String({ description: "Comma-separated language preferences" })),
  actions: T.Optional(T.String({ description: "JSON-encoded array of page actions" })),
  maxAge: T.Optional(T.String({ description: "Cache freshness threshold, ms (0 bypasses)" })),
  storeInCache: T.Optional(T.String({ description: "false skips caching the response" })),
  siteMarkdown: T.Optional(T.String({ description: "false: never use the site's own markdown twin" })),
  lockdown: T.Optional(T.String({ description: "true: answer from the cache only, never reach the site" })),
  minAge: T.Optional(T.String({ description: "ms: answer from a cached copy at least this old, else 404" })),
  timeout: T.Optional(T.String({ description: "ms for the whole request, 1000-300000 (504 past it)" })),
});

/**
 * Converts GET query strings to the FetchBody shape (lists split on commas, booleans and
 * numbers parsed, actions JSON-decoded); see inputFromQuery.
 */
export function fetchInputFromQuery(query: Record<string, unknown>): Record<string, unknown> {
  return inputFromQuery(query, {
    lists: ["includeTags", "excludeTags", "languages", "formats"],
    booleans: ["render", "onlyMainContent", "images", "storeInCache", "lockdown", "siteMarkdown"],
    numbers: ["wait", "maxAge", "timeout", "minAge"],
    json: ["actions"],
  });
}

const Metadata = T.Object({
  description: T.Union([T.String(), T.Null()]),
  author: T.Union([T.String(), T.Null()]),
  published: T.Union([T.String(), T.Null()]),
  image: T.Union([T.String(), T.Null()]),
  canonical: T.Union([T.String(), T.Null()]),
});

const Image = T.Object({
  src: T.String(),
  alt: T.Union([T.String(), T.Null()]),
  title: T.Union([T.String(), T.Null()]),
  width: T.Union([T.Number(), T.Null()]),
  height: T.Union([T.Number(), T.Null()]),
});

/** The Fetch result (SPEC), plus statusCode of the target's answer. */
export const FetchResult = T.Object({
  url: T.String({ description: "Final URL after redirects" }),
  title: T.String(),
  content: T.String({ description: "Extracted content in the requested format" }),
  metadata: Metadata,
  links: T.Array(T.String(), { description: "All links on the page, absolute and deduplicated" }),
  tokens: T.Integer({ description: "ceil(content.length / 4)" }),
  method: StringEnum(["simple", "browser", "stealth"]),
  source: T.Optional(
    StringEnum(["site-markdown"], {
      description:
        "site-markdown: the markdown is the site's own twin of the page (siteMarkdown), not extracted; absent: extracted from the page",
    }),
  ),
  elapsed: T.Number({ description: "Processing time in ms" }),
  contentType: StringEnum(["html", "json", "xml", "text", "document"]),
  quality: T.Number({
    minimum: 0,
    maximum: 1,
    description: "Extraction quality score (see docs/http-api.md, Fetch result)",
  }),
  fingerprint: T.String({ description: "First 16 hex characters of SHA-256 over content" }),
  statusCode: T.Integer({ description: "HTTP status the target answered with" }),
  markdown: T.Optional(T.String({ description: 'The content as markdown, when formats names "markdown"' })),
  text: T.Optional(T.String({ description: 'The content as plain text, when formats names "text"' })),
  html: T.Optional(T.String({ description: 'The content as cleaned HTML, when formats names "html"' })),
  rawHtml: T.Optional(
    T.String({ description: 'The page as fetched (or as rendered), when formats names "rawHtml"' }),
  ),
  images: T.Optional(T.Array(Image)),
  screenshot: T.Optional(
    T.String({ description: "Base64 PNG (JPEG with a quality), when formats asks for a screenshot" }),
  ),
  warning: T.Optional(
    T.String({
      description:
        "Set when the answer may be less than the page: a browser stage failed or drew less text than plain HTTP (the plain answer is returned), or a rendered app never looked drawn before the cap",
    }),
  ),
  json: T.Optional(
    T.Unsafe<Record<string, unknown>>({
      type: "object",
      description: "Inline extraction's result (extract, or a json format)",
    }),
  ),
  extractTokensUsed: T.Optional(
    T.Object(
      { input: T.Integer(), output: T.Integer() },
      { description: "Tokens the extraction used (LLM path only)" },
    ),
  ),
  summary: T.Optional(
    T.String({
      description:
        'The page in 2 to 4 sentences, when formats names "summary": by the LLM the request names, else extractive',
    }),
  ),
  summaryTokensUsed: T.Optional(
    T.Object(
      { input: T.Integer(), output: T.Integer() },
      { description: "Tokens the summary used (LLM summaries only)" },
    ),
  ),
  branding: T.Optional(
    T.Unsafe<Record<string, unknown>>({
      type: "object",
      description:
        'The page\'s branding profile, when formats names "branding": colorScheme, brandName, logo, colors, fonts, typography, spacing, components, images',
    }),
  ),
  changeTracking: T.Optional(
    T.Unsafe<Record<string, unknown>>({
      type: "object",
      description:
        'The page against your previous scrape of it, when formats names "changeTracking": {previousScrapeAt, changeStatus: new|same|changed|removed, visibility, diff?}',
    }),
  ),
  attributes: T.Optional(
    T.Array(
      T.Object({
        selector: T.String(),
        attribute: T.String(),
        values: T.Array(T.String(), { description: "The attribute's values on the matches, in page order" }),
      }),
      { description: "What an attributes format asked for, one entry per selector" },
    ),
  ),
  highlights: T.Optional(
    T.String({
      description:
        "The passages most relevant to a highlights format's query, best first, separated by blank lines; empty when none has its words",
    }),
  ),
  chunks: T.Optional(
    T.Array(
      T.Object({
        id: T.String({
          description:
            "Stable: 16 hex digits of SHA-256 over the URL, heading path and text (the same text at the same URL has the same id across runs); -2, -3… on a repeat within the page",
        }),
        text: T.String({ description: "Markdown; a section's first chunk starts with its heading line" }),
        headings: T.Array(T.String(), {
          description: 'The heading path above it, outermost first: ["Install", "On Debian"]',
        }),
        index: T.Integer({ description: "Its position in the page, from 0" }),
        tokens: T.Integer({
          description: "Its token count in `tokenizer` (a real tokenizer, not length / 4)",
        }),
        url: T.String(),
        title: T.String(),
        tokenizer: T.String({ description: "The encoding tokens are counted in (o200k_base unless asked)" }),
      }),
      { description: "A chunks format's pieces of the page's markdown, in page order" },
    ),
  ),
  answer: T.Optional(
    T.Union([T.String(), T.Null()], {
      description:
        "A question format's answer from the page; null when no passage has the question's words (passage answers)",
    }),
  ),
  answerMethod: T.Optional(
    StringEnum(["llm", "passage"], {
      description:
        "How answer was made: by the LLM, or the page's most relevant passage word for word (no LLM)",
    }),
  ),
  answerTokensUsed: T.Optional(
    T.Object(
      { input: T.Integer(), output: T.Integer() },
      { description: "Tokens the answer used (LLM answers only)" },
    ),
  ),
  actions: T.Optional(
    T.Object(
      {
        screenshots: T.Array(T.String(), { description: "Base64 PNGs of screenshot actions, in order" }),
        scrapes: T.Array(T.Object({ url: T.String(), html: T.String() }), {
          description: "scrape actions: the page's URL and HTML at that moment, in order",
        }),
        javascriptReturns: T.Array(
          T.Object({
            type: T.String({ description: 'The value\'s typeof in the page (null: "null")' }),
            value: T.Unsafe<unknown>({
              anyOf: ["string", "number", "boolean", "object", "array", "null"].map((type) => ({ type })),
              description: "What the script returned, as JSON (undefined: null)",
            }),
          }),
          {
            description: "executeJavascript actions: each script's return value and its typeof, in order",
          },
        ),
        pdfs: T.Array(T.String(), { description: "pdf actions: base64 PDFs of the page, in order" }),
      },
      { description: "What the actions made, when any made something" },
    ),
  ),
});
export type FetchResult = Static<typeof FetchResult>;
