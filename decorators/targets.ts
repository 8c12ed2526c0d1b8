import { ControllerError } from "./errors.js";
import { nameOf, type ClassLike } from "./metadata.js";

import { isStandardContext } from "./standard.js";

/*
 * What every decorator checks about where it was applied, before recording anything: on an instance
 * member of a class whose prototype still leads back to it. `@Match`, `@Route`, `@Handle`, `@Guard` and
 * `@Use` take both call shapes (legacy and TC39 standard, see standard.ts); parameter decorators exist
 * only as TypeScript's legacy decorators, and a standard call of one is refused here.
 */

/**
 * Why a parameter decorator cannot work under standard decorators, and the two ways forward: the
 * checked style (no parameter decorators), or legacy decorators per toolchain.
 */
const PARAMETER_DECORATORS_NEED_LEGACY =
  "parameter decorators exist only as TypeScript's legacy decorators (TC39 standard decorators cannot " +
  "decorate a parameter, nor emit the parameter types @Query, @Header and @Body read), but this code was " +
  "compiled with standard decorators. Either write the method in the checked style, which needs no parameter " +
  'decorator — @Handle("GET /id:Int") byId(req: RoutedRequest<{ id: number }>) { … }, the request typed from ' +
  'the pattern and checked by the compiler — or enable legacy decorators: tsc — "experimentalDecorators": ' +
  'true and "emitDecoratorMetadata": true in tsconfig.json; swc (@swc/jest, @swc/register) — ' +
  "jsc.parser.decorators: true, jsc.transform.legacyDecorator: true, jsc.transform.decoratorMetadata: true; " +
  'esbuild-based tools (tsx, Vite, esbuild) — "experimentalDecorators": true in tsconfig.json (esbuild ' +
  "emits no decorator metadata: give @Query, @Header and @Body their types explicitly); Deno — " +
  '"compilerOptions": { "experimentalDecorators": true } in deno.json';

/**
 * Throws the one clear error when a parameter decorator was called as a TC39 standard decorator:
 * `(value, context)` instead of legacy `(prototype, key, index)`.
 */
export function rejectStandardCall(decorator: string, context: unknown): void {
  if (!isStandardContext(context)) return;
  const name =
    typeof context.name === "string" || typeof context.name === "symbol" ? String(context.name) : "(anonymous)";
  const onClass = context.kind === "class";
  throw new ControllerError(
    "STANDARD_DECORATORS",
    onClass ? name : "(a class)",
    onClass ? undefined : name,
    `${decorator}: ${PARAMETER_DECORATORS_NEED_LEGACY}`,
  );
}

/**
 * The class an instance-member decorator was applied in. Refuses a static member, a member named
 * `constructor` (a method of that name replaces the prototype's link to its class), and a prototype
 * whose `constructor` is not its class (another method named `constructor` replaced it).
 */
export function ownerOf(decorator: string, target: object, member: string | symbol, onParameter = false): ClassLike {
  if (typeof target === "function") {
    throw new ControllerError(
      "STATIC_METHOD",
      nameOf(target),
      String(member),
      `${decorator} is on ${onParameter ? "a parameter of " : ""}a static method; routes are instance methods`,
    );
  }
  const owner: unknown = (target as { constructor?: unknown }).constructor;
  const intact = typeof owner === "function" && (owner as { prototype?: unknown }).prototype === target;
  if (member === "constructor") {
    throw new ControllerError(
      "RESERVED_METHOD",
      intact ? nameOf(owner as ClassLike) : "(a class)",
      "constructor",
      `${decorator} is on a method named "constructor", which replaces the prototype's link to its class; give the method another name`,
    );
  }
  if (!intact) {
    throw new ControllerError(
      "RESERVED_METHOD",
      "(a class)",
      String(member),
      `${decorator}: the class's prototype.constructor is not the class — a method named "constructor" ` +
        `(["constructor"]() { … }) replaced it, so no decorator can find the class; give that method another name`,
    );
  }
  return owner as ClassLike;
}
