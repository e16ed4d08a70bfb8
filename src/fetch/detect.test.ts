import { describe, expect, test } from "bun:test";
import { extractHtml } from "../extract/index.ts";
import { detectBotWall, detectNeedsJavaScript, visibleText, visibleTextAtLeast } from "./detect.ts";

const page = (html: string, status = 200, headers: Record<string, string> = {}) => ({
  status,
  headers,
  html,
});

const LONG_ARTICLE = `<!doctype html><html><head><title>How CAPTCHAs work</title>
<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script></head>
<body><header><nav><a href="/">Home</a></nav></header><article><h1>How CAPTCHAs work</h1>
${"<p>A captcha asks: are you a robot? Sites use reCAPTCHA and hCaptcha to stop unusual traffic, and access denied pages appear when a firewall blocks a request. This paragraph explains the history of the technique in some detail.</p>\n".repeat(20)}
<div class="g-recaptcha" data-sitekey="x"></div></article></body></html>`;

const CLOUDFLARE_CHALLENGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="390"><style>*{box-sizing:border-box}</style></head>
<body class="no-js"><div class="main-wrapper" role="main"><div class="main-content">
<h1 class="zone-name-title h1">www.example.com</h1><h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2>
<noscript><div id="challenge-error-title">Enable JavaScript and cookies to continue</div></noscript></div></div>
<script>(function(){window._cf_chl_opt={cvId: '2',cZone: "www.example.com",cType: 'managed'};
var cpo = document.createElement('script');cpo.src = '/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8a1b';
document.getElementsByTagName('head')[0].appendChild(cpo);}());</script></body></html>`;

const CLOUDFLARE_BLOCK = `<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head>
<body><div id="cf-wrapper"><div id="cf-error-details" class="cf-error-details-wrapper">
<h1 data-translate="block_headline">Sorry, you have been blocked</h1>
<h2 class="cf-subheadline">You are unable to access example.com</h2>
<p>This website is using a security service to protect itself from online attacks.</p>
<span>Cloudflare Ray ID: <strong>8a1b2c3d4e5f6789</strong></span></div></div></body></html>`;

const AKAMAI = `<HTML><HEAD>
<TITLE>Access Denied</TITLE>
</HEAD><BODY>
<H1>Access Denied</H1>
You don't have permission to access "http&#58;&#47;&#47;www&#46;example&#46;com&#47;" on this server.<P>
Reference&#32;&#35;18&#46;6a4c1002&#46;1700000000&#46;1a2b3c4d
<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;6a4c1002</P>
</BODY>
</HTML>`;

const DATADOME = `<html><head><title>example.com</title><style>#cmsg{animation: A 1.5s;}</style></head>
<body style="margin:0"><p id="cmsg">Please enable JS and disable any ad blocker</p>
<script data-cfasync="false">var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'2211F522B61E269B869FA6EAFFB5E1','t':'fe','s':17434,'e':'abc','host':'geo.captcha-delivery.com'}</script>
<script data-cfasync="false" src="https://ct.captcha-delivery.com/c.js"></script></body></html>`;

const PERIMETERX = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Access to this page has been denied</title></head>
<body><div class="container"><h1>Please verify you are a human</h1>
<p>Press &amp; Hold to confirm you are a human (and not a bot).</p><div id="px-captcha"></div>
<p>Reference ID 5b0e3a70-8a0b-11ee-b9d1-0242ac120002</p></div>
<script src="https://captcha.px-cdn.net/PXu6b0qd2S/captcha.js?a=c&u=5b0e"></script></body></html>`;

const INCAPSULA = `<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW"></head>
<body style="margin:0px;height:100%"><iframe id="main-iframe" src="/_Incapsula_Resource?CWUDNSAI=24&xinfo=10-12345&incident_id=123-456&edet=15"
frameborder=0 width="100%" height="100%">Request unsuccessful. Incapsula incident ID: 123000450123456789-12345678901234567</iframe></body></html>`;

const HCAPTCHA_ONLY = `<!doctype html><html><head><title>Security check</title>
<script src="https://hcaptcha.com/1/api.js" async defer></script></head>
<body><main><h1>One more step</h1><p>Please complete the captcha to continue to the site.</p>
<form method="post" action="/verify"><div class="h-captcha" data-sitekey="10000000-ffff-ffff-ffff-000000000001"></div>
<button type="submit">Continue</button></form></main></body></html>`;

