import "reflect-metadata";
import { inject, PatternError, Text } from "../src";
import { controllers, ControllerError, Newtype, PathType, PathVar, Query, Route } from "../decorators";
import { errorOf, expectControllerError } from "./helpers/decorators";

/*
 * Hostile declarations and metadata: everything that can be checked at startup fails at startup (or
 * when the class is defined) with a message naming the real problem — never a NO_ROUTES that blames
 * the user's decorators, never a 500 on every request.
 */

describe("a method named constructor", () => {
  test("beside routed methods: the class fails when defined, naming the constructor method", () => {
    const error = errorOf(() => {
      class Sneaky {
        @Route("GET /a")
        a() {
          return "a";
        }
        ["constructor"]() {
          return "not the class";
        }
      }
      return Sneaky;
    }) as ControllerError;
    expect(error).toBeInstanceOf(ControllerError);
    expect(error.code).toBe("RESERVED_METHOD");
    expect(error.method).toBe("a");
    expect(error.message).toContain('a method named "constructor" (["constructor"]() { … }) replaced it');
  });

  test("routed itself: the class fails when defined", () => {
    const error = errorOf(() => {
      class Routed {
        @Route("GET /")
        ["constructor"]() {
          return "x";
        }
      }
      return Routed;
    }) as ControllerError;
    expect([error.code, error.method]).toEqual(["RESERVED_METHOD", "constructor"]);
    expect(error.message).toContain('@Route is on a method named "constructor"');
  });
});

describe("hand-written or corrupted metadata is checked by controllers()", () => {
  function plain() {
    class Target {
      @Route("GET /ok")
      ok() {
        return "ok";
      }
      field = 1;
    }
    return Target;
  }

  test("a route recorded under the key constructor", () => {
    const Target = plain();
    Reflect.defineMetadata("switchyard:routes", [{ method: "constructor", pattern: "GET /" }], Target);
    const e = expectControllerError(() => controllers([Target]), "RESERVED_METHOD", "Target", "constructor");
    expect(e.message).toBe("Target.constructor: a route is recorded for the constructor, which is not a method a request can call");
  });

  test("a guard recorded that is not a function", () => {
    const Target = plain();
    Reflect.defineMetadata("switchyard:guards", [{ method: undefined, guard: "admin" }], Target);
    const e = expectControllerError(() => controllers([Target]), "NOT_A_GUARD", "Target", "ok");
    expect(e.message).toBe("Target.ok: @Guard(string) is not a function; a guard is a predicate (request) => boolean or a class with canActivate");
  });

  test("a route recorded for a member that is not a method (a field, __proto__, a number key)", () => {
    for (const member of ["field", "__proto__", "missing", 42]) {
      const Target = plain();
      Reflect.defineMetadata("switchyard:routes", [{ method: member, pattern: "GET /" }], Target);
      expectControllerError(() => controllers([Target]), "NOT_A_METHOD", "Target", String(member));
    }
  });

  test("a @PathVar at parameter index 1,000,000 (and other impossible positions)", async () => {
    for (const index of [1_000_000, -1, 1.5, Number.NaN, 1]) {
      class Target {
        @Route("GET /id:Int")
        get(@PathVar("id") id: number) {
          return id;
        }
      }
      PathVar("id")(Target.prototype, "get", index);
      const e = expectControllerError(() => controllers([Target]), "PARAM_INDEX", "Target", "get");
      expect(e.message).toBe(`Target.get: @PathVar("id") is recorded for parameter ${String(index)}, but the method has 1 parameter`);
    }
  });

  test("without decorator metadata the bound is Function.length, and the message says so", () => {
    class Target {
      @Route("GET /")
      get(@Query("q") q: string) {
        return q;
      }
    }
    Reflect.deleteMetadata("design:paramtypes", Target.prototype, "get");
    Query("q", undefined)(Target.prototype, "get", 3);
    const e = expectControllerError(() => controllers([Target]), "PARAM_INDEX", "Target", "get");
    expect(e.message).toContain("but the method has 1 parameter (Function.length;");
  });

  test("metadata that is not a list is ignored, so a class with only that has no routes", () => {
    class Target {}
    Reflect.defineMetadata("switchyard:routes", { method: "x" }, Target);
    expectControllerError(() => controllers([Target]), "NO_ROUTES", "Target");
  });

  test("a controller that passes controllers() answers its requests", async () => {
    const Target = plain();
    expect((await inject(controllers([Target]), { url: "/ok" })).body).toBe("ok");
  });
});

describe("UNKNOWN_TYPE names the likely cause", () => {
  test("a parameter declared with a parser class that was never registered: add @PathType()", () => {
    class Sku extends Newtype(Text) {}
    class Products {
      // @ts-expect-error the compiler rejects this literal too; the test is about the startup check
      @Route("GET /products/sku:Sku")
      get(@PathVar("sku") _sku: Sku) {}
    }
    const error = errorOf(() => controllers([Products])) as PatternError;
    expect(error.code).toBe("UNKNOWN_TYPE");
    expect(error.message).toContain("hint: a parameter is declared as Sku, a parser class that is not registered: decorate it with @PathType()");
    PathType()(Sku);
    expect(() => controllers([Products])).not.toThrow();
  });

  test("a type nothing declares: the @PathType module may never have run", () => {
    class Users {
      // @ts-expect-error the compiler rejects this literal too; the test is about the startup check
      @Route("GET /users/id:UserIdNeverLoaded")
      get(@PathVar("id") _id: unknown) {}
    }
    const error = errorOf(() => controllers([Users])) as PatternError;
    expect(error).toBeInstanceOf(PatternError);
    expect(error.code).toBe("UNKNOWN_TYPE");
    expect(error.message).toMatch(/^Users\.get: @Route: invalid route pattern "GET \/users\/id:UserIdNeverLoaded" at position 14: unknown path type "UserIdNeverLoaded"/);
    expect(error.message).toContain("hint: if UserIdNeverLoaded is a class decorated with @PathType(), its module has not run yet");
    expect(error.message).toContain("TypeScript drops an import used only as a type");
  });
});
