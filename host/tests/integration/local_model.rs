//! Opt-in: the OpenAI-compatible generator against a real local model server (llama.cpp's
//! llama-server with Gemma 3 270M, installed by `scripts/local-model`). Too slow to set up for
//! every run, so it is ignored by default:
//! `cargo test --release -p quire --test integration local_model -- --ignored`.

use crate::common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::Instance;
use serde_json::{Value, json};

struct ModelServer(Child);

impl Drop for ModelServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
#[ignore = "opt-in: needs scripts/local-model; run with --ignored"]
async fn a_real_local_model_answers_through_the_assistant() {
    let dir = common::workspace().join(".tools/llm");
    let (binary, model) = (
        dir.join("llama-server"),
        dir.join("gemma-3-270m-q4_k_m.gguf"),
    );
    assert!(
        binary.is_file() && model.is_file(),
        "run scripts/local-model first"
    );
    let port = common::free_port();
    let _model_server = ModelServer(
        Command::new(&binary)
            .args([
                "--host",
                "127.0.0.1",
                "--port",
                &port.to_string(),
                "-c",
                "4096",
                "-n",
                "48",
                "-t",
                "2",
            ])
            .arg("-m")
            .arg(&model)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start llama-server"),
    );
    let health = format!("http://127.0.0.1:{port}/health");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Ok(r) = quire::http_client::client().get(&health).send().await
            && r.status() == 200
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "llama-server did not become ready"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    let instance = Instance::new(&format!(
        "[assistant]\ngenerator = \"openai\"\nbase_url = \"http://127.0.0.1:{port}/v1\"\nmodel = \"gemma-3-270m\"\ntimeout_secs = 120\n"
    ));
    let key = instance.example_site_for_assistant();
    let server = instance.start();
    let question = "How are failed webhook deliveries retried?";
    let response = quire::http_client::client()
        .post(format!("{}/discovery/v1/assistant/docs.acme.test/message", server.base))
        .bearer_auth(&key)
        .json(&json!({"fp": "a", "retrievalPageSize": 2, "messages": [{"id": "u", "role": "user", "content": question, "parts": []}]}))
        .send()
        .await
        .expect("ask");
    assert_eq!(response.status(), 200);
    let stream = response.text().await.expect("stream");
    let parts: Vec<(char, Value)> = stream
        .lines()
        .map(|l| {
            let (code, json) = l.split_once(':').expect("CODE:JSON");
            (
                code.chars().next().unwrap(),
                serde_json::from_str(json).expect("JSON"),
            )
        })
        .collect();
    let errors: Vec<_> = parts.iter().filter(|(c, _)| *c == '3').collect();
    assert!(errors.is_empty(), "{errors:?}");
    let pieces: Vec<&str> = parts
        .iter()
        .filter(|(c, _)| *c == '0')
        .filter_map(|(_, v)| v.as_str())
        .collect();
    assert!(
        pieces.len() > 1,
        "the model's answer streams in pieces: {pieces:?}"
    );
    assert!(pieces.concat().trim().len() > 10, "{pieces:?}");
    assert_eq!(parts.last().unwrap().0, 'd');
    println!("local model answered: {}", pieces.concat());
}
