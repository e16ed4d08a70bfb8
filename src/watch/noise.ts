import { SiphonError } from "../errors.ts";

/** Which noise a check leaves out before comparing (the stored `ignore` of a watch). */
export interface NoiseRules {
  whitespace: boolean;
  dates: boolean;
  counters: boolean;
  /** The caller's regular expressions, as given. */
  patterns: string[];
}

/** NoiseRules with the caller's patterns compiled. */
export interface CompiledNoiseRules extends Omit<NoiseRules, "patterns"> {
  patterns: RegExp[];
}

const MONTH =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const DAY = "\\d{1,2}(?:st|nd|rd|th)?";
const UNIT = "(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)";

/**
 * Dates, times and relative times, longest forms first so a date-time goes as one. Numeric
 * dates need a four-digit year or slashes, so version numbers (1.2.3) and prices stay.
 */
const DATE_PATTERNS: RegExp[] = [
  /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/gi,
  /\b\d{1,2}([./])\d{1,2}\1\d{4}\b/g,
  /\b\d{4}\/\d{1,2}\/\d{1,2}\b/g,
  /\b\d{1,2}\/\d{1,2}\/\d{2}\b/g,
  new RegExp(`\\b${MONTH}\\.?\\s+${DAY}(?:,?\\s+\\d{4})?\\b`, "gi"),
  new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH}\\.?(?:,?\\s+\\d{4})?\\b`, "gi"),
  new RegExp(`\\b${MONTH}\\.?\\s+\\d{4}\\b`, "gi"),
  /\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b,?/gi,
  /\b(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.?,(?=\s*\d)/gi,
  /\b\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d{1,6})?)?(?:\s*[ap]\.?m\.?(?![a-z]))?/gi,
  /\b\d{1,2}\s*[ap]\.?m\.?(?![a-z])/gi,
  new RegExp(`\\b(?:\\d+|an?|one|a few)\\s+${UNIT}\\s+ago\\b`, "gi"),
  /\b\d+\s*[smhdwy]\s+ago\b/gi,
  /\b(?:just now|today|yesterday|tomorrow)\b/gi,
];

/** Words that follow a number that only counts an audience or activity. */
const COUNTED =
  "(?:page ?views?|views?|visitors?|viewers?|readers?|reads|watching|online|comments?|replies|likes?|shares?|" +
  "followers?|subscribers?|downloads?|visits?|hits|reviews?|ratings?|votes?|upvotes?|stars?|clicks?|plays?|" +
  "listens?|installs?|sold|sign-?ups?)";
const NUMBER = "\\d[\\d,.\\u00a0\\u202f']*(?:\\s?[kmb])?\\+?";

/** Audience counters: the number goes, the words stay ("1,234 views" -> "views"). */
const COUNTER_PATTERNS: [RegExp, string][] = [
  [
    new RegExp(
      `${NUMBER}([*_]{0,2}\\s+(?:(?:people|users|others|visitors)\\s+(?:are\\s+)?(?:watching|viewing|online|reading|here)(?:\\s+now)?|${COUNTED})\\b)`,
      "gi",
    ),
    "$1",
  ],
  [
    new RegExp(
      `\\b((?:${COUNTED}|count|counter|view count|visitor count)[*_]{0,2}\\s*[:#=]\\s*[*_]{0,2})${NUMBER}`,
      "gi",
    ),
    "$1",
  ],
  [/\b(visitor\s*(?:#|no\.?|number)\s*)\d[\d,.]*/gi, "$1"],
];

const WHITESPACE_RUN = /[\s\u00a0\u202f]+/g;

/**
 * The text as a check compares it: the caller's patterns removed, then dates and times, then
 * audience counters, then (with `whitespace`) every line's runs of spaces collapsed, the line
 * trimmed and blank lines dropped. Line breaks stay, so diffs remain line-based.
 */
export function filterNoise(text: string, rules: CompiledNoiseRules): string {
  let out = text.replace(/\r\n?/g, "\n");
  for (const pattern of rules.patterns) out = out.replace(pattern, "");
  if (rules.dates) for (const pattern of DATE_PATTERNS) out = out.replace(pattern, "");
  if (rules.counters) for (const [pattern, keep] of COUNTER_PATTERNS) out = out.replace(pattern, keep);
  if (!rules.whitespace) return out;
  return out
    .split("\n")
    .map((line) => line.replace(WHITESPACE_RUN, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * Whether a pattern quantifies a group that holds a quantifier, as in (a+)+ or (\w*x)*: such
 * patterns can take exponential time on a page that nearly matches.
 */
function nestedQuantifier(source: string): boolean {
  const groups: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") inClass = true;
    else if (ch === "(") groups.push(false);
    else if (ch === ")") {
      const quantified = groups.pop() ?? false;
      const next = source[i + 1];
      const repeated =
        next === "+" || next === "*" || (next === "{" && /^\{\d*,\d*\}/.test(source.slice(i + 1)));
      if (quantified && repeated) return true;
      // A group holding a quantifier makes its enclosing group hold one too.
      if ((quantified || repeated) && groups.length) groups[groups.length - 1] = true;
    } else if ((ch === "+" || ch === "*" || ch === "{") && groups.length) groups[groups.length - 1] = true;
  }
  return false;
}

/**
 * Compiles one ignore pattern: JavaScript regular expression syntax, or `/source/flags` with
 * flags from i, m, s and u; every match is removed. Throws SiphonError invalid_request for a
 * pattern that does not compile or nests quantifiers.
 */
export function compilePattern(pattern: string): RegExp {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  const source = literal ? (literal[1] as string) : pattern;
  const flags = literal ? (literal[2] as string) : "m";
  if (/[^imsu]/.test(flags)) {
    throw new SiphonError("invalid_request", `ignore pattern ${pattern}: flags may only be i, m, s and u`);
  }
  if (nestedQuantifier(source)) {
    throw new SiphonError(
      "invalid_request",
      `ignore pattern ${pattern} repeats a group that itself repeats, which can take exponential time`,
      { hint: "Write it without a quantified group holding a quantifier, e.g. (ab)+ rather than (a+b)+." },
    );
  }
  try {
    return new RegExp(source, `${flags}g`);
  } catch (error) {
    throw new SiphonError("invalid_request", `ignore pattern ${pattern} is not a valid regular expression`, {
      hint: (error as Error).message,
    });
  }
}

/** The rules with their patterns compiled; throws SiphonError invalid_request as compilePattern. */
export function compileNoiseRules(rules: NoiseRules): CompiledNoiseRules {
  return { ...rules, patterns: rules.patterns.map(compilePattern) };
}
