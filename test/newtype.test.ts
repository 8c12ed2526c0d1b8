import { IsIn, Length, Matches, Max, Min } from "class-validator";
import fc from "fast-check";
import {
  alt,
  compile,
  inject,
  Int,
  interpreter,
  Int64,
  lookupPathType,
  match,
  NoParse,
  pathVar,
  route,
  Text,
  UUID,
  type PathParser,
} from "../src";
import {
  controllers,
  ControllerError,
  isNewtype,
  isValid,
  Match,
  Newtype,
  PathType,
  PathVar,
  Route,
  validated,
} from "../decorators";

/*
 * Parser classes for user newtypes: Newtype(base) derives parseUrlPiece/toUrlPiece from the wrapped
 * type, @PathType names the class for patterns, class-validator decorators refine it.
 */

@PathType()
class UserId extends Newtype(Int) {
  @Min(1) declare readonly value: number;
}

@PathType()
class Username extends Newtype(Text) {
  @Length(3, 20)
  @Matches(/^[a-z][a-z0-9_]*$/)
  declare readonly value: string;
}

@PathType("Ticket")
class TicketNumber extends Newtype(Int64) {}

declare module "../src" {
  interface PathTypes {
    UserId: UserId;
    Username: Username;
  }
}

describe("Newtype(base): parse and print like the wrapped type", () => {
  test("parses to an instance of the class holding the base parser's value", () => {
    const id = UserId.parseUrlPiece("0042");
    expect(id).toBeInstanceOf(UserId);
    expect((id as UserId).value).toBe(42);
    expect(UserId.parseUrlPiece("x")).toBe(NoParse);
    expect(UserId.parseUrlPiece("4.0")).toBe(NoParse);
    const ticket = TicketNumber.parseUrlPiece("9223372036854775807") as TicketNumber;
    expect(ticket).toBeInstanceOf(TicketNumber);
    expect(ticket.value).toBe(9223372036854775807n);
    expect(TicketNumber.parseUrlPiece("9223372036854775808")).toBe(NoParse);
  });

  test("toUrlPiece is the inverse of parseUrlPiece", () => {
    expect(UserId.toUrlPiece(UserId.of(7))).toBe("7");
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const parsed = UserId.parseUrlPiece(UserId.toUrlPiece(UserId.of(n)));
        return parsed instanceof UserId && parsed.value === n;
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (n) => {
        const parsed = TicketNumber.parseUrlPiece(TicketNumber.toUrlPiece(TicketNumber.of(n)));
        return parsed instanceof TicketNumber && parsed.value === n;
      }),
    );
  });

  test("new and of wrap a value; instances print, serialize and compare as the value", () => {
    const id = new UserId(5);
    expect(id.value).toBe(5);
    expect(UserId.of(6)).toBeInstanceOf(UserId);
    expect(String(id)).toBe("5");
    expect(JSON.stringify({ id })).toBe('{"id":5}');
    expect(+id < +UserId.of(6)).toBe(true);
  });

  test("the class is the parser's valueType, and Newtype classes are recognised", () => {
    expect(UserId.valueType).toBe(UserId);
    expect(TicketNumber.valueType).toBe(TicketNumber);
    expect(UserId.base).toBe(Int);
    expect(isNewtype(UserId)).toBe(true);
    expect(isNewtype(Int)).toBe(false);
    expect(isNewtype(undefined)).toBe(false);
  });

  test("a base that is not a parser is refused", () => {
    expect(() => Newtype({} as never)).toThrow(TypeError);
    expect(() => Newtype({ parseUrlPiece: () => 1 } as never)).toThrow(/toUrlPiece/);
  });

  test("a base parser that throws is a mismatch, not an error", () => {
    const Throwing: PathParser<number> = {
      name: "Throwing",
      parseUrlPiece: () => {
        throw new Error("nope");
      },
      toUrlPiece: String,
    };
    class Wrapped extends Newtype(Throwing) {}
    expect(Wrapped.parseUrlPiece("1")).toBe(NoParse);
  });
});

