import "reflect-metadata";
import { compileErrors, validate } from "@readme/openapi-parser";
import { Type } from "class-transformer";
import { Equals, IsDefined, IsInt, IsOptional, IsString, Max, Min, MinLength, ValidateNested } from "class-validator";
import * as v from "valibot";
import { z } from "zod";
import { Body, controllers, Form, FormField, Query, Route } from "../decorators";
import {
  alt,
  type FormFile,
  formField,
  formFields,
  formObject,
  formRecord,
  type InjectRequest,
  Int,
  inject,
  type OpenApiObject,
  openapi,
  queryParam,
  readParamsAsync,
  route,
  type StandardSchema,
  type Route as Tree,
} from "../src";
import { multipartBody, multipartType } from "./fixtures/forms-body";
import { loadArktype } from "./helpers/arktype";
import { expectControllerError } from "./helpers/decorators";

/*
 * Form fields read with a Standard Schema (formField, formFields, @FormField) and the whole form as one
 * object (formObject, @Form), with zod, valibot, arktype and a class-validator DTO: the decorated and
 * functional forms answer alike, and every 400 is compared whole.
 */

/** The same form schemas in each library. */
interface FormKit {
  readonly name: string;
  /** A field: an integer ≥ 1 from a string. */
  readonly count: StandardSchema;
  /** A repeated field: at most 2 values, each of 2 characters or more. */
  readonly tags: StandardSchema;
  /**
   * The whole form: `title` ≥ 3 characters, `count` as above, `tag` strings of 2+ characters (none:
   * absent or `[]`), `avatar` a PNG file of at most 100 bytes.
   */
  readonly upload: StandardSchema | (new () => object);
}

function zodKit(): FormKit {
  const count = z.coerce.number().int().min(1);
  return {
    name: "zod",
    count,
    tags: z.array(z.string().min(2)).max(2),
    upload: z.object({
      title: z.string().min(3),
      count,
      tag: z.array(z.string().min(2)).default([]),
      avatar: z.file().max(100).mime(["image/png"]),
    }),
  };
}

function valibotKit(): FormKit {
  const count = v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1));
  return {
    name: "valibot",
    count,
    tags: v.pipe(v.array(v.pipe(v.string(), v.minLength(2))), v.maxLength(2)),
    upload: v.object({
      title: v.pipe(v.string(), v.minLength(3)),
      count,
      tag: v.optional(v.array(v.pipe(v.string(), v.minLength(2))), []),
      avatar: v.pipe(v.file(), v.maxSize(100), v.mimeType(["image/png"])),
    }),
  };
}

function arktypeKit(): FormKit {
  const { type } = loadArktype();
  const count = type("string.integer.parse").to("number >= 1");
  return {
    name: "arktype",
    count,
    tags: type("string >= 2").array().atMostLength(2),
    upload: type({
      title: "string >= 3",
      count,
      tag: type("string >= 2")
        .array()
        .default(() => []),
      avatar: type("File").narrow(
        (file, ctx) => (file.size <= 100 && file.type === "image/png") || ctx.mustBe("a PNG file of 100 bytes at most"),
      ),
    }),
  };
}

/** What a DTO checks of a file: its description (`{ field, name, type, size }`). */
class Png {
  @Equals("image/png") type!: string;
  @Max(100) size!: number;
}

class UploadForm {
  @IsString() @MinLength(3) title!: string;
  @Type(() => Number) @IsInt() @Min(1) count!: number;
  @IsOptional() @IsString({ each: true }) @MinLength(2, { each: true }) tag?: string[];
  @IsDefined() @ValidateNested() @Type(() => Png) avatar!: FormFile;
}

/** The class-validator kit: only the whole form (a field takes a parser or a schema). */
function dtoKit(): FormKit {
  const { count, tags } = zodKit();
  return { name: "class-validator", count, tags, upload: UploadForm };
}

const KITS = [zodKit(), valibotKit(), arktypeKit(), dtoKit()];

/** What a handler answers for the whole form: the values, and each file described. */
async function described(form: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) {
    const file = value as Partial<FormFile> | undefined;
    out[key] =
      file?.kind === "file"
        ? {
            file: file.name,
            type: file.type,
            size: file.size,
            text: await file.text!(),
            field: file.field,
            // a schema gets a Web File; a DTO's instance gets the FormFile req.form() read
            web: value instanceof File,
          }
        : value;
  }
  return out;
}

