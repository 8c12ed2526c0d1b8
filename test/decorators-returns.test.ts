import "reflect-metadata";
import { Exclude } from "class-transformer";
import { IsInt, IsString } from "class-validator";
import * as zod from "zod";
import * as decorators from "../decorators";
import { type ControllerError, controllers, Describe, PathVar, Returns, Route } from "../decorators";
import { inject, openapi } from "../src";
import { runCommonJs, swcToCommonJs, tscToCommonJs } from "./helpers/compile-decorators";
import { errorOf } from "./helpers/decorators";

/*
 * `@Returns(status, schemaOrDto, description?)` (issue 24): recorded on the class, it feeds the handler
 * leaf's `info.responses`, which OpenAPI documents and the pipeline's response contracts enforce.
 */

class UserOut {
  @IsInt() id!: number;
  @IsString() name!: string;
}

class User {
  id = 7;
  name = "ada";
  @Exclude() passwordHash = "secret";
  internal = "kept out by the contract";
}

class Users {
  @Route("GET /users/id:Int")
  @Returns(200, UserOut, "the user")
  @Returns(404, { type: "object" })
  byId(@PathVar("id") id: number): User {
    return Object.assign(new User(), { id });
  }

  @Route("GET /users")
  @Describe({
    summary: "all users",
    responses: { 200: { description: "from Describe" }, 500: { description: "boom" } },
  })
  @Returns(200, [UserOut], "the users")
  all(): User[] {
    return [new User()];
  }

  @Route("GET /strict")
  @Describe({ contract: "check" })
  @Returns(200, UserOut)
  strict(): UserOut {
    // the types pass it (a cast), so that the run-time check meets a reply that breaks the contract
    return { id: "seven" } as unknown as UserOut;
  }

  @Route("GET /own")
  @Describe({ contract: "strip" })
  @Returns(200, UserOut)
  own(): User {
    return new User();
  }

  @Route("GET /plain")
  plain(): User {
    return new User();
  }
}

const info = { title: "t", version: "1" };

test("OpenAPI documents each @Returns, over @Describe's responses status by status", () => {
  const doc = openapi(controllers([Users]), { info }) as unknown as {
    paths: Record<string, { get: { responses: Record<string, { description: string; content?: unknown }> } }>;
  };
  const byId = doc.paths["/users/{id}"]!.get.responses;
  expect(byId["200"]!.description).toBe("the user");
  expect(JSON.stringify(byId["200"]!.content)).toContain("UserOut");
  expect(Object.keys(byId)).toEqual(expect.arrayContaining(["200", "404"]));
  const all = doc.paths["/users"]!.get.responses;
  expect(all["200"]!.description).toBe("the users");
  expect(JSON.stringify(all["200"]!.content)).toContain("array");
  expect(all["500"]!.description).toBe("boom");
});

test("contracts: strip sends only UserOut's fields; without a contract, instanceToPlain still drops @Exclude", async () => {
  const app = controllers([Users]);
  const one = await inject(app, { url: "/users/7" }, { contracts: "strip" });
  expect(JSON.parse(one.body)).toEqual({ id: 7, name: "ada" });
  const all = await inject(app, { url: "/users" }, { contracts: "strip" });
  expect(JSON.parse(all.body)).toEqual([{ id: 7, name: "ada" }]);
  const plain = await inject(app, { url: "/plain" }, { contracts: "strip" });
  expect(JSON.parse(plain.body)).toEqual({ id: 7, name: "ada", internal: "kept out by the contract" });
});

test("@Describe({ contract }) is the route's own contract, over the app's", async () => {
  const app = controllers([Users]);
  const errors: unknown[] = [];
  const strict = await inject(app, { url: "/strict" }, { onError: (e) => void errors.push(e) });
  expect(strict.status).toBe(500);
  expect(String(errors[0])).toMatch(/GET \/strict \(Users.strict\) replied 200 against its contract: id: /);
  expect(JSON.parse((await inject(app, { url: "/own" })).body)).toEqual({ id: 7, name: "ada" });
});

