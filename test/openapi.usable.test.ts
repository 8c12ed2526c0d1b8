import "reflect-metadata";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { compileErrors, validate } from "@readme/openapi-parser";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import express from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { inject, openapi, type OpenApiDocument, type OpenApiObject, type Route } from "../src";
import { toExpress } from "../src/adapters/express";
import { createApp as createControllersApp } from "../samples/controllers/app";
import { createApp as createFunctionalApp } from "../samples/functional/app";

/*
 * The samples' documents are usable: real requests to each sample, sent over HTTP through
 * express-openapi-validator (a maintained OpenAPI 3.1 request validator) in front of the app, and each
 * reply's body checked by Ajv (draft 2020-12, OpenAPI 3.1's dialect) against the schema the document
 * gives for its status and media type. A request the document allows reaches the app and gets a reply
 * the document describes; a request the document refuses is refused by the app too (the same request
 * without the validator), so the document says what the app enforces, no more and no less.
 */

const info = { title: "sample", version: "1.0.0" };

interface Case {
  readonly method: string;
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  /** The app's own answer (without the validator). */
  readonly status: number;
  /** Whether the document allows the request. */
  readonly allowed: boolean;
}

/** What one request got through the validator. */
interface Seen {
  readonly status: number;
  readonly body: string;
  readonly type: string | null;
  /** The path template and method of the operation the validator matched, when it let the request through. */
  readonly operation: { readonly path: string; readonly method: string } | undefined;
}

/** Serves `app` behind express-openapi-validator (requests) on 127.0.0.1, noting the operation each request matched. */
async function serveValidated(app: Route, document: OpenApiDocument) {
  const server = express();
  server.use(express.json());
  // the validator coerces header values in place (x-user-id becomes the number 2); the app reads the
  // headers as sent
  server.use((req, _res, next) => {
    (req as unknown as { sentHeaders: unknown }).sentHeaders = { ...req.headers };
    next();
  });
  server.use(
    OpenApiValidator.middleware({
      apiSpec: structuredClone(document) as never,
      validateRequests: { allowUnknownQueryParameters: false },
      validateResponses: false,
      validateFormats: true,
      ajvFormats: { mode: "full" },
    }),
  );
  const matched = new Map<string, { path: string; method: string }>();
  server.use((req, _res, next) => {
    const id = req.get("x-case");
    const route = (req as unknown as { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute;
    if (id !== undefined && route !== undefined) matched.set(id, { path: route, method: req.method.toLowerCase() });
    req.headers = (req as unknown as { sentHeaders: typeof req.headers }).sentHeaders;
    next();
  });
  server.use(toExpress(app));
  // no route answered: an empty 404, as switchyard's own adapters answer (Express's would be a page)
  server.use((_req, res) => {
    res.status(404).end();
  });
  // the validator's refusals: a JSON body naming it, so a test can tell them from the app's own answers
  server.use(
    (error: { status?: number; message: string }, _req: express.Request, res: express.Response, _next: unknown) => {
      res.status(error.status ?? 500).json({ validator: error.message });
    },
  );
  const listener = server.listen(0, "127.0.0.1");
  await once(listener, "listening");
  const base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  let n = 0;
  return {
    async send(c: Case): Promise<Seen> {
      const id = String(++n);
      const res = await fetch(`${base}${c.url}`, {
        method: c.method,
        headers: {
          "x-case": id,
          ...(c.body === undefined ? {} : { "content-type": "application/json" }),
          ...c.headers,
        },
        body: c.body === undefined ? undefined : JSON.stringify(c.body),
      });
      return {
        status: res.status,
        body: await res.text(),
        type: res.headers.get("content-type"),
        operation: matched.get(id),
      };
    },
    close: () => new Promise<void>((resolve) => listener.close(() => resolve())),
  };
}

const pointer = (...tokens: string[]) => tokens.map((t) => `/${t.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");

/**
 * Ajv (draft 2020-12) over the whole document: a reply's body against the schema the document gives
 * for its operation, status (else `default`) and media type; what is wrong, or nothing.
 */
function replyChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(structuredClone(document) as object, "doc");
  return (seen: Seen): string[] => {
    if (seen.operation === undefined) return ["the validator matched no operation"];
    const { path, method } = seen.operation;
    const declared = (document.paths[path]![method] as OpenApiObject).responses as Record<string, OpenApiObject>;
    const status = String(seen.status) in declared ? String(seen.status) : "default";
    let response = declared[status];
    let at = pointer("paths", path, method, "responses", status);
    if (response === undefined) return [`status ${seen.status} is not in the document`];
    if (typeof response.$ref === "string") {
      at = response.$ref.slice(1);
      response = (document.components!.responses as Record<string, OpenApiObject>)[response.$ref.split("/").pop()!]!;
    }
    // no body, so no media type: the content the document gives does not apply
    if (seen.body === "") return [];
    const media = (seen.type ?? "").split(";")[0]!.trim();
    if ((response.content as OpenApiObject | undefined)?.[media] === undefined)
      return [`a ${media} body for ${seen.status}, which the document gives no content for`];
    const check = ajv.compile({ $ref: `doc#${at}${pointer("content", media, "schema")}` });
    return check(JSON.parse(seen.body)) ? [] : [ajv.errorsText(check.errors)];
  };
}

/** Sends each case through the validator and to the app alone; returns what disagrees with the document. */
async function disagreements(app: () => Route, cases: readonly Case[]): Promise<string[]> {
  const tree = app();
  const document = openapi(tree, { info });
  const result = await validate(structuredClone(document) as never);
  if (!result.valid) throw new Error(compileErrors(result));
  const server = await serveValidated(tree, document);
  const check = replyChecker(document);
  const wrong: string[] = [];
  try {
    for (const c of cases) {
      const name = `${c.method} ${c.url}`;
      // the app alone, on a fresh tree: what it answers without the validator
      const alone = await inject(app(), {
        method: c.method,
        url: c.url,
        headers: { ...(c.body === undefined ? {} : { "content-type": "application/json" }), ...c.headers },
        ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }),
      });
      if (alone.status !== c.status) wrong.push(`${name}: the app answered ${alone.status}, not ${c.status}`);
      const seen = await server.send(c);
      const refused = seen.status === 400 && seen.body.includes('"validator"');
      if (seen.status === 500) wrong.push(`${name}: 500 through the validator: ${seen.body}`);
      else if (c.allowed) {
        if (refused) wrong.push(`${name}: the document refuses a request the app answers: ${seen.body}`);
        else if (seen.status !== c.status) wrong.push(`${name}: through the validator ${seen.status}, not ${c.status}`);
        else for (const problem of check(seen)) wrong.push(`${name} → ${seen.status}: ${problem}`);
      } else {
        if (!refused) wrong.push(`${name}: the document allows a request the app refuses (${c.status})`);
        if (c.status < 400) wrong.push(`${name}: the app does not refuse it (${c.status})`);
      }
    }
  } finally {
    await server.close();
  }
  return wrong;
}

