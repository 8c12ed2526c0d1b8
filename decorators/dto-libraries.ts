import {
  handedOverTransformer,
  loadClassValidator,
  loadTransformerStorage,
  loadValidationUtils,
} from "./class-validator.cjs";

/*
 * What the compiled DTO validator (compiled-dto/) reads of class-validator and class-transformer: their metadata, the
 * constraints' own `validate` and `defaultMessage`, and class-validator's message formatter. Typed
 * here once; `null` when a part is missing (another major version), and then every class falls back
 * to class-validator itself.
 */

/** The arguments class-validator gives a constraint's `validate` and `defaultMessage`. */
export interface ConstraintArguments {
  readonly targetName: string | undefined;
  readonly property: string;
  readonly object: object;
  readonly value: unknown;
  readonly constraints: unknown[] | undefined;
}

/** A message option: a string with `$property`-style tokens, or a function of the arguments. */
export type MessageOption = string | ((args: ConstraintArguments) => string);

/** One decorator's entry in class-validator's metadata storage (`ValidationMetadata`). */
export interface ValidationMetadata {
  readonly type: string;
  readonly target: Function | string;
  readonly propertyName: string;
  readonly constraints: unknown[] | undefined;
  readonly constraintCls: Function | undefined;
  readonly each: boolean | undefined;
  readonly message: MessageOption | undefined;
  readonly validateIf: ((object: object, value: unknown) => boolean) | undefined;
}

/** A constraint's implementation (`ConstraintMetadata`): its name, and an instance doing the check. */
export interface ConstraintMetadata {
  readonly target: Function;
  readonly name: string;
  readonly async: boolean;
  readonly instance: ConstraintInstance;
}

/** What a constraint's instance does: decide a value, and say why not. */
export interface ConstraintInstance {
  validate(value: unknown, args: ConstraintArguments): unknown;
  defaultMessage?(args: ConstraintArguments): string;
}

/** class-validator's metadata storage, as it reads it itself when validating. */
export interface ValidatorStorage {
  getTargetValidationMetadatas(
    target: Function,
    schema: string | undefined,
    always: boolean,
    strictGroups: boolean,
    groups?: string[],
  ): ValidationMetadata[];
  groupByPropertyName(metadata: ValidationMetadata[]): Record<string, ValidationMetadata[]>;
  getTargetValidatorConstraints(target: Function): ConstraintMetadata[];
}

/** One property's `@Type` in class-transformer's storage. */
export interface TypeMetadata {
  readonly typeFunction: ((options: { newObject: object; object: object; property: string }) => unknown) | undefined;
  readonly reflectedType: unknown;
  readonly options: { readonly discriminator?: unknown } | undefined;
}

/** class-transformer's metadata storage: per class, per property. */
export interface TransformerStorage {
  readonly _typeMetadatas: Map<Function, Map<string, TypeMetadata>>;
  readonly _transformMetadatas: Map<Function, Map<string, { readonly options?: TransformOptions }[]>>;
  readonly _exposeMetadatas: Map<Function, Map<string | undefined, unknown>>;
  readonly _excludeMetadatas: Map<Function, Map<string | undefined, { readonly options?: TransformOptions }>>;
  getAncestors(target: Function): Function[];
}

/** The options of `@Transform` and `@Exclude` that say which direction they apply to. */
export interface TransformOptions {
  readonly toClassOnly?: boolean;
  readonly toPlainOnly?: boolean;
}

/** Everything the compiler reads. */
export interface Libraries {
  readonly validator: ValidatorStorage;
  readonly transformer: TransformerStorage;
  /** class-validator's `ValidationTypes` names (`customValidation`, `nestedValidation`, …). */
  readonly types: Readonly<Record<string, string>>;
  readonly formatMessage: (message: MessageOption | undefined, args: ConstraintArguments) => string;
}

let libraries: Libraries | null | undefined;

/** The parts, or `null` when one is missing or not as expected (then nothing is compiled). */
export function compilerLibraries(): Libraries | null {
  if (libraries === undefined) libraries = load();
  return libraries;
}

function load(): Libraries | null {
  const validator = loadClassValidator() as {
    getMetadataStorage?: () => ValidatorStorage;
    ValidationTypes?: Record<string, string>;
  } | null;
  const utils = loadValidationUtils() as {
    ValidationUtils?: { replaceMessageSpecialTokens?: Libraries["formatMessage"] };
  } | null;
  const transformer = loadTransformerStorage() as { defaultMetadataStorage?: TransformerStorage } | null;
  const format = utils?.ValidationUtils?.replaceMessageSpecialTokens;
  const storage = transformer?.defaultMetadataStorage;
  // (class-transformer's storage, not its index: a compiled class never needs the index)
  if (
    typeof validator?.getMetadataStorage !== "function" ||
    typeof validator.ValidationTypes !== "function" ||
    typeof format !== "function" ||
    !(storage?._typeMetadatas instanceof Map) ||
    !(storage._transformMetadatas instanceof Map) ||
    !(storage._exposeMetadatas instanceof Map) ||
    !(storage._excludeMetadatas instanceof Map) ||
    typeof storage.getAncestors !== "function" ||
    !holdsHandedOverTypes(storage)
  ) {
    return null;
  }
  const types = validator.ValidationTypes;
  return {
    validator: validator.getMetadataStorage(),
    transformer: storage,
    types,
    formatMessage: (message, args) => format.call(utils!.ValidationUtils, message, args),
  };
}

/**
 * True unless the app handed class-transformer over (provideLibraries) as another copy than the one
 * whose storage was loaded by name: Bun's bundler leaves a `require` by name working, so a bundled app
 * holds a second copy, whose storage has none of the app's `@Type`s (a valid nested body would be a
 * 400). Told by a probe: the copy handed over records a `@Type` on a class of this module's own, which
 * the storage read must then hold.
 */
function holdsHandedOverTypes(storage: TransformerStorage): boolean {
  const given = handedOverTransformer() as { Type?: (type: () => Function) => PropertyDecorator } | undefined;
  if (given === undefined) return true;
  class Probe {}
  try {
    given.Type?.(() => Probe)(Probe.prototype, "probe");
  } catch {
    return false;
  }
  return storage._typeMetadatas.get(Probe)?.has("probe") === true;
}
