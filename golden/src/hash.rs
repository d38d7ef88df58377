//! The hash units of contract §3, written straight from its text.
//!
//! Hash unit p turns a key into an address of `out_bits` bits. The partitioned
//! filter uses `out_bits = b`; the standard filter reuses the same units with
//! the width of its shared array.

use crc::{
    Crc, Digest, CRC_32_AIXM, CRC_32_AUTOSAR, CRC_32_BASE91_D, CRC_32_ISCSI, CRC_32_ISO_HDLC,
    CRC_32_MEF, CRC_64_MS, CRC_64_XZ,
};

use crate::config::HashFamily;
use crate::feistel::{FeistelBlocks, FEISTEL};
pub use crate::splitmix::{splitmix64_output, SPLITMIX64_GAMMA};
use crate::spn::{SpnBlocks, SPN};

/// Rows reserved per partition in the SplitMix64 stream: partition p's row i is
/// output number `H3_ROW_STRIDE * p + i`, so a partition's matrix does not
/// depend on k or W.
pub const H3_ROW_STRIDE: u64 = 128;

/// The full 64-bit value behind H3 row `R[p][i]`; the row itself is its low
/// b bits.
pub fn h3_row64(seed: u64, partition: u32, row: u32) -> u64 {
    splitmix64_output(seed, H3_ROW_STRIDE * partition as u64 + row as u64)
}

/// Names of the CRC algorithms, indexed by `p mod 8` (contract §3.2).
pub const CRC_ALGORITHM_NAMES: [&str; 8] = [
    "CRC-32/ISCSI",
    "CRC-32/ISO-HDLC",
    "CRC-32/AUTOSAR",
    "CRC-32/BASE91-D",
    "CRC-32/MEF",
    "CRC-32/AIXM",
    "CRC-64/XZ",
    "CRC-64/MS",
];

static CRC32_UNITS: [Crc<u32>; 6] = [
    Crc::<u32>::new(&CRC_32_ISCSI),
    Crc::<u32>::new(&CRC_32_ISO_HDLC),
    Crc::<u32>::new(&CRC_32_AUTOSAR),
    Crc::<u32>::new(&CRC_32_BASE91_D),
    Crc::<u32>::new(&CRC_32_MEF),
    Crc::<u32>::new(&CRC_32_AIXM),
];
static CRC64_UNITS: [Crc<u64>; 2] = [Crc::<u64>::new(&CRC_64_XZ), Crc::<u64>::new(&CRC_64_MS)];

/// CRC algorithm number `algorithm` (0..8, the table of contract §3.2) over
/// `bytes`, widened to 64 bits; `None` for a number outside 0..8.
pub fn crc_checksum(algorithm: usize, bytes: &[u8]) -> Option<u64> {
    match algorithm {
        0..=5 => Some(CRC32_UNITS[algorithm].checksum(bytes) as u64),
        6 | 7 => Some(CRC64_UNITS[algorithm - 6].checksum(bytes)),
        _ => None,
    }
}

/// The CRC message of contract §3.2: the seed's 8 bytes little-endian, then
/// the key's W/8 bytes little-endian. Returns the buffer and its used length.
pub fn crc_message(seed: u64, key: u128, key_bits: u32) -> ([u8; 24], usize) {
    let mut message = [0u8; 24];
    message[..8].copy_from_slice(&seed.to_le_bytes());
    let key_bytes = (key_bits / 8) as usize;
    message[8..8 + key_bytes].copy_from_slice(&key.to_le_bytes()[..key_bytes]);
    (message, 8 + key_bytes)
}

/// A CRC whose state has already absorbed the seed bytes of the message.
#[derive(Clone)]
enum SeededCrc {
    W32(Digest<'static, u32>),
    W64(Digest<'static, u64>),
}

impl SeededCrc {
    fn new(algorithm: usize, seed: u64) -> Self {
        let seed_bytes = seed.to_le_bytes();
        match algorithm {
            0..=5 => {
                let mut digest = CRC32_UNITS[algorithm].digest();
                digest.update(&seed_bytes);
                SeededCrc::W32(digest)
            }
            _ => {
                let mut digest = CRC64_UNITS[algorithm - 6].digest();
                digest.update(&seed_bytes);
                SeededCrc::W64(digest)
            }
        }
    }

    /// The CRC of seed bytes ++ `key_bytes`, the same value as
    /// [`crc_checksum`] over the whole message.
    fn finish(&self, key_bytes: &[u8]) -> u64 {
        match self {
            SeededCrc::W32(digest) => {
                let mut digest = digest.clone();
                digest.update(key_bytes);
                digest.finalize() as u64
            }
            SeededCrc::W64(digest) => {
                let mut digest = digest.clone();
                digest.update(key_bytes);
                digest.finalize()
            }
        }
    }
}

impl std::fmt::Debug for SeededCrc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SeededCrc")
    }
}

