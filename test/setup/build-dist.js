// Builds dist/ (both the CommonJS and the ES module build) once before any test file runs, so tests
// that load the package by name (`require("switchyard-router")`), pack it, or compile samples against
// it never race each other's builds.
const { build } = require("../../scripts/build.js");

module.exports = build;
