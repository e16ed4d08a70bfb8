/** One subject's window: request times (ascending, distinct) with how many requests each holds. */
interface Window {
  times: number[];
  counts: number[];
  /** Index of the oldest time still in the window. */
  head: number;
  /** Requests in the window (the counts from head on). */
  used: number;
}

/**
 * Exact sliding windows of request times, one per subject, in memory. Times
 * are appended in order, so each window is a queue whose head expires first;
 * requests in the same millisecond share one entry with a count, so a busy
 * key with a large limit holds at most one entry per millisecond of the
 * window, not one per request. Checking and counting a request is O(1)
 * amortised, whatever the limit.
 */
export class BurstWindows {
  private readonly windows = new Map<string, Window>();

  /** Whether `subject` has a window in memory (else the caller loads it from storage first). */
  has(subject: string): boolean {
    return this.windows.has(subject);
  }

  /** Seeds a subject's window with times already recorded (ascending). */
  load(subject: string, times: number[]): void {
    const w: Window = { times: [], counts: [], head: 0, used: 0 };
    for (const time of times) this.append(w, time);
    this.windows.set(subject, w);
  }

  private append(w: Window, time: number): void {
    const last = w.times.length - 1;
    // A clock that steps back must not break the queue's order.
    if (last >= w.head && (w.times[last] as number) >= time) (w.counts[last] as number)++;
    else {
      w.times.push(time);
      w.counts.push(1);
    }
    w.used++;
  }

  private slide(subject: string, now: number, windowMs: number): Window {
    let w = this.windows.get(subject);
    if (!w) {
      w = { times: [], counts: [], head: 0, used: 0 };
      this.windows.set(subject, w);
    }
    const cutoff = now - windowMs;
    while (w.head < w.times.length && (w.times[w.head] as number) <= cutoff) {
      w.used -= w.counts[w.head] as number;
      w.head++;
    }
    // Compact now and then so the arrays do not keep expired times forever.
    if (w.head > 1024 && w.head * 2 > w.times.length) {
      w.times = w.times.slice(w.head);
      w.counts = w.counts.slice(w.head);
      w.head = 0;
    }
    return w;
  }

  /** When the oldest request in the window leaves it: now when the window is empty. */
  private oldestExpiry(w: Window, now: number, windowMs: number): number {
    const oldest = w.times[w.head];
    return w.used && oldest !== undefined ? oldest + windowMs : now;
  }

  /** The window now: how many requests it holds and when its oldest leaves (now when empty). */
  peek(subject: string, now: number, windowMs: number): { used: number; oldestExpiresAt: number } {
    const w = this.slide(subject, now, windowMs);
    return { used: w.used, oldestExpiresAt: this.oldestExpiry(w, now, windowMs) };
  }

  /** Counts a request at `now` when fewer than `limit` are in the window. */
  take(subject: string, now: number, windowMs: number, limit: number) {
    const w = this.slide(subject, now, windowMs);
    const allowed = w.used < limit;
    if (allowed) this.append(w, now);
    return { allowed, used: w.used, oldestExpiresAt: this.oldestExpiry(w, now, windowMs) };
  }
}