const LOGIN_WITH_RECAPTCHA = `<!doctype html><html><head><title>Sign in</title>
<script src="https://www.google.com/recaptcha/api.js"></script></head><body>
<form><label>Email <input type="email" name="email"></label><label>Password <input type="password" name="pw"></label>
<div class="g-recaptcha" data-sitekey="abc"></div><button>Sign in</button></form><p>Verify you are not a robot.</p></body></html>`;

describe("detectBotWall", () => {
  test.each([
    ["Cloudflare 'Just a moment...' challenge", page(CLOUDFLARE_CHALLENGE, 403), "cloudflare"],
    ["the same challenge served with status 200", page(CLOUDFLARE_CHALLENGE, 200), "cloudflare"],
    [
      "Cloudflare cf-mitigated header alone",
      page("<html></html>", 403, { "cf-mitigated": "challenge" }),
      "cloudflare",
    ],
    ["Cloudflare 'Attention Required' block", page(CLOUDFLARE_BLOCK, 403), "cloudflare"],
    ["Akamai 'Access Denied ... Reference #'", page(AKAMAI, 403, { server: "AkamaiGHost" }), "akamai"],
    ["DataDome captcha-delivery page", page(DATADOME, 403, { "x-datadome": "protected" }), "datadome"],
    [
      "DataDome header on a bare 403",
      page("<html><body></body></html>", 403, { "x-datadome": "protected" }),
      "datadome",
    ],
    ["PerimeterX press-and-hold", page(PERIMETERX, 403), "perimeterx"],
    ["Imperva/Incapsula incident iframe", page(INCAPSULA, 200), "imperva"],
    ["an hCaptcha-only page", page(HCAPTCHA_ONLY, 200), "hcaptcha"],
    [
      "AWS WAF captcha action header",
      page("<html><body>Loading</body></html>", 405, { "x-amzn-waf-action": "captcha" }),
      "aws-waf",
    ],
    [
      "a generic 'unusual traffic' page, even with status 200",
      page(
        "<html><body><h1>Sorry...</h1><p>Our systems have detected unusual traffic from your computer network.</p></body></html>",
      ),
      "generic",
    ],
    [
      "a generic short 403 'Access Denied'",
      page("<html><head><title>403 Forbidden</title></head><body><h1>Access denied</h1></body></html>", 403),
      "generic",
    ],
    [
      "a short 429 'Too Many Requests'",
      page("<html><body><h1>Too Many Requests</h1><p>Slow down.</p></body></html>", 429),
      "generic",
    ],
    ["an empty 403", page("", 403), "generic"],
  ])("%s is blocked (%s)", (_name, shape, vendor) => {
    const verdict = detectBotWall(shape);
    expect(verdict.blocked).toBe(true);
    expect(verdict.vendor).toBe(vendor);
    expect(verdict.reason).toBeTruthy();
  });

  test.each([
    ["a long article that talks about captchas and robots", page(LONG_ARTICLE, 200)],
    ["the same long article even with a 403", page(LONG_ARTICLE, 403)],
    ["a login form that carries a reCAPTCHA", page(LOGIN_WITH_RECAPTCHA, 200)],
    [
      "a short normal page",
      page("<html><body><h1>Example Domain</h1><p>For use in examples.</p></body></html>"),
    ],
    ["a 404 page", page("<html><body><h1>Page not found</h1></body></html>", 404)],
    ["a Cloudflare site with the normal analytics script", page(LONG_ARTICLE.replace("captcha", "cat"), 200)],
  ])("%s is not blocked", (_name, shape) => {
    expect(detectBotWall(shape)).toEqual({ blocked: false });
  });
});

/** Ordinary prose with no wall wording: well over the 2,000 visible characters a wall page stays under. */
const PROSE = `<p>${"The river path was resurfaced this spring, and the council plans to add benches and lighting along the stretch between the two bridges. ".repeat(25)}</p>`;

interface WallWording {
  name: string;
  vendor: string;
  status: number;
  headers?: Record<string, string>;
  title: string;
  head?: string;
  body: string;
}

/** The same title, head and wall wording or markers, as a page of its own or inside a long article. */
const shortPage = (w: WallWording) =>
  `<!doctype html><html><head><title>${w.title}</title>${w.head ?? ""}</head><body>${w.body}</body></html>`;
const longArticle = (w: WallWording) =>
  `<!doctype html><html><head><title>${w.title}</title>${w.head ?? ""}</head><body><article><h1>${w.title}</h1>${w.body}${PROSE}</article></body></html>`;

