//! The counting Bloom filter of contract §7: k banks of 2^b saturating
//! counters of c bits, bank p addressed by the same hash unit p as the plain
//! filter.
//!
//! Written straight from the contract's text, like the plain filter: one
//! `Vec` of counters per bank, every operation reads the key's k counters,
//! decides, then writes them. With c = 1 it is the plain filter
//! ([`PartitionedFilter`]) operation for operation (tested in
//! `golden/tests/counting.rs`).

use std::fmt;
use std::str::FromStr;

use crate::config::{CoreParams, COUNTER_BITS, COUNTER_BITS_RANGE};
use crate::error::IncompatibleError;
use crate::error::{ConfigError, KeyError};
use crate::hash::HashUnits;
use crate::partitioned::{check_banks, Op, PartitionedFilter, MAX_PARTITIONS};

/// A validated counter width c (contract §7.1). Build it once with
/// [`CounterBits::new`] (or parse it); every value of this type is in the
/// parameter table's range for `counter_bits`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CounterBits(u32);

impl CounterBits {
    /// c = 1: the plain filter of contract §4-§6.
    pub const PLAIN: CounterBits = CounterBits(1);
    /// c = 4: the width the seeds recommend (survey §2.5, Summary Cache page).
    pub const FOUR: CounterBits = CounterBits(4);

    /// Rejects a width outside 1..=8 with an error naming the parameter, the
    /// value given and the values allowed.
    pub fn new(c: u32) -> Result<CounterBits, ConfigError> {
        COUNTER_BITS.check(c as u64)?;
        Ok(CounterBits(c))
    }

    /// Every allowed width, 1 to 8.
    pub fn all() -> impl Iterator<Item = CounterBits> {
        COUNTER_BITS_RANGE.map(CounterBits)
    }

    /// The width c in bits.
    pub fn get(self) -> u32 {
        self.0
    }

    /// The saturation value S = 2^c - 1, the largest value a counter holds.
    pub fn saturation(self) -> u8 {
        ((1u32 << self.0) - 1) as u8
    }

    /// True for c > 1: deletes are carried out (contract §7.2).
    pub fn is_counting(self) -> bool {
        self.0 > 1
    }
}

impl Default for CounterBits {
    /// The contract's default, c = 1.
    fn default() -> Self {
        CounterBits::PLAIN
    }
}

impl fmt::Display for CounterBits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for CounterBits {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match COUNTER_BITS.parse(s)? {
            crate::config::Value::Number(c) => CounterBits::new(c as u32),
            crate::config::Value::Name(name) => Err(COUNTER_BITS.not_allowed(name).into()),
        }
    }
}

impl TryFrom<u32> for CounterBits {
    type Error = ConfigError;
    fn try_from(c: u32) -> Result<Self, Self::Error> {
        CounterBits::new(c)
    }
}

/// The golden counting Bloom filter (contract §7).
///
/// Counter a of bank p is `bank(p)[a]`, a value in 0..=S with
/// S = 2^c - 1. Fill (non-zero counters) and saturated counts (counters at S)
/// are kept per bank.
#[derive(Clone, Debug)]
pub struct CountingFilter {
    cfg: CoreParams,
    counter_bits: CounterBits,
    units: HashUnits,
    /// One vector of 2^b counters per bank.
    banks: Vec<Vec<u8>>,
    /// Non-zero counters of each bank.
    fill: Vec<u32>,
    /// Counters at S of each bank.
    saturated: Vec<u32>,
}

/// What one delete did (contract §7.5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deleted {
    /// 1: every counter was non-zero and the delete was carried out; 0: absent.
    pub hit: bool,
    /// Counters of the key at S that the carried-out delete left at S.
    pub saturated: u32,
}

impl PartialEq for CountingFilter {
    fn eq(&self, other: &Self) -> bool {
        self.cfg == other.cfg
            && self.counter_bits == other.counter_bits
            && self.banks == other.banks
    }
}
impl Eq for CountingFilter {}

impl CountingFilter {
    /// An empty filter (every counter 0) of configuration `cfg` with its
    /// `counter_bits` set to `counter_bits`.
    ///
    /// # Panics
    /// If `cfg` is outside contract §1, which only a hand-built `CoreParams` can
    /// be; use [`CountingFilter::try_new`] for unchecked values.
    pub fn new(cfg: CoreParams, counter_bits: CounterBits) -> Self {
        match Self::try_new(cfg, counter_bits) {
            Ok(filter) => filter,
            Err(err) => {
                panic!("CountingFilter::new: {err} (build the CoreParams with CoreParams::new)")
            }
        }
    }

