import { SiphonError } from "../errors.ts";
import type { LivePage } from "../fetch/browser/live.ts";
import type { ActionOutputs } from "../fetch/types.ts";
import type { ScrapeDeps, ScrapeOutcome } from "../pipeline/scrape.ts";
import { parseActions } from "../schemas/actions.ts";
import { FetchBody } from "../schemas/fetch.ts";
import type {
  SessionActInput,
  SessionCreateInput,
  SessionInfo,
  SessionReadInput,
} from "../schemas/sessions.ts";
import { validate } from "../schemas/validate.ts";

/**
 * Browser sessions: live pages kept open between requests, so a caller can go to a page, act on
 * it step by step (click, type, run a script, take a screenshot) and read it in any format in
 * between, as one person would in one tab. A session holds a page slot of the pool until it is
 * closed, its ttl passes, or it sees no request for its activityTtl; an account may keep
 * SIPHON_BROWSER_SESSIONS_PER_ACCOUNT open, and all sessions together leave the pool one page for
 * fetches. Sessions live in the process that opened them (a hosted deployment routes a
 * session's requests to its process, or runs one API process).
 */

interface Session {
  id: string;
  accountId: string;
  page: LivePage;
  createdAt: number;
  lastActivity: number;
  expiresAt: number;
  activityMs: number;
  url: string;
  timer?: ReturnType<typeof setTimeout>;
}

/** What the sessions need: the scrape operation's deps (engines, config) and a clock. */
export type SessionDeps = ScrapeDeps;

/** A session's step: where the page is now, and what its actions made. */
export interface StepOutcome {
  url: string;
  actions: ActionOutputs;
  /** Whether the step went to a page (a visit, charged as a fetch is). */
  visited: boolean;
}

export interface Sessions {
  /** Opens a session for `accountId` (and goes to `url` when given). Throws rate_limited past the caps. */
  create(accountId: string, input: SessionCreateInput, deps: SessionDeps): Promise<SessionInfo>;
  list(accountId: string): SessionInfo[];
  /** Throws not_found unless `id` is an open session of `accountId` (checked before a request's body is). */
  check(accountId: string, id: string): void;
  /** Throws not_found unless `scrapeId` is a recent scrape of `accountId`. */
  checkScrape(accountId: string, scrapeId: string): void;
  /** Goes to `url` and/or runs `actions` on the session's page. Throws not_found for another's or a closed session. */
  act(accountId: string, id: string, input: SessionActInput): Promise<StepOutcome>;
  /** The page as it is now, read as a document in the asked formats (the scrape operation, nothing fetched). */
  read(accountId: string, id: string, input: SessionReadInput, deps: SessionDeps): Promise<ScrapeOutcome>;
  /** Closes the session; answers how long it lived. Throws not_found. */
  close(accountId: string, id: string): Promise<{ durationMs: number }>;
  /** Closes every session (the server shutting down). */
  closeAll(): Promise<void>;
  /**
   * Remembers a scrape for SCRAPE_MEMORY_MS so that it can be continued (scrape interaction):
   * whose it was, its page and what shaped it (stealth, the actions it ran).
   */
  rememberScrape(scrapeId: string, scrape: RememberedScrape): void;
  /**
   * The session that continues a remembered scrape of `accountId`: the one opened before, else
   * a new one at the scrape's page with its actions run again. Throws not_found for a scrape it
   * does not remember (too old, another account's, never made) and create's errors.
   */
  continueScrape(accountId: string, scrapeId: string, deps: SessionDeps): Promise<string>;
  /** Closes the session continuing a scrape; false when there is none. Throws not_found for a scrape it does not remember. */
  stopScrape(accountId: string, scrapeId: string): Promise<boolean>;
}

/** A scrape as it can be continued: its page and what shaped it. */
export interface RememberedScrape {
  accountId: string;
  url: string;
  stealth: boolean;
  actions?: unknown[];
}

/** How long a scrape can be continued after it was made. */
export const SCRAPE_MEMORY_MS = 10 * 60_000;
/** How many recent scrapes are remembered at most (the oldest are forgotten first). */
const SCRAPES_REMEMBERED = 1_000;

const iso = (ms: number) => new Date(ms).toISOString();

function infoOf(session: Session): SessionInfo {
  return {
    id: session.id,
    status: "active",
    url: session.url,
    createdAt: iso(session.createdAt),
    lastActivity: iso(session.lastActivity),
    expiresAt: iso(session.expiresAt),
  };
}

const gone = (id: string) =>
  new SiphonError("not_found", `No open browser session ${id}`, {
    hint: "Sessions close after their ttl or activityTtl; open a new one with POST /v1/browser.",
  });

