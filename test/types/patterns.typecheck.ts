import { alt, Day, Int, match, route, toApplication, type Route, pathVar, routeMismatch } from "../../src";

const user = route("GET /u/id:Int/on:Day", (req) => {
  const id: number = req.vars.id;
  const on: Day = req.vars.on;
  // @ts-expect-error id is a number, not a string
  const wrong: string = req.vars.id;
  // @ts-expect-error the pattern has no label "nope"
  void req.vars.nope;
  return { id, on, wrong };
});

const api = match(
  "/api/org:Text",
  alt(
    route("GET /members/id:Int", (req) => {
      const org: string = req.vars.org;
      const id: number = req.vars.id;
      return { org, id };
    }),
    match(
      "POST /teams/team:Word",
      route("/x", (req) => {
        const n: number = req.vars.team + req.vars.org.length;
        return n;
      }),
    ),
    route("/", (req) => {
      // @ts-expect-error no "id" here
      void req.vars.id;
      return routeMismatch();
    }),
  ),
);

const dynamic: string = "/a/b:Int";
const loose = route(dynamic, (req) => {
  const v: unknown = req.vars["b"];
  return String(v);
});

const tree: Route = alt(
  user,
  api,
  loose,
  pathVar(
    "k",
    Int,
    route("/z", (req) => req.vars.k),
  ),
);
toApplication(tree);
