//! Keyed substitution-permutation networks over the key (contract §3.3 for
//! the family the product ships), written two ways: [`SpnDesign::block_naive`]
//! straight from the definition, one 4-bit column at a time, and
//! [`SpnBlocks`], the bitsliced evaluation the filter uses. Tests hold the
//! two equal.
//!
//! An [`SpnDesign`] is one point of the design space measured in
//! docs/theory.md ("Structured key sets"): an S-box, the rotation of each
//! plane per key width, and the number of rounds per key width. The family
//! of the contract is [`SPN`]; the others are kept for the measurement
//! (`golden/examples/hash_candidates.rs`).
//!
//! The state of a W-bit key is W bits, seen as four planes of W/4 bits:
//! plane j is bits `[(j+1)W/4 - 1 : jW/4]`. Column i (0 <= i < W/4) is the
//! 4-bit value whose bit j is bit i of plane j. One round is
//!
//! 1. `x ^= K[t][r]` (the round key of block t, round r, from the seed);
//! 2. every column c replaced by `SBOX[c]`;
//! 3. plane j rotated left by `rot[j]` (within its W/4 bits).
//!
//! Block t is the state after R rounds with block t's round keys; address
//! bit j of partition p is bit `g mod W` of block `g div W`, `g = p*b + j`.

use crate::splitmix::splitmix64_output;

/// PRESENT's S-box (Bogdanov et al., CHES 2007).
pub const PRESENT_SBOX: [u8; 16] = [
    0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD, 0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2,
];
/// GIFT's S-box (Banik et al., CHES 2017).
pub const GIFT_SBOX: [u8; 16] = [
    0x1, 0xA, 0x4, 0xC, 0x6, 0xF, 0x3, 0x9, 0x2, 0xD, 0xB, 0x7, 0x5, 0x0, 0x8, 0xE,
];
/// RECTANGLE's S-box (Zhang et al., 2014).
pub const RECTANGLE_SBOX: [u8; 16] = [
    0x6, 0x5, 0xC, 0xA, 0x1, 0xE, 0x7, 0x9, 0xB, 0x0, 0x3, 0xD, 0x8, 0xF, 0x4, 0x2,
];

/// The key widths an SPN is defined for, in the order of the per-width tables.
const WIDTHS: [u32; 3] = [32, 64, 128];

fn width_index(key_bits: u32) -> usize {
    WIDTHS
        .iter()
        .position(|&w| w == key_bits)
        .unwrap_or_else(|| panic!("SPN key width {key_bits} is not one of 32, 64, 128"))
}

/// One design of the family: S-box, rotations and rounds per key width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpnDesign {
    pub name: &'static str,
    pub sbox: [u8; 16],
    /// Rotation of planes 0..3 in even rounds (index 0) and odd rounds (index 1),
    /// for W = 32, 64, 128 (planes of 8, 16, 32 bits).
    pub rotations: [[[u32; 4]; 2]; 3],
    /// Rounds for W = 32, 64, 128.
    pub rounds: [u32; 3],
}

/// The family of contract §3.3: RECTANGLE's S-box, rotations taking turns
/// so that every state bit depends on every key bit after 3 rounds (W = 32,
/// 64) or 4 (W = 128), and the fewest rounds that keep the theory on the
/// structured-key suite (docs/theory.md, "Structured key sets").
pub const SPN: SpnDesign = SpnDesign {
    name: "spn",
    sbox: RECTANGLE_SBOX,
    rotations: [
        [[0, 1, 2, 3], [0, 1, 3, 5]],
        [[0, 1, 3, 6], [0, 4, 8, 12]],
        [[0, 12, 16, 20], [0, 13, 15, 18]],
    ],
    rounds: [5, 5, 6],
};

/// SplitMix64 outputs reserved per block: round r of block t uses outputs
/// `64 t + 2 r` (and `64 t + 2 r + 1` for the high half of a 128-bit key).
pub const SPN_KEY_STRIDE: u64 = 64;

impl SpnDesign {
    pub fn rounds(&self, key_bits: u32) -> u32 {
        self.rounds[width_index(key_bits)]
    }

    /// The plane rotations of round `round`.
    pub fn rotations(&self, key_bits: u32, round: u32) -> [u32; 4] {
        self.rotations[width_index(key_bits)][round as usize % 2]
    }

    /// This design with `rounds` rounds at every key width.
    pub fn with_rounds(self, rounds: u32) -> SpnDesign {
        SpnDesign {
            rounds: [rounds; 3],
            ..self
        }
    }

    /// Round key `K[t][r]` of a W-bit key for `seed`.
    pub fn round_key(seed: u64, key_bits: u32, block: u32, round: u32) -> u128 {
        let j = SPN_KEY_STRIDE * block as u64 + 2 * round as u64;
        let low = splitmix64_output(seed, j) as u128;
        match key_bits {
            128 => low | (splitmix64_output(seed, j + 1) as u128) << 64,
            _ => low & ((1u128 << key_bits) - 1),
        }
    }

