import { finishedCount, isEnded } from "../src/jobs/read.ts";
import type { JobEvent, JobRunner } from "../src/jobs/runner.ts";
import type { JobRecord } from "../src/store/types.ts";
import { holdOpen, JOB_GOING_AWAY, type ShutdownEvent, STREAM_GOING_AWAY } from "./shutdown.ts";

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
};
const encoder = new TextEncoder();
const frame = (event: unknown, name?: string) =>
  encoder.encode(`${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(event)}\n\n`);

/**
 * Server-sent events (SPEC Events): every event is one `data: <json>` line and a blank line.
 * The stream ends when the events end; a client that goes away cancels it, which closes the
 * iterator (and, through it, whatever upstream call feeds it). When the server shuts down the
 * stream ends with `goingAway` ({"type":"shutdown","message"}) and the iterator is closed.
 */
export function sseResponse(
  events: AsyncIterable<unknown>,
  headers: Record<string, string> = {},
  goingAway: ShutdownEvent = STREAM_GOING_AWAY,
  /** An `event:` name for every frame (Jina's streams name theirs "data"); none by default. */
  name?: string,
): Response {
  const iterator = events[Symbol.asyncIterator]();
  let ended = false;
  let release = () => {};
  const end = () => {
    ended = true;
    release();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      release = holdOpen(() => {
        if (ended) return;
        end();
        controller.enqueue(frame(goingAway, name));
        controller.close();
        // Not awaited: a generator finishes its pending step first, and the stream is closed already.
        void Promise.resolve(iterator.return?.()).catch(() => {});
      });
    },
    async pull(controller) {
      const next = await iterator.next();
      if (ended) return;
      if (next.done) {
        end();
        controller.close();
      } else controller.enqueue(frame(next.value, name));
    },
    async cancel() {
      end();
      await iterator.return?.();
    },
  });
  return new Response(stream, { headers: { ...headers, ...SSE_HEADERS } });
}

/**
 * A job's progress as server-sent events (DECISIONS.md crawl SSE): its current progress, then
 * page and progress events, a final done event, then the end. When the server shuts down first,
 * the last event is {"type":"shutdown","message"} (the job carries on after the restart).
 */
export function jobEventStream(runner: JobRunner, job: JobRecord, request: Request): Response {
  let unsubscribe = () => {};
  let release = () => {};
  let ended = false;
  const stop = () => {
    ended = true;
    unsubscribe();
    release();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: JobEvent | ShutdownEvent) => controller.enqueue(frame(event));
      const end = (last?: ShutdownEvent) => {
        if (ended) return;
        stop();
        if (last) send(last);
        controller.close();
      };
      const counts = { completed: finishedCount(job), total: job.total };
      if (isEnded(job)) {
        send({ type: "done", status: job.status, ...counts });
        return end();
      }
      send({ type: "progress", status: job.status, ...counts });
      unsubscribe = runner.subscribe(job.id, (event) => {
        if (ended) return;
        send(event);
        if (event.type === "done") end();
      });
      release = holdOpen(() => end(JOB_GOING_AWAY));
      // A client that goes away costs nothing: stop listening.
      request.signal.addEventListener("abort", stop, { once: true });
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
