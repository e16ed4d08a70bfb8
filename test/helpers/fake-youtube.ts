/**
 * A fake YouTube on 127.0.0.1 speaking the two parts of YouTube's wire format siphon uses
 * (DECISIONS.md): the InnerTube player API (`POST /youtubei/v1/player`, the player response
 * a watch page embeds as ytInitialPlayerResponse: videoDetails, microformat,
 * captions.playerCaptionsTracklistRenderer.captionTracks) and timedtext caption files
 * (`GET /api/timedtext`: the default XML `<transcript><text start dur>` or, with
 * `&fmt=json3`, `events[] {tStartMs, dDurationMs, segs[{utf8}]}`), in shapes recorded from
 * the real service. Caption track URLs point back at this server, as YouTube's point at
 * www.youtube.com. Every request is recorded.
 *
 * Videos (VIDEOS) cover: uploaded and automatic captions in several languages with chapters in
 * the description; automatic captions only; a caption server that answers XML whatever fmt
 * says; no captions; a removed video; YouTube's bot check; its rate limit; WEB caption files
 * that come back empty without a proof-of-origin token (the ANDROID client's do not); and a
 * track listed on another host.
 */

export interface FakeTrack {
  lang: string;
  name: string;
  automatic?: boolean;
  /** [start seconds, duration seconds, text as said] */
  cues: [number, number, string][];
}

export interface FakeVideo {
  id: string;
  title: string;
  author: string;
  lengthSeconds: number;
  description: string;
  publishDate: string;
  tracks: FakeTrack[];
  playability?: { status: string; reason: string };
  /** xml: timedtext ignores fmt; potToken: WEB caption URLs need a token; foreign: tracks on `foreignOrigin`; ratelimit: HTTP 429. */
  quirk?: "xml" | "potToken" | "foreign" | "ratelimit";
}

const MILLS_DESCRIPTION = `How a tide mill turns the sea into flour, filmed at the Eling tide mill.

0:00 Introduction
0:45 Filling the mill pond
2:10 - The undershot wheel
4:05 | Grinding & dressing the flour
6:30 Questions from visitors

Music: "Slack Water" by The Millers. Filmed on 3 May.`;

