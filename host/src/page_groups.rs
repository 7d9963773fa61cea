//! Where a site's pages are cut into groups at content-defined boundaries: a page whose path
//! hashes to a multiple of the group size closes its group. The same pages close groups
//! wherever they move in the site, so an edited, added or removed page changes only the group
//! it falls in. The server's search segments (`search::segments`) and the offline index's
//! groups (`bundle::index_groups`) are both cut here, each with its own group size.

use sha2::{Digest, Sha256};

/// Whether the page at `path` closes its group of about `pages_per_group` pages.
pub fn closes_group(path: &str, pages_per_group: u64) -> bool {
    let hash = Sha256::digest(path.as_bytes());
    let mut first = [0; 8];
    first.copy_from_slice(&hash[..8]);
    u64::from_le_bytes(first).is_multiple_of(pages_per_group)
}