function functionalApp(kit: FormKit): Tree {
  return alt(
    route("POST /count", async (req) => ({ count: await formField(await req.form(), "count", kit.count) })),
    route("POST /optional", async (req) => ({
      count: (await formField(await req.form(), "count", kit.count, { optional: true })) ?? null,
    })),
    route("POST /tags", async (req) => ({ tags: await formFields(await req.form(), "tag", kit.tags) })),
    route("POST /with-query", async (req) => {
      const [page, count] = await readParamsAsync(req, [
        (r) => queryParam(r, "page", Int),
        async () => formField(await req.form(), "count", kit.count),
      ]);
      return { page, count };
    }),
    route("POST /upload", async (req) =>
      described((await formObject(req, kit.upload as StandardSchema)) as Record<string, unknown>),
    ),
  );
}

function decoratedApp(kit: FormKit): Tree {
  class Forms {
    @Route("POST /count")
    count(@FormField("count", kit.count) count: number) {
      return { count };
    }

    @Route("POST /optional")
    optional(@FormField("count", kit.count, { optional: true }) count: number | undefined) {
      return { count: count ?? null };
    }

    @Route("POST /with-query")
    withQuery(@Query("page", Int) page: number, @FormField("count", kit.count) count: number) {
      return { page, count };
    }

    @Route("POST /upload")
    upload(@Form(kit.upload) form: Record<string, unknown>) {
      return described(form);
    }
  }
  return alt(controllers([Forms]));
}

const PNG = "\u0089PNG tiny";

function multipart(url: string, ...parts: Parameters<typeof multipartBody>[0]): InjectRequest {
  return { method: "POST", url, headers: { "content-type": multipartType() }, body: multipartBody(parts) };
}

function urlencoded(url: string, body: string): InjectRequest {
  return { method: "POST", url, headers: { "content-type": "application/x-www-form-urlencoded" }, body };
}

/** The answer of both apps, which must agree. */
async function both(kit: FormKit, request: InjectRequest) {
  const [f, d] = [await inject(functionalApp(kit), request), await inject(decoratedApp(kit), request)];
  expect({ status: d.status, body: d.body }).toEqual({ status: f.status, body: f.body });
  return { status: f.status, json: JSON.parse(f.body) as unknown };
}

/** A 400 whose failing fields are `errors`: the message is the readers' messages joined. */
function badRequest(error: string, errors: readonly object[]) {
  return { status: 400, json: { error, errors } };
}

const goodUpload = [
  { field: "title", value: "Holidays" },
  { field: "count", value: "3" },
  { field: "tag", value: "ab" },
  { field: "tag", value: "cd" },
  { file: "avatar", filename: "me.png", type: "image/png", content: PNG },
] as const;

const goodAnswer = {
  title: "Holidays",
  count: 3,
  tag: ["ab", "cd"],
  avatar: {
    file: "me.png",
    type: "image/png",
    size: new TextEncoder().encode(PNG).byteLength,
    text: PNG,
    field: "avatar",
  },
};

