/**
 * Pages in legacy encodings. TextEncoder only writes UTF-8, so the bytes are
 * produced from small code tables (single-byte charsets) or spelled out
 * (Shift_JIS, GBK). Each page states the text a correct decoder must yield.
 */

/** How a page announces its charset. */
export type CharsetSource = "header" | "meta" | "http-equiv" | "bom";

/** One encoded fixture page and the phrase that must come out after decoding. */
export interface EncodedPage {
  path: string;
  charset: string;
  declaredIn: CharsetSource;
  /** Content-Type header the server sends. */
  contentType: string;
  /** A phrase in the body, as Unicode; a test compares decoded output against it. */
  expected: string;
  body: Uint8Array;
}

export const WINDOWS_1252_TEXT = "Café crème brûlée für “smart quotes” – only €5";
export const ISO_8859_2_TEXT = "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy.";
export const SHIFT_JIS_TEXT = "東京の天気は晴れです。日本語のテキスト";
export const GBK_TEXT = "你好，世界！这是简体中文测试。";
export const BOM_UTF8_TEXT = "Grüße aus Köln — naïve café";

const SHIFT_JIS_BYTES = [
  0x93, 0x8c, 0x8b, 0x9e, 0x82, 0xcc, 0x93, 0x56, 0x8b, 0x43, 0x82, 0xcd, 0x90, 0xb0, 0x82, 0xea, 0x82, 0xc5,
  0x82, 0xb7, 0x81, 0x42, 0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x83, 0x65, 0x83, 0x4c, 0x83, 0x58,
  0x83, 0x67,
];
const GBK_BYTES = [
  0xc4, 0xe3, 0xba, 0xc3, 0xa3, 0xac, 0xca, 0xc0, 0xbd, 0xe7, 0xa3, 0xa1, 0xd5, 0xe2, 0xca, 0xc7, 0xbc, 0xf2,
  0xcc, 0xe5, 0xd6, 0xd0, 0xce, 0xc4, 0xb2, 0xe2, 0xca, 0xd4, 0xa1, 0xa3,
];

/** windows-1252 differs from Latin-1 only in 0x80-0x9F; these are the characters the fixtures use there. */
const WINDOWS_1252_SPECIALS: Record<string, number> = {
  "€": 0x80,
  "“": 0x93,
  "”": 0x94,
  "–": 0x96,
  "—": 0x97,
};

/** ISO-8859-2 code points of the Polish and Czech letters the fixtures use. */
const ISO_8859_2: Record<string, number> = {
  ą: 0xb1,
  ć: 0xe6,
  ę: 0xea,
  ł: 0xb3,
  ń: 0xf1,
  ó: 0xf3,
  ś: 0xb6,
  ź: 0xbc,
  ż: 0xbf,
  á: 0xe1,
  č: 0xe8,
  ď: 0xef,
  é: 0xe9,
  ě: 0xec,
  í: 0xed,
  ň: 0xf2,
  ř: 0xf8,
  š: 0xb9,
  ť: 0xbb,
  ú: 0xfa,
  ů: 0xf9,
  ý: 0xfd,
  ž: 0xbe,
  Ž: 0xae,
  Ł: 0xa3,
  Ś: 0xa6,
  Č: 0xc8,
  Ř: 0xd8,
  Š: 0xa9,
};

/** Encodes with ASCII pass-through and a table; throws for anything the table lacks so fixtures never lie. */
function encodeSingleByte(text: string, table: Record<string, number>, latin1Range: boolean): Uint8Array {
  return Uint8Array.from(text, (ch) => {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) return code;
    const mapped = table[ch] ?? (latin1Range && code >= 0xa0 && code <= 0xff ? code : undefined);
    if (mapped === undefined) throw new Error(`No single-byte code for ${ch}`);
    return mapped;
  });
}

/** Joins ASCII markup and pre-encoded text bytes into one body. */
function concat(parts: (string | Uint8Array | number[])[]): Uint8Array {
  const chunks = parts.map((part) => {
    if (typeof part !== "string") return Uint8Array.from(part);
    if (/[^\x00-\x7f]/.test(part)) throw new Error("Markup around encoded text must be ASCII");
    return new TextEncoder().encode(part);
  });
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function page(
  head: string,
  lang: string,
  title: string,
  text: Uint8Array | number[],
): (string | Uint8Array | number[])[] {
  return [
    `<!DOCTYPE html>\n<html lang="${lang}">\n<head>${head}<title>${title}</title></head>\n<body>\n<main>\n<h1>${title}</h1>\n<p>`,
    text,
    "</p>\n<p>This paragraph is plain ASCII so the page has enough text to count as an article.</p>\n</main>\n</body>\n</html>\n",
  ];
}

/** Every encoded page of the fixture site. */
export const ENCODED_PAGES: readonly EncodedPage[] = [
  {
    path: "/enc/windows-1252",
    charset: "windows-1252",
    declaredIn: "header",
    contentType: "text/html; charset=windows-1252",
    expected: WINDOWS_1252_TEXT,
    body: concat(
      page("", "fr", "Menu du jour", encodeSingleByte(WINDOWS_1252_TEXT, WINDOWS_1252_SPECIALS, true)),
    ),
  },
  {
    path: "/enc/iso-8859-2",
    charset: "iso-8859-2",
    declaredIn: "http-equiv",
    contentType: "text/html",
    expected: ISO_8859_2_TEXT,
    body: concat(
      page(
        '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">',
        "pl",
        "Pangramy",
        encodeSingleByte(ISO_8859_2_TEXT, ISO_8859_2, false),
      ),
    ),
  },
  {
    path: "/enc/shift_jis",
    charset: "shift_jis",
    declaredIn: "meta",
    contentType: "text/html",
    expected: SHIFT_JIS_TEXT,
    body: concat(page('<meta charset="Shift_JIS">', "ja", "Tenki", SHIFT_JIS_BYTES)),
  },
  {
    path: "/enc/gbk",
    charset: "gbk",
    declaredIn: "header",
    contentType: "text/html; charset=gbk",
    expected: GBK_TEXT,
    body: concat(page("", "zh-CN", "Ceshi", GBK_BYTES)),
  },
  {
    path: "/enc/bom-utf8",
    charset: "utf-8",
    declaredIn: "bom",
    contentType: "text/html",
    expected: BOM_UTF8_TEXT,
    body: concat([
      [0xef, 0xbb, 0xbf],
      ...page("", "de", "Reisebericht", Array.from(new TextEncoder().encode(BOM_UTF8_TEXT))),
    ]),
  },
];
