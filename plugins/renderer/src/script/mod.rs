//! Components that compute, evaluated at export: a small evaluator of the JavaScript docs
//! components are written in (`parse`, `eval`): template literals, arithmetic, conditions,
//! `.map` and `.filter` over arrays and objects, destructured props with defaults, `useState`'s
//! initial value, and the file's other declarations. Nothing outside the file is reached, and
//! fuel bounds every evaluation. The element a component returns becomes Markdown tree nodes,
//! rendered like any other markup; an expression inside it that cannot be known statically is
//! left out and named, and the rest renders.

mod eval;
mod parse;

use std::collections::HashMap;
use std::rc::Rc;

use markdown::mdast::{
    AttributeContent, AttributeValue, AttributeValueExpression, MdxFlowExpression, MdxJsxAttribute,
    MdxJsxFlowElement, Node, Root, Text,
};

use eval::{Evaluator, Scope, Unknown, Value};

/// What a component rendered: its markup as nodes, and the expressions left out of it.
pub struct Rendered {
    pub tree: Node,
    pub left_out: Vec<String>,
}

/// Calls the component `name` declared in the module `source` with `props` (text as the page
/// wrote it; those in braces also in `expressions`, their source, evaluated in the module's
/// scope) and returns what it renders, or why it cannot be known statically.
pub fn render(
    source: &str,
    name: &str,
    props: &HashMap<String, String>,
    expressions: &HashMap<String, String>,
    imports: &[Imported<'_>],
) -> Result<Rendered, String> {
    let mut evaluator = Evaluator::default();
    let scope = Scope::default();
    let mut failed = HashMap::new();
    for import in imports {
        let module = Scope::default();
        declare(&mut evaluator, import.module, &module, &mut HashMap::new());
        if let Some(value) = module.get(import.exported) {
            scope.set(import.local, value);
        }
    }
    declare(&mut evaluator, source, &scope, &mut failed);
    if let Some(why) = failed.get(name) {
        return Err(why.clone());
    }
    // A name the file declares in a way the evaluator cannot read is reported with the reason.
    let explain = |why: String| {
        let name = why.strip_suffix(" is not known statically");
        match name.and_then(|n| failed.get(n).map(|reason| (n, reason))) {
            Some((n, reason)) => format!("{n}: {reason}"),
            None => why,
        }
    };
    let Some(function) = scope.get(name) else {
        return Err(format!("{name} is not declared"));
    };
    let mut entries: Vec<(String, Value)> = props
        .iter()
        .map(|(k, v)| {
            let value = expressions
                .get(k)
                .and_then(|e| prop_value(e, &mut evaluator, &scope))
                .unwrap_or_else(|| Value::Str(v.as_str().into()));
            (k.clone(), value)
        })
        .collect();
    entries.push(("children".to_string(), Value::Children));
    let value = evaluator
        .call(&function, vec![Value::Object(Rc::new(entries))])
        .map_err(|Unknown(why)| explain(why))?;
    let mut children = Vec::new();
    nodes(&value, &mut children);
    Ok(Rendered {
        tree: Node::Root(Root {
            children,
            position: None,
        }),
        left_out: evaluator.skipped.into_iter().map(explain).collect(),
    })
}

/// A name the file using a component imports from another file of the site (`import { plans }
/// from '/snippets/data.mdx'`): its local name, that file's source and the name it exports.
pub struct Imported<'a> {
    pub local: &'a str,
    pub module: &'a str,
    pub exported: &'a str,
}

/// Evaluates the top-level declarations of `source` into `scope`; those that cannot be read or
/// known go to `failed` with the reason.
fn declare(
    evaluator: &mut Evaluator,
    source: &str,
    scope: &Scope,
    failed: &mut HashMap<String, String>,
) {
    for declaration in parse::module(source) {
        match declaration.value {
            Ok(expr) => match evaluator.eval(&expr, scope) {
                Ok(value) => scope.set(&declaration.name, value),
                Err(Unknown(why)) => {
                    failed.insert(declaration.name, why);
                }
            },
            Err(parse::Syntax(why)) => {
                failed.insert(declaration.name, why);
            }
        }
    }
}

/// A prop written in braces, evaluated in the module's scope (`rows={callbacks()}` where the
/// file declares `callbacks`); `None` when it has no static value there.
fn prop_value(expression: &str, evaluator: &mut Evaluator, scope: &Scope) -> Option<Value> {
    let expr = parse::expression(expression.trim()).ok()?;
    evaluator.eval(&expr, scope).ok()
}

/// A rendered value as Markdown tree nodes: text, elements, and `{children}` as the
/// expression the markup fills with the element's children.
fn nodes(value: &Value, out: &mut Vec<Node>) {
    match value {
        Value::Str(s) => out.push(Node::Text(Text {
            value: s.to_string(),
            position: None,
        })),
        Value::Num(_) => out.push(Node::Text(Text {
            value: value.text(),
            position: None,
        })),
        Value::Array(items) => items.iter().for_each(|item| nodes(item, out)),
        Value::Element(element) => {
            let mut children = Vec::new();
            element
                .children
                .iter()
                .for_each(|c| nodes(c, &mut children));
            let attributes = element
                .attributes
                .iter()
                .filter_map(|(name, v)| attribute(name, v))
                .collect();
            out.push(Node::MdxJsxFlowElement(MdxJsxFlowElement {
                name: element.name.clone(),
                attributes,
                children,
                position: None,
            }));
        }
        Value::Children => out.push(Node::MdxFlowExpression(MdxFlowExpression {
            value: "children".into(),
            position: None,
            stops: Vec::new(),
        })),
        _ => {}
    }
}

/// An attribute as the markup reads it: text as a literal, `true` as a flag, numbers, arrays
/// and objects as their literal source (`cols={3}`, `style`, `tags`); `false` and nothing
/// leave it out.
fn attribute(name: &str, value: &Value) -> Option<AttributeContent> {
    let value = match value {
        Value::Bool(true) => None,
        Value::Bool(false) | Value::Undefined | Value::Null => return None,
        Value::Str(_) => Some(AttributeValue::Literal(value.text())),
        // In braces, so a component given a number reads one, as React passes it.
        Value::Num(_) | Value::Array(_) | Value::Object(_) => {
            Some(AttributeValue::Expression(AttributeValueExpression {
                value: literal_source(value),
                stops: Vec::new(),
            }))
        }
        _ => return None,
    };
    Some(AttributeContent::Property(MdxJsxAttribute {
        name: name.to_string(),
        value,
    }))
}

/// Plain data written back as a JavaScript literal.
fn literal_source(value: &Value) -> String {
    match value {
        Value::Str(s) => serde_json::to_string(&**s).unwrap_or_default(),
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(literal_source)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Object(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{k}: {}", literal_source(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.text(),
    }
}

#[cfg(test)]
mod tests;
