import { SiphonError } from "../errors.ts";
import type { YoutubeInput, YoutubeResponse } from "../schemas/youtube.ts";
import { joinSegments, parseCaptions, type Segment } from "./captions.ts";
import { chaptersFrom } from "./chapters.ts";
import { type PlayerInfo, readCaptionFile, readPlayer, type YoutubeDeps } from "./client.ts";
import { type CaptionTrack, chooseTrack, languagesOf } from "./tracks.ts";
import { parseVideoUrl, watchUrl } from "./url.ts";

export type { YoutubeDeps } from "./client.ts";

/** Why a video without a player response cannot be read, as the error siphon answers with. */
function unplayable(videoId: string, player: PlayerInfo): SiphonError {
  const said = player.reason ? `: ${player.reason}` : "";
  if (player.playability === "LOGIN_REQUIRED" && /\bbot\b/i.test(player.reason ?? "")) {
    return new SiphonError("blocked", `YouTube asked siphon to prove it is not a bot${said}`, {
      hint: "YouTube checks addresses that ask for many videos; try again later or from another address.",
    });
  }
  return new SiphonError("not_found", `Video ${videoId} cannot be read (${player.playability})${said}`, {
    hint: "Only public videos have transcripts siphon can read; check the URL.",
  });
}

/** The cues of a track's caption file. */
async function segmentsOf(track: CaptionTrack, deps: YoutubeDeps): Promise<Segment[]> {
  return parseCaptions(await readCaptionFile(track, deps));
}

/**
 * A YouTube video's transcript and metadata: the player response (InnerTube, as the WEB
 * client) gives the title, channel, duration, publish date, description (chapters come from
 * it) and caption tracks; the track in the requested language, else the best available
 * (uploaded captions over automatic ones), is downloaded and parsed. When YouTube sends the WEB
 * client's caption file empty (it wants a proof-of-origin token), the same language's track is
 * read as the ANDROID client, as transcript libraries do.
 *
 * @throws SiphonError invalid_request (not a video URL), not_found (no such video, or no
 *   captions: never an empty success), blocked (YouTube refuses siphon), network_error, timeout
 */
export async function youtube(input: YoutubeInput, deps: YoutubeDeps): Promise<YoutubeResponse> {
  const videoId = parseVideoUrl(input.url);
  const player = await readPlayer(videoId, "WEB", deps);
  if (player.tracks.length === 0 && player.playability !== "OK") throw unplayable(videoId, player);
  const track = chooseTrack(player.tracks, input.language);
  if (!track) {
    throw new SiphonError("not_found", `Video ${videoId} has no captions, uploaded or automatic`, {
      hint: "YouTube has no transcript of this video to give; its owner may have turned captions off.",
    });
  }
  let chosen = track;
  let segments = await segmentsOf(track, deps);
  if (segments.length === 0) {
    const android = await readPlayer(videoId, "ANDROID", deps);
    const again = android.tracks.find(
      (t) => t.languageCode === track.languageCode && t.automatic === track.automatic,
    );
    if (again) {
      chosen = again;
      segments = await segmentsOf(again, deps);
    }
  }
  if (segments.length === 0) {
    throw new SiphonError(
      "not_found",
      `YouTube sent an empty caption file for video ${videoId} (${track.languageCode})`,
      { hint: "Try again later, or another language with language=." },
    );
  }
  return {
    success: true,
    videoId,
    url: watchUrl(videoId),
    title: player.title,
    channel: player.channel,
    duration: player.duration,
    publishDate: player.publishDate,
    description: player.description,
    chapters: chaptersFrom(player.description, player.duration),
    language: chosen.languageCode,
    automatic: chosen.automatic,
    availableLanguages: languagesOf(player.tracks),
    fullText: joinSegments(segments),
    segments,
  };
}