// Every rule of detect.ts that only fires on a short page, with the wording or marker it looks for.
const SHORT_ONLY_RULES: WallWording[] = [
  {
    name: "Cloudflare's 'Just a moment...' title",
    vendor: "cloudflare",
    status: 200,
    title: "Just a moment...",
    body: "<p>Please wait while the page loads.</p>",
  },
  {
    name: "Cloudflare's challenge script markers",
    vendor: "cloudflare",
    status: 200,
    title: "example.com",
    head: `<script>window._cf_chl_opt={cType:'managed'};</script><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8a1b"></script>`,
    body: "<p>One moment, please.</p>",
  },
  {
    name: "Cloudflare's 'Attention Required!' block title",
    vendor: "cloudflare",
    status: 403,
    title: "Attention Required! | Cloudflare",
    body: "<p>You are unable to access example.com.</p>",
  },
  {
    name: "Cloudflare's 'Sorry, you have been blocked' wording",
    vendor: "cloudflare",
    status: 403,
    title: "example.com",
    body: "<h2>Sorry, you have been blocked</h2><p>Performance &amp; security by Cloudflare</p>",
  },
  {
    name: "Akamai's Access Denied with a reference number",
    vendor: "akamai",
    status: 403,
    title: "Access Denied",
    body: "<h1>Access Denied</h1><p>Reference #18.6a4c1002.1700000000.1a2b3c4d</p>",
  },
  {
    name: "Akamai's Access Denied from an AkamaiGHost server",
    vendor: "akamai",
    status: 403,
    headers: { server: "AkamaiGHost" },
    title: "Access Denied",
    body: "<p>You don't have permission to access this page.</p>",
  },
  {
    name: "DataDome's captcha-delivery script",
    vendor: "datadome",
    status: 200,
    title: "example.com",
    body: `<p>Please enable JS and disable any ad blocker</p><script src="https://ct.captcha-delivery.com/c.js"></script>`,
  },
  {
    name: "DataDome's header on a block status",
    vendor: "datadome",
    status: 403,
    headers: { "x-datadome": "protected" },
    title: "example.com",
    body: "<p>Please wait.</p>",
  },
  {
    name: "PerimeterX's px-captcha element",
    vendor: "perimeterx",
    status: 200,
    title: "example.com",
    body: `<div id="px-captcha"></div>`,
  },
  {
    name: "PerimeterX's 'Press & Hold' wording",
    vendor: "perimeterx",
    status: 200,
    title: "example.com",
    body: "<p>Press &amp; Hold to continue.</p>",
  },
  {
    name: "PerimeterX's _pxhd cookie on a block status",
    vendor: "perimeterx",
    status: 403,
    headers: { "set-cookie": "_pxhd=abc123; path=/" },
    title: "example.com",
    body: "<p>Please wait.</p>",
  },
  {
    name: "Imperva's _Incapsula_Resource frame",
    vendor: "imperva",
    status: 200,
    title: "example.com",
    body: `<iframe src="/_Incapsula_Resource?CWUDNSAI=24&amp;incident_id=123-456"></iframe>`,
  },
  {
    name: "Imperva's x-iinfo header on a block status",
    vendor: "imperva",
    status: 403,
    headers: { "x-iinfo": "10-12345-0 0NNN RT(1700000000000 0)" },
    title: "example.com",
    body: "<p>Please wait.</p>",
  },
  {
    name: "Sucuri's firewall wording",
    vendor: "sucuri",
    status: 403,
    title: "Sucuri WebSite Firewall - Access Denied",
    body: "<h2>Sucuri WebSite Firewall - Access Denied</h2>",
  },
  {
    name: "AWS WAF's integration script",
    vendor: "aws-waf",
    status: 202,
    title: "example.com",
    body: "<script>AwsWafIntegration.getToken().then(() => location.reload());</script><p>Loading.</p>",
  },
  {
    name: "a Turnstile widget",
    vendor: "turnstile",
    status: 200,
    title: "example.com",
    body: `<p>Please verify to continue.</p><div class="cf-turnstile" data-sitekey="x"></div>`,
  },
  {
    name: "an hCaptcha widget",
    vendor: "hcaptcha",
    status: 200,
    title: "example.com",
    body: `<p>Please verify to continue.</p><div class="h-captcha" data-sitekey="x"></div>`,
  },
  {
    name: "a reCAPTCHA widget",
    vendor: "recaptcha",
    status: 200,
    title: "example.com",
    body: `<p>Please verify to continue.</p><div class="g-recaptcha" data-sitekey="x"></div>`,
  },
  {
    name: "'unusual traffic' wording",
    vendor: "generic",
    status: 200,
    title: "Sorry...",
    body: "<p>Our systems have detected unusual traffic from your computer network.</p>",
  },
  {
    name: "'too many requests' wording on a 429",
    vendor: "generic",
    status: 429,
    title: "Too Many Requests",
    body: "<p>Too many requests. Slow down.</p>",
  },
];

