import "reflect-metadata";
import { compileErrors, validate } from "@readme/openapi-parser";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { Type } from "class-transformer";
import {
  Allow,
  ArrayMinSize,
  Equals,
  IsArray,
  IsDefined,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from "class-validator";
import * as v from "valibot";
import { z } from "zod";
import {
  alt,
  described,
  type HandlerInput,
  inject,
  openapi,
  type OpenApiDocument,
  type OpenApiObject,
  route,
  Text,
} from "../src";
import { Body, controllers, Match, Route } from "../decorators";
import { loadArktype } from "./helpers/arktype";

// arktype ships ES modules only: the helper loads a CommonJS copy of it
const { type } = loadArktype();

/*
 * Schemas in the document: Standard JSON Schema values of zod 4, valibot 1 (through
 * @valibot/to-json-schema) and arktype 2, plain JSON Schema, and class-validator DTO classes; their
 * definitions as shared components, named schemas as components of their own.
 */

const info = { title: "Schemas", version: "1.0.0" };
const ok = () => "ok";

async function expectValid(document: OpenApiDocument): Promise<void> {
  const result = await validate(structuredClone(document) as never);
  if (!result.valid) throw new Error(compileErrors(result));
}

function bodyOf(document: OpenApiDocument, path = "/x"): unknown {
  const post = document.paths[path]!.post as { requestBody: { content: Record<string, { schema: unknown }> } };
  return post.requestBody.content["application/json"]!.schema;
}

const schemas = (document: OpenApiDocument) => (document.components?.schemas ?? {}) as Record<string, OpenApiObject>;

/** The app's schemas: the components but the router's error bodies. */
const ownSchemas = (document: OpenApiDocument) =>
  Object.fromEntries(
    Object.entries(schemas(document)).filter(([name]) => !["Error", "FieldError", "ValidationError"].includes(name)),
  );

function withBody(input: Omit<Extract<HandlerInput, { in: "body" }>, "in">, path = "/x") {
  return route(
    `POST ${path}`,
    described(ok, { name: `post${path.replace(/\W/g, "")}`, inputs: [{ in: "body", ...input }] }),
  );
}

describe("Standard JSON Schema: what zod, valibot and arktype offer", () => {
  test("zod 4: ~standard.jsonSchema, the input side for a body, the output side for a reply", async () => {
    const Item = z.object({ name: z.string().min(1), qty: z.number().int().default(1) });
    const tree = route(
      "POST /x",
      described(ok, {
        name: "add",
        inputs: [{ in: "body", schema: Item }],
        responses: { 200: { description: "the item", schema: Item } },
      }),
    );
    const document = openapi(tree, { info });
    await expectValid(document);
    // a default: the body may leave qty out, the reply always has it
    expect(bodyOf(document)).toEqual({
      type: "object",
      properties: {
        name: { type: "string", minLength: 1 },
        qty: { type: "integer", default: 1, minimum: expect.any(Number), maximum: expect.any(Number) },
      },
      required: ["name"],
    });
    const reply = (document.paths["/x"]!.post as { responses: Record<string, OpenApiObject> }).responses["200"]!;
    expect(reply.content).toMatchObject({ "application/json": { schema: { required: ["name", "qty"] } } });
    expect(JSON.stringify(document)).not.toContain("$schema");
  });

  test("zod ids become components; a recursive schema refers to its own component", async () => {
    const Address = z.object({ city: z.string() }).meta({ id: "Address" });
    interface Node {
      readonly name: string;
      readonly children: Node[];
    }
    const Tree: z.ZodType<Node> = z.object({
      name: z.string(),
      get children() {
        return z.array(Tree);
      },
    });
    const document = openapi(
      alt(
        withBody({ schema: z.object({ home: Address, work: Address }) }),
        withBody({ type: "Tree", schema: Tree }, "/tree"),
      ),
      { info },
    );
    await expectValid(document);
    expect(bodyOf(document)).toEqual({
      type: "object",
      properties: { home: { $ref: "#/components/schemas/Address" }, work: { $ref: "#/components/schemas/Address" } },
      required: ["home", "work"],
    });
    expect(schemas(document).Address).toEqual({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    });
    expect(bodyOf(document, "/tree")).toEqual({ $ref: "#/components/schemas/Tree" });
    expect(schemas(document).Tree).toMatchObject({
      properties: { children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } },
    });
  });

  test("valibot: through toStandardJsonSchema; a bare valibot schema is noted, not guessed", async () => {
    const Item = v.object({ name: v.pipe(v.string(), v.minLength(2)) });
    const document = openapi(
      alt(withBody({ schema: toStandardJsonSchema(Item) }), withBody({ schema: Item as never }, "/bare")),
      { info },
    );
    await expectValid(document);
    expect(bodyOf(document)).toEqual({
      type: "object",
      properties: { name: { type: "string", minLength: 2 } },
      required: ["name"],
    });
    expect(bodyOf(document, "/bare")).toEqual({});
    expect((document.paths["/bare"]!.post as OpenApiObject).requestBody).toMatchObject({
      "x-switchyard-note": expect.stringMatching(/toStandardJsonSchema from @valibot\/to-json-schema/),
    });
  });

  test("arktype 2: its own ~standard.jsonSchema", async () => {
    const document = openapi(
      withBody({ type: "Item", schema: type({ name: "string >= 2", "qty?": "number.integer" }) }),
      {
        info,
      },
    );
    await expectValid(document);
    expect(bodyOf(document)).toEqual({ $ref: "#/components/schemas/Item" });
    expect(schemas(document).Item).toEqual({
      type: "object",
      properties: { name: { type: "string", minLength: 2 }, qty: { type: "integer" } },
      required: ["name"],
    });
  });

  test("query, header and cookie values with a schema; the whole query as one object", async () => {
    const tree = route(
      "GET /q",
      described(ok, {
        name: "q",
        inputs: [
          { in: "query", name: "page", parser: Text, required: false, schema: z.coerce.number().int().min(1) },
          {
            in: "queryObject",
            schema: z.object({ sort: z.enum(["asc", "desc"]), tag: z.array(z.string()).optional() }),
          },
        ],
      }),
    );
    const document = openapi(tree, { info });
    await expectValid(document);
    expect((document.paths["/q"]!.get as OpenApiObject).parameters).toEqual([
      { name: "page", in: "query", required: false, schema: expect.objectContaining({ type: "integer", minimum: 1 }) },
      { name: "sort", in: "query", required: true, schema: { type: "string", enum: ["asc", "desc"] } },
      { name: "tag", in: "query", required: false, schema: { type: "array", items: { type: "string" } } },
    ]);
  });
});

