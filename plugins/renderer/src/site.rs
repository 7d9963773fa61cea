//! The prepared site: its settings, navigation contexts, snippets, API documents, theme files
//! and link targets, built once per job and consulted for every page.

use std::collections::{HashMap, HashSet};

use crate::navigation::{NavContext, NavEntry, NavKind, NavPage, split_contexts};

/// One choice of a version or language switcher.
#[derive(Debug, Clone, PartialEq)]
pub struct SwitchChoice {
    pub label: String,
    pub target: String,
    pub current: bool,
}

/// The prepared site: built once per job, consulted for every page.
pub struct Site {
    pub name: String,
    pub version: String,
    pub settings: crate::settings::Settings,
    pub pages: HashSet<String>,
    pub contexts: Vec<NavContext>,
    /// Which context each navigation page belongs to (the first that lists it).
    context_of: HashMap<String, usize>,
    /// Each navigation page's place in its context's reading order.
    position: HashMap<String, usize>,
    /// Group and section labels above each navigation page.
    trails: HashMap<String, Vec<String>>,
    /// Snippets by path (`snippets/intro.mdx`), parsed once for every page that uses them.
    pub snippets: HashMap<String, crate::snippets::Snippet>,
    /// OpenAPI documents.
    pub api: crate::api::ApiDocuments,
    /// Why OpenAPI documents were left out, reported on the pages that needed them.
    pub api_problems: Vec<String>,
    /// The theme's shared files and their content-addressed names.
    pub theme: crate::theme::ThemeFiles,
    /// Where links lead: pages, folders' first pages, and docs.json `redirects`.
    pub links: crate::links::Targets,
    /// docs.json `variables`, replaced in every page's and snippet's source.
    pub variables: quire_sdk::variables::Variables,
    /// The site's own `.css` files, linked on every page after the theme's.
    pub own_stylesheets: Vec<String>,
    /// The site's own `.js` files, which quire.js runs on every page where the deployment
    /// allows.
    pub own_scripts: Vec<String>,
}

impl Site {
    /// Prepares the site from the navigation file's JSON text. `pages` lists every page path,
    /// in navigation or not.
    pub fn new(
        name: String,
        version: String,
        items: Vec<NavEntry>,
        config_json: &str,
        pages: Vec<String>,
    ) -> Result<Self, String> {
        let config = quire_sdk::config::document(config_json).map_err(|e| e.to_string())?;
        Ok(Self::from_config(name, version, items, &config, pages))
    }

    /// Prepares the site from the parsed navigation file (`Null` for none).
    pub fn from_config(
        name: String,
        version: String,
        items: Vec<NavEntry>,
        config: &serde_json::Value,
        pages: Vec<String>,
    ) -> Self {
        // Read once for the whole site; what does not fit is the host's to report, once, when
        // the site is published.
        let config = quire_sdk::config::SiteConfig::of(config);
        let settings = crate::settings::Settings::of(&config);
        let contexts = split_contexts(&items);
        // Sized once for every entry: grown as they came, the maps were rehashed a dozen times
        // on a large site.
        let mut context_of = HashMap::with_capacity(items.len());
        let mut trails = HashMap::with_capacity(items.len());
        for (c, context) in contexts.iter().enumerate() {
            let mut stack: Vec<(u32, String)> = Vec::new();
            for item in &context.items {
                while stack.last().is_some_and(|(d, _)| *d >= item.depth) {
                    stack.pop();
                }
                if let Some(path) = item.page()
                    && !context_of.contains_key(path)
                {
                    context_of.insert(path.to_string(), c);
                    trails.insert(
                        path.to_string(),
                        stack.iter().map(|(_, l)| l.clone()).collect(),
                    );
                }
                if !matches!(item.kind, NavKind::Page | NavKind::Link) {
                    stack.push((item.depth, item.label.clone()));
                }
            }
        }
        let mut position = HashMap::with_capacity(context_of.len());
        for (c, context) in contexts.iter().enumerate() {
            for (i, (path, _)) in context.order.iter().enumerate() {
                if context_of.get(path) == Some(&c) {
                    position.insert(path.clone(), i);
                }
            }
        }
        let mut all: HashSet<String> = HashSet::with_capacity(pages.len() + context_of.len());
        all.extend(pages);
        all.extend(context_of.keys().cloned());
        let theme = crate::theme::ThemeFiles::build(&settings, &contexts);
        // Warnings about the rules are the host's to give, once per export, not per page.
        let (redirects, _) = quire_sdk::redirects::Redirects::of(&config, &|p| all.contains(p));
        let reading_order = contexts
            .iter()
            .flat_map(|c| c.order.iter().map(|(p, _)| p.as_str()));
        let mut in_order: Vec<&str> = reading_order.collect();
        let mut rest: Vec<&str> = all.iter().map(String::as_str).collect();
        rest.sort_unstable();
        in_order.extend(rest);
        let links = crate::links::Targets::new(in_order, redirects);
        Self {
            variables: quire_sdk::variables::Variables::of(&config),
            name,
            version,
            settings,
            pages: all,
            contexts,
            context_of,
            position,
            trails,
            snippets: HashMap::new(),
            api: crate::api::ApiDocuments::default(),
            api_problems: Vec::new(),
            theme,
            links,
            own_stylesheets: Vec::new(),
            own_scripts: Vec::new(),
        }
    }