describe.each(KITS.filter((kit) => kit.name !== "class-validator"))("a form field read with a $name schema", (kit) => {
  test("a valid value: the schema's output", async () => {
    expect(await both(kit, multipart("/count", { field: "count", value: "7" }))).toEqual({
      status: 200,
      json: { count: 7 },
    });
    expect(await both(kit, urlencoded("/count", "count=12"))).toEqual({ status: 200, json: { count: 12 } });
  });

  test("an invalid value: the 400 listing the schema's issue under the field, in the body", async () => {
    const answer = await both(kit, urlencoded("/count", "count=0"));
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(
      badRequest('the form field "count" is invalid', [
        { in: "body", field: "count", constraint: CONSTRAINT[kit.name]!.min, message: MESSAGE[kit.name]!.min },
      ]).json,
    );
  });

  test("a field not sent: the 'required' 400, or undefined when optional", async () => {
    expect(await both(kit, urlencoded("/count", "other=1"))).toEqual(
      badRequest('the form field "count" is required', [
        {
          in: "body",
          field: "count",
          constraint: "required",
          message: 'the form field "count" is required',
        },
      ]),
    );
    expect(await both(kit, urlencoded("/optional", "other=1"))).toEqual({ status: 200, json: { count: null } });
  });

  test("a bad field and a bad query value in one 400", async () => {
    expect(await both(kit, urlencoded("/with-query?page=x", "count=0"))).toEqual(
      badRequest('the query parameter "page" is not a valid Int; the form field "count" is invalid', [
        { in: "query", field: "page", constraint: "Int", message: '"x" is not a valid Int' },
        { in: "body", field: "count", constraint: CONSTRAINT[kit.name]!.min, message: MESSAGE[kit.name]!.min },
      ]),
    );
  });

  test("a repeated field: the schema gets every value, an issue names the value's index", async () => {
    const app = functionalApp(kit);
    const ok = await inject(app, urlencoded("/tags", "tag=ab&tag=cd"));
    expect(JSON.parse(ok.body)).toEqual({ tags: ["ab", "cd"] });
    const none = await inject(app, urlencoded("/tags", "x=1"));
    expect(JSON.parse(none.body)).toEqual({ tags: [] });
    const bad = await inject(app, urlencoded("/tags", "tag=ab&tag=c"));
    expect({ status: bad.status, json: JSON.parse(bad.body) }).toEqual(
      badRequest('the form field "tag" is invalid', [
        { in: "body", field: "tag.1", constraint: CONSTRAINT[kit.name]!.short, message: MESSAGE[kit.name]!.short },
      ]),
    );
  });
});

describe("a form field with an asynchronous schema", () => {
  test("is awaited, and its failure is the same 400", async () => {
    const taken = z.string().refine(async (name) => name !== "taken", "that name is taken");
    const app = route("POST /name", async (req) => ({ name: await formField(await req.form(), "name", taken) }));
    expect(JSON.parse((await inject(app, urlencoded("/name", "name=free"))).body)).toEqual({ name: "free" });
    const bad = await inject(app, urlencoded("/name", "name=taken"));
    expect({ status: bad.status, json: JSON.parse(bad.body) }).toEqual(
      badRequest('the form field "name" is invalid', [
        { in: "body", field: "name", constraint: "custom", message: "that name is taken" },
      ]),
    );
  });
});

