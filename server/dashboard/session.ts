import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { hashKey } from "../../src/auth/keys.ts";
import {
  accountTier,
  identifyPrincipal,
  LOCAL_ACCOUNT_ID,
  type Principal,
  planOf,
} from "../../src/auth/principal.ts";
import { SiphonError } from "../../src/errors.ts";
import type { ApiKeyInfo } from "../../src/store/types.ts";
import type { Guard } from "../guard.ts";
import { csrfRefused } from "./page-error.ts";

/** How long a sign-in lasts. */
export const SESSION_TTL_MS = 12 * 3_600_000;
export const SESSION_COOKIE = "siphon_session";
/** A sign-in form's own token, before there is a session to tie a CSRF token to. */
export const PRESESSION_COOKIE = "siphon_presession";
/** Cookies are sent to the dashboard's pages only, never to the API. */
export const COOKIE_PATH = "/dashboard";

/**
 * Who a dashboard session acts for: the local account (the loopback daemon, no sign-in), an
 * account through the key it signed in with, or the operator through the admin key of the
 * configuration.
 */
export interface DashboardSession {
  /** Random; CSRF tokens are derived from it. */
  id: string;
  who: "local" | "account" | "operator";
  accountId: string | null;
  /** The key an account signed in with: revoking it ends the session. */
  keyId: string | null;
  issuedAt: number;
}

interface Payload {
  s: string;
  w: DashboardSession["who"];
  a: string | null;
  k: string | null;
  t: number;
  /** The operator's admin key, fingerprinted: a new admin key ends the old one's sessions. */
  f?: string;
}

const b64 = (bytes: Buffer) => bytes.toString("base64url");

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The named cookie of a Cookie header, or null. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * Whether the browser reached this server over HTTPS: the request's own scheme, or the one a
 * TLS-terminating proxy reports. Trusting the header can only add the Secure flag.
 */
export function overHttps(request: Request): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https";
}

