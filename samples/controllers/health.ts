/** Controllers without a `@Match` prefix live at the root; `@Match` may also fix the method. */
import { Day } from "switchyard-router";
import { Match, PathVar, Route } from "switchyard-router/decorators";
import { injectable } from "tsyringe";
import { UserStore } from "./users";

export class HealthController {
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

  @Route("/on:Day")
  on(@PathVar("on") on: Day) {
    return { day: on, users: this.store.all().length };
  }
}
