import { defineCommand } from "citty";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { loadConfig } from "../../src/config.ts";
import {
  type WatchCheckViewShape as WatchCheck,
  WatchCreateBody,
  type WatchCreateInput,
  type WatchPatchInput,
  type WatchViewShape as WatchView,
} from "../../src/schemas/watch.ts";
import { defined, numberFlag } from "../browser-flags.ts";
import { openContext } from "../context.ts";
import { requireWith } from "../flag-rules.ts";
import { log, writeStdout } from "../output.ts";
import { callApi, type Remote, remoteArgs, remoteOf } from "../remote.ts";
import { schemaFlags, validateFlags } from "../schema-flags.ts";

/** What the subcommands do, against the local store or a siphon server (--api-url): the same answers either way. */
interface WatchClient {
  create(input: WatchCreateInput): Promise<WatchView>;
  list(): Promise<WatchView[]>;
  show(id: string, history: number): Promise<{ watch: WatchView; history: WatchCheck[] }>;
  update(id: string, patch: WatchPatchInput): Promise<WatchView>;
  check(id: string): Promise<WatchCheck>;
  remove(id: string): Promise<void>;
  close(): Promise<void>;
}

const path = (id: string) => `/v1/watch/${encodeURIComponent(id)}`;

function remoteClient(remote: Remote): WatchClient {
  return {
    create: async (input) => (await callApi<{ watch: WatchView }>(remote, "POST", "/v1/watch", input)).watch,
    list: async () =>
      (await callApi<{ watches: WatchView[] }>(remote, "GET", "/v1/watch?limit=1000")).watches,
    show: (id, history) => callApi(remote, "GET", `${path(id)}?history=${history}`),
    update: async (id, patch) =>
      (await callApi<{ watch: WatchView }>(remote, "PATCH", path(id), patch)).watch,
    check: async (id) => {
      const { success: _success, ...check } = await callApi<WatchCheck & { success: true }>(
        remote,
        "POST",
        `${path(id)}/check`,
      );
      return check;
    },
    remove: async (id) => {
      await callApi(remote, "DELETE", path(id));
    },
    close: async () => {},
  };
}

/** The local store's watches (the local account's), checked in this process; `siphon serve` schedules them. */
async function localClient(): Promise<WatchClient> {
  const ctx = await openContext();
  const { checkView, createWatchService, watchView } = await import("../../src/watch/index.ts");
  const service = createWatchService(ctx);
  const account = LOCAL_ACCOUNT_ID;
  return {
    create: async (input) => watchView(await service.create(input, account)),
    list: async () => (await service.list(account, 1000, 0)).map(watchView),
    show: async (id, history) => {
      const watch = await service.get(id, account);
      return { watch: watchView(watch), history: (await service.history(watch, history)).map(checkView) };
    },
    update: async (id, patch) => watchView(await service.update(id, account, patch)),
    check: async (id) => checkView(await service.checkNow(id, account)),
    remove: (id) => service.remove(id, account),
    close: async () => {
      await service.close();
      await ctx.close();
    },
  };
}

async function withClient<T>(
  args: Record<string, unknown>,
  run: (client: WatchClient) => Promise<T>,
): Promise<T> {
  const remote = remoteOf(args, loadConfig());
  const client = remote ? remoteClient(remote) : await localClient();
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

/** Every value of a flag given more than once (citty keeps the last): `--f a --f b` or `--f=a`. */
function allValues(rawArgs: string[], flag: string): string[] | undefined {
  const values: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i] as string;
    if (arg === `--${flag}` && i + 1 < rawArgs.length) values.push(rawArgs[++i] as string);
    else if (arg.startsWith(`--${flag}=`)) values.push(arg.slice(flag.length + 3));
  }
  return values.length ? values : undefined;
}

const iso = (value: string | null) => (value ? value.replace(/\.\d+Z$/, "Z") : "-");
const json = (value: unknown) => writeStdout(`${JSON.stringify(value)}\n`);
const idArg = { type: "positional", required: true, description: "The watch's id (watch_…)" } as const;
const jsonArg = { json: { type: "boolean", description: "Print JSON" } } as const;

/** One line per check: when, what, and its summary. */
const checkLine = (c: WatchCheck) => [iso(c.checkedAt), c.trigger, c.status, c.summary].join("\t");

/** What a watch compares, and how often: POST /v1/watch's own fields. */
const watchFlags = schemaFlags(WatchCreateBody, {
  checkIntervalMinutes: {
    name: "every",
    description: "Minutes between checks (default 60)",
    valueHint: "min",
  },
  selector: { description: "Compare only this CSS selector's part of the page", valueHint: "css" },
  name: { valueHint: "name" },
  format: true,
  onlyMainContent: { description: "Compare only the main content" },
  includeTags: true,
  excludeTags: true,
  render: { description: "Render the page in a headless browser" },
});

