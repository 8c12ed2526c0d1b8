import type { ConstraintInstance, ConstraintMetadata, Libraries, ValidationMetadata } from "../dto-libraries.js";

/*
 * A class's class-validator metadata read once into the plan class-validator's ValidationExecutor
 * rebuilds on every call: the metadata it would look up (same groups and inheritance rules: its own
 * `getTargetValidationMetadatas`), grouped by property as it groups them, each property's checks
 * sorted into the lists `performValidations` runs (conditions, `@IsDefined`, constraints, nested), and
 * each constraint's implementation resolved. A class using what the plan does not cover — a constraint
 * class (`@Validate(C)`, resolved through a container on every call), an async constraint,
 * `@ValidatePromise` — has no plan: it is validated by class-validator itself.
 */

/** One constraint of a property: the decorator's metadata and the implementation that decides it. */
export interface Check {
  readonly meta: ValidationMetadata;
  readonly constraint: ConstraintMetadata;
  readonly instance: ConstraintInstance;
}

/** One property: the lists `performValidations` runs, in its order. */
export interface PropertyPlan {
  readonly name: string;
  readonly conditions: readonly ((object: object, value: unknown) => unknown)[];
  readonly defined: readonly Check[];
  readonly checks: readonly Check[];
  readonly nested: readonly ValidationMetadata[];
}

/** A class's plan: its properties, and the grouping the whitelist reads (`undefined` properties: no metadata). */
export interface ClassPlan {
  /** The class's name, as class-validator gives it to constraints (`targetName`, `$target`). */
  readonly targetName: string;
  readonly properties: readonly PropertyPlan[];
  readonly grouped: Readonly<Record<string, readonly ValidationMetadata[]>>;
  readonly empty: boolean;
}

const plans = new WeakMap<Function, ClassPlan | { readonly reason: string }>();

/** The plan of `type`, or why it has none. Read once per class. */
export function planOf(libraries: Libraries, type: Function): ClassPlan | { readonly reason: string } {
  let plan = plans.get(type);
  if (plan === undefined) {
    plan = readPlan(libraries, type);
    plans.set(type, plan);
  }
  return plan;
}

function readPlan(libraries: Libraries, type: Function): ClassPlan | { readonly reason: string } {
  const { validator, types } = libraries;
  // as ValidationExecutor.execute asks for them: no groups, `always` and `strictGroups` off
  const metadata = validator.getTargetValidationMetadatas(type, undefined, false, false, undefined);
  const grouped = validator.groupByPropertyName(metadata);
  const properties: PropertyPlan[] = [];
  for (const name of Object.keys(grouped)) {
    if (name === "__proto__") return { reason: "a property named __proto__" };
    const all = grouped[name]!;
    const rest = all.filter((m) => m.type !== types.IS_DEFINED && m.type !== types.WHITELIST);
    const known = [types.CUSTOM_VALIDATION, types.NESTED_VALIDATION, types.CONDITIONAL_VALIDATION];
    const unknown = rest.find((m) => !known.includes(m.type));
    if (unknown !== undefined) return { reason: `${unknown.type} on ${name}` };
    const defined = checksOf(
      libraries,
      all.filter((m) => m.type === types.IS_DEFINED),
    );
    const checks = checksOf(
      libraries,
      rest.filter((m) => m.type === types.CUSTOM_VALIDATION),
    );
    if (!Array.isArray(defined)) return defined;
    if (!Array.isArray(checks)) return checks;
    properties.push({
      name,
      conditions: rest
        .filter((m) => m.type === types.CONDITIONAL_VALIDATION)
        .map((m) => m.constraints![0] as (object: object, value: unknown) => unknown),
      defined,
      checks,
      nested: rest.filter((m) => m.type === types.NESTED_VALIDATION),
    });
  }
  return { targetName: type.name, properties, grouped, empty: metadata.length === 0 };
}

function checksOf(libraries: Libraries, metadata: readonly ValidationMetadata[]): Check[] | { reason: string } {
  const checks: Check[] = [];
  for (const meta of metadata) {
    const constraints = meta.constraintCls ? libraries.validator.getTargetValidatorConstraints(meta.constraintCls) : [];
    for (const constraint of constraints) {
      if (constraint.async) return { reason: `the async constraint ${constraint.name} on ${meta.propertyName}` };
      // registerDecorator's own class (every built-in decorator): stateless, one instance serves every call
      if (constraint.target.name !== "CustomConstraint")
        return { reason: `the constraint class ${constraint.target.name} on ${meta.propertyName}` };
      checks.push({ meta, constraint, instance: constraint.instance });
    }
  }
  return checks;
}
