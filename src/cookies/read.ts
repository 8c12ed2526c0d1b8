import { absentValue, badRequest, type ParamOptions, parsedValue } from "../params.js";
import type { PathParser } from "../parsers/parser.js";
import { Text } from "../parsers/text.js";
import type { RoutedRequest } from "../request.js";
import type { CookieSigner } from "./sign.js";

type AnyRequest = RoutedRequest<object>;

/**
 * Reads the signed cookie `name` (one set with `signedCookie`): its signature is checked with `signer`,
 * then its value is parsed with `parser` (`Text` unless given), like `cookieParam`. A cookie whose
 * signature is wrong — unsigned, changed by the client, signed for another name, or with a secret the
 * signer no longer lists — **counts as not sent**: `undefined` when `optional`, else a 400 naming the
 * cookie (`constraint: "signature"`, telling it apart from a cookie that is missing, `"required"`). A
 * promise, since Web Crypto is asynchronous.
 */
export interface SignedCookieReader {
  (request: AnyRequest, name: string, signer: CookieSigner): Promise<string>;
  (
    request: AnyRequest,
    name: string,
    signer: CookieSigner,
    parser: undefined,
    options: ParamOptions & { readonly optional: true },
  ): Promise<string | undefined>;
  <T>(request: AnyRequest, name: string, signer: CookieSigner, parser: PathParser<T>): Promise<T>;
  <T>(
    request: AnyRequest,
    name: string,
    signer: CookieSigner,
    parser: PathParser<T>,
    options: ParamOptions & { readonly optional: true },
  ): Promise<T | undefined>;
  <T>(
    request: AnyRequest,
    name: string,
    signer: CookieSigner,
    parser?: PathParser<T>,
    options?: ParamOptions,
  ): Promise<T | undefined>;
}

/** The signed cookie `name`, verified and parsed; see {@link SignedCookieReader}. */
export const signedCookieParam: SignedCookieReader = (async (
  request: AnyRequest,
  name: string,
  signer: CookieSigner,
  parser: PathParser<unknown> = Text,
  options: ParamOptions = {},
) => {
  const sent = request.cookies.get(name);
  if (sent === undefined) return absentValue("cookie", name, parser, options);
  const value = await signer.verify(name, sent);
  if (value !== undefined) return parsedValue("cookie", name, parser, value);
  if (options.optional === true) return undefined;
  const message = `the cookie "${name}" has no valid signature`;
  throw badRequest(message, [
    {
      in: "cookie",
      field: name,
      constraint: "signature",
      message: `${message} (unsigned, changed, or signed with a secret no longer accepted)`,
    },
  ]);
}) as SignedCookieReader;
