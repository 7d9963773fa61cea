//! The reader's footing: position, whitespace and comments, tokens and names, and the
//! literals (numbers, strings with their escapes, template literals).

use super::{Expr, MAX_DEPTH, Parsed, Parser, Piece, Syntax};

impl<'a> Parser<'a> {
    pub(super) fn new(src: &'a str) -> Self {
        Self {
            src,
            pos: 0,
            depth: 0,
        }
    }

    pub(super) fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    pub(super) fn error(&self, expected: &str) -> Syntax {
        let found: String = self.rest().chars().take(40).collect();
        let found = found.lines().next().unwrap_or_default().trim();
        Syntax(format!("expected {expected} at `{found}`"))
    }

    /// Skips whitespace and comments.
    pub(super) fn skip_space(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if let Some(line) = trimmed.strip_prefix("//") {
                self.pos += 2 + line.find('\n').unwrap_or(line.len());
            } else if let Some(block) = trimmed.strip_prefix("/*") {
                self.pos += 2 + block.find("*/").map_or(block.len(), |e| e + 2);
            } else {
                return;
            }
        }
    }

    pub(super) fn eat(&mut self, token: &str) -> bool {
        self.skip_space();
        if self.rest().starts_with(token) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    pub(super) fn expect(&mut self, token: &str) -> Parsed<()> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.error(&format!("`{token}`")))
        }
    }

    /// Eats `word` when it is a whole word.
    pub(super) fn eat_word(&mut self, word: &str) -> bool {
        self.skip_space();
        let rest = self.rest();
        let whole =
            rest.starts_with(word) && !rest[word.len()..].chars().next().is_some_and(is_name_char);
        if whole {
            self.pos += word.len();
        }
        whole
    }

    pub(super) fn name(&mut self) -> Parsed<String> {
        self.skip_space();
        let rest = self.rest();
        let len = rest
            .char_indices()
            .find(|(i, c)| !(is_name_char(*c) && (*i > 0 || !c.is_ascii_digit())))
            .map_or(rest.len(), |(i, _)| i);
        if len == 0 {
            return Err(self.error("a name"));
        }
        self.pos += len;
        Ok(rest[..len].to_string())
    }

    /// Moves past the statement starting here: to the `;` or line end outside brackets.
    pub(super) fn skip_statement(&mut self) {
        let bytes = self.src.as_bytes();
        let mut depth = 0i32;
        let mut quote: Option<u8> = None;
        let start = self.pos;
        while self.pos < bytes.len() {
            let b = bytes[self.pos];
            match quote {
                Some(_) if b == b'\\' => self.pos += 1,
                Some(q) if b == q => quote = None,
                Some(_) => {}
                None => match b {
                    b'"' | b'\'' | b'`' => quote = Some(b),
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth -= 1,
                    b';' if depth <= 0 => {
                        self.pos += 1;
                        return;
                    }
                    b'\n' if depth <= 0 && self.pos > start => {
                        // A statement that continues on the next line keeps going.
                        let next = self.src[self.pos..].trim_start();
                        if !next.starts_with([
                            '.', '?', ':', '+', '-', '*', '/', '&', '|', ')', ']', '}',
                        ]) {
                            return;
                        }
                    }
                    _ => {}
                },
            }
            self.pos += 1;
        }
    }

    pub(super) fn enter(&mut self) -> Parsed<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Syntax("the expression nests too deeply".into()));
        }
        Ok(())
    }

    pub(super) fn number(&mut self) -> Parsed<Expr> {
        let rest = self.rest();
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
            .unwrap_or(rest.len());
        let text = rest[..len].replace('_', "");
        let value = if let Some(hex) = text.strip_prefix("0x") {
            i64::from_str_radix(hex, 16).ok().map(|v| v as f64)
        } else {
            text.parse::<f64>().ok()
        };
        let Some(value) = value else {
            return Err(self.error("a number"));
        };
        self.pos += len;
        Ok(Expr::Num(value))
    }

    pub(super) fn string(&mut self) -> Parsed<String> {
        let quote = self.peek().ok_or_else(|| self.error("a string"))?;
        self.pos += quote.len_utf8();
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error("the end of the string"));
            };
            self.pos += c.len_utf8();
            match c {
                c if c == quote => return Ok(out),
                '\\' => out.push(self.escape()?),
                '\n' => return Err(self.error("the end of the string")),
                c => out.push(c),
            }
        }
    }

    /// The character after a backslash, which is already read.
    pub(super) fn escape(&mut self) -> Parsed<char> {
        let Some(c) = self.peek() else {
            return Err(self.error("an escape"));
        };
        self.pos += c.len_utf8();
        Ok(match c {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'u' => {
                let rest = self.rest();
                let (hex, len) = if let Some(braced) = rest.strip_prefix('{') {
                    let end = braced.find('}').ok_or_else(|| self.error("`}`"))?;
                    (&braced[..end], end + 2)
                } else {
                    (
                        rest.get(..4).ok_or_else(|| self.error("four hex digits"))?,
                        4,
                    )
                };
                self.pos += len;
                u32::from_str_radix(hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .unwrap_or('\u{FFFD}')
            }
            other => other,
        })
    }

    pub(super) fn template(&mut self) -> Parsed<Expr> {
        self.pos += 1;
        let mut pieces = Vec::new();
        let mut text = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error("the end of the template literal"));
            };
            if self.rest().starts_with("${") {
                self.pos += 2;
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                pieces.push(Piece::Expr(self.expression()?));
                self.expect("}")?;
                continue;
            }
            self.pos += c.len_utf8();
            match c {
                '`' => break,
                '\\' => text.push(self.escape()?),
                c => text.push(c),
            }
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(Expr::Template(pieces))
    }
}

pub(super) fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}
