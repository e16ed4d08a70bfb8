import { EventEmitter } from "node:events";
import type { Store } from "../store/types.ts";
import type { JobEvent } from "./kinds/types.ts";
import { finishedCount } from "./read.ts";

/**
 * How a job's events reach its followers (SSE, MCP, a CLI following a job): in
 * this process, or through Redis to every process (src/jobs/queue-redis-events.ts).
 */
export interface JobEventBus {
  /** Sends an event to the job's followers, wherever they are. */
  emit(id: string, event: JobEvent): void;
  /**
   * The job's counters changed: its followers get a progress event read from the store.
   * Costs nothing (no read) while nobody follows the job.
   */
  changed(id: string): Promise<void>;
  /** Follows a job's events; returns the unsubscribe function. */
  subscribe(id: string, listener: (event: JobEvent) => void): () => void;
  /**
   * Sends the job's events this process still holds (a bus may gather page events for a moment)
   * ahead of anything it sends after: a worker calls it before it reports a page of the queue done.
   */
  flush?(id: string): void;
  close(): Promise<void>;
}

/** A progress event of the job as stored, or null when there is no such job. */
export async function progressEvent(store: Store, id: string): Promise<JobEvent | null> {
  const job = await store.jobs.get(id);
  return job
    ? { type: "progress", status: job.status, completed: finishedCount(job), total: job.total }
    : null;
}

/** Job events within this process: the single-process default. */
export function localEventBus(store: Store): JobEventBus {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  return {
    emit: (id, event) => void events.emit(id, event),
    async changed(id) {
      // Read only for someone following the job: the loop calls this on every page finished.
      if (!events.listenerCount(id)) return;
      const event = await progressEvent(store, id);
      if (event) events.emit(id, event);
    },
    subscribe(id, listener) {
      events.on(id, listener);
      return () => events.off(id, listener);
    },
    async close() {
      events.removeAllListeners();
    },
  };
}
