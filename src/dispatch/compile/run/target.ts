/*
 * Reading a request target as it is: generated walks (generate/walk.ts) and the table walk
 * (`Automaton.firstInTargetByTable`) match a target's segments where they lie, without scanning it
 * for `?` (where the query starts) and `%` (what must be decoded) first. A literal matches only its
 * own characters followed by `/` or the end, so either character in a segment fails every literal
 * there (literals holding one are left to the walk of decoded segments); a segment that is captured
 * is read to its end, and one holding either leaves the answer to the path cut at its query and
 * decoded (`UNDECIDED`, answers.ts). What a walk does not read (the rest a prefix route leaves, a hand-over's
 * remainder, the segment a miss failed at and the ones after it) it checks before it answers.
 */

/**
 * A captured segment's end is looked for character by character up to this many; a native search
 * costs more on shorter ones, a loop more on longer ones (a UUID: 36 characters).
 */
const LOOP_LONGEST = 12;

/**
 * True when a raw path's segment can be the literal `literal`: a segment holds no `/` (it ends
 * there), no `?` (the query starts there) and no `%` (what follows is decoded), so a literal with
 * any of them equals only a decoded segment.
 */
export function rawCanHold(literal: string): boolean {
  return !/[/%?]/.test(literal);
}

/** True when `text` from `from` on holds no `?` (no query) and no `%` (nothing to decode). */
export function plainFrom(text: string, from: number): boolean {
  return text.indexOf("%", from) === -1 && text.indexOf("?", from) === -1;
}

/**
 * Where the segment of `text` starting at `start` ends (the next `/`, or the end), or -1 when a `%`
 * or `?` is in it: read character by character up to {@link LOOP_LONGEST}; past that, the end
 * found natively and the rest of the target checked at once (so -1 also when one comes later).
 */
export function segmentEnd(text: string, start: number): number {
  const length = text.length;
  const stop = length - start > LOOP_LONGEST ? start + LOOP_LONGEST : length;
  for (let end = start; end < stop; end++) {
    const c = text.charCodeAt(end);
    if (c === 47 /* / */) return end;
    if (c === 37 /* % */ || c === 63 /* ? */) return -1;
  }
  if (stop === length) return length;
  if (!plainFrom(text, stop)) return -1;
  return plainSegmentEnd(text, stop);
}

/** Where the segment of `text` going on at `from` ends, found natively: the next `/`, or the end. */
export function plainSegmentEnd(text: string, from: number): number {
  const end = text.indexOf("/", from);
  return end === -1 ? text.length : end;
}