    /// An empty filter, or the reason `cfg` is invalid.
    pub fn try_new(cfg: CoreParams, counter_bits: CounterBits) -> Result<Self, ConfigError> {
        cfg.validate()?;
        let cfg = CoreParams {
            counter_bits: counter_bits.get(),
            ..cfg
        };
        let k = cfg.k as usize;
        Ok(CountingFilter {
            cfg,
            counter_bits,
            units: HashUnits::new(cfg.hash, cfg.seed, cfg.k, cfg.key_bits, cfg.bank_bits),
            banks: vec![vec![0; cfg.bank_size() as usize]; k],
            fill: vec![0; k],
            saturated: vec![0; k],
        })
    }

    /// An empty filter of configuration `cfg`, its counter width included.
    pub fn from_config(cfg: CoreParams) -> Result<Self, ConfigError> {
        Self::try_new(cfg, CounterBits::new(cfg.counter_bits)?)
    }

    /// The configuration, `counter_bits` included.
    pub fn config(&self) -> &CoreParams {
        &self.cfg
    }

    pub fn counter_bits(&self) -> CounterBits {
        self.counter_bits
    }

    /// The saturation value S = 2^c - 1.
    pub fn saturation(&self) -> u8 {
        self.counter_bits.saturation()
    }

    /// Rejects keys wider than the key width (contract §2).
    pub fn check_key(&self, key: u128) -> Result<(), KeyError> {
        crate::partitioned::check_key(&self.cfg, key)
    }

    /// The address a_p of `key` in every bank p, in bank order (the same as
    /// the plain filter's, contract §3).
    pub fn addresses(&self, key: u128) -> Result<Vec<u32>, KeyError> {
        let mut out = [0u32; MAX_PARTITIONS];
        self.addresses_into(key, &mut out)?;
        Ok(out[..self.cfg.k as usize].to_vec())
    }

    fn addresses_into(&self, key: u128, out: &mut [u32; MAX_PARTITIONS]) -> Result<(), KeyError> {
        self.check_key(key)?;
        self.units.addresses_into(key, out);
        Ok(())
    }

    /// Writes one counter and keeps the bank's fill and saturated count.
    fn set(&mut self, bank: usize, addr: u32, value: u8) {
        let saturation = self.saturation();
        let old = std::mem::replace(&mut self.banks[bank][addr as usize], value);
        self.fill[bank] = self.fill[bank] + (value != 0) as u32 - (old != 0) as u32;
        self.saturated[bank] =
            self.saturated[bank] + (value == saturation) as u32 - (old == saturation) as u32;
    }

    /// The key's addresses and whether every one of its counters is non-zero
    /// ("present", contract §7.1).
    fn look_up(&self, key: u128) -> Result<([u32; MAX_PARTITIONS], bool), KeyError> {
        let mut addrs = [0u32; MAX_PARTITIONS];
        self.addresses_into(key, &mut addrs)?;
        let present = (0..self.cfg.k as usize).all(|p| self.banks[p][addrs[p] as usize] != 0);
        Ok((addrs, present))
    }

    /// True iff every counter of the key is non-zero.
    pub fn query(&self, key: u128) -> Result<bool, KeyError> {
        Ok(self.look_up(key)?.1)
    }

    /// Increments every counter of the key that is below S; true iff all
    /// of them were non-zero before (contract §7.2).
    pub fn insert(&mut self, key: u128) -> Result<bool, KeyError> {
        let (addrs, present) = self.look_up(key)?;
        let saturation = self.saturation();
        for (p, &addr) in addrs.iter().enumerate().take(self.cfg.k as usize) {
            let value = self.banks[p][addr as usize];
            if value < saturation {
                self.set(p, addr, value + 1);
            }
        }
        Ok(present)
    }

    /// If every counter of the key is non-zero, decrements each one below S
    /// and answers true; otherwise changes nothing and answers false
    /// (contract §7.2). With c = 1 nothing is ever below S and non-zero, so
    /// this is a query (contract §7.7).
    pub fn delete(&mut self, key: u128) -> Result<bool, KeyError> {
        let (addrs, present) = self.look_up(key)?;
        if present {
            let saturation = self.saturation();
            for (p, &addr) in addrs.iter().enumerate().take(self.cfg.k as usize) {
                let value = self.banks[p][addr as usize];
                if value < saturation {
                    self.set(p, addr, value - 1);
                }
            }
        }
        Ok(present)
    }

