//! The design-space measurement behind contract §3.3 (docs/theory.md,
//! "Structured key sets"): the structured-key suite run on H3, CRC and
//! candidate SPNs (S-box and rounds), in the two configurations of the
//! record, plus each SPN's full-diffusion round (the first round after which
//! every state bit depends on every key bit).
//!
//! `cargo run -p golden --example hash_candidates -- [SEEDS [QUERIES [FILTER]]]`
//! (defaults 32 and 100000; FILTER keeps the rows whose name contains it).

use golden::spn::{SpnBlocks, SpnDesign, GIFT_SBOX, PRESENT_SBOX, RECTANGLE_SBOX, SPN};
use golden::structured::{run_family, run_suite, SuiteOptions, Summary};
use golden::{CoreParams, HashFamily};

mod common;
use common::{Ideal, Spn};

/// The first round after which every output bit depends on every key bit,
/// following dependencies structurally (a column's outputs depend on all its
/// inputs).
fn full_diffusion_round(design: &SpnDesign, key_bits: u32) -> Option<u32> {
    let q = key_bits as usize / 4;
    // deps[bit] = set of key bits (as a bitmask over up to 128 bits).
    let mut deps: Vec<u128> = (0..key_bits).map(|i| 1u128 << i).collect();
    let all = golden::config::max_key(key_bits);
    for round in 1..=16 {
        let rot = design.rotations(key_bits, round - 1);
        let mut after = vec![0u128; key_bits as usize];
        for column in 0..q {
            let union = (0..4).fold(0, |u, j| u | deps[j * q + column]);
            for (j, r) in rot.iter().enumerate() {
                after[j * q + (column + *r as usize) % q] = union;
            }
        }
        deps = after;
        if deps.iter().all(|&d| d == all) {
            return Some(round);
        }
    }
    None
}

fn report(label: &str, s: &Summary) {
    let w = &s.worst;
    println!(
        "{label:<28} worst {:>6.2}x ({} {} load {} seed {}), above 1.5x: {:>4}/{} ({:.3}), above 2x: {:>4} ({:.3}), group means {:.3}..{:.3} (furthest: {} {} {}), fill z <= {:.1}, items z <= {:.1}",
        w.ratio(),
        w.set.name(),
        w.query.name(),
        w.load,
        w.seed,
        s.above_1_5,
        s.cases,
        s.above_1_5 as f64 / s.cases as f64,
        s.above_2,
        s.above_2 as f64 / s.cases as f64,
        s.groups.iter().map(|g| g.mean_ratio).fold(f64::INFINITY, f64::min),
        s.groups.iter().map(|g| g.mean_ratio).fold(0.0, f64::max),
        s.worst_group.set.name(),
        s.worst_group.query.name(),
        s.worst_group.load,
        s.worst_fill_z,
        s.worst_items_z,
    );
}

/// Plane rotations tried, for W = 32, 64, 128, in even and odd rounds:
/// "slow" reaches every key bit in 4, 4 and 6 rounds, "fast" in 3, 4 and 6
/// (the fewest for rotations fixed over the rounds), "alternating" in 3, 3
/// and 4 (the fewest for two sets taking turns).
const ROTATIONS: [(&str, [[[u32; 4]; 2]; 3]); 3] = [
    (
        "slow",
        [
            [[0, 1, 3, 6], [0, 1, 3, 6]],
            [[0, 1, 12, 13], [0, 1, 12, 13]],
            [[0, 1, 8, 21], [0, 1, 8, 21]],
        ],
    ),
    (
        "fast",
        [
            [[0, 1, 3, 4], [0, 1, 3, 4]],
            [[0, 1, 4, 13], [0, 1, 4, 13]],
            [[0, 1, 4, 13], [0, 1, 4, 13]],
        ],
    ),
    (
        "alternating",
        [
            [[0, 1, 2, 3], [0, 1, 3, 5]],
            [[0, 1, 3, 6], [0, 4, 8, 12]],
            [[0, 12, 16, 20], [0, 13, 15, 18]],
        ],
    ),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seeds = args.first().map_or(32, |s| s.parse().expect("SEEDS"));
    let queries = args.get(1).map_or(100_000, |s| s.parse().expect("QUERIES"));
    let filter = args.get(2).cloned().unwrap_or_default();
    let sboxes = [
        ("present", PRESENT_SBOX),
        ("gift", GIFT_SBOX),
        ("rectangle", RECTANGLE_SBOX),
    ];
    for w in [32, 64, 128] {
        for (name, sbox) in sboxes {
            let design = SpnDesign { sbox, ..SPN };
            println!(
                "{name} W={w} rotations {:?}: every bit depends on every key bit after {:?} rounds",
                design.rotations[[32, 64, 128].iter().position(|&x| x == w).unwrap()],
                full_diffusion_round(&design, w)
            );
        }
    }
    for (k, b, w) in [(4u32, 12u32, 64u32), (7, 13, 32), (4, 12, 128)] {
        println!("\n== k={k} b={b} W={w}, {seeds} seeds, {queries} queries per case");
        let options = SuiteOptions {
            seeds,
            queries,
            ..SuiteOptions::full(k, b, w)
        };
        for family in [HashFamily::H3, HashFamily::Crc] {
            if !family.name().contains(&filter) {
                continue;
            }
            let cfg = CoreParams::new(k, b, w, family, 0).unwrap();
            let cases = run_family(&options, &cfg).unwrap();
            report(family.name(), &Summary::of(&cases).unwrap());
        }
        if "ideal".contains(&filter) {
            let make = |seed: u64| Ideal { seed, bank_bits: b };
            let cases = run_suite(&options, &make).unwrap();
            report("ideal", &Summary::of(&cases).unwrap());
        }
        for (name, sbox) in sboxes {
            for (rot_name, rotations) in ROTATIONS {
                for rounds in 3..=7 {
                    let label = format!("spn-{name}-{rot_name}-r{rounds}");
                    if !label.contains(&filter) {
                        continue;
                    }
                    let design = SpnDesign {
                        sbox,
                        rotations,
                        ..SPN
                    }
                    .with_rounds(rounds);
                    let make = |seed: u64| Spn {
                        blocks: SpnBlocks::new(&design, seed, w, SpnBlocks::blocks_for(k, b, w)),
                        bank_bits: b,
                    };
                    let cases = run_suite(&options, &make).unwrap();
                    report(&label, &Summary::of(&cases).unwrap());
                }
            }
        }
    }
}
