import { expect, test } from "bun:test";
import { extractHtml } from "./index.ts";
import { repairMojibake } from "./mojibake.ts";

test("UTF-8 read as Windows-1252 or as Latin-1 reads as it was written", () => {
  expect(repairMojibake("a computerâ€™s memory")).toBe("a computer’s memory");
  expect(repairMojibake("a computer\u00e2\u0080\u0099s memory")).toBe("a computer’s memory");
  expect(repairMojibake("L'avenir des idÃ©es, Ã‰cole")).toBe("L'avenir des idées, École");
  expect(repairMojibake("offersÂ\u00a0a free edition")).toBe("offers\u00a0a free edition");
  expect(repairMojibake("$6â€“$10 PEPM, â€œbasicâ€\u009d, Â©Â\u00a02024, 5â‚¬, Brandâ„¢")).toBe(
    "$6–$10 PEPM, “basic”, ©\u00a02024, 5€, Brand™",
  );
});

test("text that only looks like it stays as written", () => {
  for (const text of [
    "Ã la carte",
    "NÃO, SÃO PAULO, MÃE",
    "café’s menu, CAFÉ® and the Café–Bar",
    "Ó’Brien",
    "ÞÓRÐUR og ðú",
    "Preis: 5 €, « Ça va », ¿Qué?",
    "ðŸ˜€ stays: four-byte sequences are left alone",
  ])
    expect(repairMojibake(text)).toBe(text);
});

test("a page whose text was encoded twice reads as written in its text and image descriptions, scripts untouched", () => {
  const html = `<html><head><title>Grandmaâ€™s casserole</title><script>var s = "â€™";</script></head><body><article>
    <h1>Grandmaâ€™s casserole</h1>
    <p>Itâ€™s the dish my grandmother made every Sunday, and the one the whole family still asks for: ground beef, noodles and cheese, baked until golden.</p>
    <p><img src="/casserole.jpg" alt="a white dish of Grandmaâ€™s casserole"></p>
    <p>Bake it at 350Â°F for 30â€“35 minutes, until the top is golden and the sauce bubbles at the edges of the dish.</p>
  </article></body></html>`;
  const doc = extractHtml(html, "https://recipes.example/casserole", {
    format: "markdown",
    onlyMainContent: false,
    images: true,
  });
  expect(doc.title).toBe("Grandma’s casserole");
  expect(doc.content).toContain("It’s the dish my grandmother made");
  expect(doc.content).toContain("![a white dish of Grandma’s casserole]");
  expect(doc.content).toContain("350°F for 30–35 minutes");
  expect(doc.content).not.toMatch(/â€|Â/);
});
