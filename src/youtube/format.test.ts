import { describe, expect, test } from "bun:test";
import type { YoutubeResponse } from "../schemas/youtube.ts";
import { clock, formatTranscript, toSrt, toVtt } from "./format.ts";

const segments = [
  { text: "Welcome <here> & now.", start: 0.32, duration: 3.1 },
  { text: "The wheel turns.", start: 3725.5, duration: 2.25 },
];

const video: YoutubeResponse = {
  success: true,
  videoId: "tIdEmiLL_01",
  url: "https://www.youtube.com/watch?v=tIdEmiLL_01",
  title: "How tide mills work",
  channel: "Mill Heritage Trust",
  duration: 3800,
  publishDate: "2024-05-03T08:00:11-07:00",
  description: "",
  chapters: [
    { title: "Start", start: 0 },
    { title: "Wheel", start: 3700 },
  ],
  language: "en",
  automatic: true,
  availableLanguages: ["en"],
  fullText: "Welcome <here> & now. The wheel turns.",
  segments,
};

describe("transcript formats", () => {
  test("SubRip: numbered cues, comma milliseconds, hours", () => {
    expect(toSrt(segments)).toBe(
      "1\n00:00:00,320 --> 00:00:03,420\nWelcome <here> & now.\n\n2\n01:02:05,500 --> 01:02:07,750\nThe wheel turns.\n",
    );
  });

  test("WebVTT: header, dot milliseconds, markup characters escaped", () => {
    expect(toVtt(segments)).toBe(
      "WEBVTT\n\n00:00:00.320 --> 00:00:03.420\nWelcome &lt;here&gt; &amp; now.\n\n01:02:05.500 --> 01:02:07.750\nThe wheel turns.\n",
    );
  });

  test("markdown: title, facts, chapters linked at their time, a transcript section per chapter", () => {
    expect(formatTranscript(video, "md")).toBe(
      [
        "# How tide mills work",
        "- Channel: Mill Heritage Trust\n- URL: https://www.youtube.com/watch?v=tIdEmiLL_01\n- Duration: 1:03:20\n- Published: 2024-05-03T08:00:11-07:00\n- Transcript: en (automatic captions)",
        "## Chapters\n\n- [0:00](https://www.youtube.com/watch?v=tIdEmiLL_01&t=0s) Start\n- [1:01:40](https://www.youtube.com/watch?v=tIdEmiLL_01&t=3700s) Wheel",
        "## Transcript",
        "### Start",
        "**[0:00]** Welcome <here> & now.",
        "### Wheel",
        "**[1:02:05]** The wheel turns.\n",
      ].join("\n\n"),
    );
    const plain = formatTranscript({ ...video, chapters: [] }, "md");
    expect(plain).not.toContain("## Chapters");
    expect(plain).toEndWith("## Transcript\n\n**[0:00]** Welcome <here> & now. The wheel turns.\n");
  });

  test("txt is the full text; json the response", () => {
    expect(formatTranscript(video, "txt")).toBe("Welcome <here> & now. The wheel turns.\n");
    expect(JSON.parse(formatTranscript(video, "json"))).toEqual(video);
    expect(clock(59.9)).toBe("0:59");
    expect(clock(3600)).toBe("1:00:00");
  });
});
