import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Ajv from "ajv";
import { extractHtml } from "../../src/extract/index.ts";
import {
  allowNulls,
  fillSchema,
  findStructured,
  groupByType,
  type Signal,
} from "../../src/structured/heuristics/index.ts";
import {
  type FixtureSite,
  STRUCTURED_PAGES,
  STRUCTURED_SCHEMAS,
  type StructuredPage,
  scoreFields,
  startFixtureSite,
  structuredExpected,
} from "../helpers/fixture-site.ts";

/**
 * The heuristic (no-LLM) path of structured extraction over the fixture site's product, article,
 * recipe, event, job and table pages, each served over HTTP and read as the pipeline reads it:
 * the HTML for findStructured, the main content as markdown for fillSchema's text patterns.
 * Every result is checked with ajv against its schema with null allowed for each property (what
 * the route validates heuristic results against), and field by field against what the page says.
 */

let site: FixtureSite;
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, logger: false });

interface Read {
  html: string;
  text: string;
  data: Record<string, unknown>;
  sources: Record<string, Signal>;
  found: ReturnType<typeof findStructured>;
}
const reads = new Map<string, Read>();

async function read(page: StructuredPage): Promise<Read> {
  const cached = reads.get(page.path);
  if (cached) return cached;
  const url = `${site.url}${page.path}`;
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const html = await res.text();
  const text = extractHtml(html, url, { format: "markdown", onlyMainContent: true, images: false }).content;
  const found = findStructured(html, url);
  const { data, sources } = fillSchema(STRUCTURED_SCHEMAS[page.type], found, text);
  const result = { html, text, data, sources, found };
  reads.set(page.path, result);
  return result;
}

/**
 * Fields no signal the heuristics read carries on that page: the venue and city printed as one
 * unlabelled line, a company name in a bare paragraph, a section link or a description that is
 * only a paragraph. Everything else must be found.
 */
const MISSES: Record<string, string[]> = {
  "/structured/product/none": ["description"],
  "/structured/article/none": ["section", "description"],
  "/structured/event/opengraph": ["venue", "city", "performer"],
  "/structured/event/none": ["venue", "city", "performer", "description"],
  "/structured/job/opengraph": ["company", "city"],
  "/structured/job/none": ["company", "city"],
};

beforeAll(async () => {
  site = await startFixtureSite();
});

afterAll(async () => {
  await site.stop();
});

describe.each(STRUCTURED_PAGES)("$path", (page) => {
  test("the result validates against its schema, every property present and null where not found", async () => {
    const { data } = await read(page);
    const schema = STRUCTURED_SCHEMAS[page.type];
    const validate = ajv.compile(allowNulls(schema));
    expect(validate(data) ? [] : validate.errors).toEqual([]);
    expect(Object.keys(data).sort()).toEqual(Object.keys(schema.properties as object).sort());
  });

  test("every value found is right, and only the known misses are missing", async () => {
    const { data } = await read(page);
    const expected = structuredExpected(page.type, site.url);
    const { wrong } = scoreFields(expected, data);
    const misses = MISSES[page.path] ?? [];
    expect(wrong.sort()).toEqual([...misses].sort());
    for (const field of misses) expect(data[field]).toBeNull();
  });
});

describe("signals", () => {
  const page = (type: string, variant: string) =>
    STRUCTURED_PAGES.find((p) => p.path === `/structured/${type}/${variant}`)!;

  test("each variant's fields come from its own signal: JSON-LD, microdata, OpenGraph, or patterns in the text", async () => {
    const price = async (variant: string) => (await read(page("product", variant))).sources.price;
    expect(await price("json-ld")).toBe("json-ld");
    expect(await price("microdata")).toBe("microdata");
    expect(await price("opengraph")).toBe("opengraph");
    expect(await price("none")).toBe("pattern");
    // The spec sheet is the only place a page without structured data names the brand and SKU.
    const none = await read(page("product", "none"));
    expect(none.sources.brand).toBe("table");
    expect(none.sources.sku).toBe("table");
    expect((await read(page("recipe", "none"))).sources.ingredients).toBe("definition-list");
    expect((await read(page("table", "none"))).sources.huts).toBe("table");
  });

  test("a complete JSON-LD page is valid against the user's own schema, no nulls needed", async () => {
    for (const type of ["product", "article", "recipe", "event", "job"]) {
      const { data } = await read(page(type, "json-ld"));
      const validate = ajv.compile(STRUCTURED_SCHEMAS[type as StructuredPage["type"]]);
      expect(validate(data) ? [] : validate.errors).toEqual([]);
    }
  });

  test("a page with nothing structured has no structured Founds, only layout and patterns", async () => {
    for (const type of ["product", "article", "recipe", "event", "job"]) {
      const { found } = await read(page(type, "none"));
      const signals = new Set(found.map((f) => f.signal));
      for (const signal of ["json-ld", "microdata", "rdfa", "opengraph", "twitter"] as const) {
        expect(signals.has(signal)).toBe(false);
      }
    }
  });
});

describe("groupByType (/v1/extract/auto without a schema)", () => {
  test("a JSON-LD product page: the product, its breadcrumbs, the site, the spec sheet and the page", async () => {
    const { found } = await read(STRUCTURED_PAGES.find((p) => p.path === "/structured/product/json-ld")!);
    const groups = groupByType(found);
    expect(Object.keys(groups).sort()).toEqual([
      "BreadcrumbList",
      "Page",
      "Product",
      "PropertyTable",
      "WebSite",
    ]);
    expect(groups.Product).toHaveLength(1);
    expect(groups.Product![0]).toMatchObject({
      name: "Hario Skerton Pro Keramik-Kaffeemühle",
      sku: "MMCS-2B",
    });
    expect(groups.PropertyTable![0]).toMatchObject({ Marke: "Hario", EAN: "4977642723702" });
  });

  test("the table page: its data table with records keyed by header, the contact list, the mailto link", async () => {
    const table = STRUCTURED_PAGES.find((p) => p.type === "table")!;
    const { html } = await read(table);
    const url = `${site.url}${table.path}`;
    const groups = groupByType(findStructured(html, url));
    expect(groups.Table).toHaveLength(1);
    const huts = groups.Table![0] as { headers: string[]; rows: Record<string, string>[]; caption: string };
    expect(huts.headers).toEqual(["Hut", "Altitude (m)", "Beds", "Half board (€)", "Season"]);
    expect(huts.rows[1]).toEqual({
      Hut: "Rifugio Lavaredo",
      "Altitude (m)": "2.344",
      Beds: "32",
      "Half board (€)": "68,50",
      Season: "June – September",
    });
    expect(huts.caption).toBe("Huts on the Tre Cime circuit");
    expect(groups.DefinitionList![0]).toMatchObject({ Email: "info@dolomiti-huts.example" });
    expect(groups.Email).toEqual([{ email: "info@dolomiti-huts.example" }]);
  });

  test("with the page text, prices, dates, emails and phones are grouped too", async () => {
    const job = STRUCTURED_PAGES.find((p) => p.path === "/structured/job/none")!;
    const { html, text } = await read(job);
    const groups = groupByType(findStructured(html, `${site.url}${job.path}`, text));
    expect(groups.Price?.map((p) => p.price)).toEqual([70000, 85000, 1000]);
    expect(groups.Date?.map((d) => d.date)).toEqual(["2025-01-10", "2025-02-28"]);
    expect(groups.Phone).toEqual([{ telephone: "+49 30 2589 4410" }]);
  });
});
