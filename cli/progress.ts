/**
 * The progress bar a job command draws on a terminal's stderr: pages done of the total, a bar,
 * the rate and the time left. Nothing is drawn when stderr is not a terminal, with --quiet or
 * with --json (machine output stays clean).
 */

/** The bar's text for `done` of `total` pages after `seconds`: `[#####-----] 120/500 pages  24.3/s  ETA 16s`. */
export function progressLine(
  status: string,
  done: number,
  total: number,
  seconds: number,
  width = 24,
): string {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * width);
  const bar = `[${"#".repeat(filled)}${"-".repeat(width - filled)}]`;
  const rate = seconds > 0 ? done / seconds : 0;
  const left = rate > 0 && total > done ? Math.ceil((total - done) / rate) : undefined;
  const eta = left === undefined ? "" : `  ETA ${duration(left)}`;
  return `${bar} ${done}/${total} pages  ${rate.toFixed(1)}/s${eta}  ${status}`;
}

/** Seconds as people read them: 42s, 3m05s, 1h02m. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, "0")}m`;
}

/** A progress bar on stderr, drawn only where a person watches it. */
export function progressBar(options: { quiet?: boolean; json?: boolean }) {
  const shown = process.stderr.isTTY === true && !options.quiet && !options.json;
  const started = performance.now();
  let drawn = false;
  return {
    update(status: string, done: number, total: number) {
      if (!shown) return;
      const line = progressLine(status, done, total, (performance.now() - started) / 1000);
      process.stderr.write(`\r${line}\u001b[K`);
      drawn = true;
    },
    end() {
      if (drawn) process.stderr.write("\n");
    },
  };
}
