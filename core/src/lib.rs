//! The model of a Quire documentation site: what the host, the plugin SDK and the default
//! plugins must read the same way, so each concept has one home (as `mdbook-core` is to mdBook).
//!
//! - [`config`]: docs.json's settings, typed and read leniently;
//! - [`frontmatter`]: a page's YAML frontmatter, read leniently, and where its body starts;
//! - [`navigation`]: navigation entries as renderers are given them;
//! - [`paths`], [`links`], [`imports`]: page keys, relative links and snippet imports;
//! - [`redirects`], [`variables`]: docs.json redirect rules and `{{placeholders}}`;
//! - [`sections`]: headings, anchors (slugs) and search sections;
//! - [`tokens`]: search tokens, server-side and in the browser;
//! - [`escape`]: the one HTML escaping rule;
//! - [`features`]: the feature file every bundle carries.
//!
//! The crate does no I/O and builds for `wasm32-wasip2`; the host depends on it directly, and
//! plugins through `quire-sdk`, which re-exports every module.

pub mod config;
pub mod escape;
pub mod features;
pub mod frontmatter;
pub mod imports;
pub mod links;
pub mod navigation;
pub mod paths;
pub mod redirects;
pub mod sections;
pub mod tokens;
pub mod variables;
