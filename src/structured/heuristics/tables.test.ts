import { describe, expect, test } from "bun:test";
import { parseDocument } from "./dom.ts";
import { findDefinitionLists, findTables } from "./tables.ts";

const tables = (body: string) => findTables(parseDocument(`<html><body>${body}</body></html>`));
const lists = (body: string) => findDefinitionLists(parseDocument(`<html><body>${body}</body></html>`));

describe("findTables", () => {
  test("a table with a thead is records keyed by its header cells, colspans spread", () => {
    const [table] = tables(`<table><caption>Huts</caption>
      <thead><tr><th>Hut</th><th>Altitude</th><th colspan="2">Open</th></tr></thead>
      <tbody><tr><td>Rifugio <b>Auronzo</b></td><td>2,320 m</td><td>June</td><td>Sept</td></tr>
      <tr><td>Lavaredo</td><td>2,344 m</td><td>July</td></tr></tbody></table>`);
    expect(table).toEqual({
      type: "Table",
      signal: "table",
      data: {
        caption: "Huts",
        headers: ["Hut", "Altitude", "Open", "Open 2"],
        rows: [
          { Hut: "Rifugio Auronzo", Altitude: "2,320 m", Open: "June", "Open 2": "Sept" },
          { Hut: "Lavaredo", Altitude: "2,344 m", Open: "July", "Open 2": null },
        ],
      },
    });
  });

  test("a first row of th cells is a header row too", () => {
    const [table] = tables(
      `<table><tr><th>Plan</th><th>Price</th></tr><tr><td>Pro</td><td>€9</td></tr></table>`,
    );
    expect(table!.data.rows).toEqual([{ Plan: "Pro", Price: "€9" }]);
  });

  test("a spec sheet (a th label starting each row) is a PropertyTable", () => {
    const [table] = tables(
      `<table><tr><th>Weight</th><td>320 g</td></tr><tr><th>Colour</th><td>Black</td></tr></table>`,
    );
    expect(table).toEqual({
      type: "PropertyTable",
      signal: "table",
      data: { Weight: "320 g", Colour: "Black" },
    });
  });

  test("layout tables are skipped: no header cells, one column, tables holding tables, tables in navigation", () => {
    const found = tables(`
      <table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>
      <table><tr><th>Only</th></tr><tr><td>one</td></tr></table>
      <table><tr><th>A</th><th>B</th></tr><tr><td><table><tr><th>X</th><th>Y</th></tr><tr><td>1</td><td>2</td></tr></table></td><td>z</td></tr></table>
      <nav><table><tr><th>Menu</th><th>Links</th></tr><tr><td>Home</td><td>/</td></tr></table></nav>`);
    expect(found.map((f) => f.data.rows)).toEqual([[{ X: "1", Y: "2" }]]);
  });
});

describe("findDefinitionLists", () => {
  test("a dl is term -> definition; several definitions make an array; div-wrapped groups count", () => {
    const [dl] = lists(`<dl><dt>Email:</dt><dd>info@hut.example</dd><dt>Season</dt><dd>June</dd><dd>July</dd>
      <div><dt>Beds</dt><dd>84</dd></div></dl>`);
    expect(dl).toEqual({
      type: "DefinitionList",
      signal: "definition-list",
      data: { Email: "info@hut.example", Season: ["June", "July"], Beds: "84" },
    });
  });

  test("lists under headings are one Lists Found, keyed by heading; navigation lists are not", () => {
    const found = lists(`<nav><h2>Menu</h2><ul><li>Home</li></ul></nav>
      <h2>Ingredients</h2><ul><li>250 g tapioca flour</li><li>2 eggs</li></ul>
      <h2>Method</h2><ol><li>Heat the milk.</li><li>Bake.</li></ol>`);
    expect(found).toEqual([
      {
        type: "Lists",
        signal: "definition-list",
        data: { Ingredients: ["250 g tapioca flour", "2 eggs"], Method: ["Heat the milk.", "Bake."] },
      },
    ]);
  });
});
