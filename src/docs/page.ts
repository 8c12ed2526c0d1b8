/*
 * The docs page's HTML and its start-up script (served as a file of its own: the page's
 * Content-Security-Policy runs no inline script). Every URL is relative to the page (`docs/assets/…`
 * from `/docs`), so the page works wherever the app is mounted.
 */

/** The page: Swagger UI on the document at `BASE/openapi.json`, `base` being the page path's last segment. */
export function pageHtml(title: string, base: string): string {
  const at = escapeHtml(encodeURIComponent(base));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="${at}/assets/favicon-32x32.png">
<link rel="stylesheet" href="${at}/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-openapi="${at}/openapi.json"></div>
<script src="${at}/assets/swagger-ui-bundle.js"></script>
<script src="${at}/assets/init.js"></script>
</body>
</html>
`;
}

/**
 * Starts Swagger UI on the element's document: no validator badge (it would call an outside server),
 * deep links to operations.
 */
export const INIT_SCRIPT = `"use strict";
(function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: new URL(root.getAttribute("data-openapi"), document.baseURI).href,
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
})();
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
