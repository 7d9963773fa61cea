//! A small HTTP client for the API over a real socket: requests with the key, and the waits
//! tests share (a job to finish, an export to be half done, a bundle to download).

use std::time::{Duration, Instant};

use serde_json::Value;

use super::archive;

/// A small HTTP client for the API.
pub struct Api {
    pub base: String,
    pub key: String,
    pub http: reqwest::Client,
}

impl Api {
    pub fn new(base: &str, key: &str) -> Self {
        Self {
            base: base.to_string(),
            key: key.to_string(),
            http: quire::http_client::client(),
        }
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.key)
            .json(&body)
            .send()
            .await
            .expect("request");
        read(response).await
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let response = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.key)
            .send()
            .await
            .expect("request");
        read(response).await
    }

    /// Uploads a `.tar.gz` of `site` as version `version` of `domain`.
    pub async fn publish(&self, domain: &str, version: &str, archive: Vec<u8>) -> (u16, Value) {
        let response = self
            .http
            .post(format!(
                "{}/v1/sites/{domain}/versions?version={version}",
                self.base
            ))
            .bearer_auth(&self.key)
            .header("content-type", "application/gzip")
            .body(archive)
            .send()
            .await
            .expect("request");
        read(response).await
    }

    /// Publishes the example site as `version` of `docs.acme.test`, which must succeed (201);
    /// returns the version's record.
    pub async fn publish_example_site(&self, version: &str) -> Value {
        let archive = archive::tar_gz_dir(&super::example_site());
        let (status, record) = self.publish("docs.acme.test", version, archive).await;
        assert_eq!(status, 201, "{record}");
        record
    }

    pub async fn start_job(&self, body: Value) -> String {
        let (status, job) = self.post("/v1/static-export/jobs", body).await;
        assert_eq!(status, 202, "{job}");
        job["jobId"].as_str().expect("jobId").to_string()
    }

    /// Polls a job until it is completed or failed; returns every status seen.
    pub async fn wait_job(&self, job_id: &str, timeout: Duration) -> Vec<Value> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let (status, job) = self.get(&format!("/v1/static-export/jobs/{job_id}")).await;
            assert_eq!(status, 200, "{job}");
            let state = job["status"].as_str().unwrap_or_default().to_string();
            seen.push(job);
            if state == "completed" || state == "failed" {
                return seen;
            }
            assert!(
                Instant::now() < deadline,
                "job {job_id} did not finish: {:?}",
                seen.last()
            );
            tokio::time::sleep(Duration::from_millis(15)).await;
        }
    }

    /// Polls until the job is running and has exported some, not all, of its pages; returns
    /// the page count then (a test that interrupts an export waits for this).
    pub async fn wait_mid_export(&self, job_id: &str) -> u64 {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (_, job) = self.get(&format!("/v1/static-export/jobs/{job_id}")).await;
            let count = job["pageCount"].as_u64().unwrap_or(0);
            if job["status"] == "running" && count > 0 {
                assert!(
                    count < job["totalPages"].as_u64().unwrap_or(0),
                    "the job finished too fast to interrupt: {job}"
                );
                return count;
            }
            assert!(Instant::now() < deadline, "job never got going: {job}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// The number of pages (`pages/*.html`) in a job's downloaded bundle.
    pub async fn bundle_pages(&self, job_id: &str) -> usize {
        let (_, bytes) = self.download_bundle(job_id).await;
        archive::unpack(&bytes)
            .keys()
            .filter(|f| f.starts_with("pages/") && f.ends_with(".html"))
            .count()
    }

    /// Starts a job and waits until it is completed or failed; returns its id and last state.
    pub async fn run_job(&self, body: Value, timeout: Duration) -> (String, Value) {
        let job_id = self.start_job(body).await;
        let last = self
            .wait_job(&job_id, timeout)
            .await
            .pop()
            .expect("a job state");
        (job_id, last)
    }

    /// Generates the bundle link and downloads the archive.
    pub async fn download_bundle(&self, job_id: &str) -> (Value, Vec<u8>) {
        let (status, bundle) = self
            .post(
                &format!("/v1/static-export/jobs/{job_id}/bundle"),
                Value::Null,
            )
            .await;
        assert_eq!(status, 200, "{bundle}");
        let url = bundle["bundleUrl"].as_str().expect("bundleUrl");
        let response = self.http.get(url).send().await.expect("download");
        assert_eq!(response.status(), 200, "downloading {url}");
        let bytes = response.bytes().await.expect("body").to_vec();
        (bundle, bytes)
    }
}

async fn read(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response.text().await.unwrap_or_default();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}
