//! The partitioned Bloom filter: k banks of 2^b one-bit words, bank p
//! addressed by hash unit p (contract §3, §4, §5).

use crate::config::CoreParams;
use crate::error::{ConfigError, IncompatibleError, KeyError};
use crate::hash::HashUnits;

/// Most partitions any configuration has; sizes the stack buffers of the hot
/// paths.
pub const MAX_PARTITIONS: usize = 16;

/// One operation of the sequential model (contract §5, and §7 for counting
/// filters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Code 0.
    Query(u128),
    /// Code 1.
    Insert(u128),
    /// Code 2.
    Clear,
    /// Code 3: delete, on a counting filter ([`crate::CountingFilter`],
    /// contract §7). A plain filter (counter bits 1) answers it as a query
    /// and changes nothing (contract §5, §7.7).
    Delete(u128),
}

impl Op {
    /// The operation a request with op code `code` (its low two bits, as the
    /// hardware's 2-bit `req_op` port sees it) and key `key` denotes. The key
    /// of a clear is ignored.
    pub fn decode(code: u8, key: u128) -> Op {
        match code & 3 {
            0 => Op::Query(key),
            1 => Op::Insert(key),
            2 => Op::Clear,
            _ => Op::Delete(key),
        }
    }

    /// The op code of contract §5.
    pub fn code(&self) -> u8 {
        match self {
            Op::Query(_) => 0,
            Op::Insert(_) => 1,
            Op::Clear => 2,
            Op::Delete(_) => 3,
        }
    }
}

/// The golden partitioned Bloom filter.
///
/// Bits are stored one per byte (0 or 1) so that a bank reads like the
/// hardware's one-bit-wide memory: [`PartitionedFilter::bank`] returns
/// bank p with element a being the bit at address a.
#[derive(Clone, Debug)]
pub struct PartitionedFilter {
    cfg: CoreParams,
    units: HashUnits,
    /// Bank p occupies `bits[p << b .. (p + 1) << b]`.
    bits: Vec<u8>,
    /// Set-bit count of each bank, kept up to date by every operation.
    fill: Vec<u32>,
}

impl PartialEq for PartitionedFilter {
    fn eq(&self, other: &Self) -> bool {
        self.cfg == other.cfg && self.bits == other.bits
    }
}
impl Eq for PartitionedFilter {}

impl PartitionedFilter {
    /// An empty filter.
    ///
    /// # Panics
    /// If `cfg` is outside contract §1, which only a hand-built `CoreParams` can
    /// be; use [`PartitionedFilter::try_new`] for unchecked values.
    pub fn new(cfg: CoreParams) -> Self {
        match Self::try_new(cfg) {
            Ok(filter) => filter,
            Err(err) => {
                panic!("PartitionedFilter::new: {err} (build the CoreParams with CoreParams::new)")
            }
        }
    }

    /// An empty filter, or the reason `cfg` is invalid.
    pub fn try_new(cfg: CoreParams) -> Result<Self, ConfigError> {
        cfg.validate()?;
        if cfg.is_counting() {
            return Err(ConfigError::Unsupported(format!(
                "counter_bits = {} is a counting filter (contract §7); a plain filter has counter_bits = 1",
                cfg.counter_bits
            )));
        }
        Ok(PartitionedFilter {
            cfg,
            units: HashUnits::new(cfg.hash, cfg.seed, cfg.k, cfg.key_bits, cfg.bank_bits),
            bits: vec![0; cfg.total_bits() as usize],
            fill: vec![0; cfg.k as usize],
        })
    }

    pub fn config(&self) -> &CoreParams {
        &self.cfg
    }

    /// Rejects keys wider than the key width (contract §2).
    pub fn check_key(&self, key: u128) -> Result<(), KeyError> {
        check_key(&self.cfg, key)
    }

    /// The address a_p of `key` in every bank p, in bank order.
    pub fn addresses(&self, key: u128) -> Result<Vec<u32>, KeyError> {
        let mut out = vec![0; self.cfg.k as usize];
        self.addresses_into(key, &mut out)?;
        Ok(out)
    }

