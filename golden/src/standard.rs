//! The standard Bloom filter: one shared array of 2^B bits probed k times,
//! for comparing layouts against the partitioned filter. Not part of the
//! hardware contract.
//!
//! Probe i uses hash unit i of contract §3 with a B-bit output: for H3 the
//! low B bits of SplitMix64 outputs `128 * i + j`, for CRC the low B bits of
//! field `i div 8` of CRC algorithm `i mod 8`. A CRC field is 16 bits wide,
//! so with CRC the array has at most 2^16 bits; H3 allows up to 2^24.

use std::fmt;

use crate::config::{check_key_bits, max_key, CoreParams, HashFamily};
use crate::error::{ConfigError, IncompatibleError, KeyError};
use crate::hash::HashUnits;
use crate::partitioned::MAX_PARTITIONS;

/// Allowed number of probes k.
pub const STANDARD_K_RANGE: std::ops::RangeInclusive<u32> = 1..=16;
/// Allowed array size exponents B with H3 (the array holds 2^B bits).
pub const STANDARD_ARRAY_BITS_RANGE_H3: std::ops::RangeInclusive<u32> = 6..=24;
/// Allowed array size exponents B with CRC (limited by the 16-bit fields).
pub const STANDARD_ARRAY_BITS_RANGE_CRC: std::ops::RangeInclusive<u32> = 6..=16;

/// Configuration of a [`StandardFilter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StandardConfig {
    /// Number of probes k, 1..=16.
    pub k: u32,
    /// Array size exponent B: the array holds 2^B bits (6..=24 for H3,
    /// 6..=16 for CRC).
    pub array_bits: u32,
    /// Key width W: 32, 64 or 128.
    pub key_bits: u32,
    pub hash: HashFamily,
    pub seed: u64,
}

impl StandardConfig {
    pub fn new(
        k: u32,
        array_bits: u32,
        key_bits: u32,
        hash: HashFamily,
        seed: u64,
    ) -> Result<Self, ConfigError> {
        let cfg = StandardConfig {
            k,
            array_bits,
            key_bits,
            hash,
            seed,
        };
        cfg.validate()?;
        Ok(cfg)
    }

    /// The standard filter with the same memory (k * 2^b bits), probes, key
    /// width, hash family and seed as the partitioned filter `cfg`. Needs k to
    /// be a power of two (so that k * 2^b = 2^B) and B within the range of
    /// the hash family.
    pub fn same_memory_as(cfg: &CoreParams) -> Result<Self, ConfigError> {
        cfg.validate()?;
        if !cfg.k.is_power_of_two() {
            return Err(ConfigError::Unsupported(format!(
                "a standard filter with the memory of k={} banks of 2^{} bits needs k to be a power of two \
                 (1, 2, 4, 8 or 16) so that k * 2^b is a power of two",
                cfg.k, cfg.bank_bits
            )));
        }
        StandardConfig::new(
            cfg.k,
            cfg.bank_bits + cfg.k.trailing_zeros(),
            cfg.key_bits,
            cfg.hash,
            cfg.seed,
        )
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if !STANDARD_K_RANGE.contains(&self.k) {
            return Err(ConfigError::OutOfRange {
                parameter: "k (probes)",
                value: self.k as u64,
                allowed: "1..=16",
            });
        }
        let (range, allowed) = match self.hash {
            HashFamily::H3 => (STANDARD_ARRAY_BITS_RANGE_H3, "6..=24 with h3"),
            HashFamily::Spn => (STANDARD_ARRAY_BITS_RANGE_H3, "6..=24 with spn"),
            HashFamily::Feistel => (STANDARD_ARRAY_BITS_RANGE_H3, "6..=24 with feistel"),
            HashFamily::Crc => (
                STANDARD_ARRAY_BITS_RANGE_CRC,
                "6..=16 with crc (16-bit CRC fields)",
            ),
        };
        if !range.contains(&self.array_bits) {
            return Err(ConfigError::OutOfRange {
                parameter: "array_bits (log2 of the shared array's bits)",
                value: self.array_bits as u64,
                allowed,
            });
        }
        check_key_bits(self.key_bits)?;
        Ok(self.hash.check_key_bits(self.key_bits)?)
    }

    /// Bits in the shared array, 2^B.
    pub fn array_size(&self) -> u32 {
        1u32 << self.array_bits
    }
}

