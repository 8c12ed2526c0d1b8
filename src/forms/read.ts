import { type BodySource, bodySource, decodeText } from "../body.js";
import { overLimit } from "./errors.js";
import { collectForm, type Form, formOf } from "./form.js";
import { type FormLimits, type FormOptions, formLimits } from "./limits.js";
import { boundaryOf, MULTIPART, parseMediaType, URLENCODED, unsupportedMediaType } from "../media-type.js";
import { MultipartReader } from "./multipart.js";
import type { FormPart } from "./part.js";
import { checkedFields, fieldsOfObject, readUrlencoded } from "./urlencoded.js";

/*
 * The form readers behind `req.parts()` and `req.form()`: which reader a content type takes (415 for
 * one that is no form), the limits, a declared length over `totalBytes` refused before anything is
 * read, and a body a framework's parser read already.
 */

/** What the form readers need of a request. */
export interface FormBody {
  readonly contentType: string | null;
  readonly contentLength: string | null;
  /** The pipeline's `bodyLimit`: `totalBytes` unless the options say otherwise. */
  readonly bodyLimit: number;
  /** A body a framework's parser already read (see `RequestInput.parsedBody`). */
  readonly parsed: { readonly value: unknown } | undefined;
  /** Takes the body (once; a second read is a `TypeError`). */
  take(): BodySource;
}

const FORM_TYPES = [MULTIPART, URLENCODED] as const;

/** The form readers behind `req.form()` and `req.parts()`, as the `forms` pipeline option takes them. */
export interface FormReader {
  readonly form: (body: FormBody, options?: FormOptions) => Promise<Form>;
  readonly parts: (body: FormBody, options?: FormOptions) => AsyncIterableIterator<FormPart>;
}

/**
 * The form reader: every adapter gives it unless told; the edge adapter only when given it
 * (`toFetch(tree, { forms: formReader })` from `switchyard-router/edge`), so an edge app that reads no
 * form does not carry it.
 */
export const formReader: FormReader = Object.freeze({ form: readForm, parts: readParts });

/** The parts of a form body in order, streamed (see `RoutedRequest.parts`). */
export function readParts(body: FormBody, options?: FormOptions): AsyncIterableIterator<FormPart> {
  const limits = formLimits(options, body.bodyLimit);
  const type = parseMediaType(body.contentType);
  if (type === null || !(FORM_TYPES as readonly string[]).includes(type.essence))
    throw unsupportedMediaType("req.parts()", FORM_TYPES, body.contentType);
  if (type.essence === MULTIPART && !isParsedObject(body))
    return new MultipartReader(sourceOf(body, limits), boundaryOf(type), limits);
  return fieldParts(fieldsReader(body, limits));
}

/** The whole form (see `RoutedRequest.form`). */
export async function readForm(body: FormBody, options?: FormOptions): Promise<Form> {
  const limits = formLimits(options, body.bodyLimit);
  const type = parseMediaType(body.contentType);
  if (type === null || !(FORM_TYPES as readonly string[]).includes(type.essence))
    throw unsupportedMediaType("req.form()", FORM_TYPES, body.contentType);
  if (type.essence === MULTIPART && !isParsedObject(body))
    return collectForm(new MultipartReader(sourceOf(body, limits), boundaryOf(type), limits));
  return formOf(await fieldsReader(body, limits)());
}

/** A body a framework's parser read into an object (its fields; any files it kept are not seen here). */
function isParsedObject(body: FormBody): boolean {
  const parsed = body.parsed?.value;
  return body.parsed !== undefined && !(typeof parsed === "string" || parsed instanceof Uint8Array);
}

/** The body's source, refusing (413) a declared length over `totalBytes` before reading anything. */
function sourceOf(body: FormBody, limits: FormLimits): BodySource {
  const parsed = body.parsed?.value;
  const source = typeof parsed === "string" || parsed instanceof Uint8Array ? bodySource(parsed) : body.take();
  if (body.parsed === undefined && body.contentLength !== null && Number(body.contentLength) > limits.totalBytes) {
    source.stop();
    throw overLimit("totalBytes", limits.totalBytes);
  }
  return source;
}

/**
 * How an urlencoded body's fields are read (the body is taken now, read when called): from the stream,
 * or from what a framework's parser left.
 */
function fieldsReader(body: FormBody, limits: FormLimits): () => Promise<URLSearchParams> {
  if (body.parsed === undefined) {
    const source = body.take();
    return () => readUrlencoded(source, limits, body.contentLength);
  }
  const parsed = body.parsed.value;
  return async () => {
    if (typeof parsed === "string") return checkedFields(new URLSearchParams(parsed), limits);
    if (parsed instanceof Uint8Array) return checkedFields(new URLSearchParams(decodeText(parsed)), limits);
    return checkedFields(fieldsOfObject(parsed), limits);
  };
}

async function* fieldParts(read: () => Promise<URLSearchParams>): AsyncGenerator<FormPart, void, undefined> {
  for (const [field, value] of await read()) yield { kind: "field", field, value };
}
