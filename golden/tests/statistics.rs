//! Statistical and linear-algebra checks of partition independence.
//!
//! The exact false-positive rate of a partitioned filter with k independent,
//! uniform hash units, 2^b-bit banks and n distinct keys is
//! (1 - (1 - 2^-b)^n)^k. For each hash family and several configurations the
//! rate measured on fresh random keys must lie within 4 standard errors of
//! it; a deliberately correlated design must fail the same check.

mod common;

use std::collections::HashSet;

use common::{gf2_rank, SplitMix64};
use crc::{Algorithm, Crc, CRC_32_ISO_HDLC};
use golden::{CoreParams, HashFamily, PartitionedFilter};

/// Something that behaves like a partitioned filter.
trait Design {
    fn insert(&mut self, key: u128);
    fn query(&self, key: u128) -> bool;
}

impl Design for PartitionedFilter {
    fn insert(&mut self, key: u128) {
        PartitionedFilter::insert(self, key).unwrap();
    }
    fn query(&self, key: u128) -> bool {
        PartitionedFilter::query(self, key).unwrap()
    }
}

struct Measurement {
    measured: f64,
    expected: f64,
    standard_error: f64,
}

impl Measurement {
    fn z(&self) -> f64 {
        (self.measured - self.expected) / self.standard_error
    }
    fn summary(&self) -> String {
        format!(
            "measured fpr {:.6}, expected {:.6}, standard error {:.6}, z = {:.2}",
            self.measured,
            self.expected,
            self.standard_error,
            self.z()
        )
    }
}

/// One false-positive experiment: k partitions of 2^b bits, W-bit keys, n
/// keys inserted per trial.
#[derive(Clone, Copy)]
struct Experiment {
    k: u32,
    b: u32,
    key_bits: u32,
    n: usize,
    trials: u64,
    queries: usize,
    rng_seed: u64,
}

/// Runs `trials` independent trials: a fresh design (from `make`, given the
/// trial number), n distinct random keys inserted, `queries` random keys
/// never inserted queried. The standard error comes from the spread of the
/// per-trial rates (which includes the fill's own variation), floored by the
/// binomial error of all queries together.
fn measure(make: &mut dyn FnMut(u64) -> Box<dyn Design>, experiment: &Experiment) -> Measurement {
    let Experiment {
        k,
        b,
        key_bits,
        n,
        trials,
        queries,
        rng_seed,
    } = *experiment;
    let mut rng = SplitMix64::new(rng_seed);
    let mut rates = Vec::new();
    for trial in 0..trials {
        let mut design = make(trial);
        let mut inserted = HashSet::new();
        while inserted.len() < n {
            let key = rng.key(key_bits);
            if inserted.insert(key) {
                design.insert(key);
            }
        }
        let mut positives = 0usize;
        let mut asked = 0usize;
        while asked < queries {
            let key = rng.key(key_bits);
            if inserted.contains(&key) {
                continue;
            }
            asked += 1;
            positives += design.query(key) as usize;
        }
        rates.push(positives as f64 / queries as f64);
    }
    let t = trials as f64;
    let mean = rates.iter().sum::<f64>() / t;
    let variance = rates.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (t - 1.0);
    let expected = (1.0 - (1.0 - 2f64.powi(-(b as i32))).powi(n as i32)).powi(k as i32);
    let binomial = (expected * (1.0 - expected) / (t * queries as f64)).sqrt();
    Measurement {
        measured: mean,
        expected,
        standard_error: (variance / t).sqrt().max(binomial),
    }
}

/// n = 2^b / 2 leaves each bank about 39% full; larger k needs fuller banks
/// for enough false positives to count.
fn check_family(hash: HashFamily, k: u32, b: u32, key_bits: u32, trials: u64, queries: usize) {
    let n = if k > 8 {
        1usize << b
    } else {
        1usize << (b - 1)
    };
    let mut make = |trial: u64| -> Box<dyn Design> {
        Box::new(PartitionedFilter::new(
            CoreParams::new(k, b, key_bits, hash, 0x5EED_0000 + trial).unwrap(),
        ))
    };
    let rng_seed = 1000 + k as u64 * 100 + b as u64;
    let m = measure(
        &mut make,
        &Experiment {
            k,
            b,
            key_bits,
            n,
            trials,
            queries,
            rng_seed,
        },
    );
    eprintln!("{hash} k={k} b={b} W={key_bits} n={n}: {}", m.summary());
    assert!(
        m.z().abs() <= 4.0,
        "{hash} k={k} b={b} W={key_bits}: {}",
        m.summary()
    );
}

#[test]
fn fpr_h3_k4_b8_w64() {
    check_family(HashFamily::H3, 4, 8, 64, 32, 20_000);
}

