import { typecheck } from "../helpers/typecheck";

/*
 * What a call resolves to (`ResultOf`, `Jsonified`), type by type: each line asserts the exact type, so
 * that a cheaper way of writing them (fewer conditional steps for a plain object) keeps every case.
 */

const CASES = `import type { Jsonified, ResultOf, Reply, RouteMismatch } from "switchyard-router";
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function exact<T extends true>(): T | undefined { return undefined; }
exact<Equal<Jsonified<"a">, "a">>();
exact<Equal<Jsonified<1>, 1>>();
exact<Equal<Jsonified<boolean>, boolean>>();
exact<Equal<Jsonified<null>, null>>();
exact<Equal<Jsonified<bigint>, number>>();
exact<Equal<Jsonified<undefined>, never>>();
exact<Equal<Jsonified<() => 1>, never>>();
exact<Equal<Jsonified<symbol>, never>>();
exact<Equal<Jsonified<Date>, string>>();
exact<Equal<Jsonified<{ toJSON(): { at: Date } }>, { at: string }>>();
exact<Equal<Jsonified<readonly Date[]>, string[]>>();
exact<Equal<Jsonified<[1, Date]>, (1 | string)[]>>();
exact<Equal<Jsonified<void>, unknown>>();
exact<Equal<Jsonified<unknown>, unknown>>();
exact<Equal<Jsonified<{ a: bigint; f: () => void; d: Date | null }>, { a: number; f: never; d: string | null }>>();
exact<Equal<Jsonified<string | Date>, string>>();
exact<Equal<ResultOf<RouteMismatch>, never>>();
exact<Equal<ResultOf<Reply>, unknown>>();
exact<Equal<ResultOf<Reply | { a: Date }>, unknown>>();
exact<Equal<ResultOf<void>, undefined>>();
exact<Equal<ResultOf<undefined>, undefined>>();
exact<Equal<ResultOf<"x">, string>>();
exact<Equal<ResultOf<Uint8Array>, Uint8Array>>();
exact<Equal<ResultOf<{ a: 1; at: Date }>, { a: 1; at: string }>>();
exact<Equal<ResultOf<{ a: 1 } | RouteMismatch>, { a: 1 }>>();
exact<Equal<ResultOf<bigint>, number>>();
exact<Equal<ResultOf<unknown>, unknown>>();
`;

test("ResultOf and Jsonified give each kind of value its wire type", () => {
  const diagnostics = typecheck({ "cases.ts": CASES });
  expect(diagnostics.map((d) => `${d.line}: ${d.text}`)).toEqual([]);
}, 120_000);
