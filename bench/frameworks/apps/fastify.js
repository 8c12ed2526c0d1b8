/*
 * Child process of the framework benchmark: the API (bench/frameworks/api.js) on Fastify 5, validated
 * by JSON schemas on the params, the query and the body (no response schemas); prints its port.
 */
const { FILLER, fillerBody, NAME_MAX, NAME_MIN } = require("../api.js");

const app = require("fastify")();
const object = (properties) => ({ type: "object", properties, required: Object.keys(properties) });

app.get("/users/:id", { schema: { params: object({ id: { type: "integer" } }) } }, async (req) => ({
  id: req.params.id,
  name: `user ${req.params.id}`,
}));
app.get("/users", { schema: { querystring: object({ page: { type: "integer" } }) } }, async (req) => ({
  page: req.query.page,
  users: [],
}));
app.post(
  "/users",
  {
    schema: {
      body: object({
        name: { type: "string", minLength: NAME_MIN, maxLength: NAME_MAX },
        age: { type: "integer", minimum: 0 },
      }),
    },
  },
  async (req, reply) => {
    reply.code(201);
    return { id: 1, name: req.body.name, age: req.body.age };
  },
);
for (const [method, path] of FILLER) app.route({ method, url: path, handler: async () => fillerBody(method, path) });

app.listen({ port: 0, host: "127.0.0.1" }).then(() => process.stdout.write(`${app.server.address().port}\n`));