describe("class-validator refines a newtype: failing values are mismatches", () => {
  test("@Min(1) refuses 0 and negatives", () => {
    expect(UserId.parseUrlPiece("1")).toBeInstanceOf(UserId);
    expect(UserId.parseUrlPiece("0")).toBe(NoParse);
    expect(UserId.parseUrlPiece("-3")).toBe(NoParse);
    expect(UserId.isValid(UserId.of(0))).toBe(false);
    expect(isValid(UserId.of(2))).toBe(true);
  });

  test("@Length and @Matches on a Text newtype", () => {
    expect((Username.parseUrlPiece("ada_l") as Username).value).toBe("ada_l");
    for (const bad of ["ab", "a".repeat(21), "Ada", "9lives", "a b"])
      expect([bad, Username.parseUrlPiece(bad)]).toEqual([bad, NoParse]);
  });

  test("several constraints combine, and a newtype without constraints accepts every base value", () => {
    class Percent extends Newtype(Int) {
      @Min(0)
      @Max(100)
      declare readonly value: number;
    }
    expect(Percent.parseUrlPiece("100")).toBeInstanceOf(Percent);
    expect(Percent.parseUrlPiece("101")).toBe(NoParse);
    class Plain extends Newtype(Int) {}
    expect((Plain.parseUrlPiece("-5") as Plain).value).toBe(-5);
  });

  test("a subclass that redeclares value as a plain field still parses right (of re-stores it)", () => {
    class Field extends Newtype(Int) {
      @Min(10) override readonly value!: number;
    }
    expect((Field.parseUrlPiece("12") as Field).value).toBe(12);
    expect(Field.of(12).value).toBe(12);
    expect(Field.parseUrlPiece("9")).toBe(NoParse);
  });

  test("a hand-written parser class refines itself with validated()", () => {
    class Colour {
      @IsIn(["red", "green", "blue"]) readonly name: string;
      constructor(name: string) {
        this.name = name;
      }
      static parseUrlPiece(piece: string): Colour | NoParse {
        return validated(new Colour(piece.toLowerCase()));
      }
      static toUrlPiece(colour: Colour): string {
        return colour.name;
      }
    }
    expect(Colour.parseUrlPiece("RED")).toEqual(new Colour("red"));
    expect(Colour.parseUrlPiece("mauve")).toBe(NoParse);
    expect(validated(NoParse)).toBe(NoParse);
    expect(validated(5)).toBe(5);
  });
});

describe("@PathType registers a parser class for patterns", () => {
  test("under the class name, or a given name", () => {
    expect(lookupPathType("UserId")).toBe(UserId);
    expect(lookupPathType("Username")).toBe(Username);
    expect(lookupPathType("Ticket")).toBe(TicketNumber);
    expect(lookupPathType("TicketNumber")).toBeUndefined();
  });

  test("any class with static parseUrlPiece and toUrlPiece, not only newtypes", async () => {
    @PathType()
    class Slug {
      constructor(readonly text: string) {}
      static parseUrlPiece(piece: string): Slug | NoParse {
        return /^[a-z0-9-]+$/.test(piece) ? new Slug(piece) : NoParse;
      }
      static toUrlPiece(slug: Slug): string {
        return slug.text;
      }
    }
    // registered at run time only (no PathTypes entry): a non-literal pattern, checked at startup
    const app = route("GET /posts/slug:Slug" as string, (req) => (req.vars.slug as Slug).text.toUpperCase());
    expect((await inject(app, { url: "/posts/hello-world" })).body).toBe("HELLO-WORLD");
    expect((await inject(app, { url: "/posts/Hello" })).status).toBe(404);
  });

  test("a class without toUrlPiece, or a name taken by another parser, is refused", () => {
    class ParseOnly {
      static parseUrlPiece(piece: string) {
        return piece;
      }
    }
    // @ts-expect-error a parser class needs toUrlPiece as well
    expect(() => PathType()(ParseOnly)).toThrow(/ParseOnly.*toUrlPiece/);
    class Other extends Newtype(Int) {}
    expect(() => PathType("UserId")(Other)).toThrow(/already registered/);
    expect(() => PathType("not a name")(Other)).toThrow(TypeError);
    expect(() => PathType()(UserId)).not.toThrow();
  });
});

