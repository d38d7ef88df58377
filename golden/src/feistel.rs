//! Keyed Feistel networks over the key: [`FEISTEL`] is the `feistel` family of
//! contract §3.4, a cheaper non-linear network than the SPN of §3.3; the
//! other designs here (other g, taps and rounds) are the alternatives
//! measured on the structured-key suite in docs/theory.md ("Cheaper networks
//! measured"), by `golden/examples/hash_networks.rs`. scripts/feistel_cost.py
//! writes the Verilog of the networks and the contract's test vectors from
//! the definition alone, independently.
//!
//! The W-bit key is two halves of h = W/2 bits, X_0 = `key[h-1:0]` and
//! X_1 = `key[W-1:h]`. Round i (i = 1 .. R) of block t computes
//!
//! ```text
//! X_{i+1} = X_{i-1} ^ F(X_i),   F(X)[j] = g(Y[j+s1], Y[j+s2], Y[j+s3]) ^ KOUT[j],
//! Y = X ^ KIN,                  g(a, b, c) = a ^ (!b & c)   (Keccak's chi)
//! ```
//!
//! (indices mod h; taps (s1, s2, s3) taking turns between two sets, round i
//! using set (i - 1) mod 2), with KIN = K mod 2^h and KOUT = (K >> h) mod 2^h
//! for K = SplitMix64 output `64 t + i - 1` of the seed (contract §3.1).
//! Block t is X_{R+1} in its low h bits and X_R in its high h bits; address
//! bit j of partition p is bit `p*b + j` of the blocks one after another, as
//! for the SPN family.
//!
//! On a LUT4 fabric each bit of X_{i+1} is one LUT4 of X_{i-1}[j] and three
//! bits of X_i, the round key folded into its truth table: a round is h LUT4
//! on one level, half an SPN round, and every round is a bijection of the
//! state (a Feistel round is invertible whatever F is), so each block is a
//! permutation of the keys.

use crate::splitmix::splitmix64_output;
use crate::spn::stream_addresses;

/// One network: the 3-input function g, the tap sets and the rounds per key width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeistelDesign {
    pub name: &'static str,
    /// Truth table of g: bit `a + 2b + 4c` is g(a, b, c).
    pub g: u8,
    /// Tap shifts for W = 32 (halves of 16 bits) and W = 64 (32 bits): round
    /// i (1-based) uses set `(i - 1) % 2`.
    pub taps: [[[u32; 3]; 2]; 2],
    /// Rounds R.
    pub rounds: u32,
}

/// Keccak's chi on three bits, a ^ (!b & c), as a truth table (bit a + 2b + 4c).
pub const CHI: u8 = 0x9A;
/// The majority of three bits, as a truth table.
pub const MAJORITY: u8 = 0xE8;

/// The network measured best at 256 LUT4 (W = 64): chi, 8 rounds; the taps
/// reach every key bit from every bit of a half after 5 rounds (W = 64) or
/// 4 (W = 32), the fewest possible, and were chosen among such sets on the
/// suite (docs/theory.md).
pub const FEISTEL: FeistelDesign = FeistelDesign {
    name: "feistel-chi",
    g: CHI,
    taps: [[[0, 1, 12], [2, 8, 11]], [[0, 5, 14], [11, 24, 26]]],
    rounds: 8,
};

impl FeistelDesign {
    pub fn with_rounds(self, rounds: u32) -> FeistelDesign {
        FeistelDesign { rounds, ..self }
    }

    /// The tap sets of a W-bit key.
    pub fn taps(&self, key_bits: u32) -> [[u32; 3]; 2] {
        match key_bits {
            32 => self.taps[0],
            64 => self.taps[1],
            other => panic!("Feistel key width {other} is not one of 32, 64"),
        }
    }

    /// (KIN, KOUT) of round `round` (1-based) of block `block`.
    pub fn round_key(seed: u64, key_bits: u32, block: u32, round: u32) -> (u64, u64) {
        let h = key_bits / 2;
        let k = splitmix64_output(seed, 64 * block as u64 + round as u64 - 1);
        let mask = (1u64 << h) - 1;
        (k & mask, (k >> h) & mask)
    }

    /// Partition `p`'s `bank_bits`-bit address of `key` from [`Self::block_naive`]:
    /// bit j is bit `p * bank_bits + j` of the blocks one after another (as
    /// `SpnDesign::address_naive`).
    pub fn address_naive(
        &self,
        seed: u64,
        key_bits: u32,
        bank_bits: u32,
        p: u32,
        key: u128,
    ) -> u32 {
        (0..bank_bits).fold(0, |address, j| {
            let g = p * bank_bits + j;
            let block = self.block_naive(seed, key_bits, g / key_bits, key);
            address | (((block >> (g % key_bits)) & 1) as u32) << j
        })
    }