#[test]
fn fpr_h3_k3_b10_w32() {
    check_family(HashFamily::H3, 3, 10, 32, 24, 20_000);
}

#[test]
fn fpr_h3_k8_b6_w128() {
    check_family(HashFamily::H3, 8, 6, 128, 64, 20_000);
}

#[test]
fn fpr_h3_k12_b8_w128() {
    check_family(HashFamily::H3, 12, 8, 128, 48, 20_000);
}

#[test]
fn fpr_crc_k4_b8_w64() {
    check_family(HashFamily::Crc, 4, 8, 64, 32, 20_000);
}

#[test]
fn fpr_crc_k3_b10_w32() {
    check_family(HashFamily::Crc, 3, 10, 32, 24, 20_000);
}

#[test]
fn fpr_crc_k8_b6_w128() {
    check_family(HashFamily::Crc, 8, 6, 128, 64, 20_000);
}

#[test]
fn fpr_crc_k12_b8_w128_uses_both_fields() {
    check_family(HashFamily::Crc, 12, 8, 128, 48, 20_000);
}

/// k partitions that all run CRC-32/ISO-HDLC over the same message and differ
/// only in the CRC's initial value: the rejected design of contract §3.2.
struct InitOnlyCrcDesign {
    units: Vec<Crc<u32>>,
    b: u32,
    key_bits: u32,
    banks: Vec<Vec<bool>>,
}

impl InitOnlyCrcDesign {
    fn new(k: u32, b: u32, key_bits: u32) -> Self {
        let units = (0..k)
            .map(|p| {
                let algorithm: &'static Algorithm<u32> = Box::leak(Box::new(Algorithm {
                    init: 0xFFFF_FFFF ^ (p.wrapping_mul(0x9E37_79B9) | 1),
                    ..CRC_32_ISO_HDLC
                }));
                Crc::<u32>::new(algorithm)
            })
            .collect();
        InitOnlyCrcDesign {
            units,
            b,
            key_bits,
            banks: vec![vec![false; 1 << b]; k as usize],
        }
    }

    fn address(&self, p: usize, key: u128) -> usize {
        let mut message = 0u64.to_le_bytes().to_vec();
        message.extend_from_slice(&key.to_le_bytes()[..self.key_bits as usize / 8]);
        (self.units[p].checksum(&message) & ((1 << self.b) - 1)) as usize
    }
}

impl Design for InitOnlyCrcDesign {
    fn insert(&mut self, key: u128) {
        for p in 0..self.units.len() {
            let a = self.address(p, key);
            self.banks[p][a] = true;
        }
    }
    fn query(&self, key: u128) -> bool {
        (0..self.units.len()).all(|p| self.banks[p][self.address(p, key)])
    }
}

#[test]
fn fpr_check_rejects_crcs_differing_only_by_init_k4_b8_w64() {
    let mut make = |_trial: u64| -> Box<dyn Design> { Box::new(InitOnlyCrcDesign::new(4, 8, 64)) };
    let m = measure(
        &mut make,
        &Experiment {
            k: 4,
            b: 8,
            key_bits: 64,
            n: 128,
            trials: 8,
            queries: 5_000,
            rng_seed: 77,
        },
    );
    eprintln!("crc init-only k=4 b=8 W=64 n=128: {}", m.summary());
    assert!(
        m.z() > 4.0,
        "the correlated design should fail the 4-standard-error check but passed: {}",
        m.summary()
    );
}

/// The linear part of every partition's map at b = 16: vector i is
/// a_p(e_i) XOR a_p(0), e_i the key with only bit i set (for H3 a_p(0) = 0;
/// CRC is affine in the key, so the difference is linear).
fn linear_maps(hash: HashFamily, key_bits: u32, seed: u64) -> Vec<Vec<u32>> {
    let filter = PartitionedFilter::new(CoreParams::new(16, 16, key_bits, hash, seed).unwrap());
    let zero = filter.addresses(0).unwrap();
    let mut maps = vec![Vec::new(); 16];
    for i in 0..key_bits {
        let addrs = filter.addresses(1u128 << i).unwrap();
        for p in 0..16 {
            maps[p].push(addrs[p] ^ zero[p]);
        }
    }
    maps
}

/// Rank over GF(2) of partitions `ps` jointly, each truncated to b bits.
fn joint_rank(maps: &[Vec<u32>], ps: &[usize], b: u32) -> u32 {
    let key_bits = maps[0].len();
    let vectors: Vec<u128> = (0..key_bits)
        .map(|i| {
            ps.iter().enumerate().fold(0u128, |acc, (slot, &p)| {
                acc | (((maps[p][i] & ((1 << b) - 1)) as u128) << (slot as u32 * b))
            })
        })
        .collect();
    gf2_rank(&vectors)
}

