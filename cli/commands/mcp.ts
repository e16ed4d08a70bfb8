import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { defineCommand } from "citty";
import { createMcpServer } from "../../mcp/server.ts";
import type { ToolHost } from "../../mcp/types.ts";
import { ensureLocalAccount, LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { startJobRunner } from "../../src/jobs/index.ts";
import { openContext } from "../context.ts";
import { log } from "../output.ts";

export default defineCommand({
  meta: {
    name: "mcp",
    description:
      "Run siphon as a local MCP server on stdio (for Claude Desktop, Cursor and other MCP clients): no server, no key",
  },
  args: {
    quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  },
  async run({ args }) {
    // stdout carries the protocol and nothing else: every log line goes to stderr (cli/output.ts).
    if (args.quiet) log.level = 0;
    const ctx = await openContext();
    await ensureLocalAccount(ctx.store, ctx.config.localTier, Date.now());
    const runner = startJobRunner(ctx.config, ctx.store, ctx.engines, { log: (line) => log.warn(line) });
    // The local account, unmetered, as every CLI run without a server.
    const host: ToolHost = {
      deps: { ...ctx, llmLog: (line) => log.warn(line) },
      runner,
      accountId: LOCAL_ACCOUNT_ID,
      meter: async (_route, run) => (await run({ accountId: LOCAL_ACCOUNT_ID, httpOnly: false })).body,
      onInternalError: (error) => log.error("tool call failed:", error),
    };
    const server = createMcpServer(host);
    const transport = new StdioServerTransport();
    await new Promise<void>((resolve) => {
      let closing = false;
      const stop = async () => {
        if (closing) return;
        closing = true;
        await server.close().catch(() => {});
        resolve();
      };
      transport.onclose = () => void stop();
      // The client closing our stdin (or quitting) ends the server.
      process.stdin.once("end", () => void stop());
      process.stdin.once("close", () => void stop());
      process.once("SIGINT", () => void stop());
      process.once("SIGTERM", () => void stop());
      server.connect(transport).catch((error) => {
        log.error("MCP server failed to start:", error);
        void stop();
      });
    });
    // Unfinished jobs stay processing and resume in the next `siphon serve`.
    await runner.close();
    await ctx.close();
    return 0;
  },
});
