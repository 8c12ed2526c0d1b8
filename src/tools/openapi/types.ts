/** A JSON object of the document. */
export type OpenApiObject = { [key: string]: unknown };

/** Options of `openapi`: the document's `info` (title and version at least) and `servers`. */
export interface OpenApiOptions {
  readonly info: { readonly title: string; readonly version: string } & Readonly<Record<string, unknown>>;
  readonly servers?: readonly ({ readonly url: string } & Readonly<Record<string, unknown>>)[];
}

/** An OpenAPI 3.1 document. */
export interface OpenApiDocument {
  readonly openapi: "3.1.0";
  readonly info: OpenApiOptions["info"];
  readonly servers?: OpenApiOptions["servers"];
  readonly paths: Readonly<Record<string, OpenApiObject>>;
  readonly components?: OpenApiObject;
}
