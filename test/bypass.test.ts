import { transformSync } from "@swc/core";
import { Type } from "class-transformer";
import { IsInt, IsString, Min, MinLength, ValidateNested } from "class-validator";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { body, inject, Int, queryObject, route } from "../src";
import * as decorators from "../decorators";
import { Body, ControllerError, controllers, Newtype, Query, Route } from "../decorators";
import { errorOf, expectControllerError } from "./helpers/decorators";
import { call, post } from "./helpers/inject-json";
import { ROOT } from "./helpers/typecheck";

/*
 * No value reaches a handler unvalidated. Before issue 24, `import type { CreateItem }` with
 * `@Body() item: CreateItem` made tsc record `design:paramtypes = [Function]`, and an invalid body was
 * answered 200 with the handler given a function object (class-transformer's "instance" of Function,
 * checked against no constraint). Each way found for a body or query to pass unchecked is a startup
 * error here (or, for the functional readers, which have no startup, an error on use), naming the
 * class, the method and the parameter, with the cause and the fix.
 */

// --- fixtures compiled by the real tsc, as an app is ---------------------------------------------

const DTO = `
import { IsString, MinLength } from "class-validator";
export class CreateItem {
  @IsString() @MinLength(3) name!: string;
}
`;

const controller = (importLine: string) => `
import { Body, Route } from "switchyard-router/decorators";
${importLine}
export class ItemsController {
  @Route("POST /items")
  create(@Body() item: CreateItem) {
    return { isFunction: typeof item === "function", name: item.name };
  }
}
`;

