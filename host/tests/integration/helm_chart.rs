//! The Helm chart, linted and rendered with Helm's own SDK (PyPI `helm-python-sdk`; there is no
//! helm binary here) and validated against the Kubernetes schemas: `deploy/helm/test_chart.py`,
//! run with the virtualenv `scripts/setup --test` makes in `.tools/venv`.

use crate::common;

use std::process::Command;

#[test]
fn the_chart_lints_renders_and_validates() {
    let root = common::workspace();
    let python = root.join(".tools/venv/bin/python");
    assert!(
        python.exists(),
        "the chart tools are not installed: run scripts/setup --test"
    );
    let output = Command::new(python)
        .arg(root.join("deploy/helm/test_chart.py"))
        .current_dir(&root)
        .output()
        .expect("run the chart tests");
    let report = String::from_utf8_lossy(&output.stderr);
    println!("{report}");
    assert!(output.status.success(), "the chart tests failed:\n{report}");
    assert!(report.contains("Ran 8 tests"), "{report}");
}

#[test]
fn the_profiles_render() {
    let root = common::workspace();
    let python = root.join(".tools/venv/bin/python");
    assert!(python.exists(), "run scripts/setup --test");
    let script = r#"
import sys, yaml, helm_python as helm
for profile in ["cloud", "client-hosted", "air-gapped"]:
    values = yaml.safe_load(open(f"deploy/profiles/{profile}.yaml"))
    values.setdefault("staticExport", {})["bundleUrl"] = "https://api.example.com/v1/downloads/b.tar.gz"
    chart = helm.Chart.load("deploy/helm/quire")
    rendered = chart.render(values, name="docs", namespace="docs")
    chart.close()
    assert any("kind: Deployment" in text for text in rendered.values()), profile
    print(profile, "ok")
"#;
    let output = Command::new(python)
        .arg("-c")
        .arg(script)
        .current_dir(&root)
        .output()
        .expect("render the profiles");
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(out.matches(" ok").count(), 3, "{out}");
}
