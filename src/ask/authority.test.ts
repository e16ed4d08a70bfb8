import { describe, expect, test } from "bun:test";
import { AUTHORITY_SITES, authorityOf } from "./authority.ts";

describe("authorityOf", () => {
  test.each([
    // Top-level domains of governments and intergovernmental bodies.
    ["https://www.nist.gov/pml/time", "official"],
    ["https://www.army.mil/about", "official"],
    ["https://www.who.int/news-room/fact-sheets", "official"],
    // Country forms: a reserved second level under a two-letter code.
    ["https://www.gov.uk/guidance/tides", "official"],
    ["https://www.service-public.gouv.fr/", "official"],
    ["https://www.mext.go.jp/en/", "official"],
    ["https://www.canada.gc.ca/en.html", "official"],
    // The table: standards bodies, subdomains included.
    ["https://www.w3.org/TR/html52/", "official"],
    ["https://datatracker.ietf.org/doc/html/rfc9110", "official"],
    ["https://html.spec.whatwg.org/multipage/", "official"],
    ["https://eur-lex.europa.eu/eli/reg/2016/679/oj", "official"],
    ["https://web.mit.edu/physics/", "institutional"],
    ["https://www.ox.ac.uk/research", "institutional"],
    ["https://www.unimelb.edu.au/", "institutional"],
    ["https://arxiv.org/abs/1706.03762", "institutional"],
    ["https://www.nature.com/articles/s41586-021-03819-2", "institutional"],
    ["https://en.wikipedia.org/wiki/Tide_mill", "major"],
    ["https://www.britannica.com/technology/watermill", "major"],
    ["https://developer.mozilla.org/en-US/docs/Web/HTTP", "major"],
    ["https://www.bbc.co.uk/news", "major"],
    ["HTTPS://EN.WIKIPEDIA.ORG./wiki/Tide", "major"],
  ])("%s is %s", (url, level) => {
    expect(authorityOf(url)).toBe(level as never);
  });

  test.each([
    // A listed site's name inside another name is not that site.
    "https://notwikipedia.org/wiki/Tide_mill",
    "https://wikipedia.org.example.com/",
    // Only developer.mozilla.org is listed, not all of mozilla.org.
    "https://www.mozilla.org/en-US/firefox/",
    // gov or edu as a label elsewhere than the suffix says nothing.
    "https://gov.example.com/",
    "https://www.gov.example.com/",
    "https://edu.example.org/",
    // A reserved second level only counts under a country code.
    "https://gov.example/",
    "https://tidemills.blog/",
    "http://127.0.0.1:8080/knowledge/tides",
    "not a url",
  ])("%s is general", (url) => {
    expect(authorityOf(url)).toBe("general");
  });

  test("the table is small and every entry is a bare host name", () => {
    const all = Object.values(AUTHORITY_SITES).flat();
    expect(all.length).toBeLessThanOrEqual(30);
    for (const site of all) expect(site).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(new Set(all).size).toBe(all.length);
  });
});