/** Compiles the DTO and a controller with tsc (legacy decorators; metadata unless told) to CommonJS. */
function compile(importLine: string, metadata = true): { readonly dto: string; readonly controller: string } {
  mkdirSync(path.join(ROOT, "dist"), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, "dist", "bypass-"));
  try {
    writeFileSync(path.join(dir, "dto.ts"), DTO);
    writeFileSync(path.join(dir, "controller.ts"), controller(importLine));
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, "node_modules/typescript/bin/tsc"),
        "--ignoreConfig",
        "--experimentalDecorators",
        ...(metadata ? ["--emitDecoratorMetadata"] : []),
        "--target",
        "es2022",
        "--module",
        "commonjs",
        "--noCheck",
        "--rootDir",
        dir,
        "--outDir",
        path.join(dir, "out"),
        path.join(dir, "dto.ts"),
        path.join(dir, "controller.ts"),
      ],
      { cwd: ROOT },
    );
    return {
      dto: readFileSync(path.join(dir, "out/dto.js"), "utf8"),
      controller: readFileSync(path.join(dir, "out/controller.js"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs compiled CommonJS modules in this process: the package's decorators, the real class-validator. */
function load(modules: { readonly dto: string; readonly controller: string }): decorators.ControllerClass {
  const run = (code: string): Record<string, unknown> => {
    const module = { exports: {} as Record<string, unknown> };
    const require = (id: string): unknown => {
      if (id === "switchyard-router/decorators") return decorators;
      if (id === "./dto.js") return run(modules.dto);
      if (id === "class-validator") return jest.requireActual("class-validator");
      throw new Error(`unexpected import ${id}`);
    };
    new Function("require", "module", "exports", code)(require, module, module.exports);
    return module.exports;
  };
  return run(modules.controller).ItemsController as decorators.ControllerClass;
}

const IMPORT_TYPE_CAUSE =
  "ItemsController.create: @Body() on parameter 0 needs a DTO class or a Standard Schema, but it is declared with a type TypeScript records as Function: a class imported with `import type { CreateItem }` (or `import { type CreateItem }`) has no value at run time, so the metadata can only say Function, and nothing would be validated; " +
  'import the class as a value (import { CreateItem } from "./dto.js"), or name it: @Body(CreateItem), or give a Standard Schema: @Body(createItemSchema)';

describe("a DTO class imported with `import type` (tsc records Function)", () => {
  test.each([['import type { CreateItem } from "./dto.js";'], ['import { type CreateItem } from "./dto.js";']])(
    "%s: tsc records [Function], and controllers() refuses it with the cause and the fix",
    (line) => {
      const modules = compile(line);
      expect(modules.controller).toContain('__metadata("design:paramtypes", [Function])');
      const e = expectControllerError(() => controllers([load(modules)]), "PARAM_TYPE", "ItemsController", "create");
      expect(e.message).toBe(IMPORT_TYPE_CAUSE);
    },
  );

  test("imported as a value, the same controller validates: an invalid body is a 400, a valid one reaches the handler", async () => {
    const modules = compile('import { CreateItem } from "./dto.js";');
    expect(modules.controller).toContain('__metadata("design:paramtypes", [dto_js_1.CreateItem])');
    const app = controllers([load(modules)]);
    expect(await call(app, post("/items", { name: 1 }))).toEqual({
      status: 400,
      body: {
        error: "the body is invalid",
        errors: [
          {
            in: "body",
            field: "name",
            constraint: "minLength",
            message: "name must be longer than or equal to 3 characters",
          },
          { in: "body", field: "name", constraint: "isString", message: "name must be a string" },
        ],
      },
    });
    expect(await call(app, post("/items", { name: "desk" }))).toEqual({
      status: 200,
      body: { isFunction: false, name: "desk" },
    });
  });

  test("compiled by swc, the type-only import is recorded as Object: refused too, the message naming swc's case", () => {
    const modules = compile('import { CreateItem } from "./dto.js";');
    const { code } = transformSync(controller('import type { CreateItem } from "./dto.js";'), {
      filename: "controller.ts",
      jsc: {
        parser: { syntax: "typescript", decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: "es2022",
      },
      module: { type: "commonjs" },
    });
    const e = expectControllerError(
      () => controllers([load({ ...modules, controller: code })]),
      "PARAM_TYPE",
      "ItemsController",
      "create",
    );
    expect(e.message).toContain("it is declared as Object");
    expect(e.message).toContain("swc for a class imported with `import type`");
  });

  test("without emitDecoratorMetadata the declared type is unknown: refused, saying how to turn metadata on", () => {
    const e = expectControllerError(
      () => controllers([load(compile('import { CreateItem } from "./dto.js";', false))]),
      "PARAM_TYPE",
      "ItemsController",
      "create",
    );
    expect(e.message).toBe(
      "ItemsController.create: @Body() on parameter 0 needs a DTO class or a Standard Schema, but its declared type is unknown: " +
        'TypeScript records it only with "emitDecoratorMetadata": true (swc: jsc.transform.decoratorMetadata); ' +
        "turn decorator metadata on, or name the type: @Body(CreateItem) or @Body(createItemSchema)",
    );
  });
});

// --- the other declared types that are no DTO class ---------------------------------------------

class CreateItem {
  @IsString() @MinLength(3) name!: string;
}

interface ItemShape {
  name: string;
}

class Plain {
  name!: string;
}

class Sku extends Newtype(Int) {}

describe("every other declared type that is neither a parser, a DTO class nor a schema is a startup error", () => {
  const refused = (cls: decorators.ControllerClass, method: string): string =>
    expectControllerError(() => controllers([cls]), "PARAM_TYPE", cls.name, method).message;

  test("an interface, a union, unknown: Object", () => {
    class ByInterface {
      @Route("POST /")
      create(@Body() _item: ItemShape) {}
    }
    class ByUnion {
      @Route("POST /")
      create(@Body() _item: CreateItem | null) {}
    }
    for (const cls of [ByInterface, ByUnion]) {
      expect(refused(cls, "create")).toContain(
        "@Body() on parameter 0 needs a DTO class or a Standard Schema, but it is declared as Object, which is what TypeScript records for an interface, a type alias, a union (CreateItem | null), any or unknown",
      );
    }
  });

  test("an array of DTOs: metadata records Array only", () => {
    class Many {
      @Route("POST /")
      create(@Body() _items: CreateItem[]) {}
    }
    expect(refused(Many, "create")).toContain(
      "it is declared as an array, and decorator metadata records only Array, not the class of the items; give a schema of the array (@Body(z.array(item))), or a DTO class holding it",
    );
  });

  test("a primitive", () => {
    class Text {
      @Route("POST /")
      create(@Body() _name: string) {}
    }
    expect(refused(Text, "create")).toContain("it is declared as string, which is no DTO class");
  });

  test("a class with no class-validator decorator, declared or given: every body would pass it", () => {
    class Declared {
      @Route("POST /")
      create(@Body() _item: Plain) {}
    }
    class Given {
      @Route("POST /")
      create(@Body(Plain) _item: unknown) {}
    }
    for (const cls of [Declared, Given]) {
      expect(refused(cls, "create")).toContain(
        "Plain has no class-validator decorators (nor does a base class), so every value would pass it; decorate its properties",
      );
    }
  });

  test("a class not yet defined when the controller was (an import circle): undefined in the metadata", () => {
    class Circle {
      @Route("POST /")
      @Reflect.metadata("design:paramtypes", [undefined])
      create(@Body() _item: CreateItem) {}
    }
    expect(refused(Circle, "create")).toContain(
      "its declared type was undefined when the class was defined: the class it names was not defined yet (an import circle",
    );
  });

  test("the whole-query @Query(): the same rules, and a parser class is one value, not an object", () => {
    class ByFunction {
      @Route("GET /")
      @Reflect.metadata("design:paramtypes", [Function])
      list(@Query() _query: CreateItem) {}
    }
    expect(refused(ByFunction, "list")).toContain(
      "@Query() on parameter 0 needs a DTO class or a Standard Schema, but it is declared with a type TypeScript records as Function",
    );
    expect(refused(ByFunction, "list")).toContain("or name it: @Query(CreateItem)");
    class ByParser {
      @Route("GET /")
      list(@Query() _sku: Sku) {}
    }
    expect(refused(ByParser, "list")).toContain(
      'Sku is a parser of one value, not a DTO class; read one query value with @Query("name", Sku)',
    );
    expect(() => Query(Int as never)).toThrow(
      '@Query: a parser reads one query parameter, named first: @Query("page", Int)',
    );
    expect(() => Query({ whitelist: true, strict: true } as never)).toThrow("got an object with strict");
  });

  test("a newtype query value imported with `import type` (Function): refused, with the same cause", () => {
    class ById {
      @Route("GET /")
      @Reflect.metadata("design:paramtypes", [Function])
      get(@Query("id") _id: Sku) {}
    }
    expect(refused(ById, "get")).toContain(
      '@Query("id") on parameter 0 has no parser: give one (@Query("id", Int)) or declare the parameter as string, boolean or a parser class (it is declared with a type TypeScript records as Function: a class imported with `import type',
    );
  });
});

// --- bodies that passed class-validator unchecked -------------------------------------------------

class Address {
  @IsString() city!: string;
}

class Line {
  @IsInt() @Min(1) qty!: number;
}

describe("nested objects and inheritance", () => {
  test("a @ValidateNested() property without @Type stays a plain object: a 400 (forbidUnknownValues), not validated against nothing", async () => {
    class Untyped {
      @IsString() name!: string;
      @ValidateNested() address!: Address;
    }
    class Typed {
      @IsString() name!: string;
      @ValidateNested() @Type(() => Address) address!: Address;
    }
    const untyped = route("POST /untyped", async (req) => body(req, Untyped));
    expect(await call(untyped, post("/untyped", { name: "desk", address: { city: 7 } }))).toEqual({
      status: 400,
      body: {
        error: "the body is invalid",
        errors: [
          {
            in: "body",
            field: "address",
            constraint: "unknownValue",
            message: "an unknown value was passed to the validate function",
          },
        ],
      },
    });
    const typed = route("POST /typed", async (req) => body(req, Typed));
    expect((await call(typed, post("/typed", { name: "desk", address: { city: 7 } }))).body).toEqual({
      error: "the body is invalid",
      errors: [{ in: "body", field: "address.city", constraint: "isString", message: "city must be a string" }],
    });
  });

  test("arrays of nested DTOs are checked item by item", async () => {
    class Order {
      @ValidateNested({ each: true }) @Type(() => Line) lines!: Line[];
    }
    const tree = route("POST /orders", async (req) => body(req, Order));
    expect((await call(tree, post("/orders", { lines: [{ qty: 1 }, { qty: 0 }, "x"] }))).body).toEqual({
      error: "the body is invalid",
      errors: [
        { in: "body", field: "lines.1.qty", constraint: "min", message: "qty must not be less than 1" },
        {
          in: "body",
          field: "lines.2",
          constraint: "nestedValidation",
          message: "each value in nested property lines must be either object or array",
        },
      ],
    });
  });

  test("a subclass with no decorators of its own is checked by its base class's constraints", async () => {
    class Base {
      @IsString() @MinLength(3) name!: string;
    }
    class Child extends Base {
      extra?: string;
    }
    class Strict {
      @Route("POST /items")
      create(@Body(undefined, { whitelist: true }) item: Child) {
        return { item, isChild: item instanceof Child };
      }
    }
    const app = controllers([Strict]);
    expect((await call(app, post("/items", { name: "ab" }))).status).toBe(400);
    // properties no decorator declares are kept unless whitelist/forbidNonWhitelisted says otherwise
    expect(await call(app, post("/items", { name: "desk", extra: "dropped" }))).toEqual({
      status: 200,
      body: { item: { name: "desk" }, isChild: true },
    });
  });
});

describe("the functional readers, which have no startup, refuse a class nothing checks when called", () => {
  test("body() and queryObject() with a class without constraints: a TypeError (a 500), before the body is read", async () => {
    const errors: unknown[] = [];
    const tree = route("POST /x", async (req) => body(req, Plain));
    const query = route("GET /x", async (req) => queryObject(req, Plain));
    const onError = (error: unknown) => void errors.push(error);
    expect((await inject(tree, post("/x", { name: "desk" }), { onError })).status).toBe(500);
    expect((await inject(query, { url: "/x?name=desk" }, { onError })).status).toBe(500);
    expect(errors.map(String)).toEqual([
      "TypeError: body(): Plain has no class-validator decorators (nor does a base class), so every value would pass it: decorate its properties (@IsString(), @IsInt(), @Allow() for one taken as it is, …), or give a Standard Schema",
      "TypeError: queryObject(): Plain has no class-validator decorators (nor does a base class), so every value would pass it: decorate its properties (@IsString(), @IsInt(), @Allow() for one taken as it is, …), or give a Standard Schema",
    ]);
  });

  test("body() with something that is neither a schema nor a class: a TypeError", async () => {
    await expect(body({} as never, { parse: () => 1 } as never)).rejects.toThrow(
      "body(): expected a Standard Schema (zod, valibot, arktype, …) or a class-validator DTO class, got object",
    );
  });

  test("ControllerError is what controllers() throws for each (so a startup script can tell it)", () => {
    class Broken {
      @Route("POST /")
      create(@Body() _item: ItemShape) {}
    }
    expect(errorOf(() => controllers([Broken]))).toBeInstanceOf(ControllerError);
  });
});
