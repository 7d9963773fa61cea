//! Quire's default renderer: MDX and Markdown pages to a navigable static HTML site.
//!
//! The work lives in plain-Rust modules that know nothing of the component model, so they are
//! tested natively; `plugin` implements the SDK's `Renderer` over them and exports the
//! component (the SDK holds the WIT glue).

mod api;
mod api_pages;
mod banner;
mod code;
mod diagrams;
mod directory;
mod icons;
mod inline_markdown;
mod jsx;
mod layout;
mod links;
mod markup;
mod math;
mod mdx;
mod navigation;
mod not_found;
mod page;
mod raw_html;
mod script;
mod settings;
mod site;
mod site_files;
mod snippets;
mod tailwind;
mod theme;

mod plugin;

pub use code::highlight_code;
pub use navigation::{NavEntry, NavKind};
pub use page::{PageOutput, PageSource, render, render_page};
pub use plugin::DefaultRenderer;
pub use settings::Settings;
pub use site::Site;
pub use site_files::{DIAGRAMS, assets, site_output};
