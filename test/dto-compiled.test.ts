import { Exclude, Expose, plainToInstance, Transform, Type } from "class-transformer";
import * as cv from "class-validator";
import { alt, HttpError, type InjectRequest, inject, json, queryObject, type Route, route } from "../src";
import { body } from "../decorators";
import { compiledStatus } from "../decorators/compiled-dto/index.js";
import { registeredDtoValidator } from "../src/validate/dto";
import { fieldErrorsOf } from "../src/validate/field-errors";
import { call, post } from "./helpers/inject-json";

/*
 * The compiled DTO validator, case by case: for each constraint it runs, the 400 through `body()` is the
 * one class-validator gives (`compiled: false`), field, constraint and message; a valid body reaches the
 * handler as the same instance (class, field initialisers, nested classes); what it does not cover falls
 * back, and says why; a 400 carries no stack trace, and `onError` still sees it.
 */

enum Size {
  S = "s",
  M = "m",
}

class Address {
  @cv.IsString() @cv.Length(2, 20) city!: string;
  @cv.IsOptional() @cv.Matches(/^\d{5}$/) zip?: string;
}

class Every {
  @cv.IsString() @cv.Length(2, 5) name!: string;
  @cv.IsInt() @cv.Min(1) @cv.Max(9) count!: number;
  @cv.IsNumber({ maxDecimalPlaces: 2 }) price!: number;
  @cv.IsBoolean() active!: boolean;
  @cv.IsEmail() email!: string;
  @cv.IsUUID("4") id!: string;
  @cv.IsUrl() site!: string;
  @cv.IsIn(["a", "b"]) letter!: string;
  @cv.IsEnum(Size) size!: Size;
  @cv.IsArray() @cv.ArrayMinSize(1) @cv.ArrayMaxSize(2) @cv.IsString({ each: true }) tags!: string[];
  @cv.IsObject() meta!: object;
  @cv.IsNotEmpty() note!: string;
  @cv.MinLength(2) @cv.MaxLength(3) code!: string;
  @cv.IsDefined() defined!: unknown;
  @cv.IsPositive({ message: "$property must be above zero, not $value" }) weight!: number;
  @cv.IsDateString() day!: string;
  @cv.ValidateNested() @Type(() => Address) address!: Address;
  @cv.ValidateNested({ each: true }) @Type(() => Address) more!: Address[];
  @cv.IsOptional() @cv.IsString() nick?: string;
  @cv.ValidateIf((o: Every) => o.active === true) @cv.IsString() reason?: string;
  retries = 3;
  @cv.IsOptional() @cv.IsInt() level = 1;
}

const valid = {
  name: "abc",
  count: 3,
  price: 1.5,
  active: false,
  email: "a@b.co",
  id: "f47ac10b-58cc-4372-a567-0e02b2c3d479",
  site: "https://example.org",
  letter: "a",
  size: "m",
  tags: ["x"],
  meta: {},
  note: "n",
  code: "ab",
  defined: 0,
  weight: 2,
  day: "2024-02-29",
  address: { city: "Lyon" },
  more: [{ city: "Paris", zip: "75001" }],
};

const invalid = {
  name: "a",
  count: 12.5,
  price: 1.555,
  active: "yes",
  email: "no",
  id: "F47AC10B-58CC-1372-A567-0E02B2C3D479",
  site: "example",
  letter: "c",
  size: "xl",
  tags: ["x", 2, "z"],
  meta: [],
  note: "",
  code: "abcd",
  defined: null,
  weight: -1,
  day: "not a day",
  address: { city: 5, zip: "1" },
  more: [{ city: "P" }, "x", null],
  nick: 7,
};

/** POST /compiled and /libraries: the same DTO read by the compiled validator and by the libraries. */
function app(type: new () => object, options: { whitelist?: boolean; forbidNonWhitelisted?: boolean } = {}): Route {
  const answer = (dto: object) => json({ class: dto.constructor.name, dto }, { status: 201 });
  return alt(
    route("POST /compiled", async (req) => answer(await body(req, type, options))),
    route("POST /libraries", async (req) => answer(await body(req, type, { ...options, compiled: false }))),
  );
}

