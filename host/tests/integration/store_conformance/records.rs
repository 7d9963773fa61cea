//! The checks on records: organizations and keys, sites and versions, threads, settings,
//! analytics, and dump and load.

use quire::store::*;
use time::OffsetDateTime;
use time::macros::datetime;

use super::jobs::job;

pub(super) fn key(id: &str, organization: &str, kind: KeyKind) -> ApiKeyRecord {
    ApiKeyRecord {
        id: id.to_string(),
        organization: organization.to_string(),
        kind,
        created_at: OffsetDateTime::now_utc(),
        revoked_at: None,
    }
}

pub(super) fn version(domain: &str, label: &str, created_at: OffsetDateTime) -> ContentVersion {
    ContentVersion {
        domain: domain.to_string(),
        label: label.to_string(),
        created_at,
        page_count: 3,
        file_count: 5,
        size_bytes: 1234,
        indexed_sections: 7,
        index_problems: Vec::new(),
        warnings: vec!["docs.json: a warning".into()],
    }
}

pub(super) async fn organizations_and_keys(store: &dyn Store) {
    let acme = store
        .create_organization("acme", Plan::Enterprise)
        .await
        .unwrap();
    assert_eq!((acme.name.as_str(), acme.plan), ("acme", Plan::Enterprise));
    assert!(matches!(
        store.create_organization("acme", Plan::Free).await,
        Err(StoreError::Conflict(_))
    ));
    store.create_organization("beta", Plan::Pro).await.unwrap();
    let names: Vec<String> = store
        .organizations()
        .await
        .unwrap()
        .into_iter()
        .map(|o| o.name)
        .collect();
    assert_eq!(names, ["acme", "beta"]);
    assert_eq!(
        store.organization("beta").await.unwrap().unwrap().plan,
        Plan::Pro
    );
    assert!(store.organization("nobody").await.unwrap().is_none());
    assert!(matches!(
        store
            .add_key("hash-x", &key("x", "nobody", KeyKind::Admin))
            .await,
        Err(StoreError::NotFound(_))
    ));
}

pub(super) async fn keys_are_scoped_and_revoked(store: &dyn Store) {
    for organization in ["acme", "beta"] {
        store
            .create_organization(organization, Plan::Enterprise)
            .await
            .unwrap();
    }
    store
        .add_key("hash-a", &key("a", "acme", KeyKind::Admin))
        .await
        .unwrap();
    store
        .add_key("hash-b", &key("b", "acme", KeyKind::Assistant))
        .await
        .unwrap();
    store
        .add_key("hash-c", &key("c", "beta", KeyKind::Admin))
        .await
        .unwrap();
    let (found, organization) = store
        .key_with_organization("hash-b")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((found.id.as_str(), found.kind), ("b", KeyKind::Assistant));
    assert_eq!(organization.name, "acme");
    assert!(store.key_by_hash("hash-zz").await.unwrap().is_none());
    let mut ids: Vec<String> = store
        .keys_of("acme")
        .await
        .unwrap()
        .into_iter()
        .map(|k| k.id)
        .collect();
    ids.sort();
    assert_eq!(ids, ["a", "b"]);
    // By public id, and by hash; revoking twice keeps the first time.
    let revoked = store.revoke_key(None, "a").await.unwrap();
    let first = revoked.revoked_at.expect("revoked");
    let again = store.revoke_key(Some("hash-a"), "a").await.unwrap();
    assert_eq!(again.revoked_at, Some(first));
    assert!(
        store
            .key_by_hash("hash-a")
            .await
            .unwrap()
            .unwrap()
            .revoked_at
            .is_some()
    );
    assert!(matches!(
        store.revoke_key(None, "missing").await,
        Err(StoreError::NotFound(_))
    ));
}