    /// [`CountingFilter::delete`], also saying how many of the key's counters a
    /// carried-out delete met at S and left there (contract §7.5.1's report).
    pub fn delete_counted(&mut self, key: u128) -> Result<Deleted, KeyError> {
        let (addrs, present) = self.look_up(key)?;
        let saturation = self.saturation();
        let saturated = if present {
            addrs
                .iter()
                .enumerate()
                .take(self.cfg.k as usize)
                .filter(|(p, &addr)| self.banks[*p][addr as usize] == saturation)
                .count() as u32
        } else {
            0
        };
        let hit = self.delete(key)?;
        Ok(Deleted { hit, saturated })
    }

    /// Sets every counter of every bank to 0.
    pub fn clear(&mut self) {
        for bank in &mut self.banks {
            bank.fill(0);
        }
        self.fill.fill(0);
        self.saturated.fill(0);
    }

    /// Applies one operation and returns its response `hit` (contract §7.2).
    pub fn apply(&mut self, op: Op) -> Result<bool, KeyError> {
        match op {
            Op::Query(key) => self.query(key),
            Op::Insert(key) => self.insert(key),
            Op::Delete(key) => self.delete(key),
            Op::Clear => {
                self.clear();
                Ok(false)
            }
        }
    }

    /// The counter write of contract §7.8 (the hardware's bank access port):
    /// sets counter `addr` of bank `bank` to `value` and returns the value it
    /// had. A bank >= k, an address >= 2^b or a value above S is an error and
    /// changes nothing.
    pub fn write_counter(&mut self, bank: usize, addr: u32, value: u8) -> Result<u8, ConfigError> {
        let old = self.counter(bank, addr).ok_or_else(|| {
            ConfigError::Unsupported(format!(
                "bank {bank} address {addr} is outside the filter (k = {}, bank_bits = {})",
                self.cfg.k, self.cfg.bank_bits
            ))
        })?;
        if value > self.saturation() {
            return Err(ConfigError::Unsupported(format!(
                "counter value {value}: counters of {} bits hold 0..={}",
                self.counter_bits,
                self.saturation()
            )));
        }
        self.set(bank, addr, value);
        Ok(old)
    }

    /// Counter `addr` of bank `bank`; `None` outside the filter.
    pub fn counter(&self, bank: usize, addr: u32) -> Option<u8> {
        self.banks.get(bank)?.get(addr as usize).copied()
    }

    /// Bank p's counters, element a = address a; `None` for p >= k.
    pub fn bank(&self, bank: usize) -> Option<&[u8]> {
        self.banks.get(bank).map(Vec::as_slice)
    }

    /// The number of non-zero counters of every bank, in bank order
    /// (contract §7.5).
    pub fn fill(&self) -> Vec<u32> {
        self.fill.clone()
    }

    /// The non-zero counters of one bank (0 for p >= k).
    pub fn fill_of(&self, bank: usize) -> u32 {
        self.fill.get(bank).copied().unwrap_or(0)
    }

    /// The number of counters at S in every bank, in bank order
    /// (contract §7.5).
    pub fn saturated(&self) -> Vec<u32> {
        self.saturated.clone()
    }

    /// The counters at S of one bank (0 for p >= k).
    pub fn saturated_of(&self, bank: usize) -> u32 {
        self.saturated.get(bank).copied().unwrap_or(0)
    }

    /// The 0-1 projection (contract §7.5): the plain filter of the same
    /// configuration whose bit is 1 where the counter is non-zero.
    pub fn to_plain(&self) -> PartitionedFilter {
        let bits: Vec<Vec<u8>> = self
            .banks
            .iter()
            .map(|bank| bank.iter().map(|&v| (v != 0) as u8).collect())
            .collect();
        PartitionedFilter::from_banks(self.cfg.plain(), &bits)
            .expect("k banks of 2^b bits, each 0 or 1")
    }

    /// The union of two counting filters of one configuration, counter width
    /// included (contract §7.5.1): each counter the saturating sum
    /// min(S, a + b).
    pub fn union(&self, other: &Self) -> Result<Self, IncompatibleError> {
        if self.cfg != other.cfg {
            return Err(IncompatibleError {
                operation: "unite",
                differences: self.cfg.differences(&other.cfg),
            });
        }
        let saturation = self.saturation();
        let mut out = Self::try_new(self.cfg, self.counter_bits).expect("a valid configuration");
        for (p, (mine, theirs)) in self.banks.iter().zip(&other.banks).enumerate() {
            for (addr, (&a, &b)) in mine.iter().zip(theirs).enumerate() {
                let sum = (u16::from(a) + u16::from(b)).min(u16::from(saturation)) as u8;
                out.set(p, addr as u32, sum);
            }
        }
        Ok(out)
    }

