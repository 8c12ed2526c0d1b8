import { NoParse } from "./parser.js";

/**
 * `Day`: a calendar date of the proleptic Gregorian calendar, written `YYYY-MM-DD` (four or more year
 * digits, optional sign). Prints as `YYYY-MM-DD` through `String(day)` and `JSON.stringify`.
 */
export class Day {
  /** The name patterns use; explicit, so that it survives a minifier renaming the class. */
  static readonly name = "Day";

  private constructor(
    readonly year: number,
    /** 1 … 12 */
    readonly month: number,
    /** 1 … 31 */
    readonly day: number,
  ) {}

  /** The date, or a `RangeError` when it does not exist (`Day.of(2023, 2, 29)`). */
  static of(year: number, month: number, day: number): Day {
    if (!isRealDate(year, month, day)) throw new RangeError(`no such date: ${year}-${month}-${day}`);
    return new Day(year, month, day);
  }

  static parseUrlPiece(piece: string): Day | NoParse {
    const m = DAY_SYNTAX.exec(piece);
    if (m === null) return NoParse;
    const year = Number(m[1]);
    const month = Number(m[2]);
    const day = Number(m[3]);
    if (!Number.isSafeInteger(year) || !isRealDate(year, month, day)) return NoParse;
    return new Day(year === 0 ? 0 : year, month, day);
  }

  static toUrlPiece(value: Day): string {
    return value.toString();
  }

  /** `YYYY-MM-DD`, the year padded to four digits, `-` before a negative year. */
  toString(): string {
    const sign = this.year < 0 ? "-" : "";
    return `${sign}${pad(Math.abs(this.year), 4)}-${pad(this.month, 2)}-${pad(this.day, 2)}`;
  }

  toJSON(): string {
    return this.toString();
  }

  /** Midnight UTC of this day, as a `Date`. */
  toDate(): Date {
    const date = new Date(0);
    date.setUTCFullYear(this.year, this.month - 1, this.day);
    return date;
  }

  /** True when both name the same day. */
  equals(other: Day): boolean {
    return this.year === other.year && this.month === other.month && this.day === other.day;
  }
}

// Parsing a Day is rare next to integers; a regex keeps the syntax readable here.
const DAY_SYNTAX = /^([+-]?\d{4,})-(\d{2})-(\d{2})$/;

function isRealDate(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}
