/**
 * The parts of a JSON Schema that schema filling reads, with local `$ref`s followed and
 * nullable unions (`["string", "null"]`, `anyOf: [..., {type: "null"}]`) reduced to the
 * non-null type.
 */

export type JsonSchema = Record<string, unknown>;

export type FieldKind = "string" | "number" | "integer" | "boolean" | "object" | "array" | "any";

export interface FieldSchema {
  kind: FieldKind;
  /** The schema as written, for the constraints `satisfies` checks. */
  raw: JsonSchema;
  enum?: unknown[];
  format?: string;
  /** Object properties, in declaration order. */
  properties?: [string, FieldSchema | (() => FieldSchema)][];
  /** Array items. */
  items?: () => FieldSchema;
  /** The title and description, lowercased, for guessing what an object describes. */
  words: string;
}

const MAX_REF_DEPTH = 32;

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows a local JSON pointer ("#/$defs/Address"); undefined when it leads nowhere. */
function pointer(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = isObject(node) ? node[part] : Array.isArray(node) ? node[Number(part)] : undefined;
  }
  return isObject(node) ? node : undefined;
}

/** `node` with refs followed, nullable unions reduced and allOf merged. */
function flatten(node: JsonSchema, root: JsonSchema, depth = 0): JsonSchema {
  if (depth > MAX_REF_DEPTH) return {};
  if (typeof node.$ref === "string") {
    const target = pointer(root, node.$ref);
    const { $ref: _ref, ...rest } = node;
    return target ? flatten({ ...target, ...rest }, root, depth + 1) : rest;
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = node[key];
    if (Array.isArray(branches)) {
      const nonNull = branches.filter((b) => isObject(b) && b.type !== "null");
      if (nonNull.length) {
        const { [key]: _branches, ...rest } = node;
        return flatten({ ...rest, ...(nonNull[0] as JsonSchema) }, root, depth + 1);
      }
    }
  }
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    let merged: JsonSchema = rest;
    for (const part of allOf) {
      if (!isObject(part)) continue;
      const flat = flatten(part, root, depth + 1);
      merged = {
        ...flat,
        ...merged,
        properties: { ...(flat.properties as JsonSchema), ...(merged.properties as JsonSchema) },
      };
    }
    return merged;
  }
  return node;
}

function kindOf(node: JsonSchema): FieldKind {
  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter((t) => t !== "null");
  const type = types[0];
  if (type === "string" || type === "number" || type === "integer" || type === "boolean") return type;
  if (type === "object" || (type === undefined && isObject(node.properties))) return "object";
  if (type === "array" || (type === undefined && node.items !== undefined)) return "array";
  const values = Array.isArray(node.enum) ? node.enum : node.const !== undefined ? [node.const] : [];
  if (values.length && values.every((v) => typeof v === "string" || v === null)) return "string";
  return "any";
}

/** Reads a (sub)schema of `root` into what filling needs; properties and items are read when first asked for. */
export function readSchema(node: JsonSchema, root: JsonSchema = node): FieldSchema {
  const flat = flatten(node, root);
  const kind = kindOf(flat);
  const field: FieldSchema = {
    kind,
    raw: flat,
    words:
      `${typeof flat.title === "string" ? flat.title : ""} ${typeof flat.description === "string" ? flat.description : ""}`
        .trim()
        .toLowerCase(),
  };
  if (Array.isArray(flat.enum)) field.enum = flat.enum.filter((v) => v !== null);
  else if (flat.const !== undefined) field.enum = [flat.const];
  if (typeof flat.format === "string") field.format = flat.format;
  if (kind === "object" && isObject(flat.properties)) {
    field.properties = Object.entries(flat.properties).map(([name, sub]) => {
      let cached: FieldSchema | undefined;
      return [name, () => (cached ??= readSchema(isObject(sub) ? sub : {}, root))];
    });
  }
  if (kind === "array") {
    const items = Array.isArray(flat.items) ? flat.items[0] : flat.items;
    let cached: FieldSchema | undefined;
    field.items = () => (cached ??= readSchema(isObject(items) ? items : {}, root));
  }
  return field;
}

/** A property's schema, read on first use. */
export function propertySchema(entry: FieldSchema | (() => FieldSchema)): FieldSchema {
  return typeof entry === "function" ? entry() : entry;
}

/**
 * Whether a filled value keeps the schema's own limits (enum, length, pattern, range, item
 * count): a value that breaks them counts as not found.
 */
export function satisfies(value: unknown, field: FieldSchema): boolean {
  const s = field.raw;
  if (field.enum && !field.enum.some((e) => e === value)) return false;
  if (typeof value === "string") {
    if (typeof s.minLength === "number" && value.length < s.minLength) return false;
    if (typeof s.maxLength === "number" && value.length > s.maxLength) return false;
    if (typeof s.pattern === "string") {
      try {
        if (!new RegExp(s.pattern, "u").test(value)) return false;
      } catch {
        return false;
      }
    }
  }
  if (typeof value === "number") {
    if (typeof s.minimum === "number" && value < s.minimum) return false;
    if (typeof s.maximum === "number" && value > s.maximum) return false;
    if (typeof s.exclusiveMinimum === "number" && value <= s.exclusiveMinimum) return false;
    if (typeof s.exclusiveMaximum === "number" && value >= s.exclusiveMaximum) return false;
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === "number" && value.length < s.minItems) return false;
    if (typeof s.maxItems === "number" && value.length > s.maxItems) return false;
  }
  return true;
}

/**
 * A copy of `schema` in which every property, at every depth, also accepts null: the schema a
 * heuristic result is valid against, since any field may be missing from the page. Array items
 * are left as they are (items that cannot be filled are dropped, not nulled).
 */
export function allowNulls(schema: JsonSchema): JsonSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && isObject(value)) {
        out.properties = Object.fromEntries(
          Object.entries(value).map(([name, sub]) => [name, { anyOf: [visit(sub), { type: "null" }] }]),
        );
      } else if (key === "enum" || key === "const" || key === "default" || key === "examples")
        out[key] = value;
      else out[key] = visit(value);
    }
    return out;
  };
  return visit(schema) as JsonSchema;
}
