//! Expressions by precedence: arrows, conditionals, binary and unary operators, member access
//! and calls, and the primary expressions (literals, arrays, objects, JSX, names).

use super::jsx::is_jsx_start;
use super::{Body, Expr, Function, Item, Parsed, Parser, Pattern, Property};

impl<'a> Parser<'a> {
    pub(super) fn expression(&mut self) -> Parsed<Expr> {
        self.enter()?;
        let e = self.arrow_or_conditional();
        self.depth -= 1;
        e
    }

    pub(super) fn arrow_or_conditional(&mut self) -> Parsed<Expr> {
        self.skip_space();
        let start = self.pos;
        self.eat_word("async");
        // `(a, { b }) => ...`, `name => ...`
        if self.peek() == Some('(') {
            if let Some(close) = crate::jsx::matching(self.src, self.pos) {
                let after = self.src[close + 1..].trim_start();
                if after.starts_with("=>") {
                    self.pos += 1;
                    let params = self.params_until(")")?;
                    self.expect("=>")?;
                    return self.arrow_body(params);
                }
            }
        } else if let Ok(name) = self.name()
            && self.eat("=>")
        {
            return self.arrow_body(vec![Pattern::Name(name, None)]);
        }
        self.pos = start;
        self.conditional()
    }

    pub(super) fn arrow_body(&mut self, params: Vec<Pattern>) -> Parsed<Expr> {
        self.skip_space();
        let body = if self.peek() == Some('{') {
            self.pos += 1;
            Body::Block(self.block()?)
        } else {
            Body::Expr(self.expression()?)
        };
        Ok(Expr::Function(std::rc::Rc::new(Function { params, body })))
    }

    /// `(params) { body }` after `function name`.
    pub(super) fn function_rest(&mut self) -> Parsed<Function> {
        self.expect("(")?;
        let params = self.params_until(")")?;
        self.expect("{")?;
        Ok(Function {
            params,
            body: Body::Block(self.block()?),
        })
    }

    /// Parameters up to and past `close`.
    pub(super) fn params_until(&mut self, close: &str) -> Parsed<Vec<Pattern>> {
        let mut params = Vec::new();
        loop {
            if self.eat(close) {
                return Ok(params);
            }
            params.push(self.pattern()?);
            if !self.eat(",") {
                self.expect(close)?;
                return Ok(params);
            }
        }
    }

    pub(super) fn conditional(&mut self) -> Parsed<Expr> {
        let condition = self.binary(0)?;
        if self.eat("?") {
            if self.rest().starts_with('.') {
                // `?.` was taken by member access; a lone `?` is a conditional.
                return Err(self.error("an expression"));
            }
            let then = self.expression()?;
            self.expect(":")?;
            let otherwise = self.expression()?;
            return Ok(Expr::Conditional(
                Box::new(condition),
                Box::new(then),
                Box::new(otherwise),
            ));
        }
        Ok(condition)
    }

