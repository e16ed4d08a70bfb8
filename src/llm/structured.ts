import type { ValidateFunction } from "ajv";
import { SiphonError } from "../errors.ts";
import { openCall } from "./client.ts";
import { runCompletion } from "./complete.ts";
import { LlmOutputError, scrubSecret } from "./errors.ts";
import type { CompletionInput, CompletionResult, LlmDeps } from "./types.ts";

/** A JSON Schema, as callers pass it (agent outputSchema, extract schema). */
export type JsonSchema = Record<string, unknown>;

/** A completion whose answer must be a JSON value matching `schema`. */
export interface StructuredInput extends CompletionInput {
  schema: JsonSchema;
  /** Name sent with the schema (letters, digits, _ and -; at most 64); default "output". */
  schemaName?: string;
  /**
   * OpenAI strict mode (the answer is guaranteed to match). Default: on when the schema meets
   * strict mode's rules (every object lists all its properties as required and sets
   * additionalProperties: false), since the vendor refuses other schemas in strict mode.
   */
  strict?: boolean;
}

/** How the JSON was asked for: the vendor's json_schema response_format, or the prompt. */
export type StructuredMode = "json_schema" | "prompt";

export interface StructuredResult<T = unknown> extends CompletionResult {
  /** The parsed answer; it matches the schema. */
  data: T;
  mode: StructuredMode;
}

type AjvModule = typeof import("ajv");
let ajv: Promise<InstanceType<AjvModule["default"]>> | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

async function validatorFor(schema: JsonSchema): Promise<ValidateFunction> {
  ajv ??= import("ajv").then(
    // Formats (email, uri, …) are not checked: that needs ajv-formats, and vendors ignore most of them too.
    ({ default: Ajv }) => new Ajv({ allErrors: true, strict: false, validateFormats: false, logger: false }),
  );
  const instance = await ajv;
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = instance.compile(schema);
    } catch (error) {
      throw new SiphonError(
        "invalid_request",
        `The output schema is not a valid JSON Schema: ${(error as Error).message}`,
      );
    }
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * Checks that `schema` is a JSON Schema ajv can compile, before any work that would need it.
 * @throws SiphonError invalid_request saying what is wrong with it
 */
export async function checkJsonSchema(schema: unknown): Promise<void> {
  if (!isObjectSchema(schema)) {
    throw new SiphonError("invalid_request", "The output schema must be a JSON Schema object");
  }
  await validatorFor(schema);
}

/** What is wrong with `data` against `schema`, one line per issue; [] when it matches. */
export async function schemaIssues(schema: JsonSchema, data: unknown): Promise<string[]> {
  const validate = await validatorFor(schema);
  return validate(data) ? [] : describeIssues(validate);
}

function isObjectSchema(schema: unknown): schema is JsonSchema {
  return typeof schema === "object" && schema !== null && !Array.isArray(schema);
}

/** Whether OpenAI's strict mode accepts the schema: every object closed, every property required. */
export function fitsStrictMode(schema: unknown): boolean {
  if (!isObjectSchema(schema)) return true;
  const type = schema.type;
  const isObject = type === "object" || (Array.isArray(type) && type.includes("object"));
  if (isObject || "properties" in schema) {
    if (schema.additionalProperties !== false) return false;
    const properties = isObjectSchema(schema.properties) ? Object.keys(schema.properties) : [];
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (!properties.every((name) => required.includes(name))) return false;
  }
  const children: unknown[] = [];
  for (const key of ["properties", "$defs", "definitions"]) {
    if (isObjectSchema(schema[key])) children.push(...Object.values(schema[key]));
  }
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
    if (Array.isArray(schema[key])) children.push(...schema[key]);
  }
  if (schema.items !== undefined) children.push(schema.items);
  return children.every(fitsStrictMode);
}

function rootIsObject(schema: JsonSchema): boolean {
  return schema.type === "object";
}

function schemaName(name: string | undefined): string {
  const clean = (name ?? "output").replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
  return clean || "output";
}

/** The instruction that carries the schema when the vendor cannot (Anthropic's layer ignores response_format). */
function promptInstruction(schema: JsonSchema): string {
  return [
    "Answer with a single JSON value and nothing else: no prose, no Markdown code fences.",
    "The value must be valid against this JSON Schema:",
    JSON.stringify(schema),
  ].join("\n");
}

