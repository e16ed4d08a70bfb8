import { describe, expect, test } from "bun:test";
import { SiphonError } from "../errors.ts";
import { withOperators } from "./categories.ts";
import { callProvider, isWebUrl, plainText, redact } from "./http.ts";

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

describe("callProvider", () => {
  /** An engine on a raw socket: the first `drops` connections are closed unanswered, then it answers. */
  function engine(drops: number) {
    let seen = 0;
    const server = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        data(socket) {
          seen++;
          if (seen <= drops) {
            socket.terminate();
            return;
          }
          socket.write(
            "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 7\r\nconnection: close\r\n\r\nresults",
          );
          socket.end();
        },
      },
    });
    return { url: `http://127.0.0.1:${server.port}/search`, seen: () => seen, stop: () => server.stop(true) };
  }
  const call = {
    label: "Test engine",
    setting: "SIPHON_TEST_URL",
    timeoutMs: 5_000,
    config: { disableSsrfProtection: false, ssrfAllow: "", maxRedirects: 3, maxBodyBytes: 1_000_000 },
  };

  test("a connection the engine drops before answering is tried once more; twice is search_failed", async () => {
    const once = engine(1);
    try {
      const answer = await callProvider(call, once.url, { method: "GET" });
      expect(answer.text).toBe("results");
      expect(once.seen()).toBe(2);
    } finally {
      once.stop();
    }
    const always = engine(5);
    try {
      const error = await callProvider(call, always.url, { method: "GET" }).catch((e) => e);
      expect(error).toBeInstanceOf(SiphonError);
      expect((error as SiphonError).type).toBe("search_failed");
      expect(always.seen()).toBe(2);
    } finally {
      always.stop();
    }
  });
});
