/**
 * A throwaway PostgreSQL server for tests: initdb into a temp folder, started
 * on loopback on a free port, stopped by its pid. PostgreSQL refuses to run as
 * root, so as root it runs as the `postgres` user that Debian's package creates.
 */
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { freePort, stopAtExit, stopProcess } from "./server-process.ts";

/** The newest PostgreSQL bin folder under /usr/lib/postgresql, or null when none is installed. */
export function postgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")) && existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number.parseFloat(a) - Number.parseFloat(b));
  const newest = versions.at(-1);
  return newest ? join(root, newest, "bin") : null;
}

export interface TestPostgres {
  /** The server's port on 127.0.0.1. */
  port: number;
  /** A URL of database `name` on this server. */
  url(name?: string): string;
  /** Creates an empty database and answers its URL. */
  createDatabase(name: string): Promise<string>;
  /** Empties every table of database `name` (its schema stays): a fresh start, faster than a new database. */
  empty(name: string): Promise<void>;
  /** Stops the server (fast shutdown: connections are cut), keeping its data. */
  stop(): Promise<void>;
  /** Starts the stopped server again on the same port. */
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL tool as the user PostgreSQL accepts; throws with its output when it fails. */
async function run(argv: string[]): Promise<string> {
  const command = asRoot ? ["runuser", "-u", "postgres", "--", ...argv] : argv;
  const proc = Bun.spawn(command, { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`${argv.join(" ")} failed (${code}):\n${stdout}${stderr}`);
  return stdout;
}

/** Servers started and not yet stopped: stopped when the test process exits, however it exits. */
const running = stopAtExit("SIGQUIT");

function postmasterPid(data: string): number | null {
  const pidFile = join(data, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  return Number(readFileSync(pidFile, "utf8").split("\n")[0]) || null;
}

/**
 * Starts a fresh server. Throws when PostgreSQL is not installed: callers
 * check `postgresBin()` first and skip with a message.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed (scripts/setup.sh installs it)");
  const dir = mkdtempSync(join(tmpdir(), "siphon-pg-"));
  if (asRoot) {
    const uid = Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim());
    const gid = Number(Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  await run([join(bin, "initdb"), "-D", data, "--auth=trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  const port = freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
  ].join(" ");

  const start = async () => {
    running.add(data, () => postmasterPid(data));
    await run([
      join(bin, "pg_ctl"),
      "-D",
      data,
      "-o",
      options,
      "-l",
      join(dir, "log"),
      "-w",
      "-t",
      "60",
      "start",
    ]);
  };
  /** Fast shutdown by signal to the postmaster's pid, then wait until it is gone. */
  const stop = async () => {
    running.delete(data);
    await stopProcess(postmasterPid(data), "SIGINT", 30_000);
  };

  await start();
  const url = (name = "postgres") => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const admins = new Map<string, SQL>();
  const admin = (name: string) => {
    let client = admins.get(name);
    if (!client) {
      client = new SQL(url(name), { max: 1 });
      admins.set(name, client);
    }
    return client;
  };
  return {
    port,
    url,
    async createDatabase(name) {
      await admin("postgres").unsafe(`CREATE DATABASE "${name}"`);
      return url(name);
    },
    async empty(name) {
      const db = admin(name);
      const tables = await db<{ name: string }[]>`
        SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'`;
      // DELETE is much faster than TRUNCATE on small tables; the replica role skips foreign-key
      // checks and triggers, so the order does not matter.
      await db.begin(async (tx) => {
        await tx`SET LOCAL session_replication_role = replica`;
        for (const table of tables) await tx.unsafe(`DELETE FROM ${table.name}`);
      });
    },
    stop,
    start,
    async close() {
      for (const client of admins.values()) await client.close({ timeout: 0 }).catch(() => {});
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
