/*
 * Cookies: reading the request's (`parse.ts`, behind `req.cookies` and `cookieParam`), setting and
 * deleting them through a reply (`set.ts`), and signing them (`sign.ts`, `read.ts`).
 */
export { parseCookies } from "./parse.js";
export { signedCookieParam, type SignedCookieReader } from "./read.js";
export {
  cookie,
  deleteCookie,
  isSetCookie,
  SetCookie,
  type CookieOptions,
  type CookiePriority,
  type SameSite,
} from "./set.js";
export { cookieSigner, signedCookie, type CookieSecret, type CookieSigner } from "./sign.js";
