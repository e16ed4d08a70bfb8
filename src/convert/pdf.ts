import { extractText, getDocumentProxy, getMeta } from "unpdf";
import { SiphonError } from "../errors.ts";
import type { OutputFormat } from "../extract/types.ts";
import { escapeHtml } from "./escape.ts";

/** What a PDF becomes: its title, its text in the requested format and its page count. */
export interface PdfContent {
  title: string;
  content: string;
  pages: number;
}

// pdf.js logs recoverable parse problems to the console; siphon reports errors itself.
const PDFJS_ERRORS_ONLY = 0;
const MAX_TITLE_LENGTH = 200;

/** Trims line ends and squeezes runs of blank lines, which PDF text extraction produces in bulk. */
function tidyPage(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Page separators: markdown gets a thematic break ("---" after a blank line,
 * so it never turns the previous line into a heading) so a model can tell
 * pages apart; text gets a blank line; HTML gets one <section> per page.
 */
function render(pages: string[], format: OutputFormat): string {
  const nonEmpty = pages.map((text, i) => ({ text, page: i + 1 })).filter((p) => p.text !== "");
  if (format === "markdown") return nonEmpty.map((p) => p.text).join("\n\n---\n\n");
  if (format === "text") return nonEmpty.map((p) => p.text).join("\n\n");
  return nonEmpty
    .map(({ text, page }) => {
      const paragraphs = text
        .split(/\n{2,}/)
        .map((block) => `<p>${block.split("\n").map(escapeHtml).join("<br>")}</p>`);
      return `<section data-page="${page}">${paragraphs.join("")}</section>`;
    })
    .join("\n");
}

function infoTitle(info: Record<string, unknown>): string {
  const title = info.Title;
  return typeof title === "string" ? title.trim() : "";
}

function firstLine(pages: string[]): string {
  for (const page of pages) {
    const line = page.split("\n").find((l) => l.trim() !== "");
    if (line) return line.trim().slice(0, MAX_TITLE_LENGTH);
  }
  return "";
}

function unreadable(error: unknown): SiphonError {
  const name = error instanceof Error ? error.name : "";
  if (name === "PasswordException") {
    return new SiphonError("unsupported_content", "The PDF is password-protected and cannot be read.", {
      hint: "Fetch an unprotected copy of the document.",
      cause: error,
    });
  }
  return new SiphonError("unsupported_content", "The PDF could not be read: it is corrupt or not a PDF.", {
    hint: "Check that the URL serves a complete PDF file.",
    cause: error,
  });
}

/**
 * Extracts the text of a PDF. The title comes from the Info dictionary, else
 * the first line of text. Throws SiphonError unsupported_content for corrupt,
 * truncated or password-protected files.
 */
export async function pdfToContent(body: Uint8Array, format: OutputFormat): Promise<PdfContent> {
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given, so hand it a copy.
    doc = await getDocumentProxy(new Uint8Array(body), { verbosity: PDFJS_ERRORS_ONLY });
  } catch (error) {
    throw unreadable(error);
  }
  try {
    const [{ info }, { text }] = await Promise.all([getMeta(doc), extractText(doc, { mergePages: false })]);
    const pages = text.map(tidyPage);
    return {
      title: infoTitle(info) || firstLine(pages),
      content: render(pages, format),
      pages: doc.numPages,
    };
  } catch (error) {
    throw unreadable(error);
  } finally {
    await doc.loadingTask.destroy();
  }
}