impl fmt::Display for StandardConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "standard k={} array_bits={} key_bits={} hash={} seed={}",
            self.k, self.array_bits, self.key_bits, self.hash, self.seed
        )
    }
}

/// One array of 2^B bits, k probes per key.
#[derive(Clone, Debug)]
pub struct StandardFilter {
    cfg: StandardConfig,
    units: HashUnits,
    bits: Vec<u8>,
    fill: u32,
}

impl PartialEq for StandardFilter {
    fn eq(&self, other: &Self) -> bool {
        self.cfg == other.cfg && self.bits == other.bits
    }
}
impl Eq for StandardFilter {}

impl StandardFilter {
    pub fn new(cfg: StandardConfig) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(StandardFilter {
            cfg,
            units: HashUnits::new(cfg.hash, cfg.seed, cfg.k, cfg.key_bits, cfg.array_bits),
            bits: vec![0; cfg.array_size() as usize],
            fill: 0,
        })
    }

    pub fn config(&self) -> &StandardConfig {
        &self.cfg
    }

    /// The k probe positions of `key`, in probe order (they may coincide).
    pub fn probes(&self, key: u128) -> Result<Vec<u32>, KeyError> {
        let mut out = vec![0; self.cfg.k as usize];
        self.probes_into(key, &mut out)?;
        Ok(out)
    }

    /// Like [`StandardFilter::probes`] into `out[..k]`, without allocating.
    pub fn probes_into(&self, key: u128, out: &mut [u32]) -> Result<(), KeyError> {
        if key > max_key(self.cfg.key_bits) {
            return Err(KeyError {
                key,
                key_bits: self.cfg.key_bits,
            });
        }
        self.units.addresses_into(key, out);
        Ok(())
    }

    /// Sets the key's probed bits; true iff all were already set before.
    pub fn insert(&mut self, key: u128) -> Result<bool, KeyError> {
        let mut probes = [0u32; MAX_PARTITIONS];
        self.probes_into(key, &mut probes)?;
        let probes = &probes[..self.cfg.k as usize];
        let all_set = probes.iter().all(|&a| self.bits[a as usize] == 1);
        for &a in probes {
            if self.bits[a as usize] == 0 {
                self.bits[a as usize] = 1;
                self.fill += 1;
            }
        }
        Ok(all_set)
    }

    pub fn query(&self, key: u128) -> Result<bool, KeyError> {
        let mut probes = [0u32; MAX_PARTITIONS];
        self.probes_into(key, &mut probes)?;
        Ok(probes[..self.cfg.k as usize]
            .iter()
            .all(|&a| self.bits[a as usize] == 1))
    }

    pub fn clear(&mut self) {
        self.bits.fill(0);
        self.fill = 0;
    }

    /// The bit at `addr`; false outside the array.
    pub fn bit(&self, addr: u32) -> bool {
        self.bits.get(addr as usize) == Some(&1)
    }

    /// The array, one bit per element (0 or 1).
    pub fn bits(&self) -> &[u8] {
        &self.bits
    }

    /// Number of set bits.
    pub fn fill(&self) -> u32 {
        self.fill
    }

    /// Swamidass–Baldi: n = ln(1 - X/m) / (k ln(1 - 1/m)); infinite when full.
    pub fn estimated_items(&self) -> f64 {
        let m = self.cfg.array_size() as f64;
        let x = self.fill as f64;
        if x >= m {
            f64::INFINITY
        } else {
            (1.0 - x / m).ln() / (self.cfg.k as f64 * (1.0 - 1.0 / m).ln())
        }
    }

    /// (X/m)^k.
    pub fn fpr_estimate(&self) -> f64 {
        (self.fill as f64 / self.cfg.array_size() as f64).powi(self.cfg.k as i32)
    }

    fn combine(
        &self,
        other: &Self,
        operation: &'static str,
        op: fn(u8, u8) -> u8,
    ) -> Result<Self, IncompatibleError> {
        if self.cfg != other.cfg {
            return Err(IncompatibleError {
                operation,
                differences: format!("{} vs {}", self.cfg, other.cfg),
            });
        }
        let mut out = self.clone();
        for (bit, &theirs) in out.bits.iter_mut().zip(&other.bits) {
            *bit = op(*bit, theirs);
        }
        out.fill = out.bits.iter().map(|&b| b as u32).sum();
        Ok(out)
    }

    pub fn union(&self, other: &Self) -> Result<Self, IncompatibleError> {
        self.combine(other, "unite", |a, b| a | b)
    }

    pub fn intersection(&self, other: &Self) -> Result<Self, IncompatibleError> {
        self.combine(other, "intersect", |a, b| a & b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{crc_checksum, crc_message, h3_row64};

    #[test]
    fn bounds_are_enforced_with_clear_messages() {
        assert!(StandardConfig::new(0, 12, 64, HashFamily::H3, 0).is_err());
        assert!(StandardConfig::new(17, 12, 64, HashFamily::H3, 0).is_err());
        assert!(StandardConfig::new(4, 24, 64, HashFamily::H3, 0).is_ok());
        assert!(StandardConfig::new(4, 25, 64, HashFamily::H3, 0).is_err());
        let err = StandardConfig::new(4, 17, 64, HashFamily::Crc, 0)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("17") && err.contains("6..=16 with crc"),
            "{err}"
        );
        assert!(StandardConfig::new(4, 12, 48, HashFamily::H3, 0).is_err());
        let err =
            StandardConfig::same_memory_as(&CoreParams::new(3, 10, 64, HashFamily::H3, 0).unwrap())
                .unwrap_err();
        assert!(err.to_string().contains("power of two"), "{err}");
        let same =
            StandardConfig::same_memory_as(&CoreParams::new(4, 10, 64, HashFamily::H3, 7).unwrap())
                .unwrap();
        assert_eq!(
            same,
            StandardConfig::new(4, 12, 64, HashFamily::H3, 7).unwrap()
        );
    }

    #[test]
    fn probes_reuse_the_partition_hash_units_at_width_b() {
        let filter =
            StandardFilter::new(StandardConfig::new(3, 20, 64, HashFamily::H3, 11).unwrap())
                .unwrap();
        let key = (1u128 << 5) | (1 << 40);
        for (i, probe) in filter.probes(key).unwrap().into_iter().enumerate() {
            let expected =
                (h3_row64(11, i as u32, 5) ^ h3_row64(11, i as u32, 40)) & ((1 << 20) - 1);
            assert_eq!(probe as u64, expected);
        }
        let filter =
            StandardFilter::new(StandardConfig::new(10, 14, 32, HashFamily::Crc, 3).unwrap())
                .unwrap();
        let (message, len) = crc_message(3, 0xDEAD_BEEF, 32);
        let probes = filter.probes(0xDEAD_BEEF).unwrap();
        for (i, &probe) in probes.iter().enumerate() {
            let crc = crc_checksum(i % 8, &message[..len]).unwrap();
            assert_eq!(probe as u64, (crc >> (16 * (i / 8))) & 0x3FFF);
        }
    }

    #[test]
    fn insert_query_fill_and_estimates() {
        let mut filter =
            StandardFilter::new(StandardConfig::new(4, 10, 64, HashFamily::H3, 0).unwrap())
                .unwrap();
        for key in 0..100u128 {
            let before = filter.query(key).unwrap();
            assert_eq!(filter.insert(key).unwrap(), before);
        }
        for key in 0..100u128 {
            assert!(filter.query(key).unwrap());
        }
        let set = filter.bits().iter().filter(|&&b| b == 1).count() as u32;
        assert_eq!(filter.fill(), set);
        let n = filter.estimated_items();
        assert!((80.0..120.0).contains(&n), "estimated {n} for 100 keys");
        let x = set as f64 / 1024.0;
        assert!((filter.fpr_estimate() - x.powi(4)).abs() < 1e-15);
        assert!(filter.insert(1u128 << 64).is_err());
        let other = StandardFilter::new(StandardConfig::new(4, 10, 64, HashFamily::H3, 1).unwrap())
            .unwrap();
        assert!(filter
            .union(&other)
            .unwrap_err()
            .to_string()
            .contains("seed=1"));
        let empty = StandardFilter::new(*filter.config()).unwrap();
        assert_eq!(filter.union(&empty).unwrap(), filter);
        assert_eq!(filter.intersection(&empty).unwrap(), empty);
        filter.clear();
        assert_eq!(filter, empty);
        assert_eq!(filter.fill(), 0);
    }
}
