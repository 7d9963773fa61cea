"""Lints and renders the Quire chart with several value sets, and validates the output against
the Kubernetes schemas (offline). Run by tests/helm_chart.rs with the virtualenv that
scripts/setup --test makes (.tools/venv: helm-python-sdk, kubernetes-validate, yamllint)."""

import os
import subprocess
import sys
import tempfile
import unittest

import helm_python as helm
import yaml

CHART = os.path.join(os.path.dirname(os.path.abspath(__file__)), "quire")
KUBERNETES = "1.30.0"
LINK = "https://api.acme.test/v1/downloads/se_1.tar.gz?expires=1900000000&signature=abc"
DELTA = "https://api.acme.test/v1/downloads/se_1.delta.tar.gz?expires=1900000000&signature=def"

VALUE_SETS = {
    "cloud defaults": {"staticExport": {"bundleUrl": LINK}},
    "client-hosted with everything": {
        "deployment": {"type": "client-hosted"},
        "features": {"assistant": True, "analytics": False, "bundleAssistant": False},
        "staticExport": {"bundleUrl": LINK, "deltaUrl": DELTA, "version": "v3"},
        "docsServer": {
            "apiUrl": "https://docs.acme.test",
            "assistantKey": {"existingSecret": "quire-keys"},
        },
        "persistence": {"enabled": True, "storageClass": "fast"},
        "ingress": {
            "enabled": True,
            "className": "nginx",
            "hosts": [{"host": "docs.acme.test", "paths": [{"path": "/", "pathType": "Prefix"}]}],
            "tls": [{"hosts": ["docs.acme.test"], "secretName": "docs-tls"}],
        },
        "api": {
            "enabled": True,
            "config": "[links]\nlifetime_secs = 86400\n",
            "s3": {"enabled": True, "endpoint": "https://s3.acme.test", "bucket": "quire", "existingSecret": "quire-s3"},
        },
    },
    "API replicas on PostgreSQL": {
        "staticExport": {"bundleUrl": LINK},
        "api": {
            "enabled": True,
            "replicas": 3,
            "database": {"existingSecret": "quire-db"},
            "s3": {"enabled": True, "endpoint": "https://s3.acme.test", "bucket": "quire", "existingSecret": "quire-s3"},
        },
    },
    "air-gapped, pinned": {
        "deployment": {"type": "air-gapped"},
        "features": {"playground": False},
        "staticExport": {"bundleUrl": LINK, "version": "v1"},
    },
}


def render(values, name="docs"):
    chart = helm.Chart.load(CHART)
    try:
        return chart.render(values, name=name, namespace="docs")
    finally:
        chart.close()


def documents(rendered):
    docs = []
    for path, text in rendered.items():
        if not path.endswith(".yaml"):
            continue
        for doc in yaml.safe_load_all(text):
            if doc:
                docs.append(doc)
    return docs


def find(docs, kind, suffix):
    for doc in docs:
        if doc["kind"] == kind and doc["metadata"]["name"].endswith(suffix):
            return doc
    raise AssertionError(f"no {kind} named *{suffix}")


def env_of(deployment):
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container["env"]}


