/*
 * Building `Set-Cookie` header values (RFC 6265 §4.1 and the attributes browsers added since:
 * SameSite, Partitioned, Priority). Everything is checked when the cookie is built, in the handler that
 * builds it: a name or value that would break the header, or a cookie a browser would silently drop,
 * is a `TypeError` naming the cookie and the problem, never a header an adapter refuses later.
 */

import type { ReplyHeaders } from "../headers.js";

/** `SameSite`: whether the browser sends the cookie on cross-site requests. */
export type SameSite = "Strict" | "Lax" | "None";

/** `Priority` (Chrome): which cookies a browser evicts last when it has too many. */
export type CookiePriority = "Low" | "Medium" | "High";

/** The attributes of a cookie being set (each one is left out of the header when not given). */
export interface CookieOptions {
  /** `Domain`: the host and its subdomains receive the cookie. Without it, only the host that set it. */
  readonly domain?: string;
  /** `Path`: the path prefix the cookie is sent for; it must start with `/`. */
  readonly path?: string;
  /** `Expires`: when the cookie expires (a valid `Date`). */
  readonly expires?: Date;
  /** `Max-Age`: seconds until it expires, an integer (`0` or less expires it now). Wins over `expires`. */
  readonly maxAge?: number;
  /** `Secure`: sent over HTTPS only. Required by `sameSite: "None"`, `partitioned` and the `__Secure-`/`__Host-` prefixes. */
  readonly secure?: boolean;
  /** `HttpOnly`: hidden from the page's JavaScript (`document.cookie`). */
  readonly httpOnly?: boolean;
  /** `SameSite`: `"Strict"`, `"Lax"` or `"None"` (`"None"` only with `secure`). */
  readonly sameSite?: SameSite;
  /** `Partitioned` (CHIPS): kept apart per top-level site. Only with `secure`. */
  readonly partitioned?: boolean;
  /** `Priority`: `"Low"`, `"Medium"` or `"High"`. */
  readonly priority?: CookiePriority;
}

const SET_COOKIE_BRAND = Symbol.for("switchyard-router.SetCookie");

/**
 * A cookie to set (or delete), checked: what {@link cookie}, {@link deleteCookie} and `signedCookie`
 * make, and what a reply's `cookies` take. `header` is the `Set-Cookie` value.
 */
export class SetCookie {
  /** The cookie's name. */
  readonly name: string;
  /** The value as sent (for a signed cookie: the value with its signature). */
  readonly value: string;
  /** The whole `Set-Cookie` header value: `name=value; Path=/; HttpOnly; …`. */
  readonly header: string;

  /** @internal Use {@link cookie}, {@link deleteCookie} or `signedCookie`, which check what they get. */
  constructor(name: string, value: string, header: string) {
    this.name = name;
    this.value = value;
    this.header = header;
    Object.defineProperty(this, SET_COOKIE_BRAND, { value: true });
    Object.freeze(this);
  }

  /** The `Set-Cookie` header value. */
  toString(): string {
    return this.header;
  }

  /**
   * A reply's checked `headers` with this cookie's `Set-Cookie` value after the ones there: what a
   * reply's `cookies` do. The value needs no check of its own: making the cookie checked it.
   */
  addedTo(headers: ReplyHeaders): ReplyHeaders {
    const given = headers["set-cookie"];
    const values = given === undefined ? [] : typeof given === "string" ? [given] : given;
    return Object.freeze(Object.assign(Object.create(null), headers, { "set-cookie": [...values, this.header] }));
  }
}

/** True for a {@link SetCookie}, also one made by another copy of this package (ESM beside CommonJS). */
export function isSetCookie(value: unknown): value is SetCookie {
  // the brand alone (every SetCookie gets it when made): naming the class here would put it in the
  // bundle of every app that replies, through reply()'s cookies
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[SET_COOKIE_BRAND] === true;
}

/**
 * A cookie to set, for a reply's `cookies`: `json(user, { cookies: [cookie("theme", "dark", { path: "/" })] })`.
 * The value is sent as it is, never encoded (and read back as it is: see `parseCookies`), so it may hold
 * only RFC 6265's cookie characters — ASCII letters, digits and ``!#$%&'()*+-./:<=>?@[]^_`{|}~`; no
 * space, `"`, `,`, `;`, `\`, control or non-ASCII character (encode such a value yourself, e.g. with
 * `encodeURIComponent`). Throws a `TypeError` naming the cookie when the name is not an RFC 6265 token,
 * the value or an attribute holds a character that would break the header, `sameSite: "None"` or
 * `partitioned` comes without `secure`, a `__Secure-`/`__Host-` name lacks what its prefix demands, or
 * name and value are longer than the 4,096 bytes browsers keep.
 */
export function cookie(name: string, value: string, options: CookieOptions = {}): SetCookie {
  checkName(name);
  checkValue(name, value);
  return new SetCookie(name, value, `${name}=${value}${attributes(name, options)}`);
}

/**
 * A cookie that deletes the cookie `name` in the browser: an empty value that expired in 1970
 * (`Expires` and `Max-Age=0`). A browser deletes only the cookie with the same name, `domain` and `path`,
 * so give those as they were set (and `secure` for a `__Secure-`/`__Host-` cookie).
 */
export function deleteCookie(name: string, options: Omit<CookieOptions, "expires" | "maxAge"> = {}): SetCookie {
  return cookie(name, "", { ...options, expires: new Date(0), maxAge: 0 });
}

