/**
 * The functional sample's API, written with decorated controllers, a validated newtype and tsyringe,
 * plus a form upload and a stream of server-sent events;
 * a functional route mounts next to them in the same tree.
 */
import { alt, type DocsOptions, docs, match, type Route } from "switchyard-router";
import { controllers } from "switchyard-router/decorators";
import { container as rootContainer, type DependencyContainer } from "tsyringe";
import { HealthController, ReportsController } from "./health";
import { API_KEY } from "./api-key";
import { EventsController, UploadsController } from "./media";
import { UsersController, UserStore } from "./users";

export function createApp(
  container: DependencyContainer = rootContainer.createChildContainer(),
  apiKey = "let-me-in",
): Route {
  container.registerSingleton(UserStore);
  container.register(API_KEY, { useValue: apiKey });
  return alt(
    // classes in this order, each class's routes in declaration order
    controllers([HealthController, UsersController, ReportsController, UploadsController, EventsController], {
      resolve: (C) => container.resolve(C),
    }),
    // decorated and functional routes mix freely
    match("GET /static", (req) => `you asked for ${req.rest.join("/")}`),
  );
}

/**
 * The API with its docs page at /docs (Swagger UI on the API's OpenAPI document, at
 * /docs/openapi.json), its files read by `assets`.
 */
export function withDocs(api: Route, assets: DocsOptions["assets"]): Route {
  return alt(api, docs(api, { path: "/docs", title: "switchyard users (controllers sample)", assets }));
}