    /// Block `block` of `key` for `seed`, evaluated literally: one column at
    /// a time, one bit of each plane at a time.
    pub fn block_naive(&self, seed: u64, key_bits: u32, block: u32, key: u128) -> u128 {
        let quarter = key_bits / 4;
        let bit = |x: u128, i: u32| (x >> i) & 1;
        let mut x = key;
        for round in 0..self.rounds(key_bits) {
            x ^= Self::round_key(seed, key_bits, block, round);
            let mut y = 0u128;
            for column in 0..quarter {
                let c = (0..4).fold(0u8, |c, j| c | (bit(x, j * quarter + column) as u8) << j);
                let s = self.sbox[c as usize];
                for j in 0..4 {
                    y |= ((s >> j) & 1) as u128 * (1u128 << (j * quarter + column));
                }
            }
            let mut z = 0u128;
            for (j, rot) in self.rotations(key_bits, round).into_iter().enumerate() {
                for i in 0..quarter {
                    let to = (i + rot) % quarter;
                    z |= bit(y, j as u32 * quarter + i) << (j as u32 * quarter + to);
                }
            }
            x = z;
        }
        x
    }

    /// Partition `p`'s `bank_bits`-bit address, evaluated literally from
    /// [`SpnDesign::block_naive`].
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
}

/// The S-box as bitsliced logic: output bit u is the XOR of the monomials
/// (products of input bits) of its algebraic normal form.
#[derive(Clone, Copy, Debug)]
struct Bitsliced {
    /// `anf[u]` bit m set: monomial m (the product of the input bits set in
    /// m; m = 0 is the constant 1) is in output bit u.
    anf: [u16; 4],
    /// The S-box is RECTANGLE's, whose 12-operation bitsliced form (the
    /// RECTANGLE paper's) is used instead of the algebraic normal form.
    rectangle: bool,
}

impl Bitsliced {
    fn new(sbox: &[u8; 16]) -> Self {
        let mut anf = [0u16; 4];
        for (u, anf) in anf.iter_mut().enumerate() {
            // Moebius transform of the truth table.
            let mut t: [u8; 16] = std::array::from_fn(|v| (sbox[v] >> u) & 1);
            for i in 0..4 {
                for v in 0..16 {
                    if v >> i & 1 == 1 {
                        t[v] ^= t[v ^ (1 << i)];
                    }
                }
            }
            *anf = (0..16).filter(|&m| t[m] == 1).fold(0, |a, m| a | 1 << m);
        }
        Bitsliced {
            anf,
            rectangle: *sbox == RECTANGLE_SBOX,
        }
    }

    #[inline(always)]
    fn apply(&self, planes: [u32; 4], mask: u32) -> [u32; 4] {
        if self.rectangle {
            let [a0, a1, a2, a3] = planes;
            let t1 = !a1 & mask;
            let t3 = a2 ^ a3;
            let b0 = (a0 & t1) ^ t3;
            let t6 = a0 ^ (a3 | t1);
            let b1 = a2 ^ t6;
            let t8 = a1 ^ a2;
            let b3 = t8 ^ (t3 & t6);
            let b2 = t6 ^ (b0 | t8);
            return [b0, b1, b2, b3];
        }
        let [a, b, c, d] = planes;
        let mut monomial = [0u32; 16];
        monomial[0] = mask;
        monomial[1] = a;
        monomial[2] = b;
        monomial[4] = c;
        monomial[8] = d;
        monomial[3] = a & b;
        monomial[5] = a & c;
        monomial[6] = b & c;
        monomial[7] = monomial[3] & c;
        monomial[9] = a & d;
        monomial[10] = b & d;
        monomial[11] = monomial[3] & d;
        monomial[12] = c & d;
        monomial[13] = monomial[5] & d;
        monomial[14] = monomial[6] & d;
        monomial[15] = monomial[7] & d;
        std::array::from_fn(|u| {
            let mut anf = self.anf[u];
            let mut out = 0;
            while anf != 0 {
                out ^= monomial[anf.trailing_zeros() as usize];
                anf &= anf - 1;
            }
            out
        })
    }
}

/// The blocks of one SPN for one seed and key width, with the round keys
/// split into planes once: the fast path of [`SpnDesign::block_naive`].
#[derive(Clone, Debug)]
pub struct SpnBlocks {
    key_bits: u32,
    quarter: u32,
    mask: u32,
    /// Plane rotations of even and odd rounds.
    rotations: [[u32; 4]; 2],
    sbox: Bitsliced,
    /// `keys[t][r]`: the planes of `K[t][r]`.
    keys: Vec<Vec<[u32; 4]>>,
}

