import { defineCommand } from "citty";
import { loadPlans } from "../../src/auth/plans.ts";
import { authenticate } from "../../src/auth/principal.ts";
import { type UsageReport, usageReport } from "../../src/auth/usage-report.ts";
import { loadConfig } from "../../src/config.ts";
import { openStore } from "../../src/store/index.ts";
import { writeStdout } from "../output.ts";
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

function human(r: UsageReport): string {
  return [
    `Plan        ${r.plan.tier} (${r.plan.weeklyLimit} credits a week, ${r.plan.burstLimit} requests an hour)`,
    `This week   ${r.weekly.used} of ${r.weekly.limit} used (${r.weekly.percentUsed}%), ${r.weekly.remaining} left, resets ${r.weekly.resetsAt}`,
    `This hour   ${r.burst.used} of ${r.burst.limit} requests${r.burst.used ? `, a slot frees in ${r.burst.resetsIn}` : ""}`,
    `Fetching    ${r.canFetch ? "allowed" : "paused until the hourly window frees a slot"}${r.weekly.remaining === 0 ? " (HTTP only: weekly quota used up)" : ""}`,
    `Upgrade     ${r.upgradeUrl}`,
  ].join("\n");
}

export default defineCommand({
  meta: { name: "usage", description: "Show plan, weekly quota and hourly burst usage" },
  args: {
    ...remoteArgs,
    json: { type: "boolean", description: "Print the CLI usage response (SPEC) as JSON" },
  },
  async run({ args }) {
    const config = loadConfig();
    const remote = remoteOf(args, config);
    const report = remote
      ? await callApi<UsageReport>(remote, "GET", "/v1/cli/usage")
      : await localReport(config.apiKey);
    await writeStdout(args.json ? `${JSON.stringify(report, null, 2)}\n` : `${human(report)}\n`);
    return 0;
  },
});
