import { readdirSync } from "node:fs";

/** How many file descriptors this process has open (Linux: /proc/self/fd). */
export const openFds = (): number => readdirSync("/proc/self/fd").length;

/** Polls `probe` until it holds or `ms` pass; the last value is returned either way. */
export async function eventually<T>(probe: () => T, holds: (value: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  let value = probe();
  while (!holds(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = probe();
  }
  return value;
}
