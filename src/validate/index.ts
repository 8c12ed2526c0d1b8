export { body, type BodyOptions } from "./body.js";
export { type DtoClass, type DtoOptions, type DtoValidator, registerDtoValidator, validateDto } from "./dto.js";
export { badRequest, combinedErrors, type FieldError, fieldErrorsOf, type ValueSource } from "./field-errors.js";
export { DEFAULT_MAX_DEPTH, jsonBody } from "./json-body.js";
export { queryObject, queryRecord, type QueryObjectOptions } from "./query.js";
