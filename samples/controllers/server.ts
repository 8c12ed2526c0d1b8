/** Serves the controllers sample: `npm run start:controllers`, then open the printed URL. */
import "reflect-metadata"; // tsyringe needs it before it loads; switchyard/decorators loads it too
import { createServer } from "node:http";
import { toApplication } from "switchyard-router";
import { createApp, withDocs } from "./app";
import { swaggerUiAssets } from "./docs-assets";

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";

const server = createServer(toApplication(withDocs(createApp(), swaggerUiAssets)));
server.listen(port, host, () => {
  const address = server.address();
  const actualPort = typeof address === "object" && address !== null ? address.port : port;
  console.log(
    `switchyard controllers sample listening on http://${host}:${actualPort}/  (try /health, /api/users?limit=1, /api/users/1, the docs at /docs)`,
  );
});
