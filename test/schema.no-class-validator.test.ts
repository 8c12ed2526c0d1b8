import { z } from "zod";
import { inject } from "../src";
import { Body, controllers, Query, Route } from "../decorators";
import { startWithDtoClass } from "./helpers/dto-startup";

/*
 * class-validator and class-transformer are optional peers: with neither installed (here, requiring
 * them fails as for a missing package), a controller whose bodies and queries are Standard Schemas
 * starts and validates; one with a DTO class fails at startup naming the package to install.
 */

jest.mock("class-validator", () => {
  throw Object.assign(new Error("Cannot find module 'class-validator'"), { code: "MODULE_NOT_FOUND" });
});
jest.mock("class-transformer", () => {
  throw Object.assign(new Error("Cannot find module 'class-transformer'"), { code: "MODULE_NOT_FOUND" });
});
// a missing package has none of its modules: also the storage module the startup check loads
jest.mock("class-transformer/cjs/storage", () => {
  throw Object.assign(new Error("Cannot find module 'class-transformer/cjs/storage'"), { code: "MODULE_NOT_FOUND" });
});

// jest.mock calls are hoisted above the imports: the decorators load with both packages missing

test("schemas only: the controller starts and validates", async () => {
  const Item = z.object({ name: z.string().min(3) });
  class Items {
    @Route("POST /items")
    create(@Body(Item) item: { name: string }) {
      return item;
    }

    @Route("GET /items")
    list(@Query(z.object({ page: z.coerce.number().int() })) query: { page: number }) {
      return query;
    }
  }
  const app = controllers([Items]);
  const post = (body: string) =>
    inject(app, { method: "POST", url: "/items", headers: { "content-type": "application/json" }, body });
  expect((await post('{"name":"desk"}')).status).toBe(200);
  expect(JSON.parse((await post('{"name":"ab"}')).body)).toEqual({
    error: "the body is invalid",
    errors: [
      {
        in: "body",
        field: "name",
        constraint: "too_small",
        message: "Too small: expected string to have >=3 characters",
      },
    ],
  });
  expect(JSON.parse((await inject(app, { url: "/items?page=2" })).body)).toEqual({ page: 2 });
});

test("a DTO class: a startup error naming the package to install", () => {
  expect(startWithDtoClass).toThrow(
    "a class-validator DTO (@Body(), @Query(), body(), queryObject()) needs the optional peer dependency class-transformer: npm install class-transformer class-validator",
  );
});
