// Starts Swagger UI on the docs page. Its options come from the page (#oag-config);
// "Try it out" asks for JSON and, with a session, sends the page's CSRF token on writes.
(function () {
  "use strict";

  var SAFE_METHODS = ["GET", "HEAD", "OPTIONS"];
  var config = JSON.parse(document.getElementById("oag-config").textContent);

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : null;
  }

  function setHeader(headers, name, value) {
    Object.keys(headers).forEach(function (key) {
      if (key.toLowerCase() === name.toLowerCase()) {
        delete headers[key];
      }
    });
    headers[name] = value;
  }

  config.requestInterceptor = function (request) {
    var method = (request.method || "GET").toUpperCase();
    var token = csrfToken();
    request.headers = request.headers || {};
    setHeader(request.headers, "Accept", "application/json");
    if (token && SAFE_METHODS.indexOf(method) === -1) {
      setHeader(request.headers, "X-CSRF-Token", token);
    }
    return request;
  };
  // The spec documents the header as a required parameter: fill it in with the
  // page's token, so "Try it out" can send writes as they are.
  config.parameterMacro = function (operation, parameter) {
    if (parameter.in === "header" && parameter.name === "X-CSRF-Token") {
      return csrfToken() || undefined;
    }
    return undefined;
  };
  config.presets = [window.SwaggerUIBundle.presets.apis];
  config.layout = "BaseLayout";

  window.ui = window.SwaggerUIBundle(config);
})();
