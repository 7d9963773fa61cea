//! API reference pages, drawn through `markup`: an OpenAPI operation or webhook (endpoint,
//! parameters, request body, responses, examples in the side column, "Try it" form) and an
//! AsyncAPI channel (address, parameters, operations with their messages). The documents and
//! the lookup of what a page names are in `api`.

mod asyncapi;
mod endpoint;
mod fields;
mod manual;
mod openapi;
mod playground;

pub use asyncapi::render as render_channel;
pub use manual::{from_frontmatter as manual_endpoint, render as render_manual_endpoint};
pub use openapi::render as render_operation;
