//! Test harness: runs the real `quire` binary (CLI commands and `quire serve`) on a temporary
//! data directory and a free loopback port, and speaks to it over HTTP.

mod api;
pub mod archive;
pub mod postgres;
pub mod s3;
pub mod sites;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub use api::Api;

/// Compiled plugins shared by every instance of the test run: compiling the components is the
/// slowest part of starting `quire`, and artifacts are keyed by the component's bytes.
const SHARED_PLUGIN_CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/plugin-cache");

/// The compiled-plugin cache every instance of the run shares, for a `quire` started by
/// another program (an MCP client).
pub fn plugin_cache() -> &'static str {
    SHARED_PLUGIN_CACHE
}

/// A data directory with a config file, on which CLI commands and servers run.
pub struct Instance {
    pub dir: tempfile::TempDir,
    pub port: u16,
    /// Whether compiled plugins go to the run's shared cache rather than the data directory.
    shared_plugin_cache: bool,
}

impl Instance {
    /// A new instance whose config file holds `extra_config` (TOML) besides the listen address.
    ///
    /// When the run shares a PostgreSQL server (`QUIRE_TEST_POSTGRES`), the instance keeps its
    /// records in a fresh database of its own there instead of the embedded store.
    pub fn new(extra_config: &str) -> Self {
        let database = match postgres::shared_server() {
            Some(server) if !extra_config.contains("[database]") => format!(
                "[database]\nurl = \"{}\"\n",
                postgres::new_database(&server)
            ),
            _ => String::new(),
        };
        Self::with_config(&format!("{database}\n{extra_config}"))
    }