/** RFC 9110 `tchar`: what an RFC 6265 cookie name (a `token`) is made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const NOT_TOKEN = /[^!#$%&'*+\-.^_`|~0-9A-Za-z]/;
/** A character RFC 6265 does not let a cookie value carry: its `cookie-octet` is printable ASCII but space, `"`, `,`, `;` and `\`. */
const NOT_COOKIE_OCTET = /[^\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]/;
/** A host name as `Domain` takes it: letters, digits, `-` and dots (an IDN in its `xn--` form), a leading dot allowed. */
const DOMAIN = /^\.?[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
/** A `Path`: `/` and then printable ASCII but `;` and `,` (no control, space-free is not required). */
const PATH = /^\/[\x20-\x2b\x2d-\x3a\x3c-\x7e]*$/;

/** The most bytes of name and value a browser keeps (RFC 6265bis: longer cookies are ignored). */
const MAX_NAME_VALUE = 4096;

function refuse(name: string, problem: string): never {
  throw new TypeError(`cookie ${JSON.stringify(name)}: ${problem}`);
}

function checkName(name: string): void {
  if (typeof name !== "string") throw new TypeError(`a cookie name must be a string, got ${typeof name}`);
  if (name === "") refuse(name, "the name is empty");
  if (!TOKEN.test(name))
    refuse(name, `the name has ${describe(name, NOT_TOKEN)}, which an RFC 6265 cookie name (a token) cannot hold`);
}

function checkValue(name: string, value: string): void {
  if (typeof value !== "string") refuse(name, `the value must be a string, got ${typeof value}`);
  if (NOT_COOKIE_OCTET.test(value)) {
    refuse(
      name,
      `the value has ${describe(value, NOT_COOKIE_OCTET)}, which a cookie value cannot carry ` +
        "(only printable ASCII but space, '\"', ',', ';' and '\\'); encode the value first, e.g. with encodeURIComponent",
    );
  }
  if (name.length + value.length > MAX_NAME_VALUE) {
    refuse(
      name,
      `name and value are ${name.length + value.length} bytes; browsers ignore a cookie over ${MAX_NAME_VALUE}`,
    );
  }
}

/** The first character of `text` that `bad` matches, named so that a message shows what it is (a line break is not printed as one). */
function describe(text: string, bad: RegExp): string {
  const code = text.codePointAt(text.search(bad))!;
  const char = String.fromCodePoint(code);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  if (code < 0x20 || code === 0x7f) return `a control character (${hex})`;
  if (code === 0x20) return "a space";
  if (code > 0x7e) return `a non-ASCII character (${hex})`;
  return `'${char}'`;
}

/** The attributes after `name=value`, each checked. */
function attributes(name: string, options: CookieOptions): string {
  let out = "";
  const { domain, path, expires, maxAge, secure, httpOnly, sameSite, partitioned, priority } = options;
  if (domain !== undefined) {
    if (typeof domain !== "string" || !DOMAIN.test(domain))
      refuse(name, `the domain ${JSON.stringify(domain)} is not a host name (letters, digits, '-' and dots)`);
    out += `; Domain=${domain}`;
  }
  if (path !== undefined) {
    if (typeof path !== "string" || !PATH.test(path))
      refuse(
        name,
        `the path ${JSON.stringify(path)} must start with '/' and hold only printable ASCII but ';' and ','`,
      );
    out += `; Path=${path}`;
  }
  if (expires !== undefined) {
    if (!(expires instanceof Date) || Number.isNaN(expires.getTime()))
      refuse(name, `expires must be a valid Date, got ${String(expires)}`);
    out += `; Expires=${expires.toUTCString()}`;
  }
  if (maxAge !== undefined) {
    if (typeof maxAge !== "number" || !Number.isSafeInteger(maxAge))
      refuse(name, `maxAge must be an integer number of seconds, got ${String(maxAge)}`);
    out += `; Max-Age=${maxAge}`;
  }
  if (sameSite !== undefined && sameSite !== "Strict" && sameSite !== "Lax" && sameSite !== "None")
    refuse(name, `sameSite must be "Strict", "Lax" or "None", got ${JSON.stringify(sameSite)}`);
  if (priority !== undefined && priority !== "Low" && priority !== "Medium" && priority !== "High")
    refuse(name, `priority must be "Low", "Medium" or "High", got ${JSON.stringify(priority)}`);
  // browsers match the prefixes in any case (RFC 6265bis §4.1.3)
  const prefix = /^__(secure|host)-/i.exec(name)?.[0];
  if (secure !== true) {
    if (sameSite === "None") refuse(name, 'sameSite "None" needs secure: true (browsers refuse it otherwise)');
    if (partitioned === true) refuse(name, "partitioned needs secure: true (browsers refuse it otherwise)");
    if (prefix !== undefined) refuse(name, `a name starting with ${prefix} needs secure: true`);
  }
  if (prefix?.toLowerCase() === "__host-" && (domain !== undefined || path !== "/"))
    refuse(name, 'a name starting with __Host- needs path: "/" and no domain');
  if (secure === true) out += "; Secure";
  if (httpOnly === true) out += "; HttpOnly";
  if (sameSite !== undefined) out += `; SameSite=${sameSite}`;
  if (partitioned === true) out += "; Partitioned";
  if (priority !== undefined) out += `; Priority=${priority}`;
  return out;
}