pub(super) async fn sites_and_versions(store: &dyn Store) {
    store
        .create_organization("acme", Plan::Enterprise)
        .await
        .unwrap();
    let domain = "docs.acme.test";
    let older = datetime!(2026-11-01 10:00 UTC);
    let newer = datetime!(2026-11-02 10:00 UTC);
    store
        .add_version("acme", &version(domain, "v2", newer))
        .await
        .unwrap();
    store
        .add_version("acme", &version(domain, "v1", older))
        .await
        .unwrap();
    let site = store.site(domain).await.unwrap().unwrap();
    assert_eq!(site.organization, "acme");
    // The latest is the one published last, whatever its date.
    assert_eq!(site.latest_version.as_deref(), Some("v1"));
    let labels: Vec<String> = store
        .versions(domain)
        .await
        .unwrap()
        .into_iter()
        .map(|v| v.label)
        .collect();
    assert_eq!(labels, ["v1", "v2"], "oldest first");
    let stored = store.version(domain, "v2").await.unwrap().unwrap();
    assert_eq!(
        (stored.page_count, stored.size_bytes, stored.warnings.len()),
        (3, 1234, 1)
    );
    // Versions are immutable.
    assert!(matches!(
        store
            .add_version("acme", &version(domain, "v2", newer))
            .await,
        Err(StoreError::Conflict(_))
    ));
    assert!(store.version(domain, "v3").await.unwrap().is_none());
    // A domain that is a prefix of another keeps its own versions.
    store
        .add_version("acme", &version("docs.acme.test.extra", "v9", newer))
        .await
        .unwrap();
    assert_eq!(store.versions(domain).await.unwrap().len(), 2);
    assert_eq!(store.sites().await.unwrap().len(), 2);
}

