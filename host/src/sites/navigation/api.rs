//! The navigation's API pages: operation entries, and documents named with no pages listed,
//! which stand for every operation (OpenAPI) or channel (AsyncAPI) in them.

use super::walker::{Inherited, Walker};
use crate::sites::NavKind;
use crate::sites::api_extensions::PageExtensions;
use crate::sites::api_pages::{self, ApiSpec};

impl Walker<'_> {
    /// A page generated for the API operation `entry`, labelled with its summary (or its
    /// `x-mint` title), hidden when the operation says `x-hidden`.
    pub(super) fn operation(&mut self, entry: &str, depth: u32, at: &str, inherited: &Inherited) {
        let operation = match inherited.spec.clone() {
            Some(spec) => self
                .document(&spec, at)
                .and_then(|d| api_pages::operation(d, entry)),
            None => None,
        };
        let extensions = operation.map(PageExtensions::of).unwrap_or_default();
        let label = extensions
            .label()
            .or_else(|| operation?.get("summary")?.as_str())
            .unwrap_or(entry)
            .to_string();
        let page =
            api_pages::operation_page(entry, inherited.spec.as_ref(), &extensions, &mut self.taken);
        let node = self.push(
            NavKind::Page,
            depth,
            &label,
            Some(page.path.clone()),
            None,
            inherited,
        );
        node.hidden |= extensions.hidden;
        self.generated.push(page);
    }

    /// Pages for every operation of `spec`, in a group per tag.
    pub(super) fn all_operations(
        &mut self,
        spec: &ApiSpec,
        depth: u32,
        at: &str,
        inherited: &Inherited,
    ) {
        let Some(groups) = self.document(spec, at).map(api_pages::all_operations) else {
            return;
        };
        for (tag, entries) in groups {
            self.push(NavKind::Group, depth, &tag, None, None, inherited);
            for entry in entries {
                self.operation(&entry, depth + 1, at, inherited);
            }
        }
    }

    /// The parsed document `spec` names; a warning at `at` the first time it cannot be read.
    fn document(&mut self, spec: &ApiSpec, at: &str) -> Option<&serde_yaml_ng::Value> {
        if !self.documents.contains_key(&spec.file) {
            let loaded = api_pages::load_document(self.root, spec);
            if let Err(problem) = &loaded {
                self.warn(at, problem.clone());
            }
            self.documents.insert(spec.file.clone(), loaded.ok());
        }
        self.documents.get(&spec.file).and_then(Option::as_ref)
    }

    /// Pages for every channel of the AsyncAPI document `spec` names.
    pub(super) fn all_channels(
        &mut self,
        spec: &ApiSpec,
        depth: u32,
        at: &str,
        inherited: &Inherited,
    ) {
        let Some(channels) = self.document(spec, at).map(api_pages::all_channels) else {
            return;
        };
        for (id, label) in channels {
            let page = api_pages::channel_page(&id, spec, &mut self.taken);
            let path = Some(page.path.clone());
            self.push(NavKind::Page, depth, &label, path, None, inherited);
            self.generated.push(page);
        }
    }
}
