import { describe, expect, test } from "bun:test";
import { fillSchema } from "./map.ts";
import type { Found } from "./types.ts";

const product = (signal: Found["signal"], data: Record<string, unknown>): Found => ({
  type: "Product",
  data,
  signal,
});

describe("fillSchema", () => {
  test("maps field names to schema.org paths and coerces to the schema's types", () => {
    const found = [
      product("json-ld", {
        name: "Mill",
        brand: { "@type": "Brand", name: "Hario" },
        offers: { price: "49,90", priceCurrency: "EUR", availability: "https://schema.org/InStock" },
        aggregateRating: { ratingValue: "4.6", reviewCount: "218" },
        image: ["https://x.example/a.jpg", "https://x.example/b.jpg"],
      }),
    ];
    const schema = {
      type: "object",
      properties: {
        name: { type: "string" },
        brand: { type: "string" },
        price: { type: "number" },
        currency: { type: "string" },
        rating: { type: "number" },
        reviewCount: { type: "integer" },
        inStock: { type: "boolean" },
        availability: { type: "string" },
        image: { type: "string" },
        images: { type: "array", items: { type: "string" } },
        gtin: { type: "string" },
      },
    };
    expect(fillSchema(schema, found, "")).toEqual({
      data: {
        name: "Mill",
        brand: "Hario",
        price: 49.9,
        currency: "EUR",
        rating: 4.6,
        reviewCount: 218,
        inStock: true,
        availability: "InStock",
        image: "https://x.example/a.jpg",
        images: ["https://x.example/a.jpg", "https://x.example/b.jpg"],
        gtin: null,
      },
      sources: {
        name: "json-ld",
        brand: "json-ld",
        price: "json-ld",
        currency: "json-ld",
        rating: "json-ld",
        reviewCount: "json-ld",
        inStock: "json-ld",
        availability: "json-ld",
        image: "json-ld",
        images: "json-ld",
      },
    });
  });

  test("the more reliable signal wins a field; a weaker one fills what it lacks", () => {
    const found: Found[] = [
      { type: "Page", data: { name: "Mill – Shop", description: "From OpenGraph" }, signal: "opengraph" },
      product("microdata", { name: "Ceramic Mill" }),
    ];
    const { data, sources } = fillSchema(
      { type: "object", properties: { name: { type: "string" }, description: { type: "string" } } },
      found,
      "",
    );
    expect(data).toEqual({ name: "Ceramic Mill", description: "From OpenGraph" });
    expect(sources).toEqual({ name: "microdata", description: "opengraph" });
  });

  test("the Found whose type the schema names is used, not another entity on the page", () => {
    const found: Found[] = [
      { type: "Organization", data: { name: "Fixture Media" }, signal: "json-ld" },
      { type: "Recipe", data: { name: "Pão de queijo", recipeYield: "24 rolls" }, signal: "microdata" },
    ];
    const schema = {
      title: "Recipe",
      type: "object",
      properties: { name: { type: "string" }, servings: { type: "integer" } },
    };
    expect(fillSchema(schema, found, "").data).toEqual({ name: "Pão de queijo", servings: 24 });
    // Without a title the field names say it: servings is a recipe's.
    const { title: _title, ...untitled } = schema;
    expect(fillSchema(untitled, found, "").data).toEqual({ name: "Pão de queijo", servings: 24 });
  });

  test("nested objects are filled from nested data; a lone string becomes the object's name", () => {
    const found: Found[] = [
      {
        type: "Event",
        data: {
          name: "Jazz",
          location: {
            "@type": "Place",
            name: "Kulturhuset",
            address: { streetAddress: "Sergels torg 3", addressLocality: "Stockholm" },
          },
          organizer: "Nordic Jazz",
        },
        signal: "json-ld",
      },
    ];
    const schema = {
      type: "object",
      properties: {
        location: {
          type: "object",
          properties: { name: { type: "string" }, address: { type: "string" }, city: { type: "string" } },
        },
        organizer: { type: "object", properties: { name: { type: "string" }, url: { type: "string" } } },
        performer: { type: "object", properties: { name: { type: "string" } } },
      },
    };
    expect(fillSchema(schema, found, "")).toEqual({
      data: {
        location: { name: "Kulturhuset", address: "Sergels torg 3, Stockholm", city: "Stockholm" },
        organizer: { name: "Nordic Jazz", url: null },
        performer: null,
      },
      sources: {
        "location.name": "json-ld",
        "location.address": "json-ld",
        "location.city": "json-ld",
        "organizer.name": "json-ld",
      },
    });
  });

  test("arrays: HowToSteps become their text, a single value becomes a list, list items are objects", () => {
    const found: Found[] = [
      {
        type: "Recipe",
        data: {
          recipeIngredient: "250 g tapioca flour",
          recipeInstructions: [
            {
              "@type": "HowToSection",
              itemListElement: [{ "@type": "HowToStep", name: "Step 1", text: "Heat." }],
            },
            { "@type": "HowToStep", text: "Bake." },
          ],
          keywords: "cheese, bread",
        },
        signal: "json-ld",
      },
    ];
    const schema = {
      type: "object",
      properties: {
        ingredients: { type: "array", items: { type: "string" } },
        instructions: { type: "array", items: { type: "string" } },
        steps: { type: "array", items: { type: "object", properties: { text: { type: "string" } } } },
        tags: { type: "array", items: { type: "string" } },
      },
    };
    expect(fillSchema(schema, found, "").data).toEqual({
      ingredients: ["250 g tapioca flour"],
      instructions: ["Heat.", "Bake."],
      steps: [{ text: "Heat." }, { text: "Bake." }],
      tags: ["cheese", "bread"],
    });
  });

  test("an array of objects with no structured source takes the table whose headers match; its first column is the name", () => {
    const found: Found[] = [
      {
        type: "Table",
        data: { headers: ["Plan", "Seats"], rows: [{ Plan: "Free", Seats: "1" }] },
        signal: "table",
      },
      {
        type: "Table",
        data: {
          headers: ["Hut", "Altitude (m)", "Price per night"],
          rows: [
            { Hut: "Auronzo", "Altitude (m)": "2,320", "Price per night": "€62,00" },
            { Hut: "Lavaredo", "Altitude (m)": "2,344", "Price per night": "€58,50" },
          ],
        },
        signal: "table",
      },
    ];
    const schema = {
      type: "object",
      properties: {
        huts: {
          type: "array",
          items: {
            type: "object",
            properties: {
              name: { type: "string" },
              altitude: { type: "integer" },
              price: { type: "number" },
            },
          },
        },
      },
    };
    expect(fillSchema(schema, found, "")).toEqual({
      data: {
        huts: [
          { name: "Auronzo", altitude: 2320, price: 62 },
          { name: "Lavaredo", altitude: 2344, price: 58.5 },
        ],
      },
      sources: { huts: "table" },
    });
  });

  test("with no structured signal, prices, dates, emails and phones come from the text", () => {
    const text =
      "# Mill\n\n~~59,90 €~~ **49,90 €** · In stock\n\nPublished 14 May 2024. Questions? shop@mill.example or +49 30 901820.";
    const schema = {
      type: "object",
      properties: {
        price: { type: "number" },
        currency: { type: "string" },
        inStock: { type: "boolean" },
        datePublished: { type: "string" },
        email: { type: "string" },
        phone: { type: "string" },
        sku: { type: "string" },
      },
    };
    expect(fillSchema(schema, [], text)).toEqual({
      data: {
        price: 49.9,
        currency: "EUR",
        inStock: true,
        datePublished: "2024-05-14",
        email: "shop@mill.example",
        phone: "+49 30 901820",
        sku: null,
      },
      sources: {
        price: "pattern",
        currency: "pattern",
        inStock: "pattern",
        datePublished: "pattern",
        email: "pattern",
        phone: "pattern",
      },
    });
  });

  test("a value the schema's limits reject counts as not found", () => {
    const found = [
      product("json-ld", { name: "Mill", offers: { availability: "https://schema.org/PreOrder" } }),
    ];
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", maxLength: 3 },
        availability: { type: "string", enum: ["InStock", "OutOfStock"] },
      },
    };
    expect(fillSchema(schema, found, "").data).toEqual({ name: null, availability: null });
  });

  test("enums match by normalised name, or by the one option whose words the value holds", () => {
    const schema = {
      type: "object",
      properties: { employmentType: { type: "string", enum: ["FULL_TIME", "PART_TIME"] } },
    };
    const fill = (employmentType: string) =>
      fillSchema(schema, [{ type: "JobPosting", data: { employmentType }, signal: "json-ld" }], "").data;
    expect(fill("Full-time")).toEqual({ employmentType: "FULL_TIME" });
    expect(fill("Full-time, permanent")).toEqual({ employmentType: "FULL_TIME" });
    expect(fill("Full-time or part-time")).toEqual({ employmentType: null });
  });

  test("an email or phone field takes the address or number out of the text around it", () => {
    const found: Found[] = [
      {
        type: "DefinitionList",
        data: { Phone: "+39 0436 866 252 (9:00–12:00)", Email: "Write to info@hut.example" },
        signal: "definition-list",
      },
    ];
    const schema = { type: "object", properties: { phone: { type: "string" }, email: { type: "string" } } };
    expect(fillSchema(schema, found, "").data).toEqual({
      phone: "+39 0436 866 252",
      email: "info@hut.example",
    });
  });

  test("with nothing structured, the byline, organiser and printed rating fill their fields", () => {
    const text =
      "# Jazz night\n\nBy Ann Lee · 2 May 2024\n\n★★★★☆ 4.2 out of 5 (37 reviews)\n\nPresented by Nordic Jazz Society.";
    const schema = {
      type: "object",
      properties: {
        author: { type: "string" },
        organizer: { type: "string" },
        rating: { type: "number" },
        reviewCount: { type: "integer" },
      },
    };
    expect(fillSchema(schema, [], text).data).toEqual({
      author: "Ann Lee",
      organizer: "Nordic Jazz Society",
      rating: 4.2,
      reviewCount: 37,
    });
  });
  test("breadcrumbs and FAQs come from their own lists, whatever else the page describes", () => {
    const found: Found[] = [
      { type: "Organization", data: { name: "Acme", telephone: "+1 555 0100" }, signal: "json-ld" },
      {
        type: "FAQPage",
        data: {
          mainEntity: [
            {
              "@type": "Question",
              name: "Is it free?",
              acceptedAnswer: { "@type": "Answer", text: "For 30 days." },
            },
          ],
        },
        signal: "json-ld",
      },
      {
        type: "BreadcrumbList",
        data: {
          itemListElement: [
            { "@type": "ListItem", position: 1, name: "Home", item: "https://x.example/" },
            { "@type": "ListItem", position: 2, item: { "@id": "https://x.example/help", name: "Help" } },
          ],
        },
        signal: "microdata",
      },
    ];
    const schema = {
      type: "object",
      properties: {
        questions: { type: "array", items: { type: "string" } },
        faq: {
          type: "array",
          items: { type: "object", properties: { question: { type: "string" }, answer: { type: "string" } } },
        },
        breadcrumbs: {
          type: "array",
          items: { type: "object", properties: { name: { type: "string" }, url: { type: "string" } } },
        },
      },
    };
    expect(fillSchema(schema, found, "")).toEqual({
      data: {
        questions: ["Is it free?"],
        faq: [{ question: "Is it free?", answer: "For 30 days." }],
        breadcrumbs: [
          { name: "Home", url: "https://x.example/" },
          { name: "Help", url: "https://x.example/help" },
        ],
      },
      sources: { questions: "json-ld", faq: "json-ld", breadcrumbs: "microdata" },
    });
  });
});
