// Mounts Scalar's API reference on the document this Buckeye serves. Everything it loads comes
// from this host: no fonts, telemetry, AI agent or request proxy of Scalar's own.
window.Scalar.createApiReference("#reference", {
  url: "/api/v1/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: "never",
  hideClientButton: true,
  // Two dozen operations: every tag open at once, so the whole API reads top to bottom.
  defaultOpenAllTags: true,
  persistAuth: false,
});