describe("plain JSON Schema: definitions become components, names stay apart", () => {
  test("$defs and definitions hoisted, references rewritten, $id and $schema dropped", async () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      $id: "https://example.com/order",
      type: "object",
      properties: { line: { $ref: "#/definitions/Line" }, note: { $ref: "#/$defs/Note" } },
      definitions: {
        Line: { type: "object", properties: { qty: { type: "integer" }, note: { $ref: "#/$defs/Note" } } },
      },
      $defs: { Note: { type: "string", default: "none" } },
    };
    const document = openapi(withBody({ schema }), { info });
    await expectValid(document);
    expect(bodyOf(document)).toEqual({
      type: "object",
      properties: { line: { $ref: "#/components/schemas/Line" }, note: { $ref: "#/components/schemas/Note" } },
    });
    expect(ownSchemas(document)).toEqual({
      Line: { type: "object", properties: { qty: { type: "integer" }, note: { $ref: "#/components/schemas/Note" } } },
      Note: { type: "string", default: "none" },
    });
  });

  test("one name, two different schemas: Name and Name_2; the same schema twice: one component", async () => {
    const one = { $defs: { Item: { type: "string" } }, $ref: "#/$defs/Item" };
    const other = { $defs: { Item: { type: "integer" } }, $ref: "#/$defs/Item" };
    const document = openapi(
      alt(withBody({ schema: one }, "/a"), withBody({ schema: other }, "/b"), withBody({ schema: { ...one } }, "/c")),
      { info },
    );
    await expectValid(document);
    expect([bodyOf(document, "/a"), bodyOf(document, "/b"), bodyOf(document, "/c")]).toEqual([
      { $ref: "#/components/schemas/Item" },
      { $ref: "#/components/schemas/Item_2" },
      { $ref: "#/components/schemas/Item" },
    ]);
    expect(ownSchemas(document)).toEqual({ Item: { type: "string" }, Item_2: { type: "integer" } });
  });
});

