#!/usr/bin/env python3
"""Standalone hardware cost of a keyed SPN hash (docs/theory.md, "Structured key
sets", the design-space measurement): writes Verilog for the SPN of
docs/contract.md section 3.3 with R rounds (a register after every two rounds,
as the core's two-LUT-level rule asks) and a small harness around it (the key
shifted in from one pin, the addresses XORed into one), for Yosys synth_ice40
and nextpnr-ice40.

    python3 scripts/spn_cost.py W K B ROUNDS > spn.v
    yosys -p 'read_verilog spn.v; synth_ice40 -top top -json spn.json; stat'
    nextpnr-ice40 --up5k --package sg48 --json spn.json --freq 100 --seed 1 \
        --pcf-allow-unconstrained

The module `spn_hash` is kept whole, so `stat` gives its LUT4 count the way
`bloom fmax` counts a hash unit's. Seed 0; written from the contract's text,
not from either implementation.
"""
import sys

# The contract's constants and round keys, from the vector script beside this one.
from spn_vectors import RHO, SBOX, round_key


def spn_module(w, k, b, rounds, seed=0):
    q = w // 4
    blocks = -(-k * b // w)
    out = [
        "(* keep_hierarchy *)",
        "module spn_hash(input clock, input [%d:0] key, output [%d:0] addr);" % (w - 1, k * b - 1),
    ]
    for t in range(blocks):
        prev = "key"
        for r in range(rounds):
            key = round_key(seed, w, t, r)
            name = "s%d_%d" % (t, r)
            registered = (r + 1) % 2 == 0 or r == rounds - 1
            out.append("%s [%d:0] %s;" % ("reg" if registered else "wire", w - 1, name))
            for c in range(q):
                key_column = sum(((key >> (j * q + c)) & 1) << j for j in range(4))
                index = "{%s}" % ",".join("%s[%d]" % (prev, j * q + c) for j in (3, 2, 1, 0))
                for u in range(4):
                    table = sum(((SBOX[v ^ key_column] >> u) & 1) << v for v in range(16))
                    rho = RHO[w][r % 2][u]
                    target = "%s[%d]" % (name, u * q + (c + rho) % q)
                    lut = "t%d_%d_%d_%d" % (t, r, c, u)
                    out.append("wire [15:0] %s = 16'h%04x;" % (lut, table))
                    if registered:
                        out.append("always @(posedge clock) %s <= %s[%s];" % (target, lut, index))
                    else:
                        out.append("assign %s = %s[%s];" % (target, lut, index))
            prev = name
    bits = ["s%d_%d[%d]" % (g // w, rounds - 1, g % w) for g in range(k * b)]
    out.append("assign addr = {%s};" % ",".join(reversed(bits)))
    out.append("endmodule")
    return "\n".join(out)


def harness(w, address_bits):
    return """
module top(input clock, input din, output reg dout);
reg [%d:0] key;
always @(posedge clock) key <= {key[%d:0], din};
wire [%d:0] addr;
reg [%d:0] addr_r;
spn_hash h(.clock(clock), .key(key), .addr(addr));
always @(posedge clock) begin addr_r <= addr; dout <= ^addr_r; end
endmodule
""" % (w - 1, w - 2, address_bits - 1, address_bits - 1)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    w, k, b, rounds = map(int, sys.argv[1:5])
    if w not in RHO:
        sys.exit("W must be 32, 64 or 128")
    print(spn_module(w, k, b, rounds))
    print(harness(w, k * b))
