// Offline search over the bundle's own index (search/*.js, written at export time). Index
// files are scripts, so this works from file:// as well as from any server, and a query loads
// only what it needs: the index header, one term shard per word and the document chunks of
// the results shown. Tokenizing, stemming and the shard hash repeat the exporter's exactly.
// Where the page has an assistant (assistant.js), the dialog's "Ask" hands the query to it.
(function () {
  "use strict";
  var root = document.body.getAttribute("data-root") || "";
  // Results of the reader's own version and language, and of pages outside any.
  var scope = document.body.getAttribute("data-scope") || "/";
  var MAX_RESULTS = 8;
  var cache = {};
  var waiting = {};

  // Index files call this with their name and data.
  window.QUIRE_SEARCH_DATA = function (name, data) {
    cache[name] = data;
    (waiting[name] || []).forEach(function (resolve) { resolve(data); });
    delete waiting[name];
  };

  function fetchPart(name) {
    if (cache[name]) return Promise.resolve(cache[name]);
    return new Promise(function (resolve, reject) {
      if (waiting[name]) {
        waiting[name].push(resolve);
        return;
      }
      waiting[name] = [resolve];
      var script = document.createElement("script");
      script.src = root + "search/" + (name === "meta" ? "index" : name) + ".js";
      script.onerror = function () {
        delete waiting[name];
        reject(new Error("the search index file " + name + " is missing"));
      };
      document.head.appendChild(script);
    });
  }

  function stem(word) {
    if (Array.from(word).length <= 3) return word;
    var ends = function (s) { return word.slice(-s.length) === s; };
    if (ends("ies") && !ends("eies") && !ends("aies")) return word.slice(0, -3) + "y";
    if (ends("es") && !(ends("aes") || ends("ees") || ends("oes"))) return word.slice(0, -1);
    if (ends("s") && !(ends("us") || ends("ss"))) return word.slice(0, -1);
    return word;
  }

  function tokens(text) {
    var words = text.toLowerCase().match(/[\p{Alphabetic}\p{N}]+/gu) || [];
    var seen = {};
    return words.map(stem).filter(function (w) {
      if (seen[w]) return false;
      seen[w] = true;
      return true;
    });
  }

  // FNV-1a over UTF-16 code units, as the exporter computes it.
  function shardOf(term, shards) {
    var hash = 0x811c9dc5;
    for (var i = 0; i < term.length; i++) {
      hash ^= term.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return hash % shards;
  }

  // Ranks documents for `text` with BM25; resolves to [{href, title, trail, excerpt}].
  function search(text) {
    var terms = tokens(text);
    if (!terms.length) return Promise.resolve([]);
    return fetchPart("meta").then(function (meta) {
      var shards = terms.map(function (t) { return "t" + shardOf(t, meta.shards); });
      return Promise.all(shards.map(fetchPart)).then(function (parts) {
        var scores = {};
        terms.forEach(function (term, i) {
          var postings = parts[i][term];
          if (!postings) return;
          var df = postings[0];
          var idf = Math.log(1 + (meta.documents - df + 0.5) / (df + 0.5));
          var doc = 0;
          for (var p = 1; p < postings.length; p += 2) {
            doc += postings[p];
            scores[doc] = (scores[doc] || 0) + idf * postings[p + 1] / 100;
          }
        });
        var ranked = Object.keys(scores).map(Number).sort(function (a, b) {
          return scores[b] - scores[a] || a - b;
        });
        // Candidates in batches, best first, until enough are in the reader's scope.
        var results = [];
        function next(from) {
          var batch = ranked.slice(from, from + MAX_RESULTS);
          var done = !batch.length || results.length >= MAX_RESULTS || from >= 4 * MAX_RESULTS;
          if (done) return Promise.resolve(results);
          var chunks = {};
          batch.forEach(function (doc) { chunks["d" + Math.floor(doc / meta.chunk)] = true; });
          return Promise.all(Object.keys(chunks).map(fetchPart)).then(function () {
            batch.forEach(function (doc) {
              var row = cache["d" + Math.floor(doc / meta.chunk)][doc % meta.chunk];
              var inScope = row[4] === undefined || row[4] === "/" || row[4] === scope;
              if (inScope && results.length < MAX_RESULTS) {
                results.push({ href: row[0], title: row[1], trail: row[2], excerpt: row[3] });
              }
            });
            return next(from + MAX_RESULTS);
          });
        }
        return next(0);
      });
    });
  }

  var dialog;
  var input;
  var list;
  var status;

  function build() {
    dialog = document.createElement("div");
    dialog.className = "search-dialog";
    dialog.setAttribute("role", "dialog");
    dialog.setAttribute("aria-modal", "true");
    dialog.setAttribute("aria-label", "Search the documentation");
    dialog.innerHTML =
      '<div class="search-panel"><div class="search-row"><input type="search" class="search-input" placeholder="Search the docs" aria-label="Search" autocomplete="off">' +
      '<button type="button" class="search-ask" hidden>Ask</button></div>' +
      '<p class="search-status" aria-live="polite"></p><ul class="search-results"></ul></div>';
    document.body.appendChild(dialog);
    input = dialog.querySelector("input");
    list = dialog.querySelector("ul");
    status = dialog.querySelector(".search-status");
    var ask = dialog.querySelector(".search-ask");
    ask.title = "Ask the assistant this question";
    ask.addEventListener("click", function () {
      var question = input.value.trim();
      close();
      window.QuireAssistant.open(question);
    });
    var pending = 0;
    input.addEventListener("input", function () {
      var mine = ++pending;
      var query = input.value;
      if (!query.trim()) {
        list.innerHTML = "";
        status.textContent = "";
        return;
      }
      search(query).then(function (results) {
        if (mine !== pending) return;
        show(results);
      }, function (error) {
        status.textContent = error.message;
      });
    });
    input.addEventListener("keydown", function (event) {
      var links = list.querySelectorAll("a");
      var index = Array.prototype.indexOf.call(links, document.activeElement);
      if (event.key === "Enter" && links.length && index < 0) {
        event.preventDefault();
        window.location.href = links[0].href;
      } else if (event.key === "ArrowDown" && links.length) {
        event.preventDefault();
        links[0].focus();
      }
    });
    dialog.addEventListener("keydown", function (event) {
      if (event.key === "Escape") close();
    });
    dialog.addEventListener("click", function (event) {
      if (event.target === dialog) close();
    });
  }

  function show(results) {
    list.innerHTML = "";
    status.textContent = results.length ? "" : "No results";
    results.forEach(function (r) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + r.href;
      a.className = "search-result";
      var title = document.createElement("strong");
      title.textContent = r.title;
      a.appendChild(title);
      if (r.trail) {
        var trail = document.createElement("span");
        trail.className = "search-trail";
        trail.textContent = r.trail;
        a.appendChild(trail);
      }
      var excerpt = document.createElement("span");
      excerpt.className = "search-excerpt";
      excerpt.textContent = r.excerpt;
      a.appendChild(excerpt);
      a.addEventListener("click", close);
      li.appendChild(a);
      list.appendChild(li);
    });
  }

  function open() {
    if (!dialog) build();
    dialog.querySelector(".search-ask").hidden = !window.QuireAssistant;
    dialog.hidden = false;
    input.focus();
    input.select();
  }

  function close() {
    if (dialog) dialog.hidden = true;
  }

  window.QuireSearch = { open: open, close: close, search: search };
})();
