//! Deployment types and the features each one allows (DESIGN.md's table): both the API host and
//! the docs server decide what exists from here.
//!
//! | feature                     | cloud | client-hosted | air-gapped   |
//! |-----------------------------|-------|---------------|--------------|
//! | search API and search box   | on    | configurable  | off          |
//! | assistant API and widget    | on    | configurable  | off          |
//! | web analytics               | on    | configurable  | off          |
//! | API playground ("Try it")   | on    | on            | configurable |
//! | the docs server's MCP (`/mcp`) | on | on            | configurable (on) |
//! | the bundle's own assistant  | configurable (off) | configurable (on) | configurable (on) |
//!
//! The bundle's own offline search needs no server and stays on everywhere. The bundle's own
//! assistant (`quire-bundle-assistant`) answers in the reader's browser: nothing leaves it, so
//! it is on wherever the server's is not at hand; cloud keeps the server's (and its model).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Where a Quire deployment runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeploymentType {
    /// Run by us: every feature on.
    #[default]
    Cloud,
    /// Run by a customer on their own infrastructure: online features are their choice.
    ClientHosted,
    /// No connection to anything outside: online features do not exist.
    AirGapped,
}

impl DeploymentType {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cloud => "cloud",
            Self::ClientHosted => "client-hosted",
            Self::AirGapped => "air-gapped",
        }
    }
}

impl fmt::Display for DeploymentType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for DeploymentType {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "cloud" => Ok(Self::Cloud),
            "client-hosted" => Ok(Self::ClientHosted),
            "air-gapped" => Ok(Self::AirGapped),
            other => Err(format!(
                "unknown deployment type {other:?}: expected cloud, client-hosted or air-gapped"
            )),
        }
    }
}

/// A feature a deployment type decides on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    Search,
    Assistant,
    Analytics,
    Playground,
    /// The docs server's MCP endpoint, answered from the bundle it serves: nothing leaves the
    /// network, so an air-gapped deployment has it unless switched off.
    Mcp,
    /// The assistant the bundle carries, answering in the reader's browser; the widget asks
    /// the API's assistant instead where that one is on.
    BundleAssistant,
}

impl Feature {
    pub fn name(self) -> &'static str {
        match self {
            Self::Search => "search",
            Self::Assistant => "assistant",
            Self::Analytics => "analytics",
            Self::Playground => "playground",
            Self::Mcp => "mcp",
            Self::BundleAssistant => "bundle_assistant",
        }
    }
}

/// What a deployment type says about one feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Availability {
    /// Always on; a request to switch it off is ignored with a note.
    On,
    /// The operator's switch decides; the value is the default.
    Configurable { default: bool },
    /// Does not exist in this deployment; asking for it is refused with a note.
    Off,
}

impl DeploymentType {
    /// The table above.
    pub fn availability(self, feature: Feature) -> Availability {
        use Availability::*;
        match (self, feature) {
            (Self::Cloud, Feature::BundleAssistant) => Configurable { default: false },
            (_, Feature::BundleAssistant) => Configurable { default: true },
            (Self::Cloud, _) => On,
            (Self::ClientHosted, Feature::Playground | Feature::Mcp) => On,
            (Self::ClientHosted, _) => Configurable { default: false },
            (Self::AirGapped, Feature::Playground | Feature::Mcp) => Configurable { default: true },
            (Self::AirGapped, _) => Off,
        }
    }
}

/// The switches an operator asked for; `None` leaves a feature at its default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub struct FeatureRequests {
    pub search: Option<bool>,
    pub assistant: Option<bool>,
    pub analytics: Option<bool>,
    pub playground: Option<bool>,
    #[serde(default)]
    pub mcp: Option<bool>,
    #[serde(default)]
    pub bundle_assistant: Option<bool>,
}

impl FeatureRequests {
    fn get(&self, feature: Feature) -> Option<bool> {
        match feature {
            Feature::Search => self.search,
            Feature::Assistant => self.assistant,
            Feature::Analytics => self.analytics,
            Feature::Playground => self.playground,
            Feature::Mcp => self.mcp,
            Feature::BundleAssistant => self.bundle_assistant,
        }
    }
}

