import { type Static, Type as T } from "@sinclair/typebox";
import { runAgent } from "../../src/agent/index.ts";
import { operationCredits } from "../../src/pipeline/credits.ts";
import { AgentBody, AgentResponse } from "../../src/schemas/agent.ts";
import { SearchBody } from "../../src/schemas/search.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { ToolDef } from "../types.ts";

const { stream: _stream, ...fields } = AgentBody.properties;
const { provider, searchApiKey } = SearchBody.properties;

/** The agent's request without stream; its search fields described as siphon_search's. */
export const AgentToolInput = T.Object(
  { ...fields, searchProvider: provider, searchApiKey },
  { additionalProperties: false },
);
type AgentToolInput = Static<typeof AgentToolInput>;

export const AgentToolOutput = T.Composite([
  T.Omit(AgentResponse, ["success"]),
  T.Object({ degraded: T.Optional(T.String()) }),
]);

export const agentTool: ToolDef<AgentToolInput> = {
  name: "siphon_agent",
  description:
    "Research a question on the web autonomously and get a written answer with [n] citations and the sources " +
    "read. It needs your own LLM: llmApiKey for an OpenAI-compatible API (llmApiBase and llmModel for another " +
    "server, llmProvider for anthropic or google). depth basic reads about 3 sources, thorough about 10 with " +
    "a gap-analysis round; urls start from given pages instead of a web search; outputSchema asks for JSON of " +
    "that shape; maxCredits caps the pages fetched. Takes from seconds to a few minutes and reports its steps " +
    "as progress. For a single known page use siphon_fetch instead.",
  input: AgentToolInput,
  output: AgentToolOutput,
  annotations: {
    title: "Research agent",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  async run(args, ctx) {
    if (args.searchApiKey === undefined && ctx.host.searchApiKey) args.searchApiKey = ctx.host.searchApiKey;
    const input = validate(AgentBody, { ...args, stream: false });
    let steps = 0;
    const outcome = await ctx.host.meter("agent", async (grant) => {
      const ran = await runAgent(input, {
        ...ctx.host.deps,
        signal: ctx.signal,
        httpOnly: grant.httpOnly,
        onEvent: (event) => {
          if (event.type !== "step") return;
          steps++;
          const what = event.query ?? event.url ?? event.summary ?? "";
          void ctx.progress({ progress: steps, message: `${event.action}${what ? `: ${what}` : ""}` });
        },
      });
      return { body: ran, credits: operationCredits.reading(ran.pagesFetched), degraded: ran.degraded };
    });
    const { success: _success, ...response } = outcome.response;
    const structured: Record<string, unknown> = { ...response };
    if (outcome.degraded) structured.degraded = outcome.degraded;
    const lines = [response.answer];
    if (response.warning && !response.answer.includes(response.warning))
      lines.push("", `Warning: ${response.warning}`);
    if (input.outputSchema ?? input.schema)
      lines.push("", "```json", JSON.stringify(response.data, null, 2), "```");
    lines.push(
      "",
      "Sources:",
      ...response.sourcesDetailed.map((s, i) => `[${i + 1}] ${s.title || s.url}: ${s.url}`),
    );
    lines.push(
      "",
      `${response.pagesVisited} pages read, ${response.creditsUsed} credits, ` +
        `${response.tokensUsed.input} + ${response.tokensUsed.output} LLM tokens.`,
    );
    return { text: lines.join("\n"), structured };
  },
};
