import bodyParser from "@koa/bodyparser";
import { IsString, Length } from "class-validator";
import express from "express";
import Koa from "koa";
import { HttpError, Int, toApplication, type RoutedRequest } from "../src";
import { toExpress } from "../src/adapters/express";
import { toFetch } from "../src/adapters/fetch";
import { toKoa } from "../src/adapters/koa";
import { Body, controllers, Guard, Header, Query, Route } from "../decorators";
import { startServer } from "./helpers/server";

/*
 * One decorated controller — @Query, @Header, @Body and a @Guard — served by every adapter over real
 * loopback sockets (and the Fetch handler with real Requests): the same 201, the same 400 bodies, and a
 * refused guard passes the request on (a 404, or the framework's next handler). Express and Koa
 * parse the body first with their own body parsers, which body() must read instead of the stream.
 */

class NewNote {
  @IsString() @Length(1, 20) text!: string;
}

class Notes {
  @Guard((req: RoutedRequest) => req.headers.get("x-team") !== "blocked")
  @Route("POST /notes")
  create(
    @Query("pin", Int, { optional: true }) pin: number | undefined,
    @Header("x-author") author: string,
    @Body() note: NewNote,
  ) {
    return { text: note.text, author, pin: pin ?? null };
  }
}

const tree = controllers([Notes]);

type Post = (path: string, headers: Record<string, string>, body: string) => Promise<{ status: number; body: string }>;

function overHttp(listener: Parameters<typeof startServer>[0]): Post {
  return async (path, headers, body) => {
    const server = await startServer(listener);
    try {
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
      return { status: res.status, body: await res.text() };
    } finally {
      await server.close();
    }
  };
}

const viaFetch: Post = async (path, headers, body) => {
  const res = await toFetch(tree)(
    new Request(`http://example.test${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    }),
  );
  return { status: res.status, body: await res.text() };
};

/** What an Express or Koa app's own error handler does with an HttpError: its status and details. */
const errorBody = (error: HttpError) => ({ error: error.message, ...error.details });

const adapters: [string, Post][] = [
  ["node:http", overHttp(toApplication(tree))],
  ["Fetch", viaFetch],
  // Express and Koa get the HttpError through their own error handling, as the adapters promise
  [
    "Express with express.json()",
    overHttp(
      express()
        .use(express.json())
        .use(toExpress(tree))
        .use((_req: unknown, res: express.Response) => {
          res.status(404).send("express: not found");
        })
        .use((error: HttpError, _req: unknown, res: express.Response, _next: unknown) => {
          res.status(error.status).json(errorBody(error));
        }),
    ),
  ],
  [
    "Koa with @koa/bodyparser",
    overHttp(
      new Koa()
        .use(async (ctx, next) => {
          try {
            await next();
          } catch (error) {
            ctx.status = (error as HttpError).status;
            ctx.body = errorBody(error as HttpError);
          }
        })
        .use(bodyParser())
        .use(toKoa(tree))
        .use((ctx) => {
          ctx.status = 404;
          ctx.body = "koa: not found";
        })
        .callback(),
    ),
  ],
];

describe.each(adapters)("%s", (name, post) => {
  test("a valid request: 200 with the parsed query, header and DTO", async () => {
    const answer = await post("/notes?pin=3", { "x-author": "ada" }, JSON.stringify({ text: "hello" }));
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { text: "hello", author: "ada", pin: 3 }]);
  });

  test("every failing field in one 400", async () => {
    const answer = await post("/notes?pin=x", {}, JSON.stringify({ text: "" }));
    expect(answer.status).toBe(400);
    expect(
      (JSON.parse(answer.body) as { errors: { in: string; field: string; constraint: string }[] }).errors.map(
        (e) => `${e.in}:${e.field}:${e.constraint}`,
      ),
    ).toEqual(["query:pin:Int", "header:x-author:required", "body:text:isLength"]);
  });

  test("a refused guard passes the request on", async () => {
    const answer = await post("/notes", { "x-author": "ada", "x-team": "blocked" }, JSON.stringify({ text: "hello" }));
    expect(answer.status).toBe(404);
    if (name.startsWith("Express")) expect(answer.body).toBe("express: not found");
    if (name.startsWith("Koa")) expect(answer.body).toBe("koa: not found");
  });
});
