/**
 * The decorators' optional peers, imported by name so that esbuild puts them in the bundle. The
 * decorators load them with `require(name)` (they are optional), which a bundler cannot follow;
 * build.js hands this module to the decorators in place of their loader (`class-validator.cjs`).
 */
import * as classTransformer from "class-transformer";
import * as classValidator from "class-validator";

/** class-validator's module. */
export const loadClassValidator = (): unknown => classValidator;

/** class-transformer's module. */
export const loadClassTransformer = (): unknown => classTransformer;

/*
 * The two internal modules the compiled DTO validator reads are CommonJS files of the packages
 * (`cjs/…`), while the bundle holds their ES module builds: the very instances the DTOs' decorators
 * fill cannot be named from here. `null` makes every DTO validate through class-validator itself.
 */

/** class-validator's `ValidationUtils`: none in the bundle. */
export const loadValidationUtils = (): unknown => null;

/** class-transformer's metadata storage: none in the bundle. */
export const loadTransformerStorage = (): unknown => null;
