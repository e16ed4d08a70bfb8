import type { TObject, TSchema } from "@sinclair/typebox";

const ErrorSchema = {
  type: "object",
  description: "An error: {success: false, error: {type, message, hint?}, metadata: {requestId}}",
  properties: {
    success: { type: "boolean", const: false },
    error: {
      type: "object",
      properties: {
        type: { type: "string" },
        message: { type: "string" },
        hint: { type: "string" },
        docs: { type: "string" },
      },
      required: ["type", "message"],
    },
    metadata: { type: "object", properties: { requestId: { type: "string" } } },
  },
};

/** The bounds a string parameter declares (a free-text value is checked only against these). */
const STRING_BOUNDS = ["minLength", "maxLength", "pattern"] as const;

/** OpenAPI query parameters from a typebox object schema (the same schema the route validates with). */
export function queryParameters(schema: TObject) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, prop]) => {
    const bounds = Object.fromEntries(
      STRING_BOUNDS.filter((b) => (prop as TSchema)[b] !== undefined).map((b) => [b, (prop as TSchema)[b]]),
    );
    return {
      name,
      in: "query",
      required: required.has(name),
      description: (prop as TSchema).description,
      schema: { type: "string", ...bounds },
    };
  });
}

/** OpenAPI request body from a typebox schema. */
export function jsonRequestBody(schema: TSchema) {
  return { required: true, content: { "application/json": { schema } } };
}

/** OpenAPI responses: 200 with `schema`, plus the format-B error answers. */
export function responses(schema: TSchema, errors: number[] = [400, 403, 422, 502, 504]) {
  const out: Record<string, unknown> = {
    200: { description: "OK", content: { "application/json": { schema } } },
  };
  for (const status of errors) {
    out[status] = {
      description: "Error",
      content: { "application/json": { schema: ErrorSchema } },
    };
  }
  return out;
}
