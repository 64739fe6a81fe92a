// Renders the service's own OpenAPI document; no request leaves this origin
// (validatorUrl: null turns off Swagger UI's online validator badge).
window.SwaggerUIBundle({
  url: "/api/v1/openapi.json",
  dom_id: "#reference",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
});