/// A set of `units` hash units of one family, producing `out_bits`-bit
/// addresses for `key_bits`-bit keys.
///
/// Every family is evaluated the plain way, with shortcuts that do not
/// change any value: H3 XORs one precomputed entry per key byte (the XOR of
/// the rows that byte's set bits select) instead of one row per set bit,
/// CRC starts from a state that has already absorbed the 8 seed bytes, and
/// SPN runs bitsliced over the four planes with its round keys split once
/// ([`crate::spn`] holds its literal definition beside it), and Feistel runs
/// a half per machine word ([`crate::feistel`] holds its bit-by-bit form).
#[derive(Clone, Debug)]
pub(crate) struct HashUnits {
    family: HashFamily,
    units: usize,
    key_bytes: usize,
    mask: u32,
    /// H3 only: `byte_tables[(j * 256 + v) * units + p]` = XOR of rows
    /// R[p][8j + t] over the set bits t of v (the k partitions' entries for
    /// one key byte lie side by side).
    byte_tables: Vec<u32>,
    /// CRC only: algorithm `p mod 8` for p < min(units, 8).
    crcs: Vec<SeededCrc>,
    /// SPN only: the blocks the units' addresses are drawn from.
    spn: Option<SpnBlocks>,
    /// Feistel only: the blocks the units' addresses are drawn from.
    feistel: Option<FeistelBlocks>,
    out_bits: u32,
}

impl HashUnits {
    /// Callers guarantee units <= 16, out_bits <= 32 (<= 16 for CRC) and a
    /// valid key width (SPN: units * out_bits <= 16 W, out_bits <= 32).
    pub(crate) fn new(
        family: HashFamily,
        seed: u64,
        units: u32,
        key_bits: u32,
        out_bits: u32,
    ) -> Self {
        let mask = if out_bits >= 32 {
            u32::MAX
        } else {
            (1u32 << out_bits) - 1
        };
        let key_bytes = (key_bits / 8) as usize;
        let mut byte_tables = Vec::new();
        let mut crcs = Vec::new();
        let mut spn = None;
        let mut feistel = None;
        match family {
            HashFamily::H3 => {
                byte_tables.reserve(units as usize * key_bytes * 256);
                for j in 0..key_bytes as u32 {
                    let rows: Vec<Vec<u32>> = (0..units)
                        .map(|p| {
                            (0..8)
                                .map(|t| h3_row64(seed, p, 8 * j + t) as u32 & mask)
                                .collect()
                        })
                        .collect();
                    for v in 0..256u32 {
                        for rows in &rows {
                            let entry = (0..8)
                                .filter(|t| v >> t & 1 == 1)
                                .fold(0, |acc, t| acc ^ rows[t as usize]);
                            byte_tables.push(entry);
                        }
                    }
                }
            }
            HashFamily::Crc => {
                crcs = (0..units.min(8) as usize)
                    .map(|algorithm| SeededCrc::new(algorithm, seed))
                    .collect()
            }
            HashFamily::Spn => {
                let blocks = SpnBlocks::blocks_for(units, out_bits, key_bits);
                spn = Some(SpnBlocks::new(&SPN, seed, key_bits, blocks));
            }
            HashFamily::Feistel => {
                let blocks = (units * out_bits).div_ceil(key_bits);
                feistel = Some(FeistelBlocks::new(&FEISTEL, seed, key_bits, blocks));
            }
        }
        HashUnits {
            family,
            units: units as usize,
            key_bytes,
            mask,
            byte_tables,
            crcs,
            spn,
            feistel,
            out_bits,
        }
    }

