import type { CheerioAPI } from "cheerio";
import { loadHtml } from "../extract/dom.ts";
import type { Engines } from "../pipeline/engines.ts";
import {
  type CssRule,
  familyStack,
  isNeutral,
  luminance,
  parseColor,
  parseCss,
  parseDeclarations,
  primaryFamily,
  resolveVars,
} from "./css.ts";
import {
  absolute,
  baseOf,
  brandNameOf,
  findFavicon,
  findLogo,
  googleFontFamilies,
  jsonLdOrganization,
  stylesheetLinks,
} from "./markup.ts";

/**
 * A site's brand as its page shows it, in Firecrawl's branding profile shape: colours, fonts,
 * typography, the primary button, logo, favicon and OpenGraph image. Read from the page's CSS
 * (its <style> blocks, style attributes and linked stylesheets) and markup; no LLM, no
 * rendering of its own. A key is absent when the page does not say it.
 */
export interface BrandingProfile {
  colorScheme: "light" | "dark";
  brandName?: string;
  logo: string | null;
  colors: {
    primary?: string;
    secondary?: string;
    accent?: string;
    background?: string;
    textPrimary?: string;
    textSecondary?: string;
    link?: string;
  };
  fonts: { family: string; role: "body" | "heading" | "code" | "other" }[];
  typography: {
    fontFamilies: { primary?: string; heading?: string; code?: string };
    fontStacks: { primary?: string[]; heading?: string[]; code?: string[] };
    fontSizes: { h1?: string; h2?: string; h3?: string; body?: string };
  };
  spacing: { borderRadius?: string };
  components: {
    buttonPrimary?: { background?: string; textColor?: string; borderColor?: string; borderRadius?: string };
  };
  images: { logo: string | null; favicon: string | null; ogImage: string | null };
}

/** Linked stylesheets read per page, at most, and the bytes read of each. */
export const MAX_STYLESHEETS = 5;
export const MAX_STYLESHEET_BYTES = 512 * 1024;
const STYLESHEET_TIMEOUT_MS = 10_000;

interface Styles {
  rules: CssRule[];
  vars: Map<string, string>;
}

