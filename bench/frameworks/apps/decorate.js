/*
 * Legacy (experimentalDecorators) decorators applied from plain JavaScript, exactly as tsc's emitted
 * `__decorate`/`__param`/`__metadata` calls apply them, with the design-time types tsc would record.
 * The NestJS and routing-controllers apps are written with these, so that the benchmark's TypeScript
 * typecheck (which also covers bench/) does not need their packages installed.
 */
require("reflect-metadata");

/** Decorates a class; `decorators` run bottom-up, as written above the class. */
function decorateClass(Class, ...decorators) {
  return Reflect.decorate(decorators, Class);
}

/**
 * Decorates a method: `params[i]` are parameter i's decorators, `types` its declared parameter types
 * (tsc's `design:paramtypes`, which Nest's pipes and routing-controllers read).
 */
function decorateMethod(Class, name, { decorators = [], params = [], types = [] }) {
  const target = Class.prototype;
  const paramDecorators = params.flatMap((list, index) =>
    (list ?? []).map((decorator) => (t, key) => decorator(t, key, index)),
  );
  const all = [
    ...decorators,
    ...paramDecorators,
    Reflect.metadata("design:type", Function),
    Reflect.metadata("design:paramtypes", types),
  ];
  const descriptor = Reflect.decorate(all, target, name, Object.getOwnPropertyDescriptor(target, name));
  Object.defineProperty(target, name, descriptor);
}

/** Decorates a property declared with `type` (tsc's `design:type`). */
function decorateProperty(Class, name, type, ...decorators) {
  Reflect.decorate([...decorators, Reflect.metadata("design:type", type)], Class.prototype, name);
}

module.exports = { decorateClass, decorateMethod, decorateProperty };
