//! The built-ins a component may call: array, string and number methods, `Object`, `Math`,
//! `JSON.stringify`, `String`/`Number`/`Boolean`, and React's `useState` (its initial value) and
//! `useEffect` (nothing: a static page runs no effects).

use std::rc::Rc;

use super::{Builtin, Evaluated, Evaluator, Value, number_text, strict_equal, unknown};

impl Evaluator {
    pub(super) fn builtin(&mut self, builtin: &Builtin, args: Vec<Value>) -> Evaluated {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undefined);
        let this = &builtin.this;
        Ok(match (builtin.name, this) {
            ("useState", _) => {
                let initial = match arg(0) {
                    f @ (Value::Function(_) | Value::Builtin(_)) => self.call(&f, Vec::new())?,
                    v => v,
                };
                let setter = Value::Builtin(Rc::new(Builtin {
                    name: "noop",
                    this: Value::Undefined,
                }));
                Value::Array(Rc::new(vec![initial, setter]))
            }
            ("useEffect" | "noop", _) => Value::Undefined,
            ("String", _) => Value::str(arg(0).text()),
            ("Number", _) => Value::Num(arg(0).number()),
            ("Boolean", _) => Value::Bool(arg(0).truthy()),
            ("map" | "filter" | "find" | "some" | "every", Value::Array(items)) => {
                let f = arg(0);
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let r =
                        self.call(&f, vec![item.clone(), Value::Num(i as f64), this.clone()])?;
                    match builtin.name {
                        "map" => out.push(r),
                        "filter" if r.truthy() => out.push(item.clone()),
                        "find" if r.truthy() => return Ok(item.clone()),
                        "some" if r.truthy() => return Ok(Value::Bool(true)),
                        "every" if !r.truthy() => return Ok(Value::Bool(false)),
                        _ => {}
                    }
                }
                match builtin.name {
                    "find" => Value::Undefined,
                    "some" => Value::Bool(false),
                    "every" => Value::Bool(true),
                    _ => Value::Array(Rc::new(out)),
                }
            }
            ("join", Value::Array(items)) => {
                let sep = match arg(0) {
                    Value::Undefined => ",".to_string(),
                    v => v.text(),
                };
                Value::str(items.iter().map(Value::text).collect::<Vec<_>>().join(&sep))
            }
            ("slice", Value::Array(items)) => {
                let (start, end) = range(items.len(), &arg(0), &arg(1));
                Value::Array(Rc::new(items[start..end].to_vec()))
            }
            ("includes", Value::Array(items)) => {
                Value::Bool(items.iter().any(|v| strict_equal(v, &arg(0))))
            }
            ("indexOf", Value::Array(items)) => Value::Num(
                items
                    .iter()
                    .position(|v| strict_equal(v, &arg(0)))
                    .map_or(-1.0, |i| i as f64),
            ),
            ("concat", Value::Array(items)) => {
                let mut out = items.to_vec();
                for a in args {
                    match a {
                        Value::Array(more) => out.extend(more.iter().cloned()),
                        v => out.push(v),
                    }
                }
                Value::Array(Rc::new(out))
            }
            ("flat", Value::Array(items)) => Value::Array(Rc::new(
                items
                    .iter()
                    .flat_map(|v| match v {
                        Value::Array(inner) => inner.to_vec(),
                        v => vec![v.clone()],
                    })
                    .collect(),
            )),
            ("at", Value::Array(items)) => {
                let i = arg(0).number() as i64;
                let i = if i < 0 { items.len() as i64 + i } else { i };
                usize::try_from(i)
                    .ok()
                    .and_then(|i| items.get(i).cloned())
                    .unwrap_or(Value::Undefined)
            }
            (name, Value::Str(s)) => string_method(name, s, &arg(0), &arg(1))?,
            ("toFixed", Value::Num(n)) => {
                let digits = arg(0).number();
                let digits = if digits.is_nan() {
                    0
                } else {
                    digits.clamp(0.0, 20.0) as usize
                };
                Value::str(format!("{n:.digits$}"))
            }
            ("toString" | "toLocaleString", Value::Num(n)) => Value::str(number_text(*n)),
            ("keys" | "values" | "entries", _) => match arg(0) {
                Value::Object(entries) => Value::Array(Rc::new(
                    entries
                        .iter()
                        .map(|(k, v)| match builtin.name {
                            "keys" => Value::str(k.as_str()),
                            "values" => v.clone(),
                            _ => Value::Array(Rc::new(vec![Value::str(k.as_str()), v.clone()])),
                        })
                        .collect(),
                )),
                _ => Value::Array(Rc::default()),
            },
            ("round" | "floor" | "ceil" | "abs", _) => {
                let n = arg(0).number();
                Value::Num(match builtin.name {
                    "round" => (n + 0.5).floor(),
                    "floor" => n.floor(),
                    "ceil" => n.ceil(),
                    _ => n.abs(),
                })
            }
            ("min" | "max", _) => {
                let numbers = args.iter().map(Value::number);
                Value::Num(if builtin.name == "min" {
                    numbers.fold(f64::INFINITY, f64::min)
                } else {
                    numbers.fold(f64::NEG_INFINITY, f64::max)
                })
            }
            ("isArray", _) => Value::Bool(matches!(arg(0), Value::Array(_))),
            ("stringify", _) => Value::str(json(&arg(0))),
            (name, _) => return unknown(format!("a call of {name}")),
        })
    }
}

