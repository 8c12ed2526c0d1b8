import { type Diagnostic, expectClean, expectMarkedErrors, typecheck } from "../helpers/typecheck";

/*
 * Response contracts checked by the compiler: a handler whose plain result (what becomes a 200 JSON
 * reply) the schema declared for 200 (else 2XX) cannot accept is a type error — in
 * `described(handler, { responses })` and under `@Returns(200, schema)`, with legacy and TC39 standard
 * decorators. Replies made by hand, other statuses, text, nothing and `routeMismatch()` are left to the
 * run-time contract. Each line of bad.ts marked `// expect: …` must fail on that line with a diagnostic
 * containing the text; no other line may fail, and good.ts compiles.
 */

const HEADER = `import { described, json, route, routeMismatch, type Reply } from "switchyard-router";
void [json, routeMismatch];
import { Returns, Route } from "switchyard-router/decorators";
import { z } from "zod";
const User = z.object({ id: z.number(), name: z.string() });
class UserDto {
  id!: number;
  name!: string;
  greet(): string {
    return this.name;
  }
}
declare const user: { id: number; name: string; passwordHash: string };
`;

const NUMBER = "Type 'string' is not assignable to type 'JsonInput<number>'";
const NO_NAME = "Property 'name' is missing";

const BAD = `${HEADER}
export const a = described(() => ({ id: "1", name: "a" }), { responses: { 200: { schema: User } } }); // expect: ${NUMBER}
export const b = described(async () => ({ id: 1 }), { responses: { 200: { schema: User } } }); // expect: ${NO_NAME}
export const c = described(() => ({ id: 1 }), { responses: { 200: { schema: UserDto } } }); // expect: ${NO_NAME}
export const d = described(() => user, { responses: { 200: { schema: [UserDto] } } }); // expect: JsonInput<{ id: number; name: string; }[]>
export const e = described(() => ({ id: "x" }), { responses: { "2XX": { schema: User } } }); // expect: ${NUMBER}
export const f = described(() => (Math.random() > 0.5 ? user : { id: 2 }), { responses: { 200: { schema: User } } }); // expect: ${NO_NAME}
export const h = route("GET /users/id:Int", described((req) => ({ id: String(req.vars.id), name: "a" }), { responses: { 200: { schema: User } } })); // expect: ${NUMBER}

export class Users {
  @Route("GET /a")
  @Returns(200, User) // expect: Types of property 'id' are incompatible
  a() {
    return { id: "x", name: "a" };
  }

  @Route("GET /b")
  @Returns(200, [UserDto]) // expect: ContractResult<{ id: number; name: string; }[]>
  async b() {
    return user;
  }

  @Route("GET /c")
  @Returns("2XX", UserDto) // expect: ${NO_NAME}
  c(): { id: number } | Reply {
    return { id: 1 };
  }
}
`;

const GOOD = `${HEADER}
// what the schema accepts, extra properties of a value that is no literal, a reply made by hand
export const a = described(() => user, { responses: { 200: { schema: User } } });
export const b = described(async () => (Math.random() > 0.5 ? user : json({ error: "gone" }, { status: 404 })), {
  responses: { 200: { schema: User }, 404: { schema: z.object({ error: z.string() }) } },
});
// text, nothing and routeMismatch() are no 200 JSON body
export const c = described(() => (Math.random() > 0.5 ? "text" : Math.random() > 0.5 ? undefined : routeMismatch()), {
  responses: { 200: { schema: User } },
});
// a DTO class's instances as JSON: its methods are not sent
export const d = described(() => ({ id: 1, name: "a" }), { responses: { 200: { schema: UserDto } } });
export const e = described(() => [user], { responses: { 200: { schema: [UserDto] } } });
// a value is read as its JSON: a Date's is a string
export const f = described(() => ({ at: new Date() }), { responses: { 200: { schema: z.object({ at: z.string() }) } } });
// a schema's input is what the contract reads (its output is what "strip" sends)
export const g = described(() => ({ id: "7" }), {
  responses: { 200: { schema: z.object({ id: z.string().transform(Number) }) } },
});
// a JSON Schema object, or no 200 at all, checks nothing
export const h = described(() => ({ any: 1 }), { responses: { 200: { schema: { type: "object" } } } });
export const i = described(() => ({ any: 1 }), { responses: { 404: { schema: User } } });
export const j = described(() => ({ any: 1 }), { summary: "no responses" });
// the route's variables still reach the handler
export const k = route(
  "GET /users/id:Int",
  described(
    (req) => {
      const id: number = req.vars.id;
      return { id, name: "a" };
    },
    { responses: { 200: { schema: User } } },
  ),
);
// a literal in the handler's result keeps its literal type (the contract is its contextual type)
export const l = route("GET /health", described((_req) => ({ status: "ok" }), { responses: { 200: { schema: z.object({ status: z.literal("ok") }) } } }));

export class Users {
  @Route("GET /a")
  @Returns(200, User, "the user")
  @Returns(404, z.object({ error: z.string() }))
  async a(): Promise<typeof user | Reply> {
    return Math.random() > 0.5 ? user : json({ error: "gone" }, { status: 404 });
  }

  @Route("GET /b")
  @Returns(201, UserDto) // a reply's body is not seen by the types
  b() {
    return json({ anything: true }, { status: 201 });
  }

  @Route("GET /c")
  @Returns(200, [UserDto])
  c() {
    return [user];
  }

  @Route("GET /d")
  @Returns(200, User)
  d() {}
}
`;

function check(diagnostics: readonly Diagnostic[]): void {
  expectMarkedErrors(diagnostics, BAD, 10);
  expectClean(diagnostics);
}

test("under legacy decorators: each broken contract fails as marked, the good file compiles", () => {
  check(typecheck({ "bad.ts": BAD, "good.ts": GOOD }));
}, 60_000);

test("under TC39 standard decorators: the same", () => {
  check(typecheck({ "bad.ts": BAD, "good.ts": GOOD }, { experimentalDecorators: false, emitDecoratorMetadata: false }));
}, 60_000);
