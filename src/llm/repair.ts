import { SiphonError } from "../errors.ts";
import { LlmOutputError } from "./errors.ts";
import { completeStructured, type StructuredInput, type StructuredResult } from "./structured.ts";
import type { LlmDeps, Usage } from "./types.ts";

/** Repairs asked for when structured output fails its schema, by default. */
export const SCHEMA_REPAIRS = 2;

export interface RepairOptions {
  /** Most repairs after the first answer (default SCHEMA_REPAIRS). */
  repairs?: number;
  /** Told before each repair, with what failed. */
  onRepair?: (issues: string[]) => void;
}

/**
 * Structured output that gets a second chance: when the answer is not JSON or fails the schema,
 * the model is shown its answer and what failed, and asked to correct it, up to `repairs` times.
 * The usage returned counts every attempt.
 *
 * @throws SiphonError answer_failed listing what still failed after the last repair; otherwise
 *   as completeStructured
 */
export async function completeStructuredRepaired<T = unknown>(
  input: StructuredInput,
  deps: LlmDeps,
  options: RepairOptions = {},
): Promise<StructuredResult<T>> {
  const repairs = options.repairs ?? SCHEMA_REPAIRS;
  const messages = [...input.messages];
  const spent: Usage = { input: 0, output: 0, estimated: false };
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await completeStructured<T>({ ...input, messages }, deps);
      return {
        ...result,
        usage: {
          input: spent.input + result.usage.input,
          output: spent.output + result.usage.output,
          estimated: spent.estimated || result.usage.estimated,
        },
      };
    } catch (error) {
      if (!(error instanceof LlmOutputError)) throw error;
      spent.input += error.usage.input;
      spent.output += error.usage.output;
      spent.estimated ||= error.usage.estimated;
      if (attempt >= repairs) {
        throw new SiphonError(
          "answer_failed",
          `The answer did not match the schema after ${repairs} repairs: ${error.issues.join("; ")}`,
          { hint: "Simplify the schema, or use a model that supports structured output." },
        );
      }
      options.onRepair?.(error.issues);
      messages.push(
        { role: "assistant", content: error.text },
        {
          role: "user",
          content: `That answer does not match the schema:\n${error.issues.map((i) => `- ${i}`).join("\n")}\nAnswer again with corrected JSON only.`,
        },
      );
    }
  }
}
