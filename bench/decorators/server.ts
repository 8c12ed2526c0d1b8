/*
 * Child process of bench/decorators/run.js: one node:http server on 127.0.0.1 serving one variant of
 * the same route, then prints its port. The package is loaded from the CommonJS build in SWITCHYARD_DIST
 * (this branch's dist/cjs by default), so the same controller can run against another build.
 * Usage: node dist/bench/decorators/server.js <variant>
 */
import "reflect-metadata";
import { createServer } from "node:http";
import path from "node:path";
import { load, variants } from "./variants";

const { sy, dec } = load(process.env.SWITCHYARD_DIST ?? path.resolve(__dirname, "../../cjs"));
const variant = process.argv[2] ?? "";
const make = variants(sy, dec)[variant];
if (make === undefined) throw new Error(`unknown variant ${variant}`);
const server = createServer(sy.toApplication(make()));
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${typeof address === "object" && address !== null ? address.port : 0}\n`);
});
