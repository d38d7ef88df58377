#!/usr/bin/env python3
"""Standalone hardware cost of the keyed Feistel network measured in
docs/theory.md ("Cheaper networks measured"), written from its definition
(one bit at a time, big integers; nothing taken from the golden model):

    python3 scripts/feistel_cost.py verilog [ROUNDS [K B [SEED [--readback]]]] > feistel.v
    yosys -p 'read_verilog feistel.v; synth_ice40 -top top; stat'
    python3 scripts/feistel_cost.py vectors      # addresses of a few keys, W = 64 and 32
    python3 scripts/feistel_cost.py verilog 8 4 12 0 --comb > f.v   # no registers, no harness:
    yosys -p 'read_verilog f.v; hierarchy -top feistel_hash; proc; eval -set key 64'h1 -show addr'


The network: the W-bit key is two halves X0 (low), X1 (high) of h = W/2 bits;
round i (i = 1 .. R) computes X(i+1) = X(i-1) ^ F_i(X(i)), with

    F_i(X)[j] = g(Y[(j+s1) % h], Y[(j+s2) % h], Y[(j+s3) % h]) ^ KOUT[j],
    Y = X ^ KIN,  g(a, b, c) = a ^ (~b & c)

(s1, s2, s3) = TAPS[W][(i - 1) % 2]; the 64-bit round key
K = SplitMix64 output (64 t + i - 1) of the seed (contract section 3.1) gives
KIN = K mod 2^h and KOUT = (K >> h) mod 2^h. Block t is X(R+1) in its low h
bits and X(R) in its high h bits; address bit j of partition p is bit p*b + j
of the blocks' concatenation (block 0 first), as for the SPN family.

Each bit of X(i+1) is one LUT4 of X(i-1)[j] and the three tapped bits of
X(i), the round key folded into its truth table. The module `feistel_hash`
is kept whole, so `stat` gives its LUT4 count the way `bloom fmax` counts a
hash unit's; a register holds (X(i), X(i+1)) after every second round, so
that at most two LUT4 levels lie between flip-flops; the last round computes
only the bits the addresses use. With --readback the module also takes
`rb_sel` and `rb_addr` and outputs rb_sel ? rb_addr : addr (the core's
readback choice), to count what that adds. With --comb it writes the
network without registers or harness, for Yosys `eval` against `vectors`.
"""
import sys

# SplitMix64 (contract section 3.1) and the stream of blocks, from the SPN's
# vector script beside this one.
from spn_vectors import MASK64, addresses as stream_addresses, splitmix64

TAPS = {64: [(0, 5, 14), (11, 24, 26)], 32: [(0, 1, 12), (2, 8, 11)]}
ROUNDS = 8


def g(a, b, c):
    return a ^ ((1 - b) & c)


def round_keys(seed, w, t, i):
    """KIN and KOUT of round i (1-based) of block t, as lists of bits."""
    h = w // 2
    k = splitmix64(seed, 64 * t + i - 1)
    return [(k >> j) & 1 for j in range(h)], [(k >> (h + j)) & 1 for j in range(h)]


def block(seed, w, t, key, rounds=ROUNDS):
    h = w // 2
    xs = [[(key >> j) & 1 for j in range(h)], [(key >> (h + j)) & 1 for j in range(h)]]
    for i in range(1, rounds + 1):
        kin, kout = round_keys(seed, w, t, i)
        s = TAPS[w][(i - 1) % 2]
        x = xs[i]
        y = [x[j] ^ kin[j] for j in range(h)]
        f = [g(y[(j + s[0]) % h], y[(j + s[1]) % h], y[(j + s[2]) % h]) ^ kout[j] for j in range(h)]
        xs.append([xs[i - 1][j] ^ f[j] for j in range(h)])
    return xs[rounds + 1] + xs[rounds]


def addresses(seed, w, k, b, key, rounds=ROUNDS):
    """Address bit j of partition p is bit p*b + j of the blocks' stream, as for SPN."""
    return stream_addresses(seed, w, k, b, key, lambda s, w, t, x: block(s, w, t, x, rounds))


