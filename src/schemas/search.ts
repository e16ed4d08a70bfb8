import { type Static, Type as T } from "@sinclair/typebox";
import { inputFromQuery, StringEnum } from "./common.ts";

export const SEARCH_PROVIDERS = ["duckduckgo", "brave", "searxng"] as const;
export type SearchProviderName = (typeof SEARCH_PROVIDERS)[number];

export const SEARCH_SOURCES = ["web", "news", "images"] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

export const SEARCH_CATEGORIES = ["github", "pdf", "docs", "blog", "news", "video", "social"] as const;
export type SearchCategory = (typeof SEARCH_CATEGORIES)[number];

export const MAX_QUERY_CHARS = 500;

/** A key as HTTP can carry it in a header: printable ASCII, no spaces. */
const KEY_PATTERN = "^[\\x21-\\x7E]+$";
/** A place name: no control characters. */
const LOCATION_PATTERN = "^[^\\x00-\\x1F\\x7F]+$";
const COUNTRY_PATTERN = "^[A-Za-z]{2}-[A-Za-z]{2}$";

const Provider = StringEnum([...SEARCH_PROVIDERS], {
  description: "Search provider: duckduckgo (no key), brave (needs a key) or searxng (SIPHON_SEARXNG_URL)",
});

/**
 * The one request model of a search: GET /v1/search's query after
 * `searchInputFromQuery` (plus the x-search-api-key header) and the CLI's
 * flags both end up here.
 */
export const SearchBody = T.Object(
  {
    q: T.String({
      minLength: 1,
      maxLength: MAX_QUERY_CHARS,
      description: `Search query, at most ${MAX_QUERY_CHARS} characters`,
    }),
    provider: T.Optional(Provider),
    searchApiKey: T.Optional(
      T.String({
        maxLength: 512,
        pattern: KEY_PATTERN,
        description: "Key for brave (or header x-search-api-key); else the operator's SIPHON_BRAVE_API_KEY",
      }),
    ),
    count: T.Integer({ minimum: 1, maximum: 10, default: 5, description: "Results per source, 1 to 10" }),
    scrapeResults: T.Boolean({
      default: false,
      description: "Fetch every web result (markdown, main content) and add it as `content`",
    }),
    sources: T.Array(StringEnum([...SEARCH_SOURCES]), {
      minItems: 1,
      maxItems: 3,
      default: ["web"],
      description: "Any of web, news, images",
    }),
    categories: T.Optional(
      T.Array(StringEnum([...SEARCH_CATEGORIES]), {
        maxItems: SEARCH_CATEGORIES.length,
        description:
          "Restrict web results to github, pdf, docs, blog, news, video or social (query operators or SearXNG categories; see docs/search-and-answers.md)",
      }),
    ),
    includeDomains: T.Optional(
      T.Array(T.String({ minLength: 1, maxLength: 253 }), {
        maxItems: 20,
        description:
          "Only results on these sites (subdomains included): the engine's site: operator where it has one, and filtered after on every engine",
      }),
    ),
    excludeDomains: T.Optional(
      T.Array(T.String({ minLength: 1, maxLength: 253 }), {
        maxItems: 20,
        description:
          "No results on these sites (subdomains included): -site: where the engine has it, and filtered after",
      }),
    ),
    tbs: T.Optional(
      StringEnum(["qdr:d", "qdr:w", "qdr:m", "qdr:y"], {
        description: "Time filter: past day, week, month or year",
      }),
    ),
    country: T.Optional(
      T.String({
        pattern: COUNTRY_PATTERN,
        description: "Region as country-language, DuckDuckGo style (us-en, de-de, uk-en, fr-fr)",
      }),
    ),
    location: T.Optional(
      T.String({
        minLength: 1,
        maxLength: 200,
        pattern: LOCATION_PATTERN,
        description: 'A place ending with its country: "Germany", "Berlin, Germany", "Austin, Texas, US"',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SearchInput = Static<typeof SearchBody>;

/** GET /v1/search query parameters, as strings on the wire (documented for OpenAPI). */
export const SearchQuery = T.Object({
  q: T.String({
    minLength: 1,
    maxLength: MAX_QUERY_CHARS,
    description: `Search query, at most ${MAX_QUERY_CHARS} characters`,
  }),
  provider: T.Optional(T.String({ description: "duckduckgo (default), brave or searxng" })),
  searchApiKey: T.Optional(
    T.String({
      maxLength: 512,
      pattern: KEY_PATTERN,
      description: "Key for brave; the header x-search-api-key is the better place (URLs get logged)",
    }),
  ),
  count: T.Optional(T.String({ description: "Results per source, 1 to 10 (default 5)" })),
  scrapeResults: T.Optional(T.String({ description: "true: fetch each web result and add its content" })),
  sources: T.Optional(T.String({ description: "Comma-separated: web (default), news, images" })),
  categories: T.Optional(
    T.String({ description: "Comma-separated: github, pdf, docs, blog, news, video, social" }),
  ),
  includeDomains: T.Optional(T.String({ description: "Comma-separated sites to keep results to" })),
  excludeDomains: T.Optional(T.String({ description: "Comma-separated sites to keep results away from" })),
  tbs: T.Optional(T.String({ description: "qdr:d, qdr:w, qdr:m or qdr:y" })),
  country: T.Optional(T.String({ description: "Region code xx-yy, e.g. us-en, de-de" })),
  location: T.Optional(
    T.String({
      maxLength: 200,
      pattern: LOCATION_PATTERN,
      description: 'A place ending with its country, e.g. "Berlin, Germany"',
    }),
  ),
});

/** Converts GET query strings to the SearchBody shape; see inputFromQuery. */
export function searchInputFromQuery(query: Record<string, unknown>): Record<string, unknown> {
  return inputFromQuery(query, {
    lists: ["sources", "categories", "includeDomains", "excludeDomains"],
    booleans: ["scrapeResults"],
    numbers: ["count"],
  });
}

const ItemError = T.Object(
  { type: T.String(), message: T.String() },
  { description: "Why this result's page could not be fetched" },
);

export const WebResult = T.Object({
  title: T.String(),
  url: T.String(),
  snippet: T.String(),
  content: T.Optional(
    T.Union([T.String(), T.Null()], {
      description: "With scrapeResults: the page as markdown (main content); null when it failed",
    }),
  ),
  error: T.Optional(ItemError),
});
export type WebResult = Static<typeof WebResult>;

export const NewsResult = T.Object({
  title: T.String(),
  url: T.String(),
  snippet: T.String(),
  date: T.Union([T.String(), T.Null()], { description: "Publication date (ISO 8601 when known) or age" }),
  source: T.Union([T.String(), T.Null()], { description: "Publisher's host name" }),
});
export type NewsResult = Static<typeof NewsResult>;

export const ImageResult = T.Object({
  title: T.String(),
  url: T.String({ description: "The page the image is on" }),
  imageUrl: T.String({ description: "The image itself" }),
  width: T.Union([T.Integer(), T.Null()]),
  height: T.Union([T.Integer(), T.Null()]),
});
export type ImageResult = Static<typeof ImageResult>;

/** The Search response (SPEC). */
export const SearchResponse = T.Object({
  success: T.Literal(true),
  data: T.Object({
    web: T.Array(WebResult, { description: "Web results; empty when sources leaves web out" }),
    news: T.Optional(T.Array(NewsResult, { description: "Only when sources includes news" })),
    images: T.Optional(T.Array(ImageResult, { description: "Only when sources includes images" })),
  }),
});
export type SearchResponse = Static<typeof SearchResponse>;
