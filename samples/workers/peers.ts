/**
 * The decorators' optional peers, imported by name so that esbuild puts them in the bundle. The
 * decorators load them with `require(name)` (they are optional), which a bundler cannot follow;
 * build.js hands this module to the decorators in place of their loader.
 */
import * as classTransformer from "class-transformer";
import * as classValidator from "class-validator";

/** class-validator's module. */
export const loadClassValidator = (): unknown => classValidator;

/** class-transformer's module. */
export const loadClassTransformer = (): unknown => classTransformer;
