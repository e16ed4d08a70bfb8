import { cleanMarkers, MarkerFilter } from "../answer/citations.ts";
import { buildPrompt, type NumberedPrompt } from "../answer/prompt.ts";
import { SiphonError } from "../errors.ts";
import { completeStream, completeStructuredRepaired, type JsonSchema } from "../llm/index.ts";
import { rankPassages } from "../passages/index.ts";
import type { LoopContext } from "./loop.ts";

/** The line that starts the key findings in the model's answer. */
const FINDINGS = "KEY FINDINGS:";

const WRITE_SYSTEM = [
  "You write the answer to a research task from the numbered web sources below, and only from them.",
  "Cite every statement with its source number in square brackets, like [1] or [2][3].",
  "Write the answer first, in clear prose or a short list, in the language of the task.",
  `Then write a line "${FINDINGS}" followed by 3 to 6 lines, each "- " and one key finding with its citations.`,
  "If the sources do not cover part of the task, say so.",
].join(" ");

const SCHEMA_SYSTEM = [
  "You complete a research task from the numbered web sources below, and only from them.",
  "Answer with JSON matching the schema you are given. Where a value is unknown from the sources, use null if the schema allows it.",
].join(" ");

export interface Written {
  answer: string;
  data: Record<string, unknown>;
  citations: NumberedPrompt["citations"];
}

function promptFor(context: LoopContext, system: string): NumberedPrompt {
  const { notebook, input } = context;
  const ranked = rankPassages(
    input.prompt,
    notebook.sources.flatMap((s) => s.passages),
    notebook.sources.map((s) => s.title),
  );
  return buildPrompt(input.prompt, notebook.sources, ranked, { system, label: "Task" });
}

const FINDINGS_LINE = /^\s*\**KEY FINDINGS:?\**\s*$/i;

/** The answer and its key findings, from the model's text. */
export function splitFindings(text: string): { answer: string; keyFindings: string[] } {
  const lines = text.split("\n");
  const at = lines.findIndex((line) => FINDINGS_LINE.test(line));
  if (at === -1) return { answer: text.trim(), keyFindings: [] };
  const keyFindings = lines
    .slice(at + 1)
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, "").trim())
    .filter(Boolean);
  return { answer: lines.slice(0, at).join("\n").trim(), keyFindings };
}

/**
 * Passes a stream's text through until the key-findings line, holding back a last line that
 * could still turn out to be it: chunks carry the answer only, as `answer` will.
 */
export class FindingsCut {
  #line = "";
  #cut = false;

  push(piece: string): string {
    if (this.#cut) return "";
    let out = "";
    const text = this.#line + piece;
    const lines = text.split("\n");
    this.#line = lines.pop() ?? "";
    for (const line of lines) {
      if (FINDINGS_LINE.test(line)) {
        this.#cut = true;
        return out;
      }
      out += `${line}\n`;
    }
    const partial = this.#line.replace(/^\s*\**/, "").toUpperCase();
    if (partial && !FINDINGS.startsWith(partial.slice(0, FINDINGS.length))) {
      out += this.#line;
      this.#line = "";
    }
    return out;
  }

  end(): string {
    if (this.#cut) return "";
    const rest = FINDINGS_LINE.test(this.#line) ? "" : this.#line;
    this.#line = "";
    return rest;
  }
}

/**
 * Writes the answer as text with [n] markers and key findings, streaming the answer part
 * through `chunk` as it comes (markers checked on the fly).
 */
export async function writeText(context: LoopContext, chunk?: (text: string) => void): Promise<Written> {
  const prompt = promptFor(context, WRITE_SYSTEM);
  const sources = prompt.citations.length;
  const stream = await completeStream({ llm: context.llm, messages: prompt.messages }, context.llmDeps);
  const markers = new MarkerFilter(sources);
  const cut = new FindingsCut();
  for await (const piece of stream) {
    const text = cut.push(markers.push(piece));
    if (text) chunk?.(text);
  }
  const rest = cut.push(markers.end()) + cut.end();
  if (rest) chunk?.(rest);
  const result = await stream.done;
  context.tokens.add(result.usage);
  const { answer, keyFindings } = splitFindings(cleanMarkers(result.text, sources));
  if (!answer)
    throw new SiphonError("answer_failed", `${result.provider} (${result.model}) answered with no text`);
  return { answer, data: { answer, keyFindings }, citations: prompt.citations };
}

/**
 * Writes the answer as JSON matching `schema`: validated with ajv, and when it fails the model is
 * shown what failed and asked to repair it, up to SCHEMA_REPAIRS times.
 *
 * @throws SiphonError answer_failed listing what still failed after the last repair
 */
export async function writeStructured(context: LoopContext, schema: JsonSchema): Promise<Written> {
  const prompt = promptFor(context, SCHEMA_SYSTEM);
  const result = await completeStructuredRepaired<Record<string, unknown>>(
    { llm: context.llm, messages: prompt.messages, schema, schemaName: "agent_output" },
    context.llmDeps,
    {
      onRepair: (issues) =>
        context.summary(`The answer failed the schema (${issues.length} issue(s)); asking for a repair`),
    },
  );
  context.tokens.add(result.usage);
  return { answer: JSON.stringify(result.data), data: result.data, citations: prompt.citations };
}
