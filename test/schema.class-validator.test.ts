import { Type } from "class-transformer";
import { IsIn, IsInt, IsOptional, IsString, Min, MinLength, ValidateNested } from "class-validator";
import { alt, body, json, queryObject, route } from "../src";
import { Body, body as decoratorsBody, controllers, Query, Route } from "../decorators";
import { call, post } from "./helpers/inject-json";

/*
 * class-validator DTO classes go where a schema goes, and answer in the same 400 shape: body() and
 * queryObject() of the main entry (DTOs understood once switchyard-router/decorators is loaded, as here),
 * @Body() with the declared class, the whole-query @Query() (which did not compile before: @Query took a
 * name), each answer compared whole.
 */

/** class-validator's 400 entry for an Order whose name is under @MinLength(3). */
const nameTooShort = {
  in: "body",
  field: "name",
  constraint: "minLength",
  message: "name must be longer than or equal to 3 characters",
};

class Address {
  @IsString() city!: string;
}

class Line {
  @IsInt() @Min(1) qty!: number;
}

class Order {
  @IsString() @MinLength(3) name!: string;
  @ValidateNested() @Type(() => Address) address!: Address;
  @ValidateNested({ each: true }) @Type(() => Line) lines!: Line[];
}

class ListQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) page = 1;
  @IsOptional() @IsString({ each: true }) tag: string[] = [];
  @IsOptional() @IsIn(["asc", "desc"]) sort?: string;
}

const functional = alt(
  route("POST /orders", async (req) => {
    const order = await body(req, Order);
    return json(
      { order, isOrder: order instanceof Order, isAddress: order.address instanceof Address },
      { status: 201 },
    );
  }),
  route("GET /list", async (req) => {
    const query = await queryObject(req, ListQuery, { arrays: ["tag"] });
    return { query, isListQuery: query instanceof ListQuery };
  }),
);

class Catalogue {
  @Route("POST /orders")
  create(@Body(Order) order: Order) {
    return json(
      { order, isOrder: order instanceof Order, isAddress: order.address instanceof Address },
      { status: 201 },
    );
  }

  @Route("GET /list")
  list(@Query({ arrays: ["tag"] }) query: ListQuery) {
    return { query, isListQuery: query instanceof ListQuery };
  }
}

describe.each([
  ["functional: body() and queryObject() of the main entry", () => functional],
  ["decorated: @Body() and @Query()", () => controllers([Catalogue])],
] as const)("%s", (_, make) => {
  const tree = make();

  test("a valid body is an instance of the DTO, nested classes built by @Type", async () => {
    expect(await call(tree, post("/orders", { name: "desk", address: { city: "Oslo" }, lines: [{ qty: 2 }] }))).toEqual(
      {
        status: 201,
        body: {
          order: { name: "desk", address: { city: "Oslo" }, lines: [{ qty: 2 }] },
          isOrder: true,
          isAddress: true,
        },
      },
    );
  });

  test("an invalid body: every failing field by its path, class-validator's constraint names", async () => {
    expect(await call(tree, post("/orders", { name: "ab", address: {}, lines: [{ qty: 1 }, { qty: 0 }] }))).toEqual({
      status: 400,
      body: {
        error: "the body is invalid",
        errors: [
          nameTooShort,
          { in: "body", field: "address.city", constraint: "isString", message: "city must be a string" },
          { in: "body", field: "lines.1.qty", constraint: "min", message: "qty must not be less than 1" },
        ],
      },
    });
  });

  test("the whole query as a DTO: strings converted by @Type, a repeated key an array", async () => {
    expect(await call(tree, { url: "/list?page=2&tag=a&sort=asc" })).toEqual({
      status: 200,
      body: { query: { page: 2, tag: ["a"], sort: "asc" }, isListQuery: true },
    });
    expect(await call(tree, { url: "/list" })).toEqual({
      status: 200,
      body: { query: { page: 1, tag: [] }, isListQuery: true },
    });
    expect(await call(tree, { url: "/list?page=0&sort=up" })).toEqual({
      status: 400,
      body: {
        error: "the query is invalid",
        errors: [
          { in: "query", field: "page", constraint: "min", message: "page must not be less than 1" },
          {
            in: "query",
            field: "sort",
            constraint: "isIn",
            message: "sort must be one of the following values: asc, desc",
          },
        ],
      },
    });
  });
});

describe("the other forms", () => {
  test("@Query() with the declared class and no options: a key sent once stays a string", async () => {
    class Plain {
      @Route("GET /list")
      list(@Query() query: ListQuery) {
        return { query };
      }
    }
    expect(await call(controllers([Plain]), { url: "/list?tag=a&page=3" })).toEqual({
      status: 200,
      body: { query: { page: 3, tag: "a" } },
    });
  });

  test("body() of switchyard-router/decorators reads DTOs and schemas as the main entry's does", async () => {
    const tree = route("POST /orders", async (req) => decoratorsBody(req, Order));
    expect(await call(tree, post("/orders", { name: "ab", address: { city: "Oslo" }, lines: [] }))).toEqual({
      status: 400,
      body: {
        error: "the body is invalid",
        errors: [nameTooShort],
      },
    });
  });

  test("a DTO reads a JSON object only: an array or a string is the isObject 400 (a schema may accept them)", async () => {
    const tree = route("POST /orders", async (req) => body(req, Order));
    for (const [value, got] of [
      [[], "an array"],
      ["desk", "string"],
      [null, "null"],
    ] as const) {
      expect(await call(tree, post("/orders", value))).toEqual({
        status: 400,
        body: {
          error: "the body must be a JSON object",
          errors: [{ in: "body", field: "", constraint: "isObject", message: `expected a JSON object, got ${got}` }],
        },
      });
    }
  });
});
