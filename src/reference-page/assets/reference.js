// Mounts Swagger UI on the document this Buckeye serves. Everything it loads comes from this host:
// no validator badge (it would send the document to validator.swagger.io) and no URL bar to load
// another document (the standalone layout's top bar), so the page shows this API and nothing else.
window.SwaggerUIBundle({
  url: "/api/v1/openapi.json",
  dom_id: "#reference",
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  validatorUrl: null,
  // Two dozen operations: every tag open, so the whole API reads top to bottom, each operation one click away.
  docExpansion: "list",
  // Off: with deep links on, Swagger UI puts each operation's path as a link inside the button that
  // opens the operation, a link no keyboard can reach on its own (WCAG 4.1.2, axe's nested-interactive).
  deepLinking: false,
  // Off: its colour themes put red on dark grey at 3.45:1 (WCAG 1.4.3); examples read as plain JSON.
  syntaxHighlight: { activated: false },
  // "Try it out" sends requests to this host (the document's server is "/") with the key given under "Authorize".
  persistAuthorization: false,
});
