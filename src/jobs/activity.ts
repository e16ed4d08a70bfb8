import type { JobRecord } from "../store/types.ts";

/** What a poll says about a job's movement: when it last progressed, and a warning once it looks stalled. */
export interface JobActivity {
  /** ISO 8601: when the job last moved (a page finished, a status changed). */
  lastProgressAt: string;
  /** Set while the job is queued or processing and has not moved for longer than the stall setting. */
  warning?: string;
}

/**
 * When `job` last moved, and, for a job still queued or processing with no movement for longer
 * than `stallMs`, a warning saying so: a job whose workers are gone (a worker's Redis lost, every
 * worker stopped) otherwise answers "processing" at the same count for as long as it lasts.
 * A stalled job is not failed: it resumes by itself when its workers are back.
 */
export function jobActivity(job: JobRecord, now: number, stallMs: number): JobActivity {
  const activity: JobActivity = { lastProgressAt: new Date(job.updatedAt).toISOString() };
  const idle = now - job.updatedAt;
  if ((job.status === "queued" || job.status === "processing") && stallMs > 0 && idle > stallMs) {
    const seconds = Math.round(idle / 1000);
    activity.warning =
      job.status === "queued"
        ? `No worker has started this job in ${seconds} s; check that a worker is running (siphon serve, or --role worker with REDIS_URL). It starts by itself once one is.`
        : `This job has not progressed in ${seconds} s (last at ${activity.lastProgressAt}): its workers may be stopped or cut off from Redis. It resumes by itself when they are back; cancel it to stop waiting.`;
  }
  return activity;
}
