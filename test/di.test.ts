import "reflect-metadata";
import { Container, injectable as inversifyInjectable, inject as inversifyInject } from "inversify";
import { container as rootContainer, injectable, type DependencyContainer } from "tsyringe";
import { headerParam, inject, type RoutedRequest } from "../src";
import { controllers, ControllerError, Guard, Match, PathVar, Route, type CanActivate } from "../decorators";
import { shape } from "./helpers/decorators";

/*
 * Controllers through real DI containers: the resolver `(C) => container.resolve(C)` (tsyringe) or
 * `(C) => container.get(C)` (inversify) builds each controller with its constructor-injected
 * services; without one, controllers are built with `new`.
 */

describe("tsyringe", () => {
  @injectable()
  class Greetings {
    count = 0;
    greet(name: string): string {
      this.count++;
      return `hello ${name}`;
    }
  }

  @injectable()
  @Match("/greet")
  class GreetController {
    constructor(private readonly greetings: Greetings) {}

    @Route("GET /count")
    count() {
      return { count: this.greetings.count };
    }

    @Route("GET /name:Text")
    greet(@PathVar("name") name: string) {
      return this.greetings.greet(name);
    }
  }

  /** A fresh container per test, with one Greetings for the whole container. */
  function freshContainer(): DependencyContainer {
    const container = rootContainer.createChildContainer();
    container.registerSingleton(Greetings);
    return container;
  }

  test("a controller gets its constructor-injected service from the container", async () => {
    const container = freshContainer();
    const app = controllers([GreetController], { resolve: (C) => container.resolve(C) });
    expect((await inject(app, { url: "/greet/ada" })).body).toBe("hello ada");
    await inject(app, { url: "/greet/alan" });
    expect(JSON.parse((await inject(app, { url: "/greet/count" })).body)).toEqual({ count: 2 });
    expect(container.resolve(Greetings).count).toBe(2);
  });

  test("a registered stand-in replaces the service: how a test swaps a dependency", async () => {
    const container = freshContainer();
    container.registerInstance(Greetings, { count: 0, greet: (name: string) => `stub ${name}` });
    const app = controllers([GreetController], { resolve: (C) => container.resolve(C) });
    expect((await inject(app, { url: "/greet/ada" })).body).toBe("stub ada");
  });

  test("the resolver runs once per controller, when controllers() runs", async () => {
    const container = freshContainer();
    const resolved: unknown[] = [];
    const app = controllers([GreetController], { resolve: (C) => (resolved.push(C), container.resolve(C)) });
    expect(resolved).toEqual([GreetController]);
    await inject(app, { url: "/greet/a" });
    await inject(app, { url: "/greet/b" });
    expect(resolved).toEqual([GreetController]);
  });
});