    /// Like [`PartitionedFilter::addresses`], writing into `out[..k]`
    /// without allocating.
    ///
    /// # Panics
    /// If `out` is shorter than k (a buffer of [`MAX_PARTITIONS`] always fits).
    pub fn addresses_into(&self, key: u128, out: &mut [u32]) -> Result<(), KeyError> {
        self.check_key(key)?;
        self.units.addresses_into(key, out);
        Ok(())
    }

    fn index(&self, bank: usize, addr: u32) -> usize {
        (bank << self.cfg.bank_bits) | addr as usize
    }

    /// Sets the key's bit in every bank; true iff all of them were already set
    /// (contract §5).
    pub fn insert(&mut self, key: u128) -> Result<bool, KeyError> {
        let mut addrs = [0u32; MAX_PARTITIONS];
        self.addresses_into(key, &mut addrs)?;
        let mut all_set = true;
        for (bank, &addr) in addrs.iter().enumerate().take(self.cfg.k as usize) {
            let index = self.index(bank, addr);
            if self.bits[index] == 0 {
                all_set = false;
                self.bits[index] = 1;
                self.fill[bank] += 1;
            }
        }
        Ok(all_set)
    }

    /// True iff the key's bit is set in every bank.
    pub fn query(&self, key: u128) -> Result<bool, KeyError> {
        let mut addrs = [0u32; MAX_PARTITIONS];
        self.addresses_into(key, &mut addrs)?;
        Ok((0..self.cfg.k as usize).all(|bank| self.bits[self.index(bank, addrs[bank])] == 1))
    }

    /// Applies one operation and returns its response `hit` (contract §5):
    /// code 3 ([`Op::Delete`]) is a query on this plain filter.
    pub fn apply(&mut self, op: Op) -> Result<bool, KeyError> {
        match op {
            Op::Query(key) | Op::Delete(key) => self.query(key),
            Op::Insert(key) => self.insert(key),
            Op::Clear => {
                self.clear();
                Ok(false)
            }
        }
    }

    /// Sets every bit of every bank to 0.
    pub fn clear(&mut self) {
        self.bits.fill(0);
        self.fill.fill(0);
    }

    /// Writes `value` into bit `addr` of bank `bank` (contract §5, "bit
    /// write"); the bit as it was before. A bank >= k or an address >= 2^b is
    /// an error that changes nothing.
    pub fn write_bit(&mut self, bank: usize, addr: u32, value: bool) -> Result<bool, ConfigError> {
        if bank >= self.cfg.k as usize {
            return Err(ConfigError::OutOfRange {
                parameter: "bank",
                value: bank as u64,
                allowed: "0 ..= k - 1",
            });
        }
        if addr >= self.cfg.bank_size() {
            return Err(ConfigError::OutOfRange {
                parameter: "bit address",
                value: addr as u64,
                allowed: "0 ..= 2^bank_bits - 1",
            });
        }
        let i = self.index(bank, addr);
        let before = self.bits[i] == 1;
        self.bits[i] = value as u8;
        match (before, value) {
            (false, true) => self.fill[bank] += 1,
            (true, false) => self.fill[bank] -= 1,
            _ => {}
        }
        Ok(before)
    }

    /// The bit at address `addr` of bank `bank`; false outside the filter.
    pub fn bit(&self, bank: usize, addr: u32) -> bool {
        bank < self.cfg.k as usize
            && addr < self.cfg.bank_size()
            && self.bits[self.index(bank, addr)] == 1
    }

    /// Bank p's bits, one per element (0 or 1), element a = address a;
    /// `None` for p >= k.
    pub fn bank(&self, bank: usize) -> Option<&[u8]> {
        if bank < self.cfg.k as usize {
            let size = self.cfg.bank_size() as usize;
            Some(&self.bits[bank * size..(bank + 1) * size])
        } else {
            None
        }
    }

