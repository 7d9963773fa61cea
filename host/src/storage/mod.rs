//! Object storage for content versions and bundles: an opendal `Operator` from configuration,
//! and the download links that hand bundles out.

mod links;

use std::path::Path;

use opendal::{Operator, services};

pub use links::{LinkError, LinkSigner, SignedLink};

use crate::config::{StorageBackend, StorageConfig};

/// Storage could not be set up or used.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("storage setting {0} is required for the s3 backend")]
    Missing(&'static str),
    #[error("storage error: {0}")]
    Backend(#[from] opendal::Error),
}

/// Builds the operator for `config`; the local filesystem backend defaults to
/// `{data_dir}/storage`.
pub fn operator(config: &StorageConfig, data_dir: &Path) -> Result<Operator, StorageError> {
    match config.backend {
        StorageBackend::Fs => {
            let root = config
                .root
                .clone()
                .unwrap_or_else(|| data_dir.join("storage").to_string_lossy().into_owned());
            Ok(Operator::new(services::Fs::default().root(&root))?)
        }
        StorageBackend::S3 => {
            // opendal's HTTP services need a process-wide transport (reqwest with rustls).
            crate::http_client::install_tls();
            let bucket = config
                .bucket
                .as_deref()
                .ok_or(StorageError::Missing("bucket"))?;
            let mut builder = services::S3::default()
                .bucket(bucket)
                .region(config.region.as_deref().unwrap_or("us-east-1"))
                .root(config.root.as_deref().unwrap_or("/"));
            if let Some(endpoint) = &config.endpoint {
                builder = builder.endpoint(endpoint);
            }
            if let Some(key) = &config.access_key_id {
                builder = builder.access_key_id(key);
            }
            if let Some(secret) = &config.secret_access_key {
                builder = builder.secret_access_key(secret);
            }
            Ok(Operator::new(builder)?)
        }
    }
}

/// Makes `to` hold what `from` holds without sending the bytes again, where the object store
/// can: a copy within the service (S3). False when it cannot, and the caller writes the bytes
/// itself. (Local filesystem storage links files instead: `publishing` copies a version's
/// files there with plain file calls.)
pub async fn reuse_object(operator: &Operator, from: &str, to: &str) -> bool {
    operator.info().capability().copy && operator.copy(from, to).await.is_ok()
}

/// Where `path` is on disk, when `operator` is local filesystem storage: what is read often
/// and in bulk there (render cache entries, page sources) is read as plain files, since
/// opendal's reader zero-fills a buffer before every read (a twentieth of a large site's
/// one-page publish, BENCHMARKS.md).
pub fn local_path(operator: &Operator, path: &str) -> Option<std::path::PathBuf> {
    let info = operator.info();
    (info.scheme() == LOCAL_FILESYSTEM)
        .then(|| std::path::PathBuf::from(info.root()).join(path.trim_start_matches('/')))
}

/// What names `path` in `operator`'s storage among every storage a process uses (its scheme,
/// name and root, and the path): the key of what a process keeps of a stored object.
pub fn location(operator: &Operator, path: &str) -> String {
    let info = operator.info();
    format!("{}://{}{}|{path}", info.scheme(), info.name(), info.root())
}

/// The scheme of opendal's local filesystem service, whose root is an absolute path.
const LOCAL_FILESYSTEM: &str = "fs";

/// Where things live in storage.
pub mod paths {
    /// Folder of one content version.
    pub fn version_dir(domain: &str, label: &str) -> String {
        format!("sites/{domain}/versions/{label}/")
    }

    /// The version's description: navigation, pages and files.
    pub fn version_manifest(domain: &str, label: &str) -> String {
        format!("{}site.json", version_dir(domain, label))
    }

    /// The version's search index, built by the retriever at publish time.
    pub fn search_index(domain: &str, label: &str) -> String {
        format!("{}search-index.bin", version_dir(domain, label))
    }

    /// The version's vocabulary (`quire_answer::vocabulary`), counted beside the search index.
    pub fn search_vocabulary(domain: &str, label: &str) -> String {
        format!("{}search-vocabulary.json", version_dir(domain, label))
    }

    /// One source file of a content version.
    pub fn version_file(domain: &str, label: &str, file: &str) -> String {
        format!("{}files/{file}", version_dir(domain, label))
    }

    /// The folder of a content version's source files.
    pub fn version_files(domain: &str, label: &str) -> String {
        version_file(domain, label, "")
    }

    /// Where the render cache keeps pages (`rendering::RenderCache`), shared by every site:
    /// an entry is named by the hash of everything its page was rendered from.
    pub const RENDER_CACHE: &str = "render-cache";

    /// Where the segments of every version's search index are kept, under the hash of what
    /// they were built from; a version's index names its segments. Never trimmed: versions
    /// are kept, and so is what they name.
    pub const SEARCH_SEGMENTS: &str = "search-segments";

    /// Where uploads are unpacked when storage is a local folder: on the disk of the
    /// versions, so that an upload's unchanged files are links to the version before and its
    /// folder becomes the new version's by a rename (`publishing`). Each upload's folder is
    /// removed when its request ends.
    pub const UPLOADS: &str = "uploads";

    /// Where archives live; a download link names an archive by what follows.
    const BUNDLES: &str = "bundles/";

    /// A job's archive.
    pub fn bundle(job_id: &str, extension: &str) -> String {
        bundle_named(&format!("{job_id}.{extension}"))
    }

    /// The archive a download link names by its file name (`{job}.tar.gz`).
    pub fn bundle_named(file: &str) -> String {
        format!("{BUNDLES}{file}")
    }

    /// The file name a download link names an archive by: its path without the folder.
    pub fn bundle_file_name(path: &str) -> &str {
        path.strip_prefix(BUNDLES).unwrap_or(path)
    }

    /// A job's delta archive: the files its archive has and the site's earlier one lacks.
    pub fn bundle_delta(job_id: &str, extension: &str) -> String {
        bundle(&format!("{job_id}.delta"), extension)
    }

    /// The index of a job's archive (`export::assembly`), for the next export to copy from.
    pub fn archive_index(job_id: &str) -> String {
        format!("jobs/{job_id}/archive-index.json")
    }

    /// Which archive the packager hashing to `packager` last wrote for `domain`.
    pub fn last_archive(domain: &str, packager: &str) -> String {
        format!("sites/{domain}/last-archive/{packager}.json")
    }

    /// Every warning of a finished export job, as a JSON list: the job record keeps the first
    /// 500, and a large site can have more.
    pub fn job_warnings(job_id: &str) -> String {
        format!("jobs/{job_id}/warnings.json")
    }
}