/** The videos the fake knows, by purpose. */
export const VIDEOS = {
  /** Uploaded en and de, automatic en and fr, pt-BR uploaded; chapters in the description. */
  mills: {
    id: "tIdEmiLL_01",
    title: "How tide mills work",
    author: "Mill Heritage Trust",
    lengthSeconds: 452,
    description: MILLS_DESCRIPTION,
    publishDate: "2024-05-03T08:00:11-07:00",
    tracks: [
      {
        lang: "en",
        name: "English",
        cues: [
          [0.32, 3.1, "Welcome to the Eling tide mill."],
          [3.42, 4.2, "At high tide the sea fills\nthe mill pond behind us."],
          [46, 5.5, "The gates close as the tide turns & the water is held."],
          [131.2, 6, "Then it runs out under the wheel: it's an undershot wheel."],
          [246.5, 4.4, "The stones grind the grain <i>slowly</i>."],
          [391, 3, "Any questions?"],
        ],
      },
      {
        lang: "en",
        name: "English (auto-generated)",
        automatic: true,
        cues: [
          [0.3, 3.2, "welcome to the eling tide mill"],
          [3.5, 4.1, "at high tide the sea fills the mill pond behind us"],
        ],
      },
      {
        lang: "de",
        name: "German",
        cues: [
          [0.32, 3.1, "Willkommen in der Gezeitenmühle Eling."],
          [3.42, 4.2, "Bei Flut füllt das Meer den Mühlteich."],
        ],
      },
      {
        lang: "fr",
        name: "French (auto-generated)",
        automatic: true,
        cues: [[0.4, 3, "bienvenue au moulin à marée"]],
      },
      {
        lang: "pt-BR",
        name: "Portuguese (Brazil)",
        cues: [[0.32, 3.1, "Bem-vindo ao moinho de maré de Eling."]],
      },
    ],
  },
  /** Only YouTube's automatic captions, in Spanish; no chapters (timestamps not from 0:00). */
  automatic: {
    id: "aUt0-0nly_2",
    title: "Molinos de marea",
    author: "Canal Molinero",
    lengthSeconds: 95,
    description: "Visita al molino.\n1:10 la rueda\n1:20 la harina\n1:30 fin",
    publishDate: "2023-11-20T02:15:00-08:00",
    tracks: [
      {
        lang: "es",
        name: "Spanish (auto-generated)",
        automatic: true,
        cues: [
          [1.04, 2.5, "hola a todos"],
          [3.6, 3, "hoy visitamos el molino"],
        ],
      },
    ],
  },
  /** A caption server that answers the default XML whatever fmt asks, with YouTube's double escaping. */
  xml: {
    id: "xmLcapti0n3",
    title: "Dressing millstones",
    author: "Stone & Grain",
    lengthSeconds: 61,
    description: "No chapters here.",
    publishDate: "2022-02-01T00:00:00-08:00",
    tracks: [
      {
        lang: "en-GB",
        name: "English (United Kingdom)",
        cues: [
          [0, 2.5, "Millers' furrows aren't decoration."],
          [2.5, 3.25, 'They "cut" the grain & cool the flour.'],
        ],
      },
      { lang: "ja", name: "Japanese", cues: [[0, 2.5, "石臼の目立て"]] },
    ],
    quirk: "xml",
  },
  /** Playable, but without a single caption track. */
  silent: {
    id: "n0-capti0ns",
    title: "Mill wheel, ambient sound",
    author: "Quiet Places",
    lengthSeconds: 600,
    description: "Ten minutes of water.",
    publishDate: "2021-07-07T00:00:00-07:00",
    tracks: [],
  },
  /** Removed: the player API says ERROR. */
  removed: {
    id: "rem0ved_vid",
    title: "",
    author: "",
    lengthSeconds: 0,
    description: "",
    publishDate: "",
    tracks: [],
    playability: { status: "ERROR", reason: "This video has been removed by the uploader" },
  },
  /** YouTube's bot check on the player API. */
  botCheck: {
    id: "b0tCheck_06",
    title: "",
    author: "",
    lengthSeconds: 0,
    description: "",
    publishDate: "",
    tracks: [],
    playability: { status: "LOGIN_REQUIRED", reason: "Sign in to confirm you’re not a bot" },
  },
  /** The player API answers HTTP 429. */
  rateLimited: {
    id: "rAteL1mit07",
    title: "",
    author: "",
    lengthSeconds: 0,
    description: "",
    publishDate: "",
    tracks: [],
    quirk: "ratelimit",
  },
  /** WEB caption URLs carry exp=xpe and answer empty without a pot token; ANDROID's do not. */
  potToken: {
    id: "p0tT0ken_08",
    title: "Sluice gates explained",
    author: "Mill Heritage Trust",
    lengthSeconds: 120,
    description: "Gates, sluices and the pond.",
    publishDate: "2025-01-15T09:30:00-08:00",
    tracks: [{ lang: "en", name: "English", cues: [[0.5, 2, "The sluice gate holds the pond."]] }],
    quirk: "potToken",
  },
  /** A track whose caption file is on another host (the fake's second port). */
  foreign: {
    id: "f0reignTr09",
    title: "Elsewhere",
    author: "Somewhere",
    lengthSeconds: 30,
    description: "",
    publishDate: "2020-01-01T00:00:00-08:00",
    tracks: [{ lang: "en", name: "English", cues: [[0, 1, "From another host."]] }],
    quirk: "foreign",
  },
} satisfies Record<string, FakeVideo>;

export interface YoutubeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  /** The InnerTube client a player request named (WEB, ANDROID). */
  client?: string;
  videoId?: string;
  userAgent: string | null;
}

export interface FakeYoutube {
  /** The base URL to configure (SIPHON_YOUTUBE_URL). */
  url: string;
  /** The other host foreign tracks point at. */
  foreignOrigin: string;
  requests: YoutubeRequest[];
  /** Requests to one path. */
  of(path: string): YoutubeRequest[];
  clear(): void;
  stop(): Promise<void>;
}

/** YouTube escapes caption text as HTML, then writes it into XML: an apostrophe is "&amp;#39;". */
function doubleEscape(text: string): string {
  const html = text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
  return html.replaceAll("&", "&amp;");
}

function transcriptXml(track: FakeTrack): string {
  const texts = track.cues.map(
    ([start, dur, text]) => `<text start="${start}" dur="${dur}">${doubleEscape(text)}</text>`,
  );
  return `<?xml version="1.0" encoding="utf-8" ?><transcript>${texts.join("")}</transcript>`;
}

