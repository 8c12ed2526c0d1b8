/** The controllers sample's operations (`METHOD /path`), in the order its routes declare them. */
export const CONTROLLERS_SAMPLE_OPERATIONS: readonly string[] = [
  "GET /health",
  "GET /api/users",
  "POST /api/users",
  "GET /api/users/me",
  "GET /api/users/{id}",
  "DELETE /api/users/{id}",
  "GET /api/reports/{on}",
  "POST /api/avatars",
  "GET /api/countdown",
  "GET /static",
];
