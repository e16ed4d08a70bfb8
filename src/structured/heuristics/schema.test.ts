import { describe, expect, test } from "bun:test";
import Ajv from "ajv";
import { allowNulls, readSchema, satisfies } from "./schema.ts";

describe("readSchema", () => {
  test("follows local $refs and reads nullable unions as their non-null type", () => {
    const schema = {
      $defs: { Money: { type: "object", properties: { amount: { type: ["number", "null"] } } } },
      type: "object",
      properties: {
        price: { $ref: "#/$defs/Money" },
        tag: { anyOf: [{ type: "null" }, { type: "string", enum: ["a", "b", null] }] },
        list: { type: "array", items: { $ref: "#/$defs/Money" } },
      },
    };
    const root = readSchema(schema);
    const [price, tag, list] = root.properties!.map(([, entry]) =>
      typeof entry === "function" ? entry() : entry,
    );
    expect(price!.kind).toBe("object");
    const amount = price!.properties![0]![1];
    expect((typeof amount === "function" ? amount() : amount).kind).toBe("number");
    expect(tag!.kind).toBe("string");
    expect(tag!.enum).toEqual(["a", "b"]);
    expect(list!.items!().kind).toBe("object");
  });

  test("a self-referencing schema is read lazily, without recursing forever", () => {
    const root = readSchema({
      $defs: { Node: { type: "object", properties: { child: { $ref: "#/$defs/Node" } } } },
      $ref: "#/$defs/Node",
    });
    expect(root.kind).toBe("object");
  });
});

test("satisfies checks enum, length, pattern, range and item count", () => {
  const field = (raw: Record<string, unknown>) => readSchema(raw);
  expect(satisfies("b", field({ type: "string", enum: ["a"] }))).toBe(false);
  expect(satisfies("abc", field({ type: "string", maxLength: 2 }))).toBe(false);
  expect(satisfies("abc", field({ type: "string", pattern: "^a" }))).toBe(true);
  expect(satisfies(7, field({ type: "number", maximum: 5 }))).toBe(false);
  expect(satisfies([1], field({ type: "array", minItems: 2 }))).toBe(false);
});

test("allowNulls lets every property at every depth be null, and nothing else change", () => {
  const schema = {
    type: "object",
    required: ["name", "offers"],
    properties: {
      name: { type: "string", enum: ["x"] },
      offers: { type: "object", required: ["price"], properties: { price: { type: "number" } } },
      steps: { type: "array", items: { type: "object", properties: { text: { type: "string" } } } },
    },
  };
  const validate = new Ajv({ strict: false }).compile(allowNulls(schema));
  expect(validate({ name: null, offers: { price: null }, steps: [{ text: null }] })).toBe(true);
  expect(validate({ name: null, offers: null, steps: null })).toBe(true);
  expect(validate({ name: "y", offers: null, steps: null })).toBe(false);
  expect(validate({ name: null, offers: null, steps: [null] })).toBe(false);
});
