import { describe, expect, test } from "bun:test";
import { rejection } from "../../test/helpers/errors.ts";
import { resolveRegion } from "./regions.ts";

const region = (country?: string, location?: string) => {
  const r = resolveRegion(country, location);
  return r && { ...r, given: undefined };
};

describe("resolveRegion", () => {
  test("nothing asked, nothing resolved", () => {
    expect(resolveRegion()).toBeUndefined();
  });

  test("country is DuckDuckGo's region code: its country (ISO) and language (ISO)", () => {
    expect(region("us-en")).toMatchObject({ country: "us", language: "en", ddg: "us-en" });
    expect(region("UK-EN")).toMatchObject({ country: "gb", language: "en", ddg: "uk-en" });
    expect(region("jp-jp")).toMatchObject({ country: "jp", language: "ja", ddg: "jp-jp" });
    expect(region("ch-fr")).toMatchObject({ country: "ch", language: "fr", ddg: "ch-fr" });
    expect(region("wt-wt")).toMatchObject({ country: undefined, language: undefined, ddg: "wt-wt" });
    // A region DuckDuckGo does not list still names a country for the other engines.
    expect(region("ke-sw")).toEqual({ country: "ke", language: "sw", given: undefined });
  });

  test("location ends with a country (name, code or common alias); city and state come before it", () => {
    expect(region(undefined, "Germany")).toMatchObject({
      country: "de",
      impliedLanguage: "de",
      ddg: "de-de",
    });
    expect(region(undefined, "Berlin, Germany")).toMatchObject({
      country: "de",
      city: "Berlin",
      state: undefined,
    });
    expect(region(undefined, "Austin, Texas, US")).toMatchObject({
      country: "us",
      ddg: "us-en",
      city: "Austin",
      state: "Texas",
    });
    for (const [place, code] of [
      ["Leeds, UK", "gb"],
      ["Paris, France", "fr"],
      ["Seoul, South Korea", "kr"],
      ["Yangon, Myanmar", "mm"],
      ["Nairobi, KE", "ke"],
      ["usa", "us"],
    ] as const) {
      expect(region(undefined, place)?.country).toBe(code);
    }
    // A location sets no explicit language: engines that take one (Brave) are not narrowed by it.
    expect(region(undefined, "Germany")?.language).toBeUndefined();
  });

  test("both: country sets region and language, location adds the place; they must agree", async () => {
    expect(region("de-de", "Munich, Bavaria, Germany")).toMatchObject({
      country: "de",
      language: "de",
      ddg: "de-de",
      city: "Munich",
      state: "Bavaria",
    });
    const clash = await rejection(Promise.resolve().then(() => resolveRegion("us-en", "Berlin, Germany")));
    expect(clash.type).toBe("invalid_request");
  });

  test("what names no country is invalid_request saying how to write it", async () => {
    for (const [country, location] of [
      ["zz-zz", undefined],
      [undefined, "Atlantis"],
      [undefined, "Springfield"],
    ]) {
      const error = await rejection(Promise.resolve().then(() => resolveRegion(country, location)));
      expect(error.type).toBe("invalid_request");
      expect(error.hint).toBeTruthy();
    }
  });
});
