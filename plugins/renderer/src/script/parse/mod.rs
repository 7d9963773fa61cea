//! A reader for the part of JavaScript that docs components are written in: declarations,
//! arrow and plain functions, `return`, `if`, literals (template literals included), arrays
//! and objects, member access, calls, the usual operators and JSX. Anything else (loops,
//! assignments, classes, regular expressions) is a `Syntax` error naming where it is, so the
//! component is reported rather than guessed at.

mod grammar;
mod jsx;
mod reader;
mod statements;

/// A syntax error: what was expected, and the source from where reading stopped.
#[derive(Debug, Clone, PartialEq)]
pub struct Syntax(pub String);

pub type Parsed<T> = Result<T, Syntax>;

/// An expression.
#[derive(Debug, Clone)]
pub enum Expr {
    Num(f64),
    Str(String),
    Bool(bool),
    Null,
    Undefined,
    Template(Vec<Piece>),
    Ident(String),
    Array(Vec<Item>),
    Object(Vec<Property>),
    /// `object.name`, `object[key]`, `object?.name`.
    Member(Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Item>),
    Function(std::rc::Rc<Function>),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    Jsx(Box<Jsx>),
}

/// A part of a template literal.
#[derive(Debug, Clone)]
pub enum Piece {
    Text(String),
    Expr(Expr),
}

/// An array element or call argument, spread (`...rest`) or not.
#[derive(Debug, Clone)]
pub struct Item {
    pub spread: bool,
    pub value: Expr,
}

/// An object literal's entry: `key: value`, `key` (shorthand) or `...spread` (no key).
#[derive(Debug, Clone)]
pub struct Property {
    pub key: Option<String>,
    pub value: Expr,
}

/// A function: its parameters and its body.
#[derive(Debug, Clone)]
pub struct Function {
    pub params: Vec<Pattern>,
    pub body: Body,
}

#[derive(Debug, Clone)]
pub enum Body {
    Expr(Expr),
    Block(Vec<Statement>),
}

/// What a declaration or parameter binds: a name, `{ a, b: c = 1 }` or `[a, b]`, each with an
/// optional default.
#[derive(Debug, Clone)]
pub enum Pattern {
    Name(String, Option<Expr>),
    Object(Vec<(String, Pattern)>, Option<Expr>),
    Array(Vec<Option<Pattern>>, Option<Expr>),
}

#[derive(Debug, Clone)]
pub enum Statement {
    Declare(Pattern, Expr),
    Return(Option<Expr>),
    If(Expr, Vec<Statement>, Vec<Statement>),
    /// An expression run for its effect (`list.push(x)`): read, never run.
    Effect,
}

/// A JSX element or fragment (`name` is `None`).
#[derive(Debug, Clone)]
pub struct Jsx {
    pub name: Option<String>,
    pub attributes: Vec<JsxAttribute>,
    pub children: Vec<JsxChild>,
}

#[derive(Debug, Clone)]
pub enum JsxAttribute {
    /// `name`, `name="text"`, `name={expr}`, `name=<el/>`.
    Named(String, Option<Expr>),
    /// `{...props}`.
    Spread(Expr),
}

#[derive(Debug, Clone)]
pub enum JsxChild {
    Text(String),
    Expr(Expr),
}

/// A top-level declaration of a module: its name and what it is bound to.
#[derive(Debug, Clone)]
pub struct Declaration {
    pub name: String,
    pub value: Parsed<Expr>,
}

/// The module's top-level declarations (`export const`, `const`, `function`), each parsed on
/// its own: one the reader cannot take is an error for that name only. Imports and other
/// statements are passed over.
pub fn module(source: &str) -> Vec<Declaration> {
    let mut out = Vec::new();
    let mut p = Parser::new(source);
    loop {
        p.skip_space();
        if p.at_end() {
            break;
        }
        let start = p.pos;
        p.eat_word("export");
        p.eat_word("default");
        if p.eat_word("const") || p.eat_word("let") || p.eat_word("var") {
            match p.name() {
                Ok(name) => {
                    p.skip_space();
                    let value = if p.eat("=") {
                        p.expression()
                    } else {
                        Err(p.error("`=`"))
                    };
                    let failed = value.is_err();
                    out.push(Declaration { name, value });
                    if failed {
                        p.pos = start;
                        p.skip_statement();
                    }
                }
                Err(_) => {
                    p.pos = start;
                    p.skip_statement();
                }
            }
        } else if p.eat_word("function") {
            let Ok(name) = p.name() else {
                p.pos = start;
                p.skip_statement();
                continue;
            };
            let value = p
                .function_rest()
                .map(|f| Expr::Function(std::rc::Rc::new(f)));
            let failed = value.is_err();
            out.push(Declaration { name, value });
            if failed {
                p.pos = start;
                p.skip_statement();
            }
        } else {
            p.pos = start;
            p.skip_statement();
        }
        p.skip_space();
        p.eat(";");
    }
    out
}

/// Parses one expression (a prop's value, for instance) and nothing after it.
pub fn expression(source: &str) -> Parsed<Expr> {
    let mut p = Parser::new(source);
    let e = p.expression()?;
    p.skip_space();
    if !p.at_end() {
        return Err(p.error("the end of the expression"));
    }
    Ok(e)
}

/// A reading position in the source, and how deeply the expression being read nests.
pub(super) struct Parser<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
}

/// Deepest nesting read; deeper is refused rather than overflowing the stack.
pub(super) const MAX_DEPTH: usize = 64;
