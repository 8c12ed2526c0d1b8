/**
 * One value per process, shared by every copy of this package that is loaded. The ES module build and
 * the CommonJS build are two copies of every module: an app that `import`s the package while one of its
 * dependencies `require`s it loads both, and state that must be one (the registered path types, the
 * `routeMismatch()` signal) would otherwise split in two. The global symbol registry is what both
 * copies can find.
 */
export function processGlobal<T>(key: string, create: () => T): T {
  const store = globalThis as typeof globalThis & Record<symbol, T | undefined>;
  const symbol = Symbol.for(`switchyard-router.${key}`);
  return (store[symbol] ??= create());
}
