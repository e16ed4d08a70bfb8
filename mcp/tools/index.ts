import type { ToolDef } from "../types.ts";
import { agentTool } from "./agent.ts";
import { batchTool } from "./batch.ts";
import { browserTool } from "./browser.ts";
import { crawlTool } from "./crawl.ts";
import { extractTool } from "./extract.ts";
import { fetchTool } from "./fetch.ts";
import { mapTool } from "./map.ts";
import { searchTool } from "./search.ts";

/** siphon's MCP tools (DECISIONS.md names, and siphon_browser for browser sessions), in the order tools/list gives them. */
export const TOOLS: ToolDef<never>[] = [
  fetchTool,
  searchTool,
  crawlTool,
  mapTool,
  extractTool,
  batchTool,
  agentTool,
  browserTool,
] as unknown as ToolDef<never>[];
