import type { ActionOutputs, Capture, EngineName, FetchedPage } from "../fetch/types.ts";
import type { FetchResult } from "../schemas/fetch.ts";
import type { Converted } from "./convert.ts";
import type { ResolvedFormats } from "./formats.ts";

/** SPEC fingerprint: the first 16 hex characters of SHA-256 over the content. */
export function fingerprint(content: string): string {
  return new Bun.CryptoHasher("sha256").update(content).digest("hex").slice(0, 16);
}

const base64 = (capture: Capture) => Buffer.from(capture.data).toString("base64");

/** What page actions made, as the result carries it: images and PDFs in base64. */
export function actionsJson(made: ActionOutputs): NonNullable<FetchResult["actions"]> {
  return {
    screenshots: made.screenshots.map(base64),
    scrapes: made.scrapes,
    javascriptReturns: made.javascriptReturns,
    pdfs: made.pdfs.map((pdf) => Buffer.from(pdf).toString("base64")),
  };
}

/** What a result is rendered from: one fetch of the page (fresh or cached) and its conversion. */
export interface RenderSource {
  page: FetchedPage;
  converted: Converted;
  engine: EngineName;
  warning?: string;
}

/**
 * Renders the Fetch result of one attempt in every format the request asked for: `content` in
 * the primary format, each content format of `formats` in a field of its own, `rawHtml`, links,
 * images, screenshots, and the warning of a stage that gave less than the page.
 */
export function renderResult(source: RenderSource, formats: ResolvedFormats, elapsed: number): FetchResult {
  const { page, converted } = source;
  const { doc, contentType } = converted;
  const result: FetchResult = {
    url: page.url,
    title: doc.title,
    content: doc.content,
    metadata: doc.metadata,
    links: doc.links,
    tokens: Math.ceil(doc.content.length / 4),
    method: source.engine,
    elapsed: Math.round(elapsed),
    contentType,
    quality: Math.round(doc.quality * 1000) / 1000,
    fingerprint: fingerprint(doc.content),
    statusCode: page.status,
  };
  for (const format of formats.contents) result[format] = doc.formats?.[format] ?? doc.content;
  if (formats.rawHtml && converted.raw !== undefined) result.rawHtml = converted.raw;
  if (formats.images) result.images = doc.images ?? [];
  if (page.screenshot) result.screenshot = base64(page.screenshot);
  if (page.actionOutputs) result.actions = actionsJson(page.actionOutputs);
  if (source.warning) result.warning = source.warning;
  if (converted.markdown) result.source = "site-markdown";
  return result;
}
