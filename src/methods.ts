// The standard methods as plain constants (`method(GET, …)`), each its own literal (a bundler drops
// those an app does not use, which it cannot do for a destructuring of HTTP); HTTP is made of them.
/** `HTTP.GET` as a plain constant. */
export const GET = "GET";
/** `HTTP.POST` as a plain constant. */
export const POST = "POST";
/** `HTTP.PUT` as a plain constant. */
export const PUT = "PUT";
/** `HTTP.DELETE` as a plain constant. */
export const DELETE = "DELETE";
/** `HTTP.PATCH` as a plain constant. */
export const PATCH = "PATCH";
/** `HTTP.HEAD` as a plain constant. */
export const HEAD = "HEAD";
/** `HTTP.OPTIONS` as a plain constant. */
export const OPTIONS = "OPTIONS";
/** `HTTP.TRACE` as a plain constant. */
export const TRACE = "TRACE";
/** `HTTP.CONNECT` as a plain constant. */
export const CONNECT = "CONNECT";

/** The standard HTTP methods, as values: `HTTP.GET` and `GET` are the same string. */
export const HTTP = { GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS, TRACE, CONNECT } as const;

/** One of the nine standard methods. */
export type StandardMethod = (typeof HTTP)[keyof typeof HTTP];

/**
 * A request method: a standard one, or any upper-case token such as `"PROPFIND"`.
 * (`string & {}` keeps editor completion for the standard names.)
 */
export type Method = StandardMethod | (string & {});

/** RFC 9110 `tchar`, without lower-case letters: methods compare exactly, and real ones are upper-case. */
const UPPER_CASE_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Z]+$/;

/** True when `m` can name a method in a route: a non-empty token with no lower-case letter. */
export function isMethodToken(m: string): boolean {
  return UPPER_CASE_TOKEN.test(m);
}