describe.each(KITS)("the whole form as one object, with $name", (kit) => {
  test("fields as strings the schema converts, a repeated name as an array, the file as itself", async () => {
    const web = kit.name !== "class-validator";
    expect(await both(kit, multipart("/upload", ...goodUpload))).toEqual({
      status: 200,
      json: { ...goodAnswer, avatar: { ...goodAnswer.avatar, web } },
    });
  });

  test("every failing field, the file included, in one 400 with its path", async () => {
    const answer = await both(
      kit,
      multipart(
        "/upload",
        { field: "title", value: "ab" },
        { field: "count", value: "0" },
        { field: "tag", value: "ok" },
        { field: "tag", value: "x" },
        { file: "avatar", filename: "me.txt", type: "text/plain", content: "x".repeat(200) },
      ),
    );
    expect(answer).toEqual(badRequest("the form is invalid", WHOLE_FORM_ERRORS[kit.name]!));
  });

  test("a missing file is a failing field too (an urlencoded form has none)", async () => {
    const answer = await both(kit, urlencoded("/upload", "title=Holidays&count=3"));
    expect(answer).toEqual(badRequest("the form is invalid", MISSING_FILE_ERRORS[kit.name]!));
  });

  test("a body that is no form is a 415", async () => {
    const answer = await both(kit, {
      method: "POST",
      url: "/upload",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(answer.status).toBe(415);
  });
});

describe("the whole form's shape", () => {
  const Shape = z.object({
    docs: z.array(z.file()),
    one: z.array(z.string()),
    mixed: z.array(z.union([z.string(), z.file()])),
  });
  const app = route("POST /shape", async (req) => {
    const form = await formObject(req, Shape, { arrays: ["one"] });
    const show = (v: string | File) => (typeof v === "string" ? v : `file ${v.name}`);
    return {
      docs: form.docs.map(show),
      one: form.one,
      mixed: form.mixed.map(show),
    };
  });

  test("repeated files are an array in order, `arrays` names one sent once, a name's text values come before its files", async () => {
    const answer = await inject(
      app,
      multipart(
        "/shape",
        { file: "docs", filename: "a.txt", content: "a" },
        { field: "one", value: "only" },
        { file: "mixed", filename: "m.bin", content: "m" },
        { field: "mixed", value: "text" },
        { file: "docs", filename: "b.txt", content: "b" },
      ),
    );
    expect(JSON.parse(answer.body)).toEqual({
      docs: ["file a.txt", "file b.txt"],
      one: ["only"],
      mixed: ["text", "file m.bin"],
    });
  });

  test("the record a schema gets has no prototype: `__proto__` is a name like any other", async () => {
    const record = route("POST /record", async (req) => {
      const plain = formRecord(await req.form());
      return {
        own: Object.hasOwn(plain, "__proto__"),
        value: plain.__proto__,
        prototype: Object.getPrototypeOf(plain),
      };
    });
    const answer = await inject(record, urlencoded("/record", "__proto__=just%20a%20name"));
    expect(JSON.parse(answer.body)).toEqual({ own: true, value: "just a name", prototype: null });
  });
});

describe("the whole form with an asynchronous schema", () => {
  test("is awaited, and its failure lists the field", async () => {
    const Signup = z.object({ name: z.string().refine(async (name) => name !== "taken", "that name is taken") });
    const app = route("POST /signup", async (req) => formObject(req, Signup));
    expect(JSON.parse((await inject(app, urlencoded("/signup", "name=free"))).body)).toEqual({ name: "free" });
    const bad = await inject(app, urlencoded("/signup", "name=taken"));
    expect({ status: bad.status, json: JSON.parse(bad.body) }).toEqual(
      badRequest("the form is invalid", [
        { in: "body", field: "name", constraint: "custom", message: "that name is taken" },
      ]),
    );
  });
});

describe("@Form at startup", () => {
  test("@Form beside @Body is TWO_BODIES", () => {
    class Both {
      @Route("POST /x")
      x(@Body(z.object({})) json: object, @Form(z.object({})) form: object) {
        return { json, form };
      }
    }
    const error = expectControllerError(() => controllers([Both]), "TWO_BODIES", "Both", "x");
    expect(error.message).toBe(
      "Both.x: @Body() reads the body as JSON and @Form() reads it as a form; a request has one body: keep one of them",
    );
  });

  test("a declared type nothing validates is PARAM_TYPE, naming @Form", () => {
    class Untyped {
      @Route("POST /x")
      x(@Form() form: object) {
        return form;
      }
    }
    const error = expectControllerError(() => controllers([Untyped]), "PARAM_TYPE", "Untyped", "x");
    expect(error.message).toContain("@Form() on parameter 0 needs a DTO class or a Standard Schema");
    expect(error.message).toContain("@Form(CreateItem)");
  });
});

describe("OpenAPI of a form read with schemas", () => {
  test("@FormField's schema is its property, @Form's schema the body of both form types (a file: multipart only)", async () => {
    class Docs {
      @Route("POST /field")
      field(@FormField("count", z.coerce.number().int().min(1)) count: number) {
        return { count };
      }

      @Route("POST /upload")
      upload(@Form(zodKit().upload) form: object) {
        return form;
      }

      @Route("POST /signup")
      signup(@Form(z.object({ name: z.string(), age: z.string().optional() })) form: object) {
        return form;
      }

      @Route("POST /dto")
      dto(@Form() form: UploadForm) {
        return form.title;
      }
    }
    const document = openapi(alt(controllers([Docs])), { info: { title: "forms", version: "1" } });
    const paths = document.paths as Record<string, Record<string, OpenApiObject>>;
    const body = (path: string) => paths[path]!.post!.requestBody as OpenApiObject;
    expect(body("/field")).toEqual({
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: { count: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
            required: ["count"],
          },
        },
        "application/x-www-form-urlencoded": {
          schema: {
            type: "object",
            properties: { count: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
            required: ["count"],
          },
        },
      },
    });
    const upload = body("/upload").content as Record<string, { schema: OpenApiObject }>;
    expect(Object.keys(upload)).toEqual(["multipart/form-data"]);
    expect((upload["multipart/form-data"]!.schema.properties as OpenApiObject).avatar).toMatchObject({
      type: "string",
      format: "binary",
    });
    expect(Object.keys(body("/signup").content as object)).toEqual([
      "multipart/form-data",
      "application/x-www-form-urlencoded",
    ]);
    // a DTO's schema is its class-validator rules, a component of its own
    const dto = (body("/dto").content as Record<string, { schema: OpenApiObject }>)["multipart/form-data"]!.schema;
    expect(dto).toEqual({ $ref: "#/components/schemas/UploadForm" });
    const component = (document.components as { schemas: Record<string, OpenApiObject> }).schemas.UploadForm!;
    expect(component.required).toEqual(expect.arrayContaining(["title", "count", "avatar"]));
    expect((component.properties as Record<string, OpenApiObject>).title).toEqual({ type: "string", minLength: 3 });
    const result = await validate(structuredClone(document) as never);
    if (!result.valid) throw new Error(compileErrors(result));
  });
});

/** Each library's code and message for the issues the tests provoke. */
const CONSTRAINT: Record<string, { min: string; short: string }> = {
  zod: { min: "too_small", short: "too_small" },
  valibot: { min: "min_value", short: "min_length" },
  arktype: { min: "min", short: "minLength" },
};
const MESSAGE: Record<string, { min: string; short: string }> = {
  zod: { min: "Too small: expected number to be >=1", short: "Too small: expected string to have >=2 characters" },
  valibot: { min: "Invalid value: Expected >=1 but received 0", short: "Invalid length: Expected >=2 but received 1" },
  arktype: { min: "must be at least 1 (was 0)", short: "value at [1] must be at least length 2 (was 1)" },
};

const body = (field: string, constraint: string, message: string) => ({ in: "body", field, constraint, message });

/** The failing fields of the bad whole form (title "ab", count 0, a tag "x", a 200-byte text file), per library. */
const WHOLE_FORM_ERRORS: Record<string, readonly object[]> = {
  zod: [
    body("title", "too_small", "Too small: expected string to have >=3 characters"),
    body("count", "too_small", "Too small: expected number to be >=1"),
    body("tag.1", "too_small", "Too small: expected string to have >=2 characters"),
    body("avatar", "too_big", "Too big: expected file to have <=100 bytes"),
    body("avatar", "invalid_value", 'Invalid input: expected "image/png"'),
  ],
  valibot: [
    body("title", "min_length", "Invalid length: Expected >=3 but received 2"),
    body("count", "min_value", "Invalid value: Expected >=1 but received 0"),
    body("tag.1", "min_length", "Invalid length: Expected >=2 but received 1"),
    body("avatar", "max_size", "Invalid size: Expected <=100 but received 200"),
    body("avatar", "mime_type", 'Invalid MIME type: Expected "image/png" but received "text/plain"'),
  ],
  arktype: [
    body("avatar", "predicate", "avatar must be a PNG file of 100 bytes at most (was File)"),
    body("title", "minLength", "title must be at least length 3 (was 2)"),
    body("tag.1", "minLength", "tag[1] must be at least length 2 (was 1)"),
    body("count", "min", "count must be at least 1 (was 0)"),
  ],
  "class-validator": [
    body("title", "minLength", "title must be longer than or equal to 3 characters"),
    body("count", "min", "count must not be less than 1"),
    body("tag", "minLength", "each value in tag must be longer than or equal to 2 characters"),
    body("avatar.type", "equals", "type must be equal to image/png"),
    body("avatar.size", "max", "size must not be greater than 100"),
  ],
};

/** The failing field of a form without its file, per library. */
const MISSING_FILE_ERRORS: Record<string, readonly object[]> = {
  zod: [body("avatar", "invalid_type", "Invalid input: expected file, received undefined")],
  valibot: [body("avatar", "object", 'Invalid key: Expected "avatar" but received undefined')],
  arktype: [body("avatar", "required", "avatar must be a File instance (was missing)")],
  "class-validator": [body("avatar", "isDefined", "avatar should not be null or undefined")],
};
