import "reflect-metadata";
import { plainToInstance, Type } from "class-transformer";
import * as cv from "class-validator";
import fc from "fast-check";
import { compiledStatus, type Failure, FALLBACK, validateCompiled } from "../decorators/compiled-dto/index.js";

/*
 * The oracle: for random DTO classes — random sets of class-validator decorators with random arguments
 * and options (`each`, messages with tokens, groups, `always`, `validateIf`), optional and conditional
 * properties, nested classes through `@ValidateNested()` + `@Type`, arrays, a base class, field
 * initialisers — and random JSON values (right, wrong, missing, extra, null, arrays, numbers as strings,
 * unicode, long strings, `__proto__`/`constructor`/`toString` keys), the compiled validator decides as
 * `plainToInstance` + class-validator's `validate` do (the options `body()` passes): the same failing
 * fields, constraints and messages, in the same order, and on success an instance of the same classes
 * with the same properties.
 */

type Decorate = (options: cv.ValidationOptions) => PropertyDecorator;

enum Colour {
  Red = "red",
  Green = "green",
}

const strings = fc.constantFrom(
  "",
  " ",
  "a",
  "abc",
  "Hello",
  "hello world",
  "a@b.co",
  "not an email",
  "12",
  "-3.5",
  "1e3",
  "true",
  "red",
  "https://example.org/x",
  "example",
  "skip",
  "f47ac10b-58cc-4372-a567-0e02b2c3d479",
  "F47AC10B-58CC-1372-A567-0E02B2C3D479",
  "2024-02-29",
  "2024-02-30T10:00:00Z",
  "日本語",
  "😀😀😀",
  "x".repeat(5000),
);

/** A constraint decorator with random arguments (the ones the compiler runs through their own validate). */
const constraint: fc.Arbitrary<[string, Decorate]> = fc.oneof(
  fc.constant<[string, Decorate]>(["IsString", (o) => cv.IsString(o)]),
  fc.constant<[string, Decorate]>(["IsBoolean", (o) => cv.IsBoolean(o)]),
  fc.constant<[string, Decorate]>(["IsInt", (o) => cv.IsInt(o)]),
  fc
    .record({ allowNaN: fc.boolean(), maxDecimalPlaces: fc.option(fc.nat(3), { nil: undefined }) })
    .map((n): [string, Decorate] => [`IsNumber(${JSON.stringify(n)})`, (o) => cv.IsNumber({ ...n }, o)]),
  fc.constant<[string, Decorate]>(["IsArray", (o) => cv.IsArray(o)]),
  fc.constant<[string, Decorate]>(["IsObject", (o) => cv.IsObject(o)]),
  fc.constant<[string, Decorate]>(["IsNotEmpty", (o) => cv.IsNotEmpty(o)]),
  fc.constant<[string, Decorate]>(["IsDefined", (o) => cv.IsDefined(o)]),
  fc.constant<[string, Decorate]>(["IsPositive", (o) => cv.IsPositive(o)]),
  fc
    .tuple(fc.nat(4), fc.option(fc.nat(6), { nil: undefined }))
    .map(([a, b]): [string, Decorate] => [`Length(${a}, ${b})`, (o) => cv.Length(a, b, o)]),
  fc.nat(4).map((n): [string, Decorate] => [`MinLength(${n})`, (o) => cv.MinLength(n, o)]),
  fc.nat(4).map((n): [string, Decorate] => [`MaxLength(${n})`, (o) => cv.MaxLength(n, o)]),
  fc.integer({ min: -3, max: 20 }).map((n): [string, Decorate] => [`Min(${n})`, (o) => cv.Min(n, o)]),
  fc.integer({ min: -3, max: 20 }).map((n): [string, Decorate] => [`Max(${n})`, (o) => cv.Max(n, o)]),
  fc.constant<[string, Decorate]>(["IsEmail", (o) => cv.IsEmail({}, o)]),
  fc
    .constantFrom<cv.IsUUIDVersion[]>("4", "all", "1")
    .map((v): [string, Decorate] => [`IsUUID(${v})`, (o) => cv.IsUUID(v, o)]),
  fc.constant<[string, Decorate]>(["IsUrl", (o) => cv.IsUrl(undefined, o)]),
  fc.constant<[string, Decorate]>(["Matches", (o) => cv.Matches(/^[a-z]+$/i, o)]),
  fc.constant<[string, Decorate]>(["IsIn", (o) => cv.IsIn(["red", 12, true], o)]),
  fc.constant<[string, Decorate]>(["IsEnum", (o) => cv.IsEnum(Colour, o)]),
  fc.constant<[string, Decorate]>(["IsNumberString", (o) => cv.IsNumberString({}, o)]),
  fc.constant<[string, Decorate]>(["IsDateString", (o) => cv.IsDateString({}, o)]),
  fc.nat(3).map((n): [string, Decorate] => [`ArrayMinSize(${n})`, (o) => cv.ArrayMinSize(n, o)]),
  fc.nat(3).map((n): [string, Decorate] => [`ArrayMaxSize(${n})`, (o) => cv.ArrayMaxSize(n, o)]),
  fc.constant<[string, Decorate]>(["Equals", (o) => cv.Equals("abc", o)]),
);

