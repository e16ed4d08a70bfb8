import type { Config } from "../config.ts";
import type { RedisConnection } from "../store/redis-connection.ts";
import type { JobRecord, JobStore } from "../store/types.ts";
import {
  createSealer,
  isSealed,
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

/** The sealer of a store, and how it keeps in step with the other processes of a deployment. */
export interface JobSealing {
  sealer: Sealer;
  /**
   * Hosted, without SIPHON_JOB_SECRET_KEY: puts this process's key back in Redis if Redis lost it
   * (restarted empty) and adopts whatever key Redis holds, so every process converges on one
   * key while each still opens what its earlier keys sealed. A no-op otherwise; never throws.
   */
  reassert(): Promise<void>;
}

/**
 * The sealing key of this process: SIPHON_JOB_SECRET_KEY when the operator set one (jobs with
 * keys then survive restarts), else the one a hosted deployment shares in Redis (created once by
 * whichever process comes first), else a random key this process alone holds.
 */
export async function jobSealer(
  config: Pick<Config, "jobSecretKey">,
  redis: RedisConnection | null,
): Promise<JobSealing> {
  if (config.jobSecretKey || !redis) return localJobSealer(config);
  const sealer = createSealer(randomKey());
  const reassert = async () => {
    const shared = await redis
      .run(async (client) => {
        await client.set(SHARED_KEY, Buffer.from(sealer.current()).toString("base64"), "NX");
        return client.get(SHARED_KEY);
      })
      .catch(() => null);
    const key = shared ? Buffer.from(shared, "base64") : null;
    if (key?.byteLength === 32 && Buffer.compare(key, sealer.current()) !== 0) sealer.adopt(key);
  };
  await reassert();
  // Redis back from a restart (empty): put the key back at once, before a process that starts
  // meanwhile draws one of its own; either way all converge on the key Redis then holds.
  redis.client.on("ready", () => void reassert());
  return { sealer, reassert };
}

/**
 * The sealing key of a process without Redis, as jobSealer gives it, made synchronously:
 * SIPHON_JOB_SECRET_KEY when the operator set one, else a random key this process alone holds.
 */
export function localJobSealer(config: Pick<Config, "jobSecretKey">): JobSealing {
  const key = config.jobSecretKey ? keyFromText(config.jobSecretKey) : randomKey();
  return { sealer: createSealer(key), reassert: async () => {} };
}

/**
 * A job store that writes a job's secrets only sealed (src/jobs/sealing.ts) and hands them back
 * opened, so every reader works with the plain input while the database never holds a readable
 * key. A queued or processing job whose secrets cannot be opened (sealed by a process that is
 * gone) is ended as failed with LOST_SECRETS_ERROR when it is read to be run or polled: run
 * without its key it could fall back to the operator's LLM, or fail for a reason nobody can see.
 */
export function sealedJobs(
  jobs: JobStore,
  sealing: JobSealing,
  options: { retentionMs: number; now?: () => number },
): JobStore {
  const { sealer } = sealing;
  const now = options.now ?? Date.now;
  const seal = (value: string) => (isSealed(value) ? value : sealer.seal(value));

  function opened(record: JobRecord): { record: JobRecord; lost: boolean } {
    const { input, lost } = openInput(record.input, sealer);
    const webhook = mapWebhook(record.webhook, (value) => sealer.open(value));
    return { record: { ...record, input, webhook }, lost };
  }

  /** Ends a job whose secrets are lost; answers it as it then is. */
  async function failLost(record: JobRecord): Promise<JobRecord | null> {
    const at = now();
    await jobs.transition(record.id, ["queued", "processing"], "failed", {
      error: LOST_SECRETS_ERROR,
      finishedAt: at,
      expiresAt: at + options.retentionMs,
      input: withoutSecrets(record.input),
    });
    const after = await jobs.get(record.id);
    return after && opened(after).record;
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
      if (!record) return null;
      const { record: open, lost } = opened(record);
      return lost ? failLost(open) : open;
    },
    async list(filter) {
      // Listings show no input: a job whose secrets are lost is listed as it is.
      return (await jobs.list(filter)).map((record) => opened(record).record);
    },
    async unfinished() {
      await sealing.reassert();
      const out: JobRecord[] = [];
      for (const record of await jobs.unfinished()) {
        const { record: open, lost } = opened(record);
        if (lost) await failLost(open);
        else out.push(open);
      }
      return out;
    },
  };
}