/** json3 as YouTube writes it: a window event first, then one event per cue (automatic ones split into words). */
function json3(track: FakeTrack): string {
  const events: unknown[] = [
    {
      tStartMs: 0,
      dDurationMs: (track.cues.at(-1)?.[0] ?? 0) * 1000 + 5000,
      id: 1,
      wpWinPosId: 1,
      wsWinStyleId: 1,
    },
  ];
  for (const [start, dur, text] of track.cues) {
    const tStartMs = Math.round(start * 1000);
    const dDurationMs = Math.round(dur * 1000);
    if (track.automatic) {
      const words = text.split(" ");
      events.push({
        tStartMs,
        dDurationMs,
        wWinId: 1,
        segs: words.map((word, i) =>
          i === 0 ? { utf8: word, acAsrConf: 0 } : { utf8: ` ${word}`, tOffsetMs: i * 240, acAsrConf: 0 },
        ),
      });
      events.push({
        tStartMs: tStartMs + dDurationMs,
        dDurationMs: 10,
        wWinId: 1,
        aAppend: 1,
        segs: [{ utf8: "\n" }],
      });
    } else {
      events.push({ tStartMs, dDurationMs, segs: [{ utf8: text }] });
    }
  }
  return JSON.stringify({ wireMagic: "pb3", pens: [{}], wsWinStyles: [{}], wpWinPositions: [{}], events });
}

const byId = new Map<string, FakeVideo>(Object.values(VIDEOS).map((v) => [v.id, v]));

function captionTrackUrl(origin: string, video: FakeVideo, track: FakeTrack, client: string): string {
  const params = new URLSearchParams({
    v: video.id,
    ei: "y2ZyZ7mWJ5y7vdIP2b6YqAk",
    caps: "asr",
    opi: "112496729",
    xoaf: "5",
    hl: "en",
    ip: "0.0.0.0",
    ipbits: "0",
    expire: "1767225600",
    sparams: "ip,ipbits,expire,v,ei,caps,opi,xoaf",
    signature: "3A1C0F5E2B7D9A8C6E4F1B3D5A7C9E0F2B4D6A8C.1E3F5A7B9C0D2E4F6A8B0C1D3E5F7A9B1C3D5E7F",
    key: "yt8",
  });
  if (track.automatic) params.set("kind", "asr");
  params.set("lang", track.lang);
  if (video.quirk === "potToken" && client === "WEB") params.set("exp", "xpe");
  return `${origin}/api/timedtext?${params}`;
}

/** The player response, as the InnerTube API answers for `client` (ANDROID has no microformat). */
function playerResponse(origin: string, foreignOrigin: string, video: FakeVideo, client: string): unknown {
  if (video.playability && video.playability.status !== "OK") {
    return {
      responseContext: { visitorData: "CgtHb2xkZW5NaWxsKICAgIAG" },
      playabilityStatus: {
        ...video.playability,
        errorScreen: { playerErrorMessageRenderer: { reason: { simpleText: video.playability.reason } } },
      },
    };
  }
  const response: Record<string, unknown> = {
    responseContext: { visitorData: "CgtHb2xkZW5NaWxsKICAgIAG" },
    playabilityStatus: { status: "OK", playableInEmbed: true, contextParams: "Q0FFU0FnZ0I=" },
    videoDetails: {
      videoId: video.id,
      title: video.title,
      lengthSeconds: String(video.lengthSeconds),
      keywords: ["tide mill"],
      channelId: "UCm1llHer1tageTrust0000",
      isOwnerViewing: false,
      shortDescription: video.description,
      isCrawlable: true,
      thumbnail: {
        thumbnails: [{ url: `https://i.ytimg.com/vi/${video.id}/hqdefault.jpg`, width: 480, height: 360 }],
      },
      allowRatings: true,
      viewCount: "48213",
      author: video.author,
      isPrivate: false,
      isUnpluggedCorpus: false,
      isLiveContent: false,
    },
  };
  if (video.tracks.length) {
    const origin_ = video.quirk === "foreign" ? foreignOrigin : origin;
    response.captions = {
      playerCaptionsTracklistRenderer: {
        captionTracks: video.tracks.map((track) => ({
          baseUrl: captionTrackUrl(origin_, video, track, client),
          // WEB names a track in runs, ANDROID in simpleText.
          name: client === "WEB" ? { runs: [{ text: track.name }] } : { simpleText: track.name },
          vssId: `${track.automatic ? "a" : ""}.${track.lang}`,
          languageCode: track.lang,
          ...(track.automatic ? { kind: "asr" } : {}),
          isTranslatable: true,
          trackName: "",
        })),
        audioTracks: [
          {
            captionTrackIndices: video.tracks.map((_, i) => i),
            defaultCaptionTrackIndex: 0,
            visibility: "UNKNOWN",
            hasDefaultTrack: true,
            captionsInitialState: "CAPTIONS_INITIAL_STATE_OFF_RECOMMENDED",
          },
        ],
        translationLanguages: [{ languageCode: "af", languageName: { simpleText: "Afrikaans" } }],
        defaultAudioTrackIndex: 0,
      },
    };
  }
  if (client === "WEB") {
    response.microformat = {
      playerMicroformatRenderer: {
        thumbnail: {
          thumbnails: [
            { url: `https://i.ytimg.com/vi/${video.id}/maxresdefault.jpg`, width: 1280, height: 720 },
          ],
        },
        embed: { iframeUrl: `https://www.youtube.com/embed/${video.id}`, width: 1280, height: 720 },
        title: { simpleText: video.title },
        description: { simpleText: video.description },
        lengthSeconds: String(video.lengthSeconds),
        ownerProfileUrl: "http://www.youtube.com/@millheritage",
        externalChannelId: "UCm1llHer1tageTrust0000",
        isFamilySafe: true,
        availableCountries: ["GB", "US"],
        isUnlisted: false,
        hasYpcMetadata: false,
        viewCount: "48213",
        category: "Education",
        publishDate: video.publishDate,
        ownerChannelName: video.author,
        uploadDate: video.publishDate,
        isShortsEligible: false,
      },
    };
  }
  return response;
}

