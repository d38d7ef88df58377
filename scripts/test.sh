#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks formatting, lints and
# that every target builds, then runs every test of the
# workspace (golden model, theory, hardware, co-simulation, flow, host bridge).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The house rules first, so they cannot drift: formatted by rustfmt (rustfmt.toml),
# clippy-clean on every target, every bench and example building.
echo "[test] cargo fmt --all --check"
cargo fmt --all --check
echo "[test] cargo clippy --workspace --all-targets -- -D warnings"
cargo clippy --workspace --all-targets -- -D warnings
echo "[test] cargo build --workspace --benches --examples"
cargo build --workspace --benches --examples
echo "[test] cargo test --workspace"
exec cargo test --workspace "$@"
