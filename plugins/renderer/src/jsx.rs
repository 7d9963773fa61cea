//! Components defined in JavaScript: `export const Name = ({ a, b }) => ( <markup/> )` (or
//! `=> { return (...) }`, or `export function Name(props) { return (...) }`) in a snippet file or
//! in a page. Markup that only reads its props is parsed as MDX here and rendered with the
//! element's props in place of `{a}`, `href={b}`, `` `${a}.png` `` and `{children}`, with the
//! literal constants and `useState` initial values a block body declares before its `return`
//! as more values. A component whose markup computes more (calls, conditions, `.map`) keeps its
//! file's source and is evaluated by the `script` module when it is used.

use std::collections::HashMap;
use std::sync::Arc;

use markdown::mdast::{AttributeContent, AttributeValue, Node};

/// Prop names and their defaults.
type Params = Vec<(String, Option<String>)>;

/// A component read from an export.
#[derive(Debug)]
pub struct JsxComponent {
    /// Prop names and their defaults (`{ size = "md" }`).
    pub params: Params,
    /// The markup, or why it cannot be drawn without evaluating it.
    pub tree: Result<Node, String>,
    /// The file that declares it, for evaluating one that computes (the `script` module).
    pub source: Arc<str>,
}

/// The components exported (or defined) in `source`, by name.
pub fn components(source: &str) -> HashMap<String, JsxComponent> {
    let mut out = HashMap::new();
    let file: Arc<str> = Arc::from(source);
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
        out.insert(
            name,
            JsxComponent {
                params,
                tree,
                source: file.clone(),
            },
        );
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
    let mut constants = Vec::new();
    let body = if rest.starts_with('{') {
        let close = matching(rest, 0)?;
        let block = &rest[1..close];
        let return_at = block.find("return")?;
        constants = block_constants(&block[..return_at]);
        let returned = block[return_at + "return".len()..].trim_start();
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
    let mut params = params(params_text);
    params.extend(constants);
    Some((name, params, body))
}

/// The values a block body declares before its `return`, where they are literals:
/// `const label = "New";`, and a state's initial value, `const [count, setCount] =
/// useState(0);` (a static page shows the state it starts in).
fn block_constants(statements: &str) -> Params {
    statements
        .split([';', '\n'])
        .filter_map(|statement| {
            let statement = statement.trim();
            let declaration = ["const ", "let ", "var "]
                .iter()
                .find_map(|keyword| statement.strip_prefix(keyword))?;
            let (target, value) = declaration.split_once('=')?;
            let value = value.trim();
            let (name, value) = match target.trim().strip_prefix('[') {
                Some(pair) => {
                    let name = pair.split(',').next()?.trim();
                    let initial = value
                        .strip_prefix("useState(")
                        .or_else(|| value.strip_prefix("React.useState("))?
                        .strip_suffix(')')?;
                    (name, initial.trim())
                }
                None => (target.trim(), value),
            };
            let is_name = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
            (is_name && is_literal(value)).then(|| (name.to_string(), Some(unquoted(value))))
        })
        .collect()
}

/// A string, number or boolean literal.
fn is_literal(value: &str) -> bool {
    is_string_literal(value) || value.parse::<f64>().is_ok() || matches!(value, "true" | "false")
}

/// A literal's value as text (a string without its quotes).
fn unquoted(value: &str) -> String {
    if is_string_literal(value) {
        value[1..value.len() - 1].to_string()
    } else {
        value.to_string()
    }
}

/// The parts of a template literal (`` `${base}/img/${name}.png` ``): its text, and the names
/// each `${...}` holds; `None` for anything else, or a placeholder that is more than a name
/// (`props.name` counts as one).
pub fn template_parts(expression: &str) -> Option<Vec<TemplatePart<'_>>> {
    let inner = expression.trim().strip_prefix('`')?.strip_suffix('`')?;
    let mut parts = Vec::new();
    let mut rest = inner;
    while let Some(open) = rest.find("${") {
        if open > 0 {
            parts.push(TemplatePart::Text(&rest[..open]));
        }
        let after = &rest[open + 2..];
        let close = after.find('}')?;
        let name = after[..close].trim();
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'));
        if !plain {
            return None;
        }
        parts.push(TemplatePart::Name(name));
        rest = &after[close + 1..];
    }
    if inner.contains('`') {
        return None;
    }
    if !rest.is_empty() {
        parts.push(TemplatePart::Text(rest));
    }
    Some(parts)
}

/// A piece of a template literal.
#[derive(Debug, PartialEq)]
pub enum TemplatePart<'a> {
    Text(&'a str),
    Name(&'a str),
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
pub(crate) fn matching(text: &str, open: usize) -> Option<usize> {
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
            || template_parts(e).is_some_and(|parts| {
                parts.iter().all(|part| match part {
                    TemplatePart::Text(_) => true,
                    TemplatePart::Name(name) => {
                        params.contains(name) || name.strip_prefix("props.").is_some()
                    }
                })
            })
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

    #[test]
    fn template_literals_split_into_text_and_names() {
        assert_eq!(
            template_parts("`https://x.test/${name}.png`"),
            Some(vec![
                TemplatePart::Text("https://x.test/"),
                TemplatePart::Name("name"),
                TemplatePart::Text(".png"),
            ])
        );
        assert_eq!(template_parts("`${a + b}`"), None);
        assert_eq!(template_parts("'plain'"), None);
    }

    #[test]
    fn block_bodies_declare_literal_constants_and_initial_state() {
        let constants = block_constants(
            "const [open, setOpen] = useState(false);\nconst title = 'Hi';\nlet n = 2;\nconst items = load();",
        );
        assert_eq!(
            constants,
            vec![
                ("open".into(), Some("false".into())),
                ("title".into(), Some("Hi".into())),
                ("n".into(), Some("2".into())),
            ]
        );
    }
}
