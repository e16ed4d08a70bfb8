import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { type MigrationReport, migrateStore } from "../../src/store/index.ts";
import { writeStdout } from "../output.ts";

const NAMES = { sqlite: "SQLite", postgres: "PostgreSQL" } as const;

function human(r: MigrationReport): string {
  const where = `${NAMES[r.kind]} store at ${r.location}`;
  if (!r.applied.length) return `${where}: schema up to date (${r.total} migrations), nothing to apply`;
  const lines = [`${where}: applied ${r.applied.length} of ${r.total} migrations`];
  for (const tag of r.applied) lines.push(`  ${tag}`);
  lines.push("Schema up to date.");
  return lines.join("\n");
}

export default defineCommand({
  meta: {
    name: "migrate",
    description:
      "Bring the configured store's schema up to date (PostgreSQL when DATABASE_URL is set, else the SQLite file); the server and every command also do it on start",
  },
  args: {
    json: {
      type: "boolean",
      description: "Print {kind, location, applied, total} as JSON (location never shows a password)",
    },
  },
  async run({ args }) {
    const report = await migrateStore(loadConfig());
    await writeStdout(args.json ? `${JSON.stringify(report)}\n` : `${human(report)}\n`);
    return 0;
  },
});
