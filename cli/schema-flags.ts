/**
 * A command's flags derived from the request schema it maps to (STYLE.md section 5): each chosen
 * property becomes a kebab-case flag whose type and description come from the schema, and the
 * flags given become that property again, checked by the same `validate` as the API's body, so a
 * bad value is the API's 400 (exit 2), named by its flag.
 */
import type { TObject, TSchema } from "@sinclair/typebox";
import type { ArgDef, ArgsDef } from "citty";
import { SiphonError } from "../src/errors.ts";
import { splitList } from "../src/schemas/common.ts";
import { validate } from "../src/schemas/validate.ts";

/** How one property becomes a flag, where the schema alone does not say. */
export interface FlagOptions {
  /** The flag's name, when not the property's in kebab-case (`llmApiKey` as `llm-key`). */
  name?: string;
  /** Help text, when the schema's description is too long for a flag or says it in API terms. */
  description?: string;
  valueHint?: string;
  alias?: string;
  /**
   * Turns the flag's text into the property's value (JSON, a file, another list separator);
   * needed for object properties. The schema still checks what it returns.
   */
  parse?: (text: string) => unknown;
}

/** A schema's properties as flags, and the way back. */
export interface SchemaFlags {
  /** citty's `args` for the flags, in the order they were chosen. */
  args: ArgsDef;
  /** The properties the given flags set (by property name); flags not given are left out, so schema defaults apply. */
  read(args: Record<string, unknown>): Record<string, unknown>;
  /** Each property's path in the request body ("scrapeOptions.onlyMainContent") to its flag ("--only-main-content"). */
  flags: Map<string, string>;
}

type Kind = "boolean" | "number" | "string" | "list" | "object";

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A union of literals' values (StringEnum), or undefined. */
function literals(schema: TSchema): string[] | undefined {
  const anyOf = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!anyOf?.length || !anyOf.every((s) => "const" in s)) return undefined;
  return anyOf.map((s) => String((s as unknown as { const: unknown }).const));
}

/** What kind of text a property takes on the command line. */
function kindOf(schema: TSchema): Kind {
  if (literals(schema)) return "string";
  const anyOf = (schema as { anyOf?: TSchema[] }).anyOf;
  // A string or a list of strings (crawl's languages): a comma-separated list covers both.
  if (anyOf) return anyOf.some((s) => s.type === "array") ? "list" : kindOf(anyOf[0] as TSchema);
  switch (schema.type) {
    case "boolean":
      return "boolean";
    case "integer":
    case "number":
      return "number";
    case "string":
      return "string";
    case "array": {
      const items = (schema as { items?: TSchema }).items;
      return items && (items.type === "object" || items.type === "array") ? "object" : "list";
    }
    default:
      return "object";
  }
}

/** "(default X)" for help, from the schema's default; nothing for an off boolean or none. */
function defaultNote(schema: TSchema): string {
  const value = (schema as { default?: unknown }).default;
  if (value === true) return " (on by default)";
  if (value === undefined || value === false) return "";
  return ` (default ${Array.isArray(value) ? value.join(",") : String(value)})`;
}

const HINT: Record<Exclude<Kind, "boolean">, string> = {
  number: "n",
  string: "text",
  list: "list",
  object: "json",
};

/** One property's flag definition. */
function argFor(prop: string, schema: TSchema, kind: Kind, options: FlagOptions): ArgDef {
  const text = options.description ?? schema.description ?? prop;
  const description = /\bdefault\b/i.test(text) ? text : `${text}${defaultNote(schema)}`;
  const alias = options.alias ? { alias: options.alias } : {};
  if (kind === "boolean") {
    // On by default (storeInCache): given as on, so that --no-X is what a user types.
    const on = (schema as { default?: unknown }).default === true ? { default: true } : {};
    return { type: "boolean", description, ...on, ...alias };
  }
  const choices = literals(schema);
  const hint = options.valueHint ?? (choices ? choices.join("|") : HINT[kind]);
  return {
    type: "string",
    description: kind === "list" && !options.parse ? `${description}; comma-separated` : description,
    valueHint: hint,
    ...alias,
  };
}

/** The flag's text as the property's value; text that does not parse is kept so validation names it. */
function propertyValue(text: unknown, kind: Kind, options: FlagOptions): unknown {
  if (text === undefined) return undefined;
  if (kind === "boolean") return text;
  const raw = String(text);
  if (options.parse) return options.parse(raw);
  if (kind === "number") {
    const n = Number(raw);
    return raw.trim() !== "" && Number.isFinite(n) ? n : raw;
  }
  if (kind === "list") return splitList(raw);
  return raw;
}

/**
 * Flags for the chosen properties of `schema` (each `true` or its FlagOptions), to read back
 * into the body at `path` ("" for the body itself, "scrapeOptions" for a nested object).
 * Throws Error on a property the schema lacks, or an object property without `parse`: both are
 * mistakes in the command's code, not the user's.
 */
export function schemaFlags<S extends TObject>(
  schema: S,
  picks: Partial<Record<keyof S["properties"] & string, FlagOptions | true>>,
  path = "",
): SchemaFlags {
  const args: ArgsDef = {};
  const flags = new Map<string, string>();
  const readers: ((given: Record<string, unknown>, out: Record<string, unknown>) => void)[] = [];
  for (const [prop, pick] of Object.entries(picks) as [string, FlagOptions | true][]) {
    const property = schema.properties[prop] as TSchema | undefined;
    if (!property) throw new Error(`schemaFlags: the schema has no property ${prop}`);
    const options = pick === true ? {} : pick;
    const kind = kindOf(property);
    if (kind === "object" && !options.parse) throw new Error(`schemaFlags: ${prop} needs a parse`);
    const name = options.name ?? kebab(prop);
    args[name] = argFor(prop, property, kind, options);
    flags.set(path ? `${path}.${prop}` : prop, `--${name}`);
    readers.push((given, out) => {
      const value = propertyValue(given[name], kind, options);
      if (value !== undefined) out[prop] = value;
    });
  }
  return {
    args,
    flags,
    read(given) {
      const out: Record<string, unknown> = {};
      for (const reader of readers) reader(given, out);
      return out;
    },
  };
}

/**
 * `error` with the body's field names in its message replaced by the flags that set them
 * ("scrapeOptions.wait must be…" as "--wait must be…"); any other error as it is.
 */
export function namedByFlags(error: unknown, sets: readonly SchemaFlags[]): unknown {
  if (!(error instanceof SiphonError) || error.type !== "invalid_request") return error;
  const field = /^[^\s:]+/.exec(error.message)?.[0];
  if (!field) return error;
  let best: [string, string] | undefined;
  for (const set of sets) {
    for (const [path, flag] of set.flags) {
      const matches = field === path || field.startsWith(`${path}.`);
      if (matches && (!best || path.length > best[0].length)) best = [path, flag];
    }
  }
  if (!best) return error;
  const message = `${best[1]}${error.message.slice(best[0].length)}`;
  return new SiphonError("invalid_request", message, { hint: error.hint, cause: error.cause });
}

/**
 * `value` checked against `schema` by the API's own validate; a bad field is reported by the
 * flag that set it (namedByFlags). Throws SiphonError invalid_request.
 */
export function validateFlags<S extends TObject>(
  schema: S,
  value: Record<string, unknown>,
  sets: readonly SchemaFlags[],
) {
  try {
    return validate(schema, value);
  } catch (error) {
    throw namedByFlags(error, sets);
  }
}

/** `value` when it has any key, else undefined (an empty nested object is left out of the body). */
export const nonEmpty = (value: Record<string, unknown>) => (Object.keys(value).length ? value : undefined);
