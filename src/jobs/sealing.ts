import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { mapSecrets } from "./secrets.ts";

/**
 * A job's secrets at rest: the caller's LLM and search keys (and a webhook's signing secret and
 * headers) are stored only sealed with AES-256-GCM under a key that never touches the store's
 * disk. The key is the operator's SIPHON_JOB_SECRET_KEY, else one shared through Redis by a
 * hosted deployment's processes, else a random key of this process alone. Once that key is gone
 * (the process ended), what is left in the database file, its free pages, its WAL or a dump
 * is ciphertext nobody can open: the secrets are shredded with the key.
 */

const PREFIX = "sealed:v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals and opens strings under one key. */
export interface Sealer {
  /** The sealed form of `plain`: "sealed:v1:" and base64 of IV, ciphertext and tag; a new IV each time. */
  seal(plain: string): string;
  /**
   * The plain text of a sealed string; null when it was sealed under another key (a process
   * that is gone) or is damaged. A string that was never sealed is returned as it is.
   */
  open(value: string): string | null;
}

/** Whether a stored string is a sealed one. */
export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/** A 32-byte key from any secret text: SHA-256 of it (the operator's setting may be a passphrase). */
export function keyFromText(text: string): Uint8Array {
  return createHash("sha256").update(text, "utf8").digest();
}

/** A random 32-byte key (this process's own, or the one a hosted deployment shares). */
export function randomKey(): Uint8Array {
  return randomBytes(32);
}

/** A sealer whose key can change: it seals with the newest key it adopted and opens with any it knew. */
export interface KeyringSealer extends Sealer {
  /** The key it seals with now. */
  current(): Uint8Array;
  /** Seals with `key` from now on; what earlier keys sealed still opens. */
  adopt(key: Uint8Array): void;
}

/** Creates a sealer over a 32-byte key (more may be adopted later). */
export function createSealer(key: Uint8Array): KeyringSealer {
  const keys = [checked(key)];
  return {
    current: () => keys[0] as Uint8Array,
    adopt(next) {
      const known = keys.findIndex((key) => Buffer.compare(key, next) === 0);
      if (known >= 0) keys.splice(known, 1);
      keys.unshift(checked(next));
    },
    seal: (plain) => sealWith(keys[0] as Uint8Array, plain),
    open(value) {
      if (!isSealed(value)) return value;
      for (const known of keys) {
        const plain = openWith(known, value);
        if (plain !== null) return plain;
      }
      return null;
    },
  };
}

function checked(key: Uint8Array): Uint8Array {
  if (key.byteLength !== 32) throw new Error("a sealing key has 32 bytes");
  return key;
}

function sealWith(key: Uint8Array, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${Buffer.concat([iv, body]).toString("base64")}`;
}

function openWith(key: Uint8Array, value: string): string | null {
  const raw = Buffer.from(value.slice(PREFIX.length), "base64");
  if (raw.byteLength < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.byteLength - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.byteLength - TAG_BYTES)),
      decipher.final(),
    ]);
    return plain.toString("utf8");
  } catch {
    return null;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A job's input with every secret sealed (already sealed ones are kept as they are). */
export function sealInput(input: unknown, sealer: Sealer): unknown {
  return mapSecrets(input, (secret) => (isSealed(secret) ? secret : sealer.seal(secret)));
}

/** A job's input with its secrets opened; `lost` when one could not be (sealed under a key that is gone). */
export function openInput(input: unknown, sealer: Sealer): { input: unknown; lost: boolean } {
  let lost = false;
  const opened = mapSecrets(input, (secret) => {
    const plain = sealer.open(secret);
    if (plain === null) lost = true;
    return plain ?? undefined;
  });
  return { input: opened, lost };
}

/** A webhook with its signing secret and header values sealed (or opened, with `open`). */
export function mapWebhook(webhook: unknown, change: (value: string) => string | null): unknown {
  if (!isRecord(webhook)) return webhook;
  const out: Record<string, unknown> = { ...webhook };
  if (typeof out.secret === "string") {
    const secret = change(out.secret);
    if (secret === null) delete out.secret;
    else out.secret = secret;
  }
  if (isRecord(out.headers)) {
    const headers: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(out.headers)) {
      const changed = typeof value === "string" ? change(value) : value;
      if (changed !== null) headers[name] = changed;
    }
    out.headers = headers;
  }
  return out;
}
