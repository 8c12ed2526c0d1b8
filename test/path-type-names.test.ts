import { Bool, Day, Double, Int, Int64, Integer, NoParse, registerPathType, Text, UUID, Word } from "../src";

/*
 * The names patterns use for path types are declared, not read off whatever a minifier leaves of a
 * class's name (test/bundle-minified.test.ts runs a minified bundle); a parser with no name at all is
 * refused with a message that says how to give one.
 */

test("every built-in path type declares its name as an own static field", () => {
  const builtIns = { Bool, Day, Double, Int, Int64, Integer, Text, UUID, Word };
  for (const [name, parser] of Object.entries(builtIns)) {
    // a class field is enumerable; the name a class gets from its declaration is not
    expect([name, Object.getOwnPropertyDescriptor(parser, "name")]).toEqual([
      name,
      { value: name, writable: true, enumerable: true, configurable: true },
    ]);
  }
});

test("a parser with no name is refused, saying how to name it", () => {
  // an array element gets no name from a binding, as `const Slug = class {}` would
  const anonymous = [
    class {
      static parseUrlPiece(piece: string): string | NoParse {
        return piece === "" ? NoParse : piece;
      }
      static toUrlPiece(value: string): string {
        return value;
      }
    },
  ][0]!;
  expect(anonymous.name).toBe("");
  expect(() => registerPathType(anonymous)).toThrow(
    'registerPathType: the parser has no name; pass one (registerPathType(parser, "Slug")) or declare it on the class (static readonly name = "Slug")',
  );
});