describe("the samples' OpenAPI documents agree with the apps, request by request", () => {
  test("controllers sample", async () => {
    const key = { "x-api-key": "let-me-in" };
    const cases: Case[] = [
      { method: "GET", url: "/health", status: 200, allowed: true },
      { method: "GET", url: "/api/users", status: 200, allowed: true },
      { method: "GET", url: "/api/users?limit=1&prefix=a", status: 200, allowed: true },
      { method: "GET", url: "/api/users?name=ada&name=grace", status: 200, allowed: true },
      { method: "GET", url: "/api/users?name=ada", status: 200, allowed: true },
      { method: "GET", url: "/api/users?limit=two", status: 400, allowed: false },
      { method: "GET", url: "/api/users/me", headers: { "x-user-id": "2" }, status: 200, allowed: true },
      { method: "GET", url: "/api/users/me", headers: { "x-user-id": "77" }, status: 404, allowed: true },
      { method: "GET", url: "/api/users/me", status: 400, allowed: false },
      { method: "GET", url: "/api/users/me", headers: { "x-user-id": "0" }, status: 400, allowed: false },
      { method: "GET", url: "/api/users/2", status: 200, allowed: true },
      { method: "GET", url: "/api/users/ada", status: 200, allowed: true },
      { method: "GET", url: "/api/users/nobody", status: 404, allowed: true },
      // byId passes an unknown id on, and "999" is no user name: the router's empty 404
      { method: "GET", url: "/api/users/999", status: 404, allowed: true },
      // neither a UserId (at least 1) nor a Username (3 to 20 lower-case characters)
      { method: "GET", url: "/api/users/0", status: 404, allowed: false },
      { method: "GET", url: "/api/users/Ada", status: 404, allowed: false },
      { method: "POST", url: "/api/users", body: { name: "linus" }, status: 201, allowed: true },
      { method: "POST", url: "/api/users", body: { name: "X" }, status: 400, allowed: false },
      { method: "POST", url: "/api/users", body: { name: "linus", admin: true }, status: 400, allowed: false },
      { method: "POST", url: "/api/users", body: {}, status: 400, allowed: false },
      { method: "DELETE", url: "/api/users/1", headers: key, status: 204, allowed: true },
      // the guard refuses: the route does not match, the router's 404
      { method: "DELETE", url: "/api/users/1", status: 404, allowed: true },
      { method: "DELETE", url: "/api/users/99", headers: key, status: 404, allowed: true },
      { method: "GET", url: "/api/reports/2024-02-29", status: 200, allowed: true },
      { method: "GET", url: "/api/reports/2023-02-29", status: 404, allowed: false },
    ];
    expect(await disagreements(() => createControllersApp(), cases)).toEqual([]);
  });

  test("functional sample", async () => {
    const cases: Case[] = [
      { method: "GET", url: "/health", status: 200, allowed: true },
      { method: "GET", url: "/api/users", status: 200, allowed: true },
      { method: "GET", url: "/api/users/2", status: 200, allowed: true },
      { method: "GET", url: "/api/users/ada", status: 200, allowed: true },
      { method: "GET", url: "/api/users/nobody", status: 404, allowed: true },
      { method: "POST", url: "/api/users", body: { name: "linus" }, status: 201, allowed: true },
      // zod strips unknown keys from the input: the document allows them too
      { method: "POST", url: "/api/users", body: { name: "linus", admin: true }, status: 201, allowed: true },
      { method: "POST", url: "/api/users", body: { name: "" }, status: 400, allowed: false },
      { method: "POST", url: "/api/users", body: {}, status: 400, allowed: false },
      { method: "GET", url: "/api/reports/2024-02-29", status: 200, allowed: true },
      { method: "DELETE", url: "/api/users/1", headers: { "x-api-key": "let-me-in" }, status: 204, allowed: true },
    ];
    expect(await disagreements(() => createFunctionalApp(), cases)).toEqual([]);
  });

  test("the checks can fail: a reply the document does not describe is reported", async () => {
    const document = openapi(createFunctionalApp(), { info });
    const check = replyChecker(document);
    const operation = { path: "/api/users/{id}", method: "get" };
    expect(check({ status: 200, body: '{"id":0,"name":""}', type: "application/json", operation })).toEqual([
      expect.stringMatching(/must be >= 1/),
    ]);
    expect(check({ status: 418, body: "", type: null, operation: { path: "/health", method: "get" } })).toEqual([
      "status 418 is not in the document",
    ]);
  });
});
