//! Cheaper keyed networks than the SPN of contract §3.3, measured on the
//! structured-key suite (docs/theory.md, "Cheaper networks measured"): the
//! Feistel networks of `golden::feistel` beside the unstructured reference
//! and the SPN with 4 and 5 rounds, in the two configurations of the record
//! (k = 4, b = 12, W = 64 and k = 7, b = 13, W = 32).
//!
//! `cargo run --release -p golden --example hash_networks -- [SEEDS [QUERIES [FILTER [THREADS [groups]]]]]`
//! (defaults 32, 100000, every row, every core; FILTER keeps the rows whose
//! label contains it, e.g. `W=64`; `groups` also prints each row's group
//! means).
//!
//! `cargo run --release -p golden --example hash_networks -- taps H [TOP]`
//! lists tap-set pairs for halves of H bits (16, 32) by structural diffusion:
//! the round after which bit 0 of the newest half depends on every key bit.

use golden::feistel::{FeistelBlocks, FeistelDesign, FEISTEL, MAJORITY};
use golden::spn::{SpnBlocks, SPN};
use golden::structured::{run_suite, SuiteOptions, Summary};

mod common;
use common::{Feistel, Ideal, Spn};

/// The verdict of `bloom fpr check` (src/cli/fpr_check.rs): no case
/// significantly above 1.5x, no group's pooled interval wholly outside
/// 0.95 .. 1.05, fills and item estimates within 5 standard deviations.
fn report(label: &str, lut4: &str, s: &Summary) {
    let w = &s.worst;
    let pooled_out = s
        .groups
        .iter()
        .filter(|g| {
            let (low, high) = g.pooled_interval(0.99);
            low > 1.05 || high < 0.95
        })
        .count();
    let keeps =
        s.above_1_5 == 0 && pooled_out == 0 && s.worst_fill_z <= 5.0 && s.worst_items_z <= 5.0;
    let means = s.groups.iter().map(|g| g.mean_ratio);
    println!(
        "{label:<34} LUT4 {lut4:<4} {:<7} worst {w}, above 1.5x {}/{}, above 2x {}, group means {:.3} .. {:.3} (furthest: {} {} {}), groups significantly beyond 5%: {pooled_out}, fill z {:.1}, items z {:.1}",
        if keeps { "keeps" } else { "departs" },
        s.above_1_5,
        s.cases,
        s.above_2,
        means.clone().fold(f64::INFINITY, f64::min),
        means.fold(0.0, f64::max),
        s.worst_group.set.name(),
        s.worst_group.query.name(),
        s.worst_group.load,
        s.worst_fill_z,
        s.worst_items_z,
    );
    if std::env::args().nth(5).as_deref() == Some("groups") {
        for g in &s.groups {
            let (low, high) = g.pooled_interval(0.99);
            println!(
                "    {} {} {}: {:.3} (pooled {low:.3} .. {high:.3})",
                g.set.name(),
                g.query.name(),
                g.load_label(),
                g.mean_ratio
            );
        }
    }
}

