import { defineCommand } from "citty";
import { createAccountWithKey, issueKey, revokeKey } from "../../src/auth/keys.ts";
import { loadPlans } from "../../src/auth/plans.ts";
import { accountTier, ensureLocalAccount, LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import { openStore } from "../../src/store/index.ts";
import type { ApiKeyInfo, Store } from "../../src/store/types.ts";
import { refuseTogether } from "../flag-rules.ts";
import { log, writeStdout } from "../output.ts";

async function withStore<T>(run: (store: Store, tiers: string[], config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = await openStore(config);
  try {
    return await run(store, [...loadPlans(config).keys()], config);
  } finally {
    await store.close();
  }
}

const iso = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString().replace(/\.\d+Z$/, "Z"));

const create = defineCommand({
  meta: { name: "create", description: "Create a key (and an account of --tier unless --account is given)" },
  args: {
    name: {
      type: "string",
      required: true,
      description: "A name to recognise the key by",
      valueHint: "name",
    },
    tier: {
      type: "string",
      description: "Plan tier of the new account: free, starter, pro, max or unlimited (default free)",
    },
    account: { type: "string", description: "Add the key to this existing account id", valueHint: "id" },
    test: { type: "boolean", description: "Create a sph_test_ key (refused by production servers)" },
    json: { type: "boolean", description: "Print {key, id, prefix, accountId, tier} as JSON" },
  },
  async run({ args }) {
    refuseTogether(args, "tier", "account", "a key added to an account has that account's tier");
    return withStore(async (store, tiers, config) => {
      const kind = args.test ? "test" : "live";
      const now = Date.now();
      let tier = args.tier ?? "free";
      let created: Awaited<ReturnType<typeof issueKey>>;
      if (args.account) {
        // The local account exists once a server or a job has run; a key for it may come first.
        if (args.account === LOCAL_ACCOUNT_ID) await ensureLocalAccount(store, config.localTier, now);
        const account = await store.accounts.getAccount(args.account);
        if (!account) throw new SiphonError("not_found", `No account "${args.account}"`);
        tier = accountTier(account, config);
        created = await issueKey(store.accounts, { accountId: account.id, name: args.name, kind, now });
      } else {
        if (!tiers.includes(tier)) {
          throw new SiphonError(
            "invalid_request",
            `--tier must be one of ${tiers.join(", ")}, got "${tier}"`,
          );
        }
        created = await createAccountWithKey(store.accounts, { name: args.name, tier, kind, now });
      }
      const { key, info } = created;
      if (args.json) {
        await writeStdout(
          `${JSON.stringify({ key, id: info.id, prefix: info.prefix, accountId: info.accountId, tier })}\n`,
        );
      } else {
        await writeStdout(`${key}\n`);
        log.success(
          `created key ${info.id} (${tier}, account ${info.accountId}); it is shown only this once`,
        );
        if (!args.account) {
          // The local dashboard is the local account's: say where this key went, and how to add one there.
          log.info(
            `${info.accountId} is a new account: the dashboard shows its keys when signed in with this key; --account ${LOCAL_ACCOUNT_ID} adds a key to the local account instead`,
          );
        }
      }
      return 0;
    });
  },
});

function row(key: ApiKeyInfo, tier: string): string {
  return [
    key.id,
    key.name,
    `${key.prefix}…`,
    tier,
    iso(key.createdAt),
    iso(key.lastUsedAt),
    key.revokedAt ? `revoked ${iso(key.revokedAt)}` : "active",
  ].join("\t");
}

const list = defineCommand({
  meta: { name: "list", description: "List keys: id, name, prefix, tier, created, last used, revoked" },
  args: { json: { type: "boolean", description: "JSON Lines, one key a line" } },
  async run({ args }) {
    return withStore(async (store, _tiers, config) => {
      const keys = await store.accounts.listKeys();
      const lines: string[] = [];
      for (const key of keys) {
        const account = await store.accounts.getAccount(key.accountId);
        const tier = account ? accountTier(account, config) : "?";
        lines.push(args.json ? JSON.stringify({ ...key, tier }) : row(key, tier));
      }
      if (!args.json && lines.length)
        lines.unshift(["ID", "NAME", "PREFIX", "TIER", "CREATED", "LAST USED", "STATE"].join("\t"));
      if (lines.length) await writeStdout(`${lines.join("\n")}\n`);
      else log.info("no keys yet: siphon keys create --name NAME");
      return 0;
    });
  },
});

/** The first line of stdin: a key can be revoked without putting it on the command line. */
async function firstLine(): Promise<string> {
  return (await Bun.stdin.text()).split("\n")[0] ?? "";
}

const revoke = defineCommand({
  meta: {
    name: "revoke",
    description:
      "Revoke a key (the key itself, its id, or a unique prefix of either); the next request with it gets 401",
  },
  args: {
    key: {
      type: "positional",
      required: true,
      description:
        "The key (sph_live_…), its id (key_…) or a unique prefix of either; - reads the key from stdin",
    },
    json: { type: "boolean", description: "Print the revoked key as JSON" },
  },
  async run({ args }) {
    const ref = args.key === "-" ? await firstLine() : args.key;
    return withStore(async (store) => {
      const key = await revokeKey(store.accounts, ref, Date.now());
      if (args.json) await writeStdout(`${JSON.stringify(key)}\n`);
      else log.success(`revoked ${key.id} (${key.prefix}…)`);
      return 0;
    });
  },
});

export default defineCommand({
  meta: { name: "keys", description: "Create, list and revoke API keys in the local store" },
  subCommands: { create, list, revoke },
});
