import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { YoutubeResponse } from "../../src/schemas/youtube.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeYoutube, startFakeYoutube, VIDEOS } from "../helpers/fake-youtube.ts";

let fake: FakeYoutube;
let app: TestApp;

beforeAll(async () => {
  fake = startFakeYoutube();
  app = await startTestApp({ youtubeUrl: fake.url, fetchTimeoutMs: 3000 });
});
afterAll(async () => {
  await app.close();
  await fake.stop();
});
beforeEach(() => fake.clear());

function get(params: Record<string, string>, on = app, headers: Record<string, string> = {}) {
  return on.request(`/v1/youtube?${new URLSearchParams(params)}`, { headers });
}

async function ok(params: Record<string, string>): Promise<YoutubeResponse> {
  const res = await get(params);
  const body = (await res.json()) as YoutubeResponse;
  expect({ status: res.status, valid: Value.Check(YoutubeResponse, body) }).toEqual({
    status: 200,
    valid: true,
  });
  return body;
}

const watch = (id: string) => `https://www.youtube.com/watch?v=${id}`;

describe("GET /v1/youtube", () => {
  test("a video with uploaded and automatic captions: metadata, chapters, uploaded English by default", async () => {
    const video = await ok({ url: watch(VIDEOS.mills.id) });
    expect(video).toEqual({
      success: true,
      videoId: "tIdEmiLL_01",
      url: "https://www.youtube.com/watch?v=tIdEmiLL_01",
      title: "How tide mills work",
      channel: "Mill Heritage Trust",
      duration: 452,
      publishDate: "2024-05-03T08:00:11-07:00",
      description: VIDEOS.mills.description,
      chapters: [
        { title: "Introduction", start: 0 },
        { title: "Filling the mill pond", start: 45 },
        { title: "The undershot wheel", start: 130 },
        { title: "Grinding & dressing the flour", start: 245 },
        { title: "Questions from visitors", start: 390 },
      ],
      language: "en",
      automatic: false,
      availableLanguages: ["en", "de", "fr", "pt-BR"],
      fullText:
        "Welcome to the Eling tide mill. At high tide the sea fills the mill pond behind us. The gates close " +
        "as the tide turns & the water is held. Then it runs out under the wheel: it's an undershot wheel. " +
        "The stones grind the grain slowly. Any questions?",
      segments: [
        { text: "Welcome to the Eling tide mill.", start: 0.32, duration: 3.1 },
        { text: "At high tide the sea fills the mill pond behind us.", start: 3.42, duration: 4.2 },
        { text: "The gates close as the tide turns & the water is held.", start: 46, duration: 5.5 },
        { text: "Then it runs out under the wheel: it's an undershot wheel.", start: 131.2, duration: 6 },
        { text: "The stones grind the grain slowly.", start: 246.5, duration: 4.4 },
        { text: "Any questions?", start: 391, duration: 3 },
      ],
    });
    // One player request as the WEB client, then the uploaded English track as json3.
    expect(fake.of("/youtubei/v1/player").map((r) => [r.client, r.videoId])).toEqual([
      ["WEB", VIDEOS.mills.id],
    ]);
    const caption = fake.of("/api/timedtext");
    expect(caption.map((r) => [r.params.lang, r.params.kind, r.params.fmt])).toEqual([
      ["en", undefined, "json3"],
    ]);
  });

  test("language picks that track: uploaded German, automatic French, a region's English, pt for pt-BR", async () => {
    const de = await ok({ url: watch(VIDEOS.mills.id), language: "de" });
    expect([de.language, de.automatic, de.fullText]).toEqual([
      "de",
      false,
      "Willkommen in der Gezeitenmühle Eling. Bei Flut füllt das Meer den Mühlteich.",
    ]);
    const fr = await ok({ url: watch(VIDEOS.mills.id), language: "fr" });
    expect([fr.language, fr.automatic, fr.segments]).toEqual([
      "fr",
      true,
      [{ text: "bienvenue au moulin à marée", start: 0.4, duration: 3 }],
    ]);
    const pt = await ok({ url: watch(VIDEOS.mills.id), language: "pt" });
    expect(pt.language).toBe("pt-BR");
    const gb = await ok({ url: watch(VIDEOS.xml.id), language: "en" });
    expect(gb.language).toBe("en-GB");
  });

  test("a language the video lacks: the best available, and language says which", async () => {
    const video = await ok({ url: watch(VIDEOS.mills.id), language: "ja" });
    expect([video.language, video.automatic, video.availableLanguages]).toEqual([
      "en",
      false,
      ["en", "de", "fr", "pt-BR"],
    ]);
  });

  test("automatic captions only: json3 word by word, joined; a timestamp list not from 0:00 is no chapters", async () => {
    const video = await ok({ url: `https://youtu.be/${VIDEOS.automatic.id}` });
    expect(video).toMatchObject({
      language: "es",
      automatic: true,
      availableLanguages: ["es"],
      chapters: [],
      fullText: "hola a todos hoy visitamos el molino",
      segments: [
        { text: "hola a todos", start: 1.04, duration: 2.5 },
        { text: "hoy visitamos el molino", start: 3.6, duration: 3 },
      ],
    });
  });

  test("a caption server answering XML whatever fmt asks: read, with YouTube's double escaping undone", async () => {
    const video = await ok({ url: watch(VIDEOS.xml.id) });
    expect(video.segments).toEqual([
      { text: "Millers' furrows aren't decoration.", start: 0, duration: 2.5 },
      { text: 'They "cut" the grain & cool the flour.', start: 2.5, duration: 3.25 },
    ]);
    expect((await ok({ url: watch(VIDEOS.xml.id), language: "ja" })).fullText).toBe("石臼の目立て");
  });

  test("watch, youtu.be, shorts, embed, live and m. URLs name the same video", async () => {
    const id = VIDEOS.automatic.id;
    for (const url of [
      `https://youtu.be/${id}?si=share`,
      `https://www.youtube.com/shorts/${id}`,
      `https://www.youtube.com/embed/${id}?start=3`,
      `https://www.youtube.com/live/${id}`,
      `https://m.youtube.com/watch?v=${id}&t=4s`,
    ]) {
      expect([url, (await ok({ url })).videoId]).toEqual([url, id]);
    }
  });

  test("WEB caption files that come back empty (proof-of-origin token) are read as the ANDROID client", async () => {
    const video = await ok({ url: watch(VIDEOS.potToken.id) });
    expect(video.fullText).toBe("The sluice gate holds the pond.");
    // Metadata still from the WEB answer (ANDROID's has no publish date).
    expect(video.publishDate).toBe("2025-01-15T09:30:00-08:00");
    expect(fake.of("/youtubei/v1/player").map((r) => r.client)).toEqual(["WEB", "ANDROID"]);
    expect(fake.of("/api/timedtext").map((r) => r.params.exp ?? "none")).toEqual(["xpe", "none"]);
  });

  test("bad URLs are a 400 invalid_request naming the accepted forms; nothing is asked of YouTube", async () => {
    for (const url of [
      "https://vimeo.com/12345",
      "https://www.youtube.com/@millheritage",
      "https://youtu.be/short",
      "not a url",
    ]) {
      const res = await get({ url });
      expect([url, res.status]).toEqual([url, 400]);
      const error = await errorOf(res);
      expect(error.type).toBe("invalid_request");
      expect(error.message).toContain("https://youtu.be/ID, https://www.youtube.com/shorts/ID");
    }
    const missing = await errorOf(await get({}));
    expect(missing.message).toBe("url is required");
    const language = await errorOf(await get({ url: watch(VIDEOS.mills.id), language: "english!" }));
    expect(language.message).toStartWith("language has an invalid format");
    expect(fake.requests).toEqual([]);
  });

  test("no captions, a removed video: 404 not_found with a message, never an empty success", async () => {
    const silent = await get({ url: watch(VIDEOS.silent.id) });
    expect(silent.status).toBe(404);
    expect(await errorOf(silent)).toMatchObject({
      type: "not_found",
      message: "Video n0-capti0ns has no captions, uploaded or automatic",
    });
    const removed = await get({ url: watch(VIDEOS.removed.id) });
    expect(removed.status).toBe(404);
    expect((await errorOf(removed)).message).toBe(
      "Video rem0ved_vid cannot be read (ERROR): This video has been removed by the uploader",
    );
  });

  test("YouTube refusing siphon (bot check, HTTP 429) is 403 blocked; YouTube unreachable is 502", async () => {
    const bot = await get({ url: watch(VIDEOS.botCheck.id) });
    expect(bot.status).toBe(403);
    expect(await errorOf(bot)).toMatchObject({
      type: "blocked",
      message: "YouTube asked siphon to prove it is not a bot: Sign in to confirm you’re not a bot",
    });
    const limited = await get({ url: watch(VIDEOS.rateLimited.id) });
    expect(limited.status).toBe(403);
    expect((await errorOf(limited)).message).toBe("YouTube is rate-limiting siphon (HTTP 429)");

    const down = await startTestApp({ youtubeUrl: "http://127.0.0.1:1", fetchTimeoutMs: 3000 });
    try {
      const res = await get({ url: watch(VIDEOS.mills.id) }, down);
      expect(res.status).toBe(502);
      const error = await errorOf(res);
      expect(error.type).toBe("network_error");
      expect(error.message).toStartWith("Could not reach YouTube at http://127.0.0.1:1");
    } finally {
      await down.close();
    }
  });

  test("the base URL is the operator's (exempt), but a caption file on another host meets the SSRF guard", async () => {
    const guarded = await startTestApp({ youtubeUrl: fake.url, disableSsrfProtection: false });
    try {
      // The configured base is loopback and still answers: operator configuration is trusted.
      expect((await get({ url: watch(VIDEOS.automatic.id) }, guarded)).status).toBe(200);
      const res = await get({ url: watch(VIDEOS.foreign.id) }, guarded);
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toMatchObject({ type: "forbidden_url" });
      expect(
        fake.requests.filter((r) => r.path === "/api/timedtext" && r.params.v === VIDEOS.foreign.id),
      ).toEqual([]);
    } finally {
      await guarded.close();
    }
    // With the guard off (this app), the foreign host is read like any page.
    expect((await ok({ url: watch(VIDEOS.foreign.id) })).fullText).toBe("From another host.");
  });

  test("metered like any route: a key is needed in required mode, and a transcript costs 1 credit", async () => {
    const strict = await startTestApp({ youtubeUrl: fake.url, auth: "required" });
    try {
      const keyless = await get({ url: watch(VIDEOS.mills.id) }, strict);
      expect(keyless.status).toBe(401);
      const { key } = await strict.createKey("free");
      const res = await get({ url: watch(VIDEOS.mills.id) }, strict, { authorization: `Bearer ${key}` });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-credits-used")).toBe("1");
      const none = await get({ url: watch(VIDEOS.silent.id) }, strict, { authorization: `Bearer ${key}` });
      expect([none.status, none.headers.get("x-weekly-used")]).toEqual([404, "1"]);
    } finally {
      await strict.close();
    }
  });

  test("documented in OpenAPI: the query parameters and the response schema", async () => {
    const doc = (await (await app.request("/docs/json")).json()) as {
      paths: Record<string, { get?: { parameters: { name: string }[]; responses: Record<string, unknown> } }>;
    };
    const operation = doc.paths["/v1/youtube"]?.get;
    expect(operation?.parameters.map((p) => p.name)).toEqual(["url", "language"]);
    const ok = operation?.responses["200"] as
      | { content: Record<string, { schema: { properties: object } }> }
      | undefined;
    const schema = ok?.content["application/json"]?.schema;
    expect(Object.keys(schema?.properties ?? {})).toEqual(Object.keys(YoutubeResponse.properties));
    expect(Object.keys(operation?.responses ?? {})).toContain("404");
  });
});
