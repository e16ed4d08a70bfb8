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
