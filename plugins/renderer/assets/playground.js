// The API playground ("Try it"): API reference pages carry a plain form describing the
// operation; this script shows it and sends the request from the reader's browser to the API's
// server with fetch. Loaded only when quire-features.js switches the playground on, and it
// sends nothing until the reader presses Send.
(function () {
  "use strict";
  function setup(form) {
    form.hidden = false;
    var output = form.querySelector(".playground-response");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var method = form.getAttribute("data-method");
      var path = form.getAttribute("data-path");
      var server = form.querySelector("input[name=server]").value.replace(/\/+$/, "");
      var query = [];
      var headers = {};
      form.querySelectorAll("input[data-in]").forEach(function (input) {
        var name = input.getAttribute("data-name");
        var value = input.value;
        switch (input.getAttribute("data-in")) {
          case "path":
            path = path.split("{" + name + "}").join(encodeURIComponent(value));
            break;
          case "query":
            if (value !== "") query.push(encodeURIComponent(name) + "=" + encodeURIComponent(value));
            break;
          case "header":
            if (value !== "") headers[name] = value;
            break;
        }
      });
      var init = { method: method, headers: headers };
      var body = form.querySelector("textarea[name=body]");
      if (body && method !== "GET" && method !== "HEAD") {
        init.body = body.value;
        headers["Content-Type"] = "application/json";
      }
      var url = server + path + (query.length ? "?" + query.join("&") : "");
      output.textContent = "Sending " + method + " " + url + " …";
      var started = Date.now();
      window.fetch(url, init).then(function (response) {
        return response.text().then(function (text) {
          var shown = text;
          try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON */ }
          output.setAttribute("data-status", String(response.status));
          output.textContent = response.status + " " + response.statusText + " · " +
            (Date.now() - started) + " ms\n\n" + shown;
        });
      }, function (error) {
        output.setAttribute("data-status", "error");
        output.textContent = "The request failed: " + error.message +
          " (is the server reachable, and does it allow requests from this page's origin?)";
      });
    });
  }
  document.querySelectorAll("form.playground").forEach(setup);
})();
