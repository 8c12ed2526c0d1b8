/*
 * The API's controllers as plain classes, for the apps that decorate them from JavaScript (nest.mjs,
 * routing-controllers.js, through decorate.js): each app adds its framework's decorators, so both
 * answer with the same handlers.
 */
const { FILLER, fillerBody } = require("../api.js");
const { decorateMethod } = require("./decorate.js");

/** GET /users/:id, GET /users?page and POST /users; the app decorates the methods and the class. */
class Users {
  byId(id) {
    return { id, name: `user ${id}` };
  }
  list(page) {
    return { page, users: [] };
  }
  create(user) {
    return { id: 1, name: user.name, age: user.age };
  }
}

/**
 * The filler routes as a class of one method each (`route<i>`), decorated with `verbs[method](path)`
 * (the framework's route decorator per HTTP method); the app decorates the class.
 */
function fillerController(verbs) {
  class Filler {}
  FILLER.forEach(([method, path], i) => {
    Filler.prototype[`route${i}`] = () => fillerBody(method, path);
    decorateMethod(Filler, `route${i}`, { decorators: [verbs[method](path)] });
  });
  return Filler;
}

module.exports = { Users, fillerController };
