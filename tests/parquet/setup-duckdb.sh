#!/usr/bin/env bash
# Installs DuckDB's Node.js package (@duckdb/node-api, with its prebuilt linux-x64 binding, both from the
# npm registry) into a cache folder of the build tree, for the Parquet tests that check Lanescope's
# writer and reader against an independent implementation (tests/parquet/duckdb-run.mjs).
# Usage: setup-duckdb.sh [BUILD_DIR]   (default: build). Nothing is installed outside BUILD_DIR; node and
# npm come from packaging/install-deps-debian.sh. A no-op when the pinned version is already there.
set -euo pipefail
VERSION="1.5.6-r.1"
build="${1:-build}"
dir="$build/duckdb-node"
if [ -f "$dir/node_modules/@duckdb/node-api/package.json" ] \
   && grep -q "\"version\": \"$VERSION\"" "$dir/node_modules/@duckdb/node-api/package.json"; then
  exit 0
fi
command -v npm >/dev/null || { echo "setup-duckdb: npm is missing (packaging/install-deps-debian.sh installs it)" >&2; exit 1; }
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name":"lanescope-duckdb-cache","private":true}' > "$dir/package.json"
npm install --prefix "$dir" --no-audit --no-fund --silent "@duckdb/node-api@$VERSION"
echo "setup-duckdb: @duckdb/node-api $VERSION in $dir"
