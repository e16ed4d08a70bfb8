/**
 * Page-shape detectors for the escalation logic: does a fetched page look like a
 * bot wall (escalate to stealth) or like a shell that needs JavaScript (escalate to a
 * browser)? Pure functions over the raw HTML; they never fetch or throw.
 */

/** What the detectors need to know about a fetched page. */
export interface PageShape {
  status: number;
  /** Lower-cased header names, as in FetchedPage. */
  headers: Record<string, string>;
  html: string;
}

/** Whether a page is a bot wall, and whose. */
export interface BotWallVerdict {
  blocked: boolean;
  /** cloudflare, akamai, datadome, perimeterx, imperva, sucuri, aws-waf, recaptcha, hcaptcha, turnstile, generic */
  vendor?: string;
  reason?: string;
}

/** Whether a page must be rendered in a browser to show its content. */
export interface NeedsJsVerdict {
  needsJs: boolean;
  reason?: string;
}

// Challenge and block pages are a sentence or two; an article that mentions "captcha" is far longer.
const SHORT_TEXT = 2000;
const BLOCK_STATUSES = new Set([401, 403, 405, 429, 503]);
// Below this much extracted text a page cannot be what its URL promised.
const ENOUGH_TEXT = 500;
const NEAR_EMPTY = 20;

interface Context {
  status: number;
  headers: Record<string, string>;
  html: string;
  title: string;
  text: string;
  short: boolean;
}

interface Rule {
  vendor: string;
  reason: string;
  matches(page: Context): boolean;
}

const STRONG_PHRASES =
  /verify (that )?you are (a )?human|are you a robot|i'?m not a robot|unusual traffic|checking (if the site connection is secure|your browser)|pardon our interruption|automated (access|requests|queries)|bot (activity )?detected|complete the security check|enable javascript and cookies to continue/i;
const WEAK_PHRASES =
  /access denied|access to this page has been denied|request (was )?blocked|you have been blocked|forbidden|too many requests|rate limit/i;

