#!/usr/bin/env bash
# The default pipeline on the built-in default configuration: installs what is
# missing, then runs `bloom run` (see README.md for what it does).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "[main] cargo run --release -- run $*"
exec cargo run --release --quiet -- run "$@"
