import { type Static, Type as T } from "@sinclair/typebox";
import { StringEnum } from "./common.ts";
import { CrawlBody } from "./jobs.ts";
import { LlmFieldsOptional } from "./llm.ts";

/** POST /v1/llmstxt body (also the CLI's `siphon llmstxt` and MCP's siphon_llmstxt). */
export const LlmstxtBody = T.Object(
  {
    url: T.String({ description: "The site to describe: its start URL" }),
    limit: T.Integer({ minimum: 1, maximum: 1_000, default: 100, description: "Most pages read" }),
    maxDepth: CrawlBody.properties.maxDepth,
    includePaths: CrawlBody.properties.includePaths,
    excludePaths: CrawlBody.properties.excludePaths,
    regenerate: T.Boolean({
      default: false,
      description:
        "Write llms.txt from the site's pages even when the site publishes its own /llms.txt (else its own is answered as it is)",
    }),
    ...LlmFieldsOptional,
  },
  { additionalProperties: false },
);
export type LlmstxtInput = Static<typeof LlmstxtBody>;

/** What an llms.txt job gives once completed. */
export const LlmstxtResult = T.Object({
  url: T.String({ description: "The site's start URL" }),
  source: StringEnum(["generated", "site"], {
    description: "generated: written from the pages read; site: the site's own /llms.txt, answered as it is",
  }),
  llmsTxt: T.String({ description: "llms.txt: one H1, a blockquote summary, H2 sections of links" }),
  llmsFullTxt: T.Union([T.String(), T.Null()], {
    description:
      "llms-full.txt: every page's main content under its title and URL (the site's own when it publishes one; null when it publishes llms.txt alone)",
  }),
  pages: T.Integer({ description: "Pages in llms.txt" }),
  descriptions: StringEnum(["page", "llm"], {
    description:
      "page: each link's description is the page's own (meta description, else its first sentences); llm: written by the LLM",
  }),
  existing: T.Union([T.String(), T.Null()], {
    description: "The URL of the site's own /llms.txt, when it has one",
  }),
  tokensUsed: T.Optional(T.Object({ input: T.Integer(), output: T.Integer() })),
});
export type LlmstxtResult = Static<typeof LlmstxtResult>;
