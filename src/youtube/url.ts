import { SiphonError } from "../errors.ts";
import { MAX_URL_LENGTH } from "../fetch/url.ts";

/** The forms of a video URL siphon reads, as error messages and the API reference list them. */
export const ACCEPTED_FORMS = [
  "https://www.youtube.com/watch?v=ID",
  "https://youtu.be/ID",
  "https://www.youtube.com/shorts/ID",
  "https://www.youtube.com/embed/ID",
  "https://www.youtube.com/live/ID",
] as const;

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/** Hosts that serve watch, shorts, embed and live pages (m. and music. are the same videos). */
const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "music.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);
/** Path prefixes whose next segment is the video id. */
const ID_PATHS = new Set(["shorts", "embed", "live", "v", "e"]);

function invalid(detail: string): SiphonError {
  return new SiphonError(
    "invalid_request",
    `url ${detail}; siphon reads YouTube video URLs of these forms: ${ACCEPTED_FORMS.join(", ")} (or the 11-character video id alone)`,
  );
}

/**
 * The 11-character id of the video a YouTube URL names: watch (v=), youtu.be, shorts, embed and
 * live URLs on youtube.com, m., music. and youtube-nocookie.com, or a bare id. Nothing is
 * fetched from the URL itself, so its host decides nothing beyond this check.
 *
 * @throws SiphonError invalid_request naming the accepted forms
 */
export function parseVideoUrl(raw: string): string {
  const value = raw.trim();
  if (value === "") throw invalid("is empty");
  if (VIDEO_ID.test(value)) return value;
  if (value.length > MAX_URL_LENGTH) throw invalid(`is longer than ${MAX_URL_LENGTH} characters`);
  // "youtube.com/watch?v=…" without a scheme is what people paste from an address bar.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  if (!URL.canParse(withScheme)) throw invalid("is not a URL");
  const url = new URL(withScheme);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalid("must be an http(s) URL");
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const segments = url.pathname.split("/").filter(Boolean);
  let id: string | null | undefined;
  if (host === "youtu.be") id = segments[0];
  else if (YOUTUBE_HOSTS.has(host)) {
    if (segments[0] === "watch") id = url.searchParams.get("v");
    else if (segments[0] && ID_PATHS.has(segments[0])) id = segments[1];
  } else {
    throw invalid(`is not on youtube.com or youtu.be (host ${host || "missing"})`);
  }
  if (!id) throw invalid("names no video");
  if (!VIDEO_ID.test(id)) throw invalid(`has "${id.slice(0, 40)}" where an 11-character video id belongs`);
  return id;
}

/** The canonical watch URL of a video, as the response's `url` gives it. */
export function watchUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${videoId}`;
}
