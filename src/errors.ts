// PLACEHOLDER until the core (issue 8) lands on main: the HttpError contract of the brief, nothing more.
/** Options of {@link HttpError}. */
export interface HttpErrorOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly expose?: boolean;
  readonly cause?: unknown;
  readonly body?: Readonly<Record<string, unknown>>;
}

/** An error that answers with its status. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly expose: boolean;
  readonly body: Readonly<Record<string, unknown>> | undefined;

  constructor(readonly status: number, message: string, options: HttpErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.headers = options.headers;
    this.expose = options.expose ?? status < 500;
    this.body = options.body;
  }
}