const add = defineCommand({
  meta: { name: "add", description: "Watch a page for changes; prints the watch's id" },
  args: {
    url: { type: "positional", required: true, description: "The page to watch" },
    ...watchFlags.args,
    "ignore-pattern": {
      type: "string",
      description: "A regular expression whose matches are left out (repeatable)",
      valueHint: "re",
    },
    "ignore-selector": {
      type: "string",
      description: "A CSS selector of elements left out (repeatable)",
      valueHint: "css",
    },
    "keep-dates": {
      type: "boolean",
      description: "Compare dates and times too (they are ignored by default)",
    },
    "keep-counters": { type: "boolean", description: "Compare view and visitor counters too" },
    webhook: { type: "string", description: "HTTPS URL that gets a `changed` event", valueHint: "url" },
    secret: { type: "string", description: "Sign webhook deliveries (X-Siphon-Signature)", valueHint: "s" },
    paused: { type: "boolean", description: "Create it paused" },
    ...jsonArg,
    ...remoteArgs,
  },
  async run({ args, rawArgs }) {
    requireWith(args, "secret", "webhook", "it signs the webhook's deliveries");
    const ignore = defined({
      patterns: allValues(rawArgs, "ignore-pattern"),
      selectors: allValues(rawArgs, "ignore-selector"),
      dates: args["keep-dates"] ? false : undefined,
      counters: args["keep-counters"] ? false : undefined,
    });
    const input = validateFlags(
      WatchCreateBody,
      defined({
        url: args.url,
        ...watchFlags.read(args),
        ignore: Object.keys(ignore).length ? ignore : undefined,
        webhook: args.webhook ? defined({ url: args.webhook, secret: args.secret }) : undefined,
        status: args.paused ? "paused" : undefined,
      }),
      [watchFlags],
    );
    return withClient(args, async (client) => {
      const watch = await client.create(input);
      if (args.json) await json(watch);
      else {
        await writeStdout(`${watch.id}\n`);
        log.success(
          `watching ${watch.url} every ${watch.checkIntervalMinutes} min; the first check records the baseline`,
        );
      }
      return 0;
    });
  },
});

const list = defineCommand({
  meta: { name: "list", description: "List watches: id, status, interval, changes, last check, url" },
  args: { json: { type: "boolean", description: "JSON Lines, one watch a line" }, ...remoteArgs },
  async run({ args }) {
    return withClient(args, async (client) => {
      const watches = await client.list();
      const lines = args.json
        ? watches.map((w) => JSON.stringify(w))
        : watches.map((w) =>
            [w.id, w.status, `${w.checkIntervalMinutes}m`, w.changeCount, iso(w.lastCheckedAt), w.url].join(
              "\t",
            ),
          );
      if (!args.json && lines.length)
        lines.unshift(["ID", "STATUS", "EVERY", "CHANGES", "LAST CHECK", "URL"].join("\t"));
      if (lines.length) await writeStdout(`${lines.join("\n")}\n`);
      else log.info("no watches yet: siphon watch add URL");
      return 0;
    });
  },
});

const show = defineCommand({
  meta: { name: "show", description: "A watch's settings, state and newest checks" },
  args: {
    id: idArg,
    history: { type: "string", description: "Newest checks to show (default 10)", valueHint: "n" },
    ...jsonArg,
    ...remoteArgs,
  },
  async run({ args }) {
    const history = numberFlag(args.history, "history") ?? 10;
    return withClient(args, async (client) => {
      const detail = await client.show(args.id, history);
      if (args.json) return json(detail).then(() => 0);
      const w = detail.watch;
      const rows: [string, unknown][] = [
        ["id", w.id],
        ["url", w.url],
        ["name", w.name ?? "-"],
        ["status", w.lastError ? `${w.status} (${w.lastError})` : w.status],
        ["every", `${w.checkIntervalMinutes} min`],
        ["compares", [w.format, w.includeTags.length ? w.includeTags.join(", ") : "whole page"].join(", ")],
        ["webhook", w.webhook ? `${w.webhook.url}${w.webhook.signed ? " (signed)" : ""}` : "-"],
        ["fingerprint", w.lastFingerprint ?? "-"],
        ["checks", `${w.checkCount}, ${w.changeCount} with changes`],
        ["last check", iso(w.lastCheckedAt)],
        ["last change", iso(w.lastChangedAt)],
        ["next check", iso(w.nextCheckAt)],
      ];
      const text = rows.map(([k, v]) => `${k.padEnd(12)}${v}`).join("\n");
      const checks = detail.history.map(checkLine).join("\n");
      await writeStdout(`${text}\n${checks ? `\n${checks}\n` : ""}`);
      return 0;
    });
  },
});

const check = defineCommand({
  meta: {
    name: "check",
    description: "Check a watch now; prints the summary and, when it changed, the diff",
  },
  args: {
    id: idArg,
    "exit-code": {
      type: "boolean",
      description:
        "Exit 1 when the page changed and 0 when it did not, as git diff --exit-code does (other failures keep their codes)",
    },
    ...jsonArg,
    ...remoteArgs,
  },
  async run({ args }) {
    return withClient(args, async (client) => {
      const result = await client.check(args.id);
      if (args.json) await json(result);
      else await writeStdout(`${result.summary}\n${result.diff ?? ""}`);
      return args["exit-code"] && result.status === "changed" ? 1 : 0;
    });
  },
});

function setStatus(name: "pause" | "resume", status: "paused" | "active") {
  return defineCommand({
    meta: { name, description: name === "pause" ? "Stop checking a watch" : "Check a paused watch again" },
    args: { id: idArg, ...jsonArg, ...remoteArgs },
    async run({ args }) {
      return withClient(args, async (client) => {
        const watch = await client.update(args.id, { status });
        if (args.json) await json(watch);
        else log.success(`${watch.id} is ${watch.status}`);
        return 0;
      });
    },
  });
}

const rm = defineCommand({
  meta: { name: "rm", description: "Delete a watch and its history" },
  args: { id: idArg, ...jsonArg, ...remoteArgs },
  async run({ args }) {
    return withClient(args, async (client) => {
      await client.remove(args.id);
      if (args.json) await json({ success: true, id: args.id, deleted: true });
      else log.success(`deleted ${args.id}`);
      return 0;
    });
  },
});

export default defineCommand({
  meta: {
    name: "watch",
    description:
      "Watch pages for changes: add, list, show, check, pause, resume, rm (the local store's, or a server's with --api-url); `siphon serve` runs the scheduled checks",
  },
  subCommands: {
    add,
    list,
    show,
    check,
    pause: setStatus("pause", "paused"),
    resume: setStatus("resume", "active"),
    rm,
  },
});
