export { fieldErrorsOfIssues } from "./issues.js";
export { schemaParser, type SchemaParserOptions } from "./path-type.js";
export {
  isStandardSchema,
  type SchemaInput,
  type SchemaOutput,
  type StandardIssue,
  type StandardJsonSchemaConverter,
  type StandardResult,
  type StandardSchema,
  type StandardSchemaProps,
} from "./standard.js";
export { validate, validateValue } from "./validate.js";
