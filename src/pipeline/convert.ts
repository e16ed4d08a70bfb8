import { classifyContent, type ResultContentType } from "../convert/classify.ts";
import { docxToHtml } from "../convert/docx.ts";
import { jsonToContent } from "../convert/json.ts";
import { pdfToContent } from "../convert/pdf.ts";
import { xmlToContent } from "../convert/xml.ts";
import { SiphonError } from "../errors.ts";
import { extractInline, type HtmlExtractor } from "../extract/pool.ts";
import type { ExtractedDocument, ExtractOptions, OutputFormat, PageMetadata } from "../extract/types.ts";
import { decodeBody } from "../fetch/decode.ts";
import { detectBotWall } from "../fetch/detect.ts";
import type { FetchedPage } from "../fetch/types.ts";
import {
  isMarkdownType,
  markdownBody,
  markdownLinks,
  markdownMetadata,
  markdownTitle,
} from "./site-markdown.ts";

export interface Converted {
  doc: ExtractedDocument;
  contentType: ResultContentType;
  /** The decoded HTML, for HTML pages (escalation inspects it). */
  html?: string;
  /** The decoded body of textual answers (HTML, JSON, XML, text): the rawHtml format. */
  raw?: string;
  /** Set when the answer is the site's own markdown (a text/markdown answer): the content is it. */
  markdown?: boolean;
  /**
   * Set when the page is a bot-detection page (its description); `doc` is then empty. The caller
   * decides what follows (escalation tries stealth; anything else answers blockedError).
   */
  blocked?: string;
}

/** The blocked error of a bot-detection page (`Converted.blocked`), with what to try next. */
export function blockedError(blocked: string, hint = "Retry later, or with stealth: true."): SiphonError {
  return new SiphonError("blocked", blocked, { hint });
}

const NO_METADATA: PageMetadata = {
  description: null,
  author: null,
  published: null,
  image: null,
  canonical: null,
};

/**
 * Quality of content that has no page chrome (JSON, XML, text, PDF): nothing
 * was removed, so the score reflects only how much there is: 0 when empty,
 * rising from 0.5 to 1 over the first 2,000 characters.
 */
function plainQuality(content: string): number {
  const length = content.trim().length;
  if (length === 0) return 0;
  return Math.min(1, 0.5 + length / 4000);
}

function plainDoc(title: string, content: string, links: string[] = []): ExtractedDocument {
  return { title, content, metadata: NO_METADATA, links, quality: plainQuality(content) };
}

/**
 * Turns a fetched page into extracted content according to what it is (HTML,
 * JSON, XML/feeds, text, PDF, DOCX). A bot-detection page comes back marked `blocked` (not
 * extracted); throws unsupported_content for binary types siphon cannot read. HTML goes
 * through `extract` (a worker pool in servers and crawls). Every format of `options.formats` is
 * rendered too, into `doc.formats`.
 */
export async function convertPage(
  page: FetchedPage,
  options: ExtractOptions,
  extract: HtmlExtractor = extractInline,
): Promise<Converted> {
  const converted = await convertOne(page, options, extract);
  if (converted.blocked) return converted;
  const others = options.formats?.filter((format) => format !== options.format) ?? [];
  // HTML extraction (DOCX too) renders every format from one pass; the others are cheap to rerun.
  if (!converted.doc.formats && others.length) {
    const formats: Partial<Record<OutputFormat, string>> = { [options.format]: converted.doc.content };
    for (const format of others) {
      formats[format] = (
        await convertOne(page, { ...options, format, formats: undefined }, extract)
      ).doc.content;
    }
    converted.doc.formats = formats;
  }
  return converted;
}

async function convertOne(
  page: FetchedPage,
  options: ExtractOptions,
  extract: HtmlExtractor,
): Promise<Converted> {
  const header = page.headers["content-type"];
  const kind = classifyContent(header, page.body, page.url);
  switch (kind) {
    case "html": {
      const { text } = decodeBody(page.body, header);
      const wall = detectBotWall({ status: page.status, headers: page.headers, html: text });
      if (wall.blocked) {
        const blocked = `The site answered with a bot-detection page${wall.vendor ? ` (${wall.vendor})` : ""}`;
        return { doc: plainDoc("", ""), contentType: "html", html: text, raw: text, blocked };
      }
      return { doc: await extract(text, page.url, options), contentType: "html", html: text, raw: text };
    }
    case "json": {
      const raw = decodeBody(page.body, header).text;
      const { title, content } = jsonToContent(raw, options.format);
      return { doc: plainDoc(title, content), contentType: "json", raw };
    }
    case "xml": {
      const raw = decodeBody(page.body, header).text;
      const { title, content, links } = xmlToContent(raw, options.format, page.url);
      return { doc: plainDoc(title, content, links), contentType: "xml", raw };
    }
    case "text": {
      const { text } = decodeBody(page.body, header);
      if (isMarkdownType(header)) {
        const content = markdownBody(text);
        const doc = plainDoc(markdownTitle(text), content, markdownLinks(content, page.url));
        doc.metadata = markdownMetadata(text, page.url);
        return { doc, contentType: "text", raw: text, markdown: true };
      }
      return { doc: plainDoc("", text), contentType: "text", raw: text };
    }
    case "pdf": {
      const { title, content } = await pdfToContent(page.body, options.format);
      return { doc: plainDoc(title, content), contentType: "document" };
    }
    case "docx": {
      const html = await docxToHtml(page.body);
      const doc = await extract(html, page.url, { ...options, onlyMainContent: false });
      return { doc, contentType: "document" };
    }
    default:
      throw new SiphonError(
        "unsupported_content",
        `siphon cannot extract text from ${header || "this content type"}`,
        {
          hint: "siphon reads HTML, JSON, XML, text, PDF and DOCX.",
        },
      );
  }
}
