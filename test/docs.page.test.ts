import "reflect-metadata";
import { existsSync } from "node:fs";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";
import { alt, DOCS_ASSETS, docs, inject, openapi, route, toApplication } from "../src";
import { createApp, withDocs } from "../samples/controllers/app";
import { swaggerUiAssets } from "../samples/controllers/docs-assets";
import { CONTROLLERS_SAMPLE_OPERATIONS } from "./shared/sample-operations";

/*
 * The docs page: its routes (the page, the document, the asset files read once through the app's
 * reader), and the page itself in a real headless Chromium (Debian's chromium package) against the
 * controllers sample served on 127.0.0.1: it loads with no console error, asks nothing of any other
 * host, and shows the sample's operations.
 */

const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

jest.setTimeout(120_000);

describe("docs(): the routes", () => {
  const api = route("GET /hello", () => "hi");
  const reads: string[] = [];
  const assets = (file: string) => {
    reads.push(file);
    return file.endsWith(".png") ? new Uint8Array([137, 80, 78, 71]) : `/* ${file} */`;
  };
  const app = alt(api, docs(api, { path: "/api/docs", title: "Hello <API>", assets }));

  test("GET /api/docs: the page, its files relative to it, no inline script, a CSP that allows nothing elsewhere", async () => {
    const page = await inject(app, { url: "/api/docs" });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain("<title>Hello &lt;API&gt;</title>");
    expect(page.body).toContain('<script src="docs/assets/swagger-ui-bundle.js"></script>');
    expect(page.body).toContain('<link rel="stylesheet" href="docs/assets/swagger-ui.css">');
    expect(page.body).toContain('data-openapi="docs/openapi.json"');
    expect(page.body).not.toMatch(/<script>|https?:\/\//);
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
  });

  test("GET /api/docs/openapi.json: the document of the tree given, without the docs routes", async () => {
    const res = await inject(app, { url: "/api/docs/openapi.json" });
    expect(res.status).toBe(200);
    const document = JSON.parse(res.body);
    expect(document).toEqual(openapi(api, { info: { title: "Hello <API>", version: "0.0.0" } }));
    expect(Object.keys(document.paths)).toEqual(["/hello"]);
    // the docs routes are hidden from a document of the whole app too
    expect(Object.keys(openapi(app, { info: { title: "t", version: "1" } }).paths)).toEqual(["/hello"]);
  });

  test("the assets: the known files, each read once, with their types; the start-up script; others are 404s", async () => {
    for (const file of DOCS_ASSETS) {
      const first = await inject(app, { url: `/api/docs/assets/${file}` });
      const second = await inject(app, { url: `/api/docs/assets/${file}` });
      expect(first.status).toBe(200);
      expect(second.body).toBe(first.body);
    }
    expect(reads).toEqual([...DOCS_ASSETS]);
    expect((await inject(app, { url: "/api/docs/assets/swagger-ui.css" })).headers["content-type"]).toBe(
      "text/css; charset=utf-8",
    );
    expect((await inject(app, { url: "/api/docs/assets/favicon-32x32.png" })).headers["content-type"]).toBe(
      "image/png",
    );
    const init = await inject(app, { url: "/api/docs/assets/init.js" });
    expect(init.body).toContain("SwaggerUIBundle(");
    expect(init.body).toContain("validatorUrl: null");
    expect((await inject(app, { url: "/api/docs/assets/index.html" })).status).toBe(404);
    expect((await inject(app, { url: "/api/docs/assets/..%2Fpackage.json" })).status).toBe(404);
  });

  test("a reader that fails is a 500 that says nothing of it, and is tried again on the next request", async () => {
    let fail = true;
    const errors: unknown[] = [];
    const flaky = alt(
      api,
      docs(api, {
        path: "/docs",
        title: "t",
        assets: async () => {
          if (fail) throw new Error("ENOENT: no swagger-ui-dist");
          return "ok";
        },
      }),
    );
    const failed = await inject(flaky, { url: "/docs/assets/swagger-ui.css" }, { onError: (e) => errors.push(e) });
    expect(failed.status).toBe(500);
    expect(failed.body).not.toContain("ENOENT");
    expect(String(errors[0])).toMatch(/reading swagger-ui-dist's swagger-ui.css failed/);
    fail = false;
    expect((await inject(flaky, { url: "/docs/assets/swagger-ui.css" })).body).toBe("ok");
  });

  test("options are checked when the subtree is made", () => {
    const assetsOk = () => "";
    expect(() => docs(api, { path: "/", title: "t", assets: assetsOk })).toThrow(/cannot be "\/"/);
    expect(() => docs(api, { path: "docs", title: "t", assets: assetsOk })).toThrow(/must be a path/);
    expect(() => docs(api, { path: "/docs", title: "t" } as never)).toThrow(/npm install swagger-ui-dist/);
  });

  test("the document's info and servers can be given, or the document itself", async () => {
    const given = alt(
      api,
      docs(api, {
        path: "/d",
        title: "T",
        assets: () => "",
        openapi: { info: { title: "Other", version: "2.0.0" }, servers: [{ url: "/" }] },
      }),
    );
    expect(JSON.parse((await inject(given, { url: "/d/openapi.json" })).body)).toMatchObject({
      info: { title: "Other", version: "2.0.0" },
      servers: [{ url: "/" }],
    });
  });
});

describe("the docs page of the controllers sample, in headless Chromium", () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let base = "";

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `no ${CHROMIUM}: the docs page test needs Debian's chromium package (apt-get update && apt-get install -y --no-install-recommends chromium; .ci/run installs it)`,
      );
    }
    server = createServer(toApplication(withDocs(createApp(), swaggerUiAssets)));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (server !== undefined) {
      server.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
    }
  });

  test("loads with no console error, asks only 127.0.0.1, and shows every operation of the sample", async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    const asked: string[] = [];
    const elsewhere: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
    // every request the page makes passes here: any to another host is recorded and never sent
    await context.route("**/*", (intercepted) => {
      const url = new URL(intercepted.request().url());
      asked.push(url.href);
      if (url.protocol !== "data:" && url.hostname !== "127.0.0.1") {
        elsewhere.push(url.href);
        return intercepted.abort();
      }
      return intercepted.continue();
    });
    const response = await page.goto(`${base}/docs`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
    await page.waitForSelector(".opblock-summary-path", { timeout: 30_000 });
    const operations = await page.$$eval(".opblock", (blocks) =>
      blocks.map((block) =>
        [
          block.querySelector(".opblock-summary-method")?.textContent,
          block.querySelector(".opblock-summary-path")?.textContent?.replace(/\u200b/g, ""),
        ].join(" "),
      ),
    );
    expect(operations.sort()).toEqual([...CONTROLLERS_SAMPLE_OPERATIONS].sort());
    const text = await page.textContent("#swagger-ui");
    expect(text).toContain("switchyard users (controllers sample)");
    expect(text).toContain("A user by id; else A user by name");
    // the fall-through route by name, in the combined operation's description
    const byId = page.locator(".opblock.opblock-get", { hasText: "A user by id; else A user by name" });
    await byId.locator(".opblock-summary").click();
    await byId.locator(".opblock-description-wrapper").waitFor();
    expect(await byId.textContent()).toContain("GET /api/users/{name:Username} (UsersController.byName)");
    // the shared schemas: the DTOs and the router's errors
    const models = await page.$$eval("section.models .json-schema-2020-12__title", (titles) =>
      titles.map((title) => title.textContent ?? ""),
    );
    expect(models).toEqual(expect.arrayContaining(["User", "CreateUser", "ValidationError", "FieldError", "Error"]));
    expect(asked).toEqual(
      expect.arrayContaining([
        `${base}/docs`,
        `${base}/docs/assets/swagger-ui-bundle.js`,
        `${base}/docs/assets/swagger-ui.css`,
        `${base}/docs/openapi.json`,
      ]),
    );
    expect({ problems, elsewhere }).toEqual({ problems: [], elsewhere: [] });
    await context.close();
  });
});
