import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { mapUrls } from "../../src/pipeline/map.ts";
import { MapBody } from "../../src/schemas/map.ts";
import { validate } from "../../src/schemas/validate.ts";
import { defined, numberFlag } from "../browser-flags.ts";
import { openContext } from "../context.ts";
import { setQuiet, writeStdout } from "../output.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";

export default defineCommand({
  meta: { name: "map", description: "List a site's URLs from its sitemaps and links, one a line" },
  args: {
    url: { type: "positional", required: true, description: "Starting URL or domain" },
    search: { type: "string", description: "Keep only URLs containing this text", valueHint: "text" },
    limit: { type: "string", description: "Most URLs listed (default 5000)", valueHint: "n" },
    "include-subdomains": { type: "boolean", description: "Also list subdomains' URLs" },
    "ignore-sitemap": { type: "boolean", description: "Skip sitemaps; only crawl links" },
    json: { type: "boolean", description: 'Print {"success":true,"links":[…]} instead of one URL a line' },
    quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
    ...remoteArgs,
  },
  async run({ args }) {
    setQuiet(args.quiet === true);
    const input = validate(
      MapBody,
      defined({
        url: args.url,
        search: args.search,
        limit: numberFlag(args.limit, "limit"),
        includeSubdomains: args["include-subdomains"],
        ignoreSitemap: args["ignore-sitemap"],
      }),
    );
    const remote = remoteOf(args, loadConfig());
    let links: string[];
    if (remote) links = (await callApi<{ links: string[] }>(remote, "POST", "/v1/map", input)).links;
    else {
      const ctx = await openContext();
      try {
        links = await mapUrls(input, ctx);
      } finally {
        await ctx.close();
      }
    }
    await writeStdout(
      args.json ? `${JSON.stringify({ success: true, links })}\n` : links.map((l) => `${l}\n`).join(""),
    );
    return 0;
  },
});
