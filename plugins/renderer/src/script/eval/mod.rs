//! Evaluating what `parse` reads, with no access to anything outside the page: no network,
//! timers, DOM or globals beyond a few pure ones (`Math`, `Object.keys`, `JSON.stringify`,
//! `String`, `Number`) and `useState`, whose initial value is the state a static page shows.
//! Every step spends fuel, so a runaway component stops with an error instead of hanging the
//! export. An expression that cannot be known statically is an `Unknown` error naming it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

mod builtins;
mod value;

use super::parse::{Body, Expr, Item, Jsx, JsxAttribute, JsxChild, Pattern, Piece, Statement};
use builtins::{METHODS, global};
pub use value::{Builtin, Closure, Element, Value};
use value::{loose_equal, number_text, strict_equal};

/// Why an expression has no static value.
#[derive(Debug, Clone, PartialEq)]
pub struct Unknown(pub String);

pub type Evaluated = Result<Value, Unknown>;

/// Names in scope, innermost first.
#[derive(Debug, Clone, Default)]
pub struct Scope(Rc<Frame>);

#[derive(Debug, Default)]
struct Frame {
    names: RefCell<HashMap<String, Value>>,
    parent: Option<Scope>,
}

impl Scope {
    pub fn child(&self) -> Scope {
        Scope(Rc::new(Frame {
            names: RefCell::default(),
            parent: Some(self.clone()),
        }))
    }

    pub fn set(&self, name: &str, value: Value) {
        self.0.names.borrow_mut().insert(name.to_string(), value);
    }

    /// The value `name` has here, from the innermost scope that binds it.
    pub fn get(&self, name: &str) -> Option<Value> {
        let mut frame = Some(self);
        while let Some(scope) = frame {
            if let Some(v) = scope.0.names.borrow().get(name) {
                return Some(v.clone());
            }
            frame = scope.0.parent.as_ref();
        }
        None
    }
}

/// Steps one component may take.
const FUEL: u64 = 200_000;
/// Deepest call chain.
const MAX_CALLS: usize = 32;

/// An evaluation: its fuel, and the expressions inside JSX that had no value (the rest of the
/// element still renders).
pub struct Evaluator {
    fuel: u64,
    calls: usize,
    pub skipped: Vec<String>,
}

impl Default for Evaluator {
    fn default() -> Self {
        Self {
            fuel: FUEL,
            calls: 0,
            skipped: Vec::new(),
        }
    }
}

fn unknown<T>(what: impl Into<String>) -> Result<T, Unknown> {
    Err(Unknown(what.into()))
}

impl Evaluator {
    fn spend(&mut self) -> Result<(), Unknown> {
        if self.fuel == 0 {
            return unknown("the component takes too many steps");
        }
        self.fuel -= 1;
        Ok(())
    }

    pub fn eval(&mut self, e: &Expr, scope: &Scope) -> Evaluated {
        self.spend()?;
        Ok(match e {
            Expr::Num(n) => Value::Num(*n),
            Expr::Str(s) => Value::str(s.as_str()),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Null => Value::Null,
            Expr::Undefined => Value::Undefined,
            Expr::Template(pieces) => {
                let mut out = String::new();
                for piece in pieces {
                    match piece {
                        Piece::Text(t) => out.push_str(t),
                        Piece::Expr(e) => out.push_str(&self.eval(e, scope)?.text()),
                    }
                }
                Value::str(out)
            }
            Expr::Ident(name) => match scope.get(name) {
                Some(v) => v,
                None => global(name)
                    .ok_or_else(|| Unknown(format!("{name} is not known statically")))?,
            },
            Expr::Array(items) => Value::Array(Rc::new(self.items(items, scope)?)),
            Expr::Object(properties) => {
                let mut entries = Vec::new();
                for p in properties {
                    let value = self.eval(&p.value, scope)?;
                    match &p.key {
                        Some(key) => entries.push((key.clone(), value)),
                        None => match value {
                            Value::Object(spread) => entries.extend(spread.iter().cloned()),
                            Value::Undefined | Value::Null => {}
                            _ => return unknown("a spread of something not an object"),
                        },
                    }
                }
                Value::Object(Rc::new(entries))
            }
            Expr::Member(object, key) => {
                let object = self.eval(object, scope)?;
                let key = self.eval(key, scope)?.text();
                self.member(&object, &key)?
            }
            Expr::Call(callee, args) => {
                let f = self.eval(callee, scope)?;
                let args = self.items(args, scope)?;
                self.call(&f, args)?
            }
            Expr::Function(function) => Value::Function(Rc::new(Closure {
                function: function.clone(),
                scope: scope.clone(),
            })),
            Expr::Unary(op, operand) => {
                let v = self.eval(operand, scope)?;
                match *op {
                    "!" => Value::Bool(!v.truthy()),
                    "-" => Value::Num(-v.number()),
                    "+" => Value::Num(v.number()),
                    _ => Value::str(match v {
                        Value::Undefined => "undefined",
                        Value::Bool(_) => "boolean",
                        Value::Num(_) => "number",
                        Value::Str(_) => "string",
                        Value::Function(_) | Value::Builtin(_) => "function",
                        _ => "object",
                    }),
                }
            }
            Expr::Binary(op, left, right) => self.binary(op, left, right, scope)?,
            Expr::Conditional(condition, then, otherwise) => {
                if self.eval(condition, scope)?.truthy() {
                    self.eval(then, scope)?
                } else {
                    self.eval(otherwise, scope)?
                }
            }
            Expr::Jsx(jsx) => self.element(jsx, scope)?,
        })
    }

