import { type Static, Type as T } from "@sinclair/typebox";
import { StringEnum } from "../../src/schemas/common.ts";
import { Headers, MAX_CACHE_AGE_MS } from "../../src/schemas/fetch.ts";
import { LlmFieldsOptional } from "../../src/schemas/llm.ts";
import { type BodyFields, offOnly } from "./http.ts";

const FormatEntry = T.Union([
  T.String({
    description:
      "A format name: markdown, html, rawHtml, links, images, screenshot, summary, branding, changeTracking",
  }),
  T.Object(
    { type: T.String({ description: "json, screenshot, changeTracking or any format name" }) },
    {
      additionalProperties: true,
      description:
        '{"type":"json","schema":{…},"prompt":"…"}, {"type":"screenshot","fullPage":true,"quality":80,"viewport":{"width":1280,"height":800}}, {"type":"changeTracking","modes":["git-diff"],"tag":"…"}',
    },
  ),
]);

const JsonSchema = T.Object({}, { additionalProperties: true, description: "A JSON Schema (object root)" });

const ExtractOptions = T.Object(
  {
    schema: T.Optional(JsonSchema),
    prompt: T.Optional(T.String({ minLength: 1, maxLength: 4000 })),
    systemPrompt: T.Optional(T.String({ maxLength: 4000, description: "Put before the prompt" })),
    checkPromptInjection: T.Optional(T.Boolean({ description: "Accepted and ignored" })),
  },
  { additionalProperties: false },
);

/** POST /v2/scrape (and /v1/scrape, which adds extract, jsonOptions and changeTrackingOptions). */
export const ScrapeBody = T.Object(
  {
    url: T.String({ description: "http(s) URL to scrape" }),
    formats: T.Optional(T.Array(FormatEntry, { maxItems: 20, description: 'Default ["markdown"]' })),
    onlyMainContent: T.Optional(T.Boolean({ description: "Default true" })),
    includeTags: T.Optional(T.Array(T.String(), { maxItems: 100 })),
    excludeTags: T.Optional(T.Array(T.String(), { maxItems: 100 })),
    headers: T.Optional(Headers),
    waitFor: T.Optional(
      T.Integer({ minimum: 0, maximum: 60_000, description: "ms to wait after load; renders the page" }),
    ),
    timeout: T.Optional(
      T.Integer({
        minimum: 1000,
        maximum: 300_000,
        description: "ms for the whole scrape (default 30000); past it: 408",
      }),
    ),
    mobile: T.Optional(
      T.Boolean({ description: "A mobile browser's User-Agent (and a phone viewport for screenshots)" }),
    ),
    actions: T.Optional(
      T.Array(T.Object({ type: T.String() }, { additionalProperties: true }), {
        maxItems: 50,
        description: "wait, click, write, press, scroll, screenshot (Firecrawl's); renders the page",
      }),
    ),
    location: T.Optional(
      T.Object(
        {
          country: T.Optional(T.String({ pattern: "^[A-Za-z]{2}$", description: "ISO 3166-1 alpha-2" })),
          languages: T.Optional(T.Array(T.String({ maxLength: 35 }), { maxItems: 20 })),
        },
        { additionalProperties: false },
      ),
    ),
    proxy: T.Optional(
      StringEnum(["basic", "stealth", "enhanced", "auto"], {
        description: "basic and auto: siphon's escalation; stealth and enhanced: the stealth browser",
      }),
    ),
    maxAge: T.Optional(
      T.Integer({
        minimum: 0,
        maximum: MAX_CACHE_AGE_MS,
        description: "Accept a cached page this old (ms); v2 default 2 days, v1 0",
      }),
    ),
    storeInCache: T.Optional(T.Boolean()),
    lockdown: T.Optional(
      T.Boolean({
        description: "Answer from the cache only (any age it keeps, unless maxAge is given); a miss is 404",
      }),
    ),
    minAge: T.Optional(
      T.Integer({
        minimum: 0,
        maximum: MAX_CACHE_AGE_MS,
        description: "Answer from a cached copy at least this old (ms) only; none is 404",
      }),
    ),
    zeroDataRetention: T.Optional(T.Boolean({ description: "No snapshot is kept for change tracking" })),
    fullPage: T.Optional(T.Boolean({ description: "Screenshot the whole page" })),
    width: T.Optional(T.Integer({ minimum: 100, maximum: 5000, description: "Screenshot viewport width" })),
    height: T.Optional(T.Integer({ minimum: 100, maximum: 5000, description: "Screenshot viewport height" })),
    screenshotFormat: T.Optional(StringEnum(["png", "jpeg"])),
    quality: T.Optional(
      T.Integer({ minimum: 1, maximum: 100, description: "JPEG quality of the screenshot" }),
    ),
    ...LlmFieldsOptional,
    extract: T.Optional(ExtractOptions),
    jsonOptions: T.Optional(ExtractOptions),
    changeTrackingOptions: T.Optional(
      T.Object(
        {
          modes: T.Optional(T.Array(StringEnum(["git-diff", "json"]), { maxItems: 2 })),
          tag: T.Optional(T.Union([T.String({ maxLength: 200 }), T.Null()])),
          schema: T.Optional(JsonSchema),
          prompt: T.Optional(T.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ScrapeBody = Static<typeof ScrapeBody>;

const v1Only = ["extract", "jsonOptions", "changeTrackingOptions"];

/**
 * Keys of a Firecrawl scrape body: what siphon maps, what changes nothing here and is dropped
 * (TLS verification is always on, base64 images and ads are always removed, PDFs always read,
 * audit metadata and tool listings have no meaning here), and what siphon lacks.
 */
export function scrapeFields(version: 1 | 2): BodyFields {
  const accepted = Object.keys(ScrapeBody.properties).filter((key) => version === 1 || !v1Only.includes(key));
  return {
    accepted,
    ignored: [
      "skipTlsVerification",
      "removeBase64Images",
      "blockAds",
      "fastMode",
      "parsers",
      "parsePDF",
      "auditMetadata",
      "toolDetail",
      "timezone",
    ],
    unsupported: {
      redactPII: offOnly,
      domainTools: offOnly,
      safeMode: offOnly,
      profile: (value) => value === undefined || value === null,
      threatProtection: (value) => value === undefined || value === null,
      useMock: (value) => value === undefined || value === null,
      agent: (value) => value === undefined || value === null,
    },
  };
}
