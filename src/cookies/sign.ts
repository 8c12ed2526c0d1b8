import { cookie, type CookieOptions, type SetCookie } from "./set.js";
import { utf8Encoder } from "../utf8.js";

/*
 * Signed cookies: the value travels with an HMAC-SHA256 of it, so the server can tell a value it set
 * from one a client made up or changed. Web Crypto (`crypto.subtle`) computes it, which Node ≥ 20, Bun,
 * Deno and workerd all have, so the core stays runtime-neutral. A signed cookie is not encrypted: the
 * client can read its value.
 */

/** A secret to sign with: text (its UTF-8 bytes) or bytes, at least 32 bytes long. */
export type CookieSecret = string | Uint8Array;

/**
 * Signs and verifies cookie values with a list of secrets: signs with the first, accepts a signature of
 * any (so a secret can be rotated: put the new one first and drop the old one once its cookies expired).
 */
export interface CookieSigner {
  /** `value.signature`: the value and the base64url HMAC-SHA256 of `name=value` (43 characters). */
  sign(name: string, value: string): Promise<string>;
  /**
   * The value of `signed` when its signature is one of the secrets' for this name, else `undefined`
   * (unsigned, tampered with, signed for another cookie name, or with a secret no longer listed). The
   * signatures are compared in constant time.
   */
  verify(name: string, signed: string): Promise<string | undefined>;
}

/** The fewest bytes a secret may have: as many as the hash gives (RFC 2104 §3). */
const MIN_SECRET_BYTES = 32;
const MAC_BYTES = 32;
/** A MAC's length in unpadded base64url. */
const MAC_CHARS = 43;

/** The part of Web Crypto signing needs (typed here so the core needs no DOM or Node types). */
interface HmacCrypto {
  importKey(
    format: "raw",
    key: Uint8Array,
    algorithm: { readonly name: "HMAC"; readonly hash: "SHA-256" },
    extractable: false,
    usages: readonly ["sign"],
  ): Promise<unknown>;
  sign(algorithm: "HMAC", key: never, data: Uint8Array): Promise<ArrayBuffer>;
}

/**
 * A {@link CookieSigner} for `secrets` (one, or a list: the first signs, any verifies). Each secret must
 * have at least 32 bytes (say 32 random bytes, base64-encoded): a `TypeError` otherwise, as for an empty
 * list. The keys are imported into Web Crypto on first use and kept; make the signer once, at startup.
 */
export function cookieSigner(secrets: CookieSecret | readonly CookieSecret[]): CookieSigner {
  const list: readonly CookieSecret[] =
    typeof secrets === "string" || secrets instanceof Uint8Array ? [secrets] : secrets;
  if (!Array.isArray(list) || list.length === 0) throw new TypeError("cookieSigner: give at least one secret");
  const raw = list.map((secret, i) => secretBytes(secret, i));
  let keys: Promise<unknown[]> | undefined;
  const keysOf = (): Promise<unknown[]> => {
    keys ??= Promise.all(raw.map((bytes) => importKey(bytes)));
    return keys;
  };
  return {
    async sign(name, value) {
      const [first] = await keysOf();
      return `${value}.${base64url(await mac(first, name, value))}`;
    },
    async verify(name, signed) {
      if (typeof signed !== "string") return undefined;
      const dot = signed.lastIndexOf(".");
      const given = dot === -1 ? undefined : fromBase64url(signed.slice(dot + 1));
      if (given === undefined) return undefined;
      const value = signed.slice(0, dot);
      let matched = false;
      // every secret is tried, whichever matches: the time does not tell which one did
      for (const key of await keysOf()) if (sameBytes(await mac(key, name, value), given)) matched = true;
      return matched ? value : undefined;
    },
  };
}

/**
 * A signed cookie to set: {@link cookie} with the value `signer.sign(name, value)` (a promise, since Web
 * Crypto is asynchronous). Read it back with `signedCookieParam` (or `@Cookie(name, type, { signed })`).
 * The same checks as {@link cookie} apply, and the signature adds 44 characters to the value.
 */
export async function signedCookie(
  name: string,
  value: string,
  signer: CookieSigner,
  options?: CookieOptions,
): Promise<SetCookie> {
  // checked before signing, so a bad name or value names the value given, not the signed one
  cookie(name, value, options);
  return cookie(name, await signer.sign(name, value), options);
}

function secretBytes(secret: CookieSecret, index: number): Uint8Array {
  const bytes =
    typeof secret === "string" ? utf8Encoder.encode(secret) : secret instanceof Uint8Array ? secret : undefined;
  if (bytes === undefined)
    throw new TypeError(`cookieSigner: secret ${index + 1} must be a string or bytes, got ${typeof secret}`);
  if (bytes.byteLength < MIN_SECRET_BYTES)
    throw new TypeError(
      `cookieSigner: secret ${index + 1} has ${bytes.byteLength} bytes; an HMAC-SHA256 secret needs at least ${MIN_SECRET_BYTES} (e.g. 32 random bytes)`,
    );
  return bytes.slice();
}

function subtle(): HmacCrypto {
  const found = (globalThis as unknown as { crypto?: { subtle?: HmacCrypto } }).crypto?.subtle;
  if (found === undefined)
    throw new TypeError("signed cookies need Web Crypto (globalThis.crypto.subtle), which this runtime lacks");
  return found;
}

function importKey(bytes: Uint8Array): Promise<unknown> {
  return subtle().importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** The HMAC of `name=value` (the name too, so a value signed for one cookie is no good for another). */
async function mac(key: unknown, name: string, value: string): Promise<Uint8Array> {
  return new Uint8Array(await subtle().sign("HMAC", key as never, utf8Encoder.encode(`${name}=${value}`)));
}

/** Equal bytes, in a time that depends on the length only (never on where they differ). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Unpadded base64url: a cookie value may carry every character of it. */
function base64url(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!;
    if (i + 1 < bytes.length) out += ALPHABET[(n >> 6) & 63]!;
    if (i + 2 < bytes.length) out += ALPHABET[n & 63]!;
  }
  return out;
}

/** The MAC a signature's 43 base64url characters stand for; `undefined` for anything else. */
function fromBase64url(text: string): Uint8Array | undefined {
  if (text.length !== MAC_CHARS) return undefined;
  const bytes = new Uint8Array(MAC_BYTES);
  let bits = 0;
  let buffered = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = ALPHABET.indexOf(text[i]!);
    if (digit === -1) return undefined;
    buffered = (buffered << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (at < MAC_BYTES) bytes[at++] = (buffered >> bits) & 0xff;
    }
    buffered &= (1 << bits) - 1;
  }
  // the last character's two spare bits must be zero, so one signature has one spelling
  return buffered === 0 ? bytes : undefined;
}