    fn items(&mut self, items: &[Item], scope: &Scope) -> Result<Vec<Value>, Unknown> {
        let mut out = Vec::new();
        for item in items {
            let v = self.eval(&item.value, scope)?;
            match (item.spread, v) {
                (true, Value::Array(spread)) => out.extend(spread.iter().cloned()),
                (true, _) => return unknown("a spread of something not an array"),
                (false, v) => out.push(v),
            }
        }
        Ok(out)
    }

    fn binary(&mut self, op: &str, left: &Expr, right: &Expr, scope: &Scope) -> Evaluated {
        let l = self.eval(left, scope)?;
        match op {
            "&&" => {
                return if l.truthy() {
                    self.eval(right, scope)
                } else {
                    Ok(l)
                };
            }
            "||" => {
                return if l.truthy() {
                    Ok(l)
                } else {
                    self.eval(right, scope)
                };
            }
            "??" => {
                return if matches!(l, Value::Undefined | Value::Null) {
                    self.eval(right, scope)
                } else {
                    Ok(l)
                };
            }
            _ => {}
        }
        let r = self.eval(right, scope)?;
        Ok(match op {
            "+" => match (&l, &r) {
                (Value::Num(a), Value::Num(b)) => Value::Num(a + b),
                (Value::Str(_), _) | (_, Value::Str(_)) => Value::str(l.text() + &r.text()),
                _ => Value::Num(l.number() + r.number()),
            },
            "-" => Value::Num(l.number() - r.number()),
            "*" => Value::Num(l.number() * r.number()),
            "/" => Value::Num(l.number() / r.number()),
            "%" => Value::Num(l.number() % r.number()),
            "===" => Value::Bool(strict_equal(&l, &r)),
            "!==" => Value::Bool(!strict_equal(&l, &r)),
            "==" => Value::Bool(loose_equal(&l, &r)),
            "!=" => Value::Bool(!loose_equal(&l, &r)),
            "<" | ">" | "<=" | ">=" => {
                let ordering = match (&l, &r) {
                    (Value::Str(a), Value::Str(b)) => a.partial_cmp(b),
                    _ => l.number().partial_cmp(&r.number()),
                };
                Value::Bool(ordering.is_some_and(|o| match op {
                    "<" => o.is_lt(),
                    ">" => o.is_gt(),
                    "<=" => o.is_le(),
                    _ => o.is_ge(),
                }))
            }
            _ => return unknown(format!("the operator {op}")),
        })
    }

    fn member(&mut self, object: &Value, key: &str) -> Evaluated {
        if let Some(v) = object.property(key) {
            return Ok(v);
        }
        let method = match (object, key) {
            (
                Value::Array(_),
                "map" | "filter" | "join" | "slice" | "includes" | "find" | "some" | "every"
                | "indexOf" | "concat" | "flat" | "at",
            ) => key,
            (
                Value::Str(_),
                "toUpperCase" | "toLowerCase" | "trim" | "includes" | "startsWith" | "endsWith"
                | "replace" | "replaceAll" | "split" | "slice" | "padStart" | "padEnd" | "charAt"
                | "at" | "repeat",
            ) => key,
            (Value::Num(_), "toFixed" | "toString" | "toLocaleString") => key,
            (Value::Builtin(b), "keys" | "values" | "entries") if b.name == "Object" => key,
            (Value::Builtin(b), "round" | "floor" | "ceil" | "min" | "max" | "abs")
                if b.name == "Math" =>
            {
                key
            }
            (Value::Builtin(b), "stringify") if b.name == "JSON" => key,
            (Value::Builtin(b), "isArray") if b.name == "Array" => key,
            (Value::Builtin(b), "useState") if b.name == "React" => key,
            (
                Value::Object(_) | Value::Array(_) | Value::Str(_) | Value::Num(_) | Value::Bool(_),
                _,
            ) => {
                return Ok(Value::Undefined);
            }
            (Value::Undefined | Value::Null, _) => {
                return unknown(format!("reading {key} of nothing"));
            }
            _ => return unknown(format!("the property {key}")),
        };
        let method: &'static str = METHODS
            .iter()
            .find(|m| **m == method)
            .copied()
            .unwrap_or("");
        Ok(Value::Builtin(Rc::new(Builtin {
            name: method,
            this: object.clone(),
        })))
    }