/** The JSON text inside an answer: the whole text, or what a ```json fence or the outermost braces hold. */
function extractJson(text: string): string {
  const trimmed = text.trim();
  const fence = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(trimmed);
  if (fence) return fence[1]!.trim();
  if (/^[[{]/.test(trimmed)) return trimmed;
  const start = trimmed.search(/[[{]/);
  const end = Math.max(trimmed.lastIndexOf("}"), trimmed.lastIndexOf("]"));
  return start >= 0 && end > start ? trimmed.slice(start, end + 1) : trimmed;
}

function describeIssues(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((error) => {
    const at = error.instancePath || "/";
    const extra =
      error.keyword === "additionalProperties"
        ? ` (${(error.params as { additionalProperty?: string }).additionalProperty})`
        : error.keyword === "enum"
          ? ` (${((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(", ")})`
          : "";
    return `${at} ${error.message ?? "is invalid"}${extra}`;
  });
}

/**
 * Asks for a JSON answer that matches `schema`, parses it and validates it with ajv.
 * Vendors with json_schema support (openai, google) get `response_format: {type: "json_schema",
 * json_schema: {name, schema, strict}}` (a schema whose root is not an object is wrapped in
 * `{value: …}` there and unwrapped here, as the vendors require an object root); the others
 * (anthropic) get the schema in a system message. Either way the answer is checked: the
 * vendors' own guarantees vary with model and mode.
 *
 * @throws SiphonError invalid_request when `schema` is not a valid JSON Schema; LlmOutputError
 *   (answer_failed, with the issues, the raw text and the usage) when the answer is not JSON or
 *   does not match; otherwise as `complete`
 */
export async function completeStructured<T = unknown>(
  input: StructuredInput,
  deps: LlmDeps,
): Promise<StructuredResult<T>> {
  if (!isObjectSchema(input.schema)) {
    throw new SiphonError("invalid_request", "The output schema must be a JSON Schema object");
  }
  const validate = await validatorFor(input.schema);
  if (!Array.isArray(input.messages) || input.messages.length === 0) {
    throw new SiphonError("invalid_request", "An LLM call needs at least one message");
  }
  const call = await openCall(input.llm, deps);
  const mode: StructuredMode = call.target.jsonSchema ? "json_schema" : "prompt";
  const wrapped = mode === "json_schema" && !rootIsObject(input.schema);

  let result: CompletionResult;
  if (mode === "json_schema") {
    const schema = wrapped
      ? {
          type: "object",
          properties: { value: input.schema },
          required: ["value"],
          additionalProperties: false,
        }
      : input.schema;
    result = await runCompletion(call, input, {
      response_format: {
        type: "json_schema",
        json_schema: {
          name: schemaName(input.schemaName),
          schema,
          strict: input.strict ?? fitsStrictMode(schema),
        },
      },
    });
  } else {
    const messages = [
      { role: "system" as const, content: promptInstruction(input.schema) },
      ...input.messages,
    ];
    result = await runCompletion(call, { ...input, messages });
  }

  const { provider } = call.target;
  const text = scrubSecret(result.text, call.target.apiKey, Number.POSITIVE_INFINITY);
  const cutOff = result.finishReason === "length";
  let data: unknown;
  try {
    data = JSON.parse(extractJson(result.text));
  } catch (error) {
    throw new LlmOutputError(
      cutOff
        ? `${provider} stopped at the token limit before the JSON answer was complete; raise maxTokens`
        : `${provider} answered text that is not JSON (${(error as Error).message})`,
      {
        hint: cutOff ? undefined : "Retry, or use a model that supports structured output.",
        issues: [(error as Error).message],
        text,
        usage: result.usage,
      },
    );
  }
  if (wrapped) data = (data as { value?: unknown } | null)?.value;
  if (!validate(data)) {
    const issues = describeIssues(validate);
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    throw new LlmOutputError(
      `${provider} answered JSON that does not match the schema: ${issues[0]}${more}`,
      {
        hint: "Retry (the answer may differ), simplify the schema, or use a model that supports structured output.",
        issues,
        text,
        usage: result.usage,
      },
    );
  }
  return { ...result, data: data as T, mode };
}
