#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine needs to build, test and run Lanescope.
# Fast no-op when everything is present. Needs root (or sudo) only when something is missing.
set -euo pipefail

PKGS=(
  g++ cmake ninja-build make pkg-config ccache
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev qt6-charts-dev libqt6opengl6-dev
  libgl-dev libvulkan-dev
  libsimdjson-dev zlib1g-dev libzstd-dev libarchive-dev libsqlite3-dev libsnappy-dev
  xvfb xauth
  python3
  sqlite3   # the shell: tests run the README's and docs/sqlite-schema.md's queries through it
)
# node + npm: the Parquet tests install DuckDB's Node package into the build tree (tests/parquet/setup-duckdb.sh)
# and check Lanescope's Parquet files against it. A node/npm already on PATH (e.g. NodeSource's nodejs,
# which bundles npm and conflicts with Debian's npm package) is used as it is.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then PKGS+=(nodejs npm); fi
# optional packaging checks (tests/cli/tst_desktopintegration runs the validators when present; CI sets
# this, and with LANESCOPE_REQUIRE_CORPUS=1 a missing validator fails) and the tools `make package` uses
# for the .deb's library dependencies
if [ "${LANESCOPE_WITH_PACKAGING_CHECKS:-0}" = 1 ]; then PKGS+=(desktop-file-utils appstream shared-mime-info dpkg-dev); fi
# make fuzz: clang + libFuzzer (compiler-rt); the zstd tool makes zstd seeds for the decompression harness
if [ "${LANESCOPE_WITH_FUZZ:-0}" = 1 ]; then PKGS+=(clang libclang-rt-14-dev zstd); fi

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    # virtual or renamed packages: accept when apt knows no such package but an equivalent is present
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "lanescope: installing missing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "lanescope: error: these packages are missing and this script is not running as root (and sudo is absent):" >&2
    echo "  ${missing[*]}" >&2
    echo "  run: apt-get install -y ${missing[*]}   (as root)" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
