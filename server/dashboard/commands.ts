import { DEFAULT_MAX_AGE_MS, type FetchInput } from "../../src/schemas/fetch.ts";

/** Quotes a word for a POSIX shell: as is when it is plainly safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The fields of a fetch that differ from the defaults: what a request needs to send. */
export function fetchBodyOf(input: FetchInput): Record<string, unknown> {
  const body: Record<string, unknown> = { url: input.url };
  if (input.format !== "markdown") body.format = input.format;
  if (input.onlyMainContent) body.onlyMainContent = true;
  if (input.render) body.render = true;
  if (input.wait) body.wait = input.wait;
  if (input.stealth) body.stealth = true;
  if (input.images) body.images = true;
  if (input.includeTags?.length) body.includeTags = input.includeTags;
  if (input.excludeTags?.length) body.excludeTags = input.excludeTags;
  if (input.location) body.location = input.location;
  if (input.maxAge !== DEFAULT_MAX_AGE_MS) body.maxAge = input.maxAge;
  if (!input.storeInCache) body.storeInCache = false;
  return body;
}

export interface CommandTarget {
  /** The server's origin, e.g. http://127.0.0.1:3000. */
  origin: string;
  /** Whether the server needs a key (then the commands read it from $SIPHON_API_KEY). */
  keyNeeded: boolean;
}

/** The same fetch as a curl call of POST /v1/fetch. */
export function curlCommand(input: FetchInput, target: CommandTarget): string {
  const parts = ["curl -s", shellQuote(`${target.origin}/v1/fetch`)];
  if (target.keyNeeded) parts.push(`-H "Authorization: Bearer $SIPHON_API_KEY"`);
  parts.push("-d", shellQuote(JSON.stringify(fetchBodyOf(input))));
  return parts.join(" ");
}

/**
 * The same fetch as a `siphon fetch` command. Against a server that needs a key it names the
 * server (--api-url) and the key comes from SIPHON_API_KEY; a local daemon's command runs the
 * same pipeline in the CLI's own process.
 */
export function siphonCommand(input: FetchInput, target: CommandTarget): string {
  const parts = ["siphon fetch", shellQuote(input.url)];
  if (input.format !== "markdown") parts.push("--format", input.format);
  if (input.onlyMainContent) parts.push("--only-main-content");
  if (input.render) parts.push("--render");
  if (input.wait) parts.push("--wait", String(input.wait));
  if (input.stealth) parts.push("--stealth");
  if (input.images) parts.push("--images");
  if (input.includeTags?.length) parts.push("--include-tags", shellQuote(input.includeTags.join(",")));
  if (input.excludeTags?.length) parts.push("--exclude-tags", shellQuote(input.excludeTags.join(",")));
  if (input.location) parts.push("--location", input.location);
  if (input.maxAge === 0 && !input.storeInCache) parts.push("--no-cache");
  else if (input.maxAge !== DEFAULT_MAX_AGE_MS) parts.push("--max-age", String(input.maxAge));
  if (target.keyNeeded) parts.push("--api-url", shellQuote(target.origin));
  return parts.join(" ");
}

/** The demo's own call: POST /v1/demo needs no key. */
export function demoCurlCommand(origin: string): string {
  return `curl -s ${shellQuote(`${origin}/v1/demo`)} -d '{"kind":"fetch"}'`;
}