class ChartTest(unittest.TestCase):
    def test_lint_is_clean_for_every_value_set(self):
        for label, values in VALUE_SETS.items():
            with self.subTest(label):
                result = helm.lint(CHART, values, strict=True, namespace="docs", kube_version=KUBERNETES)
                messages = [m for m in result.get("messages", []) if m.get("severity", "") not in ("", "INFO", 1)]
                errors = result.get("errors") or []
                self.assertFalse(errors, f"{label}: {result}")
                self.assertFalse(messages, f"{label}: {result}")

    def test_rendered_manifests_pass_the_kubernetes_schemas(self):
        for label, values in VALUE_SETS.items():
            with self.subTest(label), tempfile.TemporaryDirectory() as tmp:
                files = []
                for path, text in render(values).items():
                    if not path.endswith(".yaml") or not text.strip():
                        continue
                    target = os.path.join(tmp, path.replace("/", "_"))
                    with open(target, "w") as f:
                        f.write(text)
                    files.append(target)
                self.assertTrue(files)
                run = subprocess.run(
                    [os.path.join(os.path.dirname(sys.executable), "kubernetes-validate"),
                     "--strict", "-k", KUBERNETES, *files],
                    capture_output=True, text=True,
                )
                self.assertEqual(run.returncode, 0, f"{label}:\n{run.stdout}\n{run.stderr}")
                lint = subprocess.run(
                    [os.path.join(os.path.dirname(sys.executable), "yamllint"), "-d",
                     "{extends: relaxed, rules: {line-length: disable}}", *files],
                    capture_output=True, text=True,
                )
                self.assertEqual(lint.returncode, 0, f"{label}:\n{lint.stdout}")

    def test_values_reach_the_docs_server_as_spec_names_them(self):
        docs = documents(render(VALUE_SETS["client-hosted with everything"]))
        env = env_of(find(docs, "Deployment", "-docs"))
        self.assertEqual(env["QUIRE_BUNDLE_URL"], LINK)
        self.assertEqual(env["QUIRE_DELTA_URL"], DELTA)
        self.assertNotIn("QUIRE_DELTA_URL", env_of(find(documents(render(VALUE_SETS["cloud defaults"])), "Deployment", "-docs")))
        self.assertEqual(env["QUIRE_BUNDLE_VERSION"], "v3")
        self.assertEqual(env["QUIRE_DEPLOYMENT"], "client-hosted")
        self.assertEqual(env["QUIRE_FEATURE_ASSISTANT"], "true")
        self.assertEqual(env["QUIRE_FEATURE_ANALYTICS"], "false")
        self.assertNotIn("QUIRE_FEATURE_SEARCH", env)
        self.assertEqual(env["QUIRE_FEATURE_BUNDLE_ASSISTANT"], "false")
        self.assertEqual(env["QUIRE_ASSISTANT_KEY"]["secretKeyRef"]["name"], "quire-keys")
        volumes = find(docs, "Deployment", "-docs")["spec"]["template"]["spec"]["volumes"]
        self.assertIn("persistentVolumeClaim", volumes[0])
        find(docs, "PersistentVolumeClaim", "-versions")
        api = find(docs, "StatefulSet", "-api")
        api_env = env_of(api)
        self.assertEqual(api_env["QUIRE_STORAGE__BACKEND"], "s3")
        self.assertEqual(api_env["QUIRE_STORAGE__SECRET_ACCESS_KEY"]["secretKeyRef"]["name"], "quire-s3")
        self.assertEqual(api_env["QUIRE_DEPLOYMENT__TYPE"], "client-hosted")
        ingress = find(docs, "Ingress", "")
        paths = [p["path"] for p in ingress["spec"]["rules"][0]["http"]["paths"]]
        self.assertEqual(paths, ["/", "/discovery"])

    def test_api_replicas_share_a_database_from_a_secret(self):
        docs = documents(render(VALUE_SETS["API replicas on PostgreSQL"]))
        api = find(docs, "Deployment", "-api")
        self.assertEqual(api["spec"]["replicas"], 3)
        env = env_of(api)
        self.assertEqual(env["QUIRE_DATABASE__URL"]["secretKeyRef"], {"name": "quire-db", "key": "url"})
        self.assertEqual(env["QUIRE_STORAGE__BACKEND"], "s3")
        container = api["spec"]["template"]["spec"]["containers"][0]
        self.assertEqual(container["readinessProbe"]["httpGet"]["path"], "/readyz")
        budget = find(docs, "PodDisruptionBudget", "-api")
        self.assertEqual(budget["spec"]["minAvailable"], 1)
        self.assertEqual(budget["spec"]["selector"]["matchLabels"]["app.kubernetes.io/component"], "api")
        self.assertFalse([d for d in docs if d["kind"] == "StatefulSet"])
        find(docs, "Service", "-api")

    def test_api_replicas_without_a_shared_store_are_refused(self):
        cases = [
            ({"api": {"enabled": True, "replicas": 2}}, "needs a shared database"),
            ({"api": {"enabled": True, "database": {"existingSecret": "quire-db"}}}, "api.database needs api.s3"),
        ]
        for values, message in cases:
            with self.subTest(message):
                values["staticExport"] = {"bundleUrl": LINK}
                with self.assertRaises(helm.HelmError) as raised:
                    render(values)
                self.assertIn(message, str(raised.exception))

    def test_defaults_use_an_empty_dir_and_no_api(self):
        docs = documents(render(VALUE_SETS["cloud defaults"]))
        volumes = find(docs, "Deployment", "-docs")["spec"]["template"]["spec"]["volumes"]
        self.assertEqual(volumes[0]["emptyDir"], {})
        self.assertFalse([d for d in docs if d["kind"] == "StatefulSet"])

    def test_a_new_link_or_pin_rolls_the_pods(self):
        def checksum(values):
            deployment = find(documents(render(values)), "Deployment", "-docs")
            return deployment["spec"]["template"]["metadata"]["annotations"]["checksum/bundle"]

        base = checksum({"staticExport": {"bundleUrl": LINK}})
        self.assertEqual(base, checksum({"staticExport": {"bundleUrl": LINK}}))
        self.assertNotEqual(base, checksum({"staticExport": {"bundleUrl": LINK + "x"}}))
        self.assertNotEqual(base, checksum({"staticExport": {"bundleUrl": LINK, "version": "v2"}}))

    def test_values_the_deployment_type_forbids_are_refused(self):
        cases = [
            ({"deployment": {"type": "air-gapped"}, "features": {"assistant": True},
              "staticExport": {"bundleUrl": LINK}}, "unavailable in air-gapped deployments"),
            ({"deployment": {"type": "moon"}, "staticExport": {"bundleUrl": LINK}},
             "must be cloud, client-hosted or air-gapped"),
            ({}, "staticExport.bundleUrl is required"),
        ]
        for values, message in cases:
            with self.subTest(message):
                with self.assertRaises(helm.HelmError) as raised:
                    render(values)
                self.assertIn(message, str(raised.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
