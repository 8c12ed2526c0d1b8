/*
 * Child process of bench/decorators/run.js: one node:http server on 127.0.0.1 serving one variant of
 * the same route, then prints its port. The package is loaded from the CommonJS build in SWITCHYARD_DIST
 * (this branch's dist/cjs by default), so the same controller can run against another build.
 * Usage: node dist/bench/decorators/server.js <variant>
 */
import "reflect-metadata";
import { IsString, Length, Min } from "class-validator";
import { createServer } from "node:http";
import path from "node:path";
import { container, injectable } from "tsyringe";

type Core = typeof import("../../src/index.js");
type Decorators = typeof import("../../decorators/index.js");

const dist = process.env.SWITCHYARD_DIST ?? path.resolve(__dirname, "../../cjs");
const sy = require(path.join(dist, "src/index.js")) as Core;
const dec = require(path.join(dist, "decorators/index.js")) as Decorators;

class CreateItem {
  @IsString() @Length(1, 40) name!: string;
  @Min(0) price!: number;
}

/** The route every body variant serves: POST /items?page=N with a CreateItem body. */
function bodyVariants(): Record<string, () => import("../../src/index.js").Route> {
  return {
    // the decorator form: @Query + @Body, class-validator DTO
    decorated() {
      class Items {
        @dec.Route("POST /items")
        create(@dec.Query("page", sy.Int) page: number, @dec.Body() item: CreateItem) {
          return { page, name: item.name };
        }
      }
      return dec.controllers([Items]);
    },
    // the same route with the functional counterparts
    functional: () => sy.route("POST /items", async (req) => {
      const [page, item] = await sy.readParamsAsync(req, [(r) => sy.queryParam(r, "page", sy.Int), (r) => dec.body(r, CreateItem)]);
      return { page, name: item.name };
    }),
    // by hand: no parser, no class-validator; the same checks written out
    hand: () => sy.route("POST /items", async (req) => {
      const page = Number(req.query.get("page"));
      const item = await req.json<{ name?: unknown; price?: unknown }>();
      if (!Number.isSafeInteger(page) || typeof item.name !== "string" || item.name.length < 1 || item.name.length > 40 ||
          typeof item.price !== "number" || item.price < 0) {
        throw new sy.HttpError(400, "invalid");
      }
      return { page, name: item.name };
    }),
  };
}

@injectable()
class Catalog {
  readonly names = ["lamp", "desk"];
}

/** GET /items/id:Int from a controller taking an injected service, singleton or per request. */
function scopeVariants(): Record<string, () => import("../../src/index.js").Route> {
  @injectable()
  class Items {
    constructor(private readonly catalog: Catalog) {}
    @dec.Route("GET /items/id:Int")
    get(@dec.PathVar("id") id: number) {
      return { id, name: this.catalog.names[id % 2] };
    }
  }
  const root = container.createChildContainer();
  root.registerSingleton(Catalog);
  return {
    singleton: () => dec.controllers([Items], { resolve: (C) => root.resolve(C) }),
    request: () => dec.controllers([Items], { scope: "request", resolve: (C) => root.createChildContainer().resolve(C) }),
  };
}

const variant = process.argv[2] ?? "";
const make = { ...bodyVariants(), ...scopeVariants() }[variant];
if (make === undefined) throw new Error(`unknown variant ${variant}`);
const server = createServer(sy.toApplication(make()));
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${typeof address === "object" && address !== null ? address.port : 0}\n`);
});
