import { browserFlagOptions } from "./browser-flags.ts";

/**
 * The page options a job command (crawl, batch) applies to every page, as flags over its request
 * schema's fields of the same names (schemaFlags picks): one wording for both commands.
 */
export const jobPageFlagPicks = {
  onlyMainContent: { description: "Keep only each page's main content (article body)" },
  includeTags: true,
  excludeTags: true,
  render: { description: "Render every page in the headless browser" },
  wait: { description: "ms to wait after a rendered page is ready", valueHint: "ms" },
  images: { description: "List each page's images (in --json)" },
  ...browserFlagOptions,
  actions: {
    ...browserFlagOptions.actions,
    description: "Page actions run on every page: a JSON array, or a file holding one",
  },
  maxAge: { valueHint: "ms" },
  storeInCache: { description: "Write each page to the cache" },
  siteMarkdown: {
    description:
      "Use a page's own markdown twin when its site offers one (also llms.txt's .md twins); --no-site-markdown always extracts",
  },
} as const;
