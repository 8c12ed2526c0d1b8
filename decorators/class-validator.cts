/*
 * Loads the optional peer dependency class-validator, synchronously, as parsing a segment must. A
 * .cts file compiles to a CommonJS .cjs file in both builds: ES modules have no `require`, so the ES
 * module build imports this file to get one (resolving from here, as the CommonJS build does).
 */

/** class-validator's module, or `null` when it is not installed. */
export function loadClassValidator(): unknown {
  try {
    return require("class-validator") as unknown;
  } catch (error) {
    if ((error as { code?: unknown }).code !== "MODULE_NOT_FOUND") throw error;
    return null;
  }
}
