//! AsyncAPI channels (2.x and 3.0 documents): finding the one a page names, and reading its
//! address on its server and the operations on it with their messages (`api_pages` draws them).
//! Operations keep the document's own verb (`send`/`receive` in 3.0, `publish`/`subscribe` in
//! 2.x), whose point of view is the document's.

use serde_json::Value;

use super::schema::Schemas;
use super::{names_document, pointer_escape};

/// One channel of a document.
#[derive(Debug)]
pub struct Channel<'a> {
    pub(crate) document: &'a Value,
    /// The channel's key in `channels`.
    pub(crate) id: String,
    pub(crate) channel: &'a Value,
}

/// The channel `reference` (`"channel"` or `"file channel"`) names among `documents`: by its
/// key in `channels`, else by its 3.0 `address`.
pub(super) fn find<'a>(
    documents: &'a [(String, Value)],
    reference: &str,
) -> Result<Channel<'a>, String> {
    let words: Vec<&str> = reference.split_whitespace().collect();
    let (file, name) = match words.as_slice() {
        [name] => (None, *name),
        [file, name] => (Some(*file), *name),
        _ => {
            return Err(format!(
                "asyncapi {reference:?} should read \"channel\" or \"file channel\""
            ));
        }
    };
    if documents.is_empty() {
        return Err(format!(
            "asyncapi {reference:?}: the site has no AsyncAPI document"
        ));
    }
    for (doc_path, document) in documents {
        if file.is_some_and(|f| !names_document(f, doc_path)) {
            continue;
        }
        let by_key = document
            .pointer(&format!("/channels/{}", pointer_escape(name)))
            .map(|channel| (name.to_string(), channel));
        let by_address = || {
            document
                .get("channels")?
                .as_object()?
                .iter()
                .find(|(_, c)| c.get("address").and_then(Value::as_str) == Some(name))
                .map(|(id, channel)| (id.clone(), channel))
        };
        if let Some((id, channel)) = by_key.or_else(by_address) {
            return Ok(Channel {
                document,
                id,
                channel,
            });
        }
    }
    Err(format!(
        "asyncapi {reference:?}: no such channel in the site's AsyncAPI documents"
    ))
}

/// An operation on the channel: the document's verb, its summary and its messages.
pub struct ChannelOperation<'a> {
    pub(crate) action: String,
    pub(crate) summary: Option<&'a str>,
    pub(crate) description: Option<&'a str>,
    pub(crate) messages: Vec<&'a Value>,
}

impl<'a> Channel<'a> {
    /// The channel's title (3.0 `title`, else its key), for the page title when the page has
    /// none, as the navigation labels it.
    pub fn title(&self) -> Option<&str> {
        Some(
            self.channel
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or(&self.id),
        )
    }

    pub(crate) fn schemas(&self) -> Schemas<'a> {
        Schemas {
            document: self.document,
        }
    }

    pub(crate) fn is_v2(&self) -> bool {
        self.document
            .get("asyncapi")
            .and_then(Value::as_str)
            .is_some_and(|v| v.starts_with('2'))
    }

    /// The first server's protocol and address (2.x `url`; 3.0 `host` and `pathname`).
    pub(crate) fn server(&self) -> (Option<&'a str>, String) {
        let server = self
            .document
            .get("servers")
            .and_then(Value::as_object)
            .and_then(|s| s.values().next());
        let Some(server) = server else {
            return (None, String::new());
        };
        let protocol = server.get("protocol").and_then(Value::as_str);
        let text = |key: &str| server.get(key).and_then(Value::as_str).unwrap_or("");
        let address = match server.get("url").and_then(Value::as_str) {
            Some(url) => url.to_string(),
            None => {
                let host = text("host");
                match protocol {
                    Some(p) if !host.is_empty() && !host.contains("://") => {
                        format!("{p}://{host}{}", text("pathname"))
                    }
                    _ => format!("{host}{}", text("pathname")),
                }
            }
        };
        (protocol, address)
    }

    /// The channel's address: 3.0 `address` (null for a dynamic one), else the 2.x key.
    pub(crate) fn address(&self) -> Option<String> {
        match self.channel.get("address") {
            Some(Value::String(a)) => Some(a.clone()),
            Some(_) => None,
            None if self.is_v2() => Some(self.id.clone()),
            None => None,
        }
    }

    /// The operations on this channel, in document order.
    pub(crate) fn operations(&self) -> Vec<ChannelOperation<'a>> {
        let schemas = self.schemas();
        let messages_of = |value: Option<&'a Value>| -> Vec<&'a Value> {
            let Some(value) = value.map(|v| schemas.resolve(v)) else {
                return Vec::new();
            };
            match value {
                Value::Array(list) => list.iter().map(|m| schemas.resolve(m)).collect(),
                Value::Object(map) if value.get("oneOf").is_some() => value["oneOf"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|m| schemas.resolve(m))
                    .collect(),
                // 2.x: one message object; 3.0 channel `messages`: a map of them.
                Value::Object(map) if map.contains_key("payload") || map.contains_key("name") => {
                    vec![value]
                }
                Value::Object(map) => map.values().map(|m| schemas.resolve(m)).collect(),
                _ => Vec::new(),
            }
        };
        if self.is_v2() {
            return ["publish", "subscribe"]
                .iter()
                .filter_map(|verb| {
                    let op = self.channel.get(*verb)?;
                    Some(ChannelOperation {
                        action: verb.to_string(),
                        summary: op.get("summary").and_then(Value::as_str),
                        description: op.get("description").and_then(Value::as_str),
                        messages: messages_of(op.get("message")),
                    })
                })
                .collect();
        }
        let own_ref = format!("#/channels/{}", pointer_escape(&self.id));
        self.document
            .get("operations")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(_, op)| op.pointer("/channel/$ref").and_then(Value::as_str) == Some(&own_ref))
            .map(|(id, op)| {
                let listed = messages_of(op.get("messages"));
                ChannelOperation {
                    action: op
                        .get("action")
                        .and_then(Value::as_str)
                        .unwrap_or("operation")
                        .to_string(),
                    summary: op
                        .get("summary")
                        .or_else(|| op.get("title"))
                        .and_then(Value::as_str)
                        .or(Some(id.as_str())),
                    description: op.get("description").and_then(Value::as_str),
                    messages: if listed.is_empty() {
                        messages_of(self.channel.get("messages"))
                    } else {
                        listed
                    },
                }
            })
            .collect()
    }
}

