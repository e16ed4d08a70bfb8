import { describe, expect, test } from "bun:test";
import { parseColor, parseCss, resolveVars } from "./css.ts";
import { extractBranding } from "./index.ts";
import { stylesheetLinks } from "./markup.ts";

const PAGE = `<!doctype html><html lang="en"><head>
<title>Pricing - Acme Tools</title>
<meta name="theme-color" content="#123456">
<meta property="og:image" content="/og.png">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/css/site.css">
<link rel="stylesheet" href="/print.css" media="print">
<link href="https://fonts.googleapis.com/css2?family=Inter:wght@400;700&family=Roboto+Mono&display=swap" rel="stylesheet">
<style>
  /* brand */
  :root { --brand-primary: #e4572e; --accent: hsl(200, 80%, 40%); --text-muted: #6b7280; }
  body { background: #0b1020; color: rgb(240, 240, 240); font-family: "Inter", system-ui, sans-serif; font-size: 16px; }
  h1, h2 { font-family: 'Playfair Display', Georgia, serif; font-size: 2.5rem; }
  @media (min-width: 600px) { a { color: var(--accent); } }
  @font-face { font-family: Ignored; src: url(x.woff2); }
  .btn-primary { background-color: var(--brand-primary); color: #fff; border-radius: 8px; }
  .btn-primary:hover { background-color: #000; }
  pre, code { font-family: "Roboto Mono", monospace; }
</style></head>
<body><header><a href="/"><img class="site-logo" src="/img/acme.svg" alt="Acme"></a></header>
<main><h1>Pricing</h1><button class="btn-primary">Buy</button></main></body></html>`;

describe("extractBranding", () => {
  test("reads colours, fonts, typography, the primary button and images from the page's CSS and markup", () => {
    const profile = extractBranding({ html: PAGE, url: "https://acme.example/pricing" });
    expect(profile.colorScheme).toBe("dark");
    expect(profile.brandName).toBe("Acme Tools");
    expect(profile.colors).toMatchObject({
      primary: "#e4572e",
      accent: "#1481b8",
      background: "#0b1020",
      textPrimary: "#f0f0f0",
      textSecondary: "#6b7280",
      link: "#1481b8",
    });
    expect(profile.typography.fontFamilies).toEqual({
      primary: "Inter",
      heading: "Playfair Display",
      code: "Roboto Mono",
    });
    expect(profile.typography.fontSizes).toEqual({ h1: "2.5rem", h2: "2.5rem", body: "16px" });
    expect(profile.fonts.map((f) => f.family)).toEqual(["Inter", "Playfair Display", "Roboto Mono"]);
    expect(profile.components.buttonPrimary).toEqual({
      background: "#e4572e",
      textColor: "#ffffff",
      borderRadius: "8px",
    });
    expect(profile.images).toEqual({
      logo: "https://acme.example/img/acme.svg",
      favicon: "https://acme.example/favicon.svg",
      ogImage: "https://acme.example/og.png",
    });
    expect(profile.logo).toBe("https://acme.example/img/acme.svg");
  });

  test("linked stylesheets count like inline CSS; a page without CSS is light with no colours", () => {
    const html =
      '<html><head><title>Plain</title></head><body><p>Hi</p><a class="button" href="/x">Go</a></body></html>';
    const plain = extractBranding({ html, url: "https://plain.example/" });
    expect(plain.colorScheme).toBe("light");
    expect(plain.colors).toEqual({});
    expect(plain.images).toEqual({ logo: null, favicon: null, ogImage: null });
    const styled = extractBranding({ html, url: "https://plain.example/" }, [
      "body{background:#fff;color:#222} .button{background:#0a7d3b;color:white}",
    ]);
    expect(styled.colors).toMatchObject({
      primary: "#0a7d3b",
      background: "#ffffff",
      textPrimary: "#222222",
    });
  });
});

describe("css helpers", () => {
  test("stylesheet links skip print-only sheets and resolve against the page", () => {
    expect(stylesheetLinks(PAGE, "https://acme.example/pricing")).toEqual([
      "https://acme.example/css/site.css",
      "https://fonts.googleapis.com/css2?family=Inter:wght@400;700&family=Roboto+Mono&display=swap",
    ]);
  });

  test("colours in every spelling, transparent ones left out, var() resolved", () => {
    expect(parseColor("#abc")).toBe("#aabbcc");
    expect(parseColor("rgba(0, 128, 255, 0.9)")).toBe("#0080ff");
    expect(parseColor("rgb(0 0 0 / 10%)")).toBeNull();
    expect(parseColor("transparent")).toBeNull();
    expect(parseColor("1px solid navy")).toBe("#000080");
    expect(resolveVars("var(--a, red)", new Map([["--b", "blue"]]))).toBe("red");
    expect(parseCss("@media print { a { color: red } } p { margin: 0 }").map((r) => r.selectors)).toEqual([
      ["a"],
      ["p"],
    ]);
  });

  test("a stylesheet nesting conditional groups 100,000 deep is read, not overflowed", () => {
    const css = `${"@media all{".repeat(100_000)}.brand{color:#123456}${"}".repeat(100_000)} p{margin:0}`;
    expect(parseCss(css).map((r) => r.selectors)).toEqual([[".brand"], ["p"]]);
  });
});
