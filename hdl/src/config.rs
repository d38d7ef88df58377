//! What the core is generated from: the filter's parameters (contract §1, the
//! shared table of `bloom_params`), an optional preload image, and the fault
//! switches the co-simulation's tests use.

use std::path::PathBuf;

use bloom_params::CoreParams;
use serde::Serialize;

use crate::HdlError;

/// Fault injection for the co-simulation's "teeth" test only: each switch makes the
/// generated core deliberately wrong, so that a test can prove it notices.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TestSwitches {
    /// Remove the read-after-write forwarding network (hazards then answer stale bits).
    pub disable_forwarding: bool,
    /// Build this bank's hash unit from seed + 1 instead of the configured seed.
    pub perturb_seed_of_bank: Option<usize>,
    /// Counting core only: a delete's counter value is not forwarded to the slots behind
    /// it (they read the RAM, which has not seen the decrement yet).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disable_delete_forwarding: bool,
    /// The scrub counts only what it reads, not the changes of writes at the addresses it
    /// has already read (so a scrub with writes running reports banks that are intact).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disable_scrub_correction: bool,
}

impl TestSwitches {
    pub fn any(&self) -> bool {
        self.disable_forwarding
            || self.perturb_seed_of_bank.is_some()
            || self.disable_delete_forwarding
            || self.disable_scrub_correction
    }

    /// `_nofwd`, `_perturb2`: appended to a configuration's label.
    pub fn label(&self) -> String {
        let mut s = String::new();
        if self.disable_forwarding {
            s.push_str("_nofwd");
        }
        if let Some(b) = self.perturb_seed_of_bank {
            s.push_str(&format!("_perturb{b}"));
        }
        if self.disable_delete_forwarding {
            s.push_str("_nodelfwd");
        }
        if self.disable_scrub_correction {
            s.push_str("_noscrubfix");
        }
        s
    }
}

/// The longest period of a periodic scrub, in cycles (its counter's 24 bits).
pub const MAX_SCRUB_EVERY: u32 = 1 << 24;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoreConfig {
    pub params: CoreParams,
    /// Directory holding a memory image (contract §4) that becomes the banks' initial contents.
    pub preload: Option<PathBuf>,
    pub test_switches: TestSwitches,
    /// Build the scrub (docs/contract.md §5.2). Without it `scrub_req` is ignored and
    /// `scrub_busy` and `scrub_mismatch` read 0; its registers are held at 0, so
    /// synthesis removes its logic (it costs LUTs and Fmax: docs/core.md, "Scrub").
    pub scrub: bool,
    /// With the scrub: the core also requests a scrub itself every this many cycles
    /// (docs/contract.md §5.2, "Periodic"): 2..=2^24.
    pub scrub_every: Option<u32>,
}

impl From<CoreParams> for CoreConfig {
    fn from(params: CoreParams) -> Self {
        CoreConfig {
            params,
            preload: None,
            test_switches: TestSwitches::default(),
            scrub: false,
            scrub_every: None,
        }
    }
}

impl CoreConfig {
    /// Checks the parameters (they may have been built by hand) and the test
    /// switches; the error names the parameter, the value given and the values allowed.
    pub fn validate(&self) -> Result<(), HdlError> {
        self.params
            .validate()
            .map_err(|e| HdlError::Config(e.to_string()))?;
        if let Some(n) = self.scrub_every {
            if !self.scrub {
                return Err(HdlError::Config(format!(
                    "scrub_every = {n} needs the scrub (scrub = true)"
                )));
            }
            if !(2..=MAX_SCRUB_EVERY).contains(&n) {
                return Err(HdlError::Config(format!(
                    "scrub_every = {n} is out of range (allowed: 2..={MAX_SCRUB_EVERY} cycles)"
                )));
            }
        }
        if self.test_switches.disable_delete_forwarding && self.params.counter_bits < 2 {
            return Err(HdlError::Config(
                "test switch disable_delete_forwarding needs a counting core (counter_bits >= 2)"
                    .into(),
            ));
        }
        if let Some(bank) = self.test_switches.perturb_seed_of_bank {
            if bank >= self.k() {
                return Err(HdlError::Config(format!(
                    "test switch perturb_seed_of_bank = {bank} is not a bank of this core (allowed: 0..{})",
                    self.k()
                )));
            }
        }
        Ok(())
    }

    /// Partitions k.
    pub fn k(&self) -> usize {
        self.params.k as usize
    }

    /// Bank size exponent b.
    pub fn bank_bits(&self) -> usize {
        self.params.bank_bits as usize
    }

    /// Key width W.
    pub fn key_bits(&self) -> usize {
        self.params.key_bits as usize
    }

    pub fn bank_size(&self) -> usize {
        1 << self.bank_bits()
    }

    /// Seed that bank `p`'s hash unit is built from (differs from the seed only under the
    /// `perturb_seed_of_bank` test switch).
    pub fn seed_of_bank(&self, p: usize) -> u64 {
        if self.test_switches.perturb_seed_of_bank == Some(p) {
            self.params.seed.wrapping_add(1)
        } else {
            self.params.seed
        }
    }

    /// `h3_k4_b12_w64_s0`, plus `_scrub` when the scrub is built and the test switches if any.
    pub fn label(&self) -> String {
        let scrub = match (self.scrub, self.scrub_every) {
            (false, _) => String::new(),
            (true, None) => "_scrub".to_string(),
            (true, Some(n)) => format!("_scrub{n}"),
        };
        self.params.label() + &scrub + &self.test_switches.label()
    }
}
