import { describe, expect, test } from "bun:test";
import { type CaptionTrack, chooseTrack, languagesOf } from "./tracks.ts";

const track = (languageCode: string, automatic = false): CaptionTrack => ({
  baseUrl: `https://www.youtube.com/api/timedtext?lang=${languageCode}${automatic ? "&kind=asr" : ""}`,
  languageCode,
  name: languageCode,
  automatic,
});

describe("chooseTrack", () => {
  const tracks = [track("en", true), track("fr", true), track("de"), track("en-GB"), track("pt-BR")];

  test("the requested language: uploaded over automatic, then the same language of another region", () => {
    expect(chooseTrack(tracks, "de")).toBe(tracks[2]!);
    expect(chooseTrack(tracks, "en")).toBe(tracks[3]!);
    expect(chooseTrack(tracks, "EN-gb")).toBe(tracks[3]!);
    expect(chooseTrack(tracks, "fr")).toBe(tracks[1]!);
    expect(chooseTrack(tracks, "pt")).toBe(tracks[4]!);
    expect(chooseTrack([track("en", true), track("en")], "en")?.automatic).toBe(false);
  });

  test("no language, or one the video lacks: the first uploaded track, else the first automatic one", () => {
    expect(chooseTrack(tracks)).toBe(tracks[2]!);
    expect(chooseTrack(tracks, "ja")).toBe(tracks[2]!);
    expect(chooseTrack([track("es", true), track("it", true)], "ja")?.languageCode).toBe("es");
    expect(chooseTrack([])).toBeNull();
  });

  test("languagesOf lists each language once, in YouTube's order", () => {
    expect(languagesOf([track("en", true), track("de"), track("en")])).toEqual(["en", "de"]);
  });
});
