/*
 * Child process of the cold-start benchmark (Bun): Bun.serve answering GET /users/:id by hand, the floor
 * of a Bun server's start-up; prints its port.
 */
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(request) {
    const id = /^\/users\/(\d+)$/.exec(new URL(request.url).pathname);
    return id === null
      ? new Response(null, { status: 404 })
      : Response.json({ id: Number(id[1]), name: `user ${id[1]}` });
  },
});
process.stdout.write(`${server.port}\n`);
