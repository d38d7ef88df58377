//! Property tests of the counting filter (contract §7).
//!
//! The main reference is the contract's guarantee (§7.4) written as a model of
//! its own: the multiset of keys with their net counts, each counter's sum T
//! of net counts and whether T ever reached S. Until a delete of an absent key
//! is carried out, every counter must equal S if stuck and T otherwise, and no
//! key of the multiset may be absent, whatever saturated. Every operation is
//! also checked against the local rules: only the key's k counters change, by
//! at most one, counters at S never change, values stay in 0..=S, and fill
//! and saturated counts match the banks.

mod common;

use std::collections::{HashMap, HashSet};

use common::{config, counting_bits, key_pool, keys, SplitMix64};
use golden::{CoreParams, CounterBits, CountingFilter, HashFamily, Op, PartitionedFilter};
use proptest::prelude::*;

/// The contract's §7.4 model of a counting filter's state, from the key
/// multiset alone.
#[derive(Default)]
struct MultisetModel {
    /// Net count of every key (inserts minus deletes answered 1).
    net: HashMap<u128, u32>,
    /// T: sum of net counts of the keys on each counter (bank, address).
    total: HashMap<(usize, u32), u32>,
    /// Counters whose T reached S since the last clear.
    stuck: HashSet<(usize, u32)>,
    /// A delete of an absent key was carried out since the last clear: the
    /// model no longer predicts the counters.
    broken: bool,
}

/// How often the interesting events happened in a run.
#[derive(Default, Debug, Clone, Copy)]
struct Events {
    ops: u64,
    /// Operations after which the counters were compared with the model.
    model_checked_ops: u64,
    saturations: u64,
    deletes_carried_out: u64,
    deletes_of_absent_refused: u64,
    deletes_of_absent_carried_out: u64,
    deletes_on_saturated_counters: u64,
    false_negatives_seen: u64,
}

/// Applies operations to a counting filter and checks each against the local
/// rules and, while it holds, the multiset model.
struct Checker {
    filter: CountingFilter,
    model: MultisetModel,
    events: Events,
}

impl Checker {
    fn new(cfg: CoreParams, c: CounterBits) -> Self {
        Checker {
            filter: CountingFilter::new(cfg, c),
            model: MultisetModel::default(),
            events: Events::default(),
        }
    }

    fn banks(&self) -> Vec<Vec<u8>> {
        (0..self.filter.config().k as usize)
            .map(|p| self.filter.bank(p).unwrap().to_vec())
            .collect()
    }

