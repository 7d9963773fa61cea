// The assistant widget: a chat panel that asks the site's assistant endpoint (v1, the data
// stream protocol) and shows the answer as it streams, with the pages it drew on. Loaded only
// when quire-features.js switches the assistant on and names its endpoint and public key.
(function () {
  "use strict";
  var config = (window.QUIRE_FEATURES || {}).assistant || {};
  var root = document.body.getAttribute("data-root") || "";
  var page = document.body.getAttribute("data-page") || "";
  var messages = [];
  var threadId = null;
  var counter = 0;

  var button = document.createElement("button");
  button.type = "button";
  button.className = "assistant-button";
  button.textContent = "Ask AI";
  var panel = document.createElement("section");
  panel.className = "assistant-panel";
  panel.hidden = true;
  panel.setAttribute("aria-label", "Ask the documentation");
  panel.innerHTML =
    '<div class="assistant-log" aria-live="polite"></div>' +
    '<form class="assistant-form"><input name="q" placeholder="Ask a question" autocomplete="off" aria-label="Question">' +
    '<button type="submit">Send</button></form>';
  document.body.appendChild(button);
  document.body.appendChild(panel);
  var log = panel.querySelector(".assistant-log");
  var form = panel.querySelector("form");
  button.addEventListener("click", function () {
    panel.hidden = !panel.hidden;
    if (!panel.hidden) form.q.focus();
  });

  function bubble(role, text) {
    var div = document.createElement("div");
    div.className = "assistant-message assistant-" + role;
    div.textContent = text;
    log.appendChild(div);
    log.scrollTop = log.scrollHeight;
    return div;
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var question = form.q.value.trim();
    if (!question) return;
    form.q.value = "";
    bubble("user", question);
    messages.push({ id: "m" + ++counter, role: "user", content: question, parts: [{ type: "text", text: question }] });
    var answer = bubble("assistant", "");
    var sources = [];
    var text = "";
    var request = { fp: "anonymous", messages: messages, currentPath: "/" + page };
    if (threadId) request.threadId = threadId;
    window.fetch(config.endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + config.key },
      body: JSON.stringify(request),
    }).then(function (response) {
      if (!response.ok || !response.body) {
        return response.text().then(function (t) { throw new Error(t || response.statusText); });
      }
      var reader = response.body.getReader();
      var decoder = new TextDecoder();
      var buffer = "";
      function part(line) {
        var colon = line.indexOf(":");
        if (colon < 1) return;
        var code = line.slice(0, colon);
        var value = JSON.parse(line.slice(colon + 1));
        if (code === "0") {
          text += value;
          answer.textContent = text;
        } else if (code === "3") {
          answer.textContent = text + "\n" + value;
        } else if (code === "a" && Array.isArray(value.result)) {
          sources = value.result;
        } else if (code === "8") {
          value.forEach(function (a) { if (a && a.threadId) threadId = a.threadId; });
        } else if (code === "d" && value.threadId) {
          threadId = value.threadId;
        }
      }
      function pump() {
        return reader.read().then(function (chunk) {
          if (chunk.done) return;
          buffer += decoder.decode(chunk.value, { stream: true });
          var lines = buffer.split("\n");
          buffer = lines.pop();
          lines.forEach(part);
          log.scrollTop = log.scrollHeight;
          return pump();
        });
      }
      return pump();
    }).then(function () {
      messages.push({ id: "m" + ++counter, role: "assistant", content: text, parts: [{ type: "text", text: text }] });
      if (sources.length) {
        var list = document.createElement("ul");
        list.className = "assistant-sources";
        sources.slice(0, 5).forEach(function (hit) {
          var li = document.createElement("li");
          var a = document.createElement("a");
          var anchor = hit.metadata && hit.metadata.anchor ? "#" + hit.metadata.anchor : "";
          a.href = root + String(hit.path || "").replace(/^\//, "") + ".html" + anchor;
          a.textContent = (hit.metadata && hit.metadata.title) || hit.path;
          li.appendChild(a);
          list.appendChild(li);
        });
        answer.appendChild(list);
      }
    }).catch(function (error) {
      answer.textContent = "The assistant is unavailable: " + error.message;
    });
  });
})();
