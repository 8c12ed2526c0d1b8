import * as v from "valibot";
import { z } from "zod";
import {
  alt,
  cookieParam,
  headerParam,
  Int,
  json,
  method,
  path,
  pathEnd,
  pathVar,
  queryObject,
  queryParam,
  queryParams,
  readParamsAsync,
  route,
  schemaParser,
  type InjectRequest,
  type Route as Tree,
  type StandardSchema,
} from "../../src";
import { body } from "../../src/validate/body";
import { loadArktype } from "./arktype";

/*
 * The same schemas written with each Standard Schema library the tests use (zod 4, valibot 1,
 * arktype 2): an order body, a page number, repeated tags, a whole query, a header, a cookie and a
 * path slug. Each test runs them all and compares every answer exactly.
 */

export type LibraryName = "zod" | "valibot" | "arktype";

export interface Kit {
  readonly name: LibraryName;
  /** `{ name: string ≥ 3, address: { city: string }, lines: { qty: integer ≥ 1 }[] }`. */
  readonly order: StandardSchema;
  /** A page number from a string: an integer ≥ 1, 1 when not sent. */
  readonly page: StandardSchema;
  /** The values of a repeated key: at most 2 strings, each of 2 characters or more. */
  readonly tags: StandardSchema;
  /** The whole query: `page` as above, `tag` strings (none: `[]`), `sort` `asc` or `desc` if sent. */
  readonly list: StandardSchema;
  /** A required header: `1` or `2`. */
  readonly version: StandardSchema;
  /** A cookie: `light` or `dark`, `light` when not sent. */
  readonly theme: StandardSchema;
  /** A path segment: lower-case letters, digits and dashes. */
  readonly slug: StandardSchema;
}

export function zodKit(): Kit {
  const page = z.coerce.number().int().min(1).default(1);
  return {
    name: "zod",
    order: z.object({
      name: z.string().min(3),
      address: z.object({ city: z.string() }),
      lines: z.array(z.object({ qty: z.number().int().min(1) })),
    }),
    page,
    tags: z.array(z.string().min(2)).max(2),
    list: z.object({ page, tag: z.array(z.string()).default([]), sort: z.enum(["asc", "desc"]).optional() }),
    version: z.enum(["1", "2"]),
    theme: z.enum(["light", "dark"]).default("light"),
    slug: z.string().regex(/^[a-z0-9-]+$/),
  };
}

export function valibotKit(): Kit {
  const page = v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), "1");
  return {
    name: "valibot",
    order: v.object({
      name: v.pipe(v.string(), v.minLength(3)),
      address: v.object({ city: v.string() }),
      lines: v.array(v.object({ qty: v.pipe(v.number(), v.integer(), v.minValue(1)) })),
    }),
    page,
    tags: v.pipe(v.array(v.pipe(v.string(), v.minLength(2))), v.maxLength(2)),
    list: v.object({
      page,
      tag: v.optional(v.array(v.string()), []),
      sort: v.optional(v.picklist(["asc", "desc"])),
    }),
    version: v.picklist(["1", "2"]),
    theme: v.optional(v.picklist(["light", "dark"]), "light"),
    slug: v.pipe(v.string(), v.regex(/^[a-z0-9-]+$/)),
  };
}

export function arktypeKit(): Kit {
  const { type } = loadArktype();
  // arktype has defaults for object properties only: a value's default is a branch for undefined
  const page = type("string.integer.parse").to("number >= 1");
  return {
    name: "arktype",
    order: type({
      name: "string >= 3",
      address: { city: "string" },
      lines: type({ qty: "number.integer >= 1" }).array(),
    }),
    page: type("undefined")
      .pipe(() => 1)
      .or(page),
    tags: type("string >= 2").array().atMostLength(2),
    list: type({ page: page.default("1"), tag: type("string[]").default(() => []), "sort?": "'asc' | 'desc'" }),
    version: type("'1' | '2'"),
    theme: type("undefined")
      .pipe(() => "light" as const)
      .or("'light' | 'dark'"),
    slug: type(/^[a-z0-9-]+$/),
  };
}

/** Every library's kit. */
export function kits(): Kit[] {
  return [zodKit(), valibotKit(), arktypeKit()];
}

/**
 * The app the tests run each kit through, written with the functional readers: each route reads one
 * kind of value with the kit's schema and answers what it read.
 */
export function functionalApp(kit: Kit): Tree {
  const Slug = schemaParser("Slug", kit.slug);
  return alt(
    route("POST /orders", async (req) => json(await body(req, kit.order), { status: 201 })),
    route("GET /page", async (req) => ({ page: await queryParam(req, "page", kit.page) })),
    route("GET /tags", async (req) => ({ tags: await queryParams(req, "tag", kit.tags) })),
    route("GET /list", async (req) => queryObject(req, kit.list, { arrays: ["tag"] })),
    route("GET /version", async (req) => ({ version: await headerParam(req, "x-api-version", kit.version) })),
    route("GET /theme", async (req) => ({ theme: await cookieParam(req, "theme", kit.theme) })),
    route("GET /optional", async (req) => ({
      version: (await headerParam(req, "x-api-version", kit.version, { optional: true })) ?? null,
    })),
    method(
      "GET",
      path(
        "/posts",
        pathVar(
          "slug",
          Slug,
          pathEnd((req) => ({ slug: req.vars.slug })),
        ),
      ),
    ),
    route("GET /posts/other:Text", (req) => ({ notASlug: req.vars.other })),
    route("GET /all", async (req) => {
      const [page, version, count] = await readParamsAsync(req, [
        (r) => queryParam(r, "page", kit.page),
        (r) => headerParam(r, "x-api-version", kit.version),
        (r) => queryParam(r, "count", Int),
      ]);
      return { page, version, count };
    }),
  );
}

/** Requests that reach every route of {@link functionalApp}, valid and not. */
export const REQUESTS: readonly InjectRequest[] = [
  ...[
    { name: "desk", address: { city: "Oslo" }, lines: [{ qty: 2 }], extra: true },
    { name: "ab", address: {}, lines: [{ qty: 1 }, { qty: 0 }] },
    "desk",
  ].map((order) => ({
    method: "POST",
    url: "/orders",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(order),
  })),
  { method: "POST", url: "/orders", headers: { "content-type": "application/json" }, body: '{"name":' },
  ...["/page?page=3", "/page", "/page?page=0", "/page?page=x"].map((url) => ({ url })),
  ...["/tags?tag=ab&tag=cd", "/tags", "/tags?tag=ab&tag=c", "/tags?tag=ab&tag=cd&tag=ef"].map((url) => ({ url })),
  ...["/list?page=2&tag=a&sort=asc", "/list", "/list?tag=a&tag=b&__proto__=x", "/list?page=0&sort=up"].map((url) => ({
    url,
  })),
  ...[{ "x-api-version": "2" }, {}, { "x-api-version": "3" }].map((headers) => ({ url: "/version", headers })),
  ...[{}, { "x-api-version": "3" }].map((headers) => ({ url: "/optional", headers })),
  ...["theme=dark", undefined, "theme=blue"].map((cookie) => ({ url: "/theme", headers: { cookie } })),
  { url: "/posts/hello-world" },
  { url: "/posts/Bad_Slug" },
  { url: "/all?page=4&count=2", headers: { "x-api-version": "1" } },
  { url: "/all?page=0&count=x" },
];
