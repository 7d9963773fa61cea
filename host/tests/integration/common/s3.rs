//! A real S3-compatible server (s3s-fs, installed by `scripts/setup --test`) on 127.0.0.1,
//! started for a test and stopped when dropped.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ACCESS_KEY: &str = "quire-test-access";
const SECRET_KEY: &str = "quire-test-secret-0123456789";
const BUCKET: &str = "quire";

/// A running s3s-fs, stopped when dropped.
pub struct S3Server {
    child: Child,
    pub port: u16,
    dir: tempfile::TempDir,
}

impl S3Server {
    pub fn start() -> Self {
        let binary = std::env::var_os("QUIRE_S3S_FS")
            .map(PathBuf::from)
            .unwrap_or_else(|| super::workspace().join(".tools/bin/s3s-fs"));
        assert!(
            binary.is_file(),
            "{} is missing: run scripts/setup --test",
            binary.display()
        );
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(BUCKET)).unwrap();
        let port = super::free_port();
        let child = Command::new(binary)
            .args([
                "--host",
                "127.0.0.1",
                "--port",
                &port.to_string(),
                "--access-key",
                ACCESS_KEY,
                "--secret-key",
                SECRET_KEY,
            ])
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start s3s-fs");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "s3s-fs did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Self { child, port, dir }
    }

    /// The `[storage]` section that points a `quire` at this server.
    pub fn config(&self) -> String {
        format!(
            "[storage]\nbackend = \"s3\"\nendpoint = \"http://127.0.0.1:{}\"\nbucket = \"{BUCKET}\"\nregion = \"us-east-1\"\n\
             access_key_id = \"{ACCESS_KEY}\"\nsecret_access_key = \"{SECRET_KEY}\"\nroot = \"/quire-test\"\n",
            self.port
        )
    }

    /// Where s3s-fs keeps an object on disk.
    pub fn object(&self, key: &str) -> PathBuf {
        self.dir.path().join(BUCKET).join("quire-test").join(key)
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
