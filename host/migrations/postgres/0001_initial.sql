-- The first schema of the PostgreSQL store. Records are JSON documents, as in the embedded
-- store; the columns beside them are what queries select, lock and order by.

CREATE TABLE organizations (
    name   text PRIMARY KEY,
    record jsonb NOT NULL
);

-- Keys are stored under the SHA-256 of the key; the key itself is never stored.
CREATE TABLE api_keys (
    hash         text PRIMARY KEY,
    id           text NOT NULL UNIQUE,
    organization text NOT NULL REFERENCES organizations (name),
    record       jsonb NOT NULL
);
CREATE INDEX api_keys_by_organization ON api_keys (organization);

CREATE TABLE sites (
    domain       text PRIMARY KEY,
    organization text NOT NULL REFERENCES organizations (name),
    record       jsonb NOT NULL
);

CREATE TABLE content_versions (
    domain     text NOT NULL REFERENCES sites (domain),
    label      text NOT NULL,
    created_at timestamptz NOT NULL,
    record     jsonb NOT NULL,
    PRIMARY KEY (domain, label)
);

-- A running job belongs to `lease_owner` until `lease_expires_at` (the database's clock); a
-- replica claims queued jobs and running ones whose lease has expired.
CREATE TABLE jobs (
    id               text PRIMARY KEY,
    organization     text NOT NULL,
    status           text NOT NULL,
    queued_at        timestamptz NOT NULL,
    lease_owner      text,
    lease_expires_at timestamptz,
    record           jsonb NOT NULL
);
CREATE INDEX jobs_claimable ON jobs (queued_at) WHERE status IN ('queued', 'running');

CREATE TABLE threads (
    id           text PRIMARY KEY,
    organization text NOT NULL,
    record       jsonb NOT NULL
);

CREATE TABLE page_analytics (
    domain      text   NOT NULL,
    hour        bigint NOT NULL,
    path        text   NOT NULL,
    views       bigint NOT NULL DEFAULT 0,
    helpful     bigint NOT NULL DEFAULT 0,
    not_helpful bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (domain, hour, path)
);

-- One row per (limit, who): the current window's number and its count.
CREATE TABLE rate_counts (
    scope         text   NOT NULL,
    key           text   NOT NULL,
    window_number bigint NOT NULL,
    count         bigint NOT NULL,
    PRIMARY KEY (scope, key)
);

CREATE TABLE settings (
    name  text PRIMARY KEY,
    value bytea NOT NULL
);