/** Options every decorator may take: `each`, a message with tokens, groups (with or without `always`). */
const options: fc.Arbitrary<cv.ValidationOptions> = fc.record(
  {
    each: fc.boolean(),
    message: fc.constantFrom(
      "$property is $value, not $constraint1 ($target)",
      "bad",
      "$constraint2 $value$value",
      "$target: $property ($constraint1)",
    ),
    groups: fc.constant(["admin"]),
    always: fc.boolean(),
    validateIf: fc.constant((_object: object, value: unknown) => value !== "skip"),
  },
  { requiredKeys: [] },
);

const NAMES = ["a", "b", "c", "d"] as const;

interface PropertySpec {
  readonly name: string;
  readonly constraints: readonly [string, Decorate, cv.ValidationOptions][];
  readonly optional: "no" | "IsOptional" | "ValidateIf";
  readonly nested: "no" | "one" | "each";
  readonly allow: boolean;
  readonly initial: unknown;
}

interface ClassSpec {
  readonly properties: readonly PropertySpec[];
  readonly child: ClassSpec | undefined;
  readonly base: ClassSpec | undefined;
}

const property = (name: string, nested: boolean): fc.Arbitrary<PropertySpec> =>
  fc.record({
    name: fc.constant(name),
    constraints: fc.array(
      fc.tuple(constraint, options).map(([[label, make], o]) => [label, make, o] as const),
      {
        maxLength: 3,
      },
    ),
    optional: fc.constantFrom("no", "IsOptional", "ValidateIf"),
    nested: nested ? fc.constantFrom("no", "one", "each") : fc.constant("no"),
    allow: fc.boolean(),
    initial: fc.constantFrom(undefined, undefined, "default", 7, [] as unknown[]),
  });

const classSpec = (depth: number): fc.Arbitrary<ClassSpec> =>
  fc.record({
    properties: fc
      .subarray([...NAMES], { minLength: 1 })
      .chain((names) => fc.tuple(...names.map((n) => property(n, depth > 0)))),
    child: depth > 0 ? fc.option(classSpec(depth - 1), { nil: undefined }) : fc.constant(undefined),
    base: depth > 0 ? fc.option(classSpec(0), { nil: undefined }) : fc.constant(undefined),
  });

let classes = 0;

/** Builds the class a spec describes, applying the decorators as the compiled TypeScript would. */
function build(spec: ClassSpec): Function {
  const base = spec.base === undefined ? undefined : build(spec.base);
  const child = spec.child === undefined ? undefined : build(spec.child);
  const initials = spec.properties.filter((p) => p.initial !== undefined);
  const Base = (base ?? class {}) as new () => object;
  const Dto = class extends Base {
    constructor() {
      super();
      for (const p of initials)
        (this as Record<string, unknown>)[p.name] = Array.isArray(p.initial) ? [...p.initial] : p.initial;
    }
  };
  // each class a name of its own, as `$target` and `targetName` tell them apart
  Object.defineProperty(Dto, "name", { value: `Dto${++classes}` });
  for (const p of spec.properties) {
    const decorators: PropertyDecorator[] = [];
    if (p.optional === "IsOptional") decorators.push(cv.IsOptional());
    if (p.optional === "ValidateIf") decorators.push(cv.ValidateIf((object) => (object as { a?: unknown }).a !== null));
    if (p.allow) decorators.push(cv.Allow());
    for (const [, make, o] of p.constraints) decorators.push(make({ ...o }));
    if (p.nested !== "no" && child !== undefined) {
      // what tsc records for `items!: Child[]` and `item!: Child`, which @Type reads
      Reflect.defineMetadata("design:type", p.nested === "each" ? Array : child, Dto.prototype, p.name);
      decorators.push(cv.ValidateNested({ each: p.nested === "each" }));
      decorators.push(Type(() => child));
    }
    for (const decorate of decorators.reverse()) decorate(Dto.prototype, p.name);
  }
  return Dto;
}

