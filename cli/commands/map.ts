import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { mapUrls } from "../../src/pipeline/map.ts";
import { MapBody } from "../../src/schemas/map.ts";
import { openContext } from "../context.ts";
import { setQuiet, writeStdout } from "../output.ts";
import { progressBar } from "../progress.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";
import { schemaFlags, validateFlags } from "../schema-flags.ts";

/** POST /v1/map's fields. */
const mapFlags = schemaFlags(MapBody, {
  search: true,
  limit: { description: "Most URLs listed" },
  includeSubdomains: true,
  ignoreSitemap: true,
  sitemap: {
    description: "include (default): sitemaps and links; skip: links alone; only: the sitemaps' URLs alone",
    valueHint: "use",
  },
});

export default defineCommand({
  meta: { name: "map", description: "List a site's URLs from its sitemaps and links, one a line" },
  args: {
    url: { type: "positional", required: true, description: "Starting URL or domain" },
    ...mapFlags.args,
    json: { type: "boolean", description: 'Print {"success":true,"links":[…]} instead of one URL a line' },
    quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
    ...remoteArgs,
  },
  async run({ args }) {
    setQuiet(args.quiet === true);
    const input = validateFlags(MapBody, { url: args.url, ...mapFlags.read(args) }, [mapFlags]);
    const remote = remoteOf(args, loadConfig());
    let links: string[];
    if (remote) links = (await callApi<{ links: string[] }>(remote, "POST", "/v1/map", input)).links;
    else {
      const ctx = await openContext();
      const bar = progressBar({ quiet: args.quiet === true, json: args.json === true });
      try {
        links = await mapUrls(input, ctx, (read, most) => bar.update("mapping", read, most));
      } finally {
        bar.end();
        await ctx.close();
      }
    }
    await writeStdout(
      args.json ? `${JSON.stringify({ success: true, links })}\n` : links.map((l) => `${l}\n`).join(""),
    );
    return 0;
  },
});
