import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { closest } from "./closest.ts";
import { SiphonError } from "./errors.ts";

/**
 * Every setting is declared once here: its environment name, type and default.
 *
 * Precedence, highest first: explicit overrides (CLI flags) > environment >
 * config file ($SIPHON_HOME/config.json, keys as in this table) > defaults.
 * The config is loaded once at the edge (CLI entry, server start), frozen and
 * passed down; nothing in src/ reads process.env.
 */
const SETTINGS = {
  home: {
    env: "SIPHON_HOME",
    kind: "string",
    default: "",
    doc: "Data folder (SQLite file); default ~/.siphon",
  },
  databaseUrl: {
    env: "DATABASE_URL",
    kind: "string",
    default: "",
    // A secret (it may hold a password): never logged, printed or returned whole.
    doc: "A postgres:// URL: keep accounts, usage, jobs, cache and snapshots in PostgreSQL (hosted mode); empty: the SQLite file in SIPHON_HOME",
  },
  jobSecretKey: {
    env: "SIPHON_JOB_SECRET_KEY",
    kind: "string",
    default: "",
    // A secret: it opens the callers' keys of running jobs. Never logged, printed or stored.
    doc: "Key that seals the callers' LLM and search keys of running jobs (any text; 32+ random characters): set it so jobs that carry keys survive a restart. Empty: a key this process holds alone (hosted: one shared in Redis's memory); keys are never stored readable either way",
  },
  redisUrl: {
    env: "REDIS_URL",
    kind: "string",
    default: "",
    // A secret (it may hold a password): never logged, printed or returned whole.
    doc: "A redis:// URL: the fetch cache, burst windows, weekly counters, the job queue and job events go through Redis, shared by every process (hosted mode); empty: all in the store, jobs in this process",
  },
  role: {
    env: "SIPHON_ROLE",
    kind: "string",
    default: "all",
    doc: "What siphon serve runs: api (HTTP only), worker (jobs only, no HTTP) or all; api and worker need REDIS_URL",
  },
  workerConcurrency: {
    env: "SIPHON_WORKER_CONCURRENCY",
    kind: "int",
    default: 8,
    doc: "Units of work (a page of a crawl, batch or extract job; an agent run) one worker process runs at once, with REDIS_URL",
  },
  queueStallMs: {
    env: "SIPHON_QUEUE_STALL_MS",
    kind: "int",
    default: 30_000,
    doc: "With REDIS_URL: a unit of work whose worker stopped answering (killed, hung) goes to another worker after this long",
  },
  port: { env: "PORT", kind: "int", default: 3000, doc: "Server port" },
  reusePort: {
    env: "SIPHON_REUSE_PORT",
    kind: "bool",
    default: false,
    doc: "Share the server port with other siphon processes of the same deployment that ask for it too (SO_REUSEPORT; the kernel spreads connections); off, a taken port refuses to start",
  },
  shutdownGraceMs: {
    env: "SIPHON_SHUTDOWN_GRACE_MS",
    kind: "int",
    default: 10_000,
    doc: "How long siphon serve takes to shut down on SIGTERM or SIGINT (streams ended, jobs handed back, stores closed) before it exits regardless; a second signal exits at once",
  },
  host: { env: "SIPHON_HOST", kind: "string", default: "127.0.0.1", doc: "Server bind address" },
  disableSsrfProtection: {
    env: "DISABLE_SSRF_PROTECTION",
    kind: "bool",
    default: false,
    doc: "Allow fetching loopback and private addresses (tests, trusted self-hosting)",
  },
  ssrfAllow: {
    env: "SIPHON_SSRF_ALLOW",
    kind: "string",
    default: "",
    doc: "Comma-separated host:port origins exempt from SSRF checks (tests, trusted internal services)",
  },
  fetchTimeoutMs: {
    env: "SIPHON_FETCH_TIMEOUT_MS",
    kind: "int",
    default: 30_000,
    doc: "Simple HTTP timeout",
  },
  maxBodyBytes: {
    env: "SIPHON_MAX_BODY_BYTES",
    kind: "int",
    default: 10 * 1024 * 1024,
    doc: "Largest response body fetched",
  },
  maxRedirects: { env: "SIPHON_MAX_REDIRECTS", kind: "int", default: 10, doc: "Redirect hops followed" },
  userAgent: {
    env: "SIPHON_USER_AGENT",
    kind: "string",
    default:
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    doc: "User-Agent of the simple HTTP engine",
  },
  chromiumPath: {
    env: "SIPHON_CHROMIUM_PATH",
    kind: "string",
    default: "",
    doc: "Chromium executable for every render (stealth always); default: auto-detect /usr/bin/chromium, chromium-browser, google-chrome",
  },
  chromiumShellPath: {
    env: "SIPHON_CHROMIUM_SHELL_PATH",
    kind: "string",
    default: "",
    doc: "Chromium headless shell for plain (non-stealth) renders; default: SIPHON_CHROMIUM_PATH if set, else auto-detect /usr/bin/chromium-headless-shell, else full Chromium",
  },
  browserWs: {
    env: "SIPHON_BROWSER_WS",
    kind: "string",
    default: "",
    doc: "WebSocket URL of a running browser (browserless and the like) to connect to instead of launching one",
  },
  browserConcurrency: {
    env: "SIPHON_BROWSER_CONCURRENCY",
    kind: "int",
    default: 4,
    doc: "Pages open at once in the shared browser",
  },
  browserSessionsPerAccount: {
    env: "SIPHON_BROWSER_SESSIONS_PER_ACCOUNT",
    kind: "int",
    default: 2,
    doc: "Browser sessions one account may keep open at once; all of them together hold at most SIPHON_BROWSER_CONCURRENCY - 1 pages, so fetches always have one",
  },
  crawlHostConcurrency: {
    env: "SIPHON_CRAWL_HOST_CONCURRENCY",
    kind: "int",
    default: 5,
    doc: "Most pages of one host a crawl or batch job fetches at once",
  },
  extractThreads: {
    env: "SIPHON_EXTRACT_THREADS",
    kind: "int",
    default: -1,
    doc: "Worker threads that parse and convert HTML beside the event loop (0: in the main thread); default one per core but one (for the event loop), at least 1 and at most 4",
  },
  browserContextUses: {
    env: "SIPHON_BROWSER_CONTEXT_USES",
    kind: "int",
    default: 50,
    doc: "Requests one warm incognito context serves, wiped between them, before it is replaced (1: a fresh context per request, slower)",
  },
  browserRecycleAfter: {
    env: "SIPHON_BROWSER_RECYCLE_PAGES",
    kind: "int",
    default: 500,
    doc: "Relaunch the browser after this many pages (bounds memory growth)",
  },
  browserTimeoutMs: {
    env: "SIPHON_BROWSER_TIMEOUT_MS",
    kind: "int",
    default: 60_000,
    doc: "Browser fetch timeout",
  },
  browserMaxPageBytes: {
    env: "SIPHON_BROWSER_MAX_PAGE_BYTES",
    kind: "int",
    // The heaviest pages on the web (HTTP Archive's top percent) take in a few tens of MB,
    // most of it fonts, video and images, which renders never load or only for a capture.
    default: 50 * 1024 * 1024,
    doc: "Most bytes (decoded) one render may take in, the page and everything it loads together; each response also stops at SIPHON_MAX_BODY_BYTES",
  },
  browserRendererMemoryMb: {
    env: "SIPHON_BROWSER_RENDERER_MEMORY_MB",
    kind: "int",
    // Busy apps (mail, maps, feeds) hold 300-700 MB in a renderer; a page past a gigabyte is
    // runaway growth, and four of them would fill a small server.
    default: 1024,
    doc: "Memory ceiling of one page's renderer in MiB (V8 heap flag, and resident memory watched on Linux); a page past it is stopped (0: no ceiling)",
  },
  renderWaitMaxMs: {
    env: "SIPHON_RENDER_WAIT_MAX_MS",
    kind: "int",
    default: 10_000,
    doc: "Longest a rendered page that still looks like an empty app shell is waited for after load (never past the fetch timeout)",
  },
  escalation: {
    env: "SIPHON_ESCALATION",
    kind: "bool",
    default: true,
    doc: "Escalate automatically from simple HTTP to browser to stealth when a page needs it",
  },
  auth: {
    env: "SIPHON_AUTH",
    kind: "string",
    default: "",
    doc: "required, optional or off (no auth, no metering); default: required off loopback, else optional",
  },
  localTier: {
    env: "SIPHON_LOCAL_TIER",
    kind: "string",
    default: "unlimited",
    doc: "Plan tier of the built-in local account (keyless requests in optional auth mode, CLI jobs): unlimited (no quota, no burst window) or a plan such as free, starter, pro, max",
  },
  environment: {
    env: "SIPHON_ENV",
    kind: "string",
    default: "development",
    doc: "production refuses sph_test_ keys",
  },
  plans: {
    env: "SIPHON_PLANS",
    kind: "string",
    default: "",
    doc: 'Plan table as JSON: {"tier":{"weeklyQuota":n,"burstPerHour":n,"price":n,"extraPricePerRequest":n}}, merged over the defaults',
  },
  upgradeUrl: {
    env: "SIPHON_UPGRADE_URL",
    kind: "string",
    default: "https://siphon.dev/pricing",
    doc: "Where /v1/cli/usage sends people who need a bigger plan",
  },
  adminKey: {
    env: "SIPHON_ADMIN_KEY",
    kind: "string",
    default: "",
    // A secret: never logged, printed or returned.
    doc: "Operator key for the web dashboard's sign-in: manage every account's keys; empty: no operator sign-in",
  },
  dashboardSecret: {
    env: "SIPHON_DASHBOARD_SECRET",
    kind: "string",
    default: "",
    // A secret: never logged, printed or returned.
    doc: "Signs the web dashboard's session cookies; give every server process the same one. Empty: a random one per process (a restart signs everyone out)",
  },
  apiUrl: {
    env: "SIPHON_API_URL",
    kind: "string",
    default: "",
    doc: "CLI: call this siphon server instead of running the pipeline locally",
  },
  apiKey: { env: "SIPHON_API_KEY", kind: "string", default: "", doc: "CLI: the key sent to SIPHON_API_URL" },
  webhookBaseDelayMs: {
    env: "SIPHON_WEBHOOK_BASE_DELAY_MS",
    kind: "int",
    default: 1000,
    doc: "First webhook retry delay; each further retry doubles it (3 retries)",
  },
  webhookTimeoutMs: {
    env: "SIPHON_WEBHOOK_TIMEOUT_MS",
    kind: "int",
    default: 10_000,
    doc: "A webhook delivery with no answer within this time counts as failed",
  },
  jobStallMs: {
    env: "SIPHON_JOB_STALL_MS",
    // Longer than one page may take: a render (60 s) then an LLM extraction (120 s).
    kind: "int",
    default: 180_000,
    doc: "A queued or processing job that has not moved for this long is polled with a warning that it looks stalled (0: never)",
  },
  jobRetentionMs: {
    env: "SIPHON_JOB_RETENTION_MS",
    kind: "int",
    default: 86_400_000,
    doc: "How long job results are kept after the job ends",
  },
  watchMinIntervalMinutes: {
    env: "SIPHON_WATCH_MIN_INTERVAL_MINUTES",
    kind: "int",
    default: 5,
    doc: "Shortest check interval a watch may ask for, minutes",
  },
  watchScheduler: {
    env: "SIPHON_WATCH_SCHEDULER",
    kind: "bool",
    default: true,
    doc: "Run due watch checks in this server process (false: leave them to another process)",
  },
  watchConcurrency: {
    env: "SIPHON_WATCH_CONCURRENCY",
    kind: "int",
    default: 2,
    doc: "Most scheduled watch checks a server runs at once; due checks wait their turn, oldest due first",
  },
  requestBodyLimit: {
    env: "SIPHON_REQUEST_BODY_LIMIT",
    kind: "int",
    default: 1024 * 1024,
    doc: "Largest accepted HTTP request body, bytes",
  },
  cacheEnabled: { env: "SIPHON_CACHE", kind: "bool", default: true, doc: "Use the response cache" },
  cacheMaxBytes: {
    env: "SIPHON_CACHE_MAX_BYTES",
    kind: "int",
    default: 256 * 1024 * 1024,
    doc: "Size cap of the page cache; the least recently used entries are evicted past it",
  },
  searchProvider: {
    env: "SIPHON_SEARCH_PROVIDER",
    kind: "string",
    default: "duckduckgo",
    doc: "Search provider when a request names none: duckduckgo, brave or searxng",
  },
  duckduckgoUrl: {
    env: "SIPHON_DUCKDUCKGO_URL",
    kind: "string",
    default: "https://html.duckduckgo.com/html/",
    doc: "DuckDuckGo's HTML results endpoint",
  },
  braveUrl: {
    env: "SIPHON_BRAVE_URL",
    kind: "string",
    default: "https://api.search.brave.com/res/v1",
    doc: "Brave Search API base URL (web/search, news/search and images/search below it)",
  },
  braveApiKey: {
    env: "SIPHON_BRAVE_API_KEY",
    kind: "string",
    default: "",
    doc: "Operator's Brave Search key, used when a request brings none",
  },
  searxngUrl: {
    env: "SIPHON_SEARXNG_URL",
    kind: "string",
    default: "",
    doc: "A self-hosted SearXNG instance (its JSON API must be enabled)",
  },
  youtubeUrl: {
    env: "SIPHON_YOUTUBE_URL",
    kind: "string",
    default: "https://www.youtube.com",
    doc: "YouTube's base URL (InnerTube player API and caption files below it); operator configuration, so trusted on its own origin (redirects elsewhere go through the SSRF guard)",
  },
  openaiBaseUrl: {
    env: "SIPHON_OPENAI_BASE_URL",
    kind: "string",
    default: "https://api.openai.com/v1",
    doc: "OpenAI (or any OpenAI-compatible server) base URL",
  },
  openaiModel: {
    env: "SIPHON_OPENAI_MODEL",
    kind: "string",
    // gpt-4o-mini shuts down 2027-01-14; OpenAI names gpt-6-luna as its replacement.
    default: "gpt-6-luna",
    doc: "OpenAI default model",
  },
  anthropicBaseUrl: {
    env: "SIPHON_ANTHROPIC_BASE_URL",
    kind: "string",
    default: "https://api.anthropic.com/v1/",
    doc: "Anthropic's OpenAI-compatible base URL",
  },
  anthropicModel: {
    env: "SIPHON_ANTHROPIC_MODEL",
    kind: "string",
    // Claude Haiku 3.5 was retired 2026-02-19; claude-haiku-5-5 is the current Haiku.
    default: "claude-haiku-5-5",
    doc: "Anthropic default model",
  },
  googleBaseUrl: {
    env: "SIPHON_GOOGLE_BASE_URL",
    kind: "string",
    default: "https://generativelanguage.googleapis.com/v1beta/openai/",
    doc: "Google Gemini's OpenAI-compatible base URL",
  },
  googleModel: {
    env: "SIPHON_GOOGLE_MODEL",
    kind: "string",
    // gemini-2.0-flash was shut down 2026-06-01; gemini-3.8-flash is the current stable Flash.
    default: "gemini-3.8-flash",
    doc: "Google default model",
  },
  llmProvider: {
    env: "SIPHON_LLM_PROVIDER",
    kind: "string",
    default: "",
    doc: "The service's own LLM for research and deep research when a request brings none: openai, anthropic or google (empty: callers must bring theirs)",
  },
  llmApiKey: {
    env: "SIPHON_LLM_API_KEY",
    kind: "string",
    default: "",
    // A secret: sent only to the service LLM's base URL, never logged, printed or returned.
    doc: "Key of the service's own LLM (secret); empty for a keyless OpenAI-compatible server",
  },
  llmModel: {
    env: "SIPHON_LLM_MODEL",
    kind: "string",
    default: "",
    doc: "Model of the service's own LLM; default: the vendor's (SIPHON_<VENDOR>_MODEL)",
  },
  llmBaseUrl: {
    env: "SIPHON_LLM_BASE_URL",
    kind: "string",
    default: "",
    doc: "Base URL of the service's own LLM (any OpenAI-compatible server); default: the vendor's (SIPHON_<VENDOR>_BASE_URL)",
  },
  llmTimeoutMs: {
    env: "SIPHON_LLM_TIMEOUT_MS",
    kind: "int",
    default: 120_000,
    doc: "Longest an LLM call may take",
  },
  logLevel: {
    env: "SIPHON_LOG_LEVEL",
    kind: "string",
    default: "info",
    doc: "silent, error, warn, info, debug",
  },
} as const;

