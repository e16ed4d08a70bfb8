import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { createHttpClient, type HttpClient } from "../fetch/http-client.ts";
import type { CaptionTrack } from "./tracks.ts";

/** What talking to YouTube needs. */
export interface YoutubeDeps {
  config: Config;
  signal?: AbortSignal;
}

/** InnerTube clients siphon asks as: WEB has the full metadata, ANDROID caption files that need no proof-of-origin token. */
export type PlayerClient = "WEB" | "ANDROID";

/** What siphon reads from a player response. */
export interface PlayerInfo {
  title: string;
  channel: string;
  /** Seconds; 0 for a live stream. */
  duration: number;
  description: string;
  /** As YouTube gives it (ISO 8601), or null when the response has no microformat (ANDROID). */
  publishDate: string | null;
  tracks: CaptionTrack[];
  /** playabilityStatus: OK, ERROR, LOGIN_REQUIRED, UNPLAYABLE, LIVE_STREAM_OFFLINE… */
  playability: string;
  /** YouTube's own words when the video cannot be played. */
  reason: string | null;
}

const SETTING_HINT = "Check SIPHON_YOUTUBE_URL and the network.";

/** Where YouTube sends its clients; each is mapped onto the configured base URL. */
const YOUTUBE_ORIGINS = new Set([
  "https://www.youtube.com",
  "https://youtube.com",
  "https://m.youtube.com",
  "https://youtubei.googleapis.com",
]);

/** The configured base URL, parsed; throws invalid_request when the setting is not an http(s) URL. */
function baseOf(config: Config): URL {
  const raw = config.youtubeUrl;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) {
    throw new SiphonError("invalid_request", `SIPHON_YOUTUBE_URL must be an http(s) URL, got "${raw}"`);
  }
  return new URL(raw);
}

/**
 * The guarded client of YouTube requests: the configured base URL is the operator's, so its
 * origin is exempt from the SSRF ranges (tests point it at loopback); caption files elsewhere
 * and every redirect go through the guard like any fetch.
 */
function clientOf(config: Config, base: URL): HttpClient {
  return createHttpClient({ config, trusted: [base.href], maxBodyBytes: config.maxBodyBytes });
}

/**
 * `url` on the configured base when it is one of YouTube's own addresses (or already the
 * base's), keeping its path and query below the base's path; null for any other host.
 */
export function onBase(url: URL, base: URL): URL | null {
  const prefix = base.pathname.replace(/\/+$/, "");
  if (url.origin === base.origin) {
    return prefix && !url.pathname.startsWith(`${prefix}/`)
      ? new URL(`${prefix}${url.pathname}${url.search}`, base)
      : url;
  }
  if (!YOUTUBE_ORIGINS.has(url.origin)) return null;
  return new URL(`${prefix}${url.pathname}${url.search}`, base);
}

/** The error an HTTP status from YouTube means, or null for a success. */
function statusError(status: number): SiphonError | null {
  if (status < 400) return null;
  if (status === 429) {
    return new SiphonError("blocked", "YouTube is rate-limiting siphon (HTTP 429)", {
      hint: "Wait a few minutes before asking for more transcripts.",
    });
  }
  return new SiphonError("network_error", `YouTube answered HTTP ${status}`, { hint: "Try again later." });
}

/**
 * Sends one request to YouTube through the guarded client within the fetch timeout.
 *
 * @throws SiphonError timeout (no answer in time, or the caller went away), forbidden_url (a
 *   redirect or caption host refused by the guard), network_error
 */
async function send(http: HttpClient, url: URL, init: RequestInit, deps: YoutubeDeps): Promise<Response> {
  const timeoutMs = deps.config.fetchTimeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
  try {
    return await http.fetch(url, { ...init, signal });
  } catch (error) {
    if (error instanceof SiphonError) throw error;
    if (deps.signal?.aborted) throw new SiphonError("timeout", "The request was cancelled");
    if (timeout.aborted) {
      throw new SiphonError("timeout", `YouTube did not answer within ${Math.round(timeoutMs / 1000)} s`, {
        hint: "Try again later.",
        cause: error,
      });
    }
    throw new SiphonError(
      "network_error",
      `Could not reach YouTube at ${url.origin}: ${(error as Error)?.message ?? String(error)}`,
      { hint: SETTING_HINT, cause: error },
    );
  }
}

type YoutubeiModule = typeof import("youtubei.js");
let loaded: Promise<YoutubeiModule> | undefined;

/** youtubei.js, loaded on first use (the CLI's other commands and the server's start never pay for it), silent. */
function loadYoutubei(): Promise<YoutubeiModule> {
  loaded ??= import("youtubei.js").then((module) => {
    // Its parser warns on stdout about response parts it does not know; stdout is the CLI's output.
    module.Log.setLevel(module.Log.Level.NONE);
    return module;
  });
  return loaded;
}

