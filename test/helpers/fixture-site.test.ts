import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import {
  ARTICLE_SENTENCE,
  ARTICLE_TITLE,
  BOTCHECK_CHECKS,
  BOTWALL_TITLE,
  CHALLENGE_ARTICLE_TEXT,
  CHALLENGE_COOKIE,
  COMPRESSED_TEXT,
  compressedPageBytes,
  DATA_JSON,
  DELAYED_TEXT,
  ENCODED_PAGES,
  type FixtureSite,
  HOVER_TEXT,
  HUGE_BYTES,
  LISTING_CARD_COUNT,
  NAV_TEXT,
  PDF_TITLE,
  SCROLL_INITIAL_ITEMS,
  startFixtureSite,
  TALL_HEIGHT,
} from "./fixture-site.ts";

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site.stop();
});

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${site.url}${path}`, { redirect: "manual", ...init });

test("the site listens on loopback and serves the article with its chrome", async () => {
  expect(site.url).toBe(`http://127.0.0.1:${site.port}`);
  const response = await get("/article");
  const html = await response.text();
  expect(response.status).toBe(200);
  expect(html).toContain(`<h1>${ARTICLE_TITLE}</h1>`);
  expect(html).toContain(ARTICLE_SENTENCE);
  expect(html).toContain(NAV_TEXT);
  expect(html).toContain('"datePublished"');
});

test("the listing has the advertised number of cards", async () => {
  const html = await (await get("/listing")).text();
  expect(html.match(/class="card"/g)?.length).toBe(LISTING_CARD_COUNT);
});

describe("redirects", () => {
  test("the chain mixes statuses and relative and absolute Locations", async () => {
    const hops: [number, string | null][] = [];
    for (const path of ["/redirect/chain/3", "/redirect/chain/2", "/redirect/chain/1"]) {
      const response = await get(path);
      hops.push([response.status, response.headers.get("location")]);
    }
    expect(hops).toEqual([
      [308, `${site.url}/redirect/chain/2`],
      [307, "1"],
      [302, `${site.url}/article`],
    ]);
  });

  test("a followed chain ends on the article", async () => {
    const response = await fetch(`${site.url}/redirect/chain/3`);
    expect(response.url).toBe(`${site.url}/article`);
  });

  test("the loop points back and forth, /redirect/to goes anywhere", async () => {
    expect((await get("/redirect/loop")).headers.get("location")).toBe("/redirect/loop/b");
    expect((await get("/redirect/loop/b")).headers.get("location")).toBe("/redirect/loop");
    expect((await get("/redirect/to?url=http://10.0.0.1/admin")).headers.get("location")).toBe(
      "http://10.0.0.1/admin",
    );
  });
});

describe("status pages", () => {
  test("404 and 500 carry HTML bodies", async () => {
    expect((await get("/status/404")).status).toBe(404);
    expect((await get("/status/500")).status).toBe(500);
    expect((await get("/no/such/page")).status).toBe(404);
  });

  test("the bot wall answers 403 with Cloudflare's challenge header, or 200", async () => {
    const blocked = await get("/status/403-botwall");
    expect(blocked.status).toBe(403);
    expect(blocked.headers.get("cf-mitigated")).toBe("challenge");
    expect(await blocked.text()).toContain(`<title>${BOTWALL_TITLE}</title>`);
    const soft = await get("/botwall-200");
    expect(soft.status).toBe(200);
    expect(await soft.text()).toContain(BOTWALL_TITLE);
  });
});

describe("encodings", () => {
  test.each(ENCODED_PAGES.map((page) => [page.path, page] as const))(
    "%s sends bytes that decode to the expected text only with the right charset",
    async (path, page) => {
      const response = await get(path);
      const body = new Uint8Array(await response.arrayBuffer());
      expect(response.headers.get("content-type")).toBe(page.contentType);
      expect(new TextDecoder(page.charset).decode(body)).toContain(page.expected);
      if (page.charset !== "utf-8")
        expect(new TextDecoder("utf-8").decode(body)).not.toContain(page.expected);
    },
  );

  test("the BOM page starts with the UTF-8 BOM and declares no charset", async () => {
    const body = new Uint8Array(await (await get("/enc/bom-utf8")).arrayBuffer());
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(body)).not.toContain("charset");
  });
});

test.each(["gzip", "br", "deflate"])(
  "/%s is served compressed with the matching header",
  async (encoding) => {
    const response = await get(`/${encoding}`);
    expect(response.headers.get("content-encoding")).toBe(encoding);
    // fetch decompresses transparently; the decoded page must be intact.
    expect(await response.text()).toContain(COMPRESSED_TEXT);
  },
);

test("the gzip body on the wire is really gzip", async () => {
  const raw = new Uint8Array(await (await get("/gzip", { decompress: false } as RequestInit)).arrayBuffer());
  expect([raw[0], raw[1]]).toEqual([0x1f, 0x8b]);
  const decoder = new TextDecoder();
  expect(decoder.decode(gunzipSync(raw))).toBe(decoder.decode(compressedPageBytes()));
});