    /// The set-bit count of every bank, in bank order.
    pub fn fill(&self) -> Vec<u32> {
        self.fill.clone()
    }

    /// The set-bit count of one bank (0 for p >= k), without allocating.
    pub fn fill_of(&self, bank: usize) -> u32 {
        self.fill.get(bank).copied().unwrap_or(0)
    }

    /// Swamidass–Baldi estimate of the number of distinct keys inserted,
    /// applied to each bank as a one-hash filter and averaged (contract §6);
    /// infinite when a bank is full.
    pub fn estimated_items(&self) -> f64 {
        estimated_items_from_fill(&self.fill, self.cfg.bank_size())
    }

    /// False-positive estimate from the fill: prod_p X_p / 2^b (contract §6).
    pub fn fpr_estimate(&self) -> f64 {
        fpr_estimate_from_fill(&self.fill, self.cfg.bank_size())
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
                differences: self.cfg.differences(&other.cfg),
            });
        }
        let mut out = self.clone();
        for (bit, &theirs) in out.bits.iter_mut().zip(&other.bits) {
            *bit = op(*bit, theirs);
        }
        out.recount();
        Ok(out)
    }

    /// Bitwise OR: the filter of the union of both key sets.
    pub fn union(&self, other: &Self) -> Result<Self, IncompatibleError> {
        self.combine(other, "unite", |a, b| a | b)
    }

    /// Bitwise AND: holds every key held by both (and possibly more).
    pub fn intersection(&self, other: &Self) -> Result<Self, IncompatibleError> {
        self.combine(other, "intersect", |a, b| a & b)
    }

    fn recount(&mut self) {
        let size = self.cfg.bank_size() as usize;
        for (bank, fill) in self.fill.iter_mut().enumerate() {
            *fill = self.bits[bank * size..(bank + 1) * size]
                .iter()
                .map(|&bit| bit as u32)
                .sum();
        }
    }

    /// Builds a filter from bank contents, e.g. memory read back from the
    /// hardware: exactly k banks of 2^b elements, each 0 or 1.
    pub fn from_banks<B: AsRef<[u8]>>(cfg: CoreParams, banks: &[B]) -> Result<Self, ConfigError> {
        let mut filter = Self::try_new(cfg)?;
        check_banks(&cfg, banks, "bits", 1, "each bit must be 0 or 1")?;
        let size = cfg.bank_size() as usize;
        for (bank, bits) in banks.iter().enumerate() {
            filter.bits[bank * size..(bank + 1) * size].copy_from_slice(bits.as_ref());
        }
        filter.recount();
        Ok(filter)
    }
}

/// Checks bank contents a filter is to be built from: exactly k banks of 2^b
/// `unit`s (bits or counters), each at most `max`; `rule` says so for a value
/// above it.
pub(crate) fn check_banks<B: AsRef<[u8]>>(
    cfg: &CoreParams,
    banks: &[B],
    unit: &str,
    max: u8,
    rule: &str,
) -> Result<(), ConfigError> {
    if banks.len() != cfg.k as usize {
        return Err(ConfigError::Unsupported(format!(
            "{} banks given, but k = {} needs exactly {}",
            banks.len(),
            cfg.k,
            cfg.k
        )));
    }
    let size = cfg.bank_size() as usize;
    for (bank, values) in banks.iter().enumerate() {
        let values = values.as_ref();
        if values.len() != size {
            return Err(ConfigError::Unsupported(format!(
                "bank {bank} has {} {unit}, but bank_bits = {} needs exactly {size}",
                values.len(),
                cfg.bank_bits
            )));
        }
        if let Some(addr) = values.iter().position(|&v| v > max) {
            return Err(ConfigError::Unsupported(format!(
                "bank {bank} address {addr} holds {}; {rule}",
                values[addr]
            )));
        }
    }
    Ok(())
}