/// Which features are on, and what the operator should be told about their requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Features {
    pub deployment: DeploymentType,
    pub search: bool,
    pub assistant: bool,
    pub analytics: bool,
    pub playground: bool,
    pub mcp: bool,
    pub bundle_assistant: bool,
    /// Requests the deployment type overrode, one sentence each, for the startup log.
    pub notes: Vec<String>,
}

impl Features {
    /// Applies the deployment type's table to the operator's requests.
    pub fn resolve(deployment: DeploymentType, requests: FeatureRequests) -> Self {
        let mut notes = Vec::new();
        let mut decide = |feature: Feature| {
            let requested = requests.get(feature);
            match deployment.availability(feature) {
                Availability::On => {
                    if requested == Some(false) {
                        notes.push(format!(
                            "{} is always on in {deployment} deployments; the request to switch it off is ignored",
                            feature.name()
                        ));
                    }
                    true
                }
                Availability::Configurable { default } => requested.unwrap_or(default),
                Availability::Off => {
                    if requested == Some(true) {
                        notes.push(format!(
                            "{} is unavailable in {deployment} deployments and cannot be switched on",
                            feature.name()
                        ));
                    }
                    false
                }
            }
        };
        let (search, assistant, analytics, playground, mcp) = (
            decide(Feature::Search),
            decide(Feature::Assistant),
            decide(Feature::Analytics),
            decide(Feature::Playground),
            decide(Feature::Mcp),
        );
        let bundle_assistant = decide(Feature::BundleAssistant);
        Self {
            deployment,
            search,
            assistant,
            analytics,
            playground,
            mcp,
            bundle_assistant,
            notes,
        }
    }

    /// Logs the notes (as warnings) and what is on: a server's first words about its features.
    pub fn log(&self) {
        for note in &self.notes {
            tracing::warn!(deployment = %self.deployment, "{note}");
        }
        tracing::info!(
            deployment = %self.deployment,
            search = self.search,
            assistant = self.assistant,
            analytics = self.analytics,
            playground = self.playground,
            mcp = self.mcp,
            bundle_assistant = self.bundle_assistant,
            "features"
        );
    }

    pub fn enabled(&self, feature: Feature) -> bool {
        match feature {
            Feature::Search => self.search,
            Feature::Assistant => self.assistant,
            Feature::Analytics => self.analytics,
            Feature::Playground => self.playground,
            Feature::Mcp => self.mcp,
            Feature::BundleAssistant => self.bundle_assistant,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_decides_and_explains() {
        let cloud = Features::resolve(
            DeploymentType::Cloud,
            FeatureRequests {
                search: Some(false),
                ..Default::default()
            },
        );
        assert!(cloud.search && cloud.assistant && cloud.analytics && cloud.playground);
        assert_eq!(cloud.notes.len(), 1);

        let client = Features::resolve(
            DeploymentType::ClientHosted,
            FeatureRequests {
                assistant: Some(true),
                ..Default::default()
            },
        );
        assert!(client.assistant && !client.search && !client.analytics && client.playground);
        assert!(client.notes.is_empty());

        let gapped = Features::resolve(
            DeploymentType::AirGapped,
            FeatureRequests {
                assistant: Some(true),
                playground: Some(false),
                ..Default::default()
            },
        );
        assert!(!gapped.assistant && !gapped.search && !gapped.analytics && !gapped.playground);
        assert!(gapped.mcp && client.mcp && cloud.mcp);
        assert!(
            gapped.bundle_assistant && client.bundle_assistant && !cloud.bundle_assistant,
            "the bundle's assistant answers where the server's is not at hand"
        );
        assert!(gapped.notes[0].contains("assistant is unavailable in air-gapped deployments"));
        assert_eq!(
            "air-gapped".parse::<DeploymentType>(),
            Ok(DeploymentType::AirGapped)
        );
        assert!(
            "moon"
                .parse::<DeploymentType>()
                .unwrap_err()
                .contains("cloud, client-hosted")
        );
    }
}
