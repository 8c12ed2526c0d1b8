/*
 * Child process of the framework benchmark: the API (bench/frameworks/api.js) as routing-controllers
 * 0.11 controllers on Express (class-validator DTO, `validation: true`); prints its port.
 * The query's integer check is routing-controllers' own: a `Number` parameter refuses a non-number.
 * Its default error handler answers, then hands the error on to Express, whose final handler logs it
 * and closes the connection; the usual "after" error middleware ends that (AnsweredErrors).
 */
require("reflect-metadata");
const {
  Body,
  createExpressServer,
  Delete,
  Get,
  HttpCode,
  JsonController,
  Middleware,
  Param,
  Patch,
  Post,
  Put,
  QueryParam,
} = require("routing-controllers");
const { fillerController, Users } = require("./controllers.js");
const { CreateUser } = require("./create-user.js");
const { decorateClass, decorateMethod } = require("./decorate.js");

decorateMethod(Users, "byId", { decorators: [Get("/users/:id")], params: [[Param("id")]], types: [Number] });
decorateMethod(Users, "list", {
  decorators: [Get("/users")],
  params: [[QueryParam("page", { required: true })]],
  types: [Number],
});
decorateMethod(Users, "create", {
  decorators: [Post("/users"), HttpCode(201)],
  params: [[Body({ required: true })]],
  types: [CreateUser],
});
decorateClass(Users, JsonController());

const Filler = fillerController({ GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete });
decorateClass(Filler, JsonController());

/** Ends an error routing-controllers has answered already; any other goes on to Express. */
class AnsweredErrors {
  error(error, request, response, next) {
    if (!response.headersSent) next(error);
  }
}
decorateClass(AnsweredErrors, Middleware({ type: "after" }));

const server = createExpressServer({
  controllers: [Users, Filler],
  middlewares: [AnsweredErrors],
  validation: true,
  development: false, // as in production: no stack trace printed and sent with every 400
}).listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