    pub fn call(&mut self, f: &Value, args: Vec<Value>) -> Evaluated {
        self.spend()?;
        match f {
            Value::Function(closure) => {
                if self.calls >= MAX_CALLS {
                    return unknown("calls nest too deeply");
                }
                self.calls += 1;
                let result = self.call_closure(closure, args);
                self.calls -= 1;
                result
            }
            Value::Builtin(builtin) => self.builtin(builtin, args),
            _ => unknown("a call of something not a function"),
        }
    }

    fn call_closure(&mut self, closure: &Closure, args: Vec<Value>) -> Evaluated {
        let scope = closure.scope.child();
        let mut args = args.into_iter();
        for param in &closure.function.params {
            let arg = args.next().unwrap_or(Value::Undefined);
            self.bind(param, arg, &scope)?;
        }
        match &closure.function.body {
            Body::Expr(e) => self.eval(e, &scope),
            Body::Block(statements) => {
                Ok(self.run(statements, &scope)?.unwrap_or(Value::Undefined))
            }
        }
    }

    /// Runs statements; `Some` once one returns.
    fn run(&mut self, statements: &[Statement], scope: &Scope) -> Result<Option<Value>, Unknown> {
        for statement in statements {
            self.spend()?;
            match statement {
                Statement::Declare(pattern, value) => {
                    let v = self.eval(value, scope)?;
                    self.bind(pattern, v, scope)?;
                }
                Statement::Return(value) => {
                    return Ok(Some(match value {
                        Some(e) => self.eval(e, scope)?,
                        None => Value::Undefined,
                    }));
                }
                Statement::If(condition, then, otherwise) => {
                    let branch = if self.eval(condition, scope)?.truthy() {
                        then
                    } else {
                        otherwise
                    };
                    if let Some(v) = self.run(branch, &scope.child())? {
                        return Ok(Some(v));
                    }
                }
                // An expression statement changes something (`list.push(x)`, a call for its
                // effect): what it changes cannot be followed.
                Statement::Effect => return unknown("a statement run for its effect"),
            }
        }
        Ok(None)
    }

    pub fn bind(&mut self, pattern: &Pattern, value: Value, scope: &Scope) -> Result<(), Unknown> {
        let with_default = |me: &mut Self, value: Value, default: &Option<Expr>| -> Evaluated {
            match (value, default) {
                (Value::Undefined, Some(d)) => me.eval(d, scope),
                (v, _) => Ok(v),
            }
        };
        match pattern {
            Pattern::Name(name, default) => {
                let v = with_default(self, value, default)?;
                scope.set(name, v);
            }
            Pattern::Object(fields, default) => {
                let v = with_default(self, value, default)?;
                for (key, target) in fields {
                    if key.starts_with("...") {
                        let named: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
                        let rest = match &v {
                            Value::Object(entries) => entries
                                .iter()
                                .filter(|(k, _)| !named.contains(&k.as_str()))
                                .cloned()
                                .collect(),
                            _ => Vec::new(),
                        };
                        self.bind(target, Value::Object(Rc::new(rest)), scope)?;
                    } else {
                        let field = v.property(key).unwrap_or(Value::Undefined);
                        self.bind(target, field, scope)?;
                    }
                }
            }
            Pattern::Array(items, default) => {
                let v = with_default(self, value, default)?;
                for (i, target) in items.iter().enumerate() {
                    if let Some(target) = target {
                        let item = v.property(&i.to_string()).unwrap_or(Value::Undefined);
                        self.bind(target, item, scope)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn element(&mut self, jsx: &Jsx, scope: &Scope) -> Evaluated {
        let mut attributes = Vec::new();
        for attribute in &jsx.attributes {
            match attribute {
                JsxAttribute::Named(name, None) => {
                    attributes.push((name.clone(), Value::Bool(true)))
                }
                JsxAttribute::Named(name, Some(e)) => match self.eval(e, scope) {
                    Ok(v) => attributes.push((name.clone(), v)),
                    Err(Unknown(why)) => self.skipped.push(why),
                },
                JsxAttribute::Spread(e) => match self.eval(e, scope) {
                    Ok(Value::Object(entries)) => attributes.extend(entries.iter().cloned()),
                    Ok(_) => {}
                    Err(Unknown(why)) => self.skipped.push(why),
                },
            }
        }
        let mut children = Vec::new();
        for child in &jsx.children {
            match child {
                JsxChild::Text(t) => children.push(Value::str(t.as_str())),
                JsxChild::Expr(e) => match self.eval(e, scope) {
                    Ok(v) => children.push(v),
                    Err(Unknown(why)) => self.skipped.push(why),
                },
            }
        }
        Ok(Value::Element(Rc::new(Element {
            name: jsx.name.clone(),
            attributes,
            children,
        })))
    }
}