async function both(tree: Route, value: unknown) {
  const compiled = await call(tree, post("/compiled", value));
  const libraries = await call(tree, post("/libraries", value));
  return { compiled, libraries };
}

/** The status and the body as text (a 500 is no JSON). */
async function raw(tree: Route, request: InjectRequest) {
  const { status, body } = await inject(tree, request, { onError: () => undefined });
  return { status, body };
}

test("the DTO used here is compiled", () => {
  expect(compiledStatus(Every)).toEqual({ compiled: true });
  expect(compiledStatus(Address)).toEqual({ compiled: true });
});

test("a body failing every compiled constraint: the very 400 class-validator gives", async () => {
  const { compiled, libraries } = await both(app(Every), invalid);
  expect(libraries.status).toBe(400);
  expect(compiled).toEqual(libraries);
  // and it names every constraint once (a check that the case covers them)
  const constraints = new Set((compiled.body as { errors: { constraint: string }[] }).errors.map((e) => e.constraint));
  expect([...constraints].sort()).toEqual(
    [
      "arrayMaxSize",
      "isBoolean",
      "isDateString",
      "isDefined",
      "isEmail",
      "isEnum",
      "isIn",
      "isInt",
      "isLength",
      "isNotEmpty",
      "isNumber",
      "isObject",
      "isPositive",
      "isString",
      "isUrl",
      "isUuid",
      "matches",
      "maxLength",
      "max",
      "nestedValidation",
    ].sort(),
  );
});

test("each failing constraint on its own: the same field, constraint and message", async () => {
  const tree = app(Every);
  for (const [key, bad] of Object.entries(invalid)) {
    const { compiled, libraries } = await both(tree, { ...valid, [key]: bad });
    expect({ key, ...compiled }).toEqual({ key, ...libraries });
    expect(compiled.status).toBe(400);
  }
});

test("a valid body: the same instance (class, initialisers kept, nested classes, absent keys absent)", async () => {
  const { compiled, libraries } = await both(app(Every), valid);
  expect(compiled.status).toBe(201);
  expect(compiled).toEqual(libraries);
  expect(compiled.body).toMatchObject({ class: "Every", dto: { retries: 3, level: 1, name: "abc" } });
  let seen: unknown;
  const tree = route("POST /x", async (req) => {
    seen = await body(req, Every);
    return {};
  });
  await call(tree, post("/x", valid));
  expect(seen).toBeInstanceOf(Every);
  expect((seen as Every).address).toBeInstanceOf(Address);
  expect((seen as Every).more[0]).toBeInstanceOf(Address);
  // the keys in plainToInstance's order (declared fields first, as the class defines them), values alike
  const expected = plainToInstance(Every, valid);
  expect(Object.entries(seen as object)).toEqual(Object.entries(expected));
});

test("keys naming the prototype's getter, method or setter: left, left and set, as class-transformer does", async () => {
  class Person {
    @cv.IsString() first!: string;
    stored = "";
    get upper(): string {
      return this.first.toUpperCase();
    }
    set nick(value: string) {
      this.stored = value;
    }
    greet(): string {
      return `hi ${this.first}`;
    }
  }
  // compiled, so the rule is the compiled validator's (a class it does not cover would fall back)
  expect(compiledStatus(Person)).toEqual({ compiled: true });
  const value = { first: "ada", upper: "X", greet: "not a function", nick: "al" };
  let seen: Person | undefined;
  const tree = alt(
    route("POST /x", async (req) => {
      seen = await body(req, Person);
      return {};
    }),
    app(Person),
  );
  const { compiled, libraries } = await both(tree, value);
  expect(compiled).toEqual(libraries);
  expect(compiled.status).toBe(201);
  await call(tree, post("/x", value));
  // a getter without a setter is not assigned (in strict code that throws: a 500), a method is kept
  expect(seen!.upper).toBe("ADA");
  expect(seen!.greet()).toBe("hi ada");
  expect(seen!.stored).toBe("al");
  expect(Object.entries(seen!)).toEqual(Object.entries(plainToInstance(Person, value)));
});

