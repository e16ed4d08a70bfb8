import { expect, test } from "bun:test";
import { makePdf } from "../../test/helpers/documents.ts";
import { SiphonError } from "../errors.ts";
import { pdfToContent } from "./pdf.ts";

const PAGES = [
  "Annual Report 2024\nRevenue grew by 12 percent (see table 3).",
  "Appendix\nMethods and sources.",
];

test("markdown keeps every page's text, pages split by a thematic break", async () => {
  const result = await pdfToContent(makePdf(PAGES, "Fixture Annual Report"), "markdown");
  expect(result.title).toBe("Fixture Annual Report");
  expect(result.pages).toBe(2);
  expect(result.content).toBe(
    "Annual Report 2024\nRevenue grew by 12 percent (see table 3).\n\n---\n\nAppendix\nMethods and sources.",
  );
});

test("text separates pages by a blank line", async () => {
  const { content } = await pdfToContent(makePdf(PAGES, "T"), "text");
  expect(content).toBe(
    "Annual Report 2024\nRevenue grew by 12 percent (see table 3).\n\nAppendix\nMethods and sources.",
  );
});

test("html puts each page in a section with escaped text", async () => {
  const { content } = await pdfToContent(makePdf(["Ratio <1 & rising"]), "html");
  expect(content).toBe('<section data-page="1"><p>Ratio &lt;1 &amp; rising</p></section>');
});

test("without an Info title the first line of text is the title", async () => {
  const { title } = await pdfToContent(makePdf(["  \nFirst real line\nsecond"]), "text");
  expect(title).toBe("First real line");
});

test("the caller's buffer stays usable (pdf.js detaches what it is given)", async () => {
  const pdf = makePdf(["x"]);
  await pdfToContent(pdf, "text");
  expect(pdf.byteLength).toBeGreaterThan(0);
  expect((await pdfToContent(pdf, "text")).content).toBe("x");
});

test.each([
  ["garbage after a PDF header", new TextEncoder().encode("%PDF-1.4\nthis is not a pdf")],
  ["a truncated file", makePdf(PAGES).slice(0, 200)],
  ["no bytes at all", new Uint8Array(0)],
])("%s is unsupported_content with a readable message", async (_, body) => {
  const error = await pdfToContent(body, "markdown").catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SiphonError);
  expect((error as SiphonError).type).toBe("unsupported_content");
  expect((error as SiphonError).message).toBe("The PDF could not be read: it is corrupt or not a PDF.");
});