describe("class-validator DTO classes", () => {
  class Address {
    @IsString()
    city!: string;
  }
  enum Colour {
    Red = "red",
    Blue = "blue",
  }
  enum Level {
    Low = 1,
    High = 2,
  }
  class Line {
    @IsInt()
    @Min(1)
    @Max(99)
    qty!: number;
  }
  class Order {
    @IsString()
    @Matches(/^[A-Z]{2}\d+$/)
    code!: string;

    @Matches(/^x/i)
    caseless!: string;

    @IsOptional()
    @IsEmail()
    email?: string | null;

    @ValidateNested()
    @Type(() => Address)
    address!: Address;

    @IsOptional()
    @ValidateNested()
    @Type(() => Address)
    billing?: Address;

    @IsArray()
    @ArrayMinSize(1)
    @ValidateNested({ each: true })
    @Type(() => Line)
    lines!: Line[];

    @IsString({ each: true })
    tags!: string[];

    @IsEnum(Colour)
    colour!: Colour;

    @IsEnum(Level)
    level!: Level;

    @IsIn(["a", "b"])
    kind!: string;

    @Equals(2)
    version!: number;

    @ValidateIf((o: Order) => o.kind === "a")
    @IsString()
    extra?: string;

    @IsDefined()
    defined!: unknown;

    @Allow()
    anything?: unknown;
  }

  @Match("/orders")
  class Orders {
    @Route("POST /")
    create(@Body(Order) _order: Order) {
      return "ok";
    }
    @Route("POST /strict")
    strict(@Body(Order, { forbidNonWhitelisted: true }) _order: Order) {
      return "ok";
    }
  }

  test("each constraint as JSON Schema says it; required exactly when class-validator refuses the property missing", async () => {
    const document = openapi(controllers([Orders]), { info });
    await expectValid(document);
    expect(bodyOf(document, "/orders")).toEqual({ $ref: "#/components/schemas/Order" });
    expect(schemas(document).Order).toEqual({
      type: "object",
      properties: {
        code: { type: "string", pattern: "^[A-Z]{2}\\d+$" },
        // a flag JSON Schema cannot state: no pattern rather than a stricter one
        caseless: { type: "string" },
        email: { anyOf: [{ type: "string", format: "email" }, { type: "null" }] },
        address: { $ref: "#/components/schemas/Address" },
        billing: { anyOf: [{ $ref: "#/components/schemas/Address" }, { type: "null" }] },
        lines: { type: "array", minItems: 1, items: { $ref: "#/components/schemas/Line" } },
        tags: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "string" }] },
        colour: { enum: ["red", "blue"] },
        level: { enum: [1, 2] },
        kind: { enum: ["a", "b"] },
        version: { const: 2 },
        extra: {},
        defined: {},
        anything: {},
      },
      required: ["code", "caseless", "lines", "tags", "colour", "level", "kind", "version", "defined"],
    });
    expect(schemas(document).Address).toEqual({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    });
    expect(schemas(document).Line).toEqual({
      type: "object",
      properties: { qty: { type: "integer", minimum: 1, maximum: 99 } },
      required: ["qty"],
    });
  });

  test("forbidNonWhitelisted: every class of the body closed, as components of their own", async () => {
    const document = openapi(controllers([Orders]), { info });
    expect(bodyOf(document, "/orders/strict")).toEqual({ $ref: "#/components/schemas/Order_2" });
    expect(schemas(document).Order_2).toMatchObject({
      additionalProperties: false,
      properties: { address: { $ref: "#/components/schemas/Address_2" } },
    });
    expect(schemas(document).Address_2).toMatchObject({ additionalProperties: false });
  });

  test("what the document requires, the route requires: a body the document accepts passes, each missing required property is a 400", async () => {
    const tree = controllers([Orders]);
    const valid = {
      code: "AB1",
      caseless: "X",
      address: { city: "Oslo" },
      lines: [{ qty: 2 }],
      tags: ["t"],
      colour: "red",
      level: 1,
      kind: "b",
      version: 2,
      defined: 0,
    };
    const post = (body: object) => inject(tree, { method: "POST", url: "/orders", body: JSON.stringify(body) });
    expect((await post(valid)).status).toBe(200);
    expect((await post({ ...valid, email: null, billing: null })).status).toBe(200);
    const required = schemas(openapi(tree, { info })).Order!.required as string[];
    for (const key of Object.keys(valid)) {
      const { [key]: _left, ...rest } = valid as Record<string, unknown>;
      expect({ key, status: (await post(rest)).status }).toEqual({ key, status: required.includes(key) ? 400 : 200 });
    }
  });

  test("a DTO class as a reply's schema, and [Dto] for an array of them, in functional routes too", async () => {
    const document = openapi(
      route(
        "GET /lines",
        described(ok, { name: "lines", responses: { 200: { description: "lines", schema: [Line] } } }),
      ),
      { info },
    );
    await expectValid(document);
    expect((document.paths["/lines"]!.get as { responses: Record<string, OpenApiObject> }).responses["200"]).toEqual({
      description: "lines",
      content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Line" } } } },
    });
  });
});