/** JSON values of every kind, with objects keyed by the DTOs' names and a few awkward ones. */
const { object: jsonObject } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    strings,
    fc.string({ unit: "grapheme", maxLength: 8 }),
    fc.integer({ min: -5, max: 50 }),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -100, max: 100 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    tie("object"),
  ),
  object: fc
    .array(fc.tuple(fc.constantFrom(...NAMES, "x", "toString", "__proto__", "hasOwnProperty"), tie("value")), {
      maxLength: 5,
    })
    .map((entries) => Object.fromEntries(entries)),
}));

function flat(failures: readonly Failure[], parent: string): [string, string, string][] {
  return failures.flatMap((f) => {
    const field = [parent, typeof f.property === "string" ? f.property : ""].filter((s) => s !== "").join(".");
    const own = Object.entries(f.constraints ?? {}).map(([c, m]): [string, string, string] => [field, c, m]);
    return [...own, ...flat(f.children ?? [], field)];
  });
}

/** An instance as data: each object's class name and own properties, recursively. */
function shape(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(shape);
  return {
    class: (value as object).constructor?.name,
    own: Object.entries(value).map(([k, v]) => [k, shape(v)]),
  };
}

async function outcomeOf<T>(run: () => Promise<T>): Promise<{ value: T } | { thrown: string }> {
  try {
    return { value: await run() };
  } catch (error) {
    return { thrown: String(error) };
  }
}

test("the compiled validator decides, reports and builds as class-transformer + class-validator do", async () => {
  let compared = 0;
  let failing = 0;
  await fc.assert(
    fc.asyncProperty(
      classSpec(2),
      jsonObject,
      fc.constantFrom(
        { whitelist: false, forbidNonWhitelisted: false },
        { whitelist: true, forbidNonWhitelisted: false },
        { whitelist: true, forbidNonWhitelisted: true },
      ),
      async (spec, input, runOptions) => {
        const Dto = build(spec);
        // nested objects holding a `constructor` key make class-transformer throw: left to it
        const text = JSON.stringify(input);
        expect(compiledStatus(Dto)).toEqual({ compiled: true });
        const expected = plainToInstance(Dto as new () => object, JSON.parse(text) as object);
        const failures = await outcomeOf(() =>
          cv.validate(expected, {
            ...runOptions,
            forbidUnknownValues: true,
            validationError: { target: false, value: false },
          }),
        );
        const outcome = await outcomeOf(async () => validateCompiled(Dto, JSON.parse(text) as object, runOptions));
        if ("thrown" in failures || "thrown" in outcome) {
          // a constraint that throws (class-validator formatting a constraint it cannot print) throws alike
          expect(outcome).toEqual(failures);
          return;
        }
        expect(outcome.value).not.toBe(FALLBACK);
        if (outcome.value === FALLBACK) return;
        compared++;
        expect(flat(outcome.value.failures, "")).toEqual(flat(failures.value as Failure[], ""));
        if (failures.value.length > 0) failing++;
        else expect(shape(outcome.value.instance)).toEqual(shape(expected));
      },
    ),
    { numRuns: Number(process.env.DTO_RUNS ?? 400) },
  );
  // both outcomes are exercised, not only one
  expect(failing).toBeGreaterThan(compared / 10);
  expect(compared - failing).toBeGreaterThanOrEqual(5);
}, 120_000);
