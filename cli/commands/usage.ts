import { defineCommand } from "citty";
import { loadPlans, UNLIMITED } from "../../src/auth/plans.ts";
import { authenticate } from "../../src/auth/principal.ts";
import { type UsageReport, usageReport } from "../../src/auth/usage-report.ts";
import { loadConfig } from "../../src/config.ts";
import { openStore } from "../../src/store/index.ts";
import { log, writeStdout } from "../output.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";

/** The report for the local store: the account of SIPHON_API_KEY when set, else the local account. */
async function localReport(apiKey: string): Promise<UsageReport> {
  const config = loadConfig();
  const store = await openStore(config);
  try {
    const ctx = { config, store, plans: loadPlans(config), now: Date.now };
    const headers = new Headers(apiKey ? { authorization: `Bearer ${apiKey}` } : {});
    return await usageReport(await authenticate(headers, ctx, true), ctx);
  } finally {
    await store.close();
  }
}

/** A limit of UNLIMITED (2^31 - 1) means none, from this store or a server's /v1/cli/usage alike. */
const limited = (limit: number) => limit < UNLIMITED;

function human(r: UsageReport): string {
  const weekly = limited(r.weekly.limit);
  const burst = limited(r.burst.limit);
  const plan = `${weekly ? `${r.plan.weeklyLimit} credits a week` : "no weekly quota"}, ${burst ? `${r.plan.burstLimit} requests an hour` : "no hourly limit"}`;
  const lines = [
    `Plan        ${r.plan.tier} (${plan})`,
    weekly
      ? `This week   ${r.weekly.used} of ${r.weekly.limit} used (${r.weekly.percentUsed}%), ${r.weekly.remaining} left, resets ${r.weekly.resetsAt}`
      : `This week   ${r.weekly.used} credits used (unlimited)`,
    burst
      ? `This hour   ${r.burst.used} of ${r.burst.limit} requests${r.burst.used ? `, a slot frees in ${r.burst.resetsIn}` : ""}`
      : `This hour   ${r.burst.used} requests (unlimited)`,
    `Fetching    ${r.canFetch ? "allowed" : "paused until the hourly window frees a slot"}${weekly && r.weekly.remaining === 0 ? " (HTTP only: weekly quota used up)" : ""}`,
  ];
  if (weekly || burst) lines.push(`Upgrade     ${r.upgradeUrl}`);
  return lines.join("\n");
}

export default defineCommand({
  meta: { name: "usage", description: "Show plan, weekly quota and hourly burst usage" },
  args: {
    ...remoteArgs,
    json: {
      type: "boolean",
      description: "Print the usage report as JSON (plan, weekly, burst, canFetch, upgradeUrl)",
    },
  },
  async run({ args }) {
    const config = loadConfig();
    const remote = remoteOf(args, config);
    const report = remote
      ? await callApi<UsageReport>(remote, "GET", "/v1/cli/usage")
      : await localReport(config.apiKey);
    await writeStdout(args.json ? `${JSON.stringify(report, null, 2)}\n` : `${human(report)}\n`);
    // The counts are the server's requests: a command run on this machine is not one.
    if (!remote && !args.json)
      log.info(
        "CLI commands run on this machine are not metered: these are requests to a siphon serve on this store",
      );
    return 0;
  },
});