type Settings = typeof SETTINGS;
type KindType<K> = K extends "int" ? number : K extends "bool" ? boolean : string;
export type Config = { readonly [K in keyof Settings]: KindType<Settings[K]["kind"]> };
export type ConfigOverrides = { -readonly [K in keyof Config]?: Config[K] };

/** The environment variable that sets `key`. */
export function settingEnv(key: keyof Config): string {
  return SETTINGS[key].env;
}

function parseValue(key: string, kind: string, raw: unknown, source: string): string | number | boolean {
  if (kind === "int") {
    const n = typeof raw === "number" ? raw : Number(String(raw).trim());
    if (!Number.isInteger(n) || n < 0) {
      throw new SiphonError(
        "invalid_request",
        `${source}: ${key} must be a non-negative integer, got "${raw}"`,
      );
    }
    return n;
  }
  if (kind === "bool") {
    if (typeof raw === "boolean") return raw;
    const s = String(raw).trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(s)) return true;
    if (["0", "false", "no", "off", ""].includes(s)) return false;
    throw new SiphonError("invalid_request", `${source}: ${key} must be true or false, got "${raw}"`);
  }
  // A config file may hold structured values (plans) where the environment holds JSON text.
  return raw !== null && typeof raw === "object" ? JSON.stringify(raw) : String(raw);
}

