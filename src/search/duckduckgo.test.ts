import { describe, expect, test } from "bun:test";
import { rejection } from "../../test/helpers/errors.ts";
import { parseDuckDuckGo } from "./duckduckgo.ts";

/** A results page as html.duckduckgo.com/html/ sends it (trimmed to what the parser reads, plus distractors). */
const PAGE = `<html><body class="body--html"><div id="links" class="results">
  <div class="result results_links results_links_deep result--ad result--ad--small">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.example&amp;ad_provider=bingv7aa">Ad title</a></h2>
      <a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=ads.example">Sponsored.</a>
    </div>
  </div>
  <div class="result results_links results_links_deep result--ad">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://shop.example/tide-mills?utm_source=ddg">Tide mills, cheap</a></h2>
      <a class="result__snippet" href="https://shop.example/">Sponsored, linking straight to the shop.</a>
    </div>
  </div>
  <div class="result results_links results_links_deep web-result ">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fbun.sh%2Fdocs%2Fapi%2Fsqlite%3Fa%3D1%26b%3D2&amp;rut=6b1f">SQLite – <b>Bun</b>   Docs</a></h2>
      <div class="result__extras"><div class="result__extras__url"><a class="result__url" href="//duckduckgo.com/l/?uddg=x">bun.sh/docs/api/sqlite</a></div></div>
      <a class="result__snippet" href="//duckduckgo.com/l/?uddg=x">Bun natively implements a <b>SQLite</b>3 driver &amp; more.</a>
    </div>
  </div>
  <div class="result results_links results_links_deep web-result ">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://orm.drizzle.team/docs/get-started-sqlite">Drizzle ORM - SQLite</a></h2>
      <a class="result__snippet" href="https://orm.drizzle.team/docs/get-started-sqlite">Drizzle has native support for SQLite.</a>
    </div>
  </div>
  <div class="result results_links results_links_deep web-result ">
    <h2 class="result__title"><a class="result__a" href="javascript:void(0)">Not a page</a></h2>
  </div>
</div></body></html>`;

describe("parseDuckDuckGo", () => {
  test("results: redirect targets decoded, direct links kept, ads and non-web links dropped", () => {
    expect(parseDuckDuckGo(PAGE, 200)).toEqual([
      {
        title: "SQLite – Bun Docs",
        url: "https://bun.sh/docs/api/sqlite?a=1&b=2",
        snippet: "Bun natively implements a SQLite3 driver & more.",
      },
      {
        title: "Drizzle ORM - SQLite",
        url: "https://orm.drizzle.team/docs/get-started-sqlite",
        snippet: "Drizzle has native support for SQLite.",
      },
    ]);
  });

  test("a results page with a block nested 200,000 deep is read, not a stack overflow", () => {
    const block = `${"<div>".repeat(200_000)}deep${"</div>".repeat(200_000)}`;
    const deep = PAGE.replace(/<body[^>]*>/, (body) => `${body}${block}`);
    expect(deep).not.toBe(PAGE);
    expect(parseDuckDuckGo(deep, 200).length).toBe(parseDuckDuckGo(PAGE, 200).length);
  });

  test("its no-results notice is an empty list", () => {
    const empty = `<div id="links" class="results"><div class="result results_links web-result result--no-result"><div class="no-results">No  results.</div></div></div>`;
    expect(parseDuckDuckGo(empty, 200)).toEqual([]);
  });

  test("the bot check page, whatever its status, and 403/429 say DuckDuckGo rate-limited siphon", async () => {
    const anomaly = `<html><body><div class="anomaly-modal__modal"><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
      <form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=sre" method="POST"></form></div></body></html>`;
    for (const [html, status] of [
      [anomaly, 202],
      [anomaly, 200],
      ["", 403],
      ["", 429],
    ] as const) {
      const error = await rejection(Promise.resolve().then(() => parseDuckDuckGo(html, status)));
      expect(error.type).toBe("search_failed");
      expect(error.message).toStartWith("DuckDuckGo rate-limited siphon");
    }
  });

  test("another status, or a page that is not a results page, is search_failed", async () => {
    const server = await rejection(Promise.resolve().then(() => parseDuckDuckGo(PAGE, 500)));
    expect(server.message).toBe("DuckDuckGo answered HTTP 500");
    const other = await rejection(
      Promise.resolve().then(() => parseDuckDuckGo("<h1>Welcome to nginx!</h1>", 200)),
    );
    expect(other.type).toBe("search_failed");
  });
});
