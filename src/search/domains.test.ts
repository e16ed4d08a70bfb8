import { describe, expect, test } from "bun:test";
import { allowedByDomains, normalizeDomain, withDomainOperators } from "./domains.ts";

describe("domain rules", () => {
  test("a domain is read from what people paste: URLs, case, www., a port", () => {
    expect(normalizeDomain("https://WWW.Example.com/docs?x=1")).toBe("example.com");
    expect(normalizeDomain(" docs.example.com:8080 ")).toBe("docs.example.com");
    expect(normalizeDomain("bücher.de")).toBe("xn--bcher-kva.de");
    for (const bad of ["localhost", "not a domain", "", "http://"])
      expect(normalizeDomain(bad)).toBeUndefined();
  });

  test("subdomains belong to their domain; a look-alike does not", () => {
    const rule = { include: ["example.com"], exclude: ["ads.example.com"] };
    expect(allowedByDomains("https://docs.example.com/a", rule)).toBe(true);
    expect(allowedByDomains("https://www.example.com/", rule)).toBe(true);
    expect(allowedByDomains("https://notexample.com/", rule)).toBe(false);
    expect(allowedByDomains("https://x.ads.example.com/", rule)).toBe(false);
    expect(allowedByDomains("not a url", rule)).toBe(false);
    expect(allowedByDomains("not a url", { include: [], exclude: [] })).toBe(true);
  });

  test("operators: one site as written, several in parentheses with OR, each exclusion negated", () => {
    expect(withDomainOperators("q", { include: ["a.com"], exclude: [] })).toBe("q site:a.com");
    expect(withDomainOperators("q", { include: ["a.com", "b.org"], exclude: ["c.net"] })).toBe(
      "q (site:a.com OR site:b.org) -site:c.net",
    );
    expect(withDomainOperators("q", { include: [], exclude: [] })).toBe("q");
  });
});
