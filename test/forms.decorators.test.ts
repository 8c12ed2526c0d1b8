import { compileErrors, validate } from "@readme/openapi-parser";
import {
  alt,
  formField,
  formFile,
  formFiles,
  inject,
  Int,
  queryParam,
  readParamsAsync,
  route,
  type FormFile,
  type InjectRequest,
  type OpenApiObject,
  openapi,
  Text,
  type Route as Tree,
} from "../src";
import { z } from "zod";
import { Body, controllers, File, Files, FormField, Query, Route } from "../decorators";
import { expectControllerError } from "./helpers/decorators";
import { byteRun, multipartBody, multipartType } from "./fixtures/forms-body";

/*
 * @FormField, @File and @Files against their functional counterparts (formField, formFile, formFiles
 * over one req.form()): the same answers for the same requests, bad fields in the one 400 with the bad
 * query values, a body that is no form a 415.
 */

async function describeFile(file: FormFile | undefined) {
  if (file === undefined) return null;
  const bytes = await file.bytes();
  return { name: file.name, type: file.type, size: bytes.byteLength, sum: bytes.reduce((n, b) => (n + b) % 65521, 0) };
}

/** The answer both /profile routes give: the values read, each file described. */
async function describeProfile(read: {
  page: number;
  title: string;
  count: number;
  note: string | undefined;
  avatar: FormFile;
  extra: FormFile | undefined;
  docs: FormFile[];
}) {
  const { page, title, count, note, avatar, extra, docs } = read;
  return {
    page,
    title,
    count,
    note: note ?? null,
    avatar: await describeFile(avatar),
    extra: await describeFile(extra),
    docs: await Promise.all(docs.map(describeFile)),
  };
}

class Uploads {
  @Route("POST /profile")
  async profile(
    @Query("page", Int) page: number,
    @FormField("title") title: string,
    @FormField("count", Int) count: number,
    @FormField("note", Text, { optional: true }) note: string | undefined,
    @File("avatar") avatar: FormFile,
    @File("extra", { optional: true }) extra: FormFile | undefined,
    @Files("docs") docs: FormFile[],
  ) {
    return describeProfile({ page, title, count, note, avatar, extra, docs });
  }
}

const decorated: Tree = alt(controllers([Uploads]));

const functional: Tree = route("POST /profile", async (req) => {
  const form = req.form();
  const [page, title, count, note, avatar, extra, docs] = await readParamsAsync(req, [
    (r) => queryParam(r, "page", Int),
    async () => formField(await form, "title"),
    async () => formField(await form, "count", Int),
    async () => formField(await form, "note", undefined, { optional: true }),
    async () => formFile(await form, "avatar"),
    async () => formFile(await form, "extra", { optional: true }),
    async () => formFiles(await form, "docs"),
  ]);
  return describeProfile({ page, title, count, note, avatar, extra, docs });
});

const picture = byteRun(70_000, 3);

function multipart(url: string, ...parts: Parameters<typeof multipartBody>[0]): InjectRequest {
  return { method: "POST", url, headers: { "content-type": multipartType() }, body: multipartBody(parts) };
}

async function both(request: InjectRequest) {
  const [d, f] = [await inject(decorated, request), await inject(functional, request)];
  expect({ status: d.status, body: d.body }).toEqual({ status: f.status, body: f.body });
  return { status: d.status, json: d.body === "" ? undefined : (JSON.parse(d.body) as unknown) };
}

const good = [
  { field: "title", value: "Holidays" },
  { field: "count", value: "3" },
  { file: "avatar", filename: "me.png", type: "image/png", content: picture },
  { file: "docs", filename: "a.txt", type: "text/plain", content: "first" },
  { file: "docs", filename: "b.txt", type: "text/plain", content: "second" },
] as const;