    /// Block `block` of `key`, one bit at a time from the definition.
    pub fn block_naive(&self, seed: u64, key_bits: u32, block: u32, key: u128) -> u128 {
        let h = (key_bits / 2) as usize;
        let bit = |x: u64, i: usize| ((x >> (i % h)) & 1) as u8;
        let half = |x: u128| (x as u64) & ((1u64 << h) - 1);
        let mut xs = vec![half(key), half(key >> h)];
        for i in 1..=self.rounds as usize {
            let (kin, kout) = Self::round_key(seed, key_bits, block, i as u32);
            let s = self.taps(key_bits)[(i - 1) % 2].map(|s| s as usize);
            let y = xs[i] ^ kin;
            let next = (0..h).fold(0u64, |x, j| {
                let v = bit(y, j + s[0]) | bit(y, j + s[1]) << 1 | bit(y, j + s[2]) << 2;
                let f = (self.g >> v) & 1 ^ bit(kout, j);
                x | ((bit(xs[i - 1], j) ^ f) as u64) << j
            });
            xs.push(next);
        }
        let r = self.rounds as usize;
        xs[r + 1] as u128 | (xs[r] as u128) << h
    }
}

/// The blocks of one network for one seed and key width: the fast path of
/// [`FeistelDesign::block_naive`], a half as a machine word, g bitwise.
#[derive(Clone, Debug)]
pub struct FeistelBlocks {
    key_bits: u32,
    half: u32,
    mask: u64,
    /// g's algebraic normal form: monomial m (bit 0 a, 1 b, 2 c) present.
    anf: [bool; 8],
    /// g is chi (the family's, contract §3.4): computed as its three operations.
    chi: bool,
    taps: [[u32; 3]; 2],
    /// `keys[t][i - 1]`: (KIN, KOUT) of round i of block t.
    keys: Vec<Vec<(u64, u64)>>,
}

impl FeistelBlocks {
    pub fn new(design: &FeistelDesign, seed: u64, key_bits: u32, blocks: u32) -> Self {
        let mut t: [u8; 8] = std::array::from_fn(|v| (design.g >> v) & 1);
        // Moebius transform of the truth table.
        for i in 0..3 {
            for v in 0..8 {
                if v >> i & 1 == 1 {
                    t[v] ^= t[v ^ (1 << i)];
                }
            }
        }
        let half = key_bits / 2;
        FeistelBlocks {
            key_bits,
            half,
            mask: (1u64 << half) - 1,
            anf: std::array::from_fn(|m| t[m] == 1),
            chi: design.g == CHI,
            taps: design.taps(key_bits),
            keys: (0..blocks)
                .map(|b| {
                    (1..=design.rounds)
                        .map(|i| FeistelDesign::round_key(seed, key_bits, b, i))
                        .collect()
                })
                .collect(),
        }
    }

    /// Y rotated so that bit j holds Y[j + s].
    #[inline(always)]
    fn tap(&self, y: u64, s: u32) -> u64 {
        if s == 0 {
            y
        } else {
            ((y >> s) | (y << (self.half - s))) & self.mask
        }
    }

    #[inline(always)]
    fn g(&self, a: u64, b: u64, c: u64) -> u64 {
        if self.chi {
            return a ^ (!b & c);
        }
        let terms = [self.mask, a, b, a & b, c, a & c, b & c, a & b & c];
        terms
            .iter()
            .zip(self.anf)
            .filter(|(_, present)| *present)
            .fold(0, |o, (term, _)| o ^ term)
    }

    /// Block `t` of `key`.
    #[inline]
    pub fn block(&self, t: usize, key: u128) -> u128 {
        if self.chi && self.half == 32 {
            return self.block_chi_32(t, key);
        }
        let mut before = key as u64 & self.mask;
        let mut x = (key >> self.half) as u64 & self.mask;
        for (i, &(kin, kout)) in self.keys[t].iter().enumerate() {
            let [s1, s2, s3] = self.taps[i % 2];
            let y = x ^ kin;
            let f = self.g(self.tap(y, s1), self.tap(y, s2), self.tap(y, s3)) ^ kout;
            (before, x) = (x, before ^ f);
        }
        x as u128 | (before as u128) << self.half
    }

