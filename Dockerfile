# The quire image: the binary and the default plugins (renderer, packager, retriever as
# WebAssembly components in plugins/ beside it, where quire finds them by default).
#   docker build -t quire:0.1.0 .
# Runs `quire serve` (the API host) or `quire docs-server` (what the Helm chart's docs pods run).

# The npm packages the default renderer compiles in (icon sets, the Mermaid script).
FROM node:20-bookworm AS vendor
WORKDIR /vendor
COPY plugins/renderer/vendor/package.json plugins/renderer/vendor/package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM rust:1.95-bookworm AS build
WORKDIR /src
RUN rustup target add wasm32-wasip2 wasm32-unknown-unknown
COPY . .
COPY --from=vendor /vendor/node_modules plugins/renderer/vendor/node_modules
RUN scripts/build-plugins \
 && cargo build --release -p quire \
 && mkdir -p /out/plugins \
 && cp target/release/quire /out/quire \
 && cp target/wasm32-wasip2/release/quire_renderer.wasm \
       target/wasm32-wasip2/release/quire_packager.wasm \
       target/wasm32-wasip2/release/quire_retriever.wasm \
       target/wasm32-unknown-unknown/release/quire_bundle_assistant.wasm /out/plugins/

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /var/lib/quire quire \
 && mkdir -p /var/lib/quire && chown quire /var/lib/quire
COPY --from=build /out/ /opt/quire/
USER 10001
ENV QUIRE_DATA_DIR=/var/lib/quire
EXPOSE 8080
ENTRYPOINT ["/opt/quire/quire"]
CMD ["docs-server"]