def feistel_module(w, k, b, rounds, seed, readback, comb=False):
    """Verilog of the network for k*b <= W (one block)."""
    h = w // 2
    assert k * b <= w, "the cost script writes one block"
    used = k * b
    # Bits of X(R+1) and X(R) the addresses use; earlier halves are used whole.
    need_last = min(used, h)
    ports = "input clock, input [%d:0] key, output [%d:0] addr" % (w - 1, used - 1)
    if readback:
        ports += ", input rb_sel, input [%d:0] rb_addr" % (used - 1)
    out = ["(* keep_hierarchy *)", "module feistel_hash(%s);" % ports]
    out.append("wire [%d:0] x0 = key[%d:0];" % (h - 1, h - 1))
    out.append("wire [%d:0] x1 = key[%d:%d];" % (h - 1, w - 1, h))
    name = {0: "x0", 1: "x1"}
    for i in range(1, rounds + 1):
        kin, kout = round_keys(seed, w, 0, i)
        s = TAPS[w][(i - 1) % 2]
        n = i + 1
        bits = need_last if n == rounds + 1 else h
        registered = n % 2 == 1 and n < rounds + 1 and not comb
        cur = "x%d" % n
        out.append("wire [%d:0] %s;" % (h - 1, cur))
        for j in range(bits):
            taps = [(j + sv) % h for sv in s]
            # LUT index: {X(i)[t3], X(i)[t2], X(i)[t1], X(i-1)[j]}.
            table = 0
            for v in range(16):
                l, a, bb, c = v & 1, v >> 1 & 1, v >> 2 & 1, v >> 3 & 1
                bit = l ^ g(a ^ kin[taps[0]], bb ^ kin[taps[1]], c ^ kin[taps[2]]) ^ kout[j]
                table |= bit << v
            index = "{%s[%d],%s[%d],%s[%d],%s[%d]}" % (
                name[i], taps[2], name[i], taps[1], name[i], taps[0], name[i - 1], j)
            out.append("assign %s[%d] = 16'h%04x >> %s;" % (cur, j, table, index))
        for j in range(bits, h):
            out.append("assign %s[%d] = 1'b0;" % (cur, j))
        name[n] = cur
        if registered:
            # Register the pair (X(i), X(i+1)) that the next rounds read.
            for m in (n - 1, n):
                out.append("reg [%d:0] r%d;" % (h - 1, m))
                out.append("always @(posedge clock) r%d <= %s;" % (m, name[m]))
                name[m] = "r%d" % m
    last, before = name[rounds + 1], name[rounds]
    bits = ["%s[%d]" % (last, j) for j in range(need_last)]
    bits += ["%s[%d]" % (before, j) for j in range(used - need_last)]
    expr = "{%s}" % ",".join(reversed(bits))
    if readback:
        out.append("assign addr = rb_sel ? rb_addr : %s;" % expr)
    else:
        out.append("assign addr = %s;" % expr)
    out.append("endmodule")
    return "\n".join(out)


def harness(w, used, readback):
    rb = ""
    conn = ""
    if readback:
        rb = "reg rb_sel; reg [%d:0] rb_addr;\nalways @(posedge clock) begin rb_sel <= key[0] & key[1]; rb_addr <= {rb_addr[%d:0], din}; end\n" % (used - 1, used - 2)
        conn = ", .rb_sel(rb_sel), .rb_addr(rb_addr)"
    return """
module top(input clock, input din, output reg dout);
reg [%d:0] key;
always @(posedge clock) key <= {key[%d:0], din};
%swire [%d:0] addr;
reg [%d:0] addr_r;
feistel_hash h(.clock(clock), .key(key), .addr(addr)%s);
always @(posedge clock) begin addr_r <= addr; dout <= ^addr_r; end
endmodule
""" % (w - 1, w - 2, rb, used - 1, used - 1, conn)


VECTORS = [
    (64, 4, 12, 0, 0x0),
    (64, 4, 12, 0, 0x1),
    (64, 4, 12, 0, 0x0123456789ABCDEF),
    (64, 4, 12, 1, 0x0123456789ABCDEF),
    (64, 6, 12, 0xDEADBEEF, 0xFFFFFFFFFFFFFFFF),
    (32, 7, 13, 0, 0x0A000001),
    (32, 16, 16, MASK64, 0xCAFEF00D),
]

if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["vectors"]:
        for w, k, b, seed, key in VECTORS:
            a = addresses(seed, w, k, b, key)
            print("| %d | %d | %d | %#x | %#x | %s |" % (w, k, b, seed, key, " ".join("%x" % x for x in a)))
    elif args[:1] == ["verilog"]:
        readback = "--readback" in args
        nums = [int(x, 0) for x in args[1:] if not x.startswith("--")]
        rounds = nums[0] if len(nums) > 0 else ROUNDS
        k, b = (nums[1], nums[2]) if len(nums) > 2 else (4, 12)
        seed = nums[3] if len(nums) > 3 else 0
        comb = "--comb" in args
        print(feistel_module(64, k, b, rounds, seed, readback, comb))
        if not comb:
            print(harness(64, k * b, readback))
    else:
        sys.exit(__doc__)
