/** A guard class, resolved by tsyringe like the controllers, so it can take the configured key. */
import type { RoutedRequest } from "switchyard-router";
import type { CanActivate } from "switchyard-router/decorators";
import { inject, injectable } from "tsyringe";

/** The token the app registers the API key under. */
export const API_KEY = "ApiKey";

/** Admits requests whose `x-api-key` header is the configured key; for the others the route does not match. */
@injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(@inject(API_KEY) private readonly apiKey: string) {}

  canActivate(req: RoutedRequest): boolean {
    return req.headers.get("x-api-key") === this.apiKey;
  }
}
