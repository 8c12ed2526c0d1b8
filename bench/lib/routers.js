/*
 * One adapter per router: `build(routes)` registers a route table and returns
 * `{ lookup(method, path), answer(method, path) }`. `lookup` is what is timed (the router's own
 * lookup call, nothing more); `answer` turns a lookup into `{ id, params }` (or null) for checking.
 * Routers that cannot express a table throw `Unsupported`.
 */
const { parts, render, hasInt } = require("./data");

class Unsupported extends Error {}

const strings = (params) => Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k, String(v)]));

/** The `*` value a router that does not capture it would have: the rest after the route's prefix. */
function restAfter(routePath, requestPath) {
  const prefix = parts(routePath).length - 1;
  return requestPath
    .split("/")
    .slice(prefix + 1)
    .join("/");
}

const adapters = {
  switchyard() {
    const sy = require(process.env.SWITCHYARD_DIST ?? "../../dist/src/index.js");
    /** The route tree of a route list, each handler answering its route's id. */
    const tree = (routes) =>
      sy.alt(
        ...routes.map((route) => {
          const ps = parts(route.path);
          const handler = () => route.id;
          handler.route = route;
          // a trailing `*` is a prefix route: no pathEnd, the handler gets the rest
          let next = ps.at(-1)?.wildcard ? handler : sy.pathEnd(handler);
          for (const p of ps.filter((q) => !q.wildcard).reverse()) {
            next =
              p.literal !== undefined
                ? sy.path(`/${p.literal}`, next)
                : sy.pathVar(p.param, p.int ? sy.Word : sy.Text, next);
          }
          return sy.method(route.method, next);
        }),
      );
    return {
      tree,
      build(routes) {
        const router = sy.compile(tree(routes));
        return {
          lookup: (method, path) => router.find(method, path),
          answer(method, path) {
            const found = router.find(method, path);
            if (found === null) return null;
            const params = strings(found.vars);
            if (parts(found.handler.route.path).at(-1)?.wildcard) params["*"] = found.rest.join("/");
            return { id: found.handler.route.id, params };
          },
        };
      },
    };
  },

  "find-my-way": () => findMyWay(false),
  "find-my-way compiled": () => findMyWay(true),

  memoirist() {
    const { Memoirist } = require("memoirist");
    return {
      build(routes) {
        if (hasInt(routes)) throw new Unsupported("no typed parameters");
        const router = new Memoirist();
        for (const r of routes) router.add(r.method, render(r.path, { param: (n) => `:${n}`, wildcard: "*" }), r.id);
        return {
          lookup: (method, path) => router.find(method, path),
          answer(method, path) {
            const found = router.find(method, path);
            return found === null ? null : { id: found.store, params: strings(found.params) };
          },
        };
      },
    };
  },

  async rou3() {
    const { createRouter, addRoute, findRoute } = await import("rou3");
    return {
      build(routes) {
        const router = createRouter();
        for (const r of routes) {
          addRoute(
            router,
            r.method,
            render(r.path, { param: (n) => `:${n}`, intParam: (n) => `:${n}(\\d+)`, wildcard: "**" }),
            r.id,
          );
        }
        return {
          lookup: (method, path) => findRoute(router, method, path),
          answer(method, path) {
            const found = findRoute(router, method, path);
            if (found === undefined) return null;
            const params = strings(found.params);
            if ("_" in params) {
              params["*"] = params._;
              delete params._;
              delete params["0"];
            }
            return { id: found.data, params };
          },
        };
      },
    };
  },

  "hono RegExpRouter": () => hono(require("hono/router/reg-exp-router").RegExpRouter, true),
  "hono TrieRouter": () => hono(require("hono/router/trie-router").TrieRouter, false),

  "koa-tree-router"() {
    const Router = require("koa-tree-router");
    return {
      build(routes) {
        if (hasInt(routes)) throw new Unsupported("no typed parameters");
        const router = new Router();
        for (const r of routes) {
          const handler = () => r.id;
          handler.route = r;
          router.on(r.method, render(r.path, { param: (n) => `:${n}`, wildcard: "*wildcard" }), handler);
        }
        return {
          lookup: (method, path) => router.find(method, path),
          answer(method, path) {
            const found = router.find(method, path);
            if (found.handle === null || found.handle === undefined) return null;
            const params = {};
            for (const { key, value } of found.params)
              params[key === "wildcard" ? "*" : key] = key === "wildcard" ? value.replace(/^\//, "") : value;
            return { id: found.handle[0].route.id, params };
          },
        };
      },
    };
  },

  "express 5"() {
    const express = require("express");
    return {
      build(routes) {
        if (hasInt(routes)) throw new Unsupported("no typed parameters (path-to-regexp 8)");
        const router = express.Router();
        for (const r of routes) {
          const pattern = render(r.path, { param: (n) => `:${n}`, wildcard: "*wildcard" });
          router[r.method.toLowerCase()](pattern, (req, res) => res.done({ id: r.id, params: req.params }));
        }
        // Express has no lookup call: a lookup is one pass of a request through the router
        const lookup = (method, url) =>
          new Promise((resolve) => router({ method, url }, { done: resolve }, () => resolve(null)));
        return {
          lookup,
          async answer(method, path) {
            const found = await lookup(method, path);
            if (found === null) return null;
            const params = strings(found.params);
            if ("wildcard" in params) {
              params["*"] = found.params.wildcard.join("/");
              delete params.wildcard;
            }
            return { id: found.id, params };
          },
        };
      },
    };
  },
};

function findMyWay(compiled) {
  const FindMyWay = require("find-my-way");
  return {
    build(routes) {
      const router = FindMyWay();
      for (const r of routes) {
        // the store is an object: find-my-way reports a falsy store (route 0) as none
        router.on(
          r.method,
          render(r.path, { param: (n) => `:${n}`, intParam: (n) => `:${n}(^\\d+$)`, wildcard: "*" }),
          () => r.id,
          { id: r.id },
        );
      }
      if (compiled) router.compile();
      return {
        lookup: (method, path) => router.find(method, path),
        answer(method, path) {
          const found = router.find(method, path);
          return found === null ? null : { id: found.store.id, params: strings(found.params) };
        },
      };
    },
  };
}

function hono(Router, stash) {
  return {
    build(routes) {
      const router = new Router();
      for (const r of routes)
        router.add(
          r.method,
          render(r.path, { param: (n) => `:${n}`, intParam: (n) => `:${n}{[0-9]+}`, wildcard: "*" }),
          r,
        );
      const answer = (method, path) => {
        const [matches, values] = router.match(method, path);
        if (matches.length === 0) return null;
        const [route, map] = matches[0];
        const params = stash ? Object.fromEntries(Object.entries(map).map(([k, i]) => [k, values[i]])) : strings(map);
        if (parts(route.path).at(-1)?.wildcard) params["*"] = restAfter(route.path, path);
        return { id: route.id, params };
      };
      answer("GET", "/"); // RegExpRouter builds its matcher on first use: fail here if it cannot
      return { lookup: (method, path) => router.match(method, path), answer };
    },
  };
}

/** Router names, in table order. */
const NAMES = Object.keys(adapters);

module.exports = { adapters, NAMES, Unsupported };
