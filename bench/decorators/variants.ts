/*
 * The variants the decorator benchmarks compare, built from one copy of the package (its core and
 * decorators modules), so the same controllers can run against this branch's build and another.
 */
import { IsString, Length, Min } from "class-validator";
import { container, injectable } from "tsyringe";
import * as v from "valibot";
import { z } from "zod";

export type Core = typeof import("../../src/index.js");
export type Decorators = typeof import("../../decorators/index.js");
type Tree = import("../../src/index.js").Route;

/** Loads the CommonJS build in `dist` (a dist/cjs directory). */
export function load(dist: string): { sy: Core; dec: Decorators } {
  return { sy: require(`${dist}/src/index.js`) as Core, dec: require(`${dist}/decorators/index.js`) as Decorators };
}

/** Each variant's tree, by name, made on demand (a build without request scope can still run the rest). */
export function variants(sy: Core, dec: Decorators): Record<string, () => Tree> {
  return { ...bodyVariants(sy, dec), ...scopeVariants(dec) };
}

class CreateItem {
  @IsString() @Length(1, 40) name!: string;
  @Min(0) price!: number;
}

/** The same body as CreateItem, as a zod and a valibot schema. */
const CreateItemZod = z.object({ name: z.string().min(1).max(40), price: z.number().min(0) });
const CreateItemValibot = v.object({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(40)),
  price: v.pipe(v.number(), v.minValue(0)),
});

/** The route every body variant serves: POST /items?page=N with a CreateItem body. */
function bodyVariants(sy: Core, dec: Decorators): Record<string, () => Tree> {
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
    // the same, the DTO checked by class-transformer and class-validator on every request (not compiled)
    "decorated class-validator"() {
      class Items {
        @dec.Route("POST /items")
        create(@dec.Query("page", sy.Int) page: number, @dec.Body(CreateItem, { compiled: false }) item: CreateItem) {
          return { page, name: item.name };
        }
      }
      return dec.controllers([Items]);
    },
    // the decorator form with a Standard Schema body: zod, valibot
    "decorated zod"() {
      class Items {
        @dec.Route("POST /items")
        create(@dec.Query("page", sy.Int) page: number, @dec.Body(CreateItemZod) item: z.infer<typeof CreateItemZod>) {
          return { page, name: item.name };
        }
      }
      return dec.controllers([Items]);
    },
    "decorated valibot"() {
      class Items {
        @dec.Route("POST /items")
        create(
          @dec.Query("page", sy.Int) page: number,
          @dec.Body(CreateItemValibot) item: v.InferOutput<typeof CreateItemValibot>,
        ) {
          return { page, name: item.name };
        }
      }
      return dec.controllers([Items]);
    },
    // the functional form with the zod schema
    "functional zod": () =>
      sy.route("POST /items", async (req) => {
        const [page, item] = await sy.readParamsAsync(req, [
          (r) => sy.queryParam(r, "page", sy.Int),
          (r) => sy.body(r, CreateItemZod),
        ]);
        return { page, name: item.name };
      }),
    // the same route with the functional counterparts
    functional: () =>
      sy.route("POST /items", async (req) => {
        const [page, item] = await sy.readParamsAsync(req, [
          (r) => sy.queryParam(r, "page", sy.Int),
          (r) => dec.body(r, CreateItem),
        ]);
        return { page, name: item.name };
      }),
    // by hand: no parser, no class-validator; the same checks written out
    hand: () =>
      sy.route("POST /items", async (req) => {
        const page = Number(req.query.get("page"));
        const item = await req.json<{ name?: unknown; price?: unknown }>();
        if (
          !Number.isSafeInteger(page) ||
          typeof item.name !== "string" ||
          item.name.length < 1 ||
          item.name.length > 40 ||
          typeof item.price !== "number" ||
          item.price < 0
        ) {
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
function scopeVariants(dec: Decorators): Record<string, () => Tree> {
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
    request: () =>
      dec.controllers([Items], { scope: "request", resolve: (C) => root.createChildContainer().resolve(C) }),
  };
}
