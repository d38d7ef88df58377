//! Beats of L operations (contract §8) in the golden model.

mod common;

use common::{config, key_pool};
use golden::lanes::rule_breaker;
use golden::{BeatError, BeatOutcome, CoreParams, HashFamily, Op, PartitionedFilter, MAX_LANES};
use proptest::prelude::*;

/// A slot of a beat: empty, or op code `code` on key `pool[i]`.
fn slot(code: Option<u8>, i: usize, pool: &[u128]) -> Option<Op> {
    code.map(|c| Op::decode(c, pool[i]))
}

/// Beats of `lanes` slots over a pool of `pool` keys: slot 0 any op code or
/// empty; the slots above mostly queries, sometimes empty (all empty beside a
/// write in slot 0 unless `rule_breakers`), and (with `rule_breakers`) now and
/// then another code.
fn beats(
    lanes: usize,
    pool: usize,
    rule_breakers: bool,
    max: usize,
) -> impl Strategy<Value = Vec<Vec<(Option<u8>, usize)>>> {
    let above = if rule_breakers {
        prop_oneof![12 => Just(Some(0u8)), 3 => Just(None), 1 => (1u8..4).prop_map(Some)].boxed()
    } else {
        prop_oneof![4 => Just(Some(0u8)), 1 => Just(None)].boxed()
    };
    let first = prop_oneof![4 => (0u8..4).prop_map(Some), 1 => Just(None)];
    let lane = move |j: usize| {
        if j == 0 {
            first.clone().boxed()
        } else {
            above.clone()
        }
    };
    let beat: Vec<_> = (0..lanes).map(|j| (lane(j), 0..pool)).collect();
    let beat = beat.prop_map(move |mut slots| {
        if !rule_breakers && slots[0].0.is_some_and(|code| code != 0) {
            slots.iter_mut().skip(1).for_each(|slot| slot.0 = None);
        }
        slots
    });
    prop::collection::vec(beat, 0..max)
}

/// A configuration (banks of at most 2^max_bank_bits bits), a pool of `pool`
/// keys of its width, and up to 60 beats of `lanes` lanes over the pool.
/// A configuration, its key pool, and beats of (op, key index) per slot.
type Case = (CoreParams, Vec<u128>, Vec<Vec<(Option<u8>, usize)>>);

fn traffic(
    max_bank_bits: u32,
    lanes: std::ops::RangeInclusive<usize>,
    pool: usize,
    rule_breakers: bool,
) -> impl Strategy<Value = Case> {
    (config(max_bank_bits), lanes).prop_flat_map(move |(cfg, lanes)| {
        (
            Just(cfg),
            key_pool(&cfg, pool),
            beats(lanes, pool, rule_breakers, 60),
        )
    })
}

fn small_config() -> CoreParams {
    CoreParams::new(3, 6, 64, HashFamily::H3, 11).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// §8.3: a counting filter's beats (c = 2: counters saturate at 3 after three
    /// inserts of a six-key pool) are their operations in slot order, deletes included,
    /// or nothing when they break the rule; every response is the sequential model's,
    /// and so is every counter afterwards.
    #[test]
    fn counting_beats_are_their_slots_in_order_or_nothing(
        (cfg, pool, beats) in traffic(7, 1..=6, 6, true)
    ) {
        let c = golden::CounterBits::new(2).unwrap();
        let mut by_beat = golden::CountingFilter::new(cfg, c);
        let mut by_op = golden::CountingFilter::new(cfg, c);
        for beat in beats {
            let ops: Vec<Option<Op>> = beat.iter().map(|&(code, i)| slot(code, i, &pool)).collect();
            let outcome = by_beat.apply_beat(&ops).unwrap();
            if ops.iter().all(Option::is_none) {
                prop_assert_eq!(outcome, BeatOutcome::NoBeat);
            } else if let Some(slot) = rule_breaker(&ops) {
                prop_assert_eq!(outcome, BeatOutcome::Refused { slot });
            } else {
                let want: Vec<Option<bool>> =
                    ops.iter().map(|op| op.map(|op| by_op.apply(op).unwrap())).collect();
                prop_assert_eq!(outcome, BeatOutcome::Taken(want));
            }
            prop_assert_eq!(&by_beat, &by_op);
        }
    }

    /// §8.1: a beat that keeps the rule is its operations in slot order; every
    /// response is the sequential model's, and so is the filter afterwards.
    #[test]
    fn lanes_1_to_8_beats_are_their_slots_in_order(
        (cfg, pool, beats) in traffic(9, 1..=8, 10, false)
    ) {
        let mut by_beat = PartitionedFilter::new(cfg);
        let mut by_op = PartitionedFilter::new(cfg);
        for beat in beats {
            let ops: Vec<Option<Op>> = beat.iter().map(|&(code, i)| slot(code, i, &pool)).collect();
            let outcome = by_beat.apply_beat(&ops).unwrap();
            let want: Vec<Option<bool>> = ops.iter().map(|op| op.map(|op| by_op.apply(op).unwrap())).collect();
            if ops.iter().all(Option::is_none) {
                prop_assert_eq!(outcome, BeatOutcome::NoBeat);
            } else {
                prop_assert_eq!(outcome, BeatOutcome::Taken(want));
            }
            prop_assert_eq!(&by_beat, &by_op);
            prop_assert_eq!(by_beat.fill(), by_op.fill());
        }
    }

    /// §8.2: a beat with an insert, clear or delete above slot 0, or anything
    /// beside a write in slot 0, changes nothing; the beats around it are as if it
    /// had never been given.
    #[test]
    fn lanes_2_to_8_refused_beats_change_nothing(
        (cfg, pool, beats) in traffic(8, 2..=8, 8, true)
    ) {
        let mut with_refusals = PartitionedFilter::new(cfg);
        let mut without = PartitionedFilter::new(cfg);
        for beat in beats {
            let ops: Vec<Option<Op>> = beat.iter().map(|&(code, i)| slot(code, i, &pool)).collect();
            let before = with_refusals.clone();
            let outcome = with_refusals.apply_beat(&ops).unwrap();
            match rule_breaker(&ops) {
                Some(first) => {
                    prop_assert_eq!(outcome, BeatOutcome::Refused { slot: first });
                    let slot0_writes = ops[0].is_some_and(|op| op.code() != 0);
                    prop_assert!(ops[first].is_some_and(|op| slot0_writes || op.code() != 0));
                    prop_assert!(ops[1..first].iter().all(|op| op.is_none() || (!slot0_writes && op.is_some_and(|op| op.code() == 0))));
                    prop_assert_eq!(&with_refusals, &before);
                }
                None => {
                    prop_assert_eq!(outcome.clone(), without.apply_beat(&ops).unwrap());
                }
            }
            prop_assert_eq!(&with_refusals, &without);
        }
    }
}

