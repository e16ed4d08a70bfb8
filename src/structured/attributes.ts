import { SiphonError } from "../errors.ts";
import { loadHtml } from "../extract/dom.ts";
import { cssError } from "./selectors.ts";

/** One selector's attribute and every value it has on the page. */
export interface AttributeValues {
  selector: string;
  attribute: string;
  /** The attribute's values on the matching elements, in page order, as written (elements without it are skipped). */
  values: string[];
}

/**
 * Checks every selector of an attributes format before anything is fetched.
 * Throws SiphonError invalid_request naming the first that is not a CSS selector.
 */
export function checkAttributeSelectors(selectors: { selector: string }[]): void {
  for (const [i, { selector }] of selectors.entries()) {
    const why = cssError(selector);
    if (why !== undefined) {
      throw new SiphonError(
        "invalid_request",
        `The attributes format: selectors.${i}.selector "${selector}" is not a CSS selector: ${why}`,
      );
    }
  }
}

/**
 * Reads attribute values off a page (Firecrawl's attributes format): for each {selector,
 * attribute}, the attribute's value on every element the selector matches, in page order and
 * as the page writes it (a relative href stays relative, as in the HTML).
 */
export function readAttributes(
  html: string,
  selectors: { selector: string; attribute: string }[],
): AttributeValues[] {
  // The page's tree as extraction sees it (htmlparser2, bounded in depth like a browser's).
  const $ = loadHtml(html);
  return selectors.map(({ selector, attribute }) => {
    const values: string[] = [];
    for (const element of $(selector).toArray()) {
      const value = $(element).attr(attribute);
      if (value !== undefined) values.push(value);
    }
    return { selector, attribute, values };
  });
}
