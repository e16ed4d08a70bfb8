import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { YoutubeResponse } from "../src/schemas/youtube.ts";
import { startTestApp, type TestApp } from "../test/helpers/app.ts";
import { type FakeYoutube, startFakeYoutube, VIDEOS } from "../test/helpers/fake-youtube.ts";
import { run } from "../test/helpers/run.ts";

const main = join(import.meta.dir, "main.ts");
/** Each run starts bun (0.5-1 s on a busy 2-core machine); tests that run several get room. */
const SEVERAL_RUNS_MS = 30_000;
const MILLS = `https://www.youtube.com/watch?v=${VIDEOS.mills.id}`;
let home: string;
let fake: FakeYoutube;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "siphon-cli-youtube-"));
  fake = startFakeYoutube();
});
afterAll(async () => {
  await fake.stop();
  rmSync(home, { recursive: true, force: true });
});

/** Runs `bun cli/main.ts youtube …` against the fake YouTube; no terminal, no outside network. */
function siphon(args: string[], env: Record<string, string> = {}) {
  return run([process.execPath, main, "youtube", ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      SIPHON_HOME: home,
      SIPHON_YOUTUBE_URL: fake.url,
      ...env,
    },
  });
}

describe("siphon youtube", () => {
  test(
    "txt by default; --format json and --json print the YouTube response; --lang picks the track",
    async () => {
      const txt = await siphon([MILLS]);
      expect(txt.code).toBe(0);
      expect(txt.stdout).toBe(
        "Welcome to the Eling tide mill. At high tide the sea fills the mill pond behind us. The gates close as " +
          "the tide turns & the water is held. Then it runs out under the wheel: it's an undershot wheel. The " +
          "stones grind the grain slowly. Any questions?\n",
      );
      const json = await siphon([MILLS, "--format", "json", "--lang", "de"]);
      expect(json.code).toBe(0);
      const video = JSON.parse(json.stdout) as YoutubeResponse;
      expect(video).toMatchObject({
        success: true,
        videoId: VIDEOS.mills.id,
        language: "de",
        automatic: false,
      });
      expect(video.chapters).toHaveLength(5);
      const flag = await siphon([`https://youtu.be/${VIDEOS.mills.id}`, "--json", "--lang", "de"]);
      expect(JSON.parse(flag.stdout)).toEqual(video);
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "srt, vtt and md",
    async () => {
      const srt = await siphon([MILLS, "--format", "srt", "--lang", "fr"]);
      expect(srt.stdout).toBe("1\n00:00:00,400 --> 00:00:03,400\nbienvenue au moulin à marée\n");
      const vtt = await siphon([MILLS, "--format", "vtt", "--lang", "fr"]);
      expect(vtt.stdout).toBe("WEBVTT\n\n00:00:00.400 --> 00:00:03.400\nbienvenue au moulin à marée\n");
      const md = await siphon([MILLS, "--format", "md"]);
      expect(md.code).toBe(0);
      expect(md.stdout).toStartWith("# How tide mills work\n\n- Channel: Mill Heritage Trust\n");
      expect(md.stdout).toContain(
        `## Chapters\n\n- [0:00](${MILLS}&t=0s) Introduction\n- [0:45](${MILLS}&t=45s) Filling the mill pond\n`,
      );
      expect(md.stdout).toContain(
        "### The undershot wheel\n\n**[2:11]** Then it runs out under the wheel: it's an undershot wheel.\n",
      );
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "a language the video lacks: the best available, with a warning on stderr",
    async () => {
      const result = await siphon([MILLS, "--lang", "ja", "--format", "srt"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toStartWith(
        "1\n00:00:00,320 --> 00:00:03,420\nWelcome to the Eling tide mill.\n",
      );
      expect(result.stderr).toContain(
        "The video has no ja captions; this transcript is en (available: en, de, fr, pt-BR)",
      );
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "exit codes: 2 for a bad URL or format, 1 when the video has no captions; --json prints the error",
    async () => {
      const bad = await siphon(["https://vimeo.com/123", "--json"]);
      expect(bad.code).toBe(2);
      const error = JSON.parse(bad.stdout).error;
      expect(error.type).toBe("invalid_request");
      expect(error.message).toContain("https://youtu.be/ID");
      const format = await siphon([MILLS, "--format", "docx"]);
      expect(format.code).toBe(2);
      expect(format.stderr).toContain("format must be one of txt, srt, vtt, md, json");
      const none = await siphon([`https://youtu.be/${VIDEOS.silent.id}`]);
      expect(none.code).toBe(1);
      expect(none.stdout).toBe("");
      expect(none.stderr).toContain("Video n0-capti0ns has no captions, uploaded or automatic (");
      expect(none.stderr).toContain("[not_found]");
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "remote mode calls GET /v1/youtube and prints the same; the server's errors exit alike",
    async () => {
      const app: TestApp = await startTestApp({ youtubeUrl: fake.url });
      const apiUrl = app.listen();
      try {
        fake.clear();
        const remote = await siphon([MILLS, "--format", "md", "--lang", "de", "--api-url", apiUrl], {
          SIPHON_YOUTUBE_URL: "http://127.0.0.1:1",
        });
        const local = await siphon([MILLS, "--format", "md", "--lang", "de"]);
        expect(remote.code).toBe(0);
        expect(remote.stdout).toBe(local.stdout);
        // The server, not the CLI (whose YouTube URL is a closed port), asked YouTube.
        expect(fake.of("/youtubei/v1/player")).toHaveLength(2);
        const none = await siphon([`https://youtu.be/${VIDEOS.silent.id}`, "--api-url", apiUrl]);
        expect(none.code).toBe(1);
        expect(none.stderr).toContain("has no captions");
        const bad = await siphon(["https://vimeo.com/123", "--api-url", apiUrl]);
        expect(bad.code).toBe(2);
      } finally {
        await app.close();
      }
    },
    SEVERAL_RUNS_MS,
  );
});