/** The process's browser sessions (see the module comment). */
export function createSessions(now: () => number = Date.now): Sessions {
  const open = new Map<string, Session>();
  const scrapes = new Map<string, RememberedScrape & { at: number; sessionId?: string }>();

  /** Arms the session's end: its ttl, or its idle time from its last request, whichever is first. */
  const arm = (session: Session) => {
    if (session.timer) clearTimeout(session.timer);
    const at = Math.min(session.expiresAt, session.lastActivity + session.activityMs);
    session.timer = setTimeout(() => void end(session), Math.max(0, at - now()));
    session.timer.unref?.();
  };

  async function end(session: Session): Promise<number> {
    if (session.timer) clearTimeout(session.timer);
    open.delete(session.id);
    await session.page.close();
    return now() - session.createdAt;
  }

  /** The caller's own open session; a closed, expired, crashed or another account's one is not_found. */
  const own = (accountId: string, id: string): Session => {
    const session = open.get(id);
    if (!session || session.accountId !== accountId) throw gone(id);
    if (session.page.ended) {
      void end(session);
      throw gone(id);
    }
    session.lastActivity = now();
    arm(session);
    return session;
  };

  async function step(session: Session, input: SessionActInput): Promise<StepOutcome> {
    const actions = parseActions(input.actions);
    if (input.url) await session.page.goto(input.url, input.timeout);
    const made = actions.length
      ? await session.page.act(actions, input.timeout)
      : { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
    session.url = session.page.url();
    return { url: session.url, actions: made, visited: input.url !== undefined };
  }

  /** A recent scrape of the account's; not_found for one too old, another's, or never made. */
  const rememberedOf = (accountId: string, scrapeId: string) => {
    const scrape = scrapes.get(scrapeId);
    if (!scrape || scrape.accountId !== accountId || now() - scrape.at > SCRAPE_MEMORY_MS) {
      throw new SiphonError("not_found", `No recent scrape ${scrapeId} to continue`, {
        hint: "A scrape can be continued for 10 minutes after it was made, by the account that made it.",
      });
    }
    return scrape;
  };

  const api: Sessions = {
    async create(accountId, input, deps) {
      const perAccount = Math.max(1, deps.config.browserSessionsPerAccount);
      const total = deps.config.browserConcurrency - 1;
      const mine = [...open.values()].filter((s) => s.accountId === accountId).length;
      if (total < 1) {
        throw new SiphonError(
          "invalid_request",
          "This server has one browser page: it cannot keep one open for a session",
          {
            hint: "Raise SIPHON_BROWSER_CONCURRENCY to 2 or more.",
          },
        );
      }
      if (mine >= perAccount || open.size >= total) {
        throw new SiphonError(
          "rate_limited",
          mine >= perAccount
            ? `You have ${mine} browser sessions open, the most an account may keep (SIPHON_BROWSER_SESSIONS_PER_ACCOUNT)`
            : "Every browser page this server lends to sessions is in use",
          { hint: "Close a session (DELETE /v1/browser/:id) or wait for one to expire." },
        );
      }
      const engine = await deps.engines.get(input.stealth ? "stealth" : "browser");
      if (!engine.openLive)
        throw new SiphonError("browser_unavailable", "This server's browser cannot keep a page open");
      const page = await engine.openLive();
      const at = now();
      const session: Session = {
        id: `browser_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
        accountId,
        page,
        createdAt: at,
        lastActivity: at,
        expiresAt: at + input.ttl * 1000,
        activityMs: input.activityTtl * 1000,
        url: "about:blank",
      };
      open.set(session.id, session);
      arm(session);
      if (input.url) {
        try {
          await step(session, { url: input.url, timeout: 30_000 });
        } catch (error) {
          await end(session);
          throw error;
        }
      }
      return infoOf(session);
    },
    check(accountId, id) {
      const session = open.get(id);
      if (!session || session.accountId !== accountId || session.page.ended) throw gone(id);
    },
    checkScrape(accountId, scrapeId) {
      rememberedOf(accountId, scrapeId);
    },
    list(accountId) {
      return [...open.values()].filter((s) => s.accountId === accountId && !s.page.ended).map(infoOf);
    },
    act(accountId, id, input) {
      if (!input.url && !input.actions?.length) {
        throw new SiphonError("invalid_request", "Give url, actions or both");
      }
      return step(own(accountId, id), input);
    },
    async read(accountId, id, input, deps) {
      const session = own(accountId, id);
      const snapshot = await session.page.snapshot();
      const fetch = validate(FetchBody, { ...input, url: snapshot.url });
      const body = new TextEncoder().encode(snapshot.html);
      // Loaded when a session is read: the engines hold the sessions, and every command loads the engines.
      const { scrape } = await import("../pipeline/scrape.ts");
      return scrape(
        { fetch, accountId, document: { body, filename: "session.html", contentType: "text/html" } },
        deps,
      );
    },
    async close(accountId, id) {
      const session = open.get(id);
      if (!session || session.accountId !== accountId) throw gone(id);
      return { durationMs: await end(session) };
    },
    async closeAll() {
      await Promise.all([...open.values()].map(end));
    },
    rememberScrape(scrapeId, scrape) {
      if (scrapes.size >= SCRAPES_REMEMBERED) {
        const oldest = scrapes.keys().next().value;
        if (oldest !== undefined) scrapes.delete(oldest);
      }
      scrapes.set(scrapeId, { ...scrape, at: now() });
    },
    async continueScrape(accountId, scrapeId, deps) {
      const scrape = rememberedOf(accountId, scrapeId);
      const existing = scrape.sessionId ? open.get(scrape.sessionId) : undefined;
      if (existing && !existing.page.ended) return existing.id;
      const session = await api.create(
        accountId,
        { ttl: SCRAPE_MEMORY_MS / 1000, activityTtl: 300, stealth: scrape.stealth },
        deps,
      );
      try {
        const step = open.get(session.id) as Session;
        await step.page.goto(scrape.url, 30_000);
        if (scrape.actions?.length) await step.page.act(parseActions(scrape.actions), 30_000);
        step.url = step.page.url();
      } catch (error) {
        await api.close(accountId, session.id).catch(() => {});
        throw error;
      }
      scrape.sessionId = session.id;
      return session.id;
    },
    async stopScrape(accountId, scrapeId) {
      const scrape = rememberedOf(accountId, scrapeId);
      const session = scrape.sessionId ? open.get(scrape.sessionId) : undefined;
      if (!session) return false;
      scrape.sessionId = undefined;
      await end(session);
      return true;
    },
  };
  return api;
}

/** The process's sessions, as the engines hold them; browser_unavailable where there are none. */
export function sessionsOf(engines: { sessions?: Sessions }): Sessions {
  if (!engines.sessions) {
    throw new SiphonError("browser_unavailable", "Browser sessions are not available on this server");
  }
  return engines.sessions;
}
