/**
 * The docs page's files, read from the swagger-ui-dist package on Node (the core reads no file: it
 * runs where there is no file system too, so the app says where the files are).
 */
import { readFile } from "node:fs/promises";
import type { DocsAsset } from "switchyard-router";

/** Reads one file of swagger-ui-dist, from wherever Node resolves the package. */
export const swaggerUiAssets = (file: DocsAsset): Promise<Uint8Array> =>
  readFile(require.resolve(`swagger-ui-dist/${file}`));
