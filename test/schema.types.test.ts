import { typecheck } from "./helpers/typecheck";

/*
 * The types, checked by tsc as a user's code is: a schema of zod, valibot and arktype (and the spec's
 * own StandardSchemaV1) is a StandardSchema; each reader's result is the schema's output (a promise of
 * it); the whole-query @Query() and @Query(schema) compile where @Query took a name only.
 */

test("schemas of every library are Standard Schemas, and the readers give their output types", () => {
  const diagnostics = typecheck({
    "readers.ts": `
      import type { StandardSchemaV1 } from "@standard-schema/spec";
      import { type } from "arktype";
      import * as v from "valibot";
      import { z } from "zod";
      import {
        body, cookieParam, headerParam, queryObject, queryParam, queryParams, route, schemaParser, type StandardSchema,
      } from "switchyard-router";

      const zodOrder = z.object({ name: z.string(), qty: z.coerce.number() });
      const valibotOrder = v.object({ name: v.string(), qty: v.number() });
      const arkOrder = type({ name: "string", qty: "number" });
      const fromSpec: StandardSchemaV1<unknown, { name: string }> = zodOrder as never;
      export const accepted: StandardSchema[] = [zodOrder, valibotOrder, arkOrder, fromSpec];

      export const app = route("POST /orders", async (req) => {
        const a: { name: string; qty: number } = await body(req, zodOrder);
        const b: { name: string; qty: number } = await body(req, valibotOrder);
        const c: { name: string; qty: number } = await body(req, arkOrder);
        const d: { name: string } = await body(req, fromSpec);
        const page: number = await queryParam(req, "page", z.coerce.number());
        const maybe: number | undefined = await queryParam(req, "page", z.coerce.number(), { optional: true });
        const tags: string[] = await queryParams(req, "tag", z.array(z.string()));
        const version: "1" | "2" = await headerParam(req, "x-api-version", z.enum(["1", "2"]));
        const theme: string = await cookieParam(req, "theme", v.string());
        const all: { qty: number } = await queryObject(req, zodOrder);
        const id: number = schemaParser("Id", z.coerce.number()).parseUrlPiece("1") as number;
        return { a, b, c, d, page, maybe, tags, version, theme, all, id };
      });
    `,
    "errors.ts": `
      import { z } from "zod";
      import { body, queryParam, route } from "switchyard-router";

      export const app = route("POST /x", async (req) => {
        const notAwaited: number = queryParam(req, "page", z.coerce.number());
        const wrong: { name: number } = await body(req, z.object({ name: z.string() }));
        return { notAwaited, wrong };
      });
    `,
  });
  expect(diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual(["errors.ts:6 TS2322", "errors.ts:7 TS2322"]);
}, 60_000);

test("@Query() with a declared class, @Query(schema), @Query(options), @Body(schema) compile", () => {
  const diagnostics = typecheck({
    "controller.ts": `
      import { IsInt } from "class-validator";
      import { z } from "zod";
      import { Body, Cookie, Header, Query, Route } from "switchyard-router/decorators";

      class ListQuery { @IsInt() page = 1; }
      const Search = z.object({ q: z.string() });

      export class Items {
        @Route("GET /items")
        list(@Query() query: ListQuery, @Query({ arrays: ["tag"] }) again: ListQuery) { return { query, again }; }

        @Route("GET /search")
        search(@Query(Search) query: z.infer<typeof Search>, @Query("page", z.coerce.number()) page: number) {
          return { query, page };
        }

        @Route("POST /items")
        create(
          @Body(Search) item: z.infer<typeof Search>,
          @Header("x-v", z.enum(["1"])) v: string,
          @Cookie("c", z.string()) c: string,
        ) {
          return { item, v, c };
        }
      }
    `,
  });
  expect(diagnostics).toEqual([]);
}, 60_000);
