//! Property tests of the operations on counting images (contract §7.5.1):
//! deleting keys from an image, and the union of two counting images.

mod common;

use common::{config, counting_bits, key_pool, scratch_dir};
use golden::{CountingFilter, PartitionedFilter};
use proptest::prelude::*;

/// Inserts `keys[i]` for every index in `inserts`.
fn filled(
    cfg: golden::CoreParams,
    c: golden::CounterBits,
    pool: &[u128],
    inserts: &[usize],
) -> CountingFilter {
    let mut f = CountingFilter::new(cfg, c);
    for &i in inserts {
        f.insert(pool[i]).unwrap();
    }
    f
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Deleting keys from an image written and read back is the delete of §7.2 on the
    /// filter itself; deleting only keys whose net count is > 0 never makes a key of
    /// the multiset absent (§7.4), and the report's counts are what happened: keys
    /// deleted plus absent = keys given, and the saturated counters met are the
    /// counters at S under each carried-out delete.
    #[test]
    fn delete_from_an_image_is_the_contract_delete_and_never_a_false_negative(
        (cfg, c, pool, inserts, deletes) in (config(8), counting_bits()).prop_flat_map(|(cfg, c)| {
            (Just(cfg), Just(c), key_pool(&cfg, 16),
             prop::collection::vec(0usize..12, 0..200), prop::collection::vec(0usize..16, 0..100))
        })
    ) {
        let direct = filled(cfg, c, &pool, &inserts);
        let dir = scratch_dir("counting-delete");
        direct.export_image(&dir.join("img")).unwrap();
        let mut from_image = CountingFilter::import_image(&dir.join("img")).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        prop_assert_eq!(&from_image, &direct);
        let mut net = vec![0u32; pool.len()];
        for &i in &inserts {
            net[i] += 1;
        }
        let mut reference = direct.clone();
        for &i in &deletes {
            let key = pool[i];
            let at_s = from_image
                .addresses(key)
                .unwrap()
                .iter()
                .enumerate()
                .filter(|(p, &a)| from_image.counter(*p, a) == Some(from_image.saturation()))
                .count() as u32;
            let before = from_image.clone();
            let outcome = from_image.delete_counted(key).unwrap();
            prop_assert_eq!(outcome.hit, reference.delete(key).unwrap());
            if net[i] == 0 {
                // An absent key: answered 0 and nothing changed, or a false positive
                // whose delete ends §7.4's guarantee (nothing more to check).
                if outcome.hit {
                    break;
                }
                prop_assert_eq!(&from_image, &before);
                prop_assert_eq!(outcome.saturated, 0);
                continue;
            }
            prop_assert!(outcome.hit, "a key with net count {} was absent", net[i]);
            prop_assert_eq!(outcome.saturated, at_s);
            net[i] -= 1;
            for (j, &n) in net.iter().enumerate() {
                if n > 0 {
                    prop_assert!(from_image.query(pool[j]).unwrap(), "false negative for key {}", j);
                }
            }
        }
        prop_assert_eq!(&from_image, &reference);
    }

    /// The union is the saturating sum of the counters; without saturation it is the
    /// filter of both multisets together; its projection is always the OR of the
    /// projections; it is commutative; and other configurations are refused.
    #[test]
    fn union_is_the_saturating_sum(
        (cfg, c, pool, xs, ys) in (config(8), counting_bits()).prop_flat_map(|(cfg, c)| {
            (Just(cfg), Just(c), key_pool(&cfg, 24),
             prop::collection::vec(0usize..24, 0..150), prop::collection::vec(0usize..24, 0..150))
        })
    ) {
        let a = filled(cfg, c, &pool, &xs);
        let b = filled(cfg, c, &pool, &ys);
        let u = a.union(&b).unwrap();
        let s = u16::from(u.saturation());
        for p in 0..cfg.k as usize {
            for ((&x, &y), &z) in a.bank(p).unwrap().iter().zip(b.bank(p).unwrap()).zip(u.bank(p).unwrap()) {
                prop_assert_eq!(u16::from(z), (u16::from(x) + u16::from(y)).min(s));
            }
        }
        prop_assert_eq!(&u, &b.union(&a).unwrap());
        let or: PartitionedFilter = a.to_plain().union(&b.to_plain()).unwrap();
        prop_assert_eq!(&u.to_plain(), &or);
        let both: Vec<usize> = xs.iter().chain(&ys).copied().collect();
        let together = filled(cfg, c, &pool, &both);
        let never_saturated = (0..cfg.k as usize).all(|p| {
            a.bank(p).unwrap().iter().zip(b.bank(p).unwrap()).all(|(&x, &y)| u16::from(x) + u16::from(y) < s)
        });
        if never_saturated {
            prop_assert_eq!(&u, &together);
        }
        // Every counter of the union is at least each input's (nothing is lost).
        for &i in &both {
            prop_assert!(u.query(pool[i]).unwrap());
        }
        let other = CountingFilter::new(golden::CoreParams { seed: cfg.seed ^ 1, ..cfg }, c);
        prop_assert!(a.union(&other).is_err());
    }
}
