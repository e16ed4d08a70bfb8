// The API reference page's one script of its own (a file, so the page's CSP allows no inline script).
window.ui = SwaggerUIBundle({
  url: "/docs/json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  // No badge from validator.swagger.io: nothing on this page leaves the machine.
  validatorUrl: null,
});
