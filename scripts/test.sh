#!/usr/bin/env bash
# The whole test suite: installs what is missing, then runs every test of the
# workspace (golden model, theory, hardware, co-simulation, flow, host bridge).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "[test] cargo test --workspace"
exec cargo test --workspace "$@"
