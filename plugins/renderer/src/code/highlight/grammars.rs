//! Which grammar highlights a fence's language here: syntect's own set first (the fastest),
//! then this renderer's few extra grammars (`syntaxes/`), then bat's collection (two-face),
//! with Shiki's names and aliases mapped to theirs.

use std::sync::OnceLock;

use syntect::parsing::{SyntaxDefinition, SyntaxReference, SyntaxSet};

/// Grammars bat's collection lacks that docs sites use, written for this renderer.
const EXTRA_SYNTAXES: &[&str] = &[
    include_str!("../syntaxes/powershell.sublime-syntax"),
    include_str!("../syntaxes/prisma.sublime-syntax"),
];

/// Fence names (lower case) that are another name of a grammar: Shiki's names and aliases
/// where they differ from the grammar's own, and what each is highlighted as.
const ALIASES: &[(&str, &str)] = &[
    ("javascript", "js"),
    ("mjs", "js"),
    ("cjs", "js"),
    ("node", "js"),
    // TypeScript is highlighted with the JavaScript grammar: bat's TypeScript grammar took
    // three times as long on a TypeScript-heavy site, for colours that differ only on types.
    ("jsx", "js"),
    ("typescript", "js"),
    ("ts", "js"),
    ("mts", "js"),
    ("cts", "js"),
    ("tsx", "js"),
    ("shell", "bash"),
    ("shellscript", "bash"),
    ("sh", "bash"),
    ("zsh", "bash"),
    ("console", "bash"),
    ("shellsession", "bash"),
    ("terminal", "bash"),
    ("curl", "bash"),
    ("fish", "fish"),
    ("ps", "PowerShell"),
    ("ps1", "PowerShell"),
    ("pwsh", "PowerShell"),
    ("powershell", "PowerShell"),
    ("bat", "Batch File"),
    ("batch", "Batch File"),
    ("cmd", "Batch File"),
    ("py", "python"),
    ("python3", "python"),
    ("py3", "python"),
    ("pycon", "python"),
    ("ipython", "python"),
    ("rs", "rust"),
    ("golang", "go"),
    ("kt", "Kotlin"),
    ("kts", "Kotlin"),
    ("kotlin", "Kotlin"),
    ("cs", "C#"),
    ("csharp", "C#"),
    ("c#", "C#"),
    ("fsharp", "F#"),
    ("f#", "F#"),
    ("c++", "C++"),
    ("cpp", "C++"),
    ("objc", "Objective-C"),
    ("objective-c", "Objective-C"),
    ("yml", "yaml"),
    ("jsonc", "json"),
    ("json5", "json"),
    ("jsonl", "json"),
    ("mdx", "md"),
    ("markdown", "md"),
    ("docker", "Dockerfile"),
    ("dockerfile", "Dockerfile"),
    ("env", "DotENV"),
    ("dotenv", "DotENV"),
    ("hcl", "Terraform"),
    ("terraform", "Terraform"),
    ("tf", "Terraform"),
    ("proto", "Protocol Buffer"),
    ("protobuf", "Protocol Buffer"),
    ("gql", "graphql"),
    ("graphql", "graphql"),
    ("prisma", "Prisma"),
    ("rb", "ruby"),
    ("toml", "toml"),
    ("tex", "latex"),
    ("make", "Makefile"),
    ("makefile", "Makefile"),
    ("vue", "vue"),
    ("svelte", "svelte"),
    ("sol", "Solidity"),
    ("solidity", "Solidity"),
    ("patch", "diff"),
    ("elixir", "ex"),
    ("erlang", "erl"),
    ("haskell", "hs"),
    ("hs", "hs"),
    ("clojure", "clj"),
    ("ocaml", "ml"),
    ("julia", "jl"),
    ("perl", "pl"),
    ("scheme", "scm"),
    ("lisp", "lisp"),
    ("groovy", "groovy"),
    ("gradle", "groovy"),
    ("properties", "properties"),
    ("ini", "ini"),
    ("conf", "ini"),
    ("nginx", "nginx"),
    ("xml", "xml"),
    ("svg", "xml"),
    ("html", "html"),
    ("http", "http"),
    ("jinja", "jinja"),
    ("twig", "twig"),
    ("regex", "re"),
    ("asm", "asm"),
    ("nasm", "asm"),
    ("cmake", "cmake"),
    ("r", "r"),
    ("matlab", "matlab"),
    ("dart", "dart"),
    ("swift", "swift"),
    ("scala", "scala"),
    ("lua", "lua"),
    ("php", "php"),
    ("sql", "sql"),
    ("zig", "zig"),
    ("nix", "nix"),
    ("crystal", "cr"),
    ("elm", "elm"),
    ("verilog", "v"),
    ("systemverilog", "sv"),
    ("glsl", "glsl"),
    ("wgsl", "wgsl"),
    ("nim", "nim"),
    ("racket", "rkt"),
    ("purescript", "purs"),
    ("d", "d"),
    ("pascal", "pas"),
    ("fortran", "f90"),
    ("csv", "csv"),
    ("less", "less"),
    ("scss", "scss"),
    ("sass", "sass"),
    ("stylus", "styl"),
    ("coffee", "coffee"),
    ("coffeescript", "coffee"),
    ("jq", "jq"),
    ("rego", "rego"),
    ("puppet", "pp"),
    ("robot", "robot"),
    ("diff", "diff"),
];

/// Fence names that mean plain text.
pub(super) const PLAIN: &[&str] = &["text", "txt", "plain", "plaintext", "output", "log", "ansi"];

/// syntect's own grammars: older and simpler than bat's, and measured 1.5 to 3 times faster on
/// real sites' code (BENCHMARKS.md, "Highlighting"), so they are used for every language they
/// cover. Loaded from syntect's dump as is: rebuilding the set to add grammars to it costs more
/// than a small page takes to render.
fn fast_grammars() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// This renderer's own grammars, in a set of their own.
fn own_grammars() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut builder = syntect::parsing::SyntaxSetBuilder::new();
        for source in EXTRA_SYNTAXES {
            // The grammars are this crate's own; a broken one is left out, not a failed page.
            if let Ok(syntax) = SyntaxDefinition::load_from_str(source, true, None) {
                builder.add(syntax);
            }
        }
        builder.build()
    })
}

/// bat's collection, for the languages syntect's own set lacks; loaded on first use.
fn wide_grammars() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(two_face::syntax::extra_newlines)
}

/// A grammar and the set it belongs to (a grammar refers to others in its own set).
pub type Grammar = (&'static SyntaxSet, &'static SyntaxReference);

/// The grammar for a fence's language name, or `None` for plain text.
pub fn syntax_for(lang: &str) -> Option<Grammar> {
    let lang = lang.trim().to_ascii_lowercase();
    if lang.is_empty() || PLAIN.contains(&lang.as_str()) {
        return None;
    }
    let token = ALIASES
        .iter()
        .find(|(alias, _)| *alias == lang)
        .map_or(lang.as_str(), |(_, to)| to);
    // Cheapest first: the wide set is only loaded for a language the others lack.
    [fast_grammars(), own_grammars(), wide_grammars()]
        .into_iter()
        .find_map(|set| {
            set.find_syntax_by_token(token)
                .or_else(|| set.find_syntax_by_name(token))
                .filter(|s| s.name != "Plain Text")
                .map(|syntax| (set, syntax))
        })
}
