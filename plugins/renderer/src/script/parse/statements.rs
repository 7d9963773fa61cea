//! Declarations' targets (names, and object and array patterns with defaults) and the
//! statements of a function body.

use super::{Expr, Parsed, Parser, Pattern, Statement};

impl<'a> Parser<'a> {
    pub(super) fn pattern(&mut self) -> Parsed<Pattern> {
        self.enter()?;
        let pattern = if self.eat("{") {
            let mut fields = Vec::new();
            loop {
                if self.eat("}") {
                    break;
                }
                if self.eat("...") {
                    let rest = self.name()?;
                    fields.push((format!("...{rest}"), Pattern::Name(rest, None)));
                } else {
                    let key = self.property_key()?;
                    let target = if self.eat(":") {
                        self.pattern()?
                    } else {
                        Pattern::Name(key.clone(), self.default_value()?)
                    };
                    fields.push((key, target));
                }
                if !self.eat(",") {
                    self.expect("}")?;
                    break;
                }
            }
            Pattern::Object(fields, self.default_value()?)
        } else if self.eat("[") {
            let mut items = Vec::new();
            loop {
                if self.eat("]") {
                    break;
                }
                if self.eat(",") {
                    items.push(None);
                    continue;
                }
                items.push(Some(self.pattern()?));
                if !self.eat(",") {
                    self.expect("]")?;
                    break;
                }
            }
            Pattern::Array(items, self.default_value()?)
        } else {
            let name = self.name()?;
            Pattern::Name(name, self.default_value()?)
        };
        self.depth -= 1;
        Ok(pattern)
    }

    pub(super) fn default_value(&mut self) -> Parsed<Option<Expr>> {
        self.skip_space();
        if self.rest().starts_with('=')
            && !self.rest().starts_with("=>")
            && !self.rest().starts_with("==")
        {
            self.pos += 1;
            return Ok(Some(self.expression()?));
        }
        Ok(None)
    }

    /// Statements up to and past the closing `}`.
    pub(super) fn block(&mut self) -> Parsed<Vec<Statement>> {
        let mut statements = Vec::new();
        loop {
            if self.eat("}") {
                return Ok(statements);
            }
            if self.at_end() {
                return Err(self.error("`}`"));
            }
            if self.eat(";") {
                continue;
            }
            statements.push(self.statement()?);
        }
    }

    pub(super) fn statement(&mut self) -> Parsed<Statement> {
        self.enter()?;
        let statement = if self.eat_word("const") || self.eat_word("let") || self.eat_word("var") {
            let target = self.pattern()?;
            let value = match target {
                Pattern::Name(_, Some(ref v))
                | Pattern::Object(_, Some(ref v))
                | Pattern::Array(_, Some(ref v)) => v.clone(),
                _ => Expr::Undefined,
            };
            let target = match target {
                Pattern::Name(n, _) => Pattern::Name(n, None),
                Pattern::Object(f, _) => Pattern::Object(f, None),
                Pattern::Array(i, _) => Pattern::Array(i, None),
            };
            Statement::Declare(target, value)
        } else if self.eat_word("function") {
            let name = self.name()?;
            let f = self.function_rest()?;
            Statement::Declare(
                Pattern::Name(name, None),
                Expr::Function(std::rc::Rc::new(f)),
            )
        } else if self.eat_word("return") {
            self.skip_space();
            if self.rest().starts_with([';', '}']) {
                Statement::Return(None)
            } else {
                Statement::Return(Some(self.expression()?))
            }
        } else if self.eat_word("if") {
            self.expect("(")?;
            let condition = self.expression()?;
            self.expect(")")?;
            let then = self.branch()?;
            let otherwise = if self.eat_word("else") {
                self.branch()?
            } else {
                Vec::new()
            };
            Statement::If(condition, then, otherwise)
        } else if ["for", "while", "do", "switch", "class", "try", "throw"]
            .iter()
            .any(|w| self.eat_word(w))
        {
            return Err(self.error("no loop, switch, class or exception"));
        } else {
            let e = self.expression()?;
            self.skip_space();
            if self.rest().starts_with('=') && !self.rest().starts_with("==") {
                return Err(self.error("no assignment"));
            }
            let _ = e;
            Statement::Effect
        };
        self.eat(";");
        self.depth -= 1;
        Ok(statement)
    }

    pub(super) fn branch(&mut self) -> Parsed<Vec<Statement>> {
        if self.eat("{") {
            self.block()
        } else {
            Ok(vec![self.statement()?])
        }
    }
}
