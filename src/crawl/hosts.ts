/** Politeness rules of one crawl, per host. */
export interface HostRules {
  /** Most pages of one host in flight at once. */
  perHost: number;
  /** Pause after a page of `host` finishes before the next one of that host starts (0: none). */
  delayMs(host: string): number;
  now(): number;
}

interface HostState {
  inFlight: number;
  /** Earliest start of the next page of this host (epoch ms). */
  readyAt: number;
}

/** The host part a rule applies to: scheme, name and port, as robots.txt scopes its rules. */
export function hostKey(url: string): string {
  const at = url.indexOf("/", url.indexOf("//") + 2);
  return (at < 0 ? url : url.slice(0, at)).toLowerCase();
}

/**
 * Decides which frontier items may start now so that no host gets more than
 * `perHost` pages at once and, when a host has a delay (robots.txt
 * Crawl-delay or the crawl's `delay`), its pages run one at a time with the
 * delay between one's end and the next one's start. Items keep their
 * frontier order (shallowest first); an item whose host is busy waits while
 * items of other hosts go ahead.
 */
export class HostScheduler {
  private readonly hosts = new Map<string, HostState>();

  constructor(private readonly rules: HostRules) {}

  private state(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { inFlight: 0, readyAt: 0 };
      this.hosts.set(host, state);
    }
    return state;
  }

  private limit(host: string): number {
    return this.rules.delayMs(host) > 0 ? 1 : Math.max(1, this.rules.perHost);
  }

  /** Takes up to `n` items that may start now, in order, and counts them as started. */
  take<T extends { url: string }>(items: T[], n: number): T[] {
    const now = this.rules.now();
    const taken: T[] = [];
    for (const item of items) {
      if (taken.length >= n) break;
      const host = hostKey(item.url);
      const state = this.state(host);
      if (state.inFlight >= this.limit(host) || state.readyAt > now) continue;
      state.inFlight++;
      taken.push(item);
    }
    return taken;
  }

  /** A page of `url`'s host finished (or failed): its slot frees, after the host's delay. */
  finished(url: string): void {
    const host = hostKey(url);
    const state = this.state(host);
    state.inFlight = Math.max(0, state.inFlight - 1);
    const delay = this.rules.delayMs(host);
    if (delay > 0) state.readyAt = this.rules.now() + delay;
    if (state.inFlight === 0 && state.readyAt <= this.rules.now()) this.hosts.delete(host);
  }

  /**
   * Milliseconds until one of `items` could start if no page were in flight
   * (a host's delay runs out), or null when none waits on a delay.
   */
  waitMs(items: { url: string }[]): number | null {
    const now = this.rules.now();
    let soonest: number | null = null;
    for (const item of items) {
      const state = this.hosts.get(hostKey(item.url));
      if (!state || state.readyAt <= now) continue;
      const wait = state.readyAt - now;
      if (soonest === null || wait < soonest) soonest = wait;
    }
    return soonest;
  }
}
