//! Components defined in JavaScript: `export const Name = ({ a, b }) => ( <markup/> )` (or
//! `=> { return (...) }`, or `export function Name(props) { return (...) }`) in a snippet file or
//! in a page. Nothing is run: the markup is parsed as MDX and rendered with the element's props
//! in place of `{a}`, `href={b}` and `{children}`. A component whose markup computes anything
//! (calls, conditions, `.map`) cannot be drawn without a JavaScript runtime and is reported.

use std::collections::HashMap;

use markdown::mdast::{AttributeContent, AttributeValue, Node};

/// Prop names and their defaults.
type Params = Vec<(String, Option<String>)>;

/// A component read from an export.
#[derive(Debug)]
pub struct JsxComponent {
    /// Prop names and their defaults (`{ size = "md" }`).
    pub params: Params,
    /// The markup, or why it cannot be drawn statically.
    pub tree: Result<Node, String>,
}

/// The components exported (or defined) in `source`, by name.
pub fn components(source: &str) -> HashMap<String, JsxComponent> {
    let mut out = HashMap::new();
    let mut rest = source;
    while let Some(at) = next_definition(rest) {
        let definition = &rest[at..];
        rest = &rest[at + 1..];
        let Some((name, params, body)) = split_definition(definition) else {
            continue;
        };
        let tree = crate::mdx::parse(body.trim())
            .map_err(|e| format!("its markup is not valid MDX: {}", e.reason))
            .and_then(|tree| {
                let names: Vec<&str> = params.iter().map(|(n, _)| n.as_str()).collect();
                match computed(&tree, &names) {
                    Some(expression) => Err(format!("it computes {{{}}}", shortened(&expression))),
                    None => Ok(tree),
                }
            });
        out.insert(name, JsxComponent { params, tree });
    }
    out
}

/// Where the next `const Name =` or `function Name(` with a capitalised name starts.
fn next_definition(source: &str) -> Option<usize> {
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let body = trimmed.strip_prefix("export ").unwrap_or(trimmed);
        let name = body
            .strip_prefix("const ")
            .or_else(|| body.strip_prefix("function "));
        if name.is_some_and(|n| n.starts_with(|c: char| c.is_ascii_uppercase())) {
            return Some(offset + (line.len() - trimmed.len()));
        }
        offset += line.len();
    }
    None
}

/// The name, the props and the returned markup of a definition.
fn split_definition(text: &str) -> Option<(String, Params, &str)> {
    let text = text.strip_prefix("export ").unwrap_or(text);
    let (is_function, text) = match text.strip_prefix("function ") {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix("const ")?),
    };
    let name_end = text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let name = text[..name_end].to_string();
    let mut rest = text[name_end..].trim_start();
    if !is_function {
        rest = rest.strip_prefix('=')?.trim_start();
        rest = rest.strip_prefix("function").unwrap_or(rest).trim_start();
    }
    let params_text;
    if rest.starts_with('(') {
        let close = matching(rest, 0)?;
        params_text = &rest[1..close];
        rest = rest[close + 1..].trim_start();
    } else {
        // `props => ...`
        let end = rest.find("=>")?;
        params_text = &rest[..end];
        rest = &rest[end..];
    }
    rest = rest.strip_prefix("=>").unwrap_or(rest).trim_start();
    let body = if rest.starts_with('{') {
        let close = matching(rest, 0)?;
        let block = &rest[1..close];
        let returned = block[block.find("return")? + "return".len()..].trim_start();
        if returned.starts_with('(') {
            &returned[1..matching(returned, 0)?]
        } else {
            returned.trim_end().trim_end_matches(';')
        }
    } else if rest.starts_with('(') {
        &rest[1..matching(rest, 0)?]
    } else {
        let end = rest.find(";\n").unwrap_or(rest.len());
        &rest[..end]
    };
    Some((name, params(params_text), body))
}

/// `{ a, b = "x" }` (destructured props, with defaults) or `props` (no named props).
fn params(text: &str) -> Params {
    let text = text.trim();
    let Some(inner) = text.strip_prefix('{').and_then(|t| t.split('}').next()) else {
        return Vec::new();
    };
    inner
        .split(',')
        .filter_map(|part| {
            let (name, default) = match part.split_once('=') {
                Some((n, d)) => (n, Some(d.trim().trim_matches(['"', '\'', '`']).to_string())),
                None => (part, None),
            };
            let name = name.trim();
            (!name.is_empty()).then(|| (name.to_string(), default))
        })
        .collect()
}

