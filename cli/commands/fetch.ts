import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import { fetchPage } from "../../src/pipeline/fetch-page.ts";
import { splitList } from "../../src/schemas/common.ts";
import { FetchBody, type FetchInput, type FetchResult } from "../../src/schemas/fetch.ts";
import { validate } from "../../src/schemas/validate.ts";
import { actionsFlag, browserArgs, cookiesFlag, defined, headersFlag, numberFlag } from "../browser-flags.ts";
import { type CliContext, onePageOverrides, openContext } from "../context.ts";
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

const args = {
  url: {
    type: "positional",
    required: false,
    description: "URL(s) to fetch; - reads one URL per line from stdin",
  },
  format: { type: "string", description: "markdown (default), text or html", valueHint: "fmt" },
  formats: {
    type: "string",
    description:
      "Comma-separated outputs from one fetch (in --json): markdown, text, html, rawHtml, links, images, screenshot",
    valueHint: "list",
  },
  "only-main-content": { type: "boolean", description: "Keep only the main content (article body)" },
  "include-tags": {
    type: "string",
    description: "Comma-separated tags or CSS selectors to keep",
    valueHint: "list",
  },
  "exclude-tags": {
    type: "string",
    description: "Comma-separated tags or CSS selectors to remove",
    valueHint: "list",
  },
  images: { type: "boolean", description: "List the content's images (in --json output)" },
  location: {
    type: "string",
    description: "Country code (ISO 3166-1 alpha-2) for Accept-Language",
    valueHint: "cc",
  },
  languages: { type: "string", description: "Comma-separated language preferences", valueHint: "list" },
  "max-age": {
    type: "string",
    description: "Accept a cached result at most this old, ms (0 = bypass)",
    valueHint: "ms",
  },
  cache: {
    type: "boolean",
    default: true,
    description: "Use the cache",
    negativeDescription: "Bypass the cache: neither read nor write it",
  },
  render: { type: "boolean", description: "Force browser rendering" },
  wait: { type: "string", description: "ms to wait after load (implies --render)", valueHint: "ms" },
  ...browserArgs,
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
  ...remoteArgs,
} as const;

type Args = Record<string, string | boolean | string[] | undefined>;

/** Maps flags to the FetchBody shape; the shared schema then validates it. */
function inputFor(url: string, a: Args): unknown {
  const noCache = a.cache === false;
  return defined({
    url,
    format: a.format,
    formats: splitList(a.formats as string | undefined),
    onlyMainContent: a["only-main-content"],
    includeTags: splitList(a["include-tags"] as string | undefined),
    excludeTags: splitList(a["exclude-tags"] as string | undefined),
    images: a.images,
    location: a.location,
    languages: splitList(a.languages as string | undefined),
    maxAge: noCache ? 0 : numberFlag(a["max-age"], "max-age"),
    storeInCache: noCache ? false : undefined,
    render: a.render,
    wait: numberFlag(a.wait, "wait"),
    actions: actionsFlag(a.actions),
    stealth: a.stealth,
    headers: headersFlag(a.headers),
    cookies: cookiesFlag(a.cookies),
  });
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

function render(result: FetchResult, json: boolean, many: boolean): string {
  if (json) return many ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`;
  const content = result.content.endsWith("\n") ? result.content : `${result.content}\n`;
  return many ? `<!-- ${result.url} -->\n${content}\n` : content;
}

type Fetcher = (input: FetchInput) => Promise<FetchResult>;

/** The local pipeline, logging what the JSON does not carry. */
function localFetcher(ctx: CliContext): Fetcher {
  return async (input) => {
    const { result, cache, degraded } = await fetchPage(input, ctx);
    if (degraded) log.warn(degraded);
    log.debug(`${result.url}: ${result.method}, ${result.elapsed} ms, cache ${cache.hit ? "hit" : "miss"}`);
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
      const input = validate(FetchBody, inputFor(url, a));
      const result = await fetchOne(input);
      if (result.statusCode >= 400) log.warn(`${result.url} answered HTTP ${result.statusCode}`);
      if (result.warning) log.warn(`${result.url}: ${result.warning}`);
      outputs.push(render(result, json, many));
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
  meta: { name: "fetch", description: "Fetch URLs and print their content (markdown by default)" },
  args,
  async run({ args: parsed }) {
    const a = parsed as unknown as Args & { _: string[] };
    setQuiet(a.quiet === true);
    const urls = await readUrls(a._);
    if (urls.length === 0)
      throw new SiphonError("invalid_request", "Give at least one URL, or - to read URLs from stdin");
    if (typeof a.output === "string") checkOutputPath(a.output);
    const remote = remoteOf(a, loadConfig());
    if (remote) return fetchAll(urls, a, (input) => callApi<FetchResult>(remote, "POST", "/v1/fetch", input));
    const ctx = await openContext(urls.length === 1 ? onePageOverrides() : {});
    try {
      return await fetchAll(urls, a, localFetcher(ctx));
    } finally {
      await ctx.close();
    }
  },
});
