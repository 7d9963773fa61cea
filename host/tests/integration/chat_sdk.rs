//! The real chat SDK talking to a real server: the Node tests in `tests/chat-sdk/` post the way
//! `useChat` does and parse our streams with the SDK's own functions: `ai@4` (with
//! `@ai-sdk/ui-utils`) on v1, `ai@5` (latest 5.0 and 5.0.0) on v2. `scripts/setup --test`
//! installs the npm packages.

use crate::common;

use std::process::Command;

use crate::common::Instance;

fn run_node_tests(file: &str, passes: usize) {
    let sdk_dir = common::workspace().join("host/tests/chat-sdk");
    assert!(
        sdk_dir.join("node_modules/ai").is_dir(),
        "the chat SDK is not installed: run scripts/setup --test"
    );
    let instance = Instance::new("");
    let key = instance.example_site_for_assistant();
    let server = instance.start();

    let output = Command::new("node")
        .arg("--test")
        .arg(file)
        .current_dir(&sdk_dir)
        .env("QUIRE_URL", &server.base)
        .env("QUIRE_KEY", &key)
        .env("QUIRE_DOMAIN", "docs.acme.test")
        .output()
        .expect("run node");
    let report = String::from_utf8_lossy(&output.stdout);
    println!("{report}");
    assert!(
        output.status.success(),
        "the chat SDK tests failed:\n{report}\n{}\nserver log:\n{}",
        String::from_utf8_lossy(&output.stderr),
        server.log()
    );
    assert!(report.contains(&format!("# pass {passes}")), "{report}");
}

#[test]
fn the_generation_4_chat_sdk_reads_our_v1_stream() {
    run_node_tests("v1.test.mjs", 4);
}

#[test]
fn the_generation_5_chat_sdk_reads_our_v2_stream() {
    run_node_tests("v2.test.mjs", 5);
}
