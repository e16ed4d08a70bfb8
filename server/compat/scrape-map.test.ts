import { describe, expect, test } from "bun:test";
import { SiphonError } from "../../src/errors.ts";
import { validate } from "../../src/schemas/validate.ts";
import { readFirecrawlBody } from "./http.ts";
import { ScrapeBody, scrapeFields } from "./scrape-body.ts";
import { MOBILE_USER_AGENT, mapActions, toScrapeRequest } from "./scrape-map.ts";

const map = (body: Record<string, unknown>, version: 1 | 2 = 2) =>
  toScrapeRequest(validate(ScrapeBody, readFirecrawlBody(body, scrapeFields(version))), version, "acct");

const refusal = (run: () => unknown): SiphonError => {
  try {
    run();
  } catch (error) {
    if (error instanceof SiphonError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
};

describe("toScrapeRequest", () => {
  test("Firecrawl's defaults: markdown, main content only, 30 s, the cache on v2 and off on v1", () => {
    const { request, asked } = map({ url: "https://example.com/" });
    expect(asked.markdown).toBe(true);
    expect(request.fetch.onlyMainContent).toBe(true);
    expect(request.timeoutMs).toBe(30_000);
    expect(request.fetch.maxAge).toBe(172_800_000);
    expect(map({ url: "https://example.com/" }, 1).request.fetch.maxAge).toBe(0);
  });

  test("proxy maps to the escalation: stealth and enhanced force the stealth browser, basic and auto do not", () => {
    expect(map({ url: "https://example.com/", proxy: "stealth" }).request.fetch.stealth).toBe(true);
    expect(map({ url: "https://example.com/", proxy: "enhanced" }).request.fetch.stealth).toBe(true);
    expect(map({ url: "https://example.com/", proxy: "basic" }).request.fetch.stealth).toBe(false);
    expect(map({ url: "https://example.com/", proxy: "auto" }).request.fetch.stealth).toBe(false);
    expect(refusal(() => map({ url: "https://example.com/", proxy: "residential" })).type).toBe(
      "invalid_request",
    );
  });

  test("waitFor renders, location and mobile become headers and language preferences", () => {
    const { request } = map({
      url: "https://example.com/",
      waitFor: 500,
      location: { country: "FR", languages: ["fr-FR"] },
      mobile: true,
      formats: ["screenshot"],
    });
    expect(request.fetch.wait).toBe(500);
    expect(request.fetch.location).toBe("FR");
    expect(request.fetch.languages).toEqual(["fr-FR"]);
    expect(request.fetch.headers?.["user-agent"]).toBe(MOBILE_USER_AGENT);
    // A phone's viewport needs the screenshot pipeline.
    expect(request.screenshot).toEqual({ fullPage: false, width: 390, height: 844, quality: undefined });
  });

  test("a plain screenshot is the pipeline's own capture; SPEC's top-level screenshot fields need one", () => {
    const own = map({ url: "https://example.com/", formats: ["screenshot@fullPage"] }, 1);
    expect(own.request.screenshot).toBeUndefined();
    expect(own.request.fetch.formats).toContainEqual({ type: "screenshot", fullPage: true });
    const jpeg = map({
      url: "https://example.com/",
      formats: ["screenshot"],
      screenshotFormat: "jpeg",
      width: 1024,
    });
    expect(jpeg.request.screenshot).toEqual({ fullPage: false, quality: 80, width: 1024, height: undefined });
    expect(refusal(() => map({ url: "https://example.com/", fullPage: true })).message).toContain(
      "screenshot",
    );
  });

  test("json mode of changeTracking, unknown formats and v1-only keys on v2 are refused by name", () => {
    const json = refusal(() =>
      map({ url: "https://x.example/", formats: [{ type: "changeTracking", modes: ["json"] }] }),
    );
    expect(json.type).toBe("not_implemented");
    expect(refusal(() => map({ url: "https://x.example/", formats: ["product"] })).type).toBe(
      "not_implemented",
    );
    expect(refusal(() => map({ url: "https://x.example/", formats: ["nonsense"] })).type).toBe(
      "invalid_request",
    );
    expect(refusal(() => map({ url: "https://x.example/", jsonOptions: {} })).message).toContain(
      "jsonOptions",
    );
  });

  test("zeroDataRetention keeps no snapshot for change tracking", () => {
    const { request } = map({
      url: "https://x.example/",
      formats: ["changeTracking"],
      zeroDataRetention: true,
    });
    expect(request.changeTracking).toEqual({ gitDiff: false, tag: "", record: false });
  });
});

describe("mapActions", () => {
  test("Firecrawl's actions as siphon's; write types into the field the click before it focused", () => {
    expect(
      mapActions([
        { type: "wait", milliseconds: 200 },
        { type: "wait", selector: "#late" },
        { type: "click", selector: "#q" },
        { type: "write", text: "assam" },
        { type: "press", key: "Enter" },
        { type: "scroll", direction: "down" },
        { type: "screenshot", fullPage: true },
      ]),
    ).toEqual([
      { type: "wait", ms: 200 },
      { type: "waitForSelector", selector: "#late" },
      { type: "click", selector: "#q" },
      { type: "type", selector: "#q", text: "assam" },
      { type: "press", key: "Enter" },
      { type: "scroll", direction: "down" },
      { type: "screenshot", fullPage: true },
    ]);
    expect(refusal(() => mapActions([{ type: "write", text: "x" }])).type).toBe("invalid_request");
    expect(
      mapActions([
        { type: "executeJavascript", script: "return 1" },
        { type: "pdf", format: "A4" },
      ]),
    ).toEqual([
      { type: "executeJavascript", script: "return 1" },
      { type: "pdf", format: "A4", landscape: undefined, scale: undefined },
    ]);
    expect(refusal(() => mapActions([{ type: "click", selector: "a", all: true }])).type).toBe(
      "not_implemented",
    );
  });
});

describe("readFirecrawlBody", () => {
  test("drops origin and integration, refuses unknown keys and features siphon lacks unless off", () => {
    const fields = scrapeFields(2);
    expect(
      readFirecrawlBody({ url: "u", origin: "js-sdk@4", integration: "x", blockAds: true }, fields),
    ).toEqual({
      url: "u",
    });
    expect(readFirecrawlBody({ url: "u", redactPII: false }, fields)).toEqual({ url: "u" });
    expect(refusal(() => readFirecrawlBody({ url: "u", redactPII: true }, fields)).type).toBe(
      "not_implemented",
    );
    expect(refusal(() => readFirecrawlBody({ url: "u", zz: 1 }, fields)).message).toContain('"zz"');
    expect(refusal(() => readFirecrawlBody({ url: "u", extract: {} }, fields)).type).toBe("invalid_request");
  });
});