/** The setting a config.json key names: its key in the table (`ssrfAllow`) or its environment name (`SIPHON_SSRF_ALLOW`). */
const SETTING_OF_NAME = new Map<string, keyof Settings>(
  Object.entries(SETTINGS).flatMap(([key, setting]) => [
    [key, key as keyof Settings],
    [setting.env, key as keyof Settings],
  ]),
);

/**
 * $SIPHON_HOME/config.json as settings: each key a setting's name in the table or its environment
 * name. Throws invalid_request (exit 2) for a file that is not a JSON object, a key no setting has
 * (naming the closest one), or one setting given twice.
 */
function readConfigFile(home: string): Partial<Record<keyof Settings, unknown>> {
  const path = join(home, "config.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SiphonError("invalid_request", `${path} is not valid JSON`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new SiphonError("invalid_request", `${path} must hold a JSON object of settings`, {
      hint: 'e.g. {"port": 8080, "SIPHON_SSRF_ALLOW": "10.0.0.5"}',
    });
  }
  const out: Partial<Record<keyof Settings, unknown>> = {};
  const named = new Map<keyof Settings, string>();
  for (const [name, value] of Object.entries(parsed)) {
    const key = SETTING_OF_NAME.get(name);
    if (!key) {
      const near = closest(name, [...SETTING_OF_NAME.keys()]);
      throw new SiphonError(
        "invalid_request",
        `${path}: unknown setting "${name}"${near ? `; did you mean "${near}"?` : ""}`,
        {
          hint: "Each key is a setting's name (port) or its environment variable (PORT); siphon config lists them.",
        },
      );
    }
    const earlier = named.get(key);
    if (earlier !== undefined) {
      throw new SiphonError(
        "invalid_request",
        `${path}: "${earlier}" and "${name}" set the same setting; keep one`,
      );
    }
    named.set(key, name);
    out[key] = value;
  }
  return out;
}

