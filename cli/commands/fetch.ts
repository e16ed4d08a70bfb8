import { existsSync, readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { defineCommand } from "citty";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import type { GivenDocument } from "../../src/pipeline/document.ts";
import { parseDocument } from "../../src/pipeline/parse.ts";
import { scrape } from "../../src/pipeline/scrape.ts";
import { splitList } from "../../src/schemas/common.ts";
import { InlineExtract } from "../../src/schemas/extract-spec.ts";
import { FetchBody, type FetchInput, type FetchResult } from "../../src/schemas/fetch.ts";
import { PARSE_OPTIONS } from "../../src/schemas/parse.ts";
import { browserFlagOptions, defined } from "../browser-flags.ts";
import { chunkArgs, chunkEntry, chunkLines, withChunks } from "../chunk-flags.ts";
import { type CliContext, onePageOverrides, openContext } from "../context.ts";
import { llmArgs, llmRequestFields } from "../llm-flags.ts";
import {
  checkOutputPath,
  errorJson,
  log,
  reportError,
  setQuiet,
  writeOutputFile,
  writeStdout,
} from "../output.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";
import { nonEmpty, schemaFlags, validateFlags } from "../schema-flags.ts";
import { many } from "../strict-args.ts";

/** --formats: a comma-separated list of names, or a JSON array of entries as the API takes them. */
function formatsFlag(text: string): unknown {
  return text.trim().startsWith("[") ? jsonFlag(text, "formats") : splitList(text);
}

/** What the fetch gives: POST /v1/fetch's format and formats. */
const outputFlags = schemaFlags(FetchBody, {
  format: { description: "markdown (default), text or html", valueHint: "fmt" },
  formats: {
    description:
      "Outputs from one fetch (in --json), comma-separated: markdown, text, html, rawHtml, links, images, " +
      "screenshot, summary, branding, changeTracking; or a JSON array as POST /v1/fetch takes it, " +
      'with the objects changeTracking, attributes, highlights and question (\'[{"type":"question","question":"…"}]\')',
    valueHint: "list|json",
    parse: formatsFlag,
  },
});

/** How the page is fetched: the rest of POST /v1/fetch's fields. */
const pageFlags = schemaFlags(FetchBody, {
  timeout: {
    description: "ms for the whole fetch, summary and extraction included (1000-300000)",
    valueHint: "ms",
  },
  onlyMainContent: { description: "Keep only the main content (article body)" },
  includeTags: { description: "Tags or CSS selectors to keep" },
  excludeTags: { description: "Tags or CSS selectors to remove" },
  images: { description: "List the content's images (in --json output)" },
  location: { description: "Country code (ISO 3166-1 alpha-2) for Accept-Language", valueHint: "cc" },
  languages: { description: "Language preferences, e.g. de-CH,fr" },
  maxAge: {
    description: "Accept a cached result at most this old, ms (0 = bypass; default 2 days)",
    valueHint: "ms",
  },
  lockdown: { description: "Answer from the cache only, never reach the site (a miss exits 1)" },
  minAge: {
    description: "Answer from a cached copy at least this old only, never reach the site",
    valueHint: "ms",
  },
  render: { description: "Force browser rendering" },
  wait: { description: "ms to wait after load (implies --render)", valueHint: "ms" },
  siteMarkdown: {
    description:
      "Use the site's own markdown twin when it offers one (Accept: text/markdown, <link rel=alternate>, Link header); --no-site-markdown always extracts",
  },
  ...browserFlagOptions,
});

/** What to extract into json: POST /v1/fetch's extract, flag by flag. */
const extractFlags = schemaFlags(
  InlineExtract,
  {
    schema: {
      name: "extract-schema",
      description:
        "Extract into json (in --json): a JSON Schema, inline or @file (filled by --llm, else from the page's structured data)",
      valueHint: "json|@file",
      parse: (text) => jsonFlag(text, "extract-schema"),
    },
    prompt: {
      name: "extract-prompt",
      description: "Extract into json what this says (needs --llm)",
      valueHint: "text",
    },
    selectors: {
      name: "extract-selectors",
      description: 'Extract into json by CSS selector, no LLM: \'{"name":"h1"}\' inline or @file',
      valueHint: "json|@file",
      parse: (text) => jsonFlag(text, "extract-selectors"),
    },
  },
  "extract",
);

const flagSets = [outputFlags, pageFlags, extractFlags];

const args = {
  url: many({
    type: "positional",
    required: false,
    description: "URL(s) to fetch; - reads one URL per line from stdin",
  }),
  ...outputFlags.args,
  ...extractFlags.args,
  ...llmArgs,
  ...pageFlags.args,
  ...chunkArgs,
  // Not a field: maxAge 0 and storeInCache false together.
  cache: {
    type: "boolean",
    default: true,
    description: "Use the cache",
    negativeDescription: "Bypass the cache: neither read nor write it",
  },
  json: {
    type: "boolean",
    description: "Print the whole Fetch result as JSON (JSON Lines for several URLs)",
  },
  output: {
    type: "string",
    alias: "o",
    description: "Write the output to FILE instead of stdout",
    valueHint: "file",
  },
  quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  "stdin-html": {
    type: "boolean",
    description: "With -: read one HTML document from stdin (instead of URLs) and extract it",
  },
  ...remoteArgs,
} as const;

type Args = Record<string, string | boolean | string[] | undefined>;

/** A flag holding JSON: inline, or @file (a path without @ is read too when the text is no JSON). */
function jsonFlag(value: string, flag: string): unknown {
  const text = value.trim();
  let source = text;
  if (text.startsWith("@")) source = readFlagFile(text.slice(1), flag);
  else if (!/^[[{]/.test(text) && existsSync(text)) source = readFlagFile(text, flag);
  try {
    return JSON.parse(source);
  } catch (error) {
    throw new SiphonError("invalid_request", `--${flag} is not JSON: ${(error as Error).message}`, {
      hint: `Pass JSON inline ('{…}') or the path of a file holding it as @file.`,
    });
  }
}

function readFlagFile(path: string, flag: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    throw new SiphonError("invalid_request", `--${flag}: cannot read the file "${path}"`);
  }
}

/**
 * The flags as POST /v1/fetch's body for `url`, checked by its schema; a bad value is named by
 * its flag. --no-cache neither reads nor writes the cache, whatever --max-age says.
 * Throws SiphonError invalid_request.
 */
function inputFor(url: string, a: Args): FetchInput {
  const noCache = a.cache === false ? { maxAge: 0, storeInCache: false } : {};
  const output = outputFlags.read(a);
  const chunks = chunkEntry(a);
  const body = {
    url,
    ...output,
    ...(chunks ? { formats: withChunks(output.formats, chunks) } : {}),
    ...pageFlags.read(a),
    extract: nonEmpty(extractFlags.read(a)),
    ...llmRequestFields(a),
    ...noCache,
  };
  return validateFlags(FetchBody, defined(body), flagSets);
}

async function readUrls(positional: string[]): Promise<string[]> {
  const urls: string[] = [];
  for (const item of positional) {
    if (item !== "-") urls.push(item);
    else {
      const text = await new Response(Bun.stdin.stream()).text();
      urls.push(
        ...text
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter((l) => l && !l.startsWith("#")),
      );
    }
  }
  return urls;
}

function render(result: FetchResult, json: boolean, many: boolean, chunks: boolean): string {
  if (json) return many ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`;
  if (chunks) return chunkLines(result);
  const content = result.content.endsWith("\n") ? result.content : `${result.content}\n`;
  return many ? `<!-- ${result.url} -->\n${content}\n` : content;
}

type Fetcher = (input: FetchInput) => Promise<FetchResult>;

/** A positional that names a local file rather than a URL: no scheme, and a file is there. */
const isLocalFile = (item: string) =>
  !/^[a-z][a-z0-9+.-]*:/i.test(item) && existsSync(item) && statSync(item).isFile();

/**
 * The documents to read instead of URLs to fetch: local files named as positionals, or with
 * --stdin-html the HTML on stdin (`-`); undefined when the positionals are URLs. Mixing the two is
 * refused (files are read, URLs fetched: say which).
 */
async function readDocuments(positional: string[], stdinHtml: boolean): Promise<GivenDocument[] | undefined> {
  if (stdinHtml) {
    if (positional.length !== 1 || positional[0] !== "-") {
      throw new SiphonError(
        "invalid_request",
        "--stdin-html reads one document from stdin: give - and nothing else",
      );
    }
    const body = new Uint8Array(await new Response(Bun.stdin.stream()).arrayBuffer());
    return [{ body, filename: "stdin.html", contentType: "text/html" }];
  }
  const files = positional.filter(isLocalFile);
  if (files.length === 0) return undefined;
  if (files.length !== positional.length) {
    throw new SiphonError("invalid_request", "Give either local files or URLs, not both", {
      hint: "Run siphon fetch once for the files and once for the URLs.",
    });
  }
  return files.map((path) => ({ body: new Uint8Array(readFileSync(path)), filename: basename(path) }));
}

/** Reads each document as a page (parse), here or on the server of --api-url, and prints it as fetch does. */
async function parseAll(documents: GivenDocument[], a: Args): Promise<number> {
  const remote = remoteOf(a, loadConfig());
  const parseOne = async (doc: GivenDocument): Promise<FetchResult> => {
    const input = inputFor(`file:///${encodeURIComponent(doc.filename)}`, a);
    if (remote) {
      const body = { ...pick(input, PARSE_OPTIONS), filename: doc.filename, contentType: doc.contentType };
      return callApi<FetchResult>(remote, "POST", "/v1/parse", {
        ...body,
        data: Buffer.from(doc.body).toString("base64"),
      });
    }
    const ctx = await openContext(onePageOverrides(), { storeOnUse: true });
    try {
      const options = { filename: doc.filename, contentType: doc.contentType };
      const outcome = await parseDocument(
        { options, body: doc.body, accountId: LOCAL_ACCOUNT_ID, fetch: input },
        { ...ctx, apiBasePolicy: "trust" },
      );
      return outcome.result;
    } finally {
      await ctx.close();
    }
  };
  const byName = new Map(documents.map((doc) => [`file:///${encodeURIComponent(doc.filename)}`, doc]));
  return fetchAll([...byName.keys()], a, (input) => parseOne(byName.get(input.url) as GivenDocument));
}

/** The fields of `input` named in `keys` that it has. */
function pick(input: FetchInput, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = (input as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** The scrape operation here, as the local account, logging what the JSON does not carry. */
function localFetcher(ctx: CliContext): Fetcher {
  return async (input) => {
    // A person's own machine: --llm-base may point at a model server on loopback or the LAN.
    const outcome = await scrape(
      { fetch: input, accountId: LOCAL_ACCOUNT_ID },
      { ...ctx, apiBasePolicy: "trust" },
    );
    const { result, cache, degraded, credits } = outcome;
    if (degraded) log.warn(degraded);
    log.debug(
      `${result.url}: ${result.method}, ${result.elapsed} ms, cache ${cache.hit ? "hit" : "miss"}, ${credits} credit${credits === 1 ? "" : "s"}`,
    );
    return result;
  };
}

async function fetchAll(urls: string[], a: Args, fetchOne: Fetcher): Promise<number> {
  const json = a.json === true;
  const many = urls.length > 1;
  const outputs: string[] = [];
  let exitCode = 0;
  const progress = many && process.stderr.isTTY;
  for (const [index, url] of urls.entries()) {
    if (progress) log.info(`[${index + 1}/${urls.length}] ${url}`);
    try {
      const input = inputFor(url, a);
      const result = await fetchOne(input);
      if (result.statusCode >= 400) log.warn(`${result.url} answered HTTP ${result.statusCode}`);
      if (result.warning) log.warn(`${result.url}: ${result.warning}`);
      outputs.push(render(result, json, many, a.chunks === true));
    } catch (error) {
      // One bad URL in a list must not lose the others: report it in place and go on.
      if (!many) throw error;
      exitCode ||= reportError(error, false);
      if (json) outputs.push(`${JSON.stringify({ url, ...errorJson(error as SiphonError) })}\n`);
    }
    if (!a.output) await writeStdout(outputs.splice(0).join(""));
  }
  if (typeof a.output === "string") {
    const text = outputs.join("");
    await writeOutputFile(a.output, text);
    log.success(`wrote ${a.output} (${Buffer.byteLength(text)} bytes)`);
  }
  return exitCode;
}

export default defineCommand({
  meta: {
    name: "fetch",
    description:
      "Fetch URLs and print their content (markdown by default); a local file (HTML, PDF, DOCX, …) is read as a page",
  },
  args,
  async run({ args: parsed }) {
    const a = parsed as unknown as Args & { _: string[] };
    setQuiet(a.quiet === true);
    const documents = await readDocuments(a._, a["stdin-html"] === true);
    if (documents) return parseAll(documents, a);
    const urls = await readUrls(a._);
    if (urls.length === 0)
      throw new SiphonError("invalid_request", "Give at least one URL, or - to read URLs from stdin");
    if (typeof a.output === "string") checkOutputPath(a.output);
    const remote = remoteOf(a, loadConfig());
    if (remote) return fetchAll(urls, a, (input) => callApi<FetchResult>(remote, "POST", "/v1/fetch", input));
    // --no-cache never touches the store: it is opened (created, migrated) only if the cache is used.
    const ctx = await openContext(urls.length === 1 ? onePageOverrides() : {}, { storeOnUse: true });
    try {
      return await fetchAll(urls, a, localFetcher(ctx));
    } finally {
      await ctx.close();
    }
  },
});