/// Pairs (p, q) whose joint map has rank below 2b.
fn deficient_pairs(maps: &[Vec<u32>], b: u32) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for p in 0..16 {
        for q in p + 1..16 {
            if joint_rank(maps, &[p, q], b) < 2 * b {
                out.push((p, q));
            }
        }
    }
    out
}

fn check_rank(hash: HashFamily, key_bits: u32, seed: u64, max_b: u32) {
    let maps = linear_maps(hash, key_bits, seed);
    for b in 6..=16 {
        for p in 0..16 {
            assert_eq!(
                joint_rank(&maps, &[p], b),
                b,
                "{hash} W={key_bits} seed={seed} b={b}: partition {p} alone"
            );
        }
        if b <= max_b {
            let bad = deficient_pairs(&maps, b);
            assert!(
                bad.is_empty(),
                "{hash} W={key_bits} seed={seed} b={b}: pairs not jointly full rank: {bad:?}"
            );
        }
    }
}

#[test]
fn rank_h3_w64_and_w128_every_pair_full_rank_every_b() {
    for seed in [0, 1, 0xDEAD_BEEF] {
        check_rank(HashFamily::H3, 64, seed, 16);
        check_rank(HashFamily::H3, 128, seed, 16);
    }
}

/// With 32-bit keys a pair of random 32 x b matrices is jointly full rank
/// only with probability about 1 - 2^-(32-2b), so H3 on 32-bit keys is
/// guaranteed pairwise independent only for small b. For seed 0 every pair is
/// full rank up to b = 11 (checked here); at b = 12 two of the 120 pairs are
/// not (also checked, so a change of generator is noticed; the same count
/// comes out of an independent Python rank computation).
#[test]
fn rank_h3_w32_every_pair_full_rank_up_to_b11() {
    check_rank(HashFamily::H3, 32, 0, 11);
    let maps = linear_maps(HashFamily::H3, 32, 0);
    assert_eq!(deficient_pairs(&maps, 12).len(), 2);
}

#[test]
fn rank_crc_w64_and_w128_every_pair_full_rank_every_b() {
    for seed in [0, 1, 0xDEAD_BEEF] {
        check_rank(HashFamily::Crc, 64, seed, 16);
        check_rank(HashFamily::Crc, 128, seed, 16);
    }
}

/// With 32-bit keys the fixed CRC maps are pairwise full rank up to b = 12;
/// at b = 13 the pairs (9, 15) and (10, 15) are not. Partitions p and p + 8
/// (two fields of one CRC-32) stay jointly full rank even at b = 16, since a
/// CRC-32 of a 32-bit key is a bijection. The seed only adds a constant to
/// CRC addresses, so these ranks do not depend on it.
#[test]
fn rank_crc_w32_every_pair_full_rank_up_to_b12() {
    check_rank(HashFamily::Crc, 32, 0, 12);
    let maps = linear_maps(HashFamily::Crc, 32, 0);
    assert_eq!(deficient_pairs(&maps, 13), vec![(9, 15), (10, 15)]);
    for p in 0..6 {
        assert_eq!(
            joint_rank(&maps, &[p, p + 8], 16),
            32,
            "fields of {}",
            golden::hash::CRC_ALGORITHM_NAMES[p]
        );
    }
}

#[test]
fn rank_all_partitions_jointly_full_rank_for_the_fpr_configs() {
    // H3 with k=3, b=10, W=32 is left out: a random 32 x 30 matrix is full
    // rank with probability about 3/4 only, and seed 0's has rank 29 (the
    // FPR test above averages over seeds, as H3's guarantee is over seeds).
    let configs = [
        (HashFamily::H3, 4usize, 8u32, 64u32),
        (HashFamily::H3, 8, 6, 128),
        (HashFamily::H3, 16, 7, 128),
        (HashFamily::Crc, 4, 8, 64),
        (HashFamily::Crc, 3, 10, 32),
        (HashFamily::Crc, 8, 6, 128),
        (HashFamily::Crc, 12, 8, 128),
    ];
    for (hash, k, b, key_bits) in configs {
        let maps = linear_maps(hash, key_bits, 0);
        let ps: Vec<usize> = (0..k).collect();
        assert_eq!(
            joint_rank(&maps, &ps, b),
            k as u32 * b,
            "{hash} k={k} b={b} W={key_bits}"
        );
    }
}

#[test]
fn rank_check_detects_crcs_differing_only_by_init() {
    let design = InitOnlyCrcDesign::new(2, 16, 64);
    let maps: Vec<Vec<u32>> = (0..2)
        .map(|p| {
            (0..64)
                .map(|i| (design.address(p, 1u128 << i) ^ design.address(p, 0)) as u32)
                .collect()
        })
        .collect();
    assert_eq!(
        joint_rank(&maps, &[0, 1], 16),
        16,
        "the two maps are identical: rank b, not 2b"
    );
}
