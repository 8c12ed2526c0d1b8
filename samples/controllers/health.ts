/** Controllers without a `@Match` prefix live at the root; `@Match` may also fix the method. */
import { Day } from "switchyard-router";
import { Describe, Match, PathVar, Route } from "switchyard-router/decorators";
import { injectable } from "tsyringe";
import { UserStore } from "./users";

export class HealthController {
  @Describe({
    summary: "Is the server up?",
    responses: {
      200: {
        description: "it is",
        schema: { type: "object", properties: { status: { const: "ok" } }, required: ["status"] },
      },
    },
  })
  @Route("GET /health")
  health() {
    return { status: "ok" };
  }
}

/** Every route of this class is a GET under /api/reports. */
@injectable()
@Match("GET /api/reports")
export class ReportsController {
  constructor(private readonly store: UserStore) {}

  @Describe({
    summary: "How many users there are, on a day",
    responses: {
      200: {
        description: "the report",
        schema: {
          type: "object",
          properties: { day: { type: "string", format: "date" }, users: { type: "integer", minimum: 0 } },
          required: ["day", "users"],
        },
      },
    },
  })
  @Route("/on:Day")
  on(@PathVar("on") on: Day) {
    return { day: on, users: this.store.all().length };
  }
}
