import { Text } from "domhandler";
import { appendChild, removeElement } from "domutils";
import { type Element, forEachElement, type ParentNode } from "./nodes.ts";

/**
 * Cloudflare's email obfuscation: a site behind Cloudflare serves each address on its pages as
 * `<span class="__cf_email__" data-cfemail="HEX">[email protected]</span>`, its link as
 * `<a href="/cdn-cgi/l/email-protection#HEX">`, and a script in the reader's browser writes the
 * address back. Without that script, a page's "email us at" says "[email protected]" and links to a
 * Cloudflare page. The hex is the address's UTF-8 bytes, each XORed with the first byte (the key):
 * the address is read back here as the browser would, and the link made a `mailto:` link.
 */

const CF_ATTR = "data-cfemail";
const CF_PATH = /\/cdn-cgi\/l\/email-protection(?:#([0-9a-f]*))?$/i;
const HEX = /^(?:[0-9a-f]{2}){2,}$/i;
/** What a decoded address may not hold: control characters (a wrong key reads as them). */
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The address `hex` encodes, or null when it is not one (bad hex, bad UTF-8, control characters). */
export function decodeCfEmail(hex: string): string | null {
  if (!HEX.test(hex)) return null;
  const key = Number.parseInt(hex.slice(0, 2), 16);
  const bytes = new Uint8Array(hex.length / 2 - 1);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(hex.slice(2 * i + 2, 2 * i + 4), 16) ^ key;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  return text.trim() && !CONTROL.test(text) ? text : null;
}

/** Replaces `el`'s content with `text`. */
function setText(el: Element, text: string): void {
  for (const child of [...el.children]) removeElement(child);
  appendChild(el, new Text(text));
}

/** Writes every obfuscated address under `root` back as its text, and its link as `mailto:`. */
export function revealCfEmails(root: ParentNode): void {
  forEachElement(root, (el) => {
    const a = el.attribs;
    const coded = a[CF_ATTR];
    if (coded !== undefined) {
      const address = decodeCfEmail(coded);
      if (address !== null) {
        setText(el, address);
        delete a[CF_ATTR];
        if (el.name === "a" && CF_PATH.test(a.href ?? "")) a.href = `mailto:${address}`;
      }
      return;
    }
    if (el.name !== "a") return;
    const hex = CF_PATH.exec(a.href?.trim() ?? "")?.[1];
    const address = hex ? decodeCfEmail(hex) : null;
    if (address !== null) a.href = `mailto:${address}`;
  });
}
