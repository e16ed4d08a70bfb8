import { type Static, Type as T } from "@sinclair/typebox";
import { StringEnum } from "./common.ts";

/** How a map or a crawl uses the site's sitemaps (Firecrawl v2's `sitemap`). */
export const SitemapMode = StringEnum(["include", "skip", "only"], {
  description:
    "include (default): the sitemaps and the site's links; skip: the links alone (as ignoreSitemap); only: the sitemaps' URLs alone, no links followed (robots.txt's sitemaps and /sitemap.xml, indexes followed, robots.txt disallows left out)",
});

/** POST /v1/map body (SPEC), also built by `siphon map` from its flags. */
export const MapBody = T.Object(
  {
    url: T.String({ description: "Starting URL or bare domain (https:// is assumed)" }),
    limit: T.Integer({ minimum: 1, maximum: 100_000, default: 5000, description: "Most URLs returned" }),
    search: T.Optional(
      T.String({ maxLength: 500, description: "Keep only URLs containing this text (case-insensitive)" }),
    ),
    includeSubdomains: T.Boolean({ default: false, description: "Also list URLs on subdomains of the host" }),
    ignoreSitemap: T.Boolean({
      default: false,
      description: "Skip sitemaps; only crawl links (sitemap: skip)",
    }),
    sitemap: T.Optional(SitemapMode),
  },
  { additionalProperties: false },
);
export type MapInput = Static<typeof MapBody>;

export const MapResponse = T.Object({ success: T.Literal(true), links: T.Array(T.String()) });