pub(super) async fn sites_are_scoped_to_their_organization(store: &dyn Store) {
    for organization in ["acme", "rival"] {
        store
            .create_organization(organization, Plan::Enterprise)
            .await
            .unwrap();
    }
    let domain = "docs.acme.test";
    let at = OffsetDateTime::now_utc();
    store
        .add_version("acme", &version(domain, "v1", at))
        .await
        .unwrap();
    assert!(store.site_of("acme", domain).await.unwrap().is_some());
    assert!(store.site_of("rival", domain).await.unwrap().is_none());
    assert!(matches!(
        store.check_domain_owner("rival", domain).await,
        Err(StoreError::Conflict(_))
    ));
    store.check_domain_owner("acme", domain).await.unwrap();
    store
        .check_domain_owner("rival", "docs.new.test")
        .await
        .unwrap();
    assert!(matches!(
        store.add_version("rival", &version(domain, "v2", at)).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(store.version(domain, "v2").await.unwrap().is_none());
}

pub(super) fn message(n: usize) -> ThreadMessage {
    ThreadMessage {
        role: if n.is_multiple_of(2) {
            "user"
        } else {
            "assistant"
        }
        .to_string(),
        content: format!("message {n}"),
        created_at: OffsetDateTime::now_utc(),
    }
}

pub(super) async fn threads_keep_their_newest_messages(store: &dyn Store) {
    let now = OffsetDateTime::now_utc();
    let thread = Thread {
        id: "thread-1".to_string(),
        organization: "acme".to_string(),
        domain: "docs.acme.test".to_string(),
        fp: "reader".to_string(),
        messages: Vec::new(),
        created_at: now,
        updated_at: now,
    };
    store
        .record_turns(vec![(thread.clone(), (0..2).map(message).collect())])
        .await
        .unwrap();
    assert!(
        store
            .thread_of("rival", "thread-1")
            .await
            .unwrap()
            .is_none()
    );
    let stored = store.thread_of("acme", "thread-1").await.unwrap().unwrap();
    assert_eq!(stored.messages.len(), 2);
    assert_eq!(stored.fp, "reader");
    // Several turns in one call, the same thread twice: appended in order, the oldest dropped.
    let turns = (1..=2)
        .map(|turn| {
            let from = turn * 150;
            (thread.clone(), (from..from + 150).map(message).collect())
        })
        .collect();
    store.record_turns(turns).await.unwrap();
    let stored = store.thread_of("acme", "thread-1").await.unwrap().unwrap();
    assert_eq!(stored.messages.len(), MAX_THREAD_MESSAGES);
    assert_eq!(
        stored.messages.last().map(|m| m.content.as_str()),
        Some("message 449")
    );
    assert_eq!(
        stored.messages[0].content,
        format!("message {}", 450 - MAX_THREAD_MESSAGES)
    );
}

pub(super) async fn rate_counts_take_both_windows_or_neither(store: &dyn Store) {
    let minute = RateWindow {
        scope: "minute",
        key: "key-1",
        window: 1000,
    };
    let day = RateWindow {
        scope: "day",
        key: "key-1",
        window: 7,
    };
    assert_eq!(
        store.take_both((minute, 2), (day, 3)).await.unwrap(),
        BothTaken::Counted(1, 1)
    );
    assert_eq!(
        store.take_both((minute, 2), (day, 3)).await.unwrap(),
        BothTaken::Counted(2, 2)
    );
    assert_eq!(
        store.take_both((minute, 2), (day, 3)).await.unwrap(),
        BothTaken::RefusedByFirst(2)
    );
    // The next minute: the day is at 2 of 3, one more fits, then the day refuses.
    let next_minute = RateWindow {
        window: 1001,
        ..minute
    };
    assert_eq!(
        store.take_both((next_minute, 2), (day, 3)).await.unwrap(),
        BothTaken::Counted(1, 3)
    );
    assert_eq!(
        store.take_both((next_minute, 2), (day, 3)).await.unwrap(),
        BothTaken::RefusedBySecond(3)
    );
    // A refused request counted in neither window.
    let later = RateWindow {
        window: 1002,
        ..minute
    };
    assert_eq!(
        store.take_both((next_minute, 5), (later, 5)).await.unwrap(),
        BothTaken::Counted(2, 1)
    );
    // Another key has counts of its own.
    let other = RateWindow {
        key: "key-2",
        ..minute
    };
    assert_eq!(
        store.take_both((other, 2), (day, 9)).await.unwrap(),
        BothTaken::Counted(1, 4)
    );
}

pub(super) async fn settings_keep_the_first_value(store: &dyn Store) {
    let first = store
        .setting_or_init("secret", b"one".to_vec())
        .await
        .unwrap();
    let second = store
        .setting_or_init("secret", b"two".to_vec())
        .await
        .unwrap();
    assert_eq!(
        (first.as_slice(), second.as_slice()),
        (&b"one"[..], &b"one"[..])
    );
}

pub(super) async fn analytics_add_up_per_page_and_hour(store: &dyn Store) {
    let at = datetime!(2026-11-21 10:30 UTC);
    let record = |domain, path, at, event| store.record_page_event(domain, path, at, event);
    for _ in 0..3 {
        record("docs.acme.test", "quickstart", at, PageEvent::View)
            .await
            .unwrap();
    }
    record(
        "docs.acme.test",
        "quickstart",
        at,
        PageEvent::Feedback { helpful: true },
    )
    .await
    .unwrap();
    record(
        "docs.acme.test",
        "auth",
        at + time::Duration::hours(2),
        PageEvent::Feedback { helpful: false },
    )
    .await
    .unwrap();
    record("docs.rival.test", "quickstart", at, PageEvent::View)
        .await
        .unwrap();
    let counts = store
        .page_counts("docs.acme.test", at, at + time::Duration::hours(1))
        .await
        .unwrap();
    assert_eq!(counts.len(), 1, "{counts:?}");
    assert_eq!(
        (counts[0].path.as_str(), counts[0].views, counts[0].helpful),
        ("quickstart", 3, 1)
    );
    let all = store
        .page_counts("docs.acme.test", at, at + time::Duration::hours(3))
        .await
        .unwrap();
    let paths: Vec<&str> = all.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, ["quickstart", "auth"], "most viewed first");
    assert_eq!(all[1].not_helpful, 1);
}

/// What one store dumps, another (empty) loads whole; a store with records refuses a load.
pub(super) async fn dump_and_load_round_trip(store: &dyn Store, empty: &dyn Store) {
    store
        .create_organization("acme", Plan::Enterprise)
        .await
        .unwrap();
    store
        .add_key("hash-a", &key("a", "acme", KeyKind::Admin))
        .await
        .unwrap();
    let now = OffsetDateTime::now_utc();
    store
        .add_version("acme", &version("docs.acme.test", "v1", now))
        .await
        .unwrap();
    store.insert_job(&job("job-1", "acme", now)).await.unwrap();
    store
        .record_page_event("docs.acme.test", "quickstart", now, PageEvent::View)
        .await
        .unwrap();
    store
        .setting_or_init("secret", b"s".to_vec())
        .await
        .unwrap();
    let dump = store.dump().await.unwrap();
    assert_eq!(
        dump.summary(),
        "1 organizations, 1 keys, 1 sites, 1 versions, 1 jobs, 0 threads, 1 analytics rows, 1 settings"
    );
    assert!(store.load(&dump).await.is_err());
    assert_eq!(store.dump().await.unwrap().summary(), dump.summary());
    empty.load(&dump).await.unwrap();
    let loaded = empty.dump().await.unwrap();
    assert_eq!(loaded.summary(), dump.summary());
    let (key, _) = empty
        .key_with_organization("hash-a")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(key.id, "a");
    let job = empty.job_of("acme", "job-1").await.unwrap().unwrap();
    assert_eq!(job.total_pages, 10);
    assert_eq!(
        empty
            .setting_or_init("secret", b"x".to_vec())
            .await
            .unwrap(),
        b"s"
    );
    assert_eq!(loaded.analytics, dump.analytics);
}
