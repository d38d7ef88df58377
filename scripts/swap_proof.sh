#!/usr/bin/env bash
# The filter-swap proof over three plain and several counting configurations per family
# (the block-RAM mode Yosys picks for the counters: iCE40 2048 x 2, 1024 x 4, 512 x 8;
# ECP5 x1, x2, x4, x9): for each, a bitstream
# built with image A preloaded (`bloom build --preload`), then `bloom image swap` to
# image B and, in place, on to image C; after each step every bank bit is read back
# with the family's unpacker (`bloom image readback --against`: iceunpack, ecpunpack)
# and compared with the image; as a negative control, the final bitstream compared
# with A must differ. Prints one table row per configuration with the bits checked,
# the bits that differ, and the swap times (bloom's own figure and the whole command's
# wall time).
#
#   scripts/swap_proof.sh [OUT_DIR]        (default build/swap-proof; builds are reused)
#
# Builds take a minute or more each (fourteen of them); run it under `nice` on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-build/swap-proof}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cargo build --release --quiet
BLOOM=$PWD/target/release/bloom

# board k bank_bits key_bits hash seed freq counter_bits: banks of one cell, of two
# cells, of part of one; counters of 2 bits (iCE40 2 cells a bank of 2^12; ECP5 x1),
# of 4 (iCE40 the default 2^12 x 4 in 4 cells; ECP5 x2 for 2^13, x4 for 2^8), of 6
# (ECP5 x9), of 3 (iCE40 1024 x 4) and of 8 (iCE40 512 x 8).
CONFIGS=(
  "icebreaker 4 12 64 h3 0 30 1"
  "hx8k 2 13 64 crc 3 40 1"
  "icebreaker 3 11 32 h3 7 30 1"
  "ulx3s 4 12 64 h3 0 50 1"
  "ulx3s 2 15 32 crc 3 50 1"
  "ulx3s 3 10 64 h3 7 50 1"
  "icebreaker 2 12 32 crc 3 25 2"
  "hx8k 4 12 64 h3 0 40 4"
  "ulx3s 2 14 32 crc 3 40 2"
  "ulx3s 2 13 32 h3 4 40 4"
  "ulx3s 2 8 32 crc 7 40 6"
  "icebreaker 2 10 32 crc 7 25 3"
  "icebreaker 2 8 32 h3 5 25 8"
  "ulx3s 2 8 32 h3 4 40 4"
)

keys() { # N SEED WIDTH: N random hex keys of WIDTH (32 or 64) bits
  awk -v n="$1" -v s="$2" -v w="$3" 'BEGIN { srand(s); for (i = 0; i < n; i++) {
    if (w == 32) printf "0x%08x\n", int(rand() * 4294967296);
    else printf "0x%08x%08x\n", int(rand() * 4294967296), int(rand() * 4294967296) } }'
}

now() { date +%s.%N; }

check() { # BITSTREAM IMAGE -> "checked differing"
  # Exits non-zero when bits differ (the control expects it); the JSON says how many.
  "$BLOOM" image readback "$1" --against "$2" --json > "$OUT/last-readback.json" 2> "$OUT/last-readback.err" || true
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); print(v["bits_checked"], sum(v["bits_differing"]))' "$OUT/last-readback.json"
}

