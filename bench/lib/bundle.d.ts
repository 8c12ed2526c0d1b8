// Types of bundle.js, for the TypeScript tests that use it.

/** A bundled app: its bytes and text, its gzip size, and the input files that put bytes in it. */
export interface Bundle {
  readonly bytes: Uint8Array;
  readonly text: string;
  readonly gzip: number;
  readonly inputs: string[];
}

/** Bundles `contents` (minified ES module, platform neutral, the package by its exports; `external` left out). */
export declare function bundleApp(
  contents: string,
  options?: { readonly resolveDir?: string; readonly external?: readonly string[] },
): Promise<Bundle>;
