import { startWithDtoClass } from "./helpers/dto-startup";

/*
 * class-transformer installed, class-validator not (here, requiring it fails as for a missing
 * package): a controller with a DTO class fails at startup naming class-validator, the one to install.
 */

jest.mock("class-validator", () => {
  throw Object.assign(new Error("Cannot find module 'class-validator'"), { code: "MODULE_NOT_FOUND" });
});

// jest.mock calls are hoisted above the imports: the decorators load with class-validator missing

test("a DTO class: a startup error naming class-validator", () => {
  expect(startWithDtoClass).toThrow(
    "a class-validator DTO (@Body(), @Query(), body(), queryObject()) needs the optional peer dependency class-validator: npm install class-transformer class-validator",
  );
});
