import { type Static, Type as T } from "@sinclair/typebox";
import { MAX_URL_LENGTH } from "../fetch/url.ts";
import { ACCEPTED_FORMS } from "../youtube/url.ts";

/** What `siphon youtube --format` writes. */
export const YOUTUBE_FORMATS = ["txt", "srt", "vtt", "md", "json"] as const;
export type YoutubeFormat = (typeof YOUTUBE_FORMATS)[number];

const LANGUAGE_PATTERN = "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$";

const url = T.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description: `The video: ${ACCEPTED_FORMS.join(", ")}, or its 11-character id`,
});
const language = T.String({
  maxLength: 35,
  pattern: LANGUAGE_PATTERN,
  description:
    "Caption language as a BCP 47 code (en, de, pt-BR); default and fallback: the best available, uploaded captions over automatic ones",
});

/**
 * The one request model of a transcript: GET /v1/youtube's query and `siphon youtube`'s flags
 * (url, --lang) both end up here.
 */
export const YoutubeBody = T.Object({ url, language: T.Optional(language) }, { additionalProperties: false });
export type YoutubeInput = Static<typeof YoutubeBody>;

/** GET /v1/youtube's query parameters, as documented in OpenAPI (the same fields, all strings). */
export const YoutubeQuery = YoutubeBody;

export const YoutubeChapter = T.Object({
  title: T.String(),
  start: T.Number({ minimum: 0, description: "Seconds from the start" }),
});

export const YoutubeSegment = T.Object({
  text: T.String({ description: "The caption's text, line breaks made spaces" }),
  start: T.Number({ minimum: 0, description: "Seconds from the start, to the millisecond" }),
  duration: T.Number({ minimum: 0, description: "Seconds shown" }),
});

/** GET /v1/youtube's answer and `siphon youtube --format json`. */
export const YoutubeResponse = T.Object({
  success: T.Literal(true),
  videoId: T.String({ description: "The 11-character video id" }),
  url: T.String({ description: "The video's watch URL" }),
  title: T.String(),
  channel: T.String({ description: "The channel's name" }),
  duration: T.Integer({ minimum: 0, description: "Seconds; 0 for a live stream" }),
  publishDate: T.Union([T.String(), T.Null()], {
    description: "ISO 8601 as YouTube gives it; null when YouTube does not say",
  }),
  description: T.String({ description: "The video's description as written" }),
  chapters: T.Array(YoutubeChapter, {
    description:
      "From description lines starting with a timestamp (YouTube's rule: the first at 0:00, at least three, in order); empty when there are none",
  }),
  language: T.String({
    description: "Language of the transcript returned (the requested one when the video has it)",
  }),
  automatic: T.Boolean({ description: "true when the transcript is YouTube's automatic captions" }),
  availableLanguages: T.Array(T.String(), {
    description: "Every caption language the video has, uploaded or automatic, in YouTube's order",
  }),
  fullText: T.String({ description: "The segments' text joined by spaces" }),
  segments: T.Array(YoutubeSegment, { description: "The captions in time order" }),
});
export type YoutubeResponse = Static<typeof YoutubeResponse>;
