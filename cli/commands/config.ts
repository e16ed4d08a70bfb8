import { defineCommand } from "citty";
import { type Config, resolveConfig, settingsTable } from "../../src/config.ts";
import { writeStdout } from "../output.ts";

/** A secret's value as printed: never the value, only that it is set (and a URL's host, without its password). */
function masked(value: string): string {
  if (!value) return "";
  try {
    const url = new URL(value);
    if (url.password) url.password = "****";
    if (url.username && !url.password) url.username = "****";
    if (url.protocol !== "http:" && url.protocol !== "https:" && url.host) return url.href;
  } catch {
    // not a URL: a key
  }
  return `**** (set, ${value.length} characters)`;
}

export default defineCommand({
  meta: {
    name: "config",
    description:
      "Print the effective configuration: every setting, its value (secrets masked) and where it came from (flag, environment, config.json or default)",
  },
  args: {
    json: {
      type: "boolean",
      description: "Print [{key, env, value, source, default, doc}] instead of a table",
    },
  },
  async run({ args }) {
    const { config, sources } = resolveConfig();
    const rows = settingsTable().map((setting) => {
      const raw = config[setting.key as keyof Config];
      const value = setting.secret && typeof raw === "string" ? masked(raw) : raw;
      return {
        key: setting.key,
        env: setting.env,
        value,
        source: sources[setting.key],
        default: setting.secret ? "" : setting.default,
        doc: setting.doc,
      };
    });
    if (args.json) {
      await writeStdout(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    const width = Math.max(...rows.map((r) => r.env.length));
    const lines = rows.map(
      (r) =>
        `${r.env.padEnd(width)}  ${JSON.stringify(r.value)}${r.source === "default" ? "" : `  (${r.source})`}`,
    );
    await writeStdout(
      `# config.json: ${config.home}/config.json (keys: the names below, or each setting's name, e.g. "port")\n${lines.join("\n")}\n`,
    );
    return 0;
  },
});