/// Method names, as `'static` strings for `Builtin`.
pub(super) const METHODS: &[&str] = &[
    "map",
    "filter",
    "join",
    "slice",
    "includes",
    "find",
    "some",
    "every",
    "indexOf",
    "concat",
    "flat",
    "at",
    "toUpperCase",
    "toLowerCase",
    "trim",
    "startsWith",
    "endsWith",
    "replace",
    "replaceAll",
    "split",
    "padStart",
    "padEnd",
    "charAt",
    "repeat",
    "toFixed",
    "toString",
    "toLocaleString",
    "keys",
    "values",
    "entries",
    "round",
    "floor",
    "ceil",
    "min",
    "max",
    "abs",
    "stringify",
    "isArray",
    "useState",
];

/// The globals a component may use: pure helpers and React's hooks.
pub(super) fn global(name: &str) -> Option<Value> {
    let builtin = |name: &'static str| {
        Some(Value::Builtin(Rc::new(Builtin {
            name,
            this: Value::Undefined,
        })))
    };
    match name {
        "useState" => builtin("useState"),
        "useEffect" | "useLayoutEffect" => builtin("useEffect"),
        "String" => builtin("String"),
        "Number" => builtin("Number"),
        "Boolean" => builtin("Boolean"),
        "Object" => builtin("Object"),
        "Math" => builtin("Math"),
        "JSON" => builtin("JSON"),
        "Array" => builtin("Array"),
        "React" => builtin("React"),
        _ => None,
    }
}

fn range(len: usize, start: &Value, end: &Value) -> (usize, usize) {
    let at = |v: &Value, default: usize| -> usize {
        match v {
            Value::Undefined => default,
            v => {
                let n = v.number() as i64;
                let n = if n < 0 { len as i64 + n } else { n };
                n.clamp(0, len as i64) as usize
            }
        }
    };
    let start = at(start, 0);
    (start, at(end, len).max(start))
}

fn string_method(name: &str, s: &str, a: &Value, b: &Value) -> Evaluated {
    Ok(match name {
        "toUpperCase" => Value::str(s.to_uppercase()),
        "toLowerCase" => Value::str(s.to_lowercase()),
        "trim" => Value::str(s.trim()),
        "includes" => Value::Bool(s.contains(&a.text())),
        "startsWith" => Value::Bool(s.starts_with(&a.text())),
        "endsWith" => Value::Bool(s.ends_with(&a.text())),
        "replace" => Value::str(s.replacen(&a.text(), &b.text(), 1)),
        "replaceAll" => Value::str(s.replace(&a.text(), &b.text())),
        "split" => Value::Array(Rc::new(match a {
            Value::Undefined => vec![Value::str(s)],
            sep => {
                let sep = sep.text();
                if sep.is_empty() {
                    s.chars().map(|c| Value::str(c.to_string())).collect()
                } else {
                    s.split(&sep).map(Value::str).collect()
                }
            }
        })),
        "slice" => {
            let chars: Vec<char> = s.chars().collect();
            let (start, end) = range(chars.len(), a, b);
            Value::str(chars[start..end].iter().collect::<String>())
        }
        "charAt" | "at" => {
            let i = a.number() as i64;
            let count = s.chars().count() as i64;
            let i = if i < 0 && name == "at" { count + i } else { i };
            Value::str(
                usize::try_from(i)
                    .ok()
                    .and_then(|i| s.chars().nth(i))
                    .map(String::from)
                    .unwrap_or_default(),
            )
        }
        "padStart" | "padEnd" => {
            let width = a.number().clamp(0.0, 10_000.0) as usize;
            let fill = match b {
                Value::Undefined => " ".to_string(),
                v => v.text(),
            };
            let missing = width.saturating_sub(s.chars().count());
            let pad: String = fill
                .chars()
                .cycle()
                .take(if fill.is_empty() { 0 } else { missing })
                .collect();
            Value::str(if name == "padStart" {
                pad + s
            } else {
                s.to_string() + &pad
            })
        }
        "repeat" => Value::str(s.repeat(a.number().clamp(0.0, 1_000.0) as usize)),
        other => return unknown(format!("a call of {other}")),
    })
}

/// `JSON.stringify` of plain data.
fn json(v: &Value) -> String {
    let value = to_json(v);
    serde_json::to_string(&value).unwrap_or_default()
}

fn to_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Null | Value::Undefined => serde_json::Value::Null,
        Value::Bool(b) => (*b).into(),
        Value::Num(n) => {
            serde_json::Number::from_f64(*n).map_or(serde_json::Value::Null, Into::into)
        }
        Value::Str(s) => s.to_string().into(),
        Value::Array(items) => items.iter().map(to_json).collect(),
        Value::Object(entries) => entries
            .iter()
            .map(|(k, v)| (k.clone(), to_json(v)))
            .collect::<serde_json::Map<_, _>>()
            .into(),
        _ => serde_json::Value::Null,
    }
}
