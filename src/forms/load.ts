/*
 * The multipart parser, multipasta (an optional peer dependency), loaded the first time a multipart
 * body is read: an app that never reads one never loads it, and a bundler puts it in a chunk of its own.
 * Only the few members used are typed here, so the package's declarations need no multipasta types.
 */

/** What multipasta tells of a part once its headers are read. */
export interface PartInfo {
  /** The part's headers by lower-case name (a repeated header: an array). */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
}

/** A multipasta error. */
export type ParserError =
  | { readonly _tag: "InvalidBoundary" }
  | { readonly _tag: "BadHeaders"; readonly error: { readonly reason: string } }
  | { readonly _tag: "InvalidDisposition" }
  | { readonly _tag: "ReachedLimit"; readonly limit: string }
  | { readonly _tag: "EndNotReached" };

/** multipasta's push parser: chunks in, callbacks out, synchronously. */
export interface Parser {
  write(chunk: Uint8Array): void;
  end(): void;
}

/** multipasta's `make` options. */
export interface ParserConfig {
  readonly headers: Readonly<Record<string, string>>;
  readonly isFile: (info: PartInfo) => boolean;
  readonly maxFieldSize: number;
  readonly onField: (info: PartInfo, value: Uint8Array) => void;
  readonly onFile: (info: PartInfo) => (chunk: Uint8Array | null) => void;
  readonly onError: (error: ParserError) => void;
  readonly onDone: () => void;
}

/** The part of multipasta's module used here. */
export interface Multipasta {
  readonly make: (config: ParserConfig) => Parser;
}

let loading: Promise<Multipasta> | undefined;

/**
 * multipasta's module, imported once. Not installed: an `Error` (a 500: the app's setup, not the
 * client's request) that says what to install.
 */
export function loadMultipasta(): Promise<Multipasta> {
  loading ??= import("multipasta").then(
    (module) => module as unknown as Multipasta,
    (error: unknown) => {
      loading = undefined;
      throw new Error(
        "reading a multipart/form-data body needs the optional peer dependency multipasta: npm install multipasta",
        { cause: error },
      );
    },
  );
  return loading;
}
