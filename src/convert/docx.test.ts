import { expect, test } from "bun:test";
import { makeDocx } from "../../test/helpers/documents.ts";
import { SiphonError } from "../errors.ts";
import { docxToHtml } from "./docx.ts";

test("Word headings become h1..h3 and paragraphs p, ready for HTML extraction", async () => {
  const docx = await makeDocx([
    { text: "Handbook", heading: 1 },
    { text: "Welcome & hello <team>." },
    { text: "Hours", heading: 2 },
    { text: "Remote", heading: 3 },
  ]);
  expect(await docxToHtml(docx)).toBe(
    "<h1>Handbook</h1><p>Welcome &amp; hello &lt;team&gt;.</p><h2>Hours</h2><h3>Remote</h3>",
  );
});

test.each([
  ["a zip without Word parts", new TextEncoder().encode("PK\x03\x04 not really a zip")],
  ["plain text", new TextEncoder().encode("hello")],
])("%s is unsupported_content", async (_, body) => {
  const error = await docxToHtml(body).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SiphonError);
  expect((error as SiphonError).type).toBe("unsupported_content");
});