/// A message's payload schema (3.0 may wrap it as `{schemaFormat, schema}`).
pub(crate) fn payload(message: &Value) -> Option<&Value> {
    let payload = message.get("payload")?;
    Some(payload.get("schema").unwrap_or(payload))
}

/// A message's name for headings: `title`, else `name`, else `messageId`.
pub(crate) fn message_name(message: &Value) -> &str {
    ["title", "name", "messageId"]
        .iter()
        .find_map(|k| message.get(*k).and_then(Value::as_str))
        .unwrap_or("Message")
}

#[cfg(test)]
mod tests {
    use super::super::ApiDocuments;

    const V3: &str = r##"
asyncapi: 3.0.0
info: {title: Chat, version: "1"}
servers:
  production: {host: chat.example.com, pathname: /ws, protocol: wss}
channels:
  room:
    address: "rooms/{roomId}"
    title: Chat room
    description: Messages of one room.
    parameters:
      roomId: {description: The room}
    messages:
      said: {$ref: "#/components/messages/Said"}
operations:
  sendSaid:
    action: send
    summary: Say something
    channel: {$ref: "#/channels/room"}
    messages: [{$ref: "#/channels/room/messages/said"}]
components:
  messages:
    Said:
      name: said
      title: Something said
      payload:
        type: object
        required: [text]
        properties:
          text: {type: string, example: hello}
          at: {type: string, format: date-time}
"##;

    const V2: &str = r##"
asyncapi: 2.6.0
info: {title: Users, version: "1"}
servers:
  prod: {url: "mqtt://broker.example.com", protocol: mqtt}
channels:
  user/signedup:
    subscribe:
      summary: A user signed up
      message:
        name: UserSignedUp
        payload: {type: object, properties: {email: {type: string, format: email}}}
        examples:
          - payload: {email: ada@example.com}
"##;

    fn docs() -> ApiDocuments {
        let (docs, problems) = ApiDocuments::parse(vec![
            ("chat.yaml".into(), V3.into()),
            ("users.yaml".into(), V2.into()),
        ]);
        assert!(problems.is_empty(), "{problems:?}");
        docs
    }

    #[test]
    fn channels_are_found_by_key_or_address_in_a_named_document() {
        let docs = docs();
        let room = docs.find_channel("room").unwrap();
        assert_eq!(room.title(), Some("Chat room"));
        assert_eq!(
            room.server(),
            (Some("wss"), "wss://chat.example.com/ws".into())
        );
        assert!(docs.find_channel("/chat.yaml rooms/{roomId}").is_ok());
        assert!(docs.find_channel("users user/signedup").is_ok());
        assert!(
            docs.find_channel("chat.yaml user/signedup")
                .unwrap_err()
                .contains("no such channel")
        );
        assert!(docs.find_channel("a b c").is_err());
        let empty = ApiDocuments::default();
        assert!(
            empty
                .find_channel("room")
                .unwrap_err()
                .contains("no AsyncAPI")
        );
    }

    #[test]
    fn operations_gather_their_messages_in_both_versions() {
        let docs = docs();
        let room = docs.find_channel("room").unwrap();
        let ops = room.operations();
        assert_eq!(ops.len(), 1);
        assert_eq!(ops[0].action, "send");
        assert_eq!(super::message_name(ops[0].messages[0]), "Something said");
        let users = docs.find_channel("user/signedup").unwrap();
        assert_eq!(users.address().as_deref(), Some("user/signedup"));
        let ops = users.operations();
        assert_eq!((ops.len(), ops[0].action.as_str()), (1, "subscribe"));
        assert_eq!(ops[0].messages.len(), 1);
    }
}
