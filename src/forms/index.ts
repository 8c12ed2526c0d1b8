/*
 * Forms: `multipart/form-data` (streamed, through the optional peer multipasta) and
 * `application/x-www-form-urlencoded` bodies, read by `req.parts()` and `req.form()`, and their fields
 * and files read by name.
 */
export { formField, formFields, formFile, formFiles, type FormFieldReader } from "./fields.js";
export { formOf, type Form } from "./form.js";
export { formReader, type FormReader } from "./read.js";
export { DEFAULT_FORM_LIMITS, MAX_HEADER_BYTES, type FormLimits, type FormOptions } from "./limits.js";
export type { FormField, FormFile, FormPart } from "./part.js";
export type { PartRef } from "./errors.js";
export { formObject, formRecord, type FormObjectOptions, type FormValue } from "./object.js";