/** Where a setting's value came from. */
export type ConfigSource = "flag" | "environment" | "config.json" | "default";

/** The settings, each with its environment name, type, default and meaning (the reference's source). */
export function settingsTable(): {
  key: keyof Config;
  env: string;
  kind: "string" | "int" | "bool";
  default: string | number | boolean;
  doc: string;
  secret: boolean;
}[] {
  return Object.entries(SETTINGS).map(([key, setting]) => ({
    key: key as keyof Config,
    env: setting.env,
    kind: setting.kind,
    default: setting.default,
    doc: setting.doc,
    secret: SECRET_SETTINGS.has(key as keyof Config),
  }));
}

/** Settings whose values are secrets: never printed whole. */
const SECRET_SETTINGS = new Set<keyof Config>([
  "databaseUrl",
  "redisUrl",
  "jobSecretKey",
  "adminKey",
  "dashboardSecret",
  "apiKey",
  "braveApiKey",
  "llmApiKey",
]);

/**
 * The configuration and where each value came from, resolved once: flags (overrides), then the
 * environment, then config.json, then the default. Throws invalid_request on a malformed value.
 */
export function resolveConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: ConfigOverrides = {},
): { config: Config; sources: Record<keyof Config, ConfigSource> } {
  const home = overrides.home || env.SIPHON_HOME || join(homedir(), ".siphon");
  const file = readConfigFile(home);
  const out: Record<string, unknown> = {};
  const sources = {} as Record<keyof Config, ConfigSource>;
  for (const [key, setting] of Object.entries(SETTINGS) as [keyof Config, Settings[keyof Settings]][]) {
    const override = (overrides as Record<string, unknown>)[key];
    const fromEnv = env[setting.env];
    if (override !== undefined) {
      out[key] = override;
      sources[key] = "flag";
    } else if (fromEnv !== undefined && fromEnv !== "") {
      out[key] = parseValue(key, setting.kind, fromEnv, setting.env);
      sources[key] = "environment";
    } else if (file[key] !== undefined) {
      out[key] = parseValue(key, setting.kind, file[key], "config.json");
      sources[key] = "config.json";
    } else {
      out[key] = setting.default;
      sources[key] = "default";
    }
  }
  // The home is where config.json is read from, so the file cannot set it.
  out.home = home;
  sources.home = overrides.home ? "flag" : env.SIPHON_HOME ? "environment" : "default";
  return { config: Object.freeze(out) as Config, sources };
}

/** Loads the configuration once; throws invalid_request on a malformed value. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: ConfigOverrides = {},
): Config {
  return resolveConfig(env, overrides).config;
}

/** Where each setting of the configuration these inputs give comes from (resolveConfig's sources). */
export function configSources(
  env: Record<string, string | undefined> = process.env,
  overrides: ConfigOverrides = {},
): Record<keyof Config, ConfigSource> {
  return resolveConfig(env, overrides).sources;
}