/// Tap-set pairs for halves of `h` bits, by structural diffusion. The taps
/// are rotations, so every bit of a half depends on the key bits of bit 0's
/// set rotated: one mask per half of the key is tracked.
fn taps(h: u32, top: usize) {
    let mask = (1u64 << h) - 1;
    let rot = |x: u64, s: u32| {
        if s == 0 {
            x
        } else {
            ((x >> s) | (x << (h - s))) & mask
        }
    };
    let triples: Vec<[u32; 3]> = (0..h)
        .flat_map(|a| (a + 1..h).flat_map(move |b| (b + 1..h).map(move |c| [a, b, c])))
        .collect();
    let mut found = Vec::new();
    for (i, first) in triples.iter().enumerate() {
        for second in &triples[i..] {
            // Key bits (low half, high half) that bit 0 of X_i and X_{i+1} depend on.
            let (mut before, mut x) = ((1u64, 0u64), (0u64, 1u64));
            for round in 0..16 {
                let set = if round % 2 == 0 { first } else { second };
                let mut next = before;
                for &s in set {
                    // Bit 0 of F(X) reads X[s], whose set is bit 0's rotated by s.
                    next.0 |= rot(x.0, s);
                    next.1 |= rot(x.1, s);
                }
                (before, x) = (x, next);
                if x == (mask, mask) {
                    found.push((round + 1, *first, *second));
                    break;
                }
            }
        }
    }
    found.sort_by_key(|&(rounds, _, _)| rounds);
    println!(
        "{} pairs; the fewest rounds: {:?}",
        found.len(),
        found.first().map(|f| f.0)
    );
    for (rounds, first, second) in found.iter().take(top) {
        println!("{rounds} rounds: {first:?} / {second:?}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("taps") {
        let h = args.get(1).map_or(32, |s| s.parse().expect("H"));
        assert!(h == 16 || h == 32, "H is 16 or 32");
        taps(h, args.get(2).map_or(20, |s| s.parse().expect("TOP")));
        return;
    }
    let seeds = args.first().map_or(32, |s| s.parse().expect("SEEDS"));
    let queries = args.get(1).map_or(100_000, |s| s.parse().expect("QUERIES"));
    let filter = args.get(2).cloned().unwrap_or_default();
    let threads = args.get(3).map(|s| s.parse().expect("THREADS"));
    let majority = FeistelDesign {
        name: "feistel-majority",
        g: MAJORITY,
        ..FEISTEL
    };
    let slow_taps = FeistelDesign {
        name: "feistel-chi-slow-taps",
        taps: [[[0, 1, 12], [2, 8, 11]], [[1, 8, 19], [5, 13, 27]]],
        ..FEISTEL
    };
    for (k, b, w) in [(4u32, 12u32, 64u32), (7, 13, 32)] {
        let options = SuiteOptions {
            seeds,
            queries,
            threads: threads.unwrap_or(SuiteOptions::full(k, b, w).threads),
            ..SuiteOptions::full(k, b, w)
        };
        let blocks = (k * b).div_ceil(w);
        let config = format!("k={k} b={b} W={w}");
        let wanted = |label: &str| label.contains(&filter);
        let label = format!("{config} ideal");
        if wanted(&label) {
            let cases = run_suite(&options, &|seed| Ideal { seed, bank_bits: b }).unwrap();
            report(&label, "-", &Summary::of(&cases).unwrap());
        }
        for rounds in [4, 5] {
            let label = format!("{config} spn-r{rounds}");
            if !wanted(&label) {
                continue;
            }
            let design = SPN.with_rounds(rounds);
            let make = |seed| Spn {
                blocks: SpnBlocks::new(&design, seed, w, blocks),
                bank_bits: b,
            };
            let cases = run_suite(&options, &make).unwrap();
            // W = 64: rounds - 1 full rounds and the 48 address bits of the last.
            let lut4 = (w * (rounds - 1) + k * b.min(w)).to_string();
            report(
                &label,
                if w == 64 { &lut4 } else { "" },
                &Summary::of(&cases).unwrap(),
            );
        }
        for (design, rounds) in [
            (&FEISTEL, 6),
            (&FEISTEL, 7),
            (&FEISTEL, 8),
            (&FEISTEL, 9),
            (&majority, 8),
            (&slow_taps, 8),
        ] {
            let label = format!("{config} {}-r{rounds}", design.name);
            // The slow taps differ from the chosen ones at W = 64 only.
            if !wanted(&label) || (design.name == slow_taps.name && w != 64) {
                continue;
            }
            let design = design.clone().with_rounds(rounds);
            let make = |seed| Feistel {
                blocks: FeistelBlocks::new(&design, seed, w, blocks),
                bank_bits: b,
            };
            let cases = run_suite(&options, &make).unwrap();
            // W = 64: every round is 32 LUT4, and the 48 address bits are
            // X_{R+1} (32) and 16 bits of X_R.
            let lut4 = (32 * rounds).to_string();
            report(
                &label,
                if w == 64 { &lut4 } else { "" },
                &Summary::of(&cases).unwrap(),
            );
        }
    }
}