test("only the body's own keys are read: an enumerable property on Object.prototype is not copied", async () => {
  const prototype = Object.prototype as { polluted?: unknown };
  Object.defineProperty(prototype, "polluted", { value: "x", enumerable: true, configurable: true });
  try {
    const { compiled, libraries } = await both(app(Address), { city: "Lyon" });
    expect(compiled).toEqual(libraries);
    expect(Object.keys((compiled.body as { dto: object }).dto)).toEqual(["city"]);
  } finally {
    delete prototype.polluted;
  }
});

test("messages name the class validated, also for constraints two classes inherit from one base", async () => {
  class Named {
    @cv.IsString({ message: "$target.$property" }) name!: string;
    @cv.Min(3) size!: number;
  }
  class Left extends Named {}
  class Right extends Named {}
  for (const type of [Left, Right, Left]) {
    const { compiled, libraries } = await both(app(type), { name: 1, size: 1 });
    expect(compiled).toEqual(libraries);
    expect(JSON.stringify(compiled.body)).toContain(`"${type.name}.name"`);
  }
});

test("whitelist and forbidNonWhitelisted: stripped and refused alike (field initialisers without decorators too)", async () => {
  for (const options of [{ whitelist: true }, { forbidNonWhitelisted: true }]) {
    const { compiled, libraries } = await both(app(Every, options), {
      ...valid,
      extra: 1,
      address: { city: "Lyon", x: 2 },
    });
    expect(compiled).toEqual(libraries);
  }
});

test("a query DTO (strings converted by @Type) through queryObject", async () => {
  class Page {
    @cv.IsOptional() @Type(() => Number) @cv.IsInt() @cv.Min(1) page = 1;
    @cv.IsOptional() @cv.IsString({ each: true }) tag: string[] = [];
  }
  expect(compiledStatus(Page)).toEqual({ compiled: true });
  const tree = alt(
    route("GET /compiled", async (req) => json(await queryObject(req, Page, { arrays: ["tag"] }))),
    route("GET /libraries", async (req) => json(await queryObject(req, Page, { arrays: ["tag"], compiled: false }))),
  );
  for (const query of ["", "?page=3&tag=a&tag=b", "?page=0", "?page=x&tag=1"]) {
    const compiled = await call(tree, { url: `/compiled${query}` });
    const libraries = await call(tree, { url: `/libraries${query}` });
    expect({ query, ...compiled }).toEqual({ query, ...libraries });
  }
});

test("what the compiler does not cover falls back to the libraries, and says why", async () => {
  @cv.ValidatorConstraint({ name: "even" })
  class Even implements cv.ValidatorConstraintInterface {
    validate(value: unknown) {
      return typeof value === "number" && value % 2 === 0;
    }
  }
  class WithClass {
    @cv.Validate(Even) n!: number;
  }
  const Later = (): PropertyDecorator => (target, propertyName) =>
    cv.registerDecorator({
      name: "later",
      async: true,
      target: target.constructor,
      propertyName: String(propertyName),
      validator: { validate: async () => true },
    });
  class WithAsync {
    @Later() n!: number;
  }
  class WithTransform {
    @Transform(({ value }) => String(value).trim()) @cv.IsString() s!: string;
  }
  class WithExpose {
    @Expose({ name: "full_name" }) @cv.IsString() name!: string;
  }
  class WithPromise {
    @cv.ValidatePromise() @cv.IsInt() n!: number;
  }
  class Child {
    @Transform(({ value }) => value) @cv.IsString() s!: string;
  }
  class WithChild {
    @cv.ValidateNested() @Type(() => Child) child!: Child;
  }
  class WithPlainOnly {
    @cv.IsString() name!: string;
    @Exclude({ toPlainOnly: true }) @cv.IsString() password!: string;
    @Transform(({ value }) => `**${value}`, { toPlainOnly: true }) @cv.IsString() secret!: string;
  }
  expect(compiledStatus(WithClass)).toEqual({ compiled: false, reason: "the constraint class Even on n" });
  expect(compiledStatus(WithAsync)).toEqual({ compiled: false, reason: "the async constraint later on n" });
  expect(compiledStatus(WithTransform)).toEqual({
    compiled: false,
    reason: "@Transform on WithTransform.s (not toPlainOnly)",
  });
  expect(compiledStatus(WithExpose)).toEqual({ compiled: false, reason: "@Expose on WithExpose" });
  expect(compiledStatus(WithPromise)).toEqual({ compiled: false, reason: "promiseValidation on n" });
  expect(compiledStatus(WithChild)).toEqual({ compiled: false, reason: "@Transform on Child.s (not toPlainOnly)" });
  expect(compiledStatus(WithPlainOnly)).toEqual({ compiled: true });
  // and each still answers as the libraries do
  const cases: [new () => object, unknown][] = [
    [WithClass, { n: 3 }],
    [WithAsync, { n: 3 }],
    [WithTransform, { s: "  x " }],
    [WithExpose, { full_name: "A" }],
    [WithChild, { child: { s: 1 } }],
    [WithPlainOnly, { name: "a", password: "p", secret: 2 }],
  ];
  for (const [type, value] of cases) {
    const { compiled, libraries } = await both(app(type), value);
    expect({ type: type.name, ...compiled }).toEqual({ type: type.name, ...libraries });
  }
});

