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
 * modules the packages use, or `null` when a version lays them out otherwise.
 */

/** class-validator's `ValidationUtils` module (its message formatter), or `null`. */
export function loadValidationUtils(): unknown {
  return loadPart("class-validator/cjs/validation/ValidationUtils");
}

/** class-transformer's `storage` module (its `defaultMetadataStorage`), or `null`. */
export function loadTransformerStorage(): unknown {
  return loadPart("class-transformer/cjs/storage");
}

function loadPart(name: string): unknown {
  try {
    return loadOptional(name);
  } catch {
    return null;
  }
}

function loadOptional(name: string): unknown {
  try {
    return require(name) as unknown;
  } catch (error) {
    if ((error as { code?: unknown }).code !== "MODULE_NOT_FOUND") throw error;
    return null;
  }
}
