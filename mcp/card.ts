import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { INSTRUCTIONS, listTools } from "./server.ts";

/**
 * The MCP server card (SEP-1649, served at /.well-known/mcp/server-card.json): who the server
 * is, where its Streamable HTTP endpoint is, that it wants a bearer key, and its tools with
 * their schemas, so a client or a registry learns all of it without a session. `remotes` is
 * the same endpoint in the later server-card shape (SEP-2127).
 */
export function serverCard(origin: string, version: string) {
  const endpoint = `${origin}/mcp`;
  return {
    version: "1.0",
    protocolVersion: LATEST_PROTOCOL_VERSION,
    serverInfo: { name: "siphon", title: "siphon", version },
    description:
      "Web pages to clean, model-ready markdown: fetch, search, crawl, map, extract, batch and research.",
    documentationUrl: `${origin}/docs`,
    transport: { type: "streamable-http", endpoint: "/mcp" },
    capabilities: { tools: { listChanged: false } },
    authentication: {
      required: true,
      schemes: ["bearer"],
      description:
        "A siphon API key: Authorization: Bearer sph_live_… (create one with `siphon keys create`)",
    },
    instructions: INSTRUCTIONS,
    tools: listTools(),
    resources: [],
    prompts: [],
    remotes: [
      {
        type: "streamable-http",
        url: endpoint,
        supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
        headers: [
          {
            name: "Authorization",
            description: "Bearer followed by a siphon API key (sph_live_…)",
            isRequired: true,
            isSecret: true,
          },
        ],
      },
    ],
  };
}
