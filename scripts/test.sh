#!/usr/bin/env bash
# The test suite: installs what is missing, checks formatting, lints and that
# every target builds, then runs the tests of the workspace (golden model,
# theory, hardware, co-simulation, flow, host bridge). Arguments go to nextest:
# with none it runs the gate CI runs; `--profile full` runs every test
# (.config/nextest.toml and docs/development.md say what the gate leaves out).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# A gate run compiles every crate of the workspace once; incremental
# compilation's bookkeeping buys nothing there (the hdl crate alone: 50 s and
# 92 CPU-seconds without it, 78 s and 147 with it, on a 2-core machine; whole
# fresh runs differ by less than the machine's noise). A developer's own
# `cargo test` keeps it.
export CARGO_INCREMENTAL=0
# The house rules first, so they cannot drift: formatted by rustfmt
# (rustfmt.toml), clippy-clean on every target (lib, bins, tests, benches,
# examples), every target building.
echo "[test] cargo fmt --all --check"
cargo fmt --all --check
# Clippy lints while the workspace compiles, not in a pass of its own: cargo
# hands every workspace crate to clippy-driver (rustc with clippy's lints, the
# same compiler `cargo clippy` runs), and -D warnings makes any rustc or clippy
# warning an error. `cargo clippy` first checks every crate and dependency
# without generating code, and the build then compiles them all again: on a
# 2-core machine a clean clone's clippy, build and test build took 489 s that
# way, 410 s this way. Every cargo command below keeps these two variables, so
# nothing is built twice. scripts/setup.sh installs clippy-driver if it is missing.
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
export RUSTFLAGS="-D warnings"
echo "[test] cargo build --workspace --benches --examples (clippy, -D warnings)"
cargo build --workspace --benches --examples
# Every test in a process of its own, two at a time across all test binaries
# (cargo-nextest, .config/nextest.toml): a long test at the end of one binary no
# longer leaves the other core idle. Then the doc tests, which nextest does not run.
echo "[test] cargo nextest run --workspace (its tests built with clippy, -D warnings)"
cargo nextest run --workspace "$@"
echo "[test] cargo test --workspace --doc"
cargo test --workspace --doc
