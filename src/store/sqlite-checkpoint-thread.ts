/**
 * Entry of the SQLite checkpointer thread (src/store/sqlite-checkpointer.ts):
 * passive checkpoints of one file on a connection of its own, paced by
 * nextPause, until told to stop; then it closes the connection and says so
 * (`failed` when it could not go on: the event loop checkpoints again).
 * An entrypoint of the compiled binary (scripts/build.ts).
 */
import { Database } from "bun:sqlite";
import { type CheckpointerMessage, type CheckpointRow, nextPause } from "./sqlite-checkpointer.ts";

declare const self: Worker;

let stop = false;
let wake: (() => void) | undefined;

async function run(path: string): Promise<void> {
  const sqlite = new Database(path, { readwrite: true });
  sqlite.exec("PRAGMA busy_timeout = 0; PRAGMA synchronous = NORMAL;");
  const checkpoint = sqlite.prepare<CheckpointRow, []>("PRAGMA wal_checkpoint(PASSIVE)");
  try {
    let before: CheckpointRow | null = null;
    let pause = 0;
    while (!stop) {
      const pass = checkpoint.get() ?? { busy: 1, log: 0, checkpointed: 0 };
      pause = nextPause(pass, before, pause);
      before = pass;
      // Even a pass that goes again at once yields first, so a stop message is read.
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, pause);
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
