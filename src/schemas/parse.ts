import { type Static, Type as T } from "@sinclair/typebox";
import { FetchBody } from "./fetch.ts";

/** What reading a given document takes from a fetch: how its content is extracted and what is made of it. */
export const PARSE_OPTIONS = [
  "format",
  "formats",
  "onlyMainContent",
  "includeTags",
  "excludeTags",
  "images",
  "extract",
  "llmProvider",
  "llmApiKey",
  "llmModel",
  "llmApiBase",
  "timeout",
] as const;

const DocumentFields = T.Object({
  filename: T.String({
    minLength: 1,
    maxLength: 255,
    description: 'The file\'s name ("report.pdf"): its extension tells its type when contentType does not',
  }),
  contentType: T.Optional(
    T.String({
      maxLength: 200,
      description: "Its media type (text/html, application/pdf, …); default: by extension, else sniffed",
    }),
  ),
  url: T.Optional(
    T.String({
      maxLength: 2048,
      description:
        "An http(s) URL the document came from: names it in the result and resolves its relative links (never fetched)",
    }),
  ),
});

/** POST /v1/parse's options: the document's name and type, and the fetch options that apply to it. */
export const ParseOptions = T.Composite([DocumentFields, T.Pick(FetchBody, [...PARSE_OPTIONS])], {
  additionalProperties: false,
});
export type ParseOptions = Static<typeof ParseOptions>;

/** POST /v1/parse as JSON: the options and the file's bytes in base64. */
export const ParseBody = T.Composite(
  [
    ParseOptions,
    T.Object({
      data: T.String({ minLength: 1, description: "The file's bytes, base64-encoded" }),
    }),
  ],
  { additionalProperties: false },
);
export type ParseBody = Static<typeof ParseBody>;
