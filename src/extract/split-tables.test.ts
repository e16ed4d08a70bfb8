import { describe, expect, test } from "bun:test";
import { extractHtml } from "./index.ts";

const TEAMS = ["Detroit Pistons", "Boston Celtics", "New York Knicks", "Cleveland Cavaliers"];

/** A team's cell as a standings page draws it: position, logo link, short and full name links. */
const teamCell = (name: string, i: number) =>
  `<td><div class="team-link"><span class="pos">${i + 1}</span><span class="logo"><a href="/team/${i}"><img alt="T${i}" src="/logo/${i}.png"></a></span> <span class="name"><a href="/team/${i}">${name}</a></span></div></td>`;

const statsRow = (i: number) =>
  `<tr><td>${50 - i * 3}</td><td>${15 + i * 3}</td><td>.${769 - i * 40}</td></tr>`;

/** One table drawn as two (a frozen first column beside the scrolling figures), as ESPN's standings are. */
function standings(
  options: {
    between?: string;
    teams?: string[];
    stats?: number;
    columnCells?: number;
    columnHead?: boolean;
  } = {},
) {
  const teams = options.teams ?? TEAMS;
  const column = teams
    .map((name, i) => `<tr>${teamCell(name, i)}${options.columnCells === 2 ? "<td>x</td>" : ""}</tr>`)
    .join("");
  const figures = Array.from({ length: options.stats ?? teams.length }, (_, i) => statsRow(i)).join("");
  return `<html><body><main><h1>Standings</h1>
<p>${"The table below lists every team's record this season, with wins, losses and the winning percentage. ".repeat(3)}</p>
<div class="responsive-table"><div class="title">Eastern Conference</div><div class="flex">
<table class="fixed-left">${options.columnHead === false ? "" : "<thead><tr><th></th></tr></thead>"}<tbody>${column}</tbody></table>
${options.between ?? ""}
<div class="scroller"><div class="shadow"></div><div class="inner">
<table><thead><tr><th>W</th><th>L</th><th>PCT</th></tr></thead><tbody>${figures}</tbody></table>
</div></div></div></div>
<p>${"Standings are updated with the completion of each game, and ties are broken by head-to-head record. ".repeat(2)}</p>
</main></body></html>`;
}

const markdown = (html: string, onlyMainContent = true) =>
  extractHtml(html, "https://sports.example/standings", {
    format: "markdown",
    onlyMainContent,
    images: false,
  }).content;

/** The markdown table row that holds `team`, or undefined. */
const rowOf = (md: string, team: string) =>
  md.split("\n").find((line) => line.startsWith("|") && line.includes(team));

describe("a frozen first column drawn as a table of its own", () => {
  test("joins the figures' rows: each team's row holds its record, in both modes", () => {
    for (const only of [true, false]) {
      const md = markdown(standings(), only);
      for (const [i, team] of TEAMS.entries()) {
        const row = rowOf(md, team);
        expect(row).toBeDefined();
        expect(row).toContain(`| ${50 - i * 3} | ${15 + i * 3} | .${769 - i * 40} |`);
      }
      // The header gains the column's (empty) header cell, so the columns still line up.
      expect(md).toContain("|   | W | L | PCT |");
    }
  });

  test("tables with text between them, different row counts or a wider first table stay apart", () => {
    const apart = [
      standings({ between: "<p>Western Conference leaders</p>" }),
      standings({ stats: TEAMS.length - 1 }),
      standings({ stats: TEAMS.length + 1 }),
      // As many rows, but the column's first is a team where the figures' is their header.
      standings({ stats: TEAMS.length - 1, columnHead: false }),
      standings({ columnCells: 2 }),
    ];
    for (const html of apart) {
      const md = markdown(html);
      // No row of the figures' table holds a team: they were not joined.
      expect(md).toContain("| 50 | 15 | .769 |");
      for (const team of TEAMS) expect(rowOf(md, team)?.includes(" | W | L | PCT |") ?? false).toBe(false);
      for (const [i, team] of TEAMS.entries())
        expect(rowOf(md, team)?.includes(`| ${50 - i * 3} | ${15 + i * 3} |`) ?? false).toBe(false);
    }
  });

  test("a first column with spanning cells stays apart", () => {
    const html = standings().replace(
      '<td><div class="team-link"><span class="pos">1',
      '<td rowspan="2"><div class="team-link"><span class="pos">1',
    );
    expect(rowOf(markdown(html), "| 50 | 15 |")?.startsWith("| 50 | 15 |")).toBe(true);
  });

  test("thousands of rows join at once", () => {
    const teams = Array.from({ length: 5_000 }, (_, i) => `Team number ${i}`);
    const started = performance.now();
    const md = markdown(standings({ teams }));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(rowOf(md, "Team number 4999")).toContain(`| ${50 - 4_999 * 3} |`);
  });
});

describe("links inside a data table's cells", () => {
  test("a cell's block of links (position, short and full name) is the row's data, not a menu", () => {
    const rows = TEAMS.map(
      (name, i) =>
        `<tr><td><div class="team"><span>${i + 1}</span> <a href="/team/${i}">T${i}</a> <a href="/team/${i}">${name}</a></div></td><td>${40 - i}</td></tr>`,
    ).join("");
    const html = `<html><body><main><h1>Teams</h1>
<p>${"Every team of the league with its wins so far this season. ".repeat(3)}</p>
<p>${"More words about the season and how the teams played in their games. ".repeat(3)}</p>
<table><thead><tr><th>Team</th><th>Wins</th></tr></thead><tbody>${rows}</tbody></table></main></body></html>`;
    const md = markdown(html);
    for (const [i, team] of TEAMS.entries()) expect(rowOf(md, team)).toContain(`| ${40 - i} |`);
  });
});
