//! HTML, SVG and MathML as pages write them: the vocabularies' element names and JSX attribute
//! spellings (`vocabulary`), and the allow-list every raw element passes through (`sanitize`).
//! Leaf helpers: the markup writes raw elements with them, and icons given as SVG code are
//! cleaned by the same sanitiser.

pub(crate) mod sanitize;
pub(crate) mod vocabulary;