function hasCaptchaWidget(html: string, kind: "recaptcha" | "hcaptcha" | "turnstile"): boolean {
  if (kind === "recaptcha")
    return /class=["'][^"']*\bg-recaptcha\b|google\.com\/recaptcha\/|recaptcha\/api\.js/i.test(html);
  if (kind === "hcaptcha") return /class=["'][^"']*\bh-captcha\b|hcaptcha\.com\/1\/api\.js/i.test(html);
  return /class=["'][^"']*\bcf-turnstile\b|challenges\.cloudflare\.com\/turnstile/i.test(html);
}

function captchaOnly(kind: "recaptcha" | "hcaptcha" | "turnstile"): Rule {
  return {
    vendor: kind,
    reason: `the page is a ${kind} challenge with little else on it`,
    // A login or contact form may carry a captcha too; it has fields of its own, a wall does not.
    matches: (p) =>
      p.short &&
      hasCaptchaWidget(p.html, kind) &&
      !/<input[^>]+type=["']?(password|email)/i.test(p.html) &&
      (BLOCK_STATUSES.has(p.status) || /captcha|robot|human|verify|security check/i.test(p.text)),
  };
}

/** Ordered: definitive vendor signs first, generic wording last. */
const RULES: Rule[] = [
  {
    vendor: "cloudflare",
    reason: "Cloudflare answered with a challenge (cf-mitigated header)",
    matches: (p) => p.headers["cf-mitigated"]?.toLowerCase() === "challenge",
  },
  {
    vendor: "cloudflare",
    reason: "Cloudflare's browser check (Just a moment... / challenge script)",
    // challenge-platform/scripts/jsd (also as h/b/scripts/jsd) is on ordinary Cloudflare pages;
    // orchestrate and the cf_chl markers only on challenges.
    matches: (p) =>
      p.short &&
      (/^just a moment\.\.\.$/i.test(p.title) ||
        /cf-chl-|__cf_chl_|cf_chl_opt|challenge-platform\/(h\/[a-z]+\/)?orchestrate/i.test(p.html)),
  },
  {
    vendor: "cloudflare",
    reason: "Cloudflare's block page (Attention Required / you have been blocked)",
    matches: (p) =>
      p.short &&
      (/attention required!? \| cloudflare/i.test(p.title) ||
        (/sorry, you have been blocked/i.test(p.text) && /cloudflare/i.test(p.html))),
  },
  {
    vendor: "akamai",
    reason: "Akamai's Access Denied page with a reference number",
    matches: (p) =>
      p.short &&
      /access denied/i.test(`${p.title} ${p.text}`) &&
      (/reference\s*#\s*[0-9a-f]+\.[0-9a-f.]+/i.test(p.text) || /akamaighost/i.test(p.headers.server ?? "")),
  },
  {
    vendor: "datadome",
    reason: "DataDome's captcha page",
    matches: (p) =>
      (p.short && /captcha-delivery\.com/i.test(p.html)) ||
      (BLOCK_STATUSES.has(p.status) && p.short && ("x-datadome" in p.headers || "x-dd-b" in p.headers)),
  },
  {
    vendor: "perimeterx",
    reason: "PerimeterX (HUMAN) press-and-hold challenge",
    matches: (p) =>
      p.short &&
      (/px-captcha|_pxcaptcha|captcha\.px-cdn\.net|px-cloud\.net\/[^"']*captcha/i.test(p.html) ||
        /press (&|and) hold/i.test(p.text) ||
        (BLOCK_STATUSES.has(p.status) && /_pxhd=/i.test(p.headers["set-cookie"] ?? ""))),
  },
  {
    vendor: "imperva",
    reason: "Imperva (Incapsula) incident page",
    // Ordinary Imperva sites load /_Incapsula_Resource scripts too; the block page frames it (with
    // an incident id), says so, or answers a blocking status.
    matches: (p) =>
      p.short &&
      (/incapsula incident id|<iframe[^>]+_incapsula_resource|_incapsula_resource[^"']*incident_id/i.test(
        p.html,
      ) ||
        (BLOCK_STATUSES.has(p.status) && (/_incapsula_resource/i.test(p.html) || "x-iinfo" in p.headers))),
  },
  {
    vendor: "sucuri",
    reason: "Sucuri firewall block page",
    matches: (p) => p.short && /sucuri website firewall/i.test(p.html),
  },
  {
    vendor: "aws-waf",
    reason: "AWS WAF challenge",
    // The integration script (AwsWafIntegration, token.awswaf.com) is on ordinary pages too; a
    // challenge answers 202 (405 for a captcha), carries gokuProps, or reloads once it has a token.
    matches: (p) =>
      /captcha|challenge/i.test(p.headers["x-amzn-waf-action"] ?? "") ||
      (p.short &&
        /awswafintegration|awswaf\.com|gokuProps/i.test(p.html) &&
        (p.status === 202 ||
          p.status === 405 ||
          /gokuProps/.test(p.html) ||
          /getToken\(\)[\s\S]{0,80}reload/.test(p.html))),
  },
  captchaOnly("turnstile"),
  captchaOnly("hcaptcha"),
  captchaOnly("recaptcha"),
  {
    vendor: "generic",
    reason: "a short page asking to prove the visitor is human",
    matches: (p) => p.short && STRONG_PHRASES.test(`${p.title} ${p.text}`),
  },
  {
    vendor: "generic",
    reason: "a short access-denied or rate-limit page",
    matches: (p) => p.short && BLOCK_STATUSES.has(p.status) && WEAK_PHRASES.test(`${p.title} ${p.text}`),
  },
  {
    vendor: "generic",
    reason: "an empty 403 answer",
    matches: (p) => p.status === 403 && p.text.length < 50,
  },
];

function titleOf(html: string): string {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return match ? collapse(decodeEntities(match[1] ?? "")) : "";
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;|&#160;/gi, " ")
    .replace(/&amp;/gi, "&")
    .replace(/&lt;/gi, "<")
    .replace(/&gt;/gi, ">")
    .replace(/&quot;/gi, '"')
    .replace(/&#0?39;|&apos;/gi, "'");
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Roughly what a reader sees without JavaScript: body text minus scripts, styles and markup. */
export function visibleText(html: string): string {
  const stripped = html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<head\b[\s\S]*?<\/head>/gi, " ")
    .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<[^>]*>/g, " ");
  return collapse(decodeEntities(stripped));
}

const BLOCK_ELEMENT = /<(head|script|style|noscript|template|svg)\b/iy;
/** Where visibleText's patterns end each element it drops whole (the head's takes no space). */
const CLOSING: Record<string, RegExp> = Object.fromEntries(
  ["head", "script", "style", "noscript", "template", "svg"].map((name) => [
    name,
    new RegExp(name === "head" ? "</head>" : `</${name}\\s*>`, "gi"),
  ]),
);

/**
 * Whether visibleText(html) is at least `enough` characters long, proven by counting a lower bound
 * of it from the start and stopping there: most pages are articles, proven long within their first
 * few kilobytes, so the whole-page passes of visibleText are left for the short pages walls are.
 * It drops what visibleText drops, in its order (comments first, then the head and script-like
 * elements, then tags), counts no whitespace and an entity as one character; where it cannot be
 * sure (markup left open, a comment opening inside a tag) it stops: false means "not proven".
 */
export function visibleTextAtLeast(html: string, enough: number): boolean {
  let count = 0;
  let i = 0;
  const end = html.length;
  let comment = html.indexOf("<!--");
  /** Where the next comment starts at or after `from` (end when none). */
  const commentFrom = (from: number) => {
    if (comment >= 0 && comment < from) comment = html.indexOf("<!--", from);
    return comment < 0 ? end : comment;
  };
  // visibleText drops the head before script-like elements: a "<head" inside one it would start
  // from there, so a skip that passes over one proves nothing.
  const heads = /<head\b/gi;
  let head = -2;
  const headFrom = (from: number) => {
    if (head !== -1 && head < from) {
      heads.lastIndex = from;
      head = heads.exec(html)?.index ?? -1;
    }
    return head < 0 ? end : head;
  };
  while (i < end) {
    const code = html.charCodeAt(i);
    if (code === 60 /* < */) {
      let next = -1;
      if (commentFrom(i) === i) {
        const close = html.indexOf("-->", i + 4);
        if (close >= 0) next = close + 3;
      } else {
        BLOCK_ELEMENT.lastIndex = i;
        const block = BLOCK_ELEMENT.exec(html);
        const closing = block ? CLOSING[(block[1] as string).toLowerCase()] : undefined;
        let closed = -1;
        // Comments inside the element were dropped before it was matched: its end is the first
        // closing tag outside them.
        for (let from = i; closing; ) {
          closing.lastIndex = from;
          const match = closing.exec(html);
          if (!match) break;
          const inner = commentFrom(from);
          if (inner < match.index) {
            const innerEnd = html.indexOf("-->", inner + 4);
            if (innerEnd < 0) return false;
            from = innerEnd + 3;
            continue;
          }
          closed = match.index + match[0].length;
          break;
        }
        if (closed >= 0) next = closed;
        else {
          // A plain tag (or an element left open, which visibleText treats as one).
          const gt = html.indexOf(">", i);
          if (gt >= 0 && commentFrom(i + 1) > gt) next = gt + 1;
        }
      }
      if (next < 0 || headFrom(i + 1) < next) return false;
      i = next;
      continue;
    }
    if (code === 38 /* & */) {
      const semi = html.indexOf(";", i);
      if (semi > 0 && semi - i <= 8) i = semi;
    } else if (code <= 32 || code === 160) {
      i++;
      continue;
    }
    if (++count >= enough) return true;
    i++;
  }
  return false;
}

/**
 * Tells whether a page is a bot-detection, captcha or access-denied wall rather than the
 * content, judged by its shape (vendor markers, size, wording) and not by status alone:
 * a long article that merely mentions a captcha is not blocked.
 */
export function detectBotWall(page: PageShape): BotWallVerdict {
  const { html } = page;
  // A page proven long is judged by its headers alone (every other rule wants a short page, or a
  // 403 with hardly any text), so its text and title are only worked out when a rule reads them.
  let text = visibleTextAtLeast(html, SHORT_TEXT) ? undefined : visibleText(html);
  let title: string | undefined;
  const context: Context = {
    status: page.status,
    headers: page.headers,
    html,
    get title() {
      title ??= titleOf(html);
      return title;
    },
    get text() {
      text ??= visibleText(html);
      return text;
    },
    short: text !== undefined && text.length < SHORT_TEXT,
  };
  for (const rule of RULES) {
    if (rule.matches(context)) return { blocked: true, vendor: rule.vendor, reason: rule.reason };
  }
  return { blocked: false };
}

const SPA_ROOT =
  /<div\b[^>]*\bid=["']?(root|app|__next|__nuxt|___gatsby|svelte|main-app|application)\b["']?[^>]*>\s*<\/div>|<(app-root|ng-app)\b[^>]*>\s*<\/\2>/i;
const NOSCRIPT_WARNING =
  /<noscript\b[^>]*>[\s\S]*?(enable javascript|javascript (is )?(required|disabled|must be enabled)|requires javascript|turn on javascript|need(s)? javascript|activate javascript)[\s\S]*?<\/noscript>/i;

/**
 * Tells whether the HTML from a plain fetch is a shell that only a browser can fill:
 * an empty body, an empty SPA root, a noscript plea for JavaScript, or far less text than
 * the markup promises. `extractedTextLength` is the length of the text extraction produced;
 * a page with enough of it never needs JavaScript. Call it for HTML answers only.
 */
export function detectNeedsJavaScript(html: string, extractedTextLength: number): NeedsJsVerdict {
  if (html.trim() === "") return { needsJs: true, reason: "the body is empty" };
  if (extractedTextLength >= ENOUGH_TEXT) return { needsJs: false };

  const spa = SPA_ROOT.exec(html);
  if (spa)
    return { needsJs: true, reason: `the page is a JavaScript app shell (empty ${spa[1] ?? spa[2]} root)` };
  if (NOSCRIPT_WARNING.test(html))
    return { needsJs: true, reason: "the page says JavaScript must be enabled" };

  const hasScripts = /<script\b/i.test(html);
  // "Loading..." and similar placeholders are about this long; a real page says more.
  if (hasScripts && extractedTextLength < NEAR_EMPTY && visibleText(html).length < NEAR_EMPTY) {
    return { needsJs: true, reason: "the page has scripts but almost no text" };
  }
  // Big markup with hardly any text is client-rendered: the payload is in scripts and JSON.
  if (html.length > 20_000 && extractedTextLength * 100 < html.length) {
    return { needsJs: true, reason: "the text is far shorter than the markup promises" };
  }
  return { needsJs: false };
}