    /// Applies `op`, checks it, and returns its response.
    fn apply(&mut self, op: Op, pool: &[u128]) -> Result<bool, TestCaseError> {
        let s = self.filter.saturation();
        let k = self.filter.config().k as usize;
        let before = self.banks();
        let key = match op {
            Op::Query(key) | Op::Insert(key) | Op::Delete(key) => Some(key),
            Op::Clear => None,
        };
        let addrs = key.map(|key| self.filter.addresses(key).unwrap());
        let present = addrs
            .as_ref()
            .map(|a| (0..k).all(|p| before[p][a[p] as usize] != 0));
        let hit = self.filter.apply(op).unwrap();
        let after = self.banks();
        self.events.ops += 1;

        // The response (§7.2): query, insert and delete answer "present
        // before"; clear answers 0.
        prop_assert_eq!(hit, present.unwrap_or(false), "response of {:?}", op);

        // Local rules.
        for p in 0..k {
            for a in 0..before[p].len() {
                let (old, new) = (before[p][a], after[p][a]);
                prop_assert!(
                    new <= s,
                    "bank {} address {} holds {} > S = {}",
                    p,
                    a,
                    new,
                    s
                );
                let own = addrs.as_ref().is_some_and(|addrs| addrs[p] as usize == a);
                let expected = match op {
                    Op::Clear => 0,
                    Op::Insert(_) if own => (old + 1).min(s),
                    Op::Delete(_) if own && present == Some(true) && old < s => old - 1,
                    _ => old,
                };
                prop_assert_eq!(
                    new,
                    expected,
                    "{:?}: bank {} address {} went {} -> {}",
                    op,
                    p,
                    a,
                    old,
                    new
                );
            }
            let fill = after[p].iter().filter(|&&v| v != 0).count() as u32;
            let saturated = after[p].iter().filter(|&&v| v == s).count() as u32;
            prop_assert_eq!(self.filter.fill_of(p), fill, "fill of bank {}", p);
            prop_assert_eq!(
                self.filter.saturated_of(p),
                saturated,
                "saturated count of bank {}",
                p
            );
        }
        if let (Op::Insert(_), Some(addrs)) = (op, &addrs) {
            self.events.saturations += (0..k)
                .filter(|&p| before[p][addrs[p] as usize] == s - 1)
                .count() as u64;
        }
        if let (Op::Delete(_), Some(addrs), true) = (op, &addrs, hit) {
            self.events.deletes_on_saturated_counters +=
                (0..k).any(|p| before[p][addrs[p] as usize] == s) as u64;
        }

        // The multiset model (§7.4).
        let model = &mut self.model;
        match op {
            Op::Query(_) => {}
            Op::Clear => *model = MultisetModel::default(),
            Op::Insert(key) => {
                *model.net.entry(key).or_default() += 1;
                for (p, &a) in addrs.as_ref().unwrap().iter().enumerate() {
                    let t = model.total.entry((p, a)).or_default();
                    *t += 1;
                    if *t >= s as u32 {
                        model.stuck.insert((p, a));
                    }
                }
            }
            Op::Delete(key) => {
                let net = model.net.entry(key).or_default();
                match (hit, *net) {
                    (false, 0) => self.events.deletes_of_absent_refused += 1,
                    (false, _) => prop_assert!(
                        model.broken,
                        "a key of the multiset was absent for its delete"
                    ),
                    (true, 0) => {
                        self.events.deletes_of_absent_carried_out += 1;
                        model.broken = true;
                    }
                    (true, _) => {
                        self.events.deletes_carried_out += 1;
                        *net -= 1;
                        for (p, &a) in addrs.as_ref().unwrap().iter().enumerate() {
                            *model.total.get_mut(&(p, a)).unwrap() -= 1;
                        }
                    }
                }
            }
        }
        if model.broken {
            for &x in pool {
                if model.net.get(&x).copied().unwrap_or(0) > 0 && !self.filter.query(x).unwrap() {
                    self.events.false_negatives_seen += 1;
                }
            }
            return Ok(hit);
        }
        let predicted = |pa: &(usize, u32)| {
            if model.stuck.contains(pa) {
                s
            } else {
                model.total.get(pa).copied().unwrap_or(0) as u8
            }
        };
        let mut predicted_fill = vec![0u32; k];
        for (pa, _) in model.total.iter().filter(|(pa, _)| predicted(pa) != 0) {
            predicted_fill[pa.0] += 1;
        }
        prop_assert_eq!(
            self.filter.fill(),
            predicted_fill,
            "fill against the multiset model"
        );
        for pa in model.total.keys() {
            prop_assert_eq!(
                after[pa.0][pa.1 as usize],
                predicted(pa),
                "counter {:?} against the multiset model",
                pa
            );
        }
        for (&x, &net) in &model.net {
            prop_assert!(
                net == 0 || self.filter.query(x).unwrap(),
                "false negative for key {:#x} (net count {})",
                x,
                net
            );
        }
        self.events.model_checked_ops += 1;
        Ok(hit)
    }
}

/// Operation codes weighted towards inserts and deletes.
fn op_code() -> impl Strategy<Value = u8> {
    prop_oneof![9 => Just(1u8), 7 => Just(3u8), 3 => Just(0u8), 1 => Just(2u8)]
}

/// A small configuration (banks of 2^6..2^8 counters) with a counting width
/// and a pool of keys, and a sequence of operations on the pool.
fn small_counting_traffic(
    pool_size: usize,
    ops: usize,
) -> impl Strategy<Value = (CoreParams, CounterBits, Vec<u128>, Vec<(u8, usize)>)> {
    (config(8), counting_bits()).prop_flat_map(move |(cfg, c)| {
        (
            Just(cfg),
            Just(c),
            key_pool(&cfg, pool_size),
            prop::collection::vec((op_code(), 0..pool_size), 0..ops),
        )
    })
}