/// Whether `key` fits in `cfg`'s key width: the check every
/// filter makes before hashing a key.
pub(crate) fn check_key(cfg: &CoreParams, key: u128) -> Result<(), KeyError> {
    if key > cfg.max_key() {
        Err(KeyError {
            key,
            key_bits: cfg.key_bits,
        })
    } else {
        Ok(())
    }
}

/// Contract §6's estimate of the distinct keys inserted into a filter whose
/// banks of `bank_size` bits hold `fill[p]` set bits: each bank taken as a
/// one-hash filter (Swamidass–Baldi), the estimates averaged; infinite when a
/// bank is full. The same for the golden model's fill and a device's.
pub fn estimated_items_from_fill(fill: &[u32], bank_size: u32) -> f64 {
    let m = bank_size as f64;
    let sum: f64 = fill
        .iter()
        .map(|&x| {
            if x as f64 >= m {
                f64::INFINITY
            } else {
                (1.0 - x as f64 / m).ln() / (1.0 - 1.0 / m).ln()
            }
        })
        .sum();
    sum / fill.len() as f64
}

/// Contract §6's false-positive estimate from the banks' fill: prod_p X_p / 2^b.
pub fn fpr_estimate_from_fill(fill: &[u32], bank_size: u32) -> f64 {
    let m = bank_size as f64;
    fill.iter().map(|&x| x as f64 / m).product()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::HashFamily;

    #[test]
    fn keys_wider_than_the_key_width_are_rejected_not_truncated() {
        for (w, hash) in [(32, HashFamily::H3), (64, HashFamily::Crc)] {
            let mut filter = PartitionedFilter::new(CoreParams::new(4, 8, w, hash, 1).unwrap());
            let too_wide = 1u128 << w;
            let err = filter.insert(too_wide).unwrap_err();
            assert_eq!(
                err,
                KeyError {
                    key: too_wide,
                    key_bits: w
                }
            );
            assert!(err.to_string().contains(&format!("{w} bits")), "{err}");
            assert!(filter.query(too_wide | 5).is_err());
            assert!(filter.apply(Op::Insert(u128::MAX)).is_err());
            assert_eq!(
                filter.fill(),
                vec![0; 4],
                "a rejected key must change nothing"
            );
            assert!(filter.insert(too_wide - 1).is_ok());
        }
        let filter = PartitionedFilter::new(CoreParams::new(2, 8, 128, HashFamily::H3, 1).unwrap());
        assert!(filter.query(u128::MAX).is_ok());
    }

    #[test]
    fn insert_reports_already_present_and_fill_counts_new_bits() {
        let mut filter = PartitionedFilter::new(CoreParams::default());
        assert!(!filter.insert(42).unwrap());
        assert_eq!(filter.fill(), vec![1; 4]);
        assert!(
            filter.insert(42).unwrap(),
            "second insert of the same key hits"
        );
        assert_eq!(filter.fill(), vec![1; 4], "second insert sets no new bit");
        assert!(filter.query(42).unwrap());
        let addrs = filter.addresses(42).unwrap();
        for (bank, &addr) in addrs.iter().enumerate() {
            assert!(filter.bit(bank, addr));
            assert_eq!(filter.bank(bank).unwrap()[addr as usize], 1);
        }
        assert!(
            !filter.bit(4, 0) && !filter.bit(0, 1 << 12),
            "out-of-range reads are false"
        );
        assert!(filter.bank(4).is_none());
    }

    #[test]
    fn apply_follows_contract_section_5() {
        let mut filter =
            PartitionedFilter::new(CoreParams::new(3, 6, 32, HashFamily::Crc, 9).unwrap());
        assert!(!filter.apply(Op::decode(0, 7)).unwrap());
        assert!(!filter.apply(Op::decode(1, 7)).unwrap());
        assert!(
            filter.apply(Op::decode(3, 7)).unwrap(),
            "code 3 is a query on a plain filter"
        );
        assert!(filter.apply(Op::decode(1, 7)).unwrap());
        assert!(!filter.apply(Op::decode(2, 7)).unwrap());
        assert_eq!(filter.fill(), vec![0; 3]);
        assert!(!filter.apply(Op::Query(7)).unwrap());
        for op in [Op::Query(1), Op::Insert(1), Op::Clear, Op::Delete(1)] {
            assert_eq!(Op::decode(op.code(), 1), op);
        }
    }

    #[test]
    fn estimates_follow_contract_section_6() {
        let mut filter =
            PartitionedFilter::new(CoreParams::new(2, 6, 64, HashFamily::H3, 0).unwrap());
        assert_eq!(filter.estimated_items(), 0.0);
        assert_eq!(filter.fpr_estimate(), 0.0);
        filter.insert(1).unwrap();
        // One bit per 64-bit bank: ln(1 - 1/64) / ln(1 - 1/64) = exactly 1.
        assert!((filter.estimated_items() - 1.0).abs() < 1e-12);
        assert!((filter.fpr_estimate() - 1.0 / 4096.0).abs() < 1e-15);
        let mut key = 0;
        while filter.fill_of(0) < 64 {
            filter.insert(key).unwrap();
            key += 1;
        }
        assert!(filter.estimated_items().is_infinite());
    }

    #[test]
    fn from_banks_round_trips_and_validates() {
        let cfg = CoreParams::new(3, 6, 32, HashFamily::H3, 2).unwrap();
        let mut filter = PartitionedFilter::new(cfg);
        for key in 0..20 {
            filter.insert(key).unwrap();
        }
        let banks: Vec<&[u8]> = (0..3).map(|p| filter.bank(p).unwrap()).collect();
        let copy = PartitionedFilter::from_banks(cfg, &banks).unwrap();
        assert_eq!(copy, filter);
        assert_eq!(copy.fill(), filter.fill());
        assert!(PartitionedFilter::from_banks(cfg, &banks[..2])
            .unwrap_err()
            .to_string()
            .contains("2 banks"));
        let short = [vec![0u8; 64], vec![0; 63], vec![0; 64]];
        assert!(PartitionedFilter::from_banks(cfg, &short)
            .unwrap_err()
            .to_string()
            .contains("bank 1 has 63"));
        let mut two = vec![vec![0u8; 64]; 3];
        two[2][9] = 2;
        assert!(PartitionedFilter::from_banks(cfg, &two)
            .unwrap_err()
            .to_string()
            .contains("address 9 holds 2"));
    }

    #[test]
    fn try_new_rejects_hand_built_invalid_configs() {
        let cfg = CoreParams {
            k: 0,
            ..CoreParams::default()
        };
        assert!(PartitionedFilter::try_new(cfg).is_err());
        let cfg = CoreParams {
            bank_bits: 40,
            ..CoreParams::default()
        };
        assert!(PartitionedFilter::try_new(cfg).is_err());
    }

    #[test]
    fn bit_write_sets_or_clears_one_bit_and_keeps_the_fill_exact() {
        let mut f = PartitionedFilter::new(CoreParams::new(2, 6, 32, HashFamily::H3, 0).unwrap());
        let key = 0xDEAD_BEEF;
        f.insert(key).unwrap();
        let a = f.addresses(key).unwrap();
        assert_eq!(f.write_bit(1, a[1], false), Ok(true));
        assert_eq!(f.fill(), vec![1, 0]);
        assert!(!f.query(key).unwrap(), "a cleared bit makes its key absent");
        assert_eq!(
            f.write_bit(1, a[1], false),
            Ok(false),
            "writing 0 over 0 changes nothing"
        );
        assert_eq!(f.fill(), vec![1, 0]);
        assert_eq!(f.write_bit(1, a[1], true), Ok(false));
        assert_eq!(f.write_bit(1, a[1], true), Ok(true));
        assert_eq!(f.fill(), vec![1, 1]);
        assert!(f.query(key).unwrap());
        let before = f.clone();
        assert!(f.write_bit(2, 0, true).is_err(), "bank k");
        assert!(f.write_bit(0, 64, true).is_err(), "address 2^b");
        assert_eq!(f, before);
    }
}
