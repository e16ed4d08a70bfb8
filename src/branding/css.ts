/**
 * Just enough CSS for branding: rules with their selectors and declarations (at-rules such as
 * @media are entered, @font-face and @keyframes skipped), custom properties resolved, and
 * colours read into #rrggbb. Not a general CSS parser: what it cannot read it leaves out.
 */

/** One style rule: the selectors it applies to and its declarations (last one wins). */
export interface CssRule {
  selectors: string[];
  declarations: Map<string, string>;
}

/** Parses a stylesheet into its style rules, in source order. */
export function parseCss(css: string): CssRule[] {
  const rules: CssRule[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  let i = 0;
  // Conditional groups open; a counter rather than recursion, as a stylesheet may nest them 50,000 deep.
  let depth = 0;
  // The next "{" and "}" at or after i (text.length: none), found again only once i passes them:
  // searching afresh each step is quadratic when the next "}" is far ahead.
  let nextOpen = -1;
  let nextClose = -1;
  const after = (char: string): number => {
    const at = text.indexOf(char, i);
    return at === -1 ? text.length : at;
  };
  const parseBlocks = (): void => {
    while (i < text.length) {
      if (nextOpen < i) nextOpen = after("{");
      if (nextClose < i) nextClose = after("}");
      if (nextClose < nextOpen) {
        i = nextClose + 1;
        if (depth > 0) depth--;
        continue;
      }
      if (nextOpen === text.length) return;
      const prelude = text.slice(i, nextOpen).trim();
      i = nextOpen + 1;
      if (prelude.startsWith("@")) {
        // Conditional groups hold rules; other at-rules (font-face, keyframes, page) are skipped whole.
        if (/^@(media|supports|layer|container|document)\b/i.test(prelude)) depth++;
        else skipBlock();
        continue;
      }
      const end = nextClose;
      const body = text.slice(i, end);
      i = end + 1;
      if (body.includes("{")) continue; // nested CSS: not read
      const selectors = prelude
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (selectors.length) rules.push({ selectors, declarations: parseDeclarations(body) });
    }
  };
  const skipBlock = () => {
    let level = 1;
    while (i < text.length && level > 0) {
      const ch = text[i++];
      if (ch === "{") level++;
      else if (ch === "}") level--;
    }
  };
  parseBlocks();
  return rules;
}

/** `color: red; background: blue` into a map of lower-case property names to values. */
export function parseDeclarations(body: string): Map<string, string> {
  const declarations = new Map<string, string>();
  for (const part of body.split(/;(?![^(]*\))/)) {
    const colon = part.indexOf(":");
    if (colon <= 0) continue;
    const name = part.slice(0, colon).trim();
    const value = part
      .slice(colon + 1)
      .replace(/!important/i, "")
      .trim();
    if (name && value) declarations.set(name.startsWith("--") ? name : name.toLowerCase(), value);
  }
  return declarations;
}

/** Replaces var(--name, fallback) with the custom property's value, a few levels deep. */
export function resolveVars(value: string, vars: Map<string, string>, depth = 0): string {
  if (depth > 5 || !value.includes("var(")) return value;
  const replaced = value.replace(
    /var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*(?:\([^()]*\))?[^()]*))?\)/g,
    (_m, name, fallback) => {
      return vars.get(name) ?? fallback?.trim() ?? "";
    },
  );
  return resolveVars(replaced, vars, depth + 1);
}

const NAMED: Record<string, string> = {
  black: "#000000",
  white: "#ffffff",
  red: "#ff0000",
  green: "#008000",
  blue: "#0000ff",
  yellow: "#ffff00",
  orange: "#ffa500",
  purple: "#800080",
  gray: "#808080",
  grey: "#808080",
  navy: "#000080",
  teal: "#008080",
  maroon: "#800000",
  silver: "#c0c0c0",
  pink: "#ffc0cb",
  crimson: "#dc143c",
  gold: "#ffd700",
  indigo: "#4b0082",
  tomato: "#ff6347",
  coral: "#ff7f50",
  darkblue: "#00008b",
  royalblue: "#4169e1",
  steelblue: "#4682b4",
  whitesmoke: "#f5f5f5",
  rebeccapurple: "#663399",
};

const hex2 = (n: number) =>
  Math.max(0, Math.min(255, Math.round(n)))
    .toString(16)
    .padStart(2, "0");

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** The first colour in a CSS value as #rrggbb; null for none, for transparent and for mostly transparent ones. */
export function parseColor(value: string): string | null {
  const v = value.trim().toLowerCase();
  const hex = /#([0-9a-f]{3,8})\b/.exec(v);
  if (hex) {
    let h = hex[1] as string;
    if (h.length === 3 || h.length === 4) h = [...h].map((c) => c + c).join("");
    if (h.length === 8 && Number.parseInt(h.slice(6, 8), 16) < 128) return null;
    if (h.length === 6 || h.length === 8) return `#${h.slice(0, 6)}`;
    return null;
  }
  const fn = /(rgba?|hsla?)\(([^)]*)\)/.exec(v);
  if (fn) {
    const parts = (fn[2] as string)
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map((p) => p.trim());
    const num = (p: string | undefined, scale: number) =>
      p === undefined
        ? Number.NaN
        : p.endsWith("%")
          ? (Number.parseFloat(p) / 100) * scale
          : Number.parseFloat(p);
    const alpha = parts[3] === undefined ? 1 : num(parts[3], 1);
    if (alpha < 0.5) return null;
    let rgb: [number, number, number];
    if ((fn[1] as string).startsWith("rgb"))
      rgb = [num(parts[0], 255), num(parts[1], 255), num(parts[2], 255)];
    else rgb = hslToRgb(Number.parseFloat(parts[0] ?? ""), num(parts[1], 1), num(parts[2], 1));
    if (rgb.some((c) => Number.isNaN(c))) return null;
    return `#${rgb.map(hex2).join("")}`;
  }
  for (const word of v.split(/[\s,]+/)) if (NAMED[word]) return NAMED[word] as string;
  return null;
}

/** Relative luminance (0 black .. 1 white) of a #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Whether a colour is a grey (black, white and greys say little about a brand). */
export function isNeutral(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
  ];
  return Math.max(r, g, b) - Math.min(r, g, b) < 24;
}

/** The first family of a font-family stack, unquoted; null for generic families only. */
export function primaryFamily(stack: string): string | null {
  for (const raw of stack.split(",")) {
    const family = raw
      .trim()
      .replace(/^["']|["']$/g, "")
      .trim();
    if (!family || GENERIC_FAMILIES.has(family.toLowerCase()) || family.startsWith("var(")) continue;
    return family;
  }
  return null;
}

/** The families of a stack, unquoted, in order. */
export function familyStack(stack: string): string[] {
  return stack
    .split(",")
    .map((f) =>
      f
        .trim()
        .replace(/^["']|["']$/g, "")
        .trim(),
    )
    .filter(Boolean);
}

const GENERIC_FAMILIES = new Set([
  "serif",
  "sans-serif",
  "monospace",
  "cursive",
  "fantasy",
  "system-ui",
  "ui-sans-serif",
  "ui-serif",
  "ui-monospace",
  "-apple-system",
  "blinkmacsystemfont",
  "inherit",
  "initial",
  "unset",
]);
