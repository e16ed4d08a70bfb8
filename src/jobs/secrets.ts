import { scrubSecret } from "../llm/index.ts";

/**
 * Where a job's input carries the caller's secrets: the LLM key of an extract, batch or agent
 * job, an agent's search key, a crawl's per-page LLM key, the per-page LLM key of a crawl or
 * batch another surface started (src/jobs/surface.ts), and the headers and cookies sent with
 * every page (a session cookie, an Authorization header: a batch's at the top level, a crawl's
 * in scrapeOptions, another surface's in its page fetch). Kept only while the job runs. A path
 * names a string, or a record or array of strings (each value is a secret).
 */
const SECRET_PATHS: readonly (readonly string[])[] = [
  ["llmApiKey"],
  ["searchApiKey"],
  ["scrapeOptions", "llmApiKey"],
  ["surface", "pages", "fetch", "llmApiKey"],
  ["headers"],
  ["cookies"],
  ["scrapeOptions", "headers"],
  ["scrapeOptions", "cookies"],
  ["surface", "pages", "fetch", "headers"],
  ["surface", "pages", "fetch", "cookies"],
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `value` with each secret string changed: a string itself, or each string of a record or array
 * of them; undefined (the field dropped) when it is none of these or `change` drops one.
 */
function changeSecrets(value: unknown, change: (secret: string) => string | undefined): unknown {
  if (typeof value === "string") return change(value);
  if (Array.isArray(value)) {
    const out = value.map((item) => (typeof item === "string" ? change(item) : undefined));
    return out.every((item) => item !== undefined) ? out : undefined;
  }
  if (isRecord(value)) {
    const out: Record<string, string> = {};
    for (const [name, item] of Object.entries(value)) {
      const changed = typeof item === "string" ? change(item) : undefined;
      if (changed === undefined) return undefined;
      out[name] = changed;
    }
    return out;
  }
  return undefined;
}

/**
 * A copy of `input` with each secret string replaced by `change(secret)` (removed when it answers
 * undefined, or when the field is not a string). Objects on the way to a secret are copied, so the caller's object keeps its
 * secrets; anything that is not a record passes through.
 */
export function mapSecrets(input: unknown, change: (secret: string) => string | undefined): unknown {
  if (!isRecord(input)) return input;
  const out: Record<string, unknown> = { ...input };
  for (const path of SECRET_PATHS) {
    let node: Record<string, unknown> | undefined = out;
    for (const key of path.slice(0, -1)) {
      const child: unknown = node?.[key];
      if (!node || !isRecord(child)) {
        node = undefined;
        break;
      }
      const copy = { ...child };
      node[key] = copy;
      node = copy;
    }
    const last = path.at(-1) as string;
    const value = node?.[last];
    if (!node || !Object.hasOwn(node, last)) continue;
    // A secret field of another shape is nothing siphon can use: it is dropped.
    const changed = changeSecrets(value, change);
    if (changed === undefined) delete node[last];
    else node[last] = changed;
  }
  return out;
}

/**
 * A job's input without its secrets: what outlives the job (the runner writes it in the same
 * step that ends the job, whatever the end) and all that any view of it may show. The input
 * itself is left as it was.
 */
export function withoutSecrets(input: unknown): unknown {
  return mapSecrets(input, () => undefined);
}

/** The keys a job's input carries (LLM and search keys), for scrubbing them from anything it reports. */
export function secretsOf(input: unknown): string[] {
  const found: string[] = [];
  // The keys only: a header or cookie value ("application/json", "en-US") is too ordinary a
  // string to take out of a message wherever it appears.
  for (const path of SECRET_PATHS.filter((p) => p.at(-1)?.endsWith("ApiKey"))) {
    let node: unknown = input;
    for (const key of path) node = isRecord(node) ? node[key] : undefined;
    if (typeof node === "string" && node) found.push(node);
  }
  return found;
}

/** A message with every secret of the job's input replaced, whatever echoed it (a vendor's error). */
export function scrubSecrets(message: string, input: unknown): string {
  return secretsOf(input).reduce(
    (text, secret) => scrubSecret(text, secret, Number.MAX_SAFE_INTEGER),
    message,
  );
}
