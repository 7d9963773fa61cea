//! Undoing the guards' rewrites in raw text: code blocks, inline code, expressions, ESM and
//! math keep their source text as written, so a rewrite that landed
//! there is put back. The parser's positions say which edits fall inside which node; counting
//! the rewritten text from the node's start to the edit finds its occurrence in the node's
//! fields, which hold the node's source in order, less delimiters and indentation.

use markdown::mdast::{AttributeContent, AttributeValue, Node};

use super::guards::{Edit, Guarded};

/// Puts the original text back in `tree`'s raw-text nodes.
pub fn restore(tree: &mut Node, guarded: &Guarded) {
    if guarded.edits.is_empty() {
        return;
    }
    walk(tree, guarded);
}

fn walk(node: &mut Node, guarded: &Guarded) {
    let range = node.position().map(|p| (p.start.offset, p.end.offset));
    match node {
        // The fence line's language and meta are decoded by the parser like text, so only
        // the lines below it hold rewrites as written.
        Node::Code(code) => put_back(
            vec![&mut code.value],
            below_first_line(range, guarded),
            guarded,
        ),
        Node::Math(math) => put_back(
            vec![&mut math.value],
            below_first_line(range, guarded),
            guarded,
        ),
        Node::InlineCode(n) => put_back(vec![&mut n.value], range, guarded),
        Node::InlineMath(n) => put_back(vec![&mut n.value], range, guarded),
        Node::MdxFlowExpression(n) => put_back(vec![&mut n.value], range, guarded),
        Node::MdxTextExpression(n) => put_back(vec![&mut n.value], range, guarded),
        Node::MdxjsEsm(n) => put_back(vec![&mut n.value], range, guarded),
        Node::Html(n) => put_back(vec![&mut n.value], range, guarded),
        Node::MdxJsxFlowElement(element) => attribute_expressions(&mut element.attributes),
        Node::MdxJsxTextElement(element) => attribute_expressions(&mut element.attributes),
        _ => {}
    }
    if let Some(children) = node.children_mut() {
        for child in children {
            walk(child, guarded);
        }
    }
}

/// `range` less its first line.
fn below_first_line(range: Option<(usize, usize)>, guarded: &Guarded) -> Option<(usize, usize)> {
    let (start, end) = range?;
    let first_line = guarded.text.get(start..end)?.find('\n')?;
    Some((start + first_line + 1, end))
}

/// For each edit inside `range`, in `fields` (the node's raw text in source order): its
/// occurrence, counted as in the guarded source from the range's start, becomes the original.
/// Later edits first, so the counts of earlier ones stay right.
fn put_back(mut fields: Vec<&mut String>, range: Option<(usize, usize)>, guarded: &Guarded) {
    let Some((start, end)) = range else { return };
    let inside: Vec<&Edit> = guarded
        .edits
        .iter()
        .filter(|e| e.at >= start && e.at < end)
        .collect();
    for edit in inside.into_iter().rev() {
        let Some(before) = guarded.text.get(start..edit.at) else {
            continue;
        };
        let mut nth = before.matches(edit.inserted.as_str()).count();
        for field in fields.iter_mut() {
            let found: Vec<usize> = field
                .match_indices(edit.inserted.as_str())
                .map(|(i, _)| i)
                .collect();
            if let Some(&at) = found.get(nth) {
                field.replace_range(at..at + edit.inserted.len(), &edit.original);
                break;
            }
            nth -= found.len();
        }
    }
}

/// Attribute expressions (`style={{...}}`) carry no position of their own: there the `&amp;`
/// rewrite is undone by its shape (`&amp;` + reference characters + a quote), which source text
/// hardly ever has by itself.
fn attribute_expressions(attributes: &mut [AttributeContent]) {
    for attribute in attributes {
        let value = match attribute {
            AttributeContent::Property(property) => match property.value.as_mut() {
                Some(AttributeValue::Expression(expression)) => &mut expression.value,
                _ => continue,
            },
            AttributeContent::Expression(expression) => &mut expression.value,
        };
        if !value.contains("&amp;") {
            continue;
        }
        let mut out = String::with_capacity(value.len());
        let mut rest = value.as_str();
        while let Some(at) = rest.find("&amp;") {
            out.push_str(&rest[..at]);
            let after = &rest[at + 5..];
            let run = after
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'#')
                .count();
            let rewritten = run > 0 && matches!(after.as_bytes().get(run), Some(b'"' | b'\''));
            out.push_str(if rewritten { "&" } else { "&amp;" });
            rest = after;
        }
        out.push_str(rest);
        *value = out;
    }
}