    /// Builds a filter from bank contents, e.g. memory read back from the
    /// hardware: exactly k banks of 2^b counters, each in 0..=S.
    pub fn from_counters<B: AsRef<[u8]>>(
        cfg: CoreParams,
        counter_bits: CounterBits,
        banks: &[B],
    ) -> Result<Self, ConfigError> {
        let mut filter = Self::try_new(cfg, counter_bits)?;
        let saturation = counter_bits.saturation();
        check_banks(
            &cfg,
            banks,
            "counters",
            saturation,
            &format!("counters of {counter_bits} bits hold 0..={saturation}"),
        )?;
        for (p, counters) in banks.iter().enumerate() {
            for (addr, &value) in counters.as_ref().iter().enumerate() {
                filter.set(p, addr as u32, value);
            }
        }
        Ok(filter)
    }
}

impl From<PartitionedFilter> for CountingFilter {
    /// The plain filter as the counting filter with c = 1 (contract §7.7): each
    /// bit a counter of one bit.
    fn from(plain: PartitionedFilter) -> Self {
        let cfg = *plain.config();
        let banks: Vec<Vec<u8>> = (0..cfg.k as usize)
            .map(|p| plain.bank(p).unwrap_or(&[]).to_vec())
            .collect();
        CountingFilter::from_counters(cfg, CounterBits::PLAIN, &banks)
            .expect("a plain filter's banks hold 0 and 1")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::HashFamily;

    #[test]
    fn counter_bits_outside_1_to_8_are_rejected_with_name_and_range() {
        for c in [0u32, 9, 16, u32::MAX] {
            let err = CounterBits::new(c).unwrap_err().to_string();
            assert!(
                err.contains("counter_bits")
                    && err.contains("1..=8")
                    && err.contains(&c.to_string()),
                "{err}"
            );
        }
        for text in ["x", "-1", "4.0", ""] {
            let err = text.parse::<CounterBits>().unwrap_err().to_string();
            assert!(
                err.contains("counter_bits") && err.contains("1..=8"),
                "{err}"
            );
        }
        assert_eq!(" 4".parse::<CounterBits>().unwrap(), CounterBits::FOUR);
        let all: Vec<u32> = CounterBits::all().map(CounterBits::get).collect();
        assert_eq!(all, (1..=8).collect::<Vec<_>>());
        let saturations: Vec<u8> = CounterBits::all().map(CounterBits::saturation).collect();
        assert_eq!(saturations, vec![1, 3, 7, 15, 31, 63, 127, 255]);
        assert_eq!(CounterBits::default(), CounterBits::PLAIN);
        assert!(!CounterBits::PLAIN.is_counting() && CounterBits::FOUR.is_counting());
    }

    #[test]
    fn c2_counter_saturates_at_3_and_a_saturated_key_survives_every_delete() {
        let cfg = CoreParams::new(3, 6, 64, HashFamily::H3, 1).unwrap();
        let mut filter = CountingFilter::new(cfg, CounterBits::new(2).unwrap());
        let addrs = filter.addresses(77).unwrap();
        let counters = |f: &CountingFilter| -> Vec<u8> {
            addrs
                .iter()
                .enumerate()
                .map(|(p, &a)| f.counter(p, a).unwrap())
                .collect()
        };
        assert!(
            !filter.insert(77).unwrap(),
            "first insert finds the key absent"
        );
        for expected in [2u8, 3, 3, 3] {
            assert!(filter.insert(77).unwrap());
            assert_eq!(counters(&filter), vec![expected; 3]);
        }
        assert_eq!(filter.saturated(), vec![1; 3]);
        assert_eq!(filter.fill(), vec![1; 3]);
        // Five inserts, five deletes: every delete is carried out (hit), but
        // the saturated counters never come down, so the key stays present.
        for _ in 0..5 {
            assert!(filter.delete(77).unwrap());
            assert_eq!(counters(&filter), vec![3; 3]);
        }
        assert!(filter.query(77).unwrap(), "a saturated counter is stuck");
        filter.clear();
        assert_eq!(counters(&filter), vec![0; 3]);
        assert_eq!(
            (filter.fill(), filter.saturated()),
            (vec![0; 3], vec![0; 3])
        );
    }

    #[test]
    fn delete_of_an_absent_key_changes_nothing_and_answers_0() {
        let cfg = CoreParams::new(4, 8, 32, HashFamily::Crc, 5).unwrap();
        let mut filter = CountingFilter::new(cfg, CounterBits::FOUR);
        for key in 0..30 {
            filter.insert(key).unwrap();
        }
        let before = filter.clone();
        let mut absent = 1000u128;
        while filter.query(absent).unwrap() {
            absent += 1;
        }
        assert!(!filter.delete(absent).unwrap());
        assert_eq!(filter, before);
        assert!(filter.delete(3).unwrap());
        assert_eq!(filter.saturated(), vec![0; 4]);
        let mut without_3 = CountingFilter::new(cfg, CounterBits::FOUR);
        for key in (0..30).filter(|&key| key != 3) {
            without_3.insert(key).unwrap();
        }
        assert_eq!(
            filter, without_3,
            "deleting an inserted key undoes its insert"
        );
    }

    #[test]
    fn delete_of_a_false_positive_key_removes_the_key_it_collides_with() {
        // One bank: a key y with y's address equal to x's is a false positive
        // for {x}; deleting y empties x's counter.
        let cfg = CoreParams::new(1, 6, 64, HashFamily::H3, 0).unwrap();
        let mut filter = CountingFilter::new(cfg, CounterBits::FOUR);
        let x = 5u128;
        filter.insert(x).unwrap();
        let ax = filter.addresses(x).unwrap()[0];
        let y = (6u128..)
            .find(|&y| filter.addresses(y).unwrap()[0] == ax)
            .unwrap();
        assert!(
            filter.delete(y).unwrap(),
            "y is a false positive, so its delete is carried out"
        );
        assert!(
            !filter.query(x).unwrap(),
            "x, never deleted, is now a false negative"
        );
        assert!(
            !filter.delete(x).unwrap(),
            "and its own delete finds it absent"
        );
        assert_eq!(filter.fill(), vec![0]);
    }

    #[test]
    fn keys_wider_than_the_key_width_are_rejected_and_change_nothing() {
        let cfg = CoreParams::new(2, 6, 32, HashFamily::H3, 0).unwrap();
        let mut filter = CountingFilter::new(cfg, CounterBits::FOUR);
        filter.insert(9).unwrap();
        let before = filter.clone();
        for op in [
            Op::Query(1 << 32),
            Op::Insert(1 << 32),
            Op::Delete(u128::MAX),
        ] {
            let err = filter.apply(op).unwrap_err();
            assert_eq!(err.key_bits, 32);
        }
        assert_eq!(filter, before);
    }

    #[test]
    fn from_counters_round_trips_and_validates() {
        let cfg = CoreParams::new(2, 6, 64, HashFamily::H3, 3).unwrap();
        let c3 = CounterBits::new(3).unwrap();
        let mut filter = CountingFilter::new(cfg, c3);
        for key in 0..200 {
            filter.insert(key % 50).unwrap();
        }
        let banks: Vec<&[u8]> = (0..2).map(|p| filter.bank(p).unwrap()).collect();
        let copy = CountingFilter::from_counters(cfg, c3, &banks).unwrap();
        assert_eq!(copy, filter);
        assert_eq!(
            (copy.fill(), copy.saturated()),
            (filter.fill(), filter.saturated())
        );
        assert!(filter.saturated().iter().any(|&s| s > 0));
        let mut eight = vec![vec![0u8; 64]; 2];
        eight[1][40] = 8;
        let err = CountingFilter::from_counters(cfg, c3, &eight)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("bank 1 address 40 holds 8") && err.contains("0..=7"),
            "{err}"
        );
        assert!(CountingFilter::from_counters(cfg, c3, &eight[..1]).is_err());
        let short = [vec![0u8; 64], vec![0u8; 32]];
        assert!(CountingFilter::from_counters(cfg, c3, &short)
            .unwrap_err()
            .to_string()
            .contains("bank 1 has 32 counters"));
        assert!(filter.bank(2).is_none() && filter.counter(0, 64).is_none());
    }

    #[test]
    fn try_new_rejects_hand_built_invalid_configs() {
        let cfg = CoreParams {
            k: 17,
            ..CoreParams::default()
        };
        assert!(CountingFilter::try_new(cfg, CounterBits::FOUR).is_err());
    }
}