ROWS=()
for c in "${CONFIGS[@]}"; do
  read -r board k b w hash seed freq cb <<< "$c"
  name="${board}-k${k}-b${b}-w${w}-${hash}"
  [ "$cb" = 1 ] || name="$name-c$cb"
  dir="$OUT/$name"
  mkdir -p "$dir"
  opts=(--k "$k" --bank-bits "$b" --key-bits "$w" --hash "$hash" --seed "$seed" --counter-bits "$cb")
  # Images A, B, C: about 30% of each bank set (0.36 x 2^b keys), different keys; of a
  # counting filter 2^(c-1) x 2^b keys, so that every counter bit is 1 somewhere and 0
  # elsewhere in every bank (the build proves the map on every bit).
  n=$(( (1 << b) * 36 / 100 ))
  [ "$cb" = 1 ] || n=$(( (1 << b) << (cb - 1) ))
  for i in A B C; do
    if [ ! -f "$dir/img$i/image.json" ]; then
      rm -rf "$dir/img$i"
      keys "$n" "$(( $(printf '%d' "'$i") * 7919 + k * 131 + b ))" "$w" > "$dir/keys$i.txt"
      "$BLOOM" image build --keys "$dir/keys$i.txt" "${opts[@]}" --out "$dir/img$i" > /dev/null
    fi
  done
  if [ ! -f "$dir/build/bloom.bin" ] && [ ! -f "$dir/build/bloom.bit" ]; then
    echo "[swap-proof] building $name (log: $dir/build.log)"
    "$BLOOM" build --board "$board" "${opts[@]}" --preload "$dir/imgA" --freq "$freq" --out "$dir/build" --quiet > "$dir/build.log" 2>&1 \
      || { echo "build of $name failed:"; tail -20 "$dir/build.log"; exit 1; }
  fi
  bit=$(ls "$dir"/build/bloom.bi[nt])
  ext=${bit##*.}
  read -r checked_a bad_a <<< "$(check "$bit" "$dir/imgA")"
  t0=$(now)
  "$BLOOM" image swap --bitstream "$bit" --image "$dir/imgB" --out "$dir/swapped.$ext" > "$dir/swap-b.txt"
  t1=$(now)
  read -r checked_b bad_b <<< "$(check "$dir/swapped.$ext" "$dir/imgB")"
  t2=$(now)
  "$BLOOM" image swap --bitstream "$dir/swapped.$ext" --image "$dir/imgC" --out "$dir/swapped.$ext" > "$dir/swap-c.txt"
  t3=$(now)
  read -r checked_c bad_c <<< "$(check "$dir/swapped.$ext" "$dir/imgC")"
  read -r _ control <<< "$(check "$dir/swapped.$ext" "$dir/imgA")"
  own_b=$(sed -n 's/.*0 differ; \([0-9.]*\) s$/\1/p' "$dir/swap-b.txt")
  own_c=$(sed -n 's/.*0 differ; \([0-9.]*\) s$/\1/p' "$dir/swap-c.txt")
  wall_b=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
  wall_c=$(awk -v a="$t2" -v b="$t3" 'BEGIN { print b - a }')
  proof=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["swap"]["detail"]; print("every bank bit in the netlist INIT" if d.startswith("every bank bit") else d)' "$dir/build/report.json")
  cells=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print("; ".join("+".join(c["site"] for c in b) for b in m["banks"]))' "$bit.swap.json")
  ROWS+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %.3f / %.3f | %.3f / %.3f | %s |' \
    "$board" "k=$k b=$b w=$w $hash c=$cb" "$cells" \
    "$checked_a" "$bad_a" "$((checked_b + checked_c))" "$((bad_b + bad_c))" "$control" \
    "$own_b" "$wall_b" "$own_c" "$wall_c" "$proof")")
  echo "${ROWS[-1]}"
done

echo
echo "| board | configuration | bank cells (iCE40 tile / ECP5 EBR) | built-in bits checked | differ | swapped bits checked (B, then C in place) | differ | control: C vs A differ | swap A->B s (bloom / wall) | swap B->C in place s (bloom / wall) | build's mapping check |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
fail=0
for r in "${ROWS[@]}"; do
  # columns 5 and 7 (differ) must be 0, column 8 (control) must not be.
  IFS='|' read -r _ _ _ _ _ d1 _ d2 ctl _ <<< "$r"
  if [ "${d1// /}" != 0 ] || [ "${d2// /}" != 0 ] || [ "${ctl// /}" = 0 ]; then fail=1; fi
done
exit $fail