    /// [`FeistelBlocks::block`] for the family's g (chi) on 32-bit halves
    /// (64-bit keys, the default filter's): a tap is a rotation of a 32-bit word.
    #[inline]
    fn block_chi_32(&self, t: usize, key: u128) -> u128 {
        let mut before = key as u32;
        let mut x = (key >> 32) as u32;
        for (i, &(kin, kout)) in self.keys[t].iter().enumerate() {
            let [s1, s2, s3] = self.taps[i % 2];
            let y = x ^ kin as u32;
            let f = (y.rotate_right(s1) ^ (!y.rotate_right(s2) & y.rotate_right(s3))) ^ kout as u32;
            (before, x) = (x, before ^ f);
        }
        x as u128 | (before as u128) << 32
    }

    /// Writes the `bank_bits`-bit address of each of the first `out.len()`
    /// partitions: the blocks' bits one after another, as the SPN's.
    pub fn addresses_into(&self, key: u128, bank_bits: u32, out: &mut [u32]) {
        stream_addresses(self.key_bits, bank_bits, |t| self.block(t, key), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truth_tables_are_their_functions() {
        let table = |f: &dyn Fn(u8, u8, u8) -> u8| {
            (0..8u8).fold(0u8, |t, v| t | f(v & 1, v >> 1 & 1, v >> 2 & 1) << v)
        };
        assert_eq!(CHI, table(&|a, b, c| a ^ ((b ^ 1) & c)));
        assert_eq!(MAJORITY, table(&|a, b, c| (a & b) | (a & c) | (b & c)));
    }

    #[test]
    fn fast_blocks_equal_the_naive_definition() {
        let mut key = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210u128;
        for design in [FEISTEL, FEISTEL.with_rounds(3)] {
            for key_bits in [32u32, 64] {
                for seed in [0u64, 7, u64::MAX] {
                    let blocks = FeistelBlocks::new(&design, seed, key_bits, 3);
                    for _ in 0..20 {
                        key = key.rotate_left(17).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 1;
                        let k = key & crate::config::max_key(key_bits);
                        for t in 0..3 {
                            assert_eq!(
                                blocks.block(t, k),
                                design.block_naive(seed, key_bits, t as u32, k),
                                "W={key_bits} seed={seed} block {t}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// W, k, b, seed, key and the k addresses.
    type Vector = (u32, u32, u32, u64, u128, &'static [u32]);

    /// Addresses computed from the definition alone by scripts/feistel_cost.py
    /// (`python3 scripts/feistel_cost.py vectors`).
    #[test]
    fn addresses_equal_the_script_vectors() {
        let vectors: [Vector; 7] = [
            (64, 4, 12, 0, 0x0, &[0x8d, 0xdba, 0x436, 0xaba]),
            (64, 4, 12, 0, 0x1, &[0x848, 0x6a4, 0xb3b, 0x9cd]),
            (
                64,
                4,
                12,
                0,
                0x0123_4567_89ab_cdef,
                &[0x784, 0x1b3, 0x5e5, 0x325],
            ),
            (
                64,
                4,
                12,
                1,
                0x0123_4567_89ab_cdef,
                &[0xa43, 0xa35, 0xecd, 0xef0],
            ),
            (
                64,
                6,
                12,
                0xdead_beef,
                0xffff_ffff_ffff_ffff,
                &[0x5f4, 0xe62, 0xbe2, 0x1d4, 0xcca, 0x5ff],
            ),
            (
                32,
                7,
                13,
                0,
                0xa00_0001,
                &[0x4f1, 0x1a8a, 0x100e, 0x1d32, 0xebe, 0x19bf, 0xd23],
            ),
            (
                32,
                16,
                16,
                u64::MAX,
                0xcafe_f00d,
                &[
                    0xc56d, 0x8223, 0xaafe, 0xcabc, 0x5f42, 0x816, 0x60a3, 0x14d, 0x9d61, 0xa768,
                    0x8105, 0xf924, 0xfb29, 0xffaf, 0xa901, 0x1eae,
                ],
            ),
        ];
        for (w, k, b, seed, key, expected) in vectors {
            let blocks = FeistelBlocks::new(&FEISTEL, seed, w, (k * b).div_ceil(w));
            let mut out = vec![0; k as usize];
            blocks.addresses_into(key, b, &mut out);
            assert_eq!(out, expected, "W={w} k={k} b={b} seed={seed} key={key:#x}");
        }
    }
}