    /// Writes unit p's address of `key` to `out[p]` for every unit. The key
    /// must already fit in the key width; `out` must hold at least `units`
    /// slots.
    pub(crate) fn addresses_into(&self, key: u128, out: &mut [u32]) {
        let out = &mut out[..self.units];
        let key_le = key.to_le_bytes();
        let key_bytes = &key_le[..self.key_bytes];
        match self.family {
            HashFamily::H3 => {
                out.fill(0);
                for (j, &byte) in key_bytes.iter().enumerate() {
                    let start = (j * 256 + byte as usize) * self.units;
                    let entries = &self.byte_tables[start..start + self.units];
                    for (address, entry) in out.iter_mut().zip(entries) {
                        *address ^= entry;
                    }
                }
            }
            HashFamily::Crc => {
                // Partitions p and p+8 share algorithm p mod 8 (different
                // fields), so each algorithm runs once per key.
                let mut values = [0u64; 8];
                for (value, crc) in values.iter_mut().zip(&self.crcs) {
                    *value = crc.finish(key_bytes);
                }
                for (p, address) in out.iter_mut().enumerate() {
                    let field = (values[p % 8] >> (16 * (p / 8))) as u32;
                    *address = field & self.mask;
                }
            }
            HashFamily::Spn => {
                let blocks = self.spn.as_ref().expect("made for the SPN family");
                blocks.addresses_into(key, self.out_bits, out);
            }
            HashFamily::Feistel => {
                let blocks = self.feistel.as_ref().expect("made for the Feistel family");
                blocks.addresses_into(key, self.out_bits, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_message_is_seed_le_then_key_le() {
        let (message, len) = crc_message(0x0102_0304_0506_0708, 0xA1A2_A3A4, 32);
        assert_eq!(
            &message[..len],
            &[8, 7, 6, 5, 4, 3, 2, 1, 0xA4, 0xA3, 0xA2, 0xA1]
        );
        let (_, len) = crc_message(0, u128::MAX, 128);
        assert_eq!(len, 24);
    }

    #[test]
    fn crc_checksum_rejects_algorithm_numbers_past_the_table() {
        assert!(crc_checksum(8, b"x").is_none());
    }

    #[test]
    fn h3_unit_address_is_xor_of_selected_rows() {
        let units = HashUnits::new(HashFamily::H3, 5, 3, 64, 10);
        let mut out = [0u32; 3];
        units.addresses_into(0, &mut out);
        assert_eq!(out, [0, 0, 0]);
        units.addresses_into((1 << 3) | (1 << 63), &mut out);
        for (p, address) in out.iter().enumerate() {
            let expected = (h3_row64(5, p as u32, 3) ^ h3_row64(5, p as u32, 63)) & 0x3FF;
            assert_eq!(*address as u64, expected);
        }
    }

    /// The shortcuts of `HashUnits` against the contract's definitions
    /// evaluated literally: one row per set key bit, one CRC over the whole
    /// message.
    #[test]
    fn hash_units_equal_the_literal_definitions() {
        let mut key = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210u128;
        for seed in [0u64, 1, u64::MAX, 0x5EED] {
            for key_bits in [32u32, 64, 128] {
                for out_bits in [6u32, 11, 16] {
                    let h3 = HashUnits::new(HashFamily::H3, seed, 16, key_bits, out_bits);
                    let crc = HashUnits::new(HashFamily::Crc, seed, 16, key_bits, out_bits);
                    let spn = HashUnits::new(HashFamily::Spn, seed, 16, key_bits, out_bits);
                    for _ in 0..50 {
                        key = key
                            .rotate_left(29)
                            .wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)
                            ^ 0x55;
                        let k = if key_bits == 128 {
                            key
                        } else {
                            key & ((1u128 << key_bits) - 1)
                        };
                        let mut out = [0u32; 16];
                        h3.addresses_into(k, &mut out);
                        for p in 0..16u32 {
                            let literal = (0..key_bits)
                                .filter(|&i| k >> i & 1 == 1)
                                .fold(0u64, |acc, i| acc ^ h3_row64(seed, p, i))
                                & ((1 << out_bits) - 1);
                            assert_eq!(
                                out[p as usize] as u64, literal,
                                "h3 p={p} W={key_bits} b={out_bits}"
                            );
                        }
                        crc.addresses_into(k, &mut out);
                        let (message, len) = crc_message(seed, k, key_bits);
                        for (p, &address) in out.iter().enumerate() {
                            let value = crc_checksum(p % 8, &message[..len]).unwrap();
                            let literal = (value >> (16 * (p / 8))) & ((1 << out_bits) - 1);
                            assert_eq!(
                                address as u64, literal,
                                "crc p={p} W={key_bits} b={out_bits}"
                            );
                        }
                        spn.addresses_into(k, &mut out);
                        for (p, &address) in out.iter().enumerate() {
                            let literal = SPN.address_naive(seed, key_bits, out_bits, p as u32, k);
                            assert_eq!(address, literal, "spn p={p} W={key_bits} b={out_bits}");
                        }
                    }
                }
            }
        }
    }
}
