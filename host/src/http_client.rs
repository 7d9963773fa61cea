//! Outgoing HTTP: every client the host builds (bundle downloads, the OpenAI-compatible
//! generator, S3 storage through opendal) speaks TLS through rustls with the *ring* crypto
//! provider, installed process-wide the first time a client is made.
//!
//! Why ring rather than rustls' default (aws-lc-rs): both are maintained and audited, but
//! aws-lc-sys is a large C and assembly build (about 290 CPU-seconds of a cold build here,
//! against about 30 for ring), and nothing Quire connects to needs a cipher only aws-lc has.

use std::sync::Once;

/// Installs the ring provider as the process's rustls default, once. Clients built before it
/// would have none: reqwest and opendal are built without a provider of their own.
pub fn install_tls() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // Err only when another provider was installed first, which is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
        opendal_http_transport_reqwest::install_default();
    });
}

/// A client builder with TLS ready: the one way to start an outgoing HTTP client.
pub fn builder() -> reqwest::ClientBuilder {
    install_tls();
    reqwest::Client::builder()
}

/// A client with default settings (no timeouts beyond the system's).
pub fn client() -> reqwest::Client {
    builder()
        .build()
        .expect("a default reqwest client builds once TLS has a provider")
}