describe("detectBotWall: wall wording blocks only a short page", () => {
  for (const wording of SHORT_ONLY_RULES) {
    test(`${wording.name}: a short page is blocked (${wording.vendor}), a long article is not`, () => {
      const { status, headers = {} } = wording;
      const wall = detectBotWall({ status, headers, html: shortPage(wording) });
      expect(wall).toMatchObject({ blocked: true, vendor: wording.vendor });
      expect(detectBotWall({ status, headers, html: longArticle(wording) })).toEqual({ blocked: false });
    });
  }
});

/** An ordinary long article, as a site behind a bot-detection service serves it to a real browser. */
const articleLoading = (script: string) => `<!doctype html><html><head><title>River path reopens</title>
${script}</head><body><header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>
<main><article><h1>River path reopens</h1>${PROSE}</article></main><footer><p>© 2025 The Fixture Times</p></footer></body></html>`;

describe("an ordinary article that loads a bot-detection script", () => {
  test.each([
    [
      "PerimeterX",
      `<script>window._pxAppId = "PXabc123";</script><script src="https://client.px-cloud.net/PXabc123/main.min.js" async></script>`,
    ],
    [
      "DataDome",
      `<script>window.ddjskey = "0123456789ABCDEF"; window.ddoptions = {};</script><script src="https://js.datadome.co/tags.js" async></script>`,
    ],
    ["Cloudflare", `<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>`],
  ])("%s: not blocked and needs no JavaScript", (_vendor, script) => {
    const html = articleLoading(script);
    expect(detectBotWall({ status: 200, headers: {}, html })).toEqual({ blocked: false });
    const extracted = extractHtml(html, "https://news.example/river-path", {
      format: "markdown",
      onlyMainContent: false,
      images: false,
    });
    expect(extracted.content).toContain("The river path was resurfaced this spring");
    expect(detectNeedsJavaScript(html, extracted.content.length)).toEqual({ needsJs: false });
  });
});

/** A short ordinary page (well under the wall-size threshold) carrying a vendor's everyday script. */
const shortPageLoading = (script: string) => `<!doctype html><html><head><title>Opening hours</title>
${script}</head><body><main><h1>Opening hours</h1><p>The library is open from nine to five on weekdays
and from ten to one on Saturdays. It is closed on Sundays and public holidays.</p></main></body></html>`;

describe("a short ordinary page that loads a bot-detection script is not a wall", () => {
  test.each([
    [
      "Cloudflare JSD (h/b path)",
      `<script src="/cdn-cgi/challenge-platform/h/b/scripts/jsd/a1b2c3/main.js"></script>`,
    ],
    ["Imperva", `<script src="/_Incapsula_Resource?SWJIYLWA=719d34d31c8e3a6e6fffd425f7e032f3"></script>`],
    [
      "AWS WAF integration",
      `<script src="https://a1b2c3.token.awswaf.com/a1b2c3/d4e5f6/challenge.js" defer></script><script>AwsWafIntegration.saveReferrer();</script>`,
    ],
  ])("%s", (_vendor, script) => {
    expect(detectBotWall({ status: 200, headers: {}, html: shortPageLoading(script) })).toEqual({
      blocked: false,
    });
  });

  test("the same vendors' real challenge pages are walls", () => {
    const imperva = `<html><head><meta name="robots" content="noindex"></head><body><iframe src="/_Incapsula_Resource?CWUDNSAI=24&xinfo=1-2-3"></iframe>Request unsuccessful. Incapsula incident ID: 1234-5678</body></html>`;
    expect(detectBotWall({ status: 200, headers: {}, html: imperva })).toMatchObject({
      blocked: true,
      vendor: "imperva",
    });
    const aws = `<html><head><title></title><script>window.gokuProps = {"key":"AQID","iv":"A6we","context":"x"};</script><script src="https://a1b2.token.awswaf.com/a1b2/challenge.js"></script></head><body><div id="challenge-container"></div><noscript>JavaScript is disabled</noscript></body></html>`;
    expect(detectBotWall({ status: 202, headers: {}, html: aws })).toMatchObject({
      blocked: true,
      vendor: "aws-waf",
    });
  });
});