/// §8.1, §8.2: every slot of the beat after a write sees it; a write beside
/// queries, or an insert above slot 0, is refused and changes nothing.
#[test]
fn lanes_4_the_beat_after_a_write_sees_it_and_mixed_beats_are_refused() {
    let mut f = PartitionedFilter::new(small_config());
    let (x, y) = (0x1234_5678_9abc_def0u128, 77u128);
    assert!(!f.query(x).unwrap());
    let outcome = f
        .apply_beat(&[
            Some(Op::Insert(x)),
            Some(Op::Query(x)),
            None,
            Some(Op::Query(y)),
        ])
        .unwrap();
    assert_eq!(outcome, BeatOutcome::Refused { slot: 1 });
    assert!(!f.query(x).unwrap(), "a refused beat inserts nothing");
    let outcome = f
        .apply_beat(&[Some(Op::Query(y)), None, Some(Op::Insert(x)), None])
        .unwrap();
    assert_eq!(outcome, BeatOutcome::Refused { slot: 2 });
    let outcome = f
        .apply_beat(&[Some(Op::Insert(x)), None, None, None])
        .unwrap();
    assert_eq!(
        outcome,
        BeatOutcome::Taken(vec![Some(false), None, None, None])
    );
    let outcome = f
        .apply_beat(&[
            None,
            Some(Op::Query(x)),
            Some(Op::Query(x)),
            Some(Op::Query(y)),
        ])
        .unwrap();
    assert_eq!(
        outcome,
        BeatOutcome::Taken(vec![
            None,
            Some(true),
            Some(true),
            Some(f.query(y).unwrap())
        ])
    );
    let outcome = f.apply_beat(&[Some(Op::Clear), None, None, None]).unwrap();
    assert_eq!(
        outcome,
        BeatOutcome::Taken(vec![Some(false), None, None, None])
    );
    let outcome = f
        .apply_beat(&[Some(Op::Query(x)), Some(Op::Query(x)), None, None])
        .unwrap();
    assert_eq!(
        outcome,
        BeatOutcome::Taken(vec![Some(false), Some(false), None, None])
    );
    assert_eq!(f.fill(), vec![0, 0, 0]);
}

/// §8.2, §8.3: the width of a beat and its keys are checked before anything
/// of it is applied.
#[test]
fn lanes_0_and_129_and_wide_keys_are_refused_before_anything_is_applied() {
    let cfg = CoreParams::new(2, 6, 32, HashFamily::Crc, 0).unwrap();
    let mut f = PartitionedFilter::new(cfg);
    assert_eq!(f.apply_beat(&[]), Err(BeatError::Lanes(0)));
    let wide = vec![Some(Op::Query(1)); MAX_LANES + 1];
    assert_eq!(f.apply_beat(&wide), Err(BeatError::Lanes(129)));
    assert!(f.apply_beat(&wide[..MAX_LANES]).is_ok());
    let before = f.clone();
    let err = f
        .apply_beat(&[Some(Op::Insert(5)), Some(Op::Query(1u128 << 32))])
        .unwrap_err();
    assert!(matches!(err, BeatError::Key { slot: 1, .. }), "{err:?}");
    assert!(err.to_string().starts_with("slot 1: "), "{err}");
    assert_eq!(
        f, before,
        "slot 0's insert must not be applied when slot 1's key is bad"
    );
    let err = BeatError::Lanes(129).to_string();
    assert!(
        err.contains("lanes = 129") && err.contains("1 ..= 128"),
        "{err}"
    );
}
