import { clean, type ParentNode, walkElements } from "./dom.ts";
import type { Found } from "./types.ts";

/** Email addresses and phone numbers the page links to (mailto:, tel:), each once, as Email and Phone Founds. */
export function findContactLinks(root: ParentNode): Found[] {
  const emails = new Set<string>();
  const phones = new Set<string>();
  walkElements(root, (el) => {
    if (el.name !== "a") return undefined;
    const href = el.attribs.href?.trim() ?? "";
    if (/^mailto:/i.test(href)) {
      const email = clean(decodeURIComponent(href.slice(7).split("?")[0] ?? ""));
      if (email?.includes("@")) emails.add(email);
    } else if (/^tel:/i.test(href)) {
      const phone = clean(decodeURIComponent(href.slice(4)));
      if (phone && phone.replace(/\D/g, "").length >= 6) phones.add(phone);
    }
    return undefined;
  });
  return [
    ...[...emails].map((email): Found => ({ type: "Email", data: { email }, signal: "pattern" })),
    ...[...phones].map((telephone): Found => ({ type: "Phone", data: { telephone }, signal: "pattern" })),
  ];
}