/** A caption track of youtubei.js's parsed player response, as siphon keeps it. */
function trackOf(raw: {
  base_url?: string;
  language_code?: string;
  kind?: string;
  name?: { toString(): string };
}): CaptionTrack | null {
  if (!raw.base_url || !raw.language_code) return null;
  return {
    baseUrl: raw.base_url,
    languageCode: raw.language_code,
    name: raw.name?.toString() || raw.language_code,
    automatic: raw.kind === "asr",
  };
}

/**
 * Asks YouTube's InnerTube player API (through youtubei.js, every request it makes sent to the
 * configured base URL) for a video's player response: metadata, playability and caption tracks.
 *
 * @throws SiphonError not_found (no such video), blocked (rate limit), network_error, timeout
 */
export async function readPlayer(
  videoId: string,
  client: PlayerClient,
  deps: YoutubeDeps,
): Promise<PlayerInfo> {
  const base = baseOf(deps.config);
  const http = clientOf(deps.config, base);
  const { Innertube } = await loadYoutubei();
  // youtubei.js reports failures in its own words; the first thing that went wrong on the wire
  // (unreachable, a status) is what siphon reports.
  let failure: SiphonError | undefined;
  const viaBase = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const target = onBase(new URL(request.url), base);
    if (!target) {
      failure = new SiphonError("internal_error", `youtubei.js asked for ${new URL(request.url).origin}`);
      throw failure;
    }
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.text();
    try {
      const response = await send(
        http,
        target,
        { method: request.method, headers: request.headers, body },
        deps,
      );
      failure ??= statusError(response.status) ?? undefined;
      return response;
    } catch (error) {
      failure ??= error as SiphonError;
      throw error;
    }
  };
  const youtube = await Innertube.create({
    // Nothing is fetched to start a session: no visitor data, no player script, no config.
    generate_session_locally: true,
    retrieve_player: false,
    retrieve_innertube_config: false,
    fetch: viaBase as typeof fetch,
  });
  let info: Awaited<ReturnType<typeof youtube.getBasicInfo>>;
  try {
    info = await youtube.getBasicInfo(videoId, { client });
  } catch (error) {
    if (failure) throw failure;
    const status = (error as { info?: { status?: unknown; reason?: unknown } })?.info;
    if (typeof status?.status === "string") {
      // youtubei.js throws for ERROR: the video does not exist or was removed.
      return {
        title: "",
        channel: "",
        duration: 0,
        description: "",
        publishDate: null,
        tracks: [],
        playability: status.status,
        reason: typeof status.reason === "string" ? status.reason : null,
      };
    }
    throw new SiphonError("network_error", "YouTube answered with something other than a player response", {
      hint: SETTING_HINT,
      cause: error,
    });
  }
  const details = info.basic_info;
  const microformat = (info.page[0] as { microformat?: { publish_date?: unknown } }).microformat;
  return {
    title: details.title ?? "",
    channel: details.author ?? details.channel?.name ?? "",
    duration: Number.isFinite(details.duration) ? Number(details.duration) : 0,
    description: details.short_description ?? "",
    publishDate: typeof microformat?.publish_date === "string" ? microformat.publish_date : null,
    tracks: (info.captions?.caption_tracks ?? []).map(trackOf).filter((t): t is CaptionTrack => t !== null),
    playability: info.playability_status?.status ?? "OK",
    reason: info.playability_status?.reason || null,
  };
}

/**
 * Downloads a track's caption file, asking for json3. A track on YouTube's own hosts is read
 * from the configured base URL; one anywhere else goes through the SSRF guard like any fetch.
 *
 * @throws SiphonError forbidden_url, blocked, network_error, timeout
 */
export async function readCaptionFile(track: CaptionTrack, deps: YoutubeDeps): Promise<string> {
  const base = baseOf(deps.config);
  const listed = new URL(track.baseUrl, "https://www.youtube.com");
  listed.searchParams.set("fmt", "json3");
  const headers = { "user-agent": deps.config.userAgent, "accept-language": track.languageCode };
  // YouTube's own hosts are read from the configured base; any other host is a plain guarded fetch.
  const target = onBase(listed, base) ?? listed;
  if (target.protocol !== "https:" && target.protocol !== "http:") {
    throw new SiphonError("network_error", `YouTube listed a caption file at a ${target.protocol} URL`);
  }
  const response = await send(clientOf(deps.config, base), target, { headers }, deps);
  const failed = statusError(response.status);
  if (failed) throw failed;
  return response.text();
}
