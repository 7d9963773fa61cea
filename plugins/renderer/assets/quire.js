// Draws the sidebar from window.QUIRE_NAV (written once per site by the renderer) and marks
// the current page. Pages stay readable without it: content, breadcrumbs and previous/next
// links are plain HTML.
(function () {
  "use strict";
  function draw() {
    var sidebar = document.getElementById("sidebar");
    var nav = window.QUIRE_NAV;
    if (!sidebar || !nav || !nav.items) return;
    var root = document.body.getAttribute("data-root") || "";
    var current = document.body.getAttribute("data-page");
    var top = document.createElement("ul");
    top.className = "nav";
    var stack = [{ depth: -1, list: top }];
    nav.items.forEach(function (item) {
      while (stack.length > 1 && stack[stack.length - 1].depth >= item.depth) stack.pop();
      var parent = stack[stack.length - 1].list;
      var li = document.createElement("li");
      li.className = "nav-" + item.kind;
      if (item.kind === "page" || item.kind === "link") {
        var a = document.createElement("a");
        a.textContent = item.label;
        if (item.kind === "page") {
          a.href = root + item.target + ".html";
          if (item.target === current) {
            a.className = "active";
            a.setAttribute("aria-current", "page");
          }
        } else {
          a.href = item.target;
          a.rel = "noopener";
        }
        li.appendChild(a);
      } else {
        var label = document.createElement("div");
        label.className = "nav-label";
        label.textContent = item.label;
        li.appendChild(label);
        var children = document.createElement("ul");
        li.appendChild(children);
        stack.push({ depth: item.depth, list: children });
      }
      parent.appendChild(li);
    });
    sidebar.appendChild(top);
    var active = sidebar.querySelector("a.active");
    if (active && active.scrollIntoView) active.scrollIntoView({ block: "nearest" });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", draw);
  else draw();
})();
