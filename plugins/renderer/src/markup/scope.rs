//! What a page's expressions and components can refer to: the page's imports, snippets
//! rendered as components with their props, components defined in JavaScript (in a snippet or
//! the page), and the values `{name}` expressions stand for.

use std::collections::HashMap;

use markdown::mdast::Node;

use super::components::Attrs;
use super::{CHILDREN, MAX_SNIPPET_DEPTH, Markup, PageWarning};
use crate::snippets::{self, Import};

impl Markup<'_> {
    /// Reads the imports and local components of `root`, the tree of the file `importer` (the
    /// page's path, or a snippet's file), whose relative imports start from its folder.
    /// Imports of packages are reported, since their components cannot run in a static export.
    pub(super) fn collect_imports(&mut self, root: &Node, importer: &str) {
        // One module of all the file's `import`/`export` blocks: a component may use data the
        // file declares in another block.
        let mut module = String::new();
        for node in root.children().into_iter().flatten() {
            if let Node::MdxjsEsm(esm) = node {
                module.push_str(&esm.value);
                module.push('\n');
                let (imports, foreign) = snippets::parse_imports(&esm.value, importer);
                self.imports.extend(imports);
                for source in foreign {
                    self.warn(
                        node,
                        format!("the import of {source:?} needs a JavaScript runtime; its components render their children"),
                    );
                }
            }
        }
        if !module.is_empty() {
            self.local_components.extend(
                crate::jsx::components(&module)
                    .into_iter()
                    .map(|(name, component)| (name, std::rc::Rc::new(component))),
            );
        }
    }

    /// Whether `name` is a component the page or the snippet being rendered imports or defines
    /// itself: it stands over a built-in component of the same name, as in MDX.
    pub fn own_component(&self, name: &str) -> bool {
        self.local_components.contains_key(name) || self.imports.contains_key(name)
    }

    /// Renders `<Name ... />` if `Name` is an imported snippet: the snippet's content with the
    /// element's attributes as its variables. False if `Name` is not a snippet.
    pub fn snippet(&mut self, node: &Node, name: &str, attrs: &Attrs<'_>) -> bool {
        let props = attrs.all();
        if let Some(component) = self.local_components.get(name).cloned() {
            self.jsx_component(node, name, None, &component, props, attrs.expressions());
            return true;
        }
        let path = match self.imports.get(name).cloned() {
            Some(Import::Snippet(path)) => path,
            Some(Import::Constant {
                path,
                name: exported,
            }) => {
                let site = self.site;
                let Some(component) = site
                    .snippets
                    .get(&path)
                    .and_then(|s| s.components.get(&exported))
                else {
                    return false;
                };
                self.jsx_component(
                    node,
                    name,
                    Some(&path),
                    component,
                    props,
                    attrs.expressions(),
                );
                return true;
            }
            None => return false,
        };
        self.snippet_file(node, path, props);
        true
    }

    /// `<Snippet file="get-help.mdx" />`, the legacy form: the file under `snippets/`, with the
    /// element's other attributes as its variables.
    pub fn legacy_snippet(&mut self, node: &Node, file: &str, mut props: HashMap<String, String>) {
        props.remove("file");
        let file = file.trim().trim_start_matches('/');
        let path = if file.starts_with("snippets/") {
            file.to_string()
        } else {
            format!("snippets/{file}")
        };
        self.snippet_file(node, path, props);
    }

    /// Renders the snippet at `path` (from the site's root) with `props` as its variables; a
    /// missing or invalid file, or snippets nested too deep, is a warning.
    fn snippet_file(&mut self, node: &Node, path: String, props: HashMap<String, String>) {
        let site = self.site;
        let Some(snippet) = site.snippets.get(&path) else {
            self.warn(node, format!("the snippet {path} does not exist"));
            return;
        };
        if self.snippet_depth >= MAX_SNIPPET_DEPTH {
            self.warn(
                node,
                format!("snippets nest too deeply at {path} (a cycle?)"),
            );
            return;
        }
        let tree = match &snippet.tree {
            Ok(tree) => tree,
            Err(reason) => {
                self.warn(
                    node,
                    format!("the snippet {path} is not valid MDX: {reason}"),
                );
                return;
            }
        };
        let mut scope = snippet.constants.clone();
        scope.extend(props);
        let saved_imports = self.imports.clone();
        self.collect_imports(tree, &path);
        self.variables.push(scope);
        self.snippet_depth += 1;
        self.snippet_files.push((path.clone(), true));
        self.children(tree);
        self.snippet_files.pop();
        self.snippet_depth -= 1;
        self.variables.pop();
        self.imports = saved_imports;
    }

    /// Renders a JavaScript-defined component: its markup with the element's props (and the
    /// props' defaults) as variables and the element's children where it says `{children}`.
    /// `file` is the snippet that defines it (`None`: the page itself); problems in its
    /// definition are that file's.
    fn jsx_component(
        &mut self,
        node: &Node,
        name: &str,
        file: Option<&str>,
        component: &crate::jsx::JsxComponent,
        props: HashMap<String, String>,
        expressions: HashMap<String, String>,
    ) {
        if self.snippet_depth >= MAX_SNIPPET_DEPTH {
            self.warn(
                node,
                format!("components nest too deeply at <{name}> (a cycle?)"),
            );
            return;
        }
        // Markup that only reads its props is rendered as it is; one that computes is
        // evaluated (`crate::script`) with the element's props.
        let evaluated;
        let tree = match &component.tree {
            Ok(tree) => tree,
            Err(_) => match self.evaluate(component, name, file, &props, &expressions) {
                Ok(rendered) => {
                    for why in rendered.left_out {
                        self.component_warning(
                            node,
                            file,
                            format!("in the component <{name}>, {why}; that part is left out and the rest is rendered"),
                        );
                    }
                    evaluated = rendered.tree;
                    &evaluated
                }
                Err(reason) => {
                    self.component_warning(
                        node,
                        file,
                        format!("the component <{name}> needs a JavaScript runtime ({reason}); its children are rendered"),
                    );
                    self.children(node);
                    return;
                }
            },
        };
        let mut scope: HashMap<String, String> = component
            .params
            .iter()
            .filter_map(|(param, default)| Some((param.clone(), default.clone()?)))
            .collect();
        scope.extend(props.into_iter().map(|(k, v)| (k.clone(), v.clone())));
        scope.extend(
            scope
                .iter()
                .map(|(k, v)| (format!("props.{k}"), v.clone()))
                .collect::<Vec<_>>(),
        );
        let outer = std::mem::take(&mut self.html);
        self.children(node);
        let children = std::mem::replace(&mut self.html, outer);
        scope.insert(CHILDREN.to_string(), children);
        self.variables.push(scope);
        self.snippet_depth += 1;
        // Lines in the markup count from the component's body, not from its file.
        if let Some(file) = file {
            self.snippet_files.push((file.to_string(), false));
        }
        self.children(tree);
        if file.is_some() {
            self.snippet_files.pop();
        }
        self.snippet_depth -= 1;
        self.variables.pop();
    }

    /// Evaluates a component that computes (`crate::script`) with the element's props.
    fn evaluate(
        &self,
        component: &crate::jsx::JsxComponent,
        name: &str,
        file: Option<&str>,
        props: &HashMap<String, String>,
        expressions: &HashMap<String, String>,
    ) -> Result<crate::script::Rendered, String> {
        let imports = self.imported_values(file);
        crate::script::render(&component.source, name, props, expressions, &imports)
    }

    /// The values the page imports from its snippets (`import { plans } from ...`), for a
    /// component the page defines (`file` is `None`); a snippet's component sees its own file.
    fn imported_values(&self, file: Option<&str>) -> Vec<crate::script::Imported<'_>> {
        if file.is_some() {
            return Vec::new();
        }
        self.imports
            .iter()
            .filter_map(|(local, import)| match import {
                Import::Constant { path, name } => Some(crate::script::Imported {
                    local,
                    module: &self.site.snippets.get(path)?.source,
                    exported: name,
                }),
                Import::Snippet(_) => None,
            })
            .collect()
    }

    /// A problem in a component's definition: the snippet's that defines it, or the page's.
    fn component_warning(&mut self, node: &Node, file: Option<&str>, message: String) {
        match file {
            Some(file) => self.warnings.push(PageWarning {
                file: Some(file.to_string()),
                line: None,
                message,
            }),
            None => self.warn(node, message),
        }
    }

    /// Whether a snippet or component is being rendered (its props are in scope).
    pub fn in_component(&self) -> bool {
        !self.variables.is_empty()
    }

    /// The value of a `{name}` expression: a snippet prop, else an imported constant.
    pub(crate) fn variable(&self, name: &str) -> Option<String> {
        if let Some(value) = self.variables.iter().rev().find_map(|v| v.get(name)) {
            return Some(value.clone());
        }
        match self.imports.get(name)? {
            Import::Constant { path, name } => {
                self.site.snippets.get(path)?.constants.get(name).cloned()
            }
            Import::Snippet(_) => None,
        }
    }

    /// A template literal whose every `${name}` is a prop or constant in scope, filled in.
    pub(crate) fn template(&self, expression: &str) -> Option<String> {
        let parts = crate::jsx::template_parts(expression)?;
        let mut out = String::new();
        for part in parts {
            match part {
                crate::jsx::TemplatePart::Text(text) => out.push_str(text),
                crate::jsx::TemplatePart::Name(name) => out.push_str(&self.variable(name)?),
            }
        }
        Some(out)
    }

    /// JavaScript expressions are not evaluated: a snippet variable or imported constant
    /// (`{name}`) is replaced by its value, comments vanish, anything else is reported.
    pub(super) fn expression(&mut self, node: &Node, value: &str) {
        let trimmed = value.trim();
        if matches!(trimmed, "children" | "props.children") {
            if let Some(html) = self.variables.iter().rev().find_map(|v| v.get(CHILDREN)) {
                let html = html.clone();
                self.html.push_str(&html);
            }
            return;
        }
        if crate::jsx::is_string_literal(trimmed) {
            self.text(&trimmed[1..trimmed.len() - 1]);
            return;
        }
        if let Some(value) = self.variable(trimmed).or_else(|| self.template(trimmed)) {
            self.text(&value);
            return;
        }
        let is_comment = trimmed.is_empty()
            || (trimmed.starts_with("/*") && trimmed.ends_with("*/"))
            || trimmed.lines().all(|l| l.trim_start().starts_with("//"));
        if !is_comment {
            self.warn(
                node,
                format!("the expression {{{trimmed}}} is not evaluated in a static export"),
            );
        }
    }
}
