//! Property tests of the partitioned and standard filters.

mod common;

use std::collections::HashSet;

use common::{config, keys, mask_key, scratch_dir};
use golden::{CoreParams, HashFamily, Op, PartitionedFilter, StandardConfig, StandardFilter};
use proptest::prelude::*;

fn filter_of(cfg: CoreParams, keys: &[u128]) -> PartitionedFilter {
    let mut filter = PartitionedFilter::new(cfg);
    for &key in keys {
        filter.insert(key).unwrap();
    }
    filter
}

fn check_fill_matches_banks(filter: &PartitionedFilter) {
    for p in 0..filter.config().k as usize {
        let ones = filter
            .bank(p)
            .unwrap()
            .iter()
            .filter(|&&bit| bit == 1)
            .count() as u32;
        assert_eq!(filter.fill()[p], ones, "fill of bank {p}");
        assert!(filter.bank(p).unwrap().iter().all(|&bit| bit <= 1));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn no_false_negatives_any_config((cfg, keys) in config(12).prop_flat_map(|cfg| (Just(cfg), keys(&cfg, 300)))) {
        let mut filter = PartitionedFilter::new(cfg);
        for (i, &key) in keys.iter().enumerate() {
            let was_present = filter.query(key).unwrap();
            prop_assert_eq!(filter.insert(key).unwrap(), was_present, "insert hit must equal a query just before");
            prop_assert!(filter.query(key).unwrap(), "a query right after an insert must hit");
            for &earlier in &keys[..=i] {
                prop_assert!(filter.query(earlier).unwrap(), "key {:#x} inserted earlier was lost", earlier);
            }
        }
        check_fill_matches_banks(&filter);
    }

    #[test]
    fn addresses_are_b_bit_and_set_exactly_those_bits((cfg, keys) in config(16).prop_flat_map(|cfg| (Just(cfg), keys(&cfg, 20)))) {
        let mut filter = PartitionedFilter::new(cfg);
        let mut expected: HashSet<(usize, u32)> = HashSet::new();
        for &key in &keys {
            let addrs = filter.addresses(key).unwrap();
            prop_assert_eq!(addrs.len(), cfg.k as usize);
            for (p, &a) in addrs.iter().enumerate() {
                prop_assert!(a < cfg.bank_size());
                expected.insert((p, a));
            }
            filter.insert(key).unwrap();
        }
        for p in 0..cfg.k as usize {
            for (a, &bit) in filter.bank(p).unwrap().iter().enumerate() {
                prop_assert_eq!(bit == 1, expected.contains(&(p, a as u32)), "bank {} address {}", p, a);
            }
        }
    }

    #[test]
    fn union_is_bit_exact_filter_of_union_of_keys(
        (cfg, a, b) in config(11).prop_flat_map(|cfg| (Just(cfg), keys(&cfg, 200), keys(&cfg, 200)))
    ) {
        let fa = filter_of(cfg, &a);
        let fb = filter_of(cfg, &b);
        let all: Vec<u128> = a.iter().chain(&b).copied().collect();
        let union = fa.union(&fb).unwrap();
        prop_assert_eq!(&union, &filter_of(cfg, &all));
        prop_assert_eq!(union.fill(), filter_of(cfg, &all).fill());
        prop_assert_eq!(&fb.union(&fa).unwrap(), &union);
    }

    #[test]
    fn intersection_holds_every_common_key_and_no_extra_bit(
        (cfg, common, a, b) in config(11).prop_flat_map(|cfg| (Just(cfg), keys(&cfg, 50), keys(&cfg, 150), keys(&cfg, 150)))
    ) {
        let a_all: Vec<u128> = common.iter().chain(&a).copied().collect();
        let b_all: Vec<u128> = b.iter().chain(&common).copied().collect();
        let fa = filter_of(cfg, &a_all);
        let fb = filter_of(cfg, &b_all);
        let both = fa.intersection(&fb).unwrap();
        for &key in &common {
            prop_assert!(both.query(key).unwrap(), "common key {:#x} missing", key);
        }
        let common_only = filter_of(cfg, &common);
        for p in 0..cfg.k as usize {
            for a in 0..cfg.bank_size() {
                prop_assert_eq!(both.bit(p, a), fa.bit(p, a) && fb.bit(p, a));
                prop_assert!(!common_only.bit(p, a) || both.bit(p, a));
            }
        }
        check_fill_matches_banks(&both);
    }

    #[test]
    fn clear_empties_every_bank((cfg, keys) in config(12).prop_flat_map(|cfg| (Just(cfg), keys(&cfg, 200)))) {
        let mut filter = filter_of(cfg, &keys);
        prop_assert_eq!(filter.apply(Op::Clear).unwrap(), false);
        prop_assert_eq!(&filter, &PartitionedFilter::new(cfg));
        prop_assert_eq!(filter.fill(), vec![0; cfg.k as usize]);
        prop_assert_eq!(filter.fpr_estimate(), 0.0);
        prop_assert_eq!(filter.estimated_items(), 0.0);
        for &key in &keys {
            prop_assert!(!filter.query(key).unwrap());
        }
    }

    #[test]
    fn sequential_ops_match_a_set_of_bits_model(
        (cfg, ops) in config(8).prop_flat_map(|cfg| {
            let w = cfg.key_bits;
            // Few distinct keys so that repeats, hits and clears all happen.
            let key = prop::sample::select(vec![0u128, 1, 2, 3, 0xFFFF_FFFF, mask_key(u128::MAX, w), 12345]);
            (Just(cfg), prop::collection::vec((0u8..4, key), 0..200))
        })
    ) {
        let mut filter = PartitionedFilter::new(cfg);
        let mut set: HashSet<(usize, u32)> = HashSet::new();
        for (code, key) in ops {
            let addrs = filter.addresses(key).unwrap();
            let all = addrs.iter().enumerate().all(|(p, &a)| set.contains(&(p, a)));
            let hit = filter.apply(Op::decode(code, key)).unwrap();
            match code {
                1 => {
                    prop_assert_eq!(hit, all);
                    set.extend(addrs.iter().enumerate().map(|(p, &a)| (p, a)));
                }
                2 => {
                    prop_assert!(!hit);
                    set.clear();
                }
                _ => prop_assert_eq!(hit, all),
            }
            let fill: Vec<u32> = (0..cfg.k as usize).map(|p| set.iter().filter(|(q, _)| *q == p).count() as u32).collect();
            prop_assert_eq!(filter.fill(), fill);
        }
    }

    #[test]
    fn incompatible_union_and_intersection_are_errors(cfg in config(8), other in config(8)) {
        let a = PartitionedFilter::new(cfg);
        let b = PartitionedFilter::new(other);
        if cfg == other {
            prop_assert!(a.union(&b).is_ok() && a.intersection(&b).is_ok());
        } else {
            let err = a.union(&b).unwrap_err().to_string();
            prop_assert!(err.contains(&cfg.differences(&other)), "{}", err);
            prop_assert!(a.intersection(&b).is_err());
        }
    }

    #[test]
    fn standard_filter_has_no_false_negatives(
        k in 1u32..=16, array_bits in 6u32..=14, w in prop::sample::select(vec![32u32, 64, 128]),
        hash in common::hash_family(), seed in any::<u64>(), raw in prop::collection::vec(any::<u128>(), 0..200)
    ) {
        let config = StandardConfig::new(k, array_bits, w, hash, seed);
        if hash.check_key_bits(w).is_err() {
            // A width the family is not defined for is refused, not hashed.
            prop_assert!(config.is_err());
            return Ok(());
        }
        let mut filter = StandardFilter::new(config.unwrap()).unwrap();
        let keys: Vec<u128> = raw.iter().map(|&key| mask_key(key, w)).collect();
        for &key in &keys {
            filter.insert(key).unwrap();
        }
        for &key in &keys {
            prop_assert!(filter.query(key).unwrap());
        }
        prop_assert_eq!(filter.fill() as usize, filter.bits().iter().filter(|&&b| b == 1).count());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn image_export_import_round_trips_bit_exactly(
        (cfg, keys) in config(10).prop_flat_map(|cfg| (Just(cfg), keys(&cfg, 400)))
    ) {
        let filter = filter_of(cfg, &keys);
        let dir = scratch_dir("roundtrip");
        filter.export_image(&dir).unwrap();
        let back = PartitionedFilter::import_image(&dir).unwrap();
        prop_assert_eq!(&back, &filter);
        prop_assert_eq!(back.config(), filter.config());
        prop_assert_eq!(back.fill(), filter.fill());
        prop_assert_eq!(&PartitionedFilter::import_image_expecting(&dir, &cfg).unwrap(), &filter);
        let mut loaded = PartitionedFilter::new(cfg);
        loaded.load_image(&dir).unwrap();
        prop_assert_eq!(&loaded, &filter);
        // A second export into the same directory is refused and changes nothing.
        let mut more = filter.clone();
        more.insert(common::mask_key(0xABCDEF, cfg.key_bits)).unwrap();
        prop_assert!(more.export_image(&dir).is_err());
        prop_assert_eq!(&PartitionedFilter::import_image(&dir).unwrap(), &filter);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn export_over_an_image_with_more_banks_is_refused_and_leaves_it_whole() {
    let dir = scratch_dir("shrink");
    let big = filter_of(
        CoreParams::new(8, 6, 32, HashFamily::H3, 1).unwrap(),
        &[1, 2, 3],
    );
    big.export_image(&dir).unwrap();
    let small = filter_of(
        CoreParams::new(2, 6, 32, HashFamily::Crc, 1).unwrap(),
        &[4, 5],
    );
    let err = small.export_image(&dir).unwrap_err().to_string();
    assert!(err.contains("not empty"), "{err}");
    assert_eq!(PartitionedFilter::import_image(&dir).unwrap(), big);
    std::fs::remove_dir_all(&dir).unwrap();
}
