import type { Authority } from "../schemas/ask.ts";

/**
 * How much a page's site is trusted, decided by its host name alone: a few rules on the
 * top-level domain, then a small table of sites. A host matches a site when it is the site or
 * one of its subdomains (en.wikipedia.org matches wikipedia.org). The table is short on
 * purpose: it names the bodies that write the rules (standards, governments) and the
 * references most questions land on, not a ranking of the web. docs/search-and-answers.md (Ask) lists it.
 */

/** Sites by level; each entry covers its subdomains. */
export const AUTHORITY_SITES: Readonly<Record<Exclude<Authority, "general">, readonly string[]>> = {
  // Standards bodies and intergovernmental organisations (.gov, .mil and .int are TLD rules).
  official: [
    "w3.org",
    "whatwg.org",
    "ietf.org",
    "rfc-editor.org",
    "iso.org",
    "ecma-international.org",
    "unicode.org",
    "europa.eu",
    "un.org",
  ],
  // Research: preprints, journals, learned societies (universities are TLD rules).
  institutional: ["arxiv.org", "nature.com", "science.org", "acm.org", "ieee.org", "royalsociety.org"],
  // Large edited references and news desks with corrections policies.
  major: [
    "wikipedia.org",
    "britannica.com",
    "developer.mozilla.org",
    "bbc.co.uk",
    "bbc.com",
    "reuters.com",
    "apnews.com",
    "theguardian.com",
    "nytimes.com",
    "npr.org",
  ],
};

/** Top-level domains of governments and intergovernmental organisations. */
const OFFICIAL_TLDS = new Set(["gov", "mil", "int"]);
/** Second-level domains that countries reserve for their government: gov.uk, gouv.fr, go.jp, gc.ca. */
const OFFICIAL_SLDS = new Set(["gov", "gouv", "go", "gob", "gc", "mil"]);
/** Second-level domains that countries reserve for universities: ac.uk, edu.au. */
const INSTITUTIONAL_SLDS = new Set(["ac", "edu"]);

const LEVELS = ["official", "institutional", "major"] as const;

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return null;
  }
}

/** What the domain's own suffix says: gov, mil, int, edu, and the country forms of each. */
function byTld(labels: string[]): Authority | null {
  const tld = labels.at(-1) ?? "";
  if (OFFICIAL_TLDS.has(tld)) return "official";
  if (tld === "edu") return "institutional";
  // A country code under a reserved second level: www.gov.uk, www.ox.ac.uk.
  const sld = labels.at(-2);
  if (labels.length >= 3 && tld.length === 2 && sld) {
    if (OFFICIAL_SLDS.has(sld)) return "official";
    if (INSTITUTIONAL_SLDS.has(sld)) return "institutional";
  }
  return null;
}

/** The authority of the site serving `url`; "general" for anything the rules do not name. */
export function authorityOf(url: string): Authority {
  const host = hostOf(url);
  if (!host) return "general";
  const labels = host.split(".");
  const tld = byTld(labels);
  if (tld) return tld;
  for (const level of LEVELS) {
    if (AUTHORITY_SITES[level].some((site) => host === site || host.endsWith(`.${site}`))) return level;
  }
  return "general";
}
