//! The core's configuration (contract §1) and its validation.

use std::path::PathBuf;

use crate::HdlError;

/// Hash family of the partitions' hash units (contract §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashKind {
    H3,
    Crc,
}

impl std::fmt::Display for HashKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HashKind::H3 => "h3",
            HashKind::Crc => "crc",
        })
    }
}

impl std::str::FromStr for HashKind {
    type Err = HdlError;
    fn from_str(s: &str) -> Result<Self, HdlError> {
        match s {
            "h3" => Ok(HashKind::H3),
            "crc" => Ok(HashKind::Crc),
            other => Err(HdlError::Config(format!(
                "hash family `{other}` is not allowed (allowed: h3, crc)"
            ))),
        }
    }
}

/// Fault injection for the co-simulation's "teeth" test only: each switch makes the
/// generated core deliberately wrong, so that a test can prove it notices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestSwitches {
    /// Remove the read-after-write forwarding network (hazards then answer stale bits).
    pub disable_forwarding: bool,
    /// Build this bank's hash unit from seed + 1 instead of the configured seed.
    pub perturb_seed_of_bank: Option<usize>,
}

impl TestSwitches {
    pub fn any(&self) -> bool {
        self.disable_forwarding || self.perturb_seed_of_bank.is_some()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreConfig {
    pub k: usize,
    pub bank_bits: usize,
    pub key_bits: usize,
    pub hash: HashKind,
    pub seed: u64,
    /// Directory holding a memory image (contract §4) that becomes the banks' initial contents.
    pub preload: Option<PathBuf>,
    pub test_switches: TestSwitches,
}

impl Default for CoreConfig {
    fn default() -> Self {
        CoreConfig {
            k: 4,
            bank_bits: 12,
            key_bits: 64,
            hash: HashKind::H3,
            seed: 0,
            preload: None,
            test_switches: TestSwitches::default(),
        }
    }
}

pub const K_RANGE: std::ops::RangeInclusive<usize> = 1..=16;
pub const BANK_BITS_RANGE: std::ops::RangeInclusive<usize> = 6..=16;
pub const KEY_BITS_ALLOWED: [usize; 3] = [32, 64, 128];

impl CoreConfig {
    /// Checks every parameter against contract §1; the error names the parameter, the
    /// value given and the values allowed.
    pub fn validate(&self) -> Result<(), HdlError> {
        if !K_RANGE.contains(&self.k) {
            return Err(HdlError::Config(format!(
                "k = {} is not allowed (allowed: 1..=16)",
                self.k
            )));
        }
        if !BANK_BITS_RANGE.contains(&self.bank_bits) {
            return Err(HdlError::Config(format!(
                "bank_bits = {} is not allowed (allowed: 6..=16)",
                self.bank_bits
            )));
        }
        if !KEY_BITS_ALLOWED.contains(&self.key_bits) {
            return Err(HdlError::Config(format!(
                "key_bits = {} is not allowed (allowed: 32, 64, 128)",
                self.key_bits
            )));
        }
        if let Some(bank) = self.test_switches.perturb_seed_of_bank {
            if bank >= self.k {
                return Err(HdlError::Config(format!(
                    "test switch perturb_seed_of_bank = {bank} is not a bank of this core (allowed: 0..{})",
                    self.k
                )));
            }
        }
        Ok(())
    }

    pub fn bank_size(&self) -> usize {
        1 << self.bank_bits
    }

    /// Seed that bank `p`'s hash unit is built from (differs from `seed` only under the
    /// `perturb_seed_of_bank` test switch).
    pub fn seed_of_bank(&self, p: usize) -> u64 {
        if self.test_switches.perturb_seed_of_bank == Some(p) {
            self.seed.wrapping_add(1)
        } else {
            self.seed
        }
    }
}
