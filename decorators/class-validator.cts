/*
 * Loads the optional peer dependencies class-validator and class-transformer, synchronously, as
 * parsing a segment must. A .cts file compiles to a CommonJS .cjs file in both builds: ES modules have
 * no `require`, so the ES module build imports this file to get one (resolving from here, as the
 * CommonJS build does).
 */

/** class-validator's module, or `null` when it is not installed. */
export function loadClassValidator(): unknown {
  return loadOptional("class-validator");
}

/** class-transformer's module, or `null` when it is not installed. */
export function loadClassTransformer(): unknown {
  return loadOptional("class-transformer");
}

/*
 * Two parts their index does not export, for the compiled DTO validator (dto-libraries.ts): the very
 * modules the packages use, or `null` when a version lays them out otherwise. Loaded by name even where
 * the app handed the package over (provideLibraries): the compiler checks that the storage it reads is
 * the copy handed over (in a Bun bundle it is not, see dto-libraries.ts).
 */

/** class-validator's `ValidationUtils` module (its message formatter), or `null`. */
export function loadValidationUtils(): unknown {
  return loadPart("class-validator/cjs/validation/ValidationUtils");
}

/** class-transformer's `storage` module (its `defaultMetadataStorage`), or `null`. */
export function loadTransformerStorage(): unknown {
  return loadPart("class-transformer/cjs/storage");
}

/** The class-transformer module the app handed over with {@link provideLibraries}, if it did. */
export function handedOverTransformer(): unknown {
  return provided()["class-transformer"];
}

function loadPart(name: string): unknown {
  try {
    return loadOptional(name);
  } catch {
    return null;
  }
}

/** The optional peers an app handed over ({@link provideLibraries}), shared by both builds of the package. */
const PROVIDED = Symbol.for("switchyard-router.decorators.libraries");

type Provided = Partial<Record<"class-validator" | "class-transformer", unknown>>;

function provided(): Provided {
  const holder = globalThis as { [PROVIDED]?: Provided };
  holder[PROVIDED] ??= {};
  return holder[PROVIDED];
}

/**
 * Hands class-validator and class-transformer to `switchyard-router/decorators` when they cannot be
 * loaded by name: in a bundle (esbuild, wrangler, Bun's bundler), where a `require` of a name chosen at
 * run time is not followed, so the bundle holds the libraries only if the app imports them itself. Call
 * it once, before the first request:
 * ```ts
 * import * as classTransformer from "class-transformer";
 * import * as classValidator from "class-validator";
 * provideLibraries({ "class-validator": classValidator, "class-transformer": classTransformer });
 * ```
 * Under Node, Bun and Deno without a bundler it is not needed: the libraries are loaded by name. Where
 * the compiled validator cannot read the metadata of the class-transformer handed over (a bundle), DTOs
 * are checked by the libraries handed over themselves.
 */
export function provideLibraries(libraries: Provided): void {
  if (typeof libraries !== "object" || libraries === null)
    throw new TypeError("provideLibraries: expected { 'class-validator'?: module, 'class-transformer'?: module }");
  for (const name of ["class-validator", "class-transformer"] as const) {
    const library = libraries[name];
    if (library === undefined) continue;
    if (typeof library !== "object" || library === null)
      throw new TypeError(`provideLibraries: "${name}" must be the module (import * as m from "${name}")`);
    provided()[name] = library;
  }
}

function loadOptional(name: string): unknown {
  const given = provided()[name as keyof Provided];
  if (given !== undefined) return given;
  try {
    return require(name) as unknown;
  } catch (error) {
    if ((error as { code?: unknown }).code === "MODULE_NOT_FOUND") return null;
    // a bundler's stand-in for require (esbuild: "Dynamic require of … is not supported")
    if (error instanceof Error && /dynamic require/i.test(error.message)) {
      throw new Error(
        `switchyard-router/decorators cannot load ${name} by name in this bundle (${error.message}): ` +
          `import it in the app and hand it over, provideLibraries({ "${name}": await import("${name}") }) — see provideLibraries`,
      );
    }
    throw error;
  }
}
