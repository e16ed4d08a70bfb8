import { SiphonError } from "../errors.ts";

/**
 * Converts a DOCX file to HTML (headings, lists, tables, links) so the normal
 * HTML extraction can produce the requested format. Throws SiphonError
 * unsupported_content when the bytes are not a readable DOCX.
 */
export async function docxToHtml(body: Uint8Array): Promise<string> {
  // Loaded only for a DOCX: mammoth and its zip and XML modules would cost every fetch's start-up.
  const { default: mammoth } = await import("mammoth");
  try {
    // mammoth's Node entry wants a Buffer; a view over the same bytes avoids a copy.
    const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    // Never let a document pull files from the machine running siphon (external image links).
    const result = await mammoth.convertToHtml({ buffer }, { externalFileAccess: false });
    return result.value;
  } catch (error) {
    throw new SiphonError(
      "unsupported_content",
      "The DOCX could not be read: it is corrupt or not a Word document.",
      {
        hint: "Check that the URL serves a complete .docx file (the older .doc format is not supported).",
        cause: error,
      },
    );
  }
}
