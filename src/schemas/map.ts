import { type Static, Type as T } from "@sinclair/typebox";

/** POST /v1/map body (SPEC), also built by `siphon map` from its flags. */
export const MapBody = T.Object(
  {
    url: T.String({ description: "Starting URL or bare domain (https:// is assumed)" }),
    limit: T.Integer({ minimum: 1, maximum: 100_000, default: 5000, description: "Most URLs returned" }),
    search: T.Optional(
      T.String({ maxLength: 500, description: "Keep only URLs containing this text (case-insensitive)" }),
    ),
    includeSubdomains: T.Boolean({ default: false, description: "Also list URLs on subdomains of the host" }),
    ignoreSitemap: T.Boolean({ default: false, description: "Skip sitemaps; only crawl links" }),
  },
  { additionalProperties: false },
);
export type MapInput = Static<typeof MapBody>;

export const MapResponse = T.Object({ success: T.Literal(true), links: T.Array(T.String()) });
