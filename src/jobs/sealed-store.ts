import type { Config } from "../config.ts";
import type { RedisConnection } from "../store/redis-connection.ts";
import type { JobRecord, JobStore } from "../store/types.ts";
import {
  createSealer,
  keyFromText,
  mapWebhook,
  openInput,
  randomKey,
  type Sealer,
  sealInput,
} from "./sealing.ts";
import { withoutSecrets } from "./secrets.ts";

/** The Redis key under which a hosted deployment's processes share one sealing key (memory only, never the database). */
const SHARED_KEY = "siphon:job-sealing-key";

/** What a job whose secrets were sealed by a process that is gone fails with. */
export const LOST_SECRETS_ERROR =
  "The job's LLM or search key was kept sealed under a key of the server process that accepted it, which " +
  "stopped before the job ended; keys are never stored readable, so the job cannot go on. Submit it again " +
  "(set SIPHON_JOB_SECRET_KEY for jobs that carry keys to survive a restart).";

/**
 * The sealing key of this process: SIPHON_JOB_SECRET_KEY when the operator set one (jobs with
 * keys then survive restarts), else the one a hosted deployment shares in Redis (created once by
 * whichever process comes first), else a random key this process alone holds.
 */
export async function jobSealer(
  config: Pick<Config, "jobSecretKey">,
  redis: RedisConnection | null,
): Promise<Sealer> {
  if (config.jobSecretKey) return createSealer(keyFromText(config.jobSecretKey));
  if (!redis) return createSealer(randomKey());
  const shared = await redis.run(async (client) => {
    await client.set(SHARED_KEY, Buffer.from(randomKey()).toString("base64"), "NX");
    return client.get(SHARED_KEY);
  });
  return createSealer(shared ? Buffer.from(shared, "base64") : randomKey());
}

/**
 * A job store that writes a job's secrets only sealed (src/jobs/sealing.ts) and hands them back
 * opened, so every reader works with the plain input while the database never holds a readable
 * key. A job listed as unfinished whose secrets cannot be opened (sealed by a process that is
 * gone) is ended as failed with LOST_SECRETS_ERROR rather than run without its keys.
 */
export function sealedJobs(
  jobs: JobStore,
  sealer: Sealer,
  options: { retentionMs: number; now?: () => number },
): JobStore {
  const now = options.now ?? Date.now;
  const seal = (value: string) => (value.startsWith("sealed:") ? value : sealer.seal(value));

  function opened(record: JobRecord): { record: JobRecord; lost: boolean } {
    const { input, lost } = openInput(record.input, sealer);
    const webhook = mapWebhook(record.webhook, (value) => sealer.open(value));
    return { record: { ...record, input, webhook }, lost };
  }

  return {
    ...jobs,
    create: (job, items) =>
      jobs.create(
        { ...job, input: sealInput(job.input, sealer), webhook: mapWebhook(job.webhook, seal) },
        items,
      ),
    transition: (id, from, to, patch) =>
      jobs.transition(
        id,
        from,
        to,
        patch?.input === undefined ? patch : { ...patch, input: sealInput(patch.input, sealer) },
      ),
    async get(id) {
      const record = await jobs.get(id);
      return record && opened(record).record;
    },
    async list(filter) {
      return (await jobs.list(filter)).map((record) => opened(record).record);
    },
    async unfinished() {
      const out: JobRecord[] = [];
      for (const record of await jobs.unfinished()) {
        const { record: open, lost } = opened(record);
        if (!lost) {
          out.push(open);
          continue;
        }
        const at = now();
        await jobs.transition(record.id, ["queued", "processing"], "failed", {
          error: LOST_SECRETS_ERROR,
          finishedAt: at,
          expiresAt: at + options.retentionMs,
          input: withoutSecrets(open.input),
        });
      }
      return out;
    },
  };
}