test("a value only class-transformer can build falls back for that request: the same answer", async () => {
  class Loose {
    @cv.IsOptional() @cv.ValidateNested() loose?: object;
  }
  const tree = app(Loose);
  // a nested plain object with its own `constructor` key: class-transformer takes it for the class (and
  // fails, a 500, as before); the compiled validator hands such a value to it
  for (const value of [{ loose: { constructor: "x" } }, { loose: { a: 1 } }, { loose: [1, {}] }]) {
    const compiled = await raw(tree, post("/compiled", value));
    const libraries = await raw(tree, post("/libraries", value));
    expect({ value, ...compiled }).toEqual({ value, ...libraries });
  }
});

test("a 400 carries no stack trace; onError still sees it, and the answer is the same", async () => {
  const seen: unknown[] = [];
  const tree = route("POST /x", async (req) => body(req, Address));
  const response = await inject(tree, post("/x", { city: 1 }), {
    onError: (error) => {
      seen.push(error);
      return undefined;
    },
  });
  expect(response.status).toBe(400);
  expect(JSON.parse(response.body)).toEqual({
    error: "the body is invalid",
    errors: [
      {
        in: "body",
        field: "city",
        constraint: "isLength",
        message: "city must be longer than or equal to 2 and shorter than or equal to 20 characters",
      },
      { in: "body", field: "city", constraint: "isString", message: "city must be a string" },
    ],
  });
  expect(seen).toHaveLength(1);
  const error = seen[0] as HttpError;
  expect(error).toBeInstanceOf(HttpError);
  expect(error.stack).toBe("HttpError: the body is invalid");
  // an app's own errors keep theirs
  expect(new HttpError(400, "mine").stack).toMatch(/\n\s+at /);
  expect(new HttpError(500).stack).toMatch(/\n\s+at /);
});

test("a compiled DTO's 400 is a rejection, not a throw, and no unhandled one on the way", async () => {
  const unhandled: unknown[] = [];
  const note = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", note);
  try {
    const validator = registeredDtoValidator(Address);
    let outcome: unknown;
    expect(() => {
      outcome = validator.validate(Address, { city: "x" }, "body", {});
    }).not.toThrow();
    const error = await Promise.resolve(outcome).catch((reason: unknown) => reason);
    expect(fieldErrorsOf(error)?.map((e) => e.constraint)).toEqual(["isLength"]);
    // the same through body() and inject, awaited a tick later
    const tree = route("POST /x", async (req) => body(req, Address));
    expect((await inject(tree, post("/x", { city: "x" }))).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(unhandled).toEqual([]);
  } finally {
    process.off("unhandledRejection", note);
  }
});