test("data routes carry their content types", async () => {
  const json = await get("/data.json");
  expect(json.headers.get("content-type")).toBe("application/json");
  expect(await json.json()).toEqual(DATA_JSON);
  expect((await get("/feed.xml")).headers.get("content-type")).toStartWith("application/rss+xml");
  expect(await (await get("/robots.txt")).text()).toContain(`Sitemap: ${site.url}/sitemap.xml`);
  expect(await (await get("/sitemap.xml")).text()).toContain(`<loc>${site.url}/article</loc>`);
  expect((await get("/image.png")).headers.get("content-type")).toBe("image/png");
});

test("/doc.pdf is a PDF whose Info dictionary holds the title", async () => {
  const response = await get("/doc.pdf");
  const text = new TextDecoder("latin1").decode(await response.arrayBuffer());
  expect(response.headers.get("content-type")).toBe("application/pdf");
  expect(text).toStartWith("%PDF-1.4");
  expect(text).toContain(`/Title (${PDF_TITLE})`);
});

test("/headers echoes the request headers", async () => {
  const echoed = await (
    await get("/headers", { headers: { "accept-language": "de-DE", "user-agent": "t/1" } })
  ).json();
  expect(echoed["accept-language"]).toBe("de-DE");
  expect(echoed["user-agent"]).toBe("t/1");
});

test("/slow waits, /huge streams more than 12 MiB", async () => {
  const started = performance.now();
  await (await get("/slow?ms=200")).text();
  expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  const huge = await get("/huge");
  expect(huge.headers.get("content-length")).toBeNull();
  expect((await huge.arrayBuffer()).byteLength).toBeGreaterThan(HUGE_BYTES);
});

test("/hang never answers until the client gives up", async () => {
  const outcome = await get("/hang", { signal: AbortSignal.timeout(300) }).catch((e: Error) => e.name);
  expect(outcome).toBe("TimeoutError");
});

test("hits count requests per path, ignoring the query", async () => {
  site.resetHits();
  await get("/plain.txt");
  await get("/plain.txt?x=1");
  expect(site.hits("/plain.txt")).toBe(2);
  expect(site.hits("/never")).toBe(0);
});

describe("browser pages", () => {
  test("/js-challenge is a 403 Cloudflare-like wall without the cookie and the article with it", async () => {
    const wall = await get("/js-challenge");
    const wallHtml = await wall.text();
    expect(wall.status).toBe(403);
    expect(wall.headers.get("cf-mitigated")).toBe("challenge");
    expect(wallHtml).toContain(`<title>${BOTWALL_TITLE}</title>`);
    expect(wallHtml).toContain(`document.cookie = "${CHALLENGE_COOKIE}`);
    expect(wallHtml).not.toContain(CHALLENGE_ARTICLE_TEXT);
    const article = await get("/js-challenge", { headers: { cookie: `theme=dark; ${CHALLENGE_COOKIE}` } });
    expect(article.status).toBe(200);
    expect(await article.text()).toContain(CHALLENGE_ARTICLE_TEXT);
  });

  test("/cookies lists the cookies the request carried, escaped", async () => {
    const html = await (await get("/cookies", { headers: { cookie: "a=1; b=<2>" } })).text();
    expect(html).toContain('<pre id="cookies">a=1; b=&lt;2&gt;</pre>');
    expect(await (await get("/cookies")).text()).toContain('<pre id="cookies"></pre>');
  });

  test("JavaScript-only content is absent from the served HTML", async () => {
    const delayed = await (await get("/delayed")).text();
    expect(delayed).toContain(JSON.stringify(DELAYED_TEXT));
    expect(delayed).not.toContain(`<p id="delayed">`);
    const scroll = await (await get("/scroll")).text();
    expect(scroll).toContain(`i < start + ${SCROLL_INITIAL_ITEMS}`);
    expect(scroll).not.toContain('class="item"');
    expect(await (await get("/hover")).text()).toContain(`<div id="submenu">${HOVER_TEXT}</div>`);
  });

  test("the interaction pages carry the elements tests drive", async () => {
    const pages = await Promise.all(
      ["/form", "/select", "/keys", "/tall", "/botcheck"].map(async (path) => (await get(path)).text()),
    );
    const [form, select, keys, tall, botcheck] = pages as [string, string, string, string, string];
    expect(form).toContain('id="q"');
    expect(form).toContain('id="go"');
    expect(select).toContain('<option value="M">M</option>');
    expect(keys).toContain('id="box"');
    expect(tall).toContain(`height:${TALL_HEIGHT}px`);
    expect(botcheck).toContain(JSON.stringify(BOTCHECK_CHECKS));
    expect(botcheck).not.toContain('id="verdict"');
  });
});
