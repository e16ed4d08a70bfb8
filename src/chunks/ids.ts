/**
 * Chunk ids: a hash of the page URL, the heading path and the text, so the same chunk gets the
 * same id on every run and an edit elsewhere on the page leaves it alone (the index is not hashed).
 */

/** The first 16 hex digits of sha256(url + "\n" + headings joined by NUL + "\n" + text). */
export function chunkId(url: string, headings: readonly string[], text: string): string {
  return Bun.SHA256.hash(`${url}\n${headings.join("\u0000")}\n${text}`, "hex").slice(0, 16);
}

/**
 * Ids made unique within one page: the second chunk with an id already given (identical text
 * under identical headings) gets "-2" appended, the third "-3", in page order.
 */
export function uniqueIds(ids: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? id : `${id}-${n}`;
  });
}