impl SpnBlocks {
    /// Blocks 0..`blocks` of `design` for `seed` and `key_bits`-bit keys.
    pub fn new(design: &SpnDesign, seed: u64, key_bits: u32, blocks: u32) -> Self {
        let quarter = key_bits / 4;
        let mask = if quarter == 32 {
            u32::MAX
        } else {
            (1 << quarter) - 1
        };
        let keys = (0..blocks)
            .map(|t| {
                (0..design.rounds(key_bits))
                    .map(|r| {
                        let k = SpnDesign::round_key(seed, key_bits, t, r);
                        std::array::from_fn(|j| (k >> (j as u32 * quarter)) as u32 & mask)
                    })
                    .collect()
            })
            .collect();
        SpnBlocks {
            key_bits,
            quarter,
            mask,
            rotations: [design.rotations(key_bits, 0), design.rotations(key_bits, 1)],
            sbox: Bitsliced::new(&design.sbox),
            keys,
        }
    }

    /// The number of blocks needed for k addresses of b bits: ceil(k b / W).
    pub fn blocks_for(k: u32, bank_bits: u32, key_bits: u32) -> u32 {
        (k * bank_bits).div_ceil(key_bits)
    }

    #[inline(always)]
    fn rotate(&self, x: u32, by: u32) -> u32 {
        if by == 0 {
            x
        } else {
            ((x << by) | (x >> (self.quarter - by))) & self.mask
        }
    }

    /// Block `t` of `key`.
    #[inline]
    pub fn block(&self, t: usize, key: u128) -> u128 {
        let q = self.quarter;
        let mut planes: [u32; 4] =
            std::array::from_fn(|j| (key >> (j as u32 * q)) as u32 & self.mask);
        for (round, round_key) in self.keys[t].iter().enumerate() {
            let rotations = self.rotations[round % 2];
            let keyed = std::array::from_fn(|j| planes[j] ^ round_key[j]);
            let substituted = self.sbox.apply(keyed, self.mask);
            planes = std::array::from_fn(|j| self.rotate(substituted[j], rotations[j]));
        }
        planes.iter().enumerate().fold(0u128, |x, (j, &plane)| {
            x | (plane as u128) << (j as u32 * q)
        })
    }

    /// Writes the `bank_bits`-bit address of each of the first `out.len()`
    /// partitions.
    #[inline]
    pub fn addresses_into(&self, key: u128, bank_bits: u32, out: &mut [u32]) {
        stream_addresses(self.key_bits, bank_bits, |t| self.block(t, key), out);
    }
}

/// Writes the `bank_bits`-bit address of each of the first `out.len()`
/// partitions from blocks of `key_bits` bits numbered one after another
/// (contract §3.3: address bit j of partition p is bit `p*b + j` of the
/// stream); `block(t)` is block t.
#[inline(always)]
pub fn stream_addresses(
    key_bits: u32,
    bank_bits: u32,
    block: impl Fn(usize) -> u128,
    out: &mut [u32],
) {
    let w = key_bits;
    // Up to 16 units of up to 32 bits from 32-bit blocks.
    let mut blocks = [0u128; 16];
    let needed = (out.len() as u32 * bank_bits).div_ceil(w) as usize;
    for (t, b) in blocks.iter_mut().enumerate().take(needed) {
        *b = block(t);
    }
    let mask = (1u32 << bank_bits) - 1;
    for (p, address) in out.iter_mut().enumerate() {
        let g = p as u32 * bank_bits;
        let (t, offset) = ((g / w) as usize, g % w);
        let mut value = blocks[t] >> offset;
        if offset + bank_bits > w {
            value |= blocks[t + 1] << (w - offset);
        }
        *address = value as u32 & mask;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sbox_is_a_permutation() {
        for sbox in [PRESENT_SBOX, GIFT_SBOX, RECTANGLE_SBOX] {
            let mut seen = [false; 16];
            for v in sbox {
                seen[v as usize] = true;
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn bitsliced_sbox_equals_the_table() {
        for sbox in [PRESENT_SBOX, GIFT_SBOX, RECTANGLE_SBOX] {
            let sliced = Bitsliced::new(&sbox);
            // Column v of 16-bit planes holds the value v.
            let planes: [u32; 4] =
                std::array::from_fn(|j| (0..16).fold(0, |p, v| p | ((v >> j) & 1) << v));
            let out = sliced.apply(planes, 0xFFFF);
            for (v, &expected) in sbox.iter().enumerate() {
                let got = (0..4).fold(0u8, |s, j| s | (((out[j] >> v) & 1) as u8) << j);
                assert_eq!(got, expected, "column {v}");
            }
        }
    }

    #[test]
    fn fast_blocks_equal_the_naive_definition() {
        let mut key = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210u128;
        for design in [SPN, SPN.with_rounds(3)] {
            for key_bits in [32u32, 64, 128] {
                for seed in [0u64, 7, u64::MAX] {
                    let blocks = SpnBlocks::new(&design, seed, key_bits, 3);
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
}
