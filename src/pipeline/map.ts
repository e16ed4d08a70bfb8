import { mapSite } from "../crawl/map.ts";
import type { MapInput } from "../schemas/map.ts";
import type { FetchDeps } from "./fetch-page.ts";

/** A bare domain ("example.com/docs") gets https://, as SPEC's "starting URL or domain" allows. */
function withScheme(url: string): string {
  const trimmed = url.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed === "" ? trimmed : `https://${trimmed}`;
}

/**
 * Lists a site's URLs from its sitemaps and a bounded link crawl, with no
 * content and no browser. Throws SiphonError for a bad or refused start URL
 * and when the start page cannot be fetched.
 */
export async function mapUrls(
  input: MapInput,
  deps: FetchDeps,
  onProgress?: (read: number, most: number) => void,
): Promise<string[]> {
  return mapSite(
    { ...input, url: withScheme(input.url) },
    {
      engine: await deps.engines.get("simple"),
      userAgent: deps.config.userAgent,
      signal: deps.signal,
      onProgress,
    },
  );
}
