import { deflateSync } from "node:zlib";
import JSZip from "jszip";

/**
 * Generators for the binary documents tests need (PDF, DOCX), written out
 * from scratch so the repository carries no opaque blobs and every test can
 * say exactly which text a document holds.
 */

/** Escapes a PDF literal string; PDF strings are delimited by parentheses. */
function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** A PDF file is bytes; we build it as a one-byte-per-character string so offsets are string lengths. */
function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) throw new Error(`makePdf only supports Latin-1 text, got U+${code.toString(16)}`);
    bytes[i] = code;
  }
  return bytes;
}

/** The content stream of one page: each line of `text` on its own line, top-left down, Helvetica 12pt. */
function pageStream(text: string): string {
  const lines = text.split("\n").map((line) => `${pdfString(line)} Tj T*`);
  return `BT /F1 12 Tf 14 TL 72 720 Td ${lines.join(" ")} ET`;
}

/**
 * Writes a minimal valid PDF: one page per entry of `pages` (newlines start
 * new text lines), Helvetica text, an Info dictionary with /Title when given,
 * and a correct xref table. Latin-1 text only.
 */
export function makePdf(pages: string[], title?: string): Uint8Array {
  // Fixed object numbers: 1 catalog, 2 page tree, 3 font, 4 info, then a page and its stream per page.
  const pageIds = pages.map((_, i) => 5 + i * 2);
  const objects: string[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Producer (siphon test documents)${title === undefined ? "" : ` /Title ${pdfString(title)}`} >>`,
  ];
  for (const [i, text] of pages.entries()) {
    const streamId = pageIds[i]! + 1;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${streamId} 0 R >>`,
    );
    const stream = pageStream(text);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }

  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xrefOffset = out.length;
  // Each xref entry is exactly 20 bytes: 10-digit offset, 5-digit generation, type, then the two-byte end of line " \n" the spec allows.
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return latin1Bytes(out);
}

/** One paragraph of a generated DOCX; `heading` makes it a Heading 1..3 paragraph. */
export interface DocxParagraph {
  text: string;
  heading?: 1 | 2 | 3;
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const WORD_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
  <Default Extension="xml" ContentType="application/xml"/>
  <Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
  <Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
</Types>`;

const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;

const DOCUMENT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
</Relationships>`;

// mammoth maps paragraphs by style *name*: "heading 1" becomes <h1>, so the names must be Word's built-in ones.
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${WORD_NS}">
  <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
${[1, 2, 3]
  .map(
    (n) =>
      `  <w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/><w:basedOn w:val="Normal"/></w:style>`,
  )
  .join("\n")}
</w:styles>`;

function documentXml(paragraphs: DocxParagraph[]): string {
  const body = paragraphs
    .map((p) => {
      const props = p.heading ? `<w:pPr><w:pStyle w:val="Heading${p.heading}"/></w:pPr>` : "";
      return `<w:p>${props}<w:r><w:t xml:space="preserve">${xmlEscape(p.text)}</w:t></w:r></w:p>`;
    })
    .join("");
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="${WORD_NS}"><w:body>${body}</w:body></w:document>`;
}

/** Builds a minimal DOCX (zip) whose headings mammoth turns into h1..h3 and whose other paragraphs become p. */
export async function makeDocx(paragraphs: DocxParagraph[]): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file("[Content_Types].xml", CONTENT_TYPES);
  zip.file("_rels/.rels", ROOT_RELS);
  zip.file("word/document.xml", documentXml(paragraphs));
  zip.file("word/_rels/document.xml.rels", DOCUMENT_RELS);
  zip.file("word/styles.xml", STYLES);
  return zip.generateAsync({ type: "uint8array" });
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typeAndData = new Uint8Array(4 + data.length);
  typeAndData.set(new TextEncoder().encode(type), 0);
  typeAndData.set(data, 4);
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(typeAndData, 4);
  view.setUint32(8 + data.length, Bun.hash.crc32(typeAndData));
  return chunk;
}

/** Writes a valid 1x1 grey PNG: the smallest real image, for "unsupported content" tests. */
export function makePng(): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, 1); // width
  view.setUint32(4, 1); // height
  header[8] = 8; // bit depth; colour type 0 (greyscale), compression, filter, interlace all 0
  // One scanline: filter byte 0, then one grey pixel; PNG wants zlib-wrapped deflate.
  const pixels = deflateSync(Uint8Array.from([0, 0x80]));
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", new Uint8Array(pixels)),
    pngChunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
