//! Helpers shared by the golden model's integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use golden::{Config, CounterBits, HashFamily};
use proptest::prelude::*;

/// xoshiro256** (Blackman and Vigna): the tests' deterministic key generator.
/// Deliberately not SplitMix64, which generates the H3 rows under test, so
/// that test keys cannot line up with the matrices.
pub struct Xoshiro256 {
    s: [u64; 4],
}

impl Xoshiro256 {
    pub fn new(seed: u64) -> Self {
        // Any non-zero state works; spread the seed with odd constants.
        let mut s = [
            seed ^ 0x0123_4567_89AB_CDEF,
            seed.rotate_left(17) ^ 0xFEDC_BA98_7654_3210,
            seed.rotate_left(31) ^ 0x0F1E_2D3C_4B5A_6978,
            !seed,
        ];
        if s.iter().all(|&w| w == 0) {
            s[0] = 1;
        }
        let mut rng = Xoshiro256 { s };
        for _ in 0..16 {
            rng.next_u64();
        }
        rng
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniformly random key of `key_bits` bits.
    pub fn key(&mut self, key_bits: u32) -> u128 {
        let wide = ((self.next_u64() as u128) << 64) | self.next_u64() as u128;
        mask_key(wide, key_bits)
    }
}

pub fn mask_key(key: u128, key_bits: u32) -> u128 {
    if key_bits >= 128 {
        key
    } else {
        key & ((1u128 << key_bits) - 1)
    }
}

pub fn hash_family() -> impl Strategy<Value = HashFamily> {
    prop_oneof![Just(HashFamily::H3), Just(HashFamily::Crc)]
}

/// Any valid configuration with banks of at most 2^max_bank_bits bits.
pub fn config(max_bank_bits: u32) -> impl Strategy<Value = Config> {
    (
        1u32..=16,
        6u32..=max_bank_bits,
        prop::sample::select(vec![32u32, 64, 128]),
        hash_family(),
        any::<u64>(),
    )
        .prop_map(|(k, b, w, hash, seed)| {
            Config::new(k, b, w, hash, seed).expect("strategy yields valid configs")
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
pub fn key_pool(cfg: &Config, size: usize) -> impl Strategy<Value = Vec<u128>> {
    let w = cfg.key_bits;
    prop::collection::hash_set(any::<u128>().prop_map(move |key| mask_key(key, w)), size)
        .prop_map(|set| set.into_iter().collect())
}

/// Keys that fit the configuration's width.
pub fn keys(cfg: &Config, max: usize) -> impl Strategy<Value = Vec<u128>> {
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
