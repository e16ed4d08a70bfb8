import type { ToolDef } from "../types.ts";
import { agentTool } from "./agent.ts";
import { batchTool } from "./batch.ts";
import { browserTool } from "./browser.ts";
import { crawlTool } from "./crawl.ts";
import { extractTool } from "./extract.ts";
import { fetchTool } from "./fetch.ts";
import { llmstxtTool } from "./llmstxt.ts";
import { mapTool } from "./map.ts";
import { parseTool } from "./parse.ts";
import { searchTool } from "./search.ts";

/** siphon's MCP tools (DECISIONS.md names, and siphon_browser and siphon_parse), in the order tools/list gives them. */
export const TOOLS: ToolDef<never>[] = [
  fetchTool,
  searchTool,
  crawlTool,
  mapTool,
  extractTool,
  batchTool,
  agentTool,
  browserTool,
  parseTool,
  llmstxtTool,
] as unknown as ToolDef<never>[];
