#!/usr/bin/env python3
"""Test vectors of the SPN hash family, computed from docs/contract.md section
3.3 alone (big integers, one column and one bit at a time), for the contract's
table and the known-answer tests of the golden model and the hardware:

    python3 scripts/spn_vectors.py

Prints one Markdown table row per vector: W, k, b, seed, key, then the k
addresses in hexadecimal, partition 0 first.
"""

MASK64 = (1 << 64) - 1
SBOX = [0x6, 0x5, 0xC, 0xA, 0x1, 0xE, 0x7, 0x9, 0xB, 0x0, 0x3, 0xD, 0x8, 0xF, 0x4, 0x2]
ROUNDS = {32: 5, 64: 5, 128: 6}
RHO = {
    32: [(0, 1, 2, 3), (0, 1, 3, 5)],
    64: [(0, 1, 3, 6), (0, 4, 8, 12)],
    128: [(0, 12, 16, 20), (0, 13, 15, 18)],
}


def splitmix64(seed, j):
    z = (seed + (j + 1) * 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def round_key(seed, w, t, r):
    j = 64 * t + 2 * r
    if w == 64:
        return splitmix64(seed, j)
    if w == 32:
        return splitmix64(seed, j) & 0xFFFFFFFF
    return splitmix64(seed, j) + (splitmix64(seed, j + 1) << 64)


def block(seed, w, t, key):
    q = w // 4
    x = [(key >> i) & 1 for i in range(w)]
    for r in range(ROUNDS[w]):
        k = round_key(seed, w, t, r)
        x = [x[i] ^ ((k >> i) & 1) for i in range(w)]
        y = [0] * w
        for i in range(q):
            c = sum(x[j * q + i] << j for j in range(4))
            s = SBOX[c]
            for j in range(4):
                y[j * q + i] = (s >> j) & 1
        z = [0] * w
        for j in range(4):
            rho = RHO[w][r % 2][j]
            for i in range(q):
                z[j * q + (i + rho) % q] = y[j * q + i]
        x = z
    return x


def addresses(seed, w, k, b, key, block=block):
    """The k addresses from the stream of blocks (block(seed, w, t, key): a
    list of W bits); scripts/feistel_cost.py passes its own blocks."""
    blocks = {}
    out = []
    for p in range(k):
        a = 0
        for j in range(b):
            g = p * b + j
            t = g // w
            if t not in blocks:
                blocks[t] = block(seed, w, t, key)
            a |= blocks[t][g % w] << j
        out.append(a)
    return out


VECTORS = [
    (64, 4, 12, 0, 0),
    (64, 4, 12, 0, 1),
    (64, 4, 12, 0, 0x0123456789ABCDEF),
    (64, 4, 12, 1, 0x0123456789ABCDEF),
    (64, 6, 12, 0xDEADBEEF, 0xFFFFFFFFFFFFFFFF),
    (32, 7, 13, 0, 0x0A000001),
    (32, 16, 16, 2**64 - 1, 0xCAFEF00D),
    (128, 4, 12, 0, 0x0123456789ABCDEF_FEDCBA9876543210),
    (128, 16, 16, 42, 1 << 127),
]

BLOCKS = [(64, 0, 0, 0), (64, 0, 1, 0), (32, 0, 0, 0), (128, 0, 0, 0)]

if __name__ == "__main__":
    print("| W | seed | block t | key | B_t(key) |")
    print("|---|---|---|---|---|")
    for w, seed, t, key in BLOCKS:
        bits = block(seed, w, t, key)
        value = sum(bit << i for i, bit in enumerate(bits))
        print("| %d | %#x | %d | %#x | %#0*x |" % (w, seed, t, key, w // 4 + 2, value))
    print()
    print("| W | k | b | seed | key | addresses |")
    print("|---|---|---|---|---|---|")
    for w, k, b, seed, key in VECTORS:
        a = addresses(seed, w, k, b, key)
        print("| %d | %d | %d | %#x | %#x | %s |" % (w, k, b, seed, key, " ".join("%x" % v for v in a)))
