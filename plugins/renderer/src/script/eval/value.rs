//! Values as the evaluator holds them, and how JavaScript compares and prints them.

use std::rc::Rc;

use super::Scope;
use crate::script::parse::Function;

/// A value.
#[derive(Debug, Clone)]
pub enum Value {
    Undefined,
    Null,
    Bool(bool),
    Num(f64),
    Str(Rc<str>),
    Array(Rc<Vec<Value>>),
    Object(Rc<Vec<(String, Value)>>),
    Function(Rc<Closure>),
    /// A built-in function (`useState`, `Math.max`, a method bound to its receiver).
    Builtin(Rc<Builtin>),
    Element(Rc<Element>),
    /// The element's children, rendered by the page (`{children}`).
    Children,
}

/// A function with the scope it was made in.
#[derive(Debug)]
pub struct Closure {
    pub function: Rc<Function>,
    pub scope: Scope,
}

/// A built-in: its name, and the receiver of a method.
#[derive(Debug)]
pub struct Builtin {
    pub name: &'static str,
    pub this: Value,
}

/// A JSX element with its evaluated attributes and children.
#[derive(Debug)]
pub struct Element {
    pub name: Option<String>,
    pub attributes: Vec<(String, Value)>,
    pub children: Vec<Value>,
}

impl Value {
    pub fn truthy(&self) -> bool {
        match self {
            Value::Undefined | Value::Null => false,
            Value::Bool(b) => *b,
            Value::Num(n) => *n != 0.0 && !n.is_nan(),
            Value::Str(s) => !s.is_empty(),
            _ => true,
        }
    }

    /// The value as `String(value)` writes it.
    pub fn text(&self) -> String {
        match self {
            Value::Undefined => "undefined".into(),
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Num(n) => number_text(*n),
            Value::Str(s) => s.to_string(),
            Value::Array(items) => items.iter().map(Value::text).collect::<Vec<_>>().join(","),
            Value::Object(_) => "[object Object]".into(),
            _ => String::new(),
        }
    }

    pub(super) fn number(&self) -> f64 {
        match self {
            Value::Num(n) => *n,
            Value::Bool(b) => f64::from(u8::from(*b)),
            Value::Null => 0.0,
            Value::Str(s) if s.trim().is_empty() => 0.0,
            Value::Str(s) => s.trim().parse().unwrap_or(f64::NAN),
            _ => f64::NAN,
        }
    }

    pub(super) fn str(text: impl Into<Rc<str>>) -> Value {
        Value::Str(text.into())
    }

    pub(super) fn property(&self, key: &str) -> Option<Value> {
        match self {
            Value::Object(entries) => entries
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone()),
            Value::Array(items) => match key {
                "length" => Some(Value::Num(items.len() as f64)),
                _ => key
                    .parse::<usize>()
                    .ok()
                    .map(|i| items.get(i).cloned().unwrap_or(Value::Undefined)),
            },
            Value::Str(s) => match key {
                "length" => Some(Value::Num(s.chars().count() as f64)),
                _ => key.parse::<usize>().ok().map(|i| {
                    s.chars()
                        .nth(i)
                        .map_or(Value::Undefined, |c| Value::str(c.to_string()))
                }),
            },
            _ => None,
        }
    }
}

pub(crate) fn number_text(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

pub(super) fn loose_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Undefined | Value::Null, Value::Undefined | Value::Null) => true,
        (Value::Undefined | Value::Null, _) | (_, Value::Undefined | Value::Null) => false,
        (Value::Str(x), Value::Str(y)) => x == y,
        (
            Value::Num(_) | Value::Str(_) | Value::Bool(_),
            Value::Num(_) | Value::Str(_) | Value::Bool(_),
        ) => a.number() == b.number(),
        _ => strict_equal(a, b),
    }
}

pub(super) fn strict_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Undefined, Value::Undefined) | (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Num(x), Value::Num(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => Rc::ptr_eq(x, y),
        (Value::Object(x), Value::Object(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}
