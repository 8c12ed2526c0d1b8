/**
 * Request headers as every adapter can give them without copying: a case-insensitive reader. The Web
 * `Headers` class satisfies it (the Fetch adapter passes the request's own); Node-style header records
 * are read through {@link headersOf}.
 */
export interface RequestHeaders extends Iterable<[string, string]> {
  /** The value of header `name` (any case); repeated headers joined with `, `; `null` when absent. */
  get(name: string): string | null;
  /** True when header `name` (any case) was sent. */
  has(name: string): boolean;
}

/** Header values of a reply: one value, or several for repeated headers such as `set-cookie`. */
export type ReplyHeaders = Readonly<Record<string, string | readonly string[]>>;

/** Header values by name, as `node:http` gives them (`IncomingHttpHeaders`) or a test writes them. */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A reader over a Node-style record whose names are all lower-case (as `node:http` makes them). */
class RecordHeaders implements RequestHeaders {
  constructor(private readonly record: HeaderRecord) {}

  get(name: string): string | null {
    const value = this.lookup(name);
    if (value === undefined) return null;
    if (typeof value === "string") return value;
    // a framework's middleware may have replaced a value with a number or an object: read its text
    return Array.isArray(value) ? value.join(", ") : String(value);
  }

  has(name: string): boolean {
    return this.lookup(name) !== undefined;
  }

  *[Symbol.iterator](): Iterator<[string, string]> {
    for (const name of Object.keys(this.record)) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  private lookup(name: string): string | readonly string[] | undefined {
    const record = this.record;
    const key = name.toLowerCase();
    // an own property only: a header called `constructor` or `__proto__` is not the record's prototype
    return Object.hasOwn(record, key) ? record[key] : undefined;
  }
}

/**
 * A {@link RequestHeaders} over a header record. A record from `node:http` (lower-case names) is read
 * in place; any other is copied once with its names lower-cased.
 */
export function headersOf(record: HeaderRecord, lowerCaseNames = false): RequestHeaders {
  if (lowerCaseNames) return new RecordHeaders(record);
  const lowered: Record<string, string | readonly string[]> = Object.create(null);
  for (const name of Object.keys(record)) {
    const value = record[name];
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const seen = lowered[key];
    lowered[key] = seen === undefined ? value : [...asList(seen), ...asList(value)];
  }
  return new RecordHeaders(lowered);
}

function asList(value: string | readonly string[]): readonly string[] {
  return typeof value === "string" ? [value] : value;
}

/** True for an object that reads like {@link RequestHeaders} (a Web `Headers`, or one of ours). */
export function isRequestHeaders(value: unknown): value is RequestHeaders {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as RequestHeaders).get === "function" &&
    typeof (value as RequestHeaders).has === "function"
  );
}

/** An empty header reader, shared. */
export const NO_HEADERS: RequestHeaders = headersOf({}, true);
