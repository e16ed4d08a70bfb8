import { Redis } from "ioredis";
import { KEY_PREFIX, type RedisConnection, redisUnavailable } from "../store/redis-connection.ts";
import type { Store } from "../store/types.ts";
import type { JobEvent } from "./kinds/types.ts";
import { type JobEventBus, progressEvent } from "./queue-events.ts";
import { isEnded } from "./read.ts";

const CHANNEL = `${KEY_PREFIX}job-events:`;
/** The message of `changed`: receivers that have followers read the counters themselves. */
const TICK = "tick";
/** How often a followed job is read again, so a follower never waits on an event Redis lost. */
const RESYNC_EVERY_MS = 5_000;
/**
 * Most often a process publishes a job's tick, ms. A tick only says "read the counters again",
 * and the last change is always published: a follower's progress is at most this late, while a
 * crawl of hundreds of pages a second no longer costs a PUBLISH (and a read in every following
 * process) per page.
 */
const TICK_EVERY_MS = 100;
/**
 * Longest a process holds a job's page events before it publishes them together (one message, a
 * JSON array): a PUBLISH a page was about a tenth of a worker's event loop. Any other event of the job
 * (done, cancelled) goes after the held ones, and a worker sends a queued page's events before it
 * reports the page done, so a follower still gets every page before done.
 */
const PAGES_EVERY_MS = 100;

type Listener = (event: JobEvent) => void;

/**
 * Job events through Redis pub/sub, one channel per job: an event a worker in
 * one process emits reaches the followers in every process. A process
 * subscribes to a job's channel only while something in it follows the job.
 * Progress costs the emitter at most one PUBLISH per job every
 * TICK_EVERY_MS and no read: each process with followers reads the counters
 * itself (one read at a time per job, the last change always read). Pub/sub is at most once, so a followed job is read
 * again on every reconnection and every few seconds, and a job that ended
 * meanwhile ends its followers with a done event.
 */
export async function redisEventBus(redis: RedisConnection, store: Store): Promise<JobEventBus> {
  // A subscribed connection can do nothing else: this one is the bus's own.
  const sub = new Redis(redis.url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 10), 1_000),
    connectionName: "siphon-events",
  });
  sub.on("error", () => {});
  try {
    await sub.connect();
  } catch (error) {
    sub.disconnect();
    throw redisUnavailable("no connection", error);
  }
  const listeners = new Map<string, Set<Listener>>();
  const reads = new Map<string, { again: boolean }>();

  const deliver = (id: string, event: JobEvent) => {
    for (const listener of [...(listeners.get(id) ?? [])]) listener(event);
  };

  /** Reads the job and tells its followers: progress, or done when it ended (`onlyDone`: done only). */
  const refresh = (id: string, onlyDone = false) => {
    const reading = reads.get(id);
    if (reading) {
      reading.again = true;
      return;
    }
    const state = { again: false };
    reads.set(id, state);
    void (async () => {
      do {
        state.again = false;
        const event = await progressEvent(store, id).catch(() => null);
        if (event?.type !== "progress" || !listeners.has(id)) continue;
        if (isEnded(event)) deliver(id, { ...event, type: "done" });
        else if (!onlyDone) deliver(id, event);
      } while (state.again);
      reads.delete(id);
    })();
  };

  sub.on("message", (channel: string, message: string) => {
    const id = channel.slice(CHANNEL.length);
    if (!listeners.has(id)) return;
    if (message === TICK) return refresh(id);
    let event: JobEvent | JobEvent[];
    try {
      event = JSON.parse(message) as JobEvent | JobEvent[];
    } catch {
      return;
    }
    if (Array.isArray(event)) for (const one of event) deliver(id, one);
    else deliver(id, event);
  });
  // Messages sent while the connection was down are gone: followers get the job as stored.
  sub.on("ready", () => {
    for (const id of listeners.keys()) refresh(id);
  });
  /** Per job: when this process last published its tick, and the tick it will publish next. */
  const ticks = new Map<string, { at: number; timer?: ReturnType<typeof setTimeout> }>();
  const resync = setInterval(() => {
    for (const id of listeners.keys()) refresh(id, true);
    const now = Date.now();
    for (const [id, tick] of ticks) if (!tick.timer && now - tick.at >= TICK_EVERY_MS) ticks.delete(id);
  }, RESYNC_EVERY_MS);
  resync.unref?.();

  const publish = (id: string, message: string) => {
    void redis.run((r) => r.publish(CHANNEL + id, message)).catch(() => {});
  };
  /** Page events held per job, published together every PAGES_EVERY_MS. */
  const held = new Map<string, { events: JobEvent[]; timer: ReturnType<typeof setTimeout> }>();
  const flush = (id: string) => {
    const pages = held.get(id);
    if (!pages) return;
    held.delete(id);
    clearTimeout(pages.timer);
    publish(id, JSON.stringify(pages.events));
  };

  return {
    emit(id, event) {
      if (event.type === "done" && event.status === "cancelled") {
        // A cancel comes from any process, while the processes running the job's pages hold
        // their page events: they send them when they hear of the cancel, and its done follows
        // once they could have, so a follower gets those pages first.
        flush(id);
        const message = JSON.stringify(event);
        setTimeout(() => publish(id, message), PAGES_EVERY_MS + 50).unref?.();
        return;
      }
      if (event.type !== "page") {
        flush(id);
        return publish(id, JSON.stringify(event));
      }
      const pages = held.get(id);
      if (pages) return void pages.events.push(event);
      const timer = setTimeout(() => flush(id), PAGES_EVERY_MS);
      timer.unref?.();
      held.set(id, { events: [event], timer });
    },
    flush,
    async changed(id) {
      const now = Date.now();
      const tick = ticks.get(id);
      if (!tick || (!tick.timer && now - tick.at >= TICK_EVERY_MS)) {
        ticks.set(id, { at: now });
        publish(id, TICK);
      } else if (!tick.timer) {
        // Changes meanwhile go with one tick at the end of the interval.
        tick.timer = setTimeout(
          () => {
            tick.timer = undefined;
            tick.at = Date.now();
            publish(id, TICK);
          },
          TICK_EVERY_MS - (now - tick.at),
        );
        tick.timer.unref?.();
      }
    },
    subscribe(id, listener) {
      let set = listeners.get(id);
      if (!set) {
        set = new Set();
        listeners.set(id, set);
        // An event sent before the subscription holds is missed: a job that ended meanwhile is done.
        sub.subscribe(CHANNEL + id).then(
          () => refresh(id, true),
          () => {},
        );
      }
      set.add(listener);
      return () => {
        const current = listeners.get(id);
        if (!current?.delete(listener) || current.size) return;
        listeners.delete(id);
        void sub.unsubscribe(CHANNEL + id).catch(() => {});
      };
    },
    async close() {
      for (const id of [...held.keys()]) flush(id);
      clearInterval(resync);
      for (const tick of ticks.values()) clearTimeout(tick.timer);
      listeners.clear();
      // quit waits for Redis; a Redis that is away gets a plain disconnect after a second.
      const quit = sub.quit().catch(() => {});
      await Promise.race([quit, new Promise((resolve) => setTimeout(resolve, 1_000).unref?.())]);
      sub.disconnect();
    },
  };
}