function captionFile(url: URL, requireToken: boolean): Response {
  const video = byId.get(url.searchParams.get("v") ?? "");
  const automatic = url.searchParams.get("kind") === "asr";
  const track = video?.tracks.find(
    (t) => t.lang === url.searchParams.get("lang") && !!t.automatic === automatic,
  );
  if (!video || !track) return new Response("", { status: 404 });
  // YouTube answers 200 with nothing when a caption URL that needs a token comes without one.
  if (requireToken && url.searchParams.get("exp") === "xpe" && !url.searchParams.get("pot")) {
    return new Response("", { headers: { "content-type": "text/html; charset=UTF-8" } });
  }
  if (url.searchParams.get("fmt") === "json3" && video.quirk !== "xml") {
    return new Response(json3(track), { headers: { "content-type": "application/json; charset=UTF-8" } });
  }
  return new Response(transcriptXml(track), { headers: { "content-type": "text/xml; charset=UTF-8" } });
}

/** Starts the fake YouTube (and the foreign caption host) on loopback ports. */
export function startFakeYoutube(): FakeYoutube {
  const requests: YoutubeRequest[] = [];
  const record = async (request: Request, url: URL) => {
    const entry: YoutubeRequest = {
      method: request.method,
      path: url.pathname,
      params: Object.fromEntries(url.searchParams),
      userAgent: request.headers.get("user-agent"),
    };
    if (request.method === "POST") {
      try {
        const body = (await request.json()) as {
          videoId?: string;
          context?: { client?: { clientName?: string } };
        };
        entry.videoId = body.videoId;
        entry.client = body.context?.client?.clientName;
      } catch {
        // A body that is not JSON is recorded without its fields.
      }
    }
    requests.push(entry);
    return entry;
  };
  const foreign = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      await record(request, url);
      return captionFile(url, false);
    },
  });
  const foreignOrigin = `http://127.0.0.1:${foreign.port}`;
  let origin = "";
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request): Promise<Response> {
      const url = new URL(request.url);
      const entry = await record(request, url);
      if (url.pathname === "/youtubei/v1/player" && request.method === "POST") {
        const video = byId.get(entry.videoId ?? "");
        if (video?.quirk === "ratelimit") {
          return new Response("<html><body>Our systems have detected unusual traffic</body></html>", {
            status: 429,
            headers: { "content-type": "text/html" },
          });
        }
        if (!video) {
          return Response.json({
            playabilityStatus: { status: "ERROR", reason: "Video unavailable" },
          });
        }
        return Response.json(playerResponse(origin, foreignOrigin, video, entry.client ?? "WEB"));
      }
      if (url.pathname === "/api/timedtext" && request.method === "GET") return captionFile(url, true);
      return new Response("Not Found", { status: 404 });
    },
  });
  origin = `http://127.0.0.1:${server.port}`;
  return {
    url: origin,
    foreignOrigin,
    requests,
    of: (path) => requests.filter((r) => r.path === path),
    clear() {
      requests.length = 0;
    },
    async stop() {
      await server.stop(true);
      await foreign.stop(true);
    },
  };
}