/// The index of the bracket closing the one at `open`, skipping strings and template literals.
fn matching(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let (opening, closing) = match bytes.get(open)? {
        b'(' => (b'(', b')'),
        b'{' => (b'{', b'}'),
        b'[' => (b'[', b']'),
        _ => return None,
    };
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut i = open;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if matches!(b, b'"' | b'\'' | b'`') => quote = Some(b),
            None if b == opening => depth += 1,
            None if b == closing => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            None => {}
        }
        i += 1;
    }
    None
}

/// The first expression in the markup that is more than a prop, `children` or a string: what
/// makes the component need a JavaScript runtime.
fn computed(node: &Node, params: &[&str]) -> Option<String> {
    let plain = |expression: &str| {
        let e = expression.trim();
        e.is_empty()
            || e == "children"
            || params.contains(&e)
            || e.strip_prefix("props.")
                .is_some_and(|p| !p.contains(|c: char| !c.is_ascii_alphanumeric() && c != '_'))
            || is_string_literal(e)
            || (e.starts_with("/*") && e.ends_with("*/"))
    };
    let own = match node {
        Node::MdxTextExpression(e) if !plain(&e.value) => Some(e.value.clone()),
        Node::MdxFlowExpression(e) if !plain(&e.value) => Some(e.value.clone()),
        Node::MdxJsxFlowElement(el) => attributes_computed(&el.attributes, &plain),
        Node::MdxJsxTextElement(el) => attributes_computed(&el.attributes, &plain),
        _ => None,
    };
    own.or_else(|| node.children()?.iter().find_map(|c| computed(c, params)))
}

fn attributes_computed(
    attributes: &[AttributeContent],
    plain: &dyn Fn(&str) -> bool,
) -> Option<String> {
    attributes.iter().find_map(|a| match a {
        AttributeContent::Expression(e) => Some(e.value.clone()),
        AttributeContent::Property(p) => match &p.value {
            // `style={{...}}`, `cols={3}` and `flag={true}` are literals the components read.
            Some(AttributeValue::Expression(e))
                if !plain(&e.value)
                    && !e.value.trim_start().starts_with('{')
                    && !e
                        .value
                        .trim()
                        .chars()
                        .all(|c| c.is_ascii_digit() || c == '.')
                    && !matches!(e.value.trim(), "true" | "false" | "null")
                    && !e.value.trim_start().starts_with('[') =>
            {
                Some(e.value.clone())
            }
            _ => None,
        },
    })
}

/// The first line of an expression, cut to a length that reads in a warning.
fn shortened(expression: &str) -> String {
    let line = expression.trim().lines().next().unwrap_or_default().trim();
    match line.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None if expression.trim().contains('\n') => format!("{line}…"),
        None => line.to_string(),
    }
}

/// `" "`, `'text'`, or a template literal without `${}`.
pub fn is_string_literal(expression: &str) -> bool {
    let e = expression.trim();
    e.len() >= 2
        && ['"', '\'', '`']
            .iter()
            .any(|q| e.starts_with(*q) && e.ends_with(*q) && !e[1..e.len() - 1].contains(*q))
        && !(e.starts_with('`') && e.contains("${"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrow_components_with_destructured_props_are_read() {
        let found = components(
            "export const Maintained = ({ who, url = \"#\" }) => (\n  <Note>\n    By <a href={url}>{who}</a>.{\" \"}\n  </Note>\n);\n",
        );
        let component = &found["Maintained"];
        assert_eq!(
            component.params,
            vec![("who".into(), None), ("url".into(), Some("#".into()))]
        );
        assert!(component.tree.is_ok(), "{:?}", component.tree);
    }

    #[test]
    fn block_bodies_and_functions_are_read() {
        let found = components(
            "export function Box({ children }) {\n  return (<div className=\"box\">{children}</div>);\n}\nconst Plain = () => { return <span>hi</span>; };\n",
        );
        assert!(found["Box"].tree.is_ok());
        assert!(found["Plain"].tree.is_ok());
    }

    #[test]
    fn computing_components_are_refused() {
        let found = components(
            "export const List = ({ items }) => (\n  <ul>{items.map((i) => <li>{i}</li>)}</ul>\n);\n",
        );
        assert!(
            found["List"]
                .tree
                .as_ref()
                .is_err_and(|e| e.contains("items.map"))
        );
        // Lower-case constants are values, not components.
        assert!(components("export const version = '1.0';").is_empty());
    }
}
