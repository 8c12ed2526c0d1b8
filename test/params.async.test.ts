import { badRequest, HttpError, readParamsAsync } from "../src";
import { adapterInput } from "../src/input";
import { RequestContext } from "../src/request";

/*
 * readParamsAsync: every reader runs, the promises among their values are awaited, and the failing
 * fields of all of them join in one 400 in the readers' order, whatever order they failed in.
 */

const request = () => new RequestContext(adapterInput({ method: "GET", url: "/" }));
const later = <T>(ms: number, make: () => T): Promise<T> =>
  new Promise((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(make());
      } catch (error) {
        reject(error);
      }
    }, ms),
  );
const fault = (field: string) =>
  badRequest(`${field} is bad`, [{ in: "query", field, constraint: "Int", message: `${field} is bad` }]);

test("values in the readers' order: plain values, promises, thenables and holes", async () => {
  const thenable = { then: (resolve: (v: string) => void) => resolve("from a thenable") };
  const values = await readParamsAsync(request(), [
    () => 1,
    () => later(15, () => "slow"),
    undefined,
    () => thenable,
    () => Promise.resolve("fast"),
  ]);
  expect(values).toEqual([1, "slow", undefined, "from a thenable", "fast"]);
});

test("failures join in the readers' order, not the order they failed in", async () => {
  const failure = await readParamsAsync(request(), [
    () =>
      later(20, () => {
        throw fault("first");
      }),
    () => "fine",
    () => {
      throw fault("second");
    },
    () => Promise.reject(fault("third")),
  ]).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(HttpError);
  const { status, message, details } = failure as HttpError;
  expect({ status, message }).toEqual({ status: 400, message: "first is bad; second is bad; third is bad" });
  expect((details?.errors as { field: string }[]).map((e) => e.field)).toEqual(["first", "second", "third"]);
});

test("an error that is not a 400 is thrown as it is, after every reader settled", async () => {
  const boom = new Error("boom");
  let settled = false;
  const failure = await readParamsAsync(request(), [
    () => Promise.reject(fault("query")),
    () => {
      throw boom;
    },
    () =>
      later(10, () => {
        settled = true;
      }),
  ]).catch((error: unknown) => error);
  expect(failure).toBe(boom);
  expect(settled).toBe(true);
});

test("one reader that waits: its value, or its very error (nothing to join), as with several", async () => {
  expect(await readParamsAsync(request(), [() => 1, () => later(5, () => "late")])).toEqual([1, "late"]);
  const own = fault("body");
  expect(await readParamsAsync(request(), [() => 1, () => Promise.reject(own)]).catch((e: unknown) => e)).toBe(own);
  // a reader that failed at once still joins the one that waits
  const failure = (await readParamsAsync(request(), [
    () => {
      throw fault("query");
    },
    () => later(5, () => Promise.reject(fault("body"))),
  ]).catch((error: unknown) => error)) as HttpError;
  expect((failure.details?.errors as { field: string }[]).map((e) => e.field)).toEqual(["query", "body"]);
});

test("no reader waits: the values, or the joined failures, as a promise", async () => {
  expect(await readParamsAsync(request(), [() => 1, undefined, () => "two"])).toEqual([1, undefined, "two"]);
  const failure = (await readParamsAsync(request(), [
    () => {
      throw fault("a");
    },
    () => {
      throw fault("b");
    },
  ]).catch((error: unknown) => error)) as HttpError;
  expect(failure.message).toBe("a is bad; b is bad");
});