describe("newtypes in routes", () => {
  @Match("/users")
  class Users {
    @Route("GET /id:UserId")
    byId(@PathVar("id") id: UserId) {
      return { by: "id", id };
    }
    @Route("GET /name:Username")
    byName(@PathVar("name") name: Username) {
      return { by: "name", name };
    }
    @Route("GET /other:Text")
    other(@PathVar("other") other: string) {
      return { by: "text", other };
    }
  }
  const app = controllers([Users]);

  test("a value failing class-validator falls through to a later route", async () => {
    const body = async (url: string) => JSON.parse((await inject(app, { url })).body) as unknown;
    expect(await body("/users/7")).toEqual({ by: "id", id: 7 });
    expect(await body("/users/0")).toEqual({ by: "text", other: "0" });
    expect(await body("/users/grace")).toEqual({ by: "name", name: "grace" });
    expect(await body("/users/Grace")).toEqual({ by: "text", other: "Grace" });
  });

  test("the interpreter and the compiled dispatcher agree on a controllers tree with refined newtypes", async () => {
    const urls = [
      "/users/7",
      "/users/0",
      "/users/-1",
      "/users/grace",
      "/users/Grace",
      "/users/ab",
      "/users/",
      "/users/7/x",
    ];
    for (const url of urls) {
      const interpreted = await inject(app, { url }, { dispatcher: interpreter });
      const compiled = await inject(app, { url }, { dispatcher: (tree) => compile(tree).dispatch });
      expect([url, compiled.status, compiled.body]).toEqual([url, interpreted.status, interpreted.body]);
    }
    expect(compile(app).find("GET", "/users/0")?.handler.name).toBe("Users.other");
    expect(compile(app).find("GET", "/users/5")?.handler.name).toBe("Users.byId");
  });

  test("the handler gets an instance of the newtype", async () => {
    let seen: unknown;
    class Probe {
      @Route("GET /p/id:UserId")
      get(@PathVar("id") id: UserId) {
        seen = id;
      }
    }
    await inject(controllers([Probe]), { url: "/p/12" });
    expect(seen).toBeInstanceOf(UserId);
    expect((seen as UserId).value).toBe(12);
  });

  test("the same falling through in the functional form, by pattern name and by passing the class", async () => {
    const functional = alt(
      route("GET /u/id:UserId", (req) => `id ${req.vars.id.value + 1}`),
      pathVar(
        "n",
        UserId,
        route("GET /v", (req) => `v ${req.vars.n.value}`),
      ),
      match(
        "/",
        route("GET /u/x:Text", (req) => `text ${req.vars.x}`),
      ),
    );
    expect((await inject(functional, { url: "/u/41" })).body).toBe("id 42");
    expect((await inject(functional, { url: "/u/0" })).body).toBe("text 0");
    expect((await inject(functional, { url: "/3/v" })).body).toBe("v 3");
    expect((await inject(functional, { url: "/0/v" })).status).toBe(404);
  });

  test("a parameter declared as the wrapped type, not the newtype, is a startup error", () => {
    class Unwrapped {
      @Route("GET /u/id:UserId")
      get(@PathVar("id") _id: number) {}
    }
    let error: unknown;
    try {
      controllers([Unwrapped]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ControllerError);
    expect((error as ControllerError).message).toBe(
      'Unwrapped.get: parameter 0 (@PathVar("id")) is declared as number, but "id:UserId" gives UserId values',
    );
  });

  test("a newtype over UUID keeps the base's normalisation", async () => {
    @PathType()
    class OrderId extends Newtype(UUID) {}
    class Orders {
      // @ts-expect-error the compiler rejects this literal too; the test is about the startup check
      @Route("GET /orders/id:OrderId")
      get(@PathVar("id") id: OrderId) {
        return String(id);
      }
    }
    const res = await inject(controllers([Orders]), { url: "/orders/6BA7B810-9DAD-11D1-80B4-00C04FD430C8" });
    expect(res.body).toBe("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
  });
});
