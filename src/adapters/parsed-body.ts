/**
 * The body a framework's parser left on the request (Express's `req.body`, Koa's `ctx.request.body`),
 * as the pipeline takes it: only when the parser read the request stream to the end. A parser that
 * skipped a content type may still leave a placeholder (`{}` from @koa/bodyparser and Express 4's
 * body-parser) over a stream nobody read; then the body is read from the stream.
 */
export function parsedBodyOf(request: { readonly readableEnded: boolean }, body: unknown): { readonly value: unknown } | undefined {
  return body === undefined || !request.readableEnded ? undefined : { value: body };
}