fn plain_filter_of(cfg: CoreParams, keys: &[u128]) -> PartitionedFilter {
    let mut filter = PartitionedFilter::new(cfg);
    for &key in keys {
        filter.insert(key).unwrap();
    }
    filter
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Contract §7.7: c = 1 is the plain filter, code 3 included.
    #[test]
    fn counter_bits_1_is_the_plain_filter_for_every_op_code(
        (cfg, pool, ops) in config(10).prop_flat_map(|cfg| {
            (Just(cfg), key_pool(&cfg, 12), prop::collection::vec((0u8..4, 0usize..12), 0..300))
        })
    ) {
        let mut counting = CountingFilter::new(cfg, CounterBits::PLAIN);
        let mut plain = PartitionedFilter::new(cfg);
        for (code, i) in ops {
            let op = Op::decode(code, pool[i]);
            prop_assert_eq!(counting.apply(op).unwrap(), plain.apply(op).unwrap(), "{:?}", op);
            prop_assert_eq!(counting.fill(), plain.fill());
            prop_assert_eq!(counting.saturated(), plain.fill(), "with c = 1 every set counter is saturated");
        }
        for p in 0..cfg.k as usize {
            prop_assert_eq!(counting.bank(p).unwrap(), plain.bank(p).unwrap());
        }
        prop_assert_eq!(&counting.to_plain(), &plain);
    }

    /// Contract §7.2-§7.4 on every width 2..=8, with few keys and small banks
    /// so that saturation, deletes of absent keys and deletes after saturation
    /// all happen.
    #[test]
    fn counters_follow_the_local_rules_and_the_multiset_model(
        (cfg, c, pool, ops) in small_counting_traffic(10, 300)
    ) {
        let mut checker = Checker::new(cfg, c);
        for (code, i) in ops {
            checker.apply(Op::decode(code, pool[i]), &pool)?;
        }
    }

    /// Without deletes the 0-1 projection is bit for bit the plain filter of
    /// the same keys, and every insert answers as the plain filter's does.
    #[test]
    fn insert_only_projection_is_the_plain_filter_of_the_same_keys(
        (cfg, c, keys) in (config(10), counting_bits()).prop_flat_map(|(cfg, c)| (Just(cfg), Just(c), keys(&cfg, 400)))
    ) {
        let mut counting = CountingFilter::new(cfg, c);
        let mut plain = PartitionedFilter::new(cfg);
        for &key in &keys {
            prop_assert_eq!(counting.insert(key).unwrap(), plain.insert(key).unwrap());
        }
        let projection = counting.to_plain();
        prop_assert_eq!(&projection, &plain);
        prop_assert_eq!(projection.fill(), counting.fill());
        prop_assert_eq!(&projection, &plain_filter_of(cfg, &keys));
        for &key in &keys {
            prop_assert!(counting.query(key).unwrap());
        }
    }

    /// An insert that saturates nothing is undone by a delete of the same key,
    /// and a delete carried out on counters below S is undone by an insert.
    #[test]
    fn insert_then_delete_restores_the_state_when_nothing_saturates(
        (cfg, c, pool, ops, x) in small_counting_traffic(10, 100).prop_flat_map(|(cfg, c, pool, ops)| {
            (Just(cfg), Just(c), Just(pool), Just(ops), any::<u128>().prop_map(move |key| common::mask_key(key, cfg.key_bits)))
        })
    ) {
        let mut filter = CountingFilter::new(cfg, c);
        for (code, i) in ops {
            filter.apply(Op::decode(code, pool[i])).unwrap();
        }
        let s = filter.saturation();
        let addrs = filter.addresses(x).unwrap();
        let values: Vec<u8> = addrs.iter().enumerate().map(|(p, &a)| filter.counter(p, a).unwrap()).collect();
        let before = filter.clone();
        if values.iter().all(|&v| v + 1 < s) {
            filter.insert(x).unwrap();
            prop_assert!(filter.delete(x).unwrap(), "a key just inserted is present");
            prop_assert_eq!(&filter, &before);
        }
        if values.iter().all(|&v| v != 0 && v < s) {
            prop_assert!(filter.delete(x).unwrap());
            filter.insert(x).unwrap();
            prop_assert_eq!(&filter, &before);
        }
    }

    /// Contract §7.4: a delete of an absent key that is a false positive makes
    /// absent exactly the inserted keys that share one of its counters at 1.
    #[test]
    fn delete_of_absent_key_removes_exactly_the_keys_on_its_counters_at_1(
        (cfg, c, keys) in (1u32..=3, 6u32..=7, any::<u64>(), counting_bits()).prop_flat_map(|(k, b, seed, c)| {
            let cfg = CoreParams::new(k, b, 64, HashFamily::H3, seed).unwrap();
            (Just(cfg), Just(c), key_pool(&cfg, 60))
        })
    ) {
        let mut filter = CountingFilter::new(cfg, c);
        for &key in &keys {
            filter.insert(key).unwrap();
        }
        let inserted: HashSet<u128> = keys.iter().copied().collect();
        let y = (0u128..100_000).find(|y| !inserted.contains(y) && filter.query(*y).unwrap());
        prop_assume!(y.is_some());
        let y = y.unwrap();
        let ya = filter.addresses(y).unwrap();
        let emptied: Vec<bool> = ya.iter().enumerate().map(|(p, &a)| filter.counter(p, a) == Some(1)).collect();
        prop_assert!(filter.delete(y).unwrap());
        for &x in &keys {
            let xa = filter.addresses(x).unwrap();
            let loses = (0..cfg.k as usize).any(|p| emptied[p] && xa[p] == ya[p]);
            prop_assert_eq!(filter.query(x).unwrap(), !loses, "key {:#x}", x);
        }
    }

    #[test]
    fn clear_zeroes_every_counter(
        (cfg, c, pool, ops) in small_counting_traffic(10, 200)
    ) {
        let mut filter = CountingFilter::new(cfg, c);
        for (code, i) in ops {
            filter.apply(Op::decode(code, pool[i])).unwrap();
        }
        prop_assert!(!filter.apply(Op::Clear).unwrap());
        prop_assert_eq!(&filter, &CountingFilter::new(cfg, c));
        prop_assert_eq!(filter.fill(), vec![0; cfg.k as usize]);
        prop_assert_eq!(filter.saturated(), vec![0; cfg.k as usize]);
    }
}