/** A Set-Cookie value: HttpOnly, SameSite=Strict, path /dashboard, Secure over HTTPS; maxAge 0 clears it. */
export function cookie(name: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${name}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/**
 * Signed, stateless sessions, so that every server process sharing the secret
 * (SIPHON_DASHBOARD_SECRET) accepts them; without it each process draws its own and a restart
 * signs everyone out. A session is checked against the store on every request: a revoked
 * sign-in key, a deleted account or a changed admin key ends it at once. Signing out ends it
 * in the browser and in this process.
 */
export class Sessions {
  private readonly secret: Buffer;
  private readonly signedOut = new Map<string, number>();
  private keyCache: { generation: number; byId: Map<string, ApiKeyInfo> } | null = null;

  constructor(private readonly guard: Guard) {
    const configured = guard.config.dashboardSecret;
    this.secret = configured ? Buffer.from(configured) : randomBytes(32);
  }

  private mac(text: string): string {
    return b64(createHmac("sha256", this.secret).update(text).digest());
  }

  /** True when the dashboard runs as the local account with no sign-in: the loopback daemon in optional (or off) mode. */
  get localMode(): boolean {
    return this.guard.loopbackOnly && this.guard.keyOptional;
  }

  private adminFingerprint(): string | null {
    const admin = this.guard.config.adminKey;
    return admin ? this.mac(`admin:${hashKey(admin)}`).slice(0, 22) : null;
  }

  /** A new session's cookie value. */
  issue(session: Omit<DashboardSession, "id" | "issuedAt">): { token: string; session: DashboardSession } {
    const full: DashboardSession = { ...session, id: b64(randomBytes(16)), issuedAt: this.guard.now() };
    const payload: Payload = { s: full.id, w: full.who, a: full.accountId, k: full.keyId, t: full.issuedAt };
    if (full.who === "operator") payload.f = this.adminFingerprint() ?? "";
    const body = b64(Buffer.from(JSON.stringify(payload)));
    return { token: `${body}.${this.mac(`session:${body}`)}`, session: full };
  }

  /** The session a cookie value holds, if it is genuine, current and still backed by the store. */
  async resolve(token: string | null): Promise<DashboardSession | null> {
    if (!token) return null;
    const dot = token.indexOf(".");
    if (dot < 1) return null;
    const body = token.slice(0, dot);
    if (!sameText(token.slice(dot + 1), this.mac(`session:${body}`))) return null;
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Payload;
    } catch {
      return null;
    }
    const now = this.guard.now();
    if (typeof payload.t !== "number" || payload.t > now + 60_000 || now - payload.t > SESSION_TTL_MS)
      return null;
    if (this.signedOut.has(payload.s)) return null;
    const session: DashboardSession = {
      id: payload.s,
      who: payload.w,
      accountId: payload.a,
      keyId: payload.k,
      issuedAt: payload.t,
    };
    if (session.who === "local")
      return this.localMode && session.accountId === LOCAL_ACCOUNT_ID ? session : null;
    if (session.who === "operator") {
      const fingerprint = this.adminFingerprint();
      return fingerprint && payload.f && sameText(payload.f, fingerprint) ? session : null;
    }
    if (session.who !== "account" || !session.keyId || !session.accountId) return null;
    const key = (await this.keysById()).get(session.keyId);
    if (!key || key.revokedAt !== null || key.accountId !== session.accountId) return null;
    if (!(await this.guard.store.accounts.getAccount(session.accountId))) return null;
    return session;
  }

  /** Ends a session in this process (its cookie is cleared by the caller). */
  signOut(session: DashboardSession): void {
    const now = this.guard.now();
    for (const [id, until] of this.signedOut) if (until < now) this.signedOut.delete(id);
    this.signedOut.set(session.id, session.issuedAt + SESSION_TTL_MS);
  }

  /** The CSRF token of a session's forms. */
  csrfToken(session: DashboardSession): string {
    return this.mac(`csrf:${session.id}`);
  }

  /** The CSRF token of a sign-in form, tied to its presession cookie. */
  presessionToken(presession: string): string {
    return this.mac(`presession:${presession}`);
  }

  /** @throws PageError 403 when the form's token is missing or not this session's */
  checkCsrf(expected: string, given: string | null): void {
    if (!given || !sameText(expected, given)) throw csrfRefused();
  }

  /**
   * Signs in with an account key (checked as the API checks it, so a revoked key, a test key
   * in production or a deleted account is refused alike) or with the operator's admin key.
   * @throws SiphonError unauthorized or invalid_token
   */
  async signIn(key: string): Promise<DashboardSession & { token: string }> {
    const admin = this.guard.config.adminKey;
    if (admin && sameText(hashKey(key), hashKey(admin))) {
      const { token, session } = this.issue({ who: "operator", accountId: null, keyId: null });
      return { ...session, token };
    }
    const principal = await identifyPrincipal(
      new Headers({ authorization: `Bearer ${key}` }),
      this.guard,
      false,
    );
    const keyId = principal.key?.id ?? null;
    const { token, session } = this.issue({ who: "account", accountId: principal.account.id, keyId });
    return { ...session, token };
  }

  /**
   * Whom a session's metered work (the playground) counts against: the same principal the
   * API would build for its key, or the local account. Null for the operator, who has no account.
   */
  async principal(session: DashboardSession): Promise<Principal | null> {
    if (session.who === "local") return identifyPrincipal(new Headers(), this.guard, true);
    if (session.who !== "account" || !session.accountId || !session.keyId) return null;
    const account = await this.guard.store.accounts.getAccount(session.accountId);
    const key = (await this.keysById()).get(session.keyId);
    if (!account || !key) throw new SiphonError("unauthorized", "The session's key no longer exists");
    return {
      account,
      key,
      plan: planOf(this.guard.plans, accountTier(account, this.guard.config)),
      burstSubject: `key:${key.id}`,
    };
  }

  /** Every key by id, read again only when the accounts generation moves. */
  async keysById(): Promise<Map<string, ApiKeyInfo>> {
    const generation = this.guard.store.accounts.generation();
    if (this.keyCache?.generation !== generation) {
      const keys = await this.guard.store.accounts.listKeys();
      this.keyCache = { generation, byId: new Map(keys.map((k) => [k.id, k])) };
    }
    return this.keyCache.byId;
  }
}

/** The store's keys of one account, newest first. */
export async function accountKeys(sessions: Sessions, accountId: string): Promise<ApiKeyInfo[]> {
  const all = [...(await sessions.keysById()).values()];
  return all.filter((k) => k.accountId === accountId).sort((a, b) => b.createdAt - a.createdAt);
}
