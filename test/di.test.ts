import "reflect-metadata";
import { Container, injectable as inversifyInjectable, inject as inversifyInject } from "inversify";
import { container as rootContainer, injectable, type DependencyContainer } from "tsyringe";
import { inject } from "../src";
import { controllers, ControllerError, Match, PathVar, Route } from "../decorators";

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
    expect(JSON.parse((await inject(app, { url: "/stock/apple" })).body)).toEqual({ item: "apple", count: 3, at: "noon" });
    expect(JSON.parse((await inject(app, { url: "/stock/pear" })).body)).toEqual({ item: "pear", count: 0, at: "noon" });
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
