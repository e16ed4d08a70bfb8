import type { ToolDef } from "../types.ts";
import { agentTool } from "./agent.ts";
import { batchTool } from "./batch.ts";
import { crawlTool } from "./crawl.ts";
import { extractTool } from "./extract.ts";
import { fetchTool } from "./fetch.ts";
import { mapTool } from "./map.ts";
import { searchTool } from "./search.ts";

/** siphon's MCP tools (DECISIONS.md names), in the order tools/list gives them. */
export const TOOLS: ToolDef<never>[] = [
  fetchTool,
  searchTool,
  crawlTool,
  mapTool,
  extractTool,
  batchTool,
  agentTool,
] as unknown as ToolDef<never>[];