test("@Returns refuses a bad status, a missing schema, a status written twice", () => {
  expect(() => Returns(99 as never, UserOut)).toThrow(TypeError);
  expect(() => Returns(200, undefined as never)).toThrow(/expected a schema/);
  expect(() => {
    class Twice {
      @Returns(200, UserOut)
      @Returns(200, UserOut)
      m() {}
    }
    return Twice;
  }).toThrow(/written twice/);
});

/*
 * Under TC39 standard decorators (no experimentalDecorators), @Returns is called (method, context): it
 * keeps its recording in the class's metadata, replayed by controllers() as @Route's is.
 */

const standardSource = `
import { Describe, Returns, Route } from "switchyard-router/decorators";
import { z } from "zod";
const User = z.object({ id: z.number(), name: z.string() });
export class Users {
  @Route("GET /user")
  @Describe({ summary: "one user", tags: ["people"] })
  @Returns(200, User, "the user")
  user() {
    return { id: 1, name: "ada", passwordHash: "secret" };
  }

  @Route("GET /broken")
  @Returns(200, User)
  @Returns(404, { type: "object" })
  broken() {
    return { id: "one" } as unknown as { id: number; name: string };
  }
}
`;

/** Runs CommonJS `code` in this process, with the package's decorators and zod as its imports. */
function runStandard(code: string): decorators.ControllerClass {
  return runCommonJs(code, { "switchyard-router/decorators": decorators, zod }).Users as decorators.ControllerClass;
}

async function expectStandardReturns(code: string): Promise<void> {
  const app = controllers([runStandard(code)]);
  const user = await inject(app, { url: "/user" }, { contracts: "strip" });
  expect([user.status, JSON.parse(user.body)]).toEqual([200, { id: 1, name: "ada" }]);
  const errors: unknown[] = [];
  const broken = await inject(app, { url: "/broken" }, { contracts: "check", onError: (e) => void errors.push(e) });
  expect(broken.status).toBe(500);
  expect(String(errors[0])).toMatch(
    /^ContractError: GET \/broken \(Users.broken\) replied 200 against its contract: id: /,
  );
  const doc = openapi(app, { info }) as unknown as {
    paths: Record<
      string,
      { get: { summary?: string; tags?: string[]; responses: Record<string, { description: string }> } }
    >;
  };
  expect(doc.paths["/user"]!.get.responses["200"]!.description).toBe("the user");
  // @Describe, too, records under standard decorators
  expect([doc.paths["/user"]!.get.summary, doc.paths["/user"]!.get.tags]).toEqual(["one user", ["people"]]);
  expect(Object.keys(doc.paths["/broken"]!.get.responses)).toEqual(["200", "404"]);
}

test("@Returns under standard decorators compiled by swc (2022-03): recorded, documented, enforced", async () => {
  await expectStandardReturns(swcToCommonJs(standardSource, "users.ts", "2022-03"));
});

test("@Returns under standard decorators compiled by tsc without experimentalDecorators: the same", async () => {
  const code = tscToCommonJs(standardSource, false);
  expect(code).toContain("__esDecorate"); // really the standard form
  await expectStandardReturns(code);
});

test("under standard decorators, @Returns on a static method or a getter is refused as @Route is", () => {
  const method = { kind: "method", name: "m", static: true, private: false, metadata: {} };
  const decorate = Returns(200, UserOut) as unknown as (...a: unknown[]) => void;
  const onStatic = errorOf(() => decorate(() => undefined, method)) as ControllerError;
  expect([onStatic.code, onStatic.message]).toEqual([
    "STATIC_METHOD",
    "(a class).m: @Returns is on a static method; routes are instance methods",
  ]);
  const onGetter = errorOf(() =>
    decorate(() => undefined, { ...method, kind: "getter", static: false }),
  ) as ControllerError;
  expect(onGetter.code).toBe("NOT_A_METHOD");
});