describe("inversify", () => {
  @inversifyInjectable()
  class Inventory {
    private readonly stock = new Map([["apple", 3]]);
    count(item: string): number | undefined {
      return this.stock.get(item);
    }
  }

  const CLOCK = Symbol("clock");

  @inversifyInjectable()
  @Match("GET /stock")
  class StockController {
    constructor(
      private readonly inventory: Inventory,
      @inversifyInject(CLOCK) private readonly now: () => string,
    ) {}

    @Route("/item:Text")
    item(@PathVar("item") item: string) {
      return { item, count: this.inventory.count(item) ?? 0, at: this.now() };
    }
  }

  function containerWithBindings(): Container {
    const container = new Container();
    container.bind(Inventory).toSelf().inSingletonScope();
    container.bind(CLOCK).toConstantValue(() => "noon");
    container.bind(StockController).toSelf().inSingletonScope();
    return container;
  }

  test("a controller gets its constructor-injected services from the container", async () => {
    const container = containerWithBindings();
    const app = controllers([StockController], { resolve: (C) => container.get(C) });
    expect(JSON.parse((await inject(app, { url: "/stock/apple" })).body)).toEqual({
      item: "apple",
      count: 3,
      at: "noon",
    });
    expect(JSON.parse((await inject(app, { url: "/stock/pear" })).body)).toEqual({
      item: "pear",
      count: 0,
      at: "noon",
    });
  });

  test("a controller the container cannot build is a startup error naming the class", () => {
    const container = new Container();
    let error: unknown;
    try {
      controllers([StockController], { resolve: (C) => container.get(C) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ControllerError);
    expect((error as ControllerError).code).toBe("RESOLVE_FAILED");
    expect((error as ControllerError).message).toMatch(/^StockController: could not obtain an instance: /);
    expect((error as ControllerError).cause).toBeInstanceOf(Error);
  });
});

describe("default construction", () => {
  test("without a resolver, a controller is built once with new and no arguments", async () => {
    const made: string[] = [];
    class Plain {
      private readonly id: string;
      constructor(...args: unknown[]) {
        this.id = `built with ${args.length} arguments`;
        made.push(this.id);
      }
      @Route("GET /plain")
      plain() {
        return this.id;
      }
    }
    const app = controllers([Plain]);
    expect((await inject(app, { url: "/plain" })).body).toBe("built with 0 arguments");
    await inject(app, { url: "/plain" });
    expect(made).toEqual(["built with 0 arguments"]);
  });
});

describe("request-scoped controllers", () => {
  /** Who asked: a per-request value the app puts in each request's child container. */
  class Caller {
    constructor(readonly name: string) {}
  }

  test("tsyringe: a child container per request; the controller and its guard are built for each request", async () => {
    @injectable()
    class Counter {
      made = 0;
    }
    @injectable()
    class SignedIn implements CanActivate {
      constructor(private readonly caller: Caller) {}
      canActivate() {
        return this.caller.name !== "anonymous";
      }
    }
    @injectable()
    @Guard(SignedIn)
    class Profile {
      constructor(
        private readonly caller: Caller,
        counter: Counter,
      ) {
        counter.made++;
      }
      @Route("GET /me")
      me() {
        return { name: this.caller.name };
      }
    }
    const root = rootContainer.createChildContainer();
    root.registerSingleton(Counter);
    // one child container per request, shared by the guard and the controller: keyed by req.raw,
    // the adapter's native request, the same object for every guard and handler of one request
    const children = new WeakMap<object, DependencyContainer>();
    let made = 0;
    const childFor = (req: RoutedRequest): DependencyContainer => {
      let child = children.get(req.raw as object);
      if (child === undefined) {
        child = root.createChildContainer();
        child.register(Caller, {
          useValue: new Caller(headerParam(req, "x-user", undefined, { optional: true }) ?? "anonymous"),
        });
        children.set(req.raw as object, child);
        made++;
      }
      return child;
    };
    const resolved: string[] = [];
    const app = controllers([Profile], {
      scope: "request",
      resolve: (C, req) => (resolved.push(C.name), childFor(req).resolve(C)),
    });
    expect(resolved).toEqual([]); // nothing is resolved at startup
    expect(JSON.parse((await inject(app, { url: "/me", headers: { "x-user": "ada" } })).body)).toEqual({ name: "ada" });
    expect(JSON.parse((await inject(app, { url: "/me", headers: { "x-user": "alan" } })).body)).toEqual({
      name: "alan",
    });
    expect((await inject(app, { url: "/me" })).status).toBe(404);
    expect(root.resolve(Counter).made).toBe(2);
    // the guard class and the controller per admitted request, the guard alone for the refused one
    expect(resolved).toEqual(["SignedIn", "Profile", "SignedIn", "Profile", "SignedIn"]);
    expect(made).toBe(3);
  });

  test("inversify: a child container per request (new Container({ parent }))", async () => {
    const REQUEST_ID = Symbol("requestId");
    @inversifyInjectable()
    class Orders {
      constructor(@inversifyInject(REQUEST_ID) readonly requestId: string) {}
      @Route("GET /orders/id:Int")
      get(@PathVar("id") id: number) {
        return { id, requestId: this.requestId };
      }
    }
    const parent = new Container();
    let next = 0;
    const app = controllers([Orders], {
      scope: "request",
      resolve: (C) => {
        const child = new Container({ parent });
        child.bind(REQUEST_ID).toConstantValue(`r${++next}`);
        child.bind(C).toSelf();
        return child.get(C);
      },
    });
    expect(JSON.parse((await inject(app, { url: "/orders/5" })).body)).toEqual({ id: 5, requestId: "r1" });
    expect(JSON.parse((await inject(app, { url: "/orders/6" })).body)).toEqual({ id: 6, requestId: "r2" });
  });

  test("the routes and their checks are the singleton ones: same tree, same startup errors", () => {
    class Plain {
      @Route("GET /p/id:Int")
      p(@PathVar("id") _id: number) {}
    }
    const resolve = () => new Plain();
    expect(shape(controllers([Plain], { scope: "request", resolve }))).toEqual(shape(controllers([Plain])));
    class Broken {
      @Route("GET /b/id:Int")
      b() {}
    }
    expect(() => controllers([Broken], { scope: "request", resolve })).toThrow(ControllerError);
  });

  test("a resolver that fails or gives no instance on a request is a 500 reported to onError; the app goes on", async () => {
    class Flaky {
      @Route("GET /f")
      f() {
        return "ok";
      }
    }
    let answer: unknown = new Flaky();
    const app = controllers([Flaky], { scope: "request", resolve: () => answer as object });
    expect((await inject(app, { url: "/f" })).body).toBe("ok");
    for (const bad of [null, Promise.resolve(new Flaky()), 7]) {
      answer = bad;
      const errors: unknown[] = [];
      expect((await inject(app, { url: "/f" }, { onError: (e) => errors.push(e) })).status).toBe(500);
      expect(errors[0]).toBeInstanceOf(ControllerError);
      expect((errors[0] as ControllerError).code).toBe("RESOLVE_FAILED");
    }
    answer = new Flaky();
    expect((await inject(app, { url: "/f" })).body).toBe("ok");
  });

  test('scope "request" without a resolver, or an unknown scope, is refused', () => {
    class X {
      @Route("GET /")
      x() {}
    }
    expect(() => controllers([X], { scope: "request" } as never)).toThrow(
      'controllers: scope "request" needs resolve: (C, request) => instance',
    );
    expect(() => controllers([X], { scope: "session" } as never)).toThrow(
      'controllers: scope must be "singleton" or "request", got "session"',
    );
  });
});
