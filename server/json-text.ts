/**
 * JSON made beforehand, for the app's response hook to send as it is (server/app.ts): text, or
 * its UTF-8 bytes when those are kept from one answer to the next.
 */
export class JsonText {
  constructor(readonly body: string | Uint8Array<ArrayBuffer>) {}
}

/** The JSON of an object whose fields all stay the same but one number, cut around it. */
interface Template {
  keys: string[];
  values: unknown[];
  prefix: string;
  suffix: string;
  /** The last number sent and its whole answer as bytes: a cache hit's elapsed is nearly always 0. */
  number: number;
  bytes: Uint8Array<ArrayBuffer> | null;
  weight: number;
}

/** What the kept templates may weigh together (their text and bytes), in bytes. */
const TEMPLATES_MAX_BYTES = 8 * 1024 * 1024;
/** Larger answers are serialised every time: their fetch or extraction costs far more anyway. */
const TEMPLATE_MAX_CHARS = 256 * 1024;

/** Templates by anchor, least recently made first. */
const templates = new Map<object, Template>();
let templatesWeight = 0;
/** Anchors seen once: most answers are sent once; a template is made on the second. */
const seenOnce = new WeakSet<object>();
const encoder = new TextEncoder();

/** Whether `body` has the template's fields, in its order, with the same values but `varying`'s. */
function fits(body: Record<string, unknown>, template: Template, varying: string): boolean {
  const { keys, values } = template;
  let i = 0;
  for (const key in body) {
    if (keys[i] !== key) return false;
    if (key !== varying && body[key] !== values[i]) return false;
    i++;
  }
  return i === keys.length;
}

/** The template of `body` cut around `varying`, checked against `text` (its whole JSON); null when it cannot be cut. */
function cut(body: Record<string, unknown>, varying: string, text: string): Template | null {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  let seen = false;
  for (const key in body) {
    if (key === varying) seen = true;
    else (seen ? after : before)[key] = body[key];
  }
  if (!seen) return null;
  const head = JSON.stringify(before).slice(0, -1);
  const tail = JSON.stringify(after).slice(1);
  const prefix = `${head}${head === "{" ? "" : ","}${JSON.stringify(varying)}:`;
  const suffix = tail === "}" ? tail : `,${tail}`;
  if (prefix + JSON.stringify(body[varying]) + suffix !== text) return null;
  const weight = 3 * text.length;
  return {
    keys: Object.keys(body),
    values: Object.values(body),
    prefix,
    suffix,
    number: Number.NaN,
    bytes: null,
    weight,
  };
}

function keep(anchor: object, template: Template): void {
  const previous = templates.get(anchor);
  if (previous) {
    templates.delete(anchor);
    templatesWeight -= previous.weight;
  }
  templates.set(anchor, template);
  templatesWeight += template.weight;
  for (const [oldest, kept] of templates) {
    if (templatesWeight <= TEMPLATES_MAX_BYTES) break;
    templates.delete(oldest);
    templatesWeight -= kept.weight;
  }
}

/**
 * `JSON.stringify(body)` of an answer whose fields are the same values from one request to the
 * next but for one number (`varying`: a fetch result's `elapsed`), without serialising the rest
 * again: the text is kept, cut around that number, with the last answer's bytes, while `anchor`
 * (an object every such answer shares, such as a cached result's links) is among the recently
 * answered. Another value in any field, or another order, is serialised in full. Nested objects
 * are compared by identity: answers shared from a memo are never changed in place (that memo
 * would be wrong too).
 */
export function templatedJson(body: Record<string, unknown>, varying: string, anchor: object): JsonText {
  const number = body[varying];
  const template = templates.get(anchor);
  if (template && typeof number === "number" && Number.isFinite(number) && fits(body, template, varying)) {
    if (number !== template.number || template.bytes === null) {
      template.bytes = encoder.encode(template.prefix + String(number) + template.suffix);
      template.number = number;
    }
    return new JsonText(template.bytes);
  }
  const text = JSON.stringify(body);
  if (text.length > TEMPLATE_MAX_CHARS) return new JsonText(text);
  if (!template && !seenOnce.has(anchor)) seenOnce.add(anchor);
  else {
    const made = cut(body, varying, text);
    if (made) keep(anchor, made);
  }
  return new JsonText(text);
}
