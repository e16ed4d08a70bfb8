import { describe, expect, test } from "bun:test";
import { withOperators } from "./categories.ts";
import { isWebUrl, plainText, redact } from "./http.ts";

describe("search helpers", () => {
  test("redact masks every copy of the key, and nothing when there is none", () => {
    expect(redact("token abcd1234 and again abcd1234", "abcd1234")).toBe(
      "token [redacted] and again [redacted]",
    );
    expect(redact("no key here", undefined)).toBe("no key here");
    // Too short to be a key: masking it would garble ordinary words.
    expect(redact("a b c", "a")).toBe("a b c");
  });

  test("plainText drops tags, decodes entities and collapses spaces", () => {
    expect(plainText("Bun <strong>SQLite</strong> &amp; what&#x27;s   new&#39;s &lt;b&gt;")).toBe(
      "Bun SQLite & what's new's <b>",
    );
    expect(plainText("bad &#99999999; code")).toBe("bad code");
    expect(plainText(undefined)).toBe("");
  });

  test("isWebUrl keeps absolute http(s) URLs only", () => {
    expect(isWebUrl("https://example.com/a")).toBe(true);
    for (const url of ["magnet:?xt=urn:btih:0", "data:image/png;base64,AA", "/relative", "", 42, null]) {
      expect(isWebUrl(url)).toBe(false);
    }
  });

  test("categories become operators: one as written, alternatives grouped with OR", () => {
    expect(withOperators("tide", [])).toBe("tide");
    expect(withOperators("tide", ["github"])).toBe("tide site:github.com");
    expect(withOperators("tide", ["github", "pdf"])).toBe("tide (site:github.com OR filetype:pdf)");
    // One category of several sites is grouped too, or OR would split the query itself.
    expect(withOperators("tide", ["video"])).toBe("tide (site:youtube.com OR site:vimeo.com)");
  });
});
