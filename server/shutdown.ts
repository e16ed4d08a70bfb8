/**
 * What a server process holds open that its shutdown must end: event streams (SSE) and
 * WebSockets. A client following a job would otherwise keep the process up for as long as it
 * stays connected (a graceful stop waits for every open response); each one registered here is
 * told the server is going away and closed when the process shuts down.
 */

/** RFC 6455 1001 "going away": the server is shutting down. */
export const GOING_AWAY_CODE = 1001;

/** The last event of every open event stream when the server shuts down (DECISIONS.md crawl SSE). */
export interface ShutdownEvent {
  type: "shutdown";
  /** What the client should do: follow the job again once the server is back, or ask again. */
  message: string;
}

/** The shutdown event of a stream that follows a job: the job carries on after the restart. */
export const JOB_GOING_AWAY: ShutdownEvent = {
  type: "shutdown",
  message:
    "siphon is shutting down; the job is kept and goes on when it restarts: poll or follow it again then",
};

/** The shutdown event of a stream whose work ends with it (an answer, a research, an agent run). */
export const STREAM_GOING_AWAY: ShutdownEvent = {
  type: "shutdown",
  message: "siphon is shutting down; this stream ends here: send the request again once it is back",
};

const open = new Set<() => void>();
let shuttingDown = false;

/**
 * Registers an open stream or socket with the function that ends it (its going-away message,
 * then close). Returns the function that unregisters it, for when it ends by itself. One opened
 * while the process is already shutting down is ended at once.
 */
export function holdOpen(end: () => void): () => void {
  if (shuttingDown) {
    end();
    return () => {};
  }
  open.add(end);
  return () => {
    open.delete(end);
  };
}

/** Ends every stream and socket open in this process, and any opened from now on; answers how many were open. */
export function endOpenConnections(): number {
  shuttingDown = true;
  const ending = [...open];
  open.clear();
  for (const end of ending) {
    try {
      end();
    } catch {
      // A stream whose client left meanwhile has nothing to end.
    }
  }
  return ending.length;
}