describe("detectNeedsJavaScript", () => {
  const bundle = `<script src="/static/js/main.8f2a1c.js"></script>`;

  test.each([
    ["an empty body", "", 0, "empty"],
    ["whitespace only", "  \n ", 0, "empty"],
    [
      "a React root",
      `<!doctype html><html><head>${bundle}</head><body><div id="root"></div></body></html>`,
      0,
      "root",
    ],
    ["a Vue app root", `<html><body><div id="app"></div>${bundle}</body></html>`, 0, "app"],
    [
      "an empty Next.js root",
      `<html><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{}</script></body></html>`,
      0,
      "__next",
    ],
    ["an Angular root", `<html><body><app-root></app-root>${bundle}</body></html>`, 0, "app-root"],
    [
      "a noscript plea",
      `<html><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="mount"></div>${bundle}</body></html>`,
      0,
      "JavaScript must be enabled",
    ],
    [
      "scripts and no text",
      `<html><head>${bundle}</head><body><div class="x"></div></body></html>`,
      0,
      "almost no text",
    ],
    [
      "huge markup with almost no text",
      `<html><body><div class="shell">Loading…</div><footer>${"© 2025 Example Corp. All rights reserved. ".repeat(3)}</footer><script>window.__STATE__=${JSON.stringify({ items: "x".repeat(40_000) })}</script></body></html>`,
      130,
      "far shorter",
    ],
  ])("%s needs JavaScript", (_name, html, textLength, reason) => {
    const verdict = detectNeedsJavaScript(html, textLength);
    expect(verdict.needsJs).toBe(true);
    expect(verdict.reason).toContain(reason);
  });

  test.each([
    [
      "a server-rendered article",
      `<html><body><div id="root"><article>${"<p>Real words here.</p>".repeat(60)}</article></div></body></html>`,
      1100,
    ],
    [
      "an SSR page with an empty portal root and a polite noscript",
      `<html><body><noscript>Please enable JavaScript for the best experience.</noscript><main>${"<p>Content.</p>".repeat(80)}</main><div id="app"></div></body></html>`,
      800,
    ],
    ["a tiny static page without scripts", "<html><body><p>Hello, world.</p></body></html>", 13],
    [
      "a short page that is just short",
      `<html><body><h1>Contact</h1><p>Write to us at hello@example.com</p>${bundle}</body></html>`,
      42,
    ],
  ])("%s does not", (_name, html, textLength) => {
    expect(detectNeedsJavaScript(html, textLength)).toEqual({ needsJs: false });
  });
});

describe("visibleTextAtLeast: the bot-wall check's fast path", () => {
  const filler = (n: number) => "word ".repeat(n);
  // Markup where counting from the start meets text visibleText drops later, by its order of passes.
  const TRICKY = [
    `<html><head><title>t</title></head><body><script>a = "<!-- </script> -->"; ${filler(300)}</script>${filler(5)}</body></html>`,
    `<body><script>document.write("<head>")</script>${filler(600)}</head><p>${filler(5)}</p></body>`,
    `<body><a title="<!--">${filler(600)}</a> --> <p>x</p></body>`,
    `<body><p>${filler(100)}</p><style>p{}</style >${filler(100)}<svg><!-- </svg> -->${filler(700)}</svg></body>`,
    `<body><p>&amp;&lt;&#160;&nbsp;&bogus; ${"&amp;".repeat(3000)}</p></body>`,
    `<body><p>${filler(50)} <!-- never closed ${filler(900)}</p></body>`,
    `<body><p>${filler(50)}</p><script>${filler(900)}`,
    `<body>${"<div>".repeat(2000)}${filler(10)}<head>${filler(900)}</head>${filler(3)}</body>`,
    `<body>${filler(1000)} a < b ${filler(1000)}</body>`,
  ];

  test("never claims more text than visibleText finds", async () => {
    const dir = new URL("../../test/fixtures/pages/", import.meta.url).pathname;
    const pages = [...TRICKY];
    for (const name of new Bun.Glob("**/*.html").scanSync(dir)) pages.push(await Bun.file(dir + name).text());
    for (const html of pages) {
      const length = visibleText(html).length;
      for (const enough of [1, 10, 50, 500, 2000, 5000]) {
        if (visibleTextAtLeast(html, enough))
          expect({ enough, length }).toEqual({ enough, length: Math.max(length, enough) });
      }
    }
  });

  test("proves an ordinary article long early", () => {
    const article = `<html><head><title>A</title><script>var x = 1;</script></head><body><nav>Home</nav><article>${"<p>A paragraph of an article that goes on for a while, as articles do.</p>".repeat(60)}</article></body></html>`;
    expect(visibleTextAtLeast(article, 2000)).toBe(true);
    expect(visibleTextAtLeast(LONG_ARTICLE, 2000)).toBe(true);
    expect(visibleTextAtLeast(CLOUDFLARE_CHALLENGE, 2000)).toBe(false);
  });
});
