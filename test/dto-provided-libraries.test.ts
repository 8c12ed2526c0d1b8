import "reflect-metadata";
import * as classValidator from "class-validator";
import { provideLibraries } from "../decorators";
import { compiledStatus } from "../decorators/compiled-dto/index.js";
import { nestedPeople } from "./helpers/dto-apps";

/*
 * Libraries handed over with provideLibraries may be another copy than the one a `require` by name
 * finds: Bun's bundler leaves that `require` working, so a bundled app has class-transformer twice, and
 * its `@Type`s are in the bundled copy's storage only. The compiled validator reads class-transformer's
 * storage by name: where that is not the copy handed over, it compiles nothing and the libraries handed
 * over answer: a valid nested body is accepted, an invalid one gets class-validator's 400.
 * (test/dto-provided-same-copy.test.ts: the same copy handed over stays compiled.)
 */

// a second copy of class-transformer with its own storage, as a bundle holds one
let bundled!: typeof import("class-transformer");
jest.isolateModules(() => {
  bundled = require("class-transformer");
});
provideLibraries({ "class-validator": classValidator, "class-transformer": bundled });

const { Person, post } = nestedPeople(bundled.Type);

test("the copy handed over reads the @Type: a valid nested body is built and accepted", async () => {
  const res = await post({ age: 3, address: { city: "Oslo" } });
  expect([res.status, JSON.parse(res.body)]).toEqual([200, { nested: true, city: "Oslo" }]);
});

test("an invalid nested body: class-validator's 400 for the nested field", async () => {
  const res = await post({ age: 3, address: { city: 5 } });
  expect([res.status, JSON.parse(res.body)]).toEqual([
    400,
    {
      error: "the body is invalid",
      errors: [{ in: "body", field: "address.city", constraint: "isString", message: "city must be a string" }],
    },
  ]);
});

test("nothing is compiled, and the reason says why", () => {
  expect(compiledStatus(Person)).toEqual({
    compiled: false,
    reason:
      "class-validator or class-transformer is not the version the compiler reads, or the class-transformer handed over with provideLibraries is another copy than the one it reads",
  });
});
