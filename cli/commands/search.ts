import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { SearchBody, type SearchInput, type SearchResponse } from "../../src/schemas/search.ts";
import { search } from "../../src/search/index.ts";
import { openContext } from "../context.ts";
import { log, setQuiet, writeStdout } from "../output.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";
import { schemaFlags, validateFlags } from "../schema-flags.ts";
import { many } from "../strict-args.ts";

/** GET /v1/search's fields (the key travels in a header to a server). */
const searchFlags = schemaFlags(SearchBody, {
  count: true,
  provider: true,
  searchApiKey: {
    name: "search-key",
    description: "Brave Search API key (else SIPHON_BRAVE_API_KEY)",
    valueHint: "key",
  },
  scrapeResults: { name: "scrape", description: "Fetch every web result and print its content (markdown)" },
  sources: true,
  categories: { description: "Restrict web results to github, pdf, docs, blog, news, video or social" },
  includeDomains: { description: "Only results on these sites (subdomains included)" },
  excludeDomains: { description: "No results on these sites (subdomains included)" },
  tbs: true,
  country: { valueHint: "xx-yy" },
  location: { valueHint: "place" },
});

const args = {
  query: many({
    type: "positional",
    required: true,
    description: "What to search for (quote it, or give several words)",
  }),
  ...searchFlags.args,
  json: { type: "boolean", description: "Print the Search response as JSON" },
  quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  ...remoteArgs,
} as const;

type Args = Record<string, string | boolean | string[] | undefined>;

/** GET /v1/search's query string for an input; the key travels in a header, out of the URL. */
function queryString(input: SearchInput): string {
  const params = new URLSearchParams({
    q: input.q,
    count: String(input.count),
    sources: input.sources.join(","),
  });
  if (input.provider) params.set("provider", input.provider);
  if (input.scrapeResults) params.set("scrapeResults", "true");
  if (input.categories?.length) params.set("categories", input.categories.join(","));
  for (const name of ["includeDomains", "excludeDomains"] as const) {
    const value = input[name];
    if (value?.length) params.set(name, value.join(","));
  }
  for (const name of ["tbs", "country", "location"] as const) {
    const value = input[name];
    if (value) params.set(name, value);
  }
  return params.toString();
}

const indent = (text: string) => `   ${text}`;

/** The readable form: numbered results per source, with each scraped page's content after its entry. */
function render(data: SearchResponse["data"], input: SearchInput): string {
  const sections: string[] = [];
  const headed = input.sources.length > 1;
  if (input.sources.includes("web")) {
    const lines = data.web.map((r, i) => {
      const entry = [`${i + 1}. ${r.title || r.url}`, indent(r.url)];
      if (r.snippet) entry.push(indent(r.snippet));
      if (r.content === null) entry.push(indent(`(not fetched: ${r.error?.message ?? "failed"})`));
      else if (r.content !== undefined) entry.push("", r.content.trimEnd(), "");
      return entry.join("\n");
    });
    sections.push([headed ? "Web" : "", ...lines].filter(Boolean).join("\n"));
  }
  if (data.news) {
    const lines = data.news.map((n, i) => {
      const about = [n.date, n.source].filter(Boolean).join(" · ");
      return [`${i + 1}. ${n.title}`, indent(n.url), about && indent(about), n.snippet && indent(n.snippet)]
        .filter(Boolean)
        .join("\n");
    });
    sections.push(["News", ...lines].join("\n"));
  }
  if (data.images) {
    const lines = data.images.map((m, i) => {
      const size = m.width && m.height ? ` (${m.width}x${m.height})` : "";
      return [`${i + 1}. ${m.title}`, indent(`${m.imageUrl}${size}`), indent(`on ${m.url}`)].join("\n");
    });
    sections.push(["Images", ...lines].join("\n"));
  }
  return sections.map((s) => `${s}\n`).join("\n");
}

export default defineCommand({
  meta: { name: "search", description: "Search the web; print the results as a numbered list" },
  args,
  async run({ args: parsed }) {
    const a = parsed as unknown as Args & { _: string[] };
    setQuiet(a.quiet === true);
    // Unquoted words are one query: `siphon search tide mills`.
    const input = validateFlags(SearchBody, { q: a._.join(" "), ...searchFlags.read(a) }, [searchFlags]);
    const remote = remoteOf(a, loadConfig());
    let response: SearchResponse;
    if (remote) {
      const headers: Record<string, string> = input.searchApiKey
        ? { "x-search-api-key": input.searchApiKey }
        : {};
      response = await callApi<SearchResponse>(
        remote,
        "GET",
        `/v1/search?${queryString(input)}`,
        undefined,
        headers,
      );
    } else {
      const ctx = await openContext();
      try {
        const outcome = await search(input, ctx);
        if (outcome.degraded) log.warn(outcome.degraded);
        log.debug(`${outcome.provider}: ${outcome.pagesFetched} page(s) fetched`);
        response = outcome.response;
      } finally {
        await ctx.close();
      }
    }
    const { data } = response;
    for (const r of data.web)
      if (r.content === null) log.warn(`${r.url}: ${r.error?.message ?? "not fetched"}`);
    const found = data.web.length + (data.news?.length ?? 0) + (data.images?.length ?? 0);
    if (found === 0) log.warn("No results");
    await writeStdout(a.json ? `${JSON.stringify(response, null, 2)}\n` : render(data, input));
    return 0;
  },
});
