import { describe, expect, test } from "bun:test";
import {
  durationMinutes,
  findAvailability,
  findByline,
  findDates,
  findEmails,
  findLabels,
  findOrganizer,
  findPatterns,
  findPhones,
  findPrices,
  findRating,
  parseAmount,
} from "./patterns.ts";

describe("prices", () => {
  test.each([
    ["€39.95", 39.95, "EUR"],
    ["49,90 €", 49.9, "EUR"],
    ["EUR 12,50", 12.5, "EUR"],
    ["$1,299.00", 1299, "USD"],
    ["1.234,56 €", 1234.56, "EUR"],
    ["1 234,56 €", 1234.56, "EUR"],
    ["£5", 5, "GBP"],
    ["¥1,200", 1200, "JPY"],
    ["SEK 350", 350, "SEK"],
    ["350 kr", 350, "SEK"],
    ["CHF 19.-", 19, "CHF"],
  ])("%s is %d %s", (text, amount, currency) => {
    expect(findPrices(`Price: ${text} today`)).toEqual([{ amount, currency, text, former: false }]);
  });

  test("struck-through and 'was' prices are marked former; numbers without a currency are not prices", () => {
    const prices = findPrices("~~€59,90~~ now €49,90, statt 70,00 € · 30% off · 12 items");
    expect(prices.map((p) => [p.amount, p.former])).toEqual([
      [59.9, true],
      [49.9, false],
      [70, true],
    ]);
  });

  test("parseAmount reads both decimal marks and thousands separators", () => {
    expect(parseAmount("12,500")).toBe(12500);
    expect(parseAmount("12,50")).toBe(12.5);
    expect(parseAmount("1.299")).toBe(1299);
    expect(parseAmount("4.7")).toBe(4.7);
    expect(parseAmount("abc")).toBeNull();
  });
});

describe("dates", () => {
  test("ISO, written and numeric dates, with times, in text order", () => {
    const text =
      "Posted 2024-05-14T08:30:00+02:00. Friday 21 March 2025, 19:30; March 15, 2024 at 7:30 pm; 15. März 2024; 15.03.2024 um 19:30 Uhr; 03/15/2024; 4/5/2024";
    expect(findDates(text).map((d) => d.date)).toEqual([
      "2024-05-14T08:30:00+02:00",
      "2025-03-21T19:30:00",
      "2024-03-15T19:30:00",
      "2024-03-15",
      "2024-03-15T19:30:00",
      "2024-03-15",
      "2024-05-04",
    ]);
  });

  test("a time range after a date ends the same day", () => {
    expect(findDates("Friday, 21 March 2025, 19:30 – 23:00 · doors 18:30").map((d) => d.date)).toEqual([
      "2025-03-21T19:30:00",
      "2025-03-21T23:00:00",
    ]);
  });

  test("impossible dates are not dates", () => {
    expect(findDates("on 31.13.2024 or 2024-00-10 or 45 March 2024")).toEqual([]);
  });
});

describe("contacts", () => {
  test("emails, each once, without a sentence's full stop", () => {
    expect(findEmails("Write to jobs@kestrel.example. Or jobs@kestrel.example, or a.b+c@mail.co.uk")).toEqual(
      ["jobs@kestrel.example", "a.b+c@mail.co.uk"],
    );
  });

  test("phones: international, North American, and national ones only after a label; ISBNs and dates are not", () => {
    expect(
      findPhones(
        "Call +49 30 901820 or (555) 123-4567. Tel.: 030 1234567. ISBN 978-3-16-148410-0 on 2024-05-14",
      ),
    ).toEqual(["+49 30 901820", "(555) 123-4567", "030 1234567"]);
  });
});

describe("bylines, organisers, ratings", () => {
  test("a line starting 'By' names the author, particles included, up to the first punctuation", () => {
    expect(findByline("# Soup\n\nBy Camila de la Rocha · 2 September 2023")).toBe("Camila de la Rocha");
    expect(findByline("Von J. Müller, Berlin")).toBe("J. Müller");
    expect(findByline("Nearby stations are listed below")).toBeNull();
    expect(findByline("By the river we walked")).toBeNull();
  });

  test("'Presented by' names the organiser and stops at the sentence's end", () => {
    expect(findOrganizer("Presented by Nordic Jazz Society. Questions: mail us")).toBe("Nordic Jazz Society");
    expect(findOrganizer("Doors open at 7")).toBeNull();
    expect(findOrganizer("hosted by the river, a gig")).toBeNull();
  });

  test("ratings and review counts as shops and recipe cards print them", () => {
    expect(findRating("★★★★½ 4,6 von 5 Sternen (218 Bewertungen)")).toEqual({
      ratingValue: 4.6,
      reviewCount: 218,
    });
    expect(findRating("★★★★★ 4.8 from 57 votes")).toEqual({ ratingValue: 4.8, reviewCount: 57 });
    expect(findRating("Rated 4.5 out of 5 by 1,204 customer reviews")).toEqual({
      ratingValue: 4.5,
      reviewCount: 1204,
    });
    expect(findRating("Serves 4 people in 5 minutes")).toEqual({ ratingValue: null, reviewCount: null });
  });
});

describe("durations, labels, availability", () => {
  test("minutes from ISO 8601 and written durations", () => {
    expect(durationMinutes("PT1H30M")).toBe(90);
    expect(durationMinutes("1 hr 30 mins")).toBe(90);
    expect(durationMinutes("45 Min.")).toBe(45);
    expect(durationMinutes("2 Stunden")).toBe(120);
    expect(durationMinutes("24 rolls")).toBeNull();
  });

  test("'Label: value' lines, markdown emphasis and bullets removed", () => {
    expect(
      findLabels("**Location:** Berlin\n- Salary: €55,000\nhttps://x.example\nIt is as I said: no label"),
    ).toEqual({
      Location: "Berlin",
      Salary: "€55,000",
    });
  });

  test("the first stock phrase decides availability", () => {
    expect(findAvailability("In stock — ships tomorrow")).toBe("InStock");
    expect(findAvailability("Leider ausverkauft. Bald wieder auf Lager")).toBe("OutOfStock");
    expect(findAvailability("Add to basket")).toBeNull();
  });
});

test("findPatterns reads markdown: links are their text, and each value is a typed Found", () => {
  const found = findPatterns(
    "**Price:** [€12](https://x.example/2023-01-05/p) · mail [us](mailto:a@b.example) a@b.example on 2024-01-02",
  );
  expect(found.map((f) => f.type)).toEqual(["Price", "Date", "Email", "Labels"]);
  expect(found[0]!.data).toEqual({ price: 12, priceCurrency: "EUR", text: "€12" });
  expect(found[1]!.data.date).toBe("2024-01-02");
});