    /// A new instance with exactly `extra_config` besides the listen address.
    pub fn with_config(extra_config: &str) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let port = free_port();
        let config = format!("[server]\nlisten = \"127.0.0.1:{port}\"\n\n{extra_config}\n");
        std::fs::write(dir.path().join("quire.toml"), config).expect("config");
        Self {
            dir,
            port,
            shared_plugin_cache: true,
        }
    }

    /// Another instance on this one's database and storage (S3, or else this one's `storage`
    /// folder): a second `quire serve` replica. This one must keep its records in PostgreSQL.
    pub fn replica(&self) -> Instance {
        let config = std::fs::read_to_string(self.dir.path().join("quire.toml")).expect("config");
        assert!(
            config.contains("[database]"),
            "replicas need a shared database: run under scripts/with-postgres"
        );
        let shared: Vec<&str> = config
            .lines()
            .filter(|line| *line != "[server]" && !line.starts_with("listen"))
            .collect();
        let storage = if config.contains("[storage]") {
            String::new()
        } else {
            format!(
                "[storage]\nroot = \"{}\"\n",
                self.data_dir().join("storage").display()
            )
        };
        Self::with_config(&format!("{}\n{storage}", shared.join("\n")))
    }

    /// This instance keeps its compiled plugins in its own data directory, the default.
    pub fn with_own_plugin_cache(mut self) -> Self {
        self.shared_plugin_cache = false;
        self
    }

    /// `quire --data-dir DATA --config CONFIG`, ready for a command's arguments.
    pub fn command(&self) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_quire"));
        command
            .arg("--data-dir")
            .arg(self.data_dir())
            .arg("--config")
            .arg(self.dir.path().join("quire.toml"));
        if self.shared_plugin_cache {
            command.env("QUIRE_PLUGINS__CACHE_DIR", SHARED_PLUGIN_CACHE);
        }
        command
    }

    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Runs `quire ARGS` against this instance and returns its output.
    pub fn cli(&self, args: &[&str]) -> Output {
        self.command().args(args).output().expect("run quire")
    }

    /// Runs `quire ARGS`, asserts success and returns its stdout, trimmed.
    pub fn cli_ok(&self, args: &[&str]) -> String {
        let out = self.cli(args);
        assert!(
            out.status.success(),
            "quire {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Publishes the site folder at `site` as `domain` for `org` with `quire site publish`, as
    /// version `version` if given; returns the version's label.
    pub fn publish_folder(
        &self,
        domain: &str,
        site: &str,
        org: &str,
        version: Option<&str>,
    ) -> String {
        let mut args = vec!["site", "publish", domain, site, "--org", org];
        if let Some(version) = version {
            args.extend(["--version", version]);
        }
        self.cli_ok(&args)
    }

    /// Creates an organization with an admin key and returns the key.
    pub fn organization(&self, name: &str, plan: &str) -> String {
        self.cli_ok(&["org", "create", name, "--plan", plan]);
        self.cli_ok(&["key", "create", "--org", name, "--kind", "admin"])
    }

    /// Creates an enterprise organization `acme` and publishes a generated site of `pages`
    /// pages as version v1 of `domain`; returns the admin key.
    pub fn generated_site(&self, domain: &str, pages: usize) -> String {
        let key = self.organization("acme", "enterprise");
        let site = tempfile::tempdir().expect("site dir");
        sites::generate(site.path(), pages);
        let path = site.path().to_str().expect("utf-8 path");
        self.publish_folder(domain, path, "acme", Some("v1"));
        key
    }

    /// Creates the organization `acme` (pro plan); returns a new assistant key of it.
    pub fn acme_assistant_key(&self) -> String {
        self.organization("acme", "pro");
        self.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"])
    }

    /// Creates the organization `acme` (pro plan) and publishes the example site as
    /// `docs.acme.test`; returns a new assistant key.
    pub fn example_site_for_assistant(&self) -> String {
        let key = self.acme_assistant_key();
        let site = example_site();
        let path = site.to_str().expect("utf-8 path");
        self.publish_folder("docs.acme.test", path, "acme", None);
        key
    }

    /// Starts `quire serve` and waits until it answers.
    pub fn start(&self) -> Server {
        let log_path = self.dir.path().join(format!("server-{}.log", now_millis()));
        let log = std::fs::File::create(&log_path).expect("log file");
        let child = self
            .command()
            .arg("serve")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start quire serve");
        let mut server = Server {
            child: Some(child),
            base: self.base_url(),
            log_path,
        };
        server.wait_ready();
        server
    }
}

impl Instance {
    /// The API of this instance, started in this process (store, storage, plugins, export
    /// workers) and answered without a socket: for tables of requests where a socket adds
    /// nothing but time. End-to-end paths use [`Instance::start`].
    pub async fn in_process(&self) -> InProcess {
        let mut config =
            quire::config::Config::load(Some(&self.dir.path().join("quire.toml"))).expect("config");
        if self.shared_plugin_cache {
            config.plugins.cache_dir = Some(SHARED_PLUGIN_CACHE.into());
        }
        let server = quire::server::Server::start(config, &self.data_dir())
            .await
            .expect("start the API in-process");
        InProcess {
            router: server.router(),
            server: Some(server),
        }
    }

    /// Starts `quire dev SITE` on a free port and waits until its first build is served.
    pub fn dev(&self, site: &Path) -> Server {
        let port = free_port();
        let log_path = self.dir.path().join(format!("dev-{}.log", now_millis()));
        let log = std::fs::File::create(&log_path).expect("log file");
        let child = self
            .command()
            .arg("dev")
            .arg(site)
            .arg("--listen")
            .arg(format!("127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start quire dev");
        let mut server = Server {
            child: Some(child),
            base: format!("http://127.0.0.1:{port}"),
            log_path,
        };
        server.wait_ready();
        server
    }
}

/// Starts `quire docs-server` on a free port with `data_dir` and `args`; waits until it listens.
pub fn docs_server(data_dir: &Path, args: &[&str]) -> Server {
    let port = free_port();
    let log_path = data_dir.with_extension(format!("log-{}", now_millis()));
    let log = std::fs::File::create(&log_path).expect("log file");
    let child = Command::new(env!("CARGO_BIN_EXE_quire"))
        .arg("--data-dir")
        .arg(data_dir)
        .arg("docs-server")
        .arg("--listen")
        .arg(format!("127.0.0.1:{port}"))
        .args(args)
        .env_remove("QUIRE_BUNDLE_URL")
        .env_remove("QUIRE_DEPLOYMENT")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start quire docs-server");
    let mut server = Server {
        child: Some(child),
        base: format!("http://127.0.0.1:{port}"),
        log_path,
    };
    server.wait_ready();
    server
}

/// The API started in-process; its workers stop with [`InProcess::stop`].
pub struct InProcess {
    router: axum::Router,
    server: Option<quire::server::Server>,
}

impl InProcess {
    /// Sends `request` through the API, as from a client on 127.0.0.1, and returns the status
    /// and the body as JSON (`Null` when it is not JSON).
    pub async fn send(&self, mut request: axum::http::Request<axum::body::Body>) -> (u16, Value) {
        use tower::ServiceExt;
        // What a socket gives every request: the peer's address (rate limits count by it).
        let peer = std::net::SocketAddr::from(([127, 0, 0, 1], 40_000));
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(peer));
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("infallible");
        let status = response.status().as_u16();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("body");
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// Stops the export workers and waits for them.
    pub async fn stop(mut self) {
        if let Some(server) = self.server.take() {
            server.stop().await;
        }
    }
}

/// A running `quire` server process; killed when dropped.
pub struct Server {
    child: Option<Child>,
    pub base: String,
    pub log_path: PathBuf,
}

impl Server {
    fn wait_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                panic!("the server exited with {status}: {}", self.log());
            }
            if std::net::TcpStream::connect(self.base.trim_start_matches("http://")).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the server did not start: {}", self.log());
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log_path).unwrap_or_default()
    }

    /// The server's process id (the benchmarks read its memory use by it).
    #[allow(dead_code)]
    pub fn pid(&self) -> u32 {
        self.child.as_ref().map(Child::id).unwrap_or(0)
    }

    /// Sends `signal` (`-KILL`, `-TERM`) and waits for the process to end.
    pub fn signal(&mut self, signal: &str) -> std::process::ExitStatus {
        let mut child = self.child.take().expect("server running");
        let status = Command::new("kill")
            .arg(signal)
            .arg(child.id().to_string())
            .status()
            .expect("kill");
        assert!(status.success());
        child.wait().expect("wait for server")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A port nobody listens on right now.
///
/// The port is free now, but the server that takes it starts later. A port the system hands
/// out for `bind(":0")` (as the tests' stand-in servers bind) could be handed out again in
/// between, and one test's requests would then reach another's server. So ports come from
/// below the system's ephemeral range (32768 and up on Linux), one after another.
pub fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU16, Ordering};
    const FIRST: u16 = 20_000;
    const SPAN: u16 = 12_000;
    // Test binaries running side by side start at different places.
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let start = (std::process::id() % u32::from(SPAN)) as u16;
    for _ in 0..SPAN {
        let offset = (start + NEXT.fetch_add(1, Ordering::Relaxed) % SPAN) % SPAN;
        let port = FIRST + offset;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port between {FIRST} and {}", FIRST + SPAN);
}

/// A suffix no other call in this test run returns.
pub fn unique_suffix() -> String {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    format!("{}_{}_{n}", std::process::id(), now_millis())
}

fn now_millis() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0)
}

/// The workspace's root folder.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The example site shipped in `examples/docs`.
pub fn example_site() -> PathBuf {
    workspace().join("examples").join("docs")
}

/// A built WebAssembly component from this workspace (`quire_hostile_renderer`, ...).
pub fn wasm(name: &str) -> PathBuf {
    let path = workspace()
        .join("target/wasm32-wasip2/release")
        .join(format!("{name}.wasm"));
    assert!(
        path.is_file(),
        "{} is missing: run scripts/build-plugins",
        path.display()
    );
    path
}
