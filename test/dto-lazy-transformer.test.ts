import "reflect-metadata";
import { IsInt, IsString, Length, Min } from "class-validator";

/*
 * class-transformer's index (~9 ms of a Node start, ~5 ms of a Bun one) is loaded only when a DTO is
 * validated by the libraries themselves: an app whose DTO classes the compiled validator covers starts,
 * and answers, without it; the startup check that the package is installed reads its storage module,
 * which the compiled validator reads anyway. A DTO validated by the libraries loads it on first use.
 */

const mockLoaded: string[] = [];
jest.mock("class-transformer", () => {
  mockLoaded.push("class-transformer");
  return jest.requireActual("class-transformer");
});

// loaded after the mock is in place (imports are hoisted above it)
const { inject } = require("../src") as typeof import("../src");
const { Body, controllers, Route } = require("../decorators") as typeof import("../decorators");
const { compiledStatus } =
  require("../decorators/compiled-dto/index.js") as typeof import("../decorators/compiled-dto/index.js");

class CreateUser {
  @IsString() @Length(1, 40) name!: string;
  @IsInt() @Min(0) age!: number;
}

const post = (app: ReturnType<typeof controllers>, url: string, body: string) =>
  inject(app, { method: "POST", url, headers: { "content-type": "application/json" }, body });

/** The answers both apps must give: 200 with the instance, and the same 400 for an invalid body. */
async function answers(app: ReturnType<typeof controllers>, url: string): Promise<unknown[]> {
  const valid = await post(app, url, '{"name":"Ada","age":36}');
  const invalid = await post(app, url, '{"name":"","age":-1}');
  return [valid.status, JSON.parse(valid.body), invalid.status, JSON.parse(invalid.body)];
}

const expected = [
  200,
  { name: "Ada", age: 36, dto: true },
  400,
  {
    error: "the body is invalid",
    errors: [
      {
        in: "body",
        field: "name",
        constraint: "isLength",
        message: "name must be longer than or equal to 1 characters",
      },
      { in: "body", field: "age", constraint: "min", message: "age must not be less than 0" },
    ],
  },
];

test("a compiled DTO: the app starts and answers without class-transformer's index", async () => {
  class Users {
    @Route("POST /users")
    create(@Body() user: CreateUser) {
      return { ...user, dto: user instanceof CreateUser };
    }
  }
  const app = controllers([Users]);
  expect(compiledStatus(CreateUser)).toEqual({ compiled: true });
  expect(mockLoaded).toEqual([]);
  expect(await answers(app, "/users")).toEqual(expected);
  expect(mockLoaded).toEqual([]);
});

test("a DTO the libraries validate (compiled: false) loads the index on first use, with the same answers", async () => {
  class Users {
    @Route("POST /users")
    create(@Body(CreateUser, { compiled: false }) user: CreateUser) {
      return { ...user, dto: user instanceof CreateUser };
    }
  }
  const app = controllers([Users]);
  expect(mockLoaded).toEqual([]);
  expect(await answers(app, "/users")).toEqual(expected);
  expect(mockLoaded).toEqual(["class-transformer"]);
});
