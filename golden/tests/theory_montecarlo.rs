//! Monte Carlo with the golden model: measured false-positive rates against
//! the exact formulas, for both layouts. Deterministic (seeded) traffic.

use golden::theory::{classic, partitioned_exact, standard_exact};
use golden::{CoreParams, HashFamily, PartitionedFilter, StandardConfig, StandardFilter};

/// Mean and standard error of per-filter false-positive rates over `filters`
/// filters, each with n random keys inserted and `queries` random non-member
/// keys queried. `make(seed)` builds an empty filter with hash seed `seed`.
fn measure<F, I, Q>(
    filters: u64,
    n: usize,
    queries: usize,
    stream: u64,
    mut make: F,
    insert: I,
    query: Q,
) -> (f64, f64)
where
    F: FnMut(u64) -> Box<dyn std::any::Any>,
    I: Fn(&mut Box<dyn std::any::Any>, u128),
    Q: Fn(&Box<dyn std::any::Any>, u128) -> bool,
{
    let mut keys = golden::rng::SplitMix64::new(stream);
    let (mut sum, mut sum_sq) = (0.0f64, 0.0f64);
    let mut members = Vec::with_capacity(n);
    for f in 0..filters {
        let mut filter = make(f);
        members.clear();
        for _ in 0..n {
            let key = keys.next_u64() as u128;
            members.push(key);
            insert(&mut filter, key);
        }
        let mut hits = 0usize;
        let mut asked = 0usize;
        while asked < queries {
            let key = keys.next_u64() as u128;
            if members.contains(&key) {
                continue;
            }
            asked += 1;
            hits += query(&filter, key) as usize;
        }
        let rate = hits as f64 / queries as f64;
        sum += rate;
        sum_sq += rate * rate;
    }
    let f = filters as f64;
    let mean = sum / f;
    let var = (sum_sq / f - mean * mean) * f / (f - 1.0);
    (mean, (var / f).sqrt())
}

fn measure_standard(
    k: u32,
    array_bits: u32,
    n: usize,
    filters: u64,
    queries: usize,
    stream: u64,
) -> (f64, f64) {
    measure(
        filters,
        n,
        queries,
        stream,
        |seed| {
            Box::new(
                StandardFilter::new(
                    StandardConfig::new(k, array_bits, 64, HashFamily::H3, seed).unwrap(),
                )
                .unwrap(),
            )
        },
        |f, key| {
            f.downcast_mut::<StandardFilter>()
                .unwrap()
                .insert(key)
                .unwrap();
        },
        |f, key| {
            f.downcast_ref::<StandardFilter>()
                .unwrap()
                .query(key)
                .unwrap()
        },
    )
}

fn measure_partitioned(
    k: u32,
    bank_bits: u32,
    hash: HashFamily,
    n: usize,
    filters: u64,
    queries: usize,
    stream: u64,
) -> (f64, f64) {
    measure(
        filters,
        n,
        queries,
        stream,
        |seed| {
            Box::new(PartitionedFilter::new(
                CoreParams::new(k, bank_bits, 64, hash, seed).unwrap(),
            ))
        },
        |f, key| {
            f.downcast_mut::<PartitionedFilter>()
                .unwrap()
                .insert(key)
                .unwrap();
        },
        |f, key| {
            f.downcast_ref::<PartitionedFilter>()
                .unwrap()
                .query(key)
                .unwrap()
        },
    )
}

/// The measured rate `mean` (standard error `se`) is within 4 standard errors of
/// the exact rate; both printed under `label`.
fn assert_within_4_se(label: &str, mean: f64, se: f64, exact: f64) {
    eprintln!("{label}: measured {mean:.6} ± {se:.6}, exact {exact:.6}");
    assert!(
        (mean - exact).abs() < 4.0 * se,
        "{label}: measured {mean} ± {se} vs exact {exact}"
    );
}

#[test]
fn standard_m64_n8_k4_matches_exact_and_exceeds_classic() {
    let (mean, se) = measure_standard(4, 6, 8, 20_000, 200, 1);
    let exact = standard_exact(64, 8, 4).unwrap();
    let classic = classic(64, 8, 4).unwrap();
    eprintln!("standard m=64 n=8 k=4: classic {classic:.6}");
    assert_within_4_se("standard m=64 n=8 k=4", mean, se, exact);
    assert!(
        mean - classic > 4.0 * se,
        "measured {mean} ± {se} not distinguishably above classic {classic}"
    );
}

#[test]
fn standard_m128_n20_k3_matches_exact() {
    let (mean, se) = measure_standard(3, 7, 20, 5_000, 200, 2);
    let exact = standard_exact(128, 20, 3).unwrap();
    assert_within_4_se("standard m=128 n=20 k=3", mean, se, exact);
}

#[test]
fn partitioned_h3_k4_b6_n40_matches_exact() {
    let (mean, se) = measure_partitioned(4, 6, HashFamily::H3, 40, 5_000, 200, 3);
    let exact = partitioned_exact(256, 40, 4).unwrap();
    assert_within_4_se("partitioned h3 k=4 b=6 n=40", mean, se, exact);
}

#[test]
fn partitioned_crc_k3_b6_n30_matches_exact() {
    let (mean, se) = measure_partitioned(3, 6, HashFamily::Crc, 30, 3_000, 200, 4);
    let exact = partitioned_exact(192, 30, 3).unwrap();
    assert_within_4_se("partitioned crc k=3 b=6 n=30", mean, se, exact);
}
