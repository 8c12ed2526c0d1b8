import { isThenable } from "../../src/thenable.js";
import type { ConstraintArguments, Libraries, ValidationMetadata } from "../dto-libraries.js";
import { type Check, type ClassPlan, planOf, type PropertyPlan } from "./plan.js";
import { FALLBACK, type Fallback } from "./to-instance.js";

/*
 * class-validator's ValidationExecutor over a plan, with the options the DTO readers pass
 * (`forbidUnknownValues`, `whitelist`, `forbidNonWhitelisted`; no groups, no skipping): every condition,
 * constraint and nested object in its order, each constraint decided by its own `validate`, each message
 * made by its own `defaultMessage` and class-validator's formatter. Failures have its `ValidationError`
 * shape (after `stripEmptyErrors`), built only when something fails. A value class-validator would treat
 * in a way the plan does not cover — a nested instance of a class without a plan, a constraint answering
 * a promise — answers `FALLBACK`, and the caller asks class-validator.
 */

/** One failure, as class-validator reports it: the property, the constraints it fails, the failures inside. */
export interface Failure {
  readonly property: string | undefined;
  constraints?: Record<string, string>;
  readonly children?: Failure[];
}

/** How the DTO is checked: class-validator's `whitelist` and `forbidNonWhitelisted`. */
export interface RunOptions {
  readonly whitelist: boolean;
  readonly forbidNonWhitelisted: boolean;
}

const UNKNOWN_VALUE = "an unknown value was passed to the validate function";

/** Validates `object` (an instance built from a request), appending its failures to `failures`. */
export function validateObject(
  libraries: Libraries,
  object: object,
  options: RunOptions,
  failures: Failure[],
): undefined | Fallback {
  const type = object.constructor;
  if (typeof type !== "function") return FALLBACK;
  const plan = planOf(libraries, type);
  if (!("properties" in plan)) return FALLBACK;
  return execute(libraries, object, plan, options, failures);
}

function execute(
  libraries: Libraries,
  object: object,
  plan: ClassPlan,
  options: RunOptions,
  failures: Failure[],
): undefined | Fallback {
  if (plan.empty) {
    failures.push({ property: undefined, constraints: { unknownValue: UNKNOWN_VALUE }, children: [] });
    return;
  }
  if (options.whitelist) whitelist(object, plan, options.forbidNonWhitelisted, failures);
  for (const property of plan.properties) {
    const value = (object as Record<string, unknown>)[property.name];
    if (performValidations(libraries, plan, object, value, property.name, property, options, failures) === FALLBACK)
      return FALLBACK;
  }
}

function whitelist(object: object, plan: ClassPlan, forbid: boolean, failures: Failure[]): void {
  const grouped = plan.grouped as Record<string, readonly unknown[] | undefined>;
  // class-validator's very test: on a plain object, so an inherited name (`constructor`) counts as declared
  const notAllowed = Object.keys(object).filter((key) => !grouped[key] || grouped[key].length === 0);
  for (const property of notAllowed) {
    if (forbid) {
      failures.push({ property, constraints: { whitelistValidation: `property ${property} should not exist` } });
    } else {
      delete (object as Record<string, unknown>)[property];
    }
  }
}

/** An array element's lists: nothing but the property's nested checks (as class-validator passes them). */
function elementPlan(nested: readonly ValidationMetadata[]): PropertyPlan {
  return { name: "", conditions: [], defined: [], checks: [], nested };
}

function performValidations(
  libraries: Libraries,
  owner: ClassPlan | undefined,
  object: object,
  value: unknown,
  property: string,
  plan: PropertyPlan,
  options: RunOptions,
  failures: Failure[],
): undefined | Fallback {
  // every condition is called, then their results are and-ed (class-validator maps, then reduces)
  let canValidate: unknown = true;
  for (const condition of plan.conditions) {
    const result = condition(object, value);
    canValidate = canValidate && result;
  }
  if (!canValidate) return;
  // the failure is made only when something fails (most properties pass), in the shape class-validator gives
  let constraints: Record<string, string> | undefined;
  if (owner !== undefined) {
    const defined = checkAll(libraries, owner, object, value, plan.defined, undefined);
    if (defined === FALLBACK) return FALLBACK;
    const checked = checkAll(libraries, owner, object, value, plan.checks, defined);
    if (checked === FALLBACK) return FALLBACK;
    constraints = checked;
  }
  if (plan.nested.length === 0) {
    if (constraints !== undefined) failures.push({ property, children: [], constraints });
    return;
  }
  const failure: Failure =
    constraints === undefined ? { property, children: [] } : { property, children: [], constraints };
  if (validateNested(libraries, value, plan.nested, options, failure) === FALLBACK) return FALLBACK;
  if (failure.constraints !== undefined || failure.children!.length > 0) failures.push(failure);
}

