//! Helpers shared by the golden model's integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use golden::{CoreParams, CounterBits, HashFamily};
use proptest::prelude::*;

/// The tests' deterministic key generator (the project's one test generator).
#[allow(unused_imports)]
pub use golden::rng::SplitMix64;

pub fn mask_key(key: u128, key_bits: u32) -> u128 {
    if key_bits >= 128 {
        key
    } else {
        key & ((1u128 << key_bits) - 1)
    }
}

/// Every family (`HashFamily::ALL`: a new family is drawn without a change here).
pub fn hash_family() -> impl Strategy<Value = HashFamily> {
    prop::sample::select(HashFamily::ALL.to_vec())
}

/// Any valid configuration with banks of at most 2^max_bank_bits bits (a key width
/// the family is defined for).
pub fn config(max_bank_bits: u32) -> impl Strategy<Value = CoreParams> {
    hash_family().prop_flat_map(move |hash| {
        let widths: Vec<u32> = hash.key_bits_allowed().iter().map(|&w| w as u32).collect();
        (
            1u32..=16,
            6u32..=max_bank_bits,
            prop::sample::select(widths),
            Just(hash),
            any::<u64>(),
        )
            .prop_map(|(k, b, w, hash, seed)| {
                CoreParams::new(k, b, w, hash, seed).expect("strategy yields valid configs")
            })
    })
}

/// Counter widths of a counting filter (2..=8), mostly the small ones, whose
/// counters saturate within a short test.
pub fn counting_bits() -> impl Strategy<Value = CounterBits> {
    prop_oneof![3 => Just(2u32), 2 => Just(3u32), 2 => 2u32..=8]
        .prop_map(|c| CounterBits::new(c).expect("strategy yields valid widths"))
}

/// A pool of `size` distinct keys of the configuration's width, so that
/// operations on few keys repeat, collide and saturate.
pub fn key_pool(cfg: &CoreParams, size: usize) -> impl Strategy<Value = Vec<u128>> {
    let w = cfg.key_bits;
    prop::collection::hash_set(any::<u128>().prop_map(move |key| mask_key(key, w)), size)
        .prop_map(|set| set.into_iter().collect())
}

/// Keys that fit the configuration's width.
pub fn keys(cfg: &CoreParams, max: usize) -> impl Strategy<Value = Vec<u128>> {
    let w = cfg.key_bits;
    prop::collection::vec(any::<u128>().prop_map(move |key| mask_key(key, w)), 0..max)
}

/// A fresh, empty directory under Cargo's per-target scratch space.
pub fn scratch_dir(name: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("golden")
        .join(format!("{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Rank over GF(2) of a set of bit vectors (each a u128).
pub fn gf2_rank(vectors: &[u128]) -> u32 {
    let mut basis: Vec<u128> = Vec::new();
    for &v in vectors {
        let mut v = v;
        for &b in &basis {
            v = v.min(v ^ b);
        }
        if v != 0 {
            basis.push(v);
            basis.sort_unstable_by(|a, b| b.cmp(a));
        }
    }
    basis.len() as u32
}
