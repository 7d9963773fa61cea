//! Where the host's own types become the contract's: the one conversion between the
//! navigation kinds the host stores (`quire_core`'s `NavKind`, shared with every Rust plugin) and
//! the `nav-kind` of the WIT bindings the runtime calls plugins with.

use quire_core::navigation::NavKind;
use quire_runtime::NavKind as ContractNavKind;

/// The contract's `nav-kind` for `kind`.
pub fn nav_kind(kind: NavKind) -> ContractNavKind {
    match kind {
        NavKind::Group => ContractNavKind::Group,
        NavKind::Page => ContractNavKind::Page,
        NavKind::Tab => ContractNavKind::Tab,
        NavKind::Link => ContractNavKind::Link,
        NavKind::Anchor => ContractNavKind::Anchor,
        NavKind::Dropdown => ContractNavKind::Dropdown,
        NavKind::Product => ContractNavKind::Product,
        NavKind::Version => ContractNavKind::Version,
        NavKind::Language => ContractNavKind::Language,
    }
}
