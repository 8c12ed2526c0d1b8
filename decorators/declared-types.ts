import { Bool, Text } from "../src/parsers/index.js";
import { factOf } from "../src/parsers/facts.js";
import type { PathParser } from "../src/parsers/parser.js";
import { isStandardSchema, type StandardSchema } from "../src/schema/standard.js";
import { checkBodyLibraries } from "./body.js";
import { ControllerError } from "./errors.js";
import { nameOf, type ClassLike, type ParamSource } from "./metadata.js";
import { decoratorName } from "./parameters.js";
import { hasConstraints } from "./validation.js";

/*
 * What a parameter's declared type (`design:paramtypes`, as TypeScript records it with
 * emitDecoratorMetadata) may settle, and the startup errors for what it may not. No value reaches a
 * handler unchecked: a type that is neither a parser, a DTO class with class-validator constraints nor a
 * Standard Schema is refused, with what TypeScript recorded, why, and the fix.
 */

/** A decorated parameter, where it is: for messages. */
export interface ParamAt {
  readonly cls: ClassLike;
  readonly method: string;
  readonly param: ParamSource & { readonly index: number };
  /** The declared type of the parameter; `undefined` when unknown. */
  readonly declared: unknown;
  /** Whether the method has decorator metadata at all (`design:paramtypes`). */
  readonly metadata: boolean;
}

/** The parser a declared parameter type names: `string` → Text, `boolean` → Bool, a parser class → itself. */
export function parserFor(at: ParamAt): PathParser<unknown> {
  const { declared, param } = at;
  if (declared === String) return Text;
  if (declared === Boolean) return Bool;
  if (isParserClass(declared)) return declared as unknown as PathParser<unknown>;
  const decorator = decoratorName(param);
  const explicit = `${decorator.slice(0, -1)}, Int)`;
  throw new ControllerError(
    "PARAM_TYPE",
    nameOf(at.cls),
    at.method,
    declared === Number
      ? `${decorator} on parameter ${param.index} is declared as number, which is ambiguous: write ${explicit} or ${explicit.replace("Int", "Double")}`
      : `${decorator} on parameter ${param.index} has no parser: give one (${explicit}) or declare the parameter as string, boolean or a parser class` +
          (declared === undefined
            ? " (the declared type is unknown without emitDecoratorMetadata)"
            : declared === Function
              ? ` (it is declared with a type TypeScript records as Function: ${IMPORT_TYPE} — import the class as a value, or name it: ${explicit.replace("Int", "UserId")})`
              : ` (it is declared as ${typeName(declared as { name: string })})`),
  );
}

/**
 * The schema or DTO class a `@Body()` or whole-query `@Query()` parameter is validated with: `explicit`
 * (given to the decorator) or the declared type. Anything else is a `PARAM_TYPE` error saying what
 * was recorded, why, and how to fix it.
 */
export function validatorFor(at: ParamAt, explicit: Function | StandardSchema | undefined): StandardSchema | Function {
  const type = explicit ?? at.declared;
  if (isStandardSchema(type)) return type;
  const d = at.param.kind === "body" ? "@Body" : at.param.kind === "formObject" ? "@Form" : "@Query";
  const refuse = (cause: string, fix = fixFor(d)): never => {
    throw new ControllerError(
      "PARAM_TYPE",
      nameOf(at.cls),
      at.method,
      `${decoratorName(at.param)} on parameter ${at.param.index} needs a DTO class or a Standard Schema, but ${cause}; ${fix}`,
    );
  };
  if (type === undefined) {
    return at.metadata
      ? refuse(
          "its declared type was undefined when the class was defined: the class it names was not defined yet (an import circle, or a class declared further down the module)",
          "define the DTO class before the controller (break the import circle), or give a Standard Schema",
        )
      : refuse(
          'its declared type is unknown: TypeScript records it only with "emitDecoratorMetadata": true (swc: jsc.transform.decoratorMetadata)',
          `turn decorator metadata on, or name the type: ${d}(CreateItem) or ${d}(createItemSchema)`,
        );
  }
  if (type === Function) return refuse(`it is declared with a type TypeScript records as Function: ${IMPORT_TYPE}`);
  if (type === Object) {
    return refuse(
      "it is declared as Object, which is what TypeScript records for an interface, a type alias, a union (CreateItem | null), any or unknown — and swc for a class imported with `import type`",
    );
  }
  if (type === Array) {
    return refuse(
      "it is declared as an array, and decorator metadata records only Array, not the class of the items",
      `give a schema of the array (${d}(z.array(item))), or a DTO class holding it (@ValidateNested({ each: true }) @Type(() => Item) items!: Item[])`,
    );
  }
  if (typeof type !== "function") return refuse(`its type is ${type === null ? "null" : typeof type}, not a class`);
  if (PRIMITIVES.has(type)) return refuse(`it is declared as ${typeName(type)}, which is no DTO class`);
  if (isParserClass(type)) {
    return refuse(
      `${nameOf(type)} is a parser of one value, not a DTO class`,
      at.param.kind === "body"
        ? "give a DTO class or a Standard Schema"
        : `read one query value with @Query("name", ${nameOf(type)})`,
    );
  }
  checkBodyLibraries(); // class-transformer and class-validator, or the error naming the one to install
  if (!hasConstraints(type)) {
    return refuse(
      `${nameOf(type)} has no class-validator decorators (nor does a base class), so every value would pass it`,
      "decorate its properties (@IsString(), @IsInt(), @ValidateNested(), @Allow() for one taken as it is), or give a Standard Schema",
    );
  }
  return type;
}

/** Why TypeScript records `Function`, in messages. */
const IMPORT_TYPE =
  "a class imported with `import type { CreateItem }` (or `import { type CreateItem }`) has no value at run time, so the metadata can only say Function, and nothing would be validated";

/** The usual fix, for `@Body` or `@Query`. */
function fixFor(decorator: "@Body" | "@Query" | "@Form"): string {
  return `import the class as a value (import { CreateItem } from "./dto.js"), or name it: ${decorator}(CreateItem), or give a Standard Schema: ${decorator}(createItemSchema)`;
}

const PRIMITIVES = new Set<unknown>([String, Number, Boolean, BigInt, Symbol]);

function isParserClass(type: unknown): boolean {
  return typeof type === "function" && typeof (type as Partial<PathParser<unknown>>).parseUrlPiece === "function";
}

/**
 * `design:paramtypes` against the parser's `valueType`: `Number` for `Int`, the class for a newtype.
 * No check when either is unknown, or the declared type is `Object` (a union, `unknown`, an interface).
 */
export function checkDeclaredType(
  cls: ClassLike,
  method: string,
  index: number,
  decorator: string,
  gives: string,
  parser: PathParser<unknown>,
  declared: unknown,
): void {
  const valueType = factOf(parser, "valueType");
  if (valueType === undefined || typeof declared !== "function" || declared === Object) return;
  if (declared === valueType || valueType.prototype instanceof declared) return;
  throw new ControllerError(
    "PARAM_TYPE_MISMATCH",
    nameOf(cls),
    method,
    `parameter ${index} (${decorator}) is declared as ${typeName(declared)}, but ${gives} gives ${typeName(valueType)} values`,
  );
}

function typeName(type: { readonly name: string }): string {
  const names: Record<string, string> = {
    Number: "number",
    String: "string",
    Boolean: "boolean",
    BigInt: "bigint",
    Symbol: "symbol",
  };
  return names[type.name] ?? type.name;
}
