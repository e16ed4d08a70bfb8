import { describe, expect, test } from "bun:test";
import { normalizeUrl, sameSite } from "./normalize.ts";

const CASES: [input: string, expected: string | null][] = [
  // scheme and host case, default ports, trailing dot
  ["HTTP://Example.COM/", "http://example.com/"],
  ["https://EXAMPLE.com/Path", "https://example.com/Path"],
  ["http://example.com:80/a", "http://example.com/a"],
  ["https://example.com:443/a", "https://example.com/a"],
  ["https://example.com:80/a", "https://example.com:80/a"],
  ["http://example.com:8080/", "http://example.com:8080/"],
  ["http://example.com./a", "http://example.com/a"],
  ["http://example.com", "http://example.com/"],
  // fragments
  ["http://example.com/a#section", "http://example.com/a"],
  ["http://example.com/#", "http://example.com/"],
  // trailing slash
  ["http://example.com/docs/", "http://example.com/docs"],
  ["http://example.com/docs///", "http://example.com/docs"],
  ["http://example.com/a/?x=1", "http://example.com/a?x=1"],
  // duplicate slashes and dot segments
  ["http://example.com//a//b", "http://example.com/a/b"],
  ["http://example.com/a/./b/../c", "http://example.com/a/c"],
  ["http://example.com/a/b/..", "http://example.com/a"],
  ["http://example.com/../../a", "http://example.com/a"],
  ["http://example.com/a/%2e%2E/b", "http://example.com/b"],
  // tracking parameters
  ["http://example.com/?utm_source=x&utm_medium=y&id=3", "http://example.com/?id=3"],
  ["http://example.com/p?gclid=1&fbclid=2&msclkid=3&yclid=4", "http://example.com/p"],
  ["http://example.com/p?mc_cid=1&mc_eid=2&_ga=3&ref_src=4&igshid=5&q=a", "http://example.com/p?q=a"],
  ["http://example.com/p?UTM_Campaign=spring&page=2", "http://example.com/p?page=2"],
  ["http://example.com/p?ref=home", "http://example.com/p?ref=home"],
  // query order, empties
  ["http://example.com/s?b=2&a=1&c=3", "http://example.com/s?a=1&b=2&c=3"],
  ["http://example.com/s?a=2&b=1&a=1", "http://example.com/s?a=2&a=1&b=1"],
  ["http://example.com/s?", "http://example.com/s"],
  ["http://example.com/s?&&a=1&", "http://example.com/s?a=1"],
  ["http://example.com/s?q=a+b&path=/x:y", "http://example.com/s?path=/x:y&q=a+b"],
  // percent-encoding
  ["http://example.com/%7Euser/%41bc", "http://example.com/~user/Abc"],
  ["http://example.com/a%2fb", "http://example.com/a%2Fb"],
  ["http://example.com/caf%c3%a9", "http://example.com/caf%C3%A9"],
  ["http://example.com/café", "http://example.com/caf%C3%A9"],
  ["http://example.com/s?q=%61%20b", "http://example.com/s?q=a%20b"],
  ["http://bücher.example/", "http://xn--bcher-kva.example/"],
  ["http://[::1]:80/x/", "http://[::1]/x"],
  // refused
  ["mailto:someone@example.com", null],
  ["javascript:alert(1)", null],
  ["ftp://example.com/file", null],
  ["not a url", null],
  ["", null],
];

describe("normalizeUrl", () => {
  test.each(CASES)("%p -> %p", (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  test("accepts URL objects and is idempotent", () => {
    const once = normalizeUrl(new URL("HTTPS://Www.Example.com:443/a//b/?utm_source=x&z=1&a=2#top"));
    expect(once).toBe("https://www.example.com/a/b?a=2&z=1");
    expect(normalizeUrl(once!)).toBe(once);
  });
});

describe("sameSite", () => {
  const site = new URL("https://example.com/start");
  const check = (url: string, allowSubdomains = false) => sameSite(new URL(url), site, { allowSubdomains });

  test("same host whatever the scheme, port or www prefix", () => {
    expect(check("http://example.com/a")).toBe(true);
    expect(check("https://www.example.com/a")).toBe(true);
    expect(check("https://EXAMPLE.com:8443/a")).toBe(true);
    expect(
      sameSite(new URL("https://example.com/"), new URL("https://www.example.com/"), {
        allowSubdomains: false,
      }),
    ).toBe(true);
  });

  test("other hosts and look-alikes are not the site", () => {
    expect(check("https://other.com/")).toBe(false);
    expect(check("https://notexample.com/")).toBe(false);
    expect(check("https://example.com.evil.net/")).toBe(false);
  });

  test("subdomains only when allowed, and only below the start host", () => {
    expect(check("https://blog.example.com/")).toBe(false);
    expect(check("https://blog.example.com/", true)).toBe(true);
    expect(check("https://a.b.example.com/", true)).toBe(true);
    expect(check("https://notexample.com/", true)).toBe(false);
    const sub = new URL("https://docs.example.com/");
    expect(sameSite(new URL("https://example.com/"), sub, { allowSubdomains: true })).toBe(false);
  });
});
