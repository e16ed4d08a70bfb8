/**
 * Exact sliding windows of request times, one per subject, in memory. Times
 * are appended in order, so each window is a queue whose head expires first;
 * checking and counting a request is O(1) amortised, whatever the limit.
 */
export class BurstWindows {
  private readonly windows = new Map<string, { times: number[]; head: number }>();

  /** Whether `subject` has a window in memory (else the caller loads it from storage first). */
  has(subject: string): boolean {
    return this.windows.has(subject);
  }

  /** Seeds a subject's window with times already recorded (ascending). */
  load(subject: string, times: number[]): void {
    this.windows.set(subject, { times: [...times], head: 0 });
  }

  private slide(subject: string, now: number, windowMs: number) {
    let w = this.windows.get(subject);
    if (!w) {
      w = { times: [], head: 0 };
      this.windows.set(subject, w);
    }
    const cutoff = now - windowMs;
    while (w.head < w.times.length && (w.times[w.head] ?? 0) <= cutoff) w.head++;
    // Compact now and then so the array does not keep expired times forever.
    if (w.head > 1024 && w.head * 2 > w.times.length) {
      w.times = w.times.slice(w.head);
      w.head = 0;
    }
    return w;
  }

  /** The window now: how many requests it holds and when its oldest leaves (now when empty). */
  peek(subject: string, now: number, windowMs: number): { used: number; oldestExpiresAt: number } {
    const w = this.slide(subject, now, windowMs);
    const used = w.times.length - w.head;
    const oldest = w.times[w.head];
    return { used, oldestExpiresAt: used && oldest !== undefined ? oldest + windowMs : now };
  }

  /** Counts a request at `now` when fewer than `limit` are in the window. */
  take(subject: string, now: number, windowMs: number, limit: number) {
    const w = this.slide(subject, now, windowMs);
    const allowed = w.times.length - w.head < limit;
    // A clock that steps back must not break the queue's order.
    if (allowed) w.times.push(Math.max(now, w.times[w.times.length - 1] ?? now));
    const used = w.times.length - w.head;
    const oldest = w.times[w.head];
    return { allowed, used, oldestExpiresAt: used && oldest !== undefined ? oldest + windowMs : now };
  }
}
