/**
 * How long a job's pages trust their last read of whether its account is past its weekly quota,
 * ms. Past the quota pages are degraded, never refused (DECISIONS.md "Plans and limits"), and
 * pages already in flight cross it late in any case; a read per page cost each page a store read
 * (on PostgreSQL and Redis a round trip of each).
 */
export const QUOTA_READ_MS = 1_000;

/** `read` with its answer kept for QUOTA_READ_MS (a failed read is not kept). */
export function keptQuotaRead(read: () => Promise<boolean>, now: () => number): () => Promise<boolean> {
  let kept: { at: number; value: Promise<boolean> } | undefined;
  return () => {
    const at = now();
    if (!kept || at - kept.at >= QUOTA_READ_MS) {
      const entry = { at, value: read() };
      kept = entry;
      entry.value.catch(() => {
        if (kept === entry) kept = undefined;
      });
    }
    return kept.value;
  };
}
