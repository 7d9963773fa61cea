// The not-found page's script. Servers show the page for any missing path, so it cannot know
// how deep it is: it finds the bundle's root by asking for manifest.json at each folder of the
// address, deepest first. Then it sends the reader home (docs.json errors.404.redirect, on
// unless set to false), or makes the page's relative links start at the root and suggests the
// pages whose address and title share the most words with the missing address (from llms.txt).
(function () {
  "use strict";
  var page = document.currentScript;
  var home = page.getAttribute("data-home");
  var redirect = page.getAttribute("data-redirect") === "true";
  var parts = location.pathname.split("/");
  parts.pop();
  var roots = [];
  while (parts.length) {
    roots.push(parts.join("/") + "/");
    parts.pop();
  }
  function relative(href) {
    return !/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(href);
  }
  function words(text) {
    return text.toLowerCase().split(/[^a-z0-9\u00c0-\uffff]+/).filter(function (w) {
      return w.length > 1 && w !== "html" && w !== "md";
    });
  }
  function suggest(root) {
    var wanted = words(decodeURIComponent(location.pathname.slice(root.length)));
    if (!wanted.length) return;
    window.fetch(root + "llms.txt").then(function (r) { return r.ok ? r.text() : ""; }).then(function (text) {
      var found = [];
      text.split("\n").forEach(function (line) {
        var m = /^- \[(.+?)\]\(([^)\s]+)\.md\)/.exec(line);
        if (!m || !relative(m[2])) return;
        var have = words(m[1] + " " + m[2]);
        var score = wanted.filter(function (w) { return have.indexOf(w) >= 0; }).length;
        if (score > 0) found.push({ title: m[1], href: root + m[2] + ".html", score: score });
      });
      found.sort(function (a, b) { return b.score - a.score; });
      var list = document.getElementById("suggestions");
      found.slice(0, 5).forEach(function (s) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = s.href;
        link.textContent = s.title;
        item.appendChild(link);
        list.appendChild(item);
      });
      if (list.children.length) list.parentNode.hidden = false;
    }, function () {});
  }
  function found(root) {
    if (redirect) {
      location.replace(root + home + ".html");
      return;
    }
    document.querySelectorAll("a[href]").forEach(function (a) {
      var href = a.getAttribute("href");
      if (relative(href)) a.setAttribute("href", root + href);
    });
    suggest(root);
  }
  (function probe(i) {
    if (i >= roots.length || !window.fetch) return;
    window.fetch(roots[i] + "manifest.json", { method: "HEAD" }).then(function (r) {
      if (r.ok) found(roots[i]); else probe(i + 1);
    }, function () { probe(i + 1); });
  })(0);
})();
