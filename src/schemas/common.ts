import { type TLiteral, type TUnion, Type } from "@sinclair/typebox";

/** A string that must be one of `values`; documented as such in OpenAPI. */
export function StringEnum<const T extends string[]>(
  values: [...T],
  options: { default?: T[number]; description?: string } = {},
) {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<{ [K in keyof T]: TLiteral<T[K]> }>;
}

/** Splits a comma-separated query value into trimmed, non-empty parts. */
export function splitList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const parts = value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  return parts;
}

/** Parses a query-string boolean; anything unrecognised is returned as is so validation names it. */
export function queryBool(value: string | undefined): boolean | string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === "" || v === "true" || v === "1" || v === "yes") return true;
  if (v === "false" || v === "0" || v === "no") return false;
  return value;
}

/** Parses a query-string number; anything non-numeric is returned as is so validation names it. */
export function queryNumber(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  return value.trim() !== "" && Number.isFinite(n) ? n : value;
}

/** How the query parameters of one GET route map to its body's types. */
export interface QueryShape {
  lists?: readonly string[];
  booleans?: readonly string[];
  numbers?: readonly string[];
  /** Parameters carrying JSON (e.g. actions). */
  json?: readonly string[];
}

/**
 * Converts GET query strings to a body's shape: lists split on commas (a repeated parameter
 * takes every value), booleans and numbers parsed, JSON decoded. Values that do not parse are
 * passed through unchanged so that validation names the field.
 */
export function inputFromQuery(query: Record<string, unknown>, shape: QueryShape): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    const list = shape.lists?.includes(key) ?? false;
    // A repeated parameter arrives as an array: lists take every value, anything else is left for validation to name.
    const value = Array.isArray(raw) && list ? raw.join(",") : raw;
    if (typeof value !== "string") out[key] = value;
    else if (list) out[key] = splitList(value);
    else if (shape.booleans?.includes(key)) out[key] = queryBool(value);
    else if (shape.numbers?.includes(key)) out[key] = queryNumber(value);
    else if (shape.json?.includes(key)) {
      try {
        out[key] = JSON.parse(value);
      } catch {
        out[key] = value;
      }
    } else out[key] = value;
  }
  return out;
}