const BUTTON = /(^|[\s>+~.])(button|btn|cta)([\w-]*)|\[type=["']?submit/i;
const PRIMARY_HINT = /primary|cta|main/i;

/** Whether `selector` targets `tag` itself (h1, "main h1", "body", ":root"), not its descendants or a state. */
function targets(selector: string, tag: string): boolean {
  const last = selector.split(/[\s>+~]+/).pop() ?? "";
  return last === tag || last === `${tag}:link` || last === `${tag}:visited`;
}

function lastDeclaration(styles: Styles, match: (selector: string) => boolean, property: string[]) {
  let found: string | undefined;
  for (const rule of styles.rules) {
    if (!rule.selectors.some(match)) continue;
    for (const name of property) {
      const value = rule.declarations.get(name);
      if (value) found = resolveVars(value, styles.vars);
    }
  }
  return found;
}

const colorOf = (value: string | undefined) => (value ? (parseColor(value) ?? undefined) : undefined);

function varColor(styles: Styles, pattern: RegExp): string | undefined {
  for (const [name, value] of styles.vars) {
    if (!pattern.test(name)) continue;
    const color = parseColor(resolveVars(value, styles.vars));
    if (color) return color;
  }
  return undefined;
}

/** Non-grey colours by how often the CSS uses them, most used first. */
function colorRanking(styles: Styles): string[] {
  const counts = new Map<string, number>();
  const count = (value: string, weight: number) => {
    const color = parseColor(resolveVars(value, styles.vars));
    if (color && !isNeutral(color)) counts.set(color, (counts.get(color) ?? 0) + weight);
  };
  for (const rule of styles.rules) {
    for (const [name, value] of rule.declarations) {
      if (/^(color|background|background-color|border-color|border|fill|stroke|outline-color)$/.test(name))
        count(value, BUTTON.test(rule.selectors.join(",")) ? 3 : 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([color]) => color);
}

/** The page's own CSS: <style> blocks and style attributes (as rules on the element's tag and classes). */
function pageStyles($: CheerioAPI, stylesheets: string[]): Styles {
  const rules: CssRule[] = [];
  for (const css of stylesheets) rules.push(...parseCss(css));
  $("style").each((_, el) => {
    rules.push(...parseCss($(el).text()));
  });
  $("[style]").each((_, el) => {
    const node = $(el);
    const tag = (el as { tagName?: string }).tagName?.toLowerCase() ?? "div";
    const classes = (node.attr("class") ?? "").split(/\s+/).filter(Boolean);
    rules.push({
      selectors: [tag, ...classes.map((c) => `${tag}.${c}`)],
      declarations: parseDeclarations(node.attr("style") ?? ""),
    });
  });
  const vars = new Map<string, string>();
  for (const rule of rules) {
    if (!rule.selectors.some((s) => s === ":root" || s === "html" || s === "body" || s === "*")) continue;
    for (const [name, value] of rule.declarations) if (name.startsWith("--")) vars.set(name, value);
  }
  // Custom properties set anywhere else count when the root does not set them.
  for (const rule of rules)
    for (const [name, value] of rule.declarations)
      if (name.startsWith("--") && !vars.has(name)) vars.set(name, value);
  return { rules, vars };
}

/**
 * The branding profile of a page from its HTML and the text of its linked stylesheets (read
 * by the caller; see fetchBranding). Colours: custom properties named primary, secondary,
 * accent, brand, text or muted first; then the primary button's background, the theme-color
 * meta and the most used non-grey colours. Body and link colours, fonts (body, headings, code,
 * Google Fonts), font sizes and the button come from the rules that target those elements.
 */
export function extractBranding(
  page: { html: string; url: string },
  stylesheets: string[] = [],
): BrandingProfile {
  const $ = loadHtml(page.html);
  const base = baseOf($, page.url);
  const styles = pageStyles($, stylesheets);
  const root = (s: string) => targets(s, "body") || targets(s, "html") || s === ":root";
  const body = (s: string) => targets(s, "body");

  const background =
    colorOf(lastDeclaration(styles, body, ["background", "background-color"])) ??
    colorOf(lastDeclaration(styles, root, ["background", "background-color"])) ??
    varColor(styles, /^--(color-)?(background|bg)(-color)?$/);
  const textPrimary =
    colorOf(lastDeclaration(styles, root, ["color"])) ??
    varColor(styles, /^--(color-)?(text|foreground|fg)(-primary)?$/);
  const link = colorOf(lastDeclaration(styles, (s) => targets(s, "a"), ["color"]));

  const buttonRules = styles.rules.filter((r) =>
    r.selectors.some((s) => BUTTON.test(s) && !/:hover|:focus|:active|:disabled/.test(s)),
  );
  const primaryButton =
    buttonRules.find((r) => r.selectors.some((s) => PRIMARY_HINT.test(s))) ?? buttonRules[0];
  const buttonValue = (names: string[]) => {
    if (!primaryButton) return undefined;
    for (const name of names) {
      const value = primaryButton.declarations.get(name);
      if (value) return resolveVars(value, styles.vars);
    }
    return undefined;
  };
  const buttonBackground = colorOf(buttonValue(["background-color", "background"]));
  const themeColor = parseColor($('meta[name="theme-color"]').first().attr("content") ?? "") ?? undefined;

  const ranking = colorRanking(styles);
  // Colours the CSS names by role are theirs; the others are filled from what the CSS uses most.
  const named = {
    primary: varColor(styles, /^--(color-)?(primary|brand)(-color)?$/) ?? varColor(styles, /primary|brand/),
    secondary: varColor(styles, /secondary/),
    accent: varColor(styles, /accent/),
  };
  const taken = new Set(Object.values(named).filter((c): c is string => c !== undefined));
  const pick = (...options: (string | undefined)[]) => {
    for (const option of options) {
      if (option && !taken.has(option)) {
        taken.add(option);
        return option;
      }
    }
    return undefined;
  };
  const usable = (color: string | undefined) => (color && !isNeutral(color) ? color : undefined);
  const primary = named.primary ?? pick(usable(buttonBackground), usable(themeColor), ...ranking);
  const secondary = named.secondary ?? pick(...ranking);
  const accent = named.accent ?? pick(...ranking);
  const textSecondary =
    varColor(styles, /text-(secondary|muted)|muted/) ??
    colorOf(lastDeclaration(styles, (s) => /\.(text-)?muted|\.secondary|^small$/.test(s), ["color"]));

  const fonts: BrandingProfile["fonts"] = [];
  const addFont = (family: string | null | undefined, role: BrandingProfile["fonts"][number]["role"]) => {
    if (family && !fonts.some((f) => f.family.toLowerCase() === family.toLowerCase()))
      fonts.push({ family, role });
  };
  const stackOf = (match: (s: string) => boolean) => {
    const value = lastDeclaration(styles, match, ["font-family", "font"]);
    return value
      ? familyStack(value.includes(",") || !/\d/.test(value) ? value : value.replace(/^.*?\d\S*\s+/, ""))
      : undefined;
  };
  const bodyStack = stackOf(root) ?? stackOf((s) => targets(s, "p"));
  const headingStack = stackOf((s) => ["h1", "h2", "h3"].some((h) => targets(s, h)));
  const codeStack = stackOf((s) => ["code", "pre", "kbd"].some((t) => targets(s, t)));
  const bodyFamily = bodyStack && primaryFamily(bodyStack.join(","));
  const headingFamily = headingStack && primaryFamily(headingStack.join(","));
  const codeFamily = codeStack && primaryFamily(codeStack.join(","));
  addFont(bodyFamily, "body");
  addFont(headingFamily, "heading");
  addFont(codeFamily, "code");
  for (const family of googleFontFamilies($)) addFont(family, "other");
  for (const rule of styles.rules) {
    const value = rule.declarations.get("font-family");
    if (value) addFont(primaryFamily(resolveVars(value, styles.vars)), "other");
  }

  const size = (tag: string) => lastDeclaration(styles, (s) => targets(s, tag), ["font-size"]);
  const fontSizes: BrandingProfile["typography"]["fontSizes"] = {};
  for (const [key, tag] of [
    ["h1", "h1"],
    ["h2", "h2"],
    ["h3", "h3"],
    ["body", "body"],
  ] as const) {
    const value = size(tag);
    if (value) fontSizes[key] = value;
  }

  const colorSchemeMeta = $('meta[name="color-scheme"]').attr("content")?.toLowerCase() ?? "";
  const colorScheme =
    colorSchemeMeta.startsWith("dark") || (background !== undefined && luminance(background) < 0.2)
      ? "dark"
      : "light";

  const org = jsonLdOrganization($);
  const logo = findLogo($, base, org);
  const buttonRadius = buttonValue(["border-radius"]);
  const buttonPrimary = primaryButton
    ? strip({
        background: buttonBackground,
        textColor: colorOf(buttonValue(["color"])),
        borderColor: colorOf(buttonValue(["border-color", "border"])),
        borderRadius: buttonRadius,
      })
    : undefined;

  const profile: BrandingProfile = {
    colorScheme,
    logo,
    colors: strip({ primary, secondary, accent, background, textPrimary, textSecondary, link }),
    fonts,
    typography: {
      fontFamilies: strip({
        primary: bodyFamily ?? undefined,
        heading: headingFamily ?? undefined,
        code: codeFamily ?? undefined,
      }),
      fontStacks: strip({ primary: bodyStack, heading: headingStack, code: codeStack }),
      fontSizes,
    },
    spacing: strip({ borderRadius: buttonRadius ?? lastDeclaration(styles, () => true, ["border-radius"]) }),
    components: buttonPrimary && Object.keys(buttonPrimary).length ? { buttonPrimary } : {},
    images: {
      logo,
      favicon: findFavicon($, base),
      ogImage: absolute($('meta[property="og:image"]').attr("content"), base),
    },
  };
  const brandName = brandNameOf($, org);
  if (brandName) profile.brandName = brandName;
  return profile;
}

/** Drops undefined values, so absent keys are absent rather than undefined. */
function strip<T extends Record<string, unknown>>(object: T): T {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}

/** What fetching stylesheets needs: the engines (SSRF rules apply) and the request's signal. */
export interface BrandingDeps {
  engines: Engines;
  signal?: AbortSignal;
}

/**
 * The branding profile of a fetched page, its linked stylesheets read too: up to
 * MAX_STYLESHEETS of them through the simple engine (so every SSRF rule applies), each cut at
 * MAX_STYLESHEET_BYTES; one that fails is left out.
 */
export async function fetchBranding(
  page: { html: string; url: string },
  deps: BrandingDeps,
): Promise<BrandingProfile> {
  const links = stylesheetLinks(page.html, page.url).slice(0, MAX_STYLESHEETS);
  const engine = links.length ? await deps.engines.get("simple") : undefined;
  const decoder = new TextDecoder();
  const sheets = await Promise.all(
    links.map(async (href) => {
      try {
        const fetched = await engine?.fetch(href, { signal: deps.signal, timeoutMs: STYLESHEET_TIMEOUT_MS });
        if (!fetched || fetched.status >= 400) return "";
        return decoder.decode(fetched.body.subarray(0, MAX_STYLESHEET_BYTES));
      } catch {
        return "";
      }
    }),
  );
  return extractBranding(page, sheets);
}
