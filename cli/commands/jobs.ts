import { defineCommand } from "citty";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import { loadConfig } from "../../src/config.ts";
import { JobsQuery } from "../../src/schemas/jobs.ts";
import { validate } from "../../src/schemas/validate.ts";
import { openStore } from "../../src/store/index.ts";
import type { JobRecord } from "../../src/store/types.ts";
import { defined, numberFlag } from "../browser-flags.ts";
import { writeStdout } from "../output.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";

interface ListedJob {
  id: string;
  type: string;
  status: string;
  total: number;
  completed: number;
  createdAt: string | null;
}

const listed = (j: JobRecord): ListedJob => ({
  id: j.id,
  type: j.type,
  status: j.status,
  total: j.total,
  completed: j.completed + j.failed,
  createdAt: new Date(j.createdAt).toISOString(),
});

export default defineCommand({
  meta: {
    name: "jobs",
    description: "List crawl, batch and agent jobs (the local store's, or a server's with --api-url)",
  },
  args: {
    type: { type: "string", description: "crawl, batch, agent or extract", valueHint: "type" },
    status: {
      type: "string",
      description: "queued, processing, completed, failed or cancelled",
      valueHint: "status",
    },
    limit: { type: "string", description: "Most jobs (default 50)", valueHint: "n" },
    json: { type: "boolean", description: "JSON Lines, one job a line" },
    ...remoteArgs,
  },
  async run({ args }) {
    const filter = validate(
      JobsQuery,
      defined({ type: args.type, status: args.status, limit: numberFlag(args.limit, "limit") }),
    );
    const config = loadConfig();
    const remote = remoteOf(args, config);
    let jobs: ListedJob[];
    if (remote) {
      const query = new URLSearchParams(defined({ ...filter }) as Record<string, string>).toString();
      jobs = (await callApi<{ jobs: ListedJob[] }>(remote, "GET", `/v1/jobs?${query}`)).jobs;
    } else {
      const store = await openStore(config);
      try {
        const listedJobs = await store.jobs.list({
          accountId: LOCAL_ACCOUNT_ID,
          type: filter.type,
          status: filter.status,
          limit: filter.limit,
        });
        jobs = listedJobs.map(listed);
      } finally {
        await store.close();
      }
    }
    const lines = args.json
      ? jobs.map((j) => JSON.stringify(j))
      : jobs.map((j) => [j.id, j.type, j.status, `${j.completed}/${j.total}`, j.createdAt].join("\t"));
    if (lines.length) await writeStdout(`${lines.join("\n")}\n`);
    return 0;
  },
});
