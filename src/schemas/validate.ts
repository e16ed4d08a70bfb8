import type { Static, TSchema } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { SiphonError } from "../errors.ts";

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();
const checkedOnce = new WeakSet<TSchema>();

/** How a value is checked against a schema: typebox's compiled check, or Value's, which reads the same. */
interface Checker {
  Check(value: unknown): boolean;
  Errors(value: unknown): { First(): ValueError | undefined };
}

/**
 * The checker of `schema`: typebox's compiled one from the schema's second check on (a server's
 * requests); the first check reads the schema as it goes (Value), the same rules and errors
 * without compiling, which costs far more than one check: a CLI run checks its request once.
 */
function checker(schema: TSchema): Checker {
  let check = compiled.get(schema);
  if (check) return check;
  if (!checkedOnce.has(schema)) {
    checkedOnce.add(schema);
    return { Check: (value) => Value.Check(schema, value), Errors: (value) => Value.Errors(schema, value) };
  }
  check = TypeCompiler.Compile(schema);
  compiled.set(schema, check);
  return check;
}

function fieldName(path: string): string {
  return path.replace(/^\//, "").replaceAll("/", ".") || "body";
}

function literalsOf(schema: TSchema): unknown[] | null {
  const anyOf = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!anyOf?.every((s) => "const" in s)) return null;
  return anyOf.map((s) => (s as unknown as { const: unknown }).const);
}

/** A sentence a person can act on, for the first problem typebox found. */
export function describeValueError(error: ValueError): string {
  const field = fieldName(error.path);
  const schema = error.schema as TSchema & Record<string, unknown>;
  if (error.type === ValueErrorType.ObjectRequiredProperty) return `${field} is required`;
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    // typebox reports the extra property itself, so the path names it.
    return `unknown field "${field}"; check the spelling against the API reference`;
  }
  const literals = literalsOf(schema);
  if (literals) return `${field} must be one of ${literals.join(", ")}`;
  const type = schema.type;
  if (type === "integer" || type === "number") {
    const min = schema.minimum;
    const max = schema.maximum;
    const kind = type === "integer" ? "an integer" : "a number";
    if (min !== undefined && max !== undefined) return `${field} must be ${kind} from ${min} to ${max}`;
    if (min !== undefined) return `${field} must be ${kind} of at least ${min}`;
    return `${field} must be ${kind}`;
  }
  if (type === "boolean") return `${field} must be true or false`;
  if (type === "string") {
    if (error.type === ValueErrorType.StringMaxLength)
      return `${field} must be at most ${schema.maxLength} characters`;
    if (error.type === ValueErrorType.StringMinLength) return `${field} must not be empty`;
    if (error.type === ValueErrorType.StringPattern)
      return `${field} has an invalid format: ${schema.description ?? ""}`.trim();
    return `${field} must be a string`;
  }
  if (type === "array") {
    if (error.type === ValueErrorType.ArrayMaxItems)
      return `${field} must have at most ${schema.maxItems} items`;
    return `${field} must be an array`;
  }
  if (type === "object") return `${field} must be an object`;
  return `${field}: ${error.message}`;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The path of a "__proto__" key anywhere in a parsed body. JSON.parse makes it an own property;
 * copying the body would make it the object's prototype instead, so it is refused up front.
 */
function protoKey(value: unknown, path: string): string | undefined {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = protoKey(item, `${path}${i}.`);
      if (found) return found;
    }
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      if (key === "__proto__") return `${path}${key}`;
      const found = protoKey(value[key], `${path}${key}.`);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Puts back values the caller gave that typebox's defaults replaced (it swaps `{}` for an
 * array's default), so that validation refuses them rather than silently using the default.
 */
function keepGiven(given: unknown, defaulted: unknown): unknown {
  if (!isPlainObject(given) || !isPlainObject(defaulted)) return defaulted;
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const now = defaulted[key];
    const sameShape =
      typeof now === typeof value &&
      Array.isArray(now) === Array.isArray(value) &&
      (now === null) === (value === null);
    if (!sameShape) defaulted[key] = value;
    else keepGiven(value, now);
  }
  return defaulted;
}

/**
 * Applies defaults and checks `value` against `schema`; returns the typed value
 * or throws SiphonError invalid_request naming the first offending field.
 * The CLI and the server both validate through here, so they say the same thing.
 */
export function validate<T extends TSchema>(schema: T, value: unknown): Static<T> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new SiphonError("invalid_request", "The request body must be a JSON object");
  }
  const proto = protoKey(value, "");
  if (proto !== undefined) {
    throw new SiphonError(
      "invalid_request",
      `unknown field "${proto}"; check the spelling against the API reference`,
    );
  }
  const withDefaults = keepGiven(value, Value.Default(schema, Value.Clone(value)));
  const check = checker(schema);
  if (check.Check(withDefaults)) return withDefaults as Static<T>;
  const first = check.Errors(withDefaults).First();
  throw new SiphonError("invalid_request", first ? describeValueError(first) : "Invalid request");
}
