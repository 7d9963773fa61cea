// Quire's theme script. Pages are complete without it; it adds what needs a script: the
// sidebar's page tree (shared per version and language in assets/nav/N.js), the light/dark
// toggle, tabbed Tabs and CodeGroups kept in sync, copy buttons, and the optional features
// switched on in quire-features.js (search, playground, assistant, analytics). It makes no
// request to another host unless a feature file names one.
(function () {
  "use strict";
  // The other theme scripts' names carry their content hash; this script's tag lists them.
  var self = document.currentScript;
  var body = document.body;
  var root = body.getAttribute("data-root") || "";
  var current = body.getAttribute("data-page");
  var features = window.QUIRE_FEATURES || {};

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  function store(key, value) {
    try {
      if (value === undefined) return window.localStorage.getItem(key);
      window.localStorage.setItem(key, value);
    } catch (e) {
      return null;
    }
    return null;
  }

  // Loads one of the theme's scripts once.
  var loaded = {};
  function load(name, then) {
    if (loaded[name]) {
      if (then) then();
      return;
    }
    var script = document.createElement("script");
    script.src = root + ((self && self.getAttribute("data-" + name)) || "assets/" + name + ".js");
    script.onload = function () {
      loaded[name] = true;
      if (then) then();
    };
    document.head.appendChild(script);
  }
  window.QUIRE_LOAD = load;

  // --- Sidebar -----------------------------------------------------------------------------
  // An icon from the navigation data: an inline SVG, or an image in the site whose path is
  // relative to the site root (data-root-src), so it needs this page's way back to the root.
  function addIcon(holder, html) {
    holder.insertAdjacentHTML("beforeend", html);
    var image = holder.lastElementChild;
    if (image && image.hasAttribute("data-root-src")) {
      image.src = root + image.getAttribute("data-root-src");
      image.removeAttribute("data-root-src");
    }
  }

  function drawSidebar() {
    var holder = document.getElementById("sidebar-tree");
    var nav = window.QUIRE_NAV;
    if (!holder || !nav || !nav.items) return;
    var icons = nav.icons || {};
    var items = nav.items;
    var start = 0;
    var end = items.length;
    var base = 0;
    var section = body.getAttribute("data-section");
    var sectionKinds = { tab: 1, anchor: 1, dropdown: 1, product: 1 };
    if (section !== "" && section != null && items[+section]) {
      start = +section + 1;
      base = items[+section].depth + 1;
      for (end = start; end < items.length && items[end].depth >= base; end++);
    }
    var top = el("ul", "nav");
    var stack = [{ depth: base - 1, list: top }];
    for (var i = start; i < end; i++) {
      var item = items[i];
      if (section === "" && sectionKinds[item.kind]) {
        // A page outside every section: skip the other sections' trees.
        var d = item.depth;
        while (i + 1 < end && items[i + 1].depth > d) i++;
        continue;
      }
      while (stack.length > 1 && stack[stack.length - 1].depth >= item.depth) stack.pop();
      var parent = stack[stack.length - 1].list;
      var li = el("li", "nav-" + item.kind);
      var icon = item.icon && icons[item.icon] ? icons[item.icon] : "";
      if (item.kind === "page" || item.kind === "link") {
        var a = el("a");
        if (icon) addIcon(a, icon);
        a.appendChild(document.createTextNode(item.label));
        if (item.kind === "page") {
          a.href = root + item.target + ".html";
          if (item.target === current) {
            a.className = "active";
            a.setAttribute("aria-current", "page");
          }
        } else {
          a.href = linkHref(item.target);
          if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(item.target)) a.rel = "noopener";
        }
        if (item.tag) a.appendChild(el("span", "nav-tag", item.tag));
        li.appendChild(a);
      } else {
        var group = el("details", "nav-group");
        var summary = el("summary", "nav-label");
        if (icon) addIcon(summary, icon);
        if (item.target) {
          // A group with a root page: its title opens that page.
          var rootLink = el("a", item.target === current ? "active" : "", item.label);
          rootLink.href = root + item.target + ".html";
          if (item.target === current) rootLink.setAttribute("aria-current", "page");
          summary.appendChild(rootLink);
        } else {
          summary.appendChild(document.createTextNode(item.label));
          if (holder.hasAttribute("data-drilldown")) drillDown(group, summary);
        }
        if (item.tag) summary.appendChild(el("span", "nav-tag", item.tag));
        group.appendChild(summary);
        group.open = item.expanded || item.depth === base || item.target === current || containsCurrent(items, i);
        var children = el("ul");
        group.appendChild(children);
        li.appendChild(group);
        stack.push({ depth: item.depth, list: children });
      }
      parent.appendChild(li);
    }
    holder.appendChild(top);
    var active = holder.querySelector("a.active");
    if (active && active.scrollIntoView) active.scrollIntoView({ block: "nearest" });
  }

  // docs.json interaction.drilldown: opening a closed group goes to its first page.
  function drillDown(group, summary) {
    summary.addEventListener("click", function (event) {
      if (group.open) return;
      var first = group.querySelector("ul a[href]");
      if (!first) return;
      event.preventDefault();
      window.location.href = first.href;
    });
  }

  // A navigation link: a URL as it is, a site path (`/changelog`) as a page of the bundle.
  function linkHref(target) {
    if (/^([a-z][a-z0-9+.-]*:|\/\/|#)/i.test(target)) return target;
    var path = target.replace(/^\/+/, "").replace(/\/+$/, "");
    if (!path) return root + "index.html";
    return root + (/\.[a-z0-9]+$/i.test(path) ? path : path + ".html");
  }

  function containsCurrent(items, index) {
    var depth = items[index].depth;
    for (var i = index + 1; i < items.length && items[i].depth > depth; i++) {
      if (items[i].target === current && (items[i].kind === "page" || items[i].kind === "group")) return true;
    }
    return false;
  }

  // --- Light and dark ----------------------------------------------------------------------
  function setupThemeToggle() {
    var button = document.querySelector(".theme-toggle");
    if (!button) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var dark = document.documentElement.classList.toggle("dark");
      store("quire-mode", dark ? "dark" : "light");
      drawDiagrams();
    });
  }

  // --- Tabs and code groups ----------------------------------------------------------------
  // Each group becomes a tab list; choosing a tab chooses the same-titled tab in every group on
  // the page, and is remembered for other pages.
  function setupTabs() {
    var groups = [];
    document.querySelectorAll(".tabs, .code-group").forEach(function (group) {
      var isCode = group.classList.contains("code-group");
      var panels = Array.prototype.filter.call(group.children, function (child) {
        return child.classList.contains(isCode ? "code-block" : "tab");
      });
      if (panels.length < 2) return;
      var list = el("div", "tab-list");
      list.setAttribute("role", "tablist");
      var buttons = panels.map(function (panel, i) {
        var titleNode = panel.querySelector(isCode ? ".code-title" : ".tab-title");
        var title = titleNode ? titleNode.textContent : "Tab " + (i + 1);
        if (titleNode && !isCode) titleNode.hidden = true;
        var button = el("button", "tab-button", title);
        button.type = "button";
        button.setAttribute("role", "tab");
        button.addEventListener("click", function () {
          choose(title);
          store("quire-tab", title);
        });
        list.appendChild(button);
        panel.setAttribute("role", "tabpanel");
        return { title: title, button: button, panel: panel };
      });
      group.insertBefore(list, group.firstChild);
      group.classList.add("tabbed");
      groups.push(buttons);
      show(buttons, 0);
    });
    function show(buttons, index) {
      buttons.forEach(function (b, i) {
        b.button.setAttribute("aria-selected", i === index ? "true" : "false");
        b.panel.hidden = i !== index;
      });
    }
    function choose(title) {
      groups.forEach(function (buttons) {
        for (var i = 0; i < buttons.length; i++) {
          if (buttons[i].title === title) return show(buttons, i);
        }
      });
    }
    var remembered = store("quire-tab");
    if (remembered) choose(remembered);
  }

  // --- Copy buttons --------------------------------------------------------------------------
  function setupCopyButtons() {
    document.querySelectorAll(".code-block").forEach(function (block) {
      var code = block.querySelector("pre code");
      if (!code) return;
      var button = el("button", "copy-button", "Copy");
      button.type = "button";
      button.setAttribute("aria-label", "Copy code");
      button.addEventListener("click", function () {
        var text = code.innerText;
        var done = function () {
          button.textContent = "Copied";
          setTimeout(function () { button.textContent = "Copy"; }, 1500);
        };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text, done); });
        } else {
          fallbackCopy(text, done);
        }
      });
      block.appendChild(button);
    });
  }

  // Expandable code blocks (fence meta `expandable`) fold to their first lines; without this
  // script they show whole.
  function setupExpandableCode() {
    document.querySelectorAll(".code-block.expandable").forEach(function (block) {
      var lines = block.querySelectorAll(".line").length;
      if (lines <= 12) return;
      block.classList.add("collapsed");
      var button = el("button", "expand-button", "Show all " + lines + " lines");
      button.type = "button";
      button.addEventListener("click", function () {
        var collapsed = block.classList.toggle("collapsed");
        button.textContent = collapsed ? "Show all " + lines + " lines" : "Show less";
      });
      block.appendChild(button);
    });
  }

  // Prompts: copy the prompt's text, or open it in Cursor through its prompt deep link.
  function setupPrompts() {
    document.querySelectorAll(".prompt").forEach(function (prompt) {
      var body = prompt.querySelector(".prompt-body");
      if (!body) return;
      var copy = prompt.querySelector(".prompt-copy");
      if (copy) copy.addEventListener("click", function () {
        var done = function () {
          copy.textContent = "Copied";
          setTimeout(function () { copy.textContent = "Copy prompt"; }, 1500);
        };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(body.innerText).then(done, function () { fallbackCopy(body.innerText, done); });
        } else {
          fallbackCopy(body.innerText, done);
        }
      });
      var cursor = prompt.querySelector(".prompt-cursor");
      if (cursor) cursor.href = "cursor://anysphere.cursor-deeplink/prompt?text=" + encodeURIComponent(body.innerText);
    });
  }

  // --- Contextual menu -------------------------------------------------------------------------
  // "Copy page" copies the page's Markdown (the .md beside it; its text where a browser will not
  // read files, as from file://); assistants get the page's address, so they are offered only
  // on pages served over HTTP(S) by a deployment that lets pages reach other sites. A custom
  // option that is a plain link is one everywhere.
  function setupContextual() {
    var menu = document.querySelector(".contextual");
    if (!menu) return;
    var view = menu.querySelector("[data-contextual=view]");
    var markdown = view ? view.href : location.href.replace(/\.html?(#.*)?$/, ".md");
    var copy = menu.querySelector("[data-contextual=copy]");
    if (copy) copy.addEventListener("click", function () {
      var done = function () {
        copy.textContent = "Copied";
        setTimeout(function () { copy.textContent = "Copy page"; }, 1500);
      };
      var fromText = function () {
        var article = document.querySelector("article");
        fallbackCopy(article ? article.innerText : document.title, done);
      };
      if (!/^https?:/.test(location.protocol) || !window.fetch) return fromText();
      fetch(markdown).then(function (r) { return r.ok ? r.text() : Promise.reject(); }).then(function (text) {
        if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text, done); });
        else fallbackCopy(text, done);
      }, fromText);
    });
    var online = /^https?:$/.test(location.protocol) && features.deployment !== "air-gapped";
    var ask = "Read " + location.href.split("#")[0] + " so I can ask questions about it.";
    var targets = {
      chatgpt: "https://chatgpt.com/?hints=search&q=",
      claude: "https://claude.ai/new?q=",
      perplexity: "https://www.perplexity.ai/search/new?q=",
    };
    menu.querySelectorAll("a[data-contextual]").forEach(function (link) {
      var base = targets[link.getAttribute("data-contextual")];
      if (!base) return;
      if (online) {
        link.href = base + encodeURIComponent(ask);
        link.hidden = false;
      } else {
        link.parentNode.removeChild(link);
      }
    });
    // The MCP options: the deployment's endpoint (the feature file's, resolved against the
    // page) copied, or handed to an editor's install link; gone where there is no endpoint.
    var mcp = features.mcp || {};
    var endpoint = /^https?:$/.test(location.protocol) && mcp.enabled && mcp.endpoint
      ? new URL(mcp.endpoint, location.href).href : "";
    var server = mcp.name || location.hostname;
    var installs = {
      cursor: function () {
        var config = btoa(JSON.stringify({ url: endpoint }));
        return "cursor://anysphere.cursor-deeplink/mcp/install?name=" + encodeURIComponent(server) +
          "&config=" + encodeURIComponent(config);
      },
      vscode: function () {
        return "vscode:mcp/install?" + encodeURIComponent(JSON.stringify({ name: server, type: "http", url: endpoint }));
      },
    };
    menu.querySelectorAll("[data-contextual=mcp], [data-contextual=cursor], [data-contextual=vscode]").forEach(function (option) {
      if (!endpoint) {
        option.parentNode.removeChild(option);
        return;
      }
      var kind = option.getAttribute("data-contextual");
      if (kind === "mcp") {
        option.setAttribute("data-url", endpoint);
        option.title = endpoint;
        option.addEventListener("click", function () {
          var done = function () {
            option.textContent = "Copied";
            setTimeout(function () { option.textContent = "Copy MCP server URL"; }, 1500);
          };
          if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(endpoint).then(done, function () { fallbackCopy(endpoint, done); });
          else fallbackCopy(endpoint, done);
        });
      } else {
        option.href = installs[kind]();
      }
      option.hidden = false;
    });
    // Custom options that name the page ($page: its address, $path: its path), under the
    // same rule as the assistants.
    var address = location.href.split("#")[0];
    var fill = function (text) {
      return String(text).split("$page").join(address).split("$path").join(location.pathname);
    };
    menu.querySelectorAll("a[data-contextual=template]").forEach(function (link) {
      var template = null;
      try { template = JSON.parse(link.getAttribute("data-template")); } catch (e) { /* left hidden */ }
      if (!online || !template) {
        link.parentNode.removeChild(link);
        return;
      }
      var href = fill(template.base);
      var query = (template.query || []).map(function (pair) {
        return encodeURIComponent(pair[0]) + "=" + encodeURIComponent(fill(pair[1]));
      }).join("&");
      if (query) href += (href.indexOf("?") < 0 ? "?" : "&") + query;
      link.href = href;
      link.hidden = false;
    });
  }

  // --- Views -----------------------------------------------------------------------------------
  // Sibling <View> sections become one choice: a selector above the first shows one at a time,
  // and the reader's choice is remembered across pages. Without JavaScript all show, titled.
  function setupViews() {
    var views = document.querySelectorAll("section.view");
    if (!views.length) return;
    var titles = [];
    views.forEach(function (view) {
      var title = view.getAttribute("data-view");
      if (titles.indexOf(title) < 0) titles.push(title);
    });
    var select = el("select", "view-select");
    select.setAttribute("aria-label", "View");
    titles.forEach(function (title) {
      var option = el("option", "", title);
      option.value = title;
      select.appendChild(option);
    });
    var show = function (title) {
      views.forEach(function (view) { view.hidden = view.getAttribute("data-view") !== title; });
      select.value = title;
    };
    select.addEventListener("change", function () {
      store("quire-view", select.value);
      show(select.value);
    });
    var holder = el("div", "view-picker");
    holder.appendChild(select);
    views[0].parentNode.insertBefore(holder, views[0]);
    document.body.classList.add("has-views");
    var remembered = store("quire-view");
    show(remembered && titles.indexOf(remembered) >= 0 ? remembered : titles[0]);
  }

  function fallbackCopy(text, done) {
    var area = el("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); done(); } catch (e) { /* nothing to copy with */ }
    document.body.removeChild(area);
  }

  // --- Diagrams --------------------------------------------------------------------------------
  // Mermaid blocks stay readable as code without JavaScript. Pages with a diagram load the
  // Mermaid script the bundle carries (before this one), which draws them in the current colour
  // mode, again whenever the reader switches it.
  var diagramRuns = 0;
  function drawDiagrams() {
    if (!window.mermaid || !window.mermaid.render) return;
    var dark = document.documentElement.classList.contains("dark");
    window.mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: dark ? "dark" : "default" });
    var run = ++diagramRuns;
    document.querySelectorAll(".mermaid-block").forEach(function (block, i) {
      var code = block.querySelector("code");
      if (!code) return;
      window.mermaid.render("quire-diagram-" + run + "-" + i, code.textContent).then(function (out) {
        if (run !== diagramRuns) return;
        var figure = block.querySelector(".mermaid-diagram") || el("div", "mermaid-diagram");
        figure.innerHTML = out.svg;
        block.insertBefore(figure, block.firstChild);
        block.classList.add("drawn");
      }, function () { /* keep the code */ });
    });
  }

  // --- Embeds ----------------------------------------------------------------------------------
  // Frames from other sites carry their address in data-quire-embed: they load, lazily, where
  // the deployment allows requests off the bundle; an air-gapped copy shows a link instead.
  function setupEmbeds() {
    var embeds = document.querySelectorAll("[data-quire-embed]");
    for (var i = 0; i < embeds.length; i++) {
      var embed = embeds[i];
      var url = embed.getAttribute("data-quire-embed");
      var media = embed.tagName === "SOURCE" || embed.tagName === "TRACK" ? embed.parentNode : embed;
      if (features.deployment === "air-gapped") {
        if (!media.parentNode) continue;
        var link = el("a", "embed-link", embed.getAttribute("title") || media.getAttribute("title") || url);
        link.href = url;
        link.rel = "noopener";
        media.parentNode.replaceChild(link, media);
      } else {
        if (embed.tagName === "IFRAME") embed.setAttribute("loading", "lazy");
        embed.src = url;
        if (media !== embed && media.load) media.load();
      }
    }
  }

  // --- Fonts and analytics from other hosts ---------------------------------------------------
  // Named by the site (window.QUIRE_EXTERNAL); used only on cloud and client-hosted docs
  // servers, the integrations only where web analytics is switched on. Air-gapped servers and
  // bundles opened from files keep the fallback fonts and start nothing.
  function addScript(src, attributes) {
    var script = document.createElement("script");
    script.async = true;
    script.src = src;
    Object.keys(attributes || {}).forEach(function (name) { script.setAttribute(name, attributes[name]); });
    document.head.appendChild(script);
    return script;
  }
  var starters = {
    ga4: function (s) {
      window.dataLayer = window.dataLayer || [];
      window.gtag = function () { window.dataLayer.push(arguments); };
      window.gtag("js", new Date());
      window.gtag("config", s.measurementId);
      addScript("https://www.googletagmanager.com/gtag/js?id=" + encodeURIComponent(s.measurementId));
    },
    gtm: function (s) {
      window.dataLayer = window.dataLayer || [];
      window.dataLayer.push({ "gtm.start": Date.now(), event: "gtm.js" });
      addScript("https://www.googletagmanager.com/gtm.js?id=" + encodeURIComponent(s.tagId));
    },
    plausible: function (s) {
      addScript((s.server || "https://plausible.io").replace(/\/$/, "") + "/js/script.js", { "data-domain": s.domain });
    },
    fathom: function (s) { addScript("https://cdn.usefathom.com/script.js", { "data-site": s.siteId }); },
    posthog: function (s) {
      var host = (s.apiHost || "https://us.i.posthog.com").replace(/\/$/, "");
      addScript(host + "/static/array.js").onload = function () {
        if (window.posthog) window.posthog.init(s.apiKey, { api_host: host });
      };
    },
    clarity: function (s) {
      window.clarity = window.clarity || function () { (window.clarity.q = window.clarity.q || []).push(arguments); };
      addScript("https://www.clarity.ms/tag/" + encodeURIComponent(s.projectId));
    },
    hotjar: function (s) {
      window.hj = window.hj || function () { (window.hj.q = window.hj.q || []).push(arguments); };
      window._hjSettings = { hjid: Number(s.hjid), hjsv: Number(s.hjsv || 6) };
      addScript("https://static.hotjar.com/c/hotjar-" + encodeURIComponent(s.hjid) + ".js?sv=" + encodeURIComponent(s.hjsv || 6));
    },
    heap: function (s) { addScript("https://cdn.heapanalytics.com/js/heap-" + encodeURIComponent(s.appId) + ".js"); },
    pirsch: function (s) { addScript("https://api.pirsch.io/pirsch.js", { id: "pirschjs", "data-code": s.id }); },
  };
  function setupExternal() {
    var external = window.QUIRE_EXTERNAL;
    var online = features.deployment === "cloud" || features.deployment === "client-hosted";
    // The site's own scripts: its code, which may reach anywhere, so never air-gapped. They run
    // in page order, as if each were a script tag.
    if (online) {
      document.querySelectorAll("script[type='text/x-quire-site-script']").forEach(function (inert) {
        var script = document.createElement("script");
        script.src = inert.getAttribute("data-src");
        script.async = false;
        document.head.appendChild(script);
      });
    }
    if (!external || !online) return;
    if (external.fontCss) document.head.appendChild(el("style", "quire-external-fonts", external.fontCss));
    if (!features.integrations) return;
    Object.keys(external.integrations || {}).forEach(function (name) {
      if (starters[name]) starters[name](external.integrations[name]);
    });
  }

  // --- Optional features -----------------------------------------------------------------------
  function setupFeatures() {
    setupExternal();
    setupEmbeds();
    setupPrompts();
    setupViews();
    setupContextual();
    if (features.search) {
      var button = document.querySelector(".search-button");
      var open = function () { load("search", function () { window.QuireSearch.open(); }); };
      if (button) {
        button.hidden = false;
        button.addEventListener("click", open);
      }
      document.addEventListener("keydown", function (event) {
        var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement && document.activeElement.tagName);
        if (!typing && (event.key === "/" || ((event.metaKey || event.ctrlKey) && event.key === "k"))) {
          event.preventDefault();
          open();
        }
      });
    }
    if (features.playground && document.querySelector("form.playground")) load("playground");
    var assistant = features.assistant || {};
    if ((assistant.enabled && assistant.endpoint) || assistant.offline) load("assistant");
    var analytics = features.analytics;
    if (analytics && analytics.enabled && analytics.endpoint) {
      send(analytics, { type: "pageview", path: current });
      var prompt = document.querySelector(".feedback");
      if (prompt) {
        prompt.hidden = false;
        prompt.addEventListener("click", function (event) {
          var answer = event.target.getAttribute && event.target.getAttribute("data-feedback");
          if (!answer) return;
          send(analytics, { type: "feedback", path: current, helpful: answer === "yes" });
          prompt.textContent = "Thank you for your feedback.";
        });
      }
    }
  }

  function send(analytics, event) {
    if (!window.fetch) return;
    var headers = { "Content-Type": "application/json" };
    if (analytics.key) headers.Authorization = "Bearer " + analytics.key;
    window.fetch(analytics.endpoint, {
      method: "POST",
      headers: headers,
      body: JSON.stringify(event),
      keepalive: true,
    }).catch(function () { /* analytics never gets in the reader's way */ });
  }

  // --- Banner ------------------------------------------------------------------------------
  // A dismissible banner stays closed once closed, until its text changes.
  function setupBanner() {
    var banner = document.querySelector(".banner[data-dismissible]");
    if (!banner) return;
    var key = "quire-banner-" + banner.getAttribute("data-dismissible");
    if (store(key) === "closed") {
      banner.hidden = true;
      return;
    }
    var close = banner.querySelector(".banner-close");
    if (!close) return;
    close.hidden = false;
    close.addEventListener("click", function () {
      banner.hidden = true;
      store(key, "closed");
    });
  }

  function start() {
    drawSidebar();
    setupBanner();
    setupThemeToggle();
    setupTabs();
    setupCopyButtons();
    setupExpandableCode();
    drawDiagrams();
    setupFeatures();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
