import { describe, expect, test } from "bun:test";
import type { SiphonError } from "../errors.ts";
import { parseVideoUrl } from "./url.ts";

const ID = "dQw4w9WgXcQ";

function refusal(raw: string): SiphonError {
  try {
    parseVideoUrl(raw);
  } catch (error) {
    return error as SiphonError;
  }
  throw new Error(`${raw} was accepted`);
}

describe("parseVideoUrl", () => {
  test("reads the id of watch, youtu.be, shorts, embed and live URLs, and of a bare id", () => {
    for (const url of [
      `https://www.youtube.com/watch?v=${ID}`,
      `https://www.youtube.com/watch?feature=share&v=${ID}&t=42s`,
      `https://m.youtube.com/watch?v=${ID}`,
      `https://music.youtube.com/watch?v=${ID}&list=RD`,
      `http://youtube.com/watch?v=${ID}`,
      `youtube.com/watch?v=${ID}`,
      `https://youtu.be/${ID}`,
      `https://youtu.be/${ID}?si=abc&t=10`,
      `https://www.youtube.com/shorts/${ID}`,
      `https://youtube.com/shorts/${ID}?feature=share`,
      `https://www.youtube.com/embed/${ID}?start=30`,
      `https://www.youtube-nocookie.com/embed/${ID}`,
      `https://www.youtube.com/live/${ID}?si=x`,
      `https://WWW.YOUTUBE.COM/watch?v=${ID}`,
      ` ${ID} `,
    ]) {
      expect([url, parseVideoUrl(url)]).toEqual([url, ID]);
    }
  });

  test("refuses other hosts, pages that name no video and malformed ids, naming the accepted forms", () => {
    for (const [url, detail] of [
      [`https://vimeo.com/watch?v=${ID}`, "is not on youtube.com or youtu.be (host vimeo.com)"],
      [`https://youtube.com.evil.example/watch?v=${ID}`, "is not on youtube.com"],
      ["https://www.youtube.com/@millheritage", "names no video"],
      ["https://www.youtube.com/playlist?list=PL123", "names no video"],
      ["https://www.youtube.com/watch?v=short", 'has "short" where an 11-character video id belongs'],
      [`https://youtu.be/${ID}x`, "where an 11-character video id belongs"],
      [`ftp://youtube.com/watch?v=${ID}`, "must be an http(s) URL"],
      ["", "is empty"],
      ["http://", "is not a URL"],
    ] as const) {
      const error = refusal(url);
      expect(error.type).toBe("invalid_request");
      expect(error.message).toContain(detail);
      expect(error.message).toContain(
        "https://www.youtube.com/watch?v=ID, https://youtu.be/ID, https://www.youtube.com/shorts/ID, https://www.youtube.com/embed/ID, https://www.youtube.com/live/ID",
      );
    }
  });
});
