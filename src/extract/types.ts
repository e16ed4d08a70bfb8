/** Page metadata of the Fetch result (SPEC): each key may be null. */
export interface PageMetadata {
  description: string | null;
  author: string | null;
  published: string | null;
  image: string | null;
  canonical: string | null;
}

/** An image of the Fetch result when images=true. */
export interface ImageInfo {
  src: string;
  alt: string | null;
  title: string | null;
  width: number | null;
  height: number | null;
}

export type OutputFormat = "markdown" | "text" | "html";

/** Options of the HTML extraction steps. */
export interface ExtractOptions {
  /** The format of `content`. */
  format: OutputFormat;
  /** Further formats produced from the same extraction, into `ExtractedDocument.formats`. */
  formats?: OutputFormat[];
  onlyMainContent: boolean;
  /** Tags or CSS selectors whose elements are kept (everything else dropped). */
  includeTags?: string[];
  /** Tags or CSS selectors whose elements are removed. */
  excludeTags?: string[];
  images: boolean;
}

/** What HTML extraction produces; the pipeline adds url, method, timings and hashes. */
export interface ExtractedDocument {
  title: string;
  content: string;
  /** The content in each format of `ExtractOptions.formats` (and in `format`), when asked for. */
  formats?: Partial<Record<OutputFormat, string>>;
  metadata: PageMetadata;
  links: string[];
  images?: ImageInfo[];
  /** 0..1, see quality.ts for the heuristic. */
  quality: number;
}
