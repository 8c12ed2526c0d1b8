import { HttpError } from "../errors.js";
import { Text } from "../parsers/text.js";
import { json, reply, routeMismatch, type Reply } from "../reply.js";
import { openapi } from "../tools/openapi.js";
import type { OpenApiDocument, OpenApiOptions } from "../tools/openapi/types.js";
import { alt, described, method, path, pathEnd, pathVar, type Route, type RouteNode } from "../tree.js";
import { INIT_SCRIPT, pageHtml } from "./page.js";

/*
 * A docs page for a route tree: a subtree that serves the tree's OpenAPI document and an API reference
 * (Swagger UI) made from it. The page's scripts and styles come from the npm package swagger-ui-dist,
 * an optional peer, read through a function the app passes (`assets`): the core reads no file and loads
 * no package (it runs where there is no file system), and nothing is fetched from a CDN, so the page
 * works offline. Each asset is read once, on its first request. The routes are `hidden`: they are not
 * in the document they serve.
 */

/** The files of swagger-ui-dist the page loads. */
export const DOCS_ASSETS = ["swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png"] as const;

/** One of {@link DOCS_ASSETS}. */
export type DocsAsset = (typeof DOCS_ASSETS)[number];

/** Options of {@link docs}. */
export interface DocsOptions {
  /** Where the page is served (`/docs`): a literal path, not `/`. The document is at `PATH/openapi.json`. */
  readonly path: string;
  /** The page's title, and the document's `info.title` unless `openapi` gives one. */
  readonly title: string;
  /**
   * Reads one file of the swagger-ui-dist package (`swagger-ui-bundle.js`, …): its bytes or text. On
   * Node, `(file) => readFile(require.resolve(\`swagger-ui-dist/${file}\`))`.
   */
  readonly assets: (file: DocsAsset) => Uint8Array | string | Promise<Uint8Array | string>;
  /**
   * The document's `info` and `servers` (`info.version` is `"0.0.0"` unless given), or the document
   * itself; by default `openapi(tree, …)` with the title, made on the first request.
   */
  readonly openapi?: Partial<OpenApiOptions> | OpenApiDocument | (() => OpenApiDocument);
}

const TYPES: Readonly<Record<string, string>> = {
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  png: "image/png",
};

/**
 * The docs subtree for `tree`: mount it next to the app (`alt(app, docs(app, { path: "/docs", title,
 * assets }))`). `GET /docs` is the page, `GET /docs/openapi.json` the document, `GET /docs/assets/…` the
 * page's files.
 */
export function docs(tree: RouteNode, options: DocsOptions): Route {
  const { base, segments } = checked(options);
  let document: OpenApiDocument | undefined;
  const documentOf = (): OpenApiDocument => (document ??= made(tree, options));
  const files = new Map<string, Promise<Reply>>();
  const hidden = { hidden: true, tags: ["docs"] } as const;

  const page = described(() => pageReply(options.title, base), { ...hidden, name: "docs.page" });
  const openapiJson = described(() => json(documentOf(), { headers: NO_STORE }), { ...hidden, name: "docs.openapi" });
  const asset = described<{ file: string }>(
    (req) => {
      const file = req.vars.file;
      if (file === "init.js") return scriptReply();
      if (!(DOCS_ASSETS as readonly string[]).includes(file)) return routeMismatch();
      let read = files.get(file);
      if (read === undefined) {
        read = assetReply(options, file as DocsAsset);
        files.set(file, read);
        // a failed read is tried again on the next request
        read.catch(() => files.delete(file));
      }
      return read;
    },
    { ...hidden, name: "docs.asset" },
  );
  const get = (next: RouteNode) => method("GET", next);
  return path(
    `/${segments.join("/")}`,
    alt(
      get(pathEnd(page)),
      path("/openapi.json", get(pathEnd(openapiJson))),
      path("/assets", pathVar("file", Text, get(pathEnd(asset)))),
    ),
  );
}

function checked(options: DocsOptions): { base: string; segments: string[] } {
  if (typeof options !== "object" || options === null) throw new TypeError("docs: expected options");
  if (typeof options.path !== "string" || !options.path.startsWith("/"))
    throw new TypeError('docs: options.path must be a path such as "/docs"');
  const segments = options.path.split("/").filter((s) => s !== "");
  if (segments.length === 0) throw new TypeError('docs: options.path cannot be "/": give the page a path of its own');
  if (typeof options.title !== "string") throw new TypeError("docs: options.title must be a string");
  if (typeof options.assets !== "function")
    throw new TypeError(
      "docs: options.assets must be a function that reads a file of swagger-ui-dist (an optional peer: npm install swagger-ui-dist)",
    );
  return { base: segments.at(-1)!, segments };
}

/** The document: given, or made from the tree on first use. */
function made(tree: RouteNode, options: DocsOptions): OpenApiDocument {
  const given = options.openapi;
  if (typeof given === "function") return given();
  if (given !== undefined && "openapi" in given && "paths" in given) return given as OpenApiDocument;
  const settings = (given ?? {}) as Partial<OpenApiOptions>;
  return openapi(tree, {
    ...settings,
    info: { title: options.title, version: "0.0.0", ...(settings.info ?? {}) },
  });
}

const NO_STORE = { "cache-control": "no-cache" };
const SECURITY = { "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };

/**
 * The page: Swagger UI's styles and scripts from the page's own assets, and a Content-Security-Policy
 * that lets it load nothing from anywhere else.
 */
function pageReply(title: string, base: string): Reply {
  return reply({
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'self'",
      ].join("; "),
      ...NO_STORE,
      ...SECURITY,
    },
    body: pageHtml(title, base),
  });
}

function scriptReply(): Reply {
  return reply({ headers: { "content-type": TYPES.js!, ...NO_STORE, ...SECURITY }, body: INIT_SCRIPT });
}

/** An asset read through `options.assets`, or the error saying what is missing. */
async function assetReply(options: DocsOptions, file: DocsAsset): Promise<Reply> {
  let body: Uint8Array | string;
  try {
    body = await options.assets(file);
  } catch (error) {
    throw new HttpError(500, `docs: reading swagger-ui-dist's ${file} failed`, {
      cause: error,
      expose: false,
    });
  }
  if (typeof body !== "string" && !(body instanceof Uint8Array))
    throw new HttpError(500, `docs: options.assets gave no text or bytes for ${file}`, { expose: false });
  return reply({
    headers: {
      "content-type": TYPES[file.slice(file.lastIndexOf(".") + 1)] ?? "application/octet-stream",
      "cache-control": "public, max-age=3600",
      ...SECURITY,
    },
    body,
  });
}
