import "reflect-metadata";
import * as classTransformer from "class-transformer";
import * as classValidator from "class-validator";
import { provideLibraries } from "../decorators";
import { compiledStatus } from "../decorators/compiled-dto/index.js";
import { nestedPeople } from "./helpers/dto-apps";

/*
 * Libraries handed over with provideLibraries that are the very copies a `require` by name finds (an
 * app that calls it without a bundler): the compiled validator reads the same class-transformer
 * storage, so DTOs stay compiled, with the same answers. (test/dto-provided-libraries.test.ts: another
 * copy handed over.)
 */

provideLibraries({ "class-validator": classValidator, "class-transformer": classTransformer });

test("the same copies handed over: compiled, a valid nested body accepted, an invalid one refused", async () => {
  const { Person, post } = nestedPeople(classTransformer.Type);
  const valid = await post({ age: 3, address: { city: "Oslo" } });
  expect([valid.status, JSON.parse(valid.body)]).toEqual([200, { nested: true, city: "Oslo" }]);
  const invalid = await post({ age: 3, address: { city: 5 } });
  expect([invalid.status, JSON.parse(invalid.body).errors]).toEqual([
    400,
    [{ in: "body", field: "address.city", constraint: "isString", message: "city must be a string" }],
  ]);
  expect(compiledStatus(Person)).toEqual({ compiled: true });
});
