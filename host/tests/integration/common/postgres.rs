//! A throwaway PostgreSQL server on loopback (Debian's packages, installed by `scripts/setup
//! --test`), started for a test and stopped when dropped, and fresh databases on it.
//!
//! When `QUIRE_TEST_POSTGRES` names a server (`scripts/with-postgres` starts one to run the API suite
//! second pass, on PostgreSQL), instances take their databases from it instead.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// A running PostgreSQL, stopped (and its files removed) when dropped.
pub struct Postgres {
    dir: tempfile::TempDir,
    pub port: u16,
}

/// The newest `bin` folder of Debian's PostgreSQL packages.
fn bin_dir() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is not installed: run scripts/setup --test")
        .filter_map(|entry| entry.ok().map(|e| e.path().join("bin")))
        .filter(|bin| bin.join("initdb").is_file())
        .collect();
    found.sort();
    found.pop().expect("no /usr/lib/postgresql/*/bin/initdb")
}

/// `program args`, as the `postgres` user when we are root (PostgreSQL refuses to run as root).
fn as_server_user(program: PathBuf, args: &[&str]) -> Command {
    if is_root() {
        let mut command = Command::new("runuser");
        command
            .args(["-u", "postgres", "--"])
            .arg(program)
            .args(args);
        command
    } else {
        let mut command = Command::new(program);
        command.args(args);
        command
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

impl Postgres {
    pub fn start() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().to_str().expect("utf-8 path").to_string();
        if is_root() {
            let status = Command::new("chown")
                .args(["-R", "postgres", &path])
                .status()
                .expect("chown");
            assert!(status.success(), "cannot give {path} to the postgres user");
        }
        let data = format!("{path}/data");
        let out = as_server_user(
            bin_dir().join("initdb"),
            &["-D", &data, "-A", "trust", "-U", "quire", "--no-sync"],
        )
        .output()
        .expect("run initdb");
        assert!(
            out.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = super::free_port();
        let options = format!("-k {path} -p {port} -h 127.0.0.1 -c fsync=off");
        let log = format!("{path}/log");
        let out = as_server_user(
            bin_dir().join("pg_ctl"),
            &["-D", &data, "-o", &options, "-l", &log, "-w", "start"],
        )
        .output()
        .expect("run pg_ctl");
        assert!(
            out.status.success(),
            "PostgreSQL did not start: {}{}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        let server = Self { dir, port };
        server.wait_ready();
        server
    }

    fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "PostgreSQL did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The server's URL (its `postgres` database).
    pub fn url(&self) -> String {
        format!("postgres://quire@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.dir.path().join("data");
        let _ = as_server_user(
            bin_dir().join("pg_ctl"),
            &[
                "-D",
                data.to_str().unwrap_or_default(),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
        )
        .output();
    }
}

/// A new, empty database on the server at `server_url` (`postgres://.../postgres`); returns its
/// URL.
pub fn new_database(server_url: &str) -> String {
    let name = format!("quire_{}", super::unique_suffix());
    let out = Command::new(bin_dir().join("psql"))
        .args([server_url, "-v", "ON_ERROR_STOP=1", "-qc"])
        .arg(format!("CREATE DATABASE {name}"))
        .output()
        .expect("run psql");
    assert!(
        out.status.success(),
        "cannot create a database: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    match server_url.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{name}"),
        None => panic!("not a database URL: {server_url}"),
    }
}

/// The server the whole test run shares, when `scripts/test` started one.
pub fn shared_server() -> Option<String> {
    std::env::var("QUIRE_TEST_POSTGRES")
        .ok()
        .filter(|url| !url.is_empty())
}

/// Which store instances of this run keep their records in (the benchmarks print it).
#[allow(dead_code)]
pub fn store_name() -> &'static str {
    if shared_server().is_some() {
        "PostgreSQL"
    } else {
        "redb"
    }
}
