// The assistant widget: a chat panel that asks the site's assistant endpoint (v1, the data
// stream protocol) and shows the answer as it streams, with the pages it drew on; or, where no
// endpoint is on and the bundle carries its own assistant (quire-features.js `offline`), asks
// that one: the built-in answer compiled to WebAssembly, loaded from the bundle's
// `assistant/` scripts the first time the reader asks, so it works from file:// with no
// request leaving the bundle. Loaded only when quire-features.js switches either on.
(function () {
  "use strict";
  var config = (window.QUIRE_FEATURES || {}).assistant || {};
  var online = !!(config.enabled && config.endpoint);
  var root = document.body.getAttribute("data-root") || "";
  var page = document.body.getAttribute("data-page") || "";
  var messages = [];
  var threadId = null;
  var counter = 0;

  // --- The bundle's own assistant ---------------------------------------------------------
  var bundled = null;

  function script(path) {
    return new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = root + path;
      tag.onload = resolve;
      tag.onerror = function () { reject(new Error("cannot load " + path)); };
      document.head.appendChild(tag);
    });
  }

  function decode(base64) {
    var binary = atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  // The module and its data, loaded and started once.
  function loadBundled() {
    if (bundled) return bundled;
    var chunks = {};
    window.QUIRE_ASSISTANT_CHUNK = function (name, base64) { chunks[name] = decode(base64); };
    bundled = Promise.all([script("assistant/answerer.js"), script("assistant/data.js")]).then(function () {
      var data = window.QUIRE_ASSISTANT_DATA || {};
      var names = [].concat(data.index || [], data.vocabulary || [], data.site || []);
      var unique = names.filter(function (name, i) { return names.indexOf(name) === i; });
      return Promise.all(unique.map(function (name) { return script("assistant/chunks/" + name + ".js"); })).then(function () {
        return WebAssembly.instantiate(decode(window.QUIRE_ASSISTANT_MODULE || ""), {});
      }).then(function (result) {
        var exports = result.instance.exports;
        function stream(list) {
          var parts = (list || []).map(function (name) { return chunks[name]; });
          var length = parts.reduce(function (n, part) { return n + part.length; }, 0);
          var bytes = new Uint8Array(length);
          var at = 0;
          parts.forEach(function (part) { bytes.set(part, at); at += part.length; });
          return bytes;
        }
        function pass(bytes) {
          var pointer = exports.quire_alloc(bytes.length);
          new Uint8Array(exports.memory.buffer, pointer, bytes.length).set(bytes);
          return [pointer, bytes.length];
        }
        function output() {
          var bytes = new Uint8Array(exports.memory.buffer, exports.quire_output_ptr(), exports.quire_output_len());
          return new TextDecoder().decode(bytes.slice());
        }
        var args = [].concat(pass(stream(data.index)), pass(stream(data.vocabulary)), pass(stream(data.site)));
        chunks = {};
        if (exports.quire_load.apply(null, args) !== 0) throw new Error(output());
        return function (request) {
          var status = exports.quire_ask.apply(null, pass(new TextEncoder().encode(JSON.stringify(request))));
          if (status !== 0) throw new Error(output());
          return JSON.parse(output());
        };
      });
    });
    bundled.catch(function () { bundled = null; });
    return bundled;
  }

  // Asks the bundle's assistant: `request` as the server's assistant takes it (messages of
  // {role, content}, currentPath, filter, retrievalPageSize); resolves to {text, sources}.
  function askBundled(request) {
    return loadBundled().then(function (ask) { return ask(request); });
  }
  window.QuireAssistant = {
    mode: online ? "online" : "bundled",
    ask: askBundled,
    // Opens the panel and asks `question` there, as if the reader had typed it.
    open: function (question) {
      panel.hidden = false;
      if (question) {
        form.q.value = question;
        form.requestSubmit();
      } else {
        form.q.focus();
      }
    },
  };

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
    if (panel.hidden) return;
    form.q.focus();
    // The bundle's assistant starts loading while the reader types (a failure shows when
    // they ask).
    if (!online) loadBundled().catch(function () {});
  });

  function bubble(role, text) {
    var div = document.createElement("div");
    div.className = "assistant-message assistant-" + role;
    div.textContent = text;
    log.appendChild(div);
    log.scrollTop = log.scrollHeight;
    return div;
  }

  // --- Answers as the reader sees them ---------------------------------------------------
  // The answer's Markdown (quotes, code blocks, lists, links, code spans) drawn as elements,
  // never as HTML, so nothing in an answer can run. A link to a page of the site
  // ("/guides/webhooks#retries") goes to its file in this copy of the site; the raw Markdown
  // stays in data-text.
  function href(url) {
    if (/^https?:\/\//.test(url)) return url;
    if (url.charAt(0) !== "/") return null;
    var hash = url.indexOf("#");
    var path = (hash < 0 ? url : url.slice(0, hash)).slice(1) || "index";
    return root + path + ".html" + (hash < 0 ? "" : url.slice(hash));
  }

  function inline(parent, text) {
    var pattern = /\[([^\]]+)\]\(([^)\s]+)\)|`([^`]+)`/g;
    var at = 0;
    var match;
    while ((match = pattern.exec(text))) {
      parent.appendChild(document.createTextNode(text.slice(at, match.index)));
      if (match[3] !== undefined) {
        var code = document.createElement("code");
        code.textContent = match[3];
        parent.appendChild(code);
      } else {
        var target = href(match[2]);
        var link = document.createElement(target ? "a" : "span");
        if (target) link.href = target;
        link.textContent = match[1];
        parent.appendChild(link);
      }
      at = pattern.lastIndex;
    }
    parent.appendChild(document.createTextNode(text.slice(at)));
  }

  function render(container, markdown) {
    container.textContent = "";
    container.setAttribute("data-text", markdown);
    var lines = markdown.split("\n");
    var block = null;
    function close() { block = null; }
    function open(tag, kind) {
      if (!block || block.kind !== kind) {
        block = { kind: kind, node: document.createElement(tag) };
        container.appendChild(block.node);
      }
      return block.node;
    }
    for (var i = 0; i < lines.length; i++) {
      var line = lines[i];
      var fence = /^\s*```\s*([\w+-]*)/.exec(line);
      if (fence) {
        var body = [];
        while (++i < lines.length && !/^\s*```\s*$/.test(lines[i])) body.push(lines[i]);
        var pre = document.createElement("pre");
        var code = document.createElement("code");
        if (fence[1]) code.className = "language-" + fence[1];
        code.textContent = body.join("\n");
        pre.appendChild(code);
        container.appendChild(pre);
        close();
      } else if (!line.trim()) {
        close();
      } else if (/^> ?/.test(line)) {
        var quote = open("blockquote", "quote");
        if (quote.childNodes.length) quote.appendChild(document.createElement("br"));
        inline(quote, line.replace(/^> ?/, ""));
      } else if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
        var ordered = /^\s*\d+\./.test(line);
        var list = open(ordered ? "ol" : "ul", ordered ? "ol" : "ul");
        var item = document.createElement("li");
        inline(item, line.replace(/^\s*([-*]|\d+\.)\s+/, ""));
        list.appendChild(item);
      } else {
        var paragraph = open("p", "p");
        if (paragraph.childNodes.length) paragraph.appendChild(document.createTextNode(" "));
        inline(paragraph, line);
      }
    }
  }

  function sourceList(sources) {
    var list = document.createElement("ul");
    list.className = "assistant-sources";
    sources.slice(0, 5).forEach(function (hit) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      var anchor = hit.anchor ? "#" + hit.anchor : "";
      a.href = root + String(hit.path || "").replace(/^\//, "") + ".html" + anchor;
      a.textContent = hit.title || hit.path;
      li.appendChild(a);
      list.appendChild(li);
    });
    return list;
  }

  function answerBundled(question) {
    messages.push({ role: "user", content: question });
    var answer = bubble("assistant", "…");
    answer.setAttribute("data-state", "loading");
    askBundled({ messages: messages, currentPath: "/" + page }).then(function (reply) {
      messages.push({ role: "assistant", content: reply.text });
      render(answer, reply.text);
      if (reply.sources.length) answer.appendChild(sourceList(reply.sources));
      answer.setAttribute("data-state", "done");
    }).catch(function (error) {
      messages.pop();
      answer.textContent = "The assistant is unavailable: " + error.message;
      answer.setAttribute("data-state", "failed");
    });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var question = form.q.value.trim();
    if (!question) return;
    form.q.value = "";
    bubble("user", question);
    if (!online) return answerBundled(question);
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
          render(answer, text);
        } else if (code === "3") {
          render(answer, text + "\n\n" + value);
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
        answer.appendChild(sourceList(sources.map(function (hit) {
          var metadata = hit.metadata || {};
          return { path: hit.path, anchor: metadata.anchor, title: metadata.title };
        })));
      }
    }).catch(function (error) {
      answer.textContent = "The assistant is unavailable: " + error.message;
    });
  });
})();
