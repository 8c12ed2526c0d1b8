import { type Reply, reply } from "./reply.js";

/*
 * Redirects that cannot become open redirects by accident: a location is a path on this site unless the
 * call says otherwise, and whatever could make a browser leave the site (`//host`, `/\host`, a tab in
 * front, `javascript:`) or break the header (a line break, even percent-encoded) is refused when the
 * reply is built.
 */

/** The statuses a redirect may have: 301, 302 (the default), 303, 307, 308. */
export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

/** Options of {@link redirect}: where, beyond this site, a location may lead. */
export interface RedirectOptions {
  /** `true`: any absolute `http:` or `https:` URL is allowed (take care: never a location from the request). */
  readonly external?: boolean;
  /** Origins an absolute URL may lead to, e.g. `["https://accounts.example.com"]` (scheme, host, port). */
  readonly allowedOrigins?: readonly string[];
}

const STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * A redirect reply: `status` (302 unless given; 301, 303, 307 or 308) with a `Location` header and no
 * body. The location is **a path on this site** by default — it must start with one `/` (not `//` or
 * `/\`, which a browser reads as another host), e.g. what `urlFor` builds. An absolute `http:`/`https:`
 * URL is allowed only with `{ external: true }` or when its origin is in `allowedOrigins`; other schemes
 * (`javascript:`, `data:`, …) never. A location with a control character (a line break, a tab), a
 * percent-encoded one (`%0D%0A`), a backslash, a space or a non-ASCII character (percent-encode it, as
 * `urlFor` does) is refused too. Every refusal is a `TypeError` thrown here, naming the location.
 * To set cookies on it, see `withCookies`.
 */
export function redirect(location: string | URL, status: RedirectStatus = 302, options: RedirectOptions = {}): Reply {
  if (!STATUSES.has(status))
    throw new TypeError(`redirect: the status must be 301, 302, 303, 307 or 308, got ${String(status)}`);
  return reply({ status, headers: { location: checkedLocation(location, options) } });
}

function refuse(location: string, problem: string): never {
  throw new TypeError(`redirect: the location ${JSON.stringify(location)} ${problem}`);
}

/** A character no location may hold as it is: anything but printable ASCII (controls, space, non-ASCII), and `\`. */
const UNSAFE = /[^\x21-\x5b\x5d-\x7e]/;
/** A percent-escape of a control character (`%0A`, `%0d`, `%7F`): a line break for whatever decodes it. */
const ESCAPED_CONTROL = /%(?:[01][0-9a-f]|7f)/i;

function checkedLocation(given: string | URL, options: RedirectOptions): string {
  const location = given instanceof URL ? given.href : given;
  if (typeof location !== "string")
    throw new TypeError(`redirect: the location must be a string or URL, got ${typeof location}`);
  if (location === "") refuse(location, "is empty");
  const unsafe = UNSAFE.exec(location);
  if (unsafe !== null)
    refuse(location, `has ${describe(unsafe[0])}; percent-encode the path (urlFor does) or refuse such input`);
  if (ESCAPED_CONTROL.test(location)) refuse(location, "has a percent-encoded control character (a line break?)");
  if (location.startsWith("/")) {
    if (location.startsWith("//")) refuse(location, "starts with //, which a browser reads as another host");
    return location;
  }
  return external(location, options);
}

/** An absolute URL, allowed by the options. */
function external(location: string, options: RedirectOptions): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(location)?.[1]?.toLowerCase();
  if (scheme === undefined)
    refuse(location, "is neither a path on this site (starting with one /) nor an absolute http(s) URL");
  if (scheme !== "http" && scheme !== "https") refuse(location, `has the scheme ${scheme}:, not http: or https:`);
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return refuse(location, "is not a valid URL");
  }
  if (options.external === true) return url.href;
  const allowed = options.allowedOrigins ?? [];
  if (allowed.some((origin) => originOf(origin) === url.origin)) return url.href;
  return refuse(
    location,
    `leads to ${url.origin}, another site: pass { external: true } or list the origin in allowedOrigins (never redirect to a location taken from the request)`,
  );
}

/** An allowed origin as `URL` writes one (`https://a.example` for `https://A.example:443/`). */
function originOf(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    throw new TypeError(`redirect: allowedOrigins has ${JSON.stringify(origin)}, which is not a URL`);
  }
}

function describe(char: string): string {
  const code = char.charCodeAt(0);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  if (code < 0x20 || code === 0x7f) return `a control character (${hex})`;
  if (code === 0x20) return "a space";
  if (code > 0x7f) return `a non-ASCII character (${hex})`;
  return `'${char}'`;
}