/**
 * The arguments class-validator gives a constraint. `targetName` is `object.constructor.name`, read once
 * per class (the plan's), since reading a class's name on every call is the slowest step of a check.
 */
function argumentsOf(
  targetName: string | undefined,
  object: object,
  value: unknown,
  meta: ValidationMetadata,
): ConstraintArguments {
  return {
    targetName,
    property: meta.propertyName,
    object,
    value,
    constraints: meta.constraints,
  };
}

/**
 * The plan's constraints on one value; `owner` is the plan of `object`'s class. The failed ones are added
 * to `failed` (made when the first fails), which is returned.
 */
function checkAll(
  libraries: Libraries,
  owner: ClassPlan,
  object: object,
  value: unknown,
  checks: readonly Check[],
  failed: Record<string, string> | undefined,
): Record<string, string> | undefined | Fallback {
  for (const check of checks) {
    const { meta, instance } = check;
    if (meta.validateIf && !meta.validateIf(object, value)) continue;
    const args = argumentsOf(owner.targetName, object, value, meta);
    let valid: unknown;
    if (!meta.each || !(Array.isArray(value) || value instanceof Set || value instanceof Map)) {
      valid = instance.validate(value, args);
      if (isThenable(valid)) return FALLBACK;
    } else {
      const items =
        value instanceof Map ? Array.from(value.values()) : Array.isArray(value) ? value : Array.from(value);
      const results = items.map((item: unknown) => instance.validate(item, args));
      if (results.some(isThenable)) return FALLBACK;
      valid = results.every((result) => result);
    }
    if (!valid) {
      const [type, message] = validationError(libraries, owner.targetName, object, value, meta, check);
      (failed ??= {})[type] = message;
    }
  }
  return failed;
}

function validateNested(
  libraries: Libraries,
  value: unknown,
  nested: readonly ValidationMetadata[],
  options: RunOptions,
  failure: Failure,
): undefined | Fallback {
  if (value === undefined) return;
  for (const meta of nested) {
    if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
      const items: { forEach(f: (item: unknown, index: unknown) => void): void } =
        value instanceof Set ? Array.from(value) : value;
      const element = elementPlan(nested);
      let outcome: undefined | Fallback;
      items.forEach((item, index) => {
        if (outcome === FALLBACK) return;
        outcome = performValidations(
          libraries,
          undefined,
          value,
          item,
          String(index),
          element,
          options,
          failure.children!,
        );
      });
      if (outcome === FALLBACK) return FALLBACK;
    } else if (value instanceof Object) {
      if (validateObject(libraries, value, options, failure.children!) === FALLBACK) return FALLBACK;
    } else {
      // class-validator passes the declaring class as the object, so `$target` reads "Function"
      const target = meta.target as object;
      const [type, message] = validationError(libraries, target.constructor?.name, target, value, meta, undefined);
      (failure.constraints ??= {})[type] = message;
    }
  }
}

/** ValidationExecutor.createValidationError: the constraint's name and its message, formatted. */
function validationError(
  libraries: Libraries,
  targetName: string | undefined,
  object: object,
  value: unknown,
  meta: ValidationMetadata,
  check: Check | undefined,
): [string, string] {
  const type = check?.constraint.name ? check.constraint.name : meta.type;
  const args = argumentsOf(targetName, object, value, meta);
  let message = meta.message || "";
  if (!meta.message && check !== undefined && check.instance.defaultMessage instanceof Function)
    message = check.instance.defaultMessage(args);
  return [
    type,
    typeof message === "string" ? formatted(libraries, meta, message, args) : libraries.formatMessage(message, args),
  ];
}

/** Per decorator: its messages that read no `$value`, formatted once (by class and template). */
const formattedMessages = new WeakMap<ValidationMetadata, Map<string, string>>();
const MESSAGES_KEPT = 16;

/**
 * class-validator's formatter, which builds a regular expression per `$constraintN` token on every call
 * (most of a 400's cost), run once per template: its output depends only on the template, the
 * decorator's constraints and property, the class's name — and the value, where a `$value` token is
 * left after the constraints are put in. Which is the case is seen by formatting it with two different
 * values; only an output both agree on is kept (a few per decorator: a template made from the value
 * would otherwise grow the map with every request).
 */
function formatted(
  libraries: Libraries,
  meta: ValidationMetadata,
  template: string,
  args: ConstraintArguments,
): string {
  let kept = formattedMessages.get(meta);
  const key = `${args.targetName}\u0000${template}`;
  const known = kept?.get(key);
  if (known !== undefined) return known;
  const message = libraries.formatMessage(template, args);
  if (kept === undefined) formattedMessages.set(meta, (kept = new Map()));
  if (kept.size < MESSAGES_KEPT) {
    const one = libraries.formatMessage(template, { ...args, value: "\u0000one" });
    const other = libraries.formatMessage(template, { ...args, value: "\u0000other" });
    if (one === other) kept.set(key, one);
  }
  return message;
}