describe("@FormField, @File, @Files", () => {
  test("fields typed with their parsers, a file's bytes intact, several files in order", async () => {
    const { status, json } = await both(multipart("/profile?page=2", ...good));
    expect(status).toBe(200);
    const sum = picture.reduce((n, b) => (n + b) % 65521, 0);
    expect(json).toEqual({
      page: 2,
      title: "Holidays",
      count: 3,
      note: null,
      avatar: { name: "me.png", type: "image/png", size: 70_000, sum },
      extra: null,
      docs: [
        { name: "a.txt", type: "text/plain", size: 5, sum: [..."first"].reduce((n, c) => n + c.charCodeAt(0), 0) },
        { name: "b.txt", type: "text/plain", size: 6, sum: [..."second"].reduce((n, c) => n + c.charCodeAt(0), 0) },
      ],
    });
  });

  test("the file's bytes are exactly those sent", async () => {
    class Echo {
      @Route("POST /echo")
      async echo(@File("f") f: FormFile) {
        return Array.from(await f.bytes()).join(",");
      }
    }
    const bytes = new Uint8Array([0, 13, 10, 45, 45, 255, 254, 0, 13, 10]);
    const answer = await inject(
      alt(controllers([Echo])),
      multipart("/echo", { file: "f", filename: "raw.bin", content: bytes }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(Array.from(bytes).join(","));
  });

  test("optional ones present", async () => {
    const { status, json } = await both(
      multipart(
        "/profile?page=1",
        ...good,
        { field: "note", value: "" },
        { file: "extra", filename: "x.bin", content: "xy" },
      ),
    );
    expect(status).toBe(200);
    expect(json).toMatchObject({ note: "", extra: { name: "x.bin", type: "application/octet-stream", size: 2 } });
  });

  test("no files for @Files is []", async () => {
    const { status, json } = await both(multipart("/profile?page=1", ...good.slice(0, 3)));
    expect(status).toBe(200);
    expect(json).toMatchObject({ docs: [] });
  });

  test("bad fields, a missing file and a bad query value: one 400 listing each", async () => {
    const { status, json } = await both(
      multipart("/profile?page=x", { field: "count", value: "three" }, { file: "docs", filename: "a", content: "" }),
    );
    expect(status).toBe(400);
    const fields = (json as { errors: { in: string; field: string; constraint: string }[] }).errors.map((e) => [
      e.in,
      e.field,
      e.constraint,
    ]);
    expect(fields).toEqual([
      ["query", "page", "Int"],
      ["body", "title", "required"],
      ["body", "count", "Int"],
      ["body", "avatar", "required"],
    ]);
  });

  test("an urlencoded form has fields and no files", async () => {
    const { status, json } = await both({
      method: "POST",
      url: "/profile?page=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "title=T&count=4",
    });
    expect(status).toBe(400);
    expect((json as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual(["avatar"]);
  });

  test("a JSON body is a 415, once", async () => {
    const { status, json } = await both({
      method: "POST",
      url: "/profile?page=1",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "T" }),
    });
    expect(status).toBe(415);
    expect(json).toMatchObject({
      contentType: "application/json",
      accepted: ["multipart/form-data", "application/x-www-form-urlencoded"],
    });
  });

  test("several form parameters share one req.form(): the body is taken once", async () => {
    // a second read of the body would be a TypeError (a 500)
    class Twice {
      @Route("POST /twice")
      twice(@FormField("a") a: string, @FormField("b") b: string, @File("f") f: FormFile, @Files("f") all: FormFile[]) {
        return `${a}${b}${f.name}${all.length}`;
      }
    }
    const answer = await inject(
      alt(controllers([Twice])),
      multipart(
        "/twice",
        { field: "a", value: "1" },
        { field: "b", value: "2" },
        { file: "f", filename: "n", content: "" },
      ),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("12n1");
  });

  test("@File accepts the FormFile interface as declared type (Object), @FormField checks its parser's type", () => {
    expect(() => {
      class Bad {
        @Route("POST /bad")
        bad(@FormField("n", Int) n: string) {
          return n;
        }
      }
      controllers([Bad]);
    }).toThrow(/PARAM_TYPE_MISMATCH|declared as string/);
    expect(() => {
      class Ambiguous {
        @Route("POST /bad")
        bad(@FormField("n") n: number) {
          return n;
        }
      }
      controllers([Ambiguous]);
    }).toThrow(/ambiguous/);
  });

  test("a @Body and a form parameter on one method: TWO_BODIES, when controllers() runs", () => {
    class Both {
      @Route("POST /both")
      both(@Body(z.object({ a: z.string() })) json: { a: string }, @File("f") f: FormFile) {
        return [json, f.name];
      }
    }
    const error = expectControllerError(() => controllers([Both]), "TWO_BODIES", "Both", "both");
    expect(error.message).toMatch(/@Body\(\) reads the body as JSON and @File\("f"\) reads it as a form/);
  });

  test("decorator misuse is a TypeError", () => {
    expect(() => FormField("")).toThrow(TypeError);
    expect(() => File("")).toThrow(TypeError);
    expect(() => Files("")).toThrow(TypeError);
    expect(() => FormField("n", {} as never)).toThrow(TypeError);
  });
});

describe("OpenAPI: a form's fields and files are its request body", () => {
  async function documentOf(tree: Tree) {
    const document = openapi(tree, { info: { title: "forms", version: "1" } });
    const result = await validate(structuredClone(document) as never);
    if (!result.valid) throw new Error(compileErrors(result));
    return document;
  }

  test("multipart/form-data: a property per field (its parser's schema) and per file; required as the route refuses", async () => {
    const document = await documentOf(decorated);
    const operation = document.paths["/profile"]!.post as OpenApiObject;
    expect(operation.requestBody).toEqual({
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              title: { type: "string" },
              count: expect.objectContaining({ type: "integer" }),
              note: { type: "string" },
              avatar: { type: "string", contentMediaType: "application/octet-stream" },
              extra: { type: "string", contentMediaType: "application/octet-stream" },
              docs: { type: "array", items: { type: "string", contentMediaType: "application/octet-stream" } },
            },
            required: ["title", "count", "avatar"],
          },
        },
      },
    });
    // the query value stays a parameter; the form's readers can answer 400, 413 and 415
    expect((operation.parameters as OpenApiObject[]).map((p) => [p.in, p.name])).toEqual([["query", "page"]]);
    expect(Object.keys(operation.responses as OpenApiObject)).toEqual(expect.arrayContaining(["400", "413", "415"]));
  });

  test("fields only: urlencoded too", async () => {
    class Login {
      @Route("POST /login")
      login(@FormField("user") user: string, @FormField("remember", Int, { optional: true }) remember?: number) {
        return { user, remember };
      }
    }
    const document = await documentOf(controllers([Login]));
    const body = (document.paths["/login"]!.post as OpenApiObject).requestBody as OpenApiObject;
    const content = body.content as Record<string, { schema: OpenApiObject }>;
    expect(Object.keys(content)).toEqual(["multipart/form-data", "application/x-www-form-urlencoded"]);
    expect(content["application/x-www-form-urlencoded"]!.schema).toEqual(content["multipart/form-data"]!.schema);
    expect(content["multipart/form-data"]!.schema).toMatchObject({
      properties: { user: { type: "string" }, remember: { type: "integer" } },
      required: ["user"],
    });
  });
});
