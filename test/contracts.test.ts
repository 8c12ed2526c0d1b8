import "reflect-metadata";
import { Exclude, Expose } from "class-transformer";
import { IsInt, IsString } from "class-validator";
import * as v from "valibot";
import { z } from "zod";
import "../decorators";
import {
  ContractError,
  described,
  interpreter,
  inject,
  json,
  reply,
  route,
  text,
  type HandlerInfo,
  type PipelineOptions,
  type Route,
} from "../src";
import { loadArktype } from "./helpers/arktype";

const { type } = loadArktype();

/*
 * Response contracts (issue 24): a route's declared `responses` checked or stripped at run time, by
 * the pipeline, for the compiled and the interpreted dispatcher alike.
 */

const zodUser = z.object({ id: z.number(), name: z.string() });
const leaked = { id: 1, name: "ada", passwordHash: "x" };

class UserOut {
  @IsInt() id!: number;
  @IsString() name!: string;
}

const dispatchers: [string, PipelineOptions][] = [
  ["compiled", {}],
  ["interpreted", { dispatcher: interpreter }],
];

function app(handler: () => unknown, info: HandlerInfo): Route {
  return route("GET /u", described(handler as never, { name: "users.one", ...info }));
}

describe.each(dispatchers)("contracts (%s)", (_name, base) => {
  const errors: unknown[] = [];
  const options = (more: PipelineOptions): PipelineOptions => ({
    ...base,
    onError: (error) => void errors.push(error),
    ...more,
  });
  beforeEach(() => (errors.length = 0));

  test("off by default: a declared schema changes nothing", async () => {
    const tree = app(() => leaked, { responses: { 200: { schema: zodUser } } });
    const res = await inject(tree, { url: "/u" }, options({}));
    expect(JSON.parse(res.body)).toEqual(leaked);
  });

  test("strip (app-wide): zod strips unknown keys; a returned Reply with its status too", async () => {
    const tree = app(() => json(leaked, { status: 201, headers: { "x-a": "1" } }), {
      responses: { 201: { schema: zodUser } },
    });
    const res = await inject(tree, { url: "/u" }, options({ contracts: "strip" }));
    expect(res.status).toBe(201);
    expect(res.headers["x-a"]).toBe("1");
    expect(JSON.parse(res.body)).toEqual({ id: 1, name: "ada" });
  });

  test("strip per route, async handler; another status without a schema is sent as it is", async () => {
    const tree = app(async () => leaked, { contract: "strip", responses: { 200: { schema: zodUser }, 404: {} } });
    expect(JSON.parse((await inject(tree, { url: "/u" }, options({}))).body)).toEqual({ id: 1, name: "ada" });
    const other = app(() => json(leaked, { status: 404 }), {
      contract: "strip",
      responses: { 200: { schema: zodUser } },
    });
    expect(JSON.parse((await inject(other, { url: "/u" }, options({}))).body)).toEqual(leaked);
  });

  test("a route's contract: off wins over the app's", async () => {
    const tree = app(() => leaked, { contract: "off", responses: { 200: { schema: zodUser } } });
    expect(JSON.parse((await inject(tree, { url: "/u" }, options({ contracts: "strip" }))).body)).toEqual(leaked);
  });

  test("valibot strips by default; arktype with '+': 'delete'", async () => {
    const vb = app(() => leaked, {
      responses: { 200: { schema: v.object({ id: v.number(), name: v.string() }) as never } },
    });
    expect(JSON.parse((await inject(vb, { url: "/u" }, options({ contracts: "strip" }))).body)).toEqual({
      id: 1,
      name: "ada",
    });
    const ak = app(() => leaked, {
      responses: { 200: { schema: type({ "+": "delete", id: "number", name: "string" }) } },
    });
    expect(JSON.parse((await inject(ak, { url: "/u" }, options({ contracts: "strip" }))).body)).toEqual({
      id: 1,
      name: "ada",
    });
    // arktype keeps unknown keys unless told
    const keeps = app(() => leaked, { responses: { 200: { schema: type({ id: "number", name: "string" }) } } });
    expect(JSON.parse((await inject(keeps, { url: "/u" }, options({ contracts: "strip" }))).body)).toEqual(leaked);
  });

  test("strip with a DTO class and [Dto]: only decorated properties", async () => {
    const one = app(() => leaked, { responses: { 200: { schema: UserOut } } });
    expect(JSON.parse((await inject(one, { url: "/u" }, options({ contracts: "strip" }))).body)).toEqual({
      id: 1,
      name: "ada",
    });
    const many = app(() => [leaked, leaked], { responses: { 200: { schema: [UserOut] } } });
    expect(JSON.parse((await inject(many, { url: "/u" }, options({ contracts: "strip" }))).body)).toEqual([
      { id: 1, name: "ada" },
      { id: 1, name: "ada" },
    ]);
  });

  test("check: a reply that breaks its contract is a 500 told to onError, naming route, status, fields", async () => {
    const tree = app(() => ({ id: "one", name: "ada" }), { responses: { 200: { schema: zodUser } } });
    const res = await inject(tree, { url: "/u" }, options({ contracts: "check" }));
    expect(res.status).toBe(500);
    expect(res.body).not.toContain("one");
    expect(errors).toHaveLength(1);
    const error = errors[0] as ContractError;
    expect(error).toBeInstanceOf(ContractError);
    expect(error.status).toBe(200);
    expect(error.message).toContain("GET /u (users.one)");
    expect(error.fields.map((f) => f.field)).toEqual(["id"]);
  });

  test("check: a DTO list failing names the index; a valid reply is sent as it is", async () => {
    const bad = app(() => [leaked, { id: 2 }], { responses: { 200: { schema: [UserOut] } } });
    const res = await inject(bad, { url: "/u" }, options({ contracts: "check" }));
    expect(res.status).toBe(500);
    expect((errors[0] as ContractError).fields.map((f) => f.field)).toEqual(["1.name"]);
    const good = app(() => leaked, { responses: { 200: { schema: zodUser } } });
    expect(JSON.parse((await inject(good, { url: "/u" }, options({ contracts: "check" }))).body)).toEqual(leaked);
  });

  test("non-JSON replies and JSON Schema objects are not checked", async () => {
    const txt = app(() => text("hi"), { responses: { 200: { schema: zodUser } } });
    expect((await inject(txt, { url: "/u" }, options({ contracts: "check" }))).body).toBe("hi");
    const js = app(() => ({ id: "x" }), { responses: { 200: { schema: { type: "object" } } } });
    expect((await inject(js, { url: "/u" }, options({ contracts: "check" }))).status).toBe(200);
    const empty = app(() => reply({ status: 200 }), { responses: { 200: { schema: zodUser } } });
    expect((await inject(empty, { url: "/u" }, options({ contracts: "check" }))).status).toBe(200);
  });

  test("a route without a contract keeps its very handler", () => {
    const handler = () => leaked;
    const tree = app(handler, { responses: { 200: { schema: zodUser } } });
    const { withContracts } = require("../src/contracts") as typeof import("../src/contracts");
    expect(withContracts(tree, "off")).toBe(tree);
    expect(withContracts(tree, undefined)).toBe(tree);
    expect(withContracts(tree, "strip")).not.toBe(tree);
  });
});

describe("returned class instances go through instanceToPlain", () => {
  class User {
    id = 1;
    @Exclude() passwordHash = "secret";
    @Expose() get label() {
      return `user ${this.id}`;
    }
  }

  test("@Exclude is never sent, @Expose getters are; in lists and nested too", async () => {
    const res = await inject(
      route("GET /u", () => ({ users: [new User()], one: new User() })),
      { url: "/u" },
    );
    expect(res.body).not.toContain("secret");
    expect(JSON.parse(res.body)).toEqual({
      users: [{ id: 1, label: "user 1" }],
      one: { id: 1, label: "user 1" },
    });
    const direct = await inject(
      route("GET /u", () => json(new User(), { status: 201 })),
      { url: "/u" },
    );
    expect(JSON.parse(direct.body)).toEqual({ id: 1, label: "user 1" });
  });

  test("plain objects and dates are as they were", async () => {
    const at = new Date(0);
    const res = await inject(
      route("GET /u", () => ({ at, n: 1 })),
      { url: "/u" },
    );
    expect(JSON.parse(res.body)).toEqual({ at: at.toISOString(), n: 1 });
  });
});