    /// Adds the list of the other files the bundle carries (paths from the site root): a link
    /// to a file that is not among them is broken.
    pub fn with_site_files(mut self, files: Vec<String>) -> Self {
        self.links.files = Some(files.into_iter().collect());
        self
    }

    /// Adds the site's own stylesheets and scripts (paths from the site root).
    pub fn with_own_assets(mut self, stylesheets: Vec<String>, scripts: Vec<String>) -> Self {
        let clean = |paths: Vec<String>| -> Vec<String> {
            paths
                .into_iter()
                .map(|p| p.trim_start_matches('/').to_string())
                .filter(|p| !p.is_empty() && !p.split('/').any(|part| part == ".."))
                .collect()
        };
        self.own_stylesheets = clean(stylesheets);
        self.own_scripts = clean(scripts);
        self
    }

    /// Adds the site's snippets and OpenAPI documents (a document that cannot be parsed is
    /// left out, and the pages that refer to it say why).
    pub fn with_files(
        mut self,
        snippets: Vec<(String, String)>,
        api_documents: Vec<(String, String)>,
    ) -> Self {
        self.snippets = snippets
            .into_iter()
            .map(|(path, source)| {
                let source = self.variables.substitute(&source);
                let snippet = crate::snippets::Snippet::parse(&path, &source);
                (path, snippet)
            })
            .collect();
        let (api, problems) = crate::api::ApiDocuments::parse(api_documents);
        self.api = api;
        self.api_problems = problems;
        self
    }

    /// The context `path` is shown in: its own, or the first for pages outside navigation.
    pub fn context_index(&self, path: &str) -> usize {
        self.context_of.get(path).copied().unwrap_or(0)
    }

    pub fn context(&self, path: &str) -> Option<&NavContext> {
        self.contexts.get(self.context_index(path))
    }

    /// The top bar links and frame of the page at `path`: its language's own, if it gives them.
    pub fn frame(&self, path: &str) -> (&[(String, String)], &crate::settings::chrome::Chrome) {
        let language = self.context(path).and_then(|c| c.language.as_deref());
        self.settings.frame(language)
    }

    /// The navigation pages before and after `path` in its context, as (path, label).
    pub fn neighbours(&self, path: &str) -> (Option<&NavPage>, Option<&NavPage>) {
        let Some(&c) = self.context_of.get(path) else {
            return (None, None);
        };
        let order = &self.contexts[c].order;
        match self.position.get(path).copied() {
            Some(i) => (
                i.checked_sub(1).and_then(|j| order.get(j)),
                order.get(i + 1),
            ),
            None => (None, None),
        }
    }

    /// The group and section labels above `path` in the navigation.
    pub fn trail(&self, path: &str) -> &[String] {
        self.trails.get(path).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The page the site's `index.html` leads to.
    pub fn home(&self) -> Option<&str> {
        if self.pages.contains("index") {
            return Some("index");
        }
        self.contexts.first().and_then(NavContext::first_page)
    }

    /// The version switcher for `path`: every version, each leading to the same page in that
    /// version when it exists, else to the version's first page. Empty without versions.
    pub fn version_choices(&self, path: &str) -> Vec<SwitchChoice> {
        let Some(here) = self.context(path) else {
            return Vec::new();
        };
        let mut versions: Vec<&str> = Vec::new();
        for context in &self.contexts {
            if let Some(v) = context.version.as_deref()
                && !versions.contains(&v)
            {
                versions.push(v);
            }
        }
        versions
            .into_iter()
            .filter_map(|v| {
                let target = self
                    .contexts
                    .iter()
                    .filter(|c| c.version.as_deref() == Some(v))
                    .max_by_key(|c| c.language == here.language)?;
                Some(SwitchChoice {
                    label: v.to_string(),
                    target: self.counterpart(path, here, target)?,
                    current: here.version.as_deref() == Some(v),
                })
            })
            .collect()
    }

    /// The language switcher for `path`: the languages of its version. Empty without languages.
    pub fn language_choices(&self, path: &str) -> Vec<SwitchChoice> {
        let Some(here) = self.context(path) else {
            return Vec::new();
        };
        self.contexts
            .iter()
            .filter(|c| c.language.is_some() && c.version == here.version)
            .filter_map(|c| {
                let code = c.language.clone()?;
                Some(SwitchChoice {
                    label: code.clone(),
                    target: self.counterpart(path, here, c)?,
                    current: here.language.as_deref() == Some(code.as_str()),
                })
            })
            .collect()
    }

    /// The page in context `to` that corresponds to `path` in context `from`: the same path
    /// with the version or language segment swapped, else `to`'s first page.
    fn counterpart(&self, path: &str, from: &NavContext, to: &NavContext) -> Option<String> {
        let labels = |c: &NavContext| [c.version.clone(), c.language.clone()];
        let rest: Vec<&str> = path
            .split('/')
            .filter(|segment| !labels(from).iter().flatten().any(|l| l == segment))
            .collect();
        let rest = rest.join("/");
        let mut candidates = vec![rest.clone()];
        for label in labels(to).iter().flatten() {
            candidates.push(format!("{label}/{rest}"));
        }
        if let (Some(v), Some(l)) = (&to.version, &to.language) {
            candidates.push(format!("{v}/{l}/{rest}"));
            candidates.push(format!("{l}/{v}/{rest}"));
        }
        let listed: HashSet<&str> = to.order.iter().map(|(p, _)| p.as_str()).collect();
        candidates
            .into_iter()
            .find(|c| listed.contains(c.as_str()))
            .or_else(|| to.first_page().map(String::from))
    }
}
