/** Jest runs TypeScript through swc with legacy decorators and decorator metadata, as tsc emits them. */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  globalSetup: "<rootDir>/test/setup/build-dist.js",
  transform: {
    "^.+\\.c?ts$": [
      "@swc/jest",
      {
        jsc: {
          parser: { syntax: "typescript", decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: "es2022",
          keepClassNames: true,
        },
        module: { type: "commonjs" },
      },
    ],
    // inversify (a DI container the decorator tests use) ships ES modules only; jest needs CommonJS
    "/node_modules/(inversify|@inversifyjs/[^/]+)/.+\\.js$": [
      "@swc/jest",
      { jsc: { parser: { syntax: "ecmascript" }, target: "es2022" }, module: { type: "commonjs" } },
    ],
  },
  transformIgnorePatterns: ["/node_modules/(?!(inversify|@inversifyjs)/)"],
  moduleNameMapper: {
    // sources import siblings as "./x.js" (what ES modules need); jest resolves the .ts file
    "^(\\.{1,2}/.*)\\.js$": "$1",
    // the one CommonJS source (a .cts file, imported as .cjs); a general .cjs rule would redirect packages' own .cjs files
    "^\\./class-validator\\.cjs$": "<rootDir>/decorators/class-validator.cts",
    "^switchyard-router$": "<rootDir>/src/index.ts",
    "^switchyard-router/decorators$": "<rootDir>/decorators/index.ts",
    "^switchyard-router/(node|fetch|edge|express|koa)$": "<rootDir>/src/adapters/$1.ts",
  },
};
