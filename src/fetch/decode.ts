/** A decoded response body and the canonical name of the encoding that was used. */
export interface DecodedBody {
  text: string;
  charset: string;
}

// Spellings seen in the wild that the WHATWG label table does not know.
const EXTRA_ALIASES: Record<string, string> = {
  cp932: "shift_jis",
  "x-ms-cp932": "shift_jis",
  cp936: "gbk",
  cp949: "euc-kr",
  ks_c_5601: "euc-kr",
  "latin-1": "windows-1252",
  utf_8: "utf-8",
  "utf-8n": "utf-8",
};

/** How far into the document the meta/XML declaration prescan looks (HTML's prescan uses 1024; pages are sloppier). */
const PRESCAN_BYTES = 4096;

/** Returns the canonical encoding name for a label, or null when TextDecoder does not support it. */
function canonical(label: string | undefined): string | null {
  if (!label) return null;
  const cleaned = label
    .trim()
    .toLowerCase()
    .replace(/^["']|["']$/g, "");
  const name = EXTRA_ALIASES[cleaned] ?? cleaned;
  try {
    const encoding = new TextDecoder(name).encoding;
    // "replacement" (iso-2022-kr and friends) decodes everything to one U+FFFD: worse than a guess.
    return encoding === "replacement" ? null : encoding;
  } catch {
    return null;
  }
}

function fromBom(body: Uint8Array): string | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return "utf-8";
  if (body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
  if (body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
  return null;
}

function fromContentType(header: string | undefined): string | null {
  const match = header ? /charset\s*=\s*["']?([^"';\s,]+)/i.exec(header) : null;
  return canonical(match?.[1]);
}

function fromDocument(body: Uint8Array): string | null {
  // Declarations are ASCII, and latin1 maps every byte to one character, so offsets are safe.
  const head = new TextDecoder("windows-1252").decode(body.subarray(0, PRESCAN_BYTES));
  const xml = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  // Covers both <meta charset="x"> and <meta http-equiv="Content-Type" content="text/html; charset=x">.
  const meta = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(head);
  const found = canonical(xml?.[1] ?? meta?.[1]);
  // An ASCII-readable declaration cannot truly be UTF-16; HTML says to read it as UTF-8.
  return found?.startsWith("utf-16") ? "utf-8" : found;
}

function countReplacements(text: string): { invalid: number; nonAscii: number } {
  let invalid = 0;
  let nonAscii = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0xfffd) invalid++;
    else if (code > 0x7f) nonAscii++;
  }
  return { invalid, nonAscii };
}

/**
 * Decodes a response body to text. The encoding comes from, in order: a byte-order mark,
 * the Content-Type charset, a `<meta charset>` / `<meta http-equiv>` / XML declaration in
 * the first 4 KB, else UTF-8. Undeclared bodies that are mostly invalid UTF-8 are read as
 * windows-1252 (what browsers do for legacy pages). Unknown labels fall back; never throws.
 */
export function decodeBody(body: Uint8Array, contentTypeHeader: string | undefined): DecodedBody {
  const declared = fromBom(body) ?? fromContentType(contentTypeHeader) ?? fromDocument(body);
  if (declared) return { text: new TextDecoder(declared).decode(body), charset: declared };

  const text = new TextDecoder("utf-8").decode(body);
  const { invalid, nonAscii } = countReplacements(text);
  // Real UTF-8 with a few corrupt bytes still has many valid non-ASCII characters; a legacy
  // single-byte page has almost none, because its accented bytes are invalid UTF-8 on their own.
  if (invalid > 0 && invalid > nonAscii) {
    return { text: new TextDecoder("windows-1252").decode(body), charset: "windows-1252" };
  }
  return { text, charset: "utf-8" };
}
