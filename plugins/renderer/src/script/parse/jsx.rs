//! JSX elements and fragments, their attributes and children, and text as React reads it.

use super::reader::is_name_char;
use super::{Expr, Jsx, JsxAttribute, JsxChild, Parsed, Parser};

impl<'a> Parser<'a> {
    /// A JSX element or fragment, at its `<`.
    pub(super) fn jsx(&mut self) -> Parsed<Jsx> {
        self.enter()?;
        self.expect("<")?;
        self.skip_space();
        let name = if self.peek() == Some('>') {
            None
        } else {
            Some(self.jsx_name()?)
        };
        let mut attributes = Vec::new();
        loop {
            self.skip_space();
            if self.eat("/>") {
                self.depth -= 1;
                return Ok(Jsx {
                    name,
                    attributes,
                    children: Vec::new(),
                });
            }
            if self.eat(">") {
                break;
            }
            if self.eat("{") {
                self.expect("...")?;
                let e = self.expression()?;
                self.expect("}")?;
                attributes.push(JsxAttribute::Spread(e));
                continue;
            }
            let attribute = self.jsx_name()?;
            let value = if self.eat("=") {
                self.skip_space();
                Some(match self.peek() {
                    Some('"' | '\'') => Expr::Str(self.jsx_attribute_string()?),
                    Some('{') => {
                        self.pos += 1;
                        let e = self.expression()?;
                        self.expect("}")?;
                        e
                    }
                    Some('<') => Expr::Jsx(Box::new(self.jsx()?)),
                    _ => return Err(self.error("an attribute value")),
                })
            } else {
                None
            };
            attributes.push(JsxAttribute::Named(attribute, value));
        }
        let children = self.jsx_children(name.as_deref())?;
        self.depth -= 1;
        Ok(Jsx {
            name,
            attributes,
            children,
        })
    }

    pub(super) fn jsx_name(&mut self) -> Parsed<String> {
        let rest = self.rest();
        let len = rest
            .find(|c: char| !(is_name_char(c) || matches!(c, '.' | '-' | ':')))
            .unwrap_or(rest.len());
        if len == 0 {
            return Err(self.error("a JSX name"));
        }
        self.pos += len;
        Ok(rest[..len].to_string())
    }

    /// A quoted attribute value: no escapes, entities decoded.
    pub(super) fn jsx_attribute_string(&mut self) -> Parsed<String> {
        let quote = self.peek().ok_or_else(|| self.error("a string"))?;
        self.pos += 1;
        let end = self
            .rest()
            .find(quote)
            .ok_or_else(|| self.error("the closing quote"))?;
        let text = decode_entities(&self.rest()[..end]);
        self.pos += end + 1;
        Ok(text)
    }

    /// Children up to and past the closing tag of `name`.
    pub(super) fn jsx_children(&mut self, name: Option<&str>) -> Parsed<Vec<JsxChild>> {
        let mut children = Vec::new();
        loop {
            let rest = self.rest();
            let text_end = rest
                .find(['<', '{'])
                .ok_or_else(|| self.error("a closing tag"))?;
            let text = jsx_text(&rest[..text_end]);
            if !text.is_empty() {
                children.push(JsxChild::Text(text));
            }
            self.pos += text_end;
            if self.rest().starts_with("</") {
                self.pos += 2;
                self.skip_space();
                if let Some(name) = name {
                    let closing = self.jsx_name()?;
                    if closing != name {
                        return Err(self.error(&format!("`</{name}>`")));
                    }
                }
                self.expect(">")?;
                return Ok(children);
            }
            if self.rest().starts_with('<') {
                children.push(JsxChild::Expr(Expr::Jsx(Box::new(self.jsx()?))));
                continue;
            }
            // `{expression}`, or `{/* comment */}`.
            self.pos += 1;
            self.skip_space();
            if self.eat("}") {
                continue;
            }
            let e = self.expression()?;
            self.expect("}")?;
            children.push(JsxChild::Expr(e));
        }
    }
}

/// Whether `<` followed by `rest` starts a JSX element (`<Card`, `<div>`, `<>`) rather than a
/// comparison (`a < b`).
pub(super) fn is_jsx_start(rest: &str) -> bool {
    rest.starts_with('>') || rest.starts_with(|c: char| c.is_alphabetic())
}

/// JSX text as React reads it: lines trimmed, blank lines dropped, the rest joined by a space.
pub(super) fn jsx_text(raw: &str) -> String {
    let lines: Vec<&str> = raw.split('\n').collect();
    let last = lines.len() - 1;
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let mut line = *line;
        if i > 0 {
            line = line.trim_start();
        }
        if i < last {
            line = line.trim_end();
        }
        if line.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(line);
    }
    decode_entities(&out)
}

/// HTML character references as JSX decodes them in text and attribute strings.
pub(super) fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let decoded = rest.find(';').filter(|end| *end <= 10).and_then(|end| {
            let entity = &rest[1..end];
            let c = match entity {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                _ => entity
                    .strip_prefix("#x")
                    .or_else(|| entity.strip_prefix("#X"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            }?;
            Some((c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}