/// The traffic shape of the property test, run long from a fixed seed, must
/// produce every event the properties are about, and the checker must catch
/// false negatives once the model is broken (so its silence before means
/// something).
#[test]
fn seeded_traffic_k2_b6_c2_hits_saturation_and_deletes_of_absent_keys() {
    let cfg = CoreParams::new(2, 6, 64, HashFamily::H3, 7).unwrap();
    let mut rng = SplitMix64::new(17);
    let pool: Vec<u128> = (0..40).map(|_| rng.key(64)).collect();
    let mut checker = Checker::new(cfg, CounterBits::new(2).unwrap());
    for _ in 0..20_000 {
        // Clears rare enough (1 in 200) for the filter to fill up.
        let code = match rng.next_u64() % 200 {
            0..=89 => 1,
            90..=159 => 3,
            160..=198 => 0,
            _ => 2,
        };
        let key = pool[(rng.next_u64() % pool.len() as u64) as usize];
        checker.apply(Op::decode(code, key), &pool).unwrap();
    }
    let e = checker.events;
    eprintln!("k=2 b=6 c=2, 40 keys: {e:?}");
    assert!(e.model_checked_ops > 2000, "{e:?}");
    assert!(e.saturations > 1000, "{e:?}");
    assert!(e.deletes_carried_out > 2000, "{e:?}");
    assert!(e.deletes_of_absent_refused > 1000, "{e:?}");
    assert!(e.deletes_of_absent_carried_out > 50, "{e:?}");
    assert!(e.deletes_on_saturated_counters > 1000, "{e:?}");
    assert!(e.false_negatives_seen > 0, "{e:?}");
}
