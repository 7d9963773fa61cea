// The site's own script: docs.json sites run every .js file of the site (outside snippets/) on
// every page. This one marks the page, so readers' tools (and the tests) can see it ran.
document.documentElement.setAttribute("data-acme-status", "checked");
