import { describe, expect, test } from "bun:test";
import { makeDocx, makePdf, makePng } from "../../test/helpers/documents.ts";
import { classifyContent, RESULT_CONTENT_TYPE } from "./classify.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const URL_ = "https://example.com/file";

describe("classifyContent by Content-Type", () => {
  test.each([
    ["text/html; charset=utf-8", "html"],
    ["application/xhtml+xml", "html"],
    ["application/json", "json"],
    ["application/ld+json", "json"],
    ["application/problem+json; charset=utf-8", "json"],
    ["application/xml", "xml"],
    ["text/xml", "xml"],
    ["application/rss+xml", "xml"],
    ["application/atom+xml", "xml"],
    ["image/svg+xml", "xml"],
    ["text/plain", "text"],
    ["text/markdown", "text"],
    ["text/csv", "text"],
    ["application/pdf", "pdf"],
    ["application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"],
    ["TEXT/HTML", "html"],
  ])("%s -> %s", (header, kind) => {
    expect(classifyContent(header, bytes("whatever"), URL_)).toBe(kind as never);
  });

  test("trusts a specific header over the body", () => {
    expect(classifyContent("text/plain", bytes("<!doctype html><p>hi"), URL_)).toBe("text");
  });
});

describe("classifyContent on binary families", () => {
  test("an image is unsupported", () => {
    expect(classifyContent("image/png", makePng(), `${URL_}.png`)).toBe("unsupported");
  });

  test("a PDF mislabelled as an image is still a PDF", () => {
    expect(classifyContent("image/jpeg", makePdf(["x"]), URL_)).toBe("pdf");
  });

  test("video and audio without a known signature are unsupported", () => {
    expect(classifyContent("video/mp4", bytes("\0\0\0 ftypisom"), URL_)).toBe("unsupported");
    expect(classifyContent("audio/mpeg", bytes("ID3"), URL_)).toBe("unsupported");
  });
});

describe("classifyContent by sniffing", () => {
  test("PDF signature under octet-stream and without a header", () => {
    const pdf = makePdf(["hello"]);
    expect(classifyContent("application/octet-stream", pdf, URL_)).toBe("pdf");
    expect(classifyContent(undefined, pdf, URL_)).toBe("pdf");
  });

  test("a zip holding word/document.xml is a DOCX", async () => {
    const docx = await makeDocx([{ text: "hi" }]);
    expect(classifyContent("application/zip", docx, URL_)).toBe("docx");
    expect(classifyContent(undefined, docx, URL_)).toBe("docx");
  });

  test("a zip without Word parts is a DOCX only when the URL says .docx", () => {
    const zip = bytes("PK\x03\x04 not a word file");
    expect(classifyContent("application/octet-stream", zip, URL_)).toBe("unsupported");
    expect(classifyContent("application/octet-stream", zip, "https://example.com/a.docx")).toBe("docx");
  });

  test.each([
    ["<!DOCTYPE html><html><body>hi</body></html>", "html"],
    ["  \n<html lang=en><p>hi", "html"],
    ["\uFEFF<!doctype html><title>x</title>", "html"],
    ["<!-- generated --><html><body></body></html>", "html"],
    ['<?xml version="1.0"?><rss version="2.0"></rss>', "xml"],
    ['<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"></html>', "html"],
    ["<urlset><url><loc>https://a</loc></url></urlset>", "xml"],
    ['{"a": [1, 2]}', "json"],
    ["[1, 2, 3]", "json"],
    ["{ not json", "text"],
    ["Just some words.\nAnother line.", "text"],
  ])("%j -> %s", (body, kind) => {
    expect(classifyContent(undefined, bytes(body), URL_)).toBe(kind as never);
  });

  test("binary bytes without a known signature are unsupported", () => {
    expect(classifyContent(undefined, makePng(), URL_)).toBe("unsupported");
    expect(classifyContent("application/octet-stream", Uint8Array.from([1, 2, 0, 3, 4]), URL_)).toBe(
      "unsupported",
    );
  });

  test("an unknown type carrying HTML is sniffed as HTML", () => {
    expect(classifyContent("application/x-unknown-thing", bytes("<!doctype html><p>x"), URL_)).toBe("html");
  });

  test("the URL extension decides when the bytes are ambiguous", () => {
    expect(classifyContent(undefined, bytes("{broken"), "https://example.com/data.json")).toBe("json");
  });
});

test("RESULT_CONTENT_TYPE maps documents to the SPEC 'document' type", () => {
  expect(RESULT_CONTENT_TYPE.pdf).toBe("document");
  expect(RESULT_CONTENT_TYPE.docx).toBe("document");
  expect(RESULT_CONTENT_TYPE.html).toBe("html");
  expect(RESULT_CONTENT_TYPE.text).toBe("text");
});
