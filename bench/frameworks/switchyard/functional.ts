/*
 * The framework benchmark's API with the functional counterparts of the decorated app: the same
 * class-validator DTO, read by body().
 */
import { body } from "switchyard-router/decorators";
import { CreateUser } from "./create-user.js";
import { functionalApi } from "./functional-routes.js";

/** The whole API: the three routes, then the filler routes. */
export const app = functionalApi((req) => body(req, CreateUser));
