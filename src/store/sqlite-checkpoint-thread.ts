/**
 * Entry of the SQLite checkpointer thread (src/store/sqlite-checkpointer.ts):
 * passive checkpoints of one file on a connection of its own, paced by
 * nextPause, until told to stop; then it closes the connection and says so
 * (`failed` when it could not go on: the event loop checkpoints again).
 * An entrypoint of the compiled binary (scripts/build.ts).
 */
import { Database, type Statement } from "bun:sqlite";
import { type CheckpointerMessage, type CheckpointRow, nextPause } from "./sqlite-checkpointer.ts";

declare const self: Worker;

let stop = false;
let wake: (() => void) | undefined;

/** A pass that could not run: nothing copied. */
const NOTHING: CheckpointRow = { busy: 1, log: 0, checkpointed: 0 };

/**
 * One passive checkpoint. A pass SQLite refuses (the file busy or gone a moment) reads as the pass
 * before it, one that found nothing new, so the thread backs off rather than ending.
 */
function pass(checkpoint: Statement<CheckpointRow, []>, before: CheckpointRow | null): CheckpointRow {
  try {
    return checkpoint.get() ?? before ?? NOTHING;
  } catch {
    return before ?? NOTHING;
  }
}

async function run(path: string): Promise<void> {
  const sqlite = new Database(path, { readwrite: true });
  sqlite.exec("PRAGMA busy_timeout = 0; PRAGMA synchronous = NORMAL;");
  const checkpoint = sqlite.prepare<CheckpointRow, []>("PRAGMA wal_checkpoint(PASSIVE)");
  try {
    let before: CheckpointRow | null = null;
    let pause = 0;
    while (!stop) {
      const row = pass(checkpoint, before);
      pause = nextPause(row, before, pause);
      before = row;
      // Between passes the thread waits on a timer, so a stop message is read (and ends the wait).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    checkpoint.finalize();
    sqlite.close();
  }
}

self.onmessage = (event: MessageEvent<CheckpointerMessage>) => {
  const message = event.data;
  if ("stop" in message) {
    stop = true;
    wake?.();
    return;
  }
  run(message.path).then(
    () => self.postMessage({ failed: false }),
    () => self.postMessage({ failed: true }),
  );
};
