//! Mermaid diagrams: the script from the npm package (installed by scripts/setup, checked by
//! build.rs), carried in the bundle once and loaded only by pages that have a diagram, so it
//! draws from `file://` and with no network. quire.js draws each block in the reader's mode.

/// Where the script goes in the bundle.
pub const MERMAID_PATH: &str = concat!("assets/mermaid-", env!("QUIRE_MERMAID_VERSION"), ".min.js");

/// The script itself.
pub static MERMAID_SCRIPT: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/vendor/node_modules/mermaid/dist/mermaid.min.js"
));
