import { describe, expect, test } from "bun:test";
import { decodeBody } from "./decode.ts";

const ascii = (s: string) => new TextEncoder().encode(s);
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...ascii(p)] : p)));

// "café" in windows-1252 / latin1: é is the single byte 0xE9.
const CAFE_1252 = [0x63, 0x61, 0x66, 0xe9];
// "日本" in Shift_JIS.
const NIHON_SJIS = [0x93, 0xfa, 0x96, 0x7b];
// "中文" in GBK.
const ZHONGWEN_GBK = [0xd6, 0xd0, 0xce, 0xc4];
// "Привет" in KOI8-R.
const PRIVET_KOI8 = [0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4];

describe("decodeBody", () => {
  test("plain UTF-8 without any declaration", () => {
    expect(decodeBody(ascii("<p>Grüße, 日本</p>"), undefined)).toEqual({
      text: "<p>Grüße, 日本</p>",
      charset: "utf-8",
    });
  });

  test("a UTF-8 BOM wins over a contradicting header and is stripped", () => {
    const body = bytes([0xef, 0xbb, 0xbf], "Grüße");
    expect(decodeBody(body, "text/html; charset=iso-8859-1")).toEqual({ text: "Grüße", charset: "utf-8" });
  });

  test("UTF-16 LE and BE byte-order marks", () => {
    const le = new Uint8Array([0xff, 0xfe, 0x48, 0x00, 0x69, 0x00]);
    const be = new Uint8Array([0xfe, 0xff, 0x00, 0x48, 0x00, 0x69]);
    expect(decodeBody(le, "text/html")).toEqual({ text: "Hi", charset: "utf-16le" });
    expect(decodeBody(be, undefined)).toEqual({ text: "Hi", charset: "utf-16be" });
  });

  test.each([
    ["text/html; charset=ISO-8859-1", CAFE_1252, "café", "windows-1252"],
    ['text/html; charset="windows-1252"', CAFE_1252, "café", "windows-1252"],
    ["text/html;charset=latin1", CAFE_1252, "café", "windows-1252"],
    ["text/html; charset=Shift_JIS", NIHON_SJIS, "日本", "shift_jis"],
    ["text/html; charset=x-sjis", NIHON_SJIS, "日本", "shift_jis"],
    ["text/html; charset=cp932", NIHON_SJIS, "日本", "shift_jis"],
    ["text/html; charset=gb2312", ZHONGWEN_GBK, "中文", "gbk"],
    ["text/html; charset=koi8-r", PRIVET_KOI8, "Привет", "koi8-r"],
  ])("Content-Type %p decodes the body", (header, body, expected, charset) => {
    expect(decodeBody(new Uint8Array(body), header)).toEqual({ text: expected, charset });
  });

  test("the header beats a meta tag", () => {
    const body = bytes('<meta charset="shift_jis"><p>', CAFE_1252);
    expect(decodeBody(body, "text/html; charset=windows-1252").text).toEndWith("café");
  });

  test("<meta charset> in the document", () => {
    const body = bytes(
      '<!doctype html><html><head><meta charset="Shift_JIS"><title>',
      NIHON_SJIS,
      "</title>",
    );
    const decoded = decodeBody(body, "text/html");
    expect(decoded.charset).toBe("shift_jis");
    expect(decoded.text).toContain("<title>日本</title>");
  });

  test("<meta http-equiv content-type> in the document", () => {
    const body = bytes(
      '<html><head><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=koi8-r"></head><body>',
      PRIVET_KOI8,
    );
    expect(decodeBody(body, undefined)).toMatchObject({ charset: "koi8-r" });
    expect(decodeBody(body, undefined).text).toEndWith("Привет");
  });

  test("an XML declaration's encoding", () => {
    const body = bytes(
      '<?xml version="1.0" encoding="ISO-8859-1"?><rss><title>',
      CAFE_1252,
      "</title></rss>",
    );
    expect(decodeBody(body, "application/xml").text).toContain("<title>café</title>");
  });

  test("a meta tag claiming UTF-16 is read as UTF-8, as browsers do", () => {
    expect(decodeBody(ascii('<meta charset="utf-16"><p>Grüße'), undefined)).toEqual({
      text: '<meta charset="utf-16"><p>Grüße',
      charset: "utf-8",
    });
  });

  test("a declaration after the first 4 KB is not looked for", () => {
    const body = bytes(" ".repeat(5000), '<meta charset="koi8-r">hello');
    expect(decodeBody(body, undefined).charset).toBe("utf-8");
  });

  test.each(["text/html; charset=bogus-charset", "text/html; charset=iso-2022-kr", "text/html; charset="])(
    "an unknown or unusable label %p falls back without throwing",
    (header) => {
      expect(decodeBody(ascii("<p>Grüße</p>"), header)).toEqual({ text: "<p>Grüße</p>", charset: "utf-8" });
    },
  );

  test("an undeclared legacy page that is not valid UTF-8 is read as windows-1252", () => {
    const body = bytes("<p>Le ", CAFE_1252, " est ferm", [0xe9], "</p>");
    expect(decodeBody(body, "text/html")).toEqual({
      text: "<p>Le café est fermé</p>",
      charset: "windows-1252",
    });
  });

  test("a UTF-8 page with one corrupt byte stays UTF-8", () => {
    const body = bytes("Grüße aus Köln, schöne Grüße ", [0xff], " ende");
    const decoded = decodeBody(body, undefined);
    expect(decoded.charset).toBe("utf-8");
    expect(decoded.text).toStartWith("Grüße aus Köln");
  });

  test("an empty body decodes to an empty string", () => {
    expect(decodeBody(new Uint8Array(0), undefined)).toEqual({ text: "", charset: "utf-8" });
  });
});
