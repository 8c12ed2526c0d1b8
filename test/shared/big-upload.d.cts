// Types of big-upload.cjs, for the TypeScript tests that use it.
import type { ClientRequest } from "node:http";

/** Writes `head`, `size` bytes in 64 KiB writes with back-pressure, then `tail`; stops once `stopped()`. */
export declare function sendBody(
  req: ClientRequest,
  head: Buffer,
  size: number,
  tail: Buffer,
  stopped?: () => boolean,
): void;

/** Streams a multipart body with one file of `size` bytes to `target`; resolves with the status and body. */
export declare function uploadBigFile(
  port: number,
  target: string,
  size: number,
): Promise<{ status: number; body: string }>;