    /// Binary operators by precedence, loosest first.
    pub(super) fn binary(&mut self, level: usize) -> Parsed<Expr> {
        const LEVELS: &[&[&str]] = &[
            &["??"],
            &["||"],
            &["&&"],
            &["===", "!==", "==", "!="],
            &["<=", ">=", "<", ">"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut left = self.binary(level + 1)?;
        'operators: loop {
            self.skip_space();
            for op in LEVELS[level] {
                let rest = self.rest();
                let is_op = rest.starts_with(op)
                    // `=>` is no `=`, `?.` no `??`, `**`/`++`/`--` are not read.
                    && !(matches!(*op, "<" | ">") && rest[1..].starts_with('='))
                    && !(matches!(*op, "+" | "-" | "*") && rest[1..].starts_with(*op))
                    && !(*op == "<" && level == 4 && is_jsx_start(&rest[1..]));
                if is_op {
                    self.pos += op.len();
                    let right = self.binary(level + 1)?;
                    left = Expr::Binary(op, Box::new(left), Box::new(right));
                    continue 'operators;
                }
            }
            return Ok(left);
        }
    }

    pub(super) fn unary(&mut self) -> Parsed<Expr> {
        self.enter()?;
        let e = if self.eat("!") {
            Expr::Unary("!", Box::new(self.unary()?))
        } else if self.rest().starts_with('-') && !self.rest().starts_with("--") {
            self.pos += 1;
            Expr::Unary("-", Box::new(self.unary()?))
        } else if self.rest().starts_with('+') && !self.rest().starts_with("++") {
            self.pos += 1;
            Expr::Unary("+", Box::new(self.unary()?))
        } else if self.eat_word("typeof") {
            Expr::Unary("typeof", Box::new(self.unary()?))
        } else if self.eat_word("await") || self.eat_word("new") {
            return Err(self.error("no `await` or `new`"));
        } else {
            self.postfix()?
        };
        self.depth -= 1;
        Ok(e)
    }

    pub(super) fn postfix(&mut self) -> Parsed<Expr> {
        let mut e = self.primary()?;
        loop {
            self.skip_space();
            let rest = self.rest();
            // `f?.(x)` and `a?.[k]`: read as a call and an index.
            if rest.starts_with("?.(") || rest.starts_with("?.[") {
                self.pos += 2;
            }
            if self.eat("?.")
                || (self.rest().starts_with('.')
                    && !self.rest().starts_with("...")
                    && self.eat("."))
            {
                let name = self.name()?;
                e = Expr::Member(Box::new(e), Box::new(Expr::Str(name)));
            } else if self.eat("[") {
                let key = self.expression()?;
                self.expect("]")?;
                e = Expr::Member(Box::new(e), Box::new(key));
            } else if self.rest().starts_with('(') {
                self.pos += 1;
                let args = self.items(")")?;
                e = Expr::Call(Box::new(e), args);
            } else if self.rest().starts_with('!') && !self.rest().starts_with("!=") {
                // TypeScript's non-null assertion: nothing to evaluate.
                self.pos += 1;
            } else {
                return Ok(e);
            }
        }
    }

    /// Array elements or call arguments up to and past `close`.
    pub(super) fn items(&mut self, close: &str) -> Parsed<Vec<Item>> {
        let mut items = Vec::new();
        loop {
            if self.eat(close) {
                return Ok(items);
            }
            let spread = self.eat("...");
            items.push(Item {
                spread,
                value: self.expression()?,
            });
            if !self.eat(",") {
                self.expect(close)?;
                return Ok(items);
            }
        }
    }

    pub(super) fn property_key(&mut self) -> Parsed<String> {
        self.skip_space();
        match self.peek() {
            Some('"' | '\'') => self.string(),
            Some('[') => Err(self.error("a plain key")),
            _ => self.name(),
        }
    }

    pub(super) fn primary(&mut self) -> Parsed<Expr> {
        self.skip_space();
        let Some(c) = self.peek() else {
            return Err(self.error("an expression"));
        };
        match c {
            '0'..='9' | '.' => self.number(),
            '"' | '\'' => Ok(Expr::Str(self.string()?)),
            '`' => self.template(),
            '(' => {
                self.pos += 1;
                let e = self.expression()?;
                self.expect(")")?;
                Ok(e)
            }
            '[' => {
                self.pos += 1;
                Ok(Expr::Array(self.items("]")?))
            }
            '{' => {
                self.pos += 1;
                self.object()
            }
            '<' => Ok(Expr::Jsx(Box::new(self.jsx()?))),
            '/' => Err(self.error("no regular expression")),
            _ => {
                if self.eat_word("function") {
                    self.eat_word("function");
                    let _ = self.name();
                    return Ok(Expr::Function(std::rc::Rc::new(self.function_rest()?)));
                }
                let name = self.name()?;
                Ok(match name.as_str() {
                    "true" => Expr::Bool(true),
                    "false" => Expr::Bool(false),
                    "null" => Expr::Null,
                    "undefined" => Expr::Undefined,
                    _ => Expr::Ident(name),
                })
            }
        }
    }

    pub(super) fn object(&mut self) -> Parsed<Expr> {
        let mut properties = Vec::new();
        loop {
            if self.eat("}") {
                return Ok(Expr::Object(properties));
            }
            if self.eat("...") {
                properties.push(Property {
                    key: None,
                    value: self.expression()?,
                });
            } else {
                let key = self.property_key()?;
                let value = if self.eat(":") {
                    self.expression()?
                } else if self.rest().trim_start().starts_with('(') {
                    // A method: `name() { ... }`.
                    Expr::Function(std::rc::Rc::new(self.function_rest()?))
                } else {
                    Expr::Ident(key.clone())
                };
                properties.push(Property {
                    key: Some(key),
                    value,
                });
            }
            if !self.eat(",") {
                self.expect("}")?;
                return Ok(Expr::Object(properties));
            }
        }
    }
}
