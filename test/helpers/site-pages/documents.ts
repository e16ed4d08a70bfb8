import { type DocxParagraph, makeDocx, makePdf, makePng } from "../documents.ts";

/** Title in the Info dictionary of /doc.pdf. */
export const PDF_TITLE = "Quarterly Water Quality Report";
/** The pages of /doc.pdf, one string per page (lines split on "\n"). */
export const PDF_PAGES = [
  "Quarterly Water Quality Report\nAll 48 sampling sites met the drinking water standard.",
  "Appendix A: Methods\nSamples were taken weekly and analysed within 24 hours.",
] as const;

/** The paragraphs of /doc.docx. */
export const DOCX_PARAGRAPHS: readonly DocxParagraph[] = [
  { text: "Employee Handbook", heading: 1 },
  { text: "Welcome to Fixture Corp. This handbook explains how we work." },
  { text: "Working hours", heading: 2 },
  { text: "Core hours are 10:00 to 16:00; the rest of the day is yours to arrange." },
  { text: "Remote days", heading: 3 },
  { text: "Everyone may work remotely up to three days a week." },
];

/** The binary documents the fixture site serves, built once per server start. */
export interface SiteDocuments {
  pdf: Uint8Array;
  docx: Uint8Array;
  png: Uint8Array;
}

/** Builds the PDF, DOCX and PNG served by /doc.pdf, /doc.docx and /image.png. */
export async function buildSiteDocuments(): Promise<SiteDocuments> {
  return {
    pdf: makePdf([...PDF_PAGES], PDF_TITLE),
    docx: await makeDocx([...DOCX_PARAGRAPHS]),
    png: makePng(),
  };
}
