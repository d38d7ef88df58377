//! Building a filter image from a key file: keys per second (no criterion: prints
//! figures). Run with `cargo bench -p golden --bench image_build`.
//!
//! Every row reads the same in-memory key file of random 64-bit keys (decimal, then
//! 0x-hex) into the filter k = 4, b = 12, H3, seed 0, except where it says otherwise
//! (the default filter, k = 4, b = 12, Feistel, seed 0, has rows of its own):
//! * parse only: the key-file reader handing keys to a no-op;
//! * literal H3: parse, then the contract's definition evaluated literally (one XOR of a
//!   precomputed row per set key bit), the naive model;
//! * build, 1 thread: `golden::build::build_filter` on the calling thread (the byte-sliced
//!   H3 tables of `golden::hash`);
//! * build, N threads: the same with one worker per available core, reported also per core;
//! * build of other configurations and families (CRC, SPN), 1 thread.
//!
//! Each figure is the best of 3 runs, as keys per wall-clock second and keys per CPU-second
//! of the process (all threads): the second is the per-core rate, and stays meaningful
//! when other processes share the cores. Compare rows as ratios.

use std::hint::black_box;
use std::time::Instant;

use golden::build::build_filter;
use golden::hash::h3_row64;
use golden::keys::read_keys;
use golden::{CoreParams, HashFamily, PartitionedFilter};

const KEYS: u64 = 4_000_000;

fn key_file(hex: bool) -> Vec<u8> {
    let mut text = Vec::with_capacity(KEYS as usize * 21);
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..KEYS {
        // xorshift64*: uniform 64-bit keys, not SplitMix64 (which makes the H3 rows).
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let key = x.wrapping_mul(0x2545_F491_4F6C_DD1D);
        if hex {
            text.extend_from_slice(format!("{key:#x}\n").as_bytes());
        } else {
            text.extend_from_slice(format!("{key}\n").as_bytes());
        }
    }
    text
}

/// CPU time of this process, all threads, dead ones included (Linux
/// /proc/self/stat utime + stime, in USER_HZ = 100 ticks per second).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Fields 14 and 15 of the file are 12 and 13 after the name.
    let ticks: u64 = fields
        .get(11..13)
        .map_or(0, |f| f.iter().filter_map(|t| t.parse::<u64>().ok()).sum());
    ticks as f64 / 100.0
}

/// Best of three runs of `f`: keys per wall-clock second, and keys per CPU
/// second (= per core busy; robust when other processes share the cores).
fn best_rate(mut f: impl FnMut() -> u64) -> (f64, f64) {
    let (mut wall, mut cpu) = (0.0f64, 0.0f64);
    for _ in 0..3 {
        let (start, cpu_start) = (Instant::now(), cpu_seconds());
        let keys = black_box(f()) as f64;
        let (elapsed, cpu_used) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu_start);
        wall = wall.max(keys / elapsed);
        if cpu_used > 0.0 {
            cpu = cpu.max(keys / cpu_used);
        }
    }
    (wall, cpu)
}

fn row(label: &str, (wall, cpu): (f64, f64), threads: usize) {
    println!(
        "{label:<50} {:>7.2} M keys/s wall ({threads} thread{}), {:>6.2} M keys per CPU-second",
        wall / 1e6,
        if threads > 1 { "s" } else { "" },
        cpu / 1e6
    );
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("{KEYS} random 64-bit keys per run, best of 3; {cores} cores available");
    for hex in [false, true] {
        let text = key_file(hex);
        let spelling = if hex { "hex" } else { "decimal" };
        println!("-- {spelling} keys, {:.1} MB", text.len() as f64 / 1e6);
        let cfg = CoreParams::new(4, 12, 64, HashFamily::H3, 0).unwrap();
        let default = CoreParams::default();
        row(
            "parse only",
            best_rate(|| {
                read_keys(&text[..], "bench", 64, |k| {
                    black_box(k);
                })
                .unwrap()
            }),
            1,
        );
        if !hex {
            let mask = cfg.bank_size() as u64 - 1;
            let rows: Vec<Vec<u64>> = (0..cfg.k)
                .map(|p| (0..64).map(|i| h3_row64(cfg.seed, p, i) & mask).collect())
                .collect();
            let literal = best_rate(|| {
                let mut bits = vec![0u8; cfg.total_bits() as usize];
                let n = read_keys(&text[..], "bench", 64, |key| {
                    for (p, rows) in rows.iter().enumerate() {
                        let address = (0..64)
                            .filter(|&i| key >> i & 1 == 1)
                            .fold(0u64, |acc, i| acc ^ rows[i]);
                        bits[(p << cfg.bank_bits) | address as usize] = 1;
                    }
                })
                .unwrap();
                black_box(&bits);
                n
            });
            row("literal H3 (row XOR per set key bit), 1 thread", literal, 1);
        }
        // One thread, then one worker per core: H3, and the default filter.
        let threads = if cores > 1 { vec![1, cores] } else { vec![1] };
        for (name, params) in [
            ("h3".to_string(), cfg),
            (format!("default ({})", default.hash), default),
        ] {
            for &n in &threads {
                let one = if n == 1 { ", 1 thread" } else { "" };
                row(
                    &format!("build, {name} k=4 b=12{one}"),
                    best_rate(|| {
                        build_filter(params, &text[..], "bench", n, |_| {})
                            .unwrap()
                            .1
                            .keys
                    }),
                    n,
                );
            }
        }
        if !hex {
            for (label, cfg) in [
                (
                    "build, h3 k=16 b=16, 1 thread",
                    CoreParams::new(16, 16, 64, HashFamily::H3, 0).unwrap(),
                ),
                (
                    "build, crc k=4 b=12, 1 thread",
                    CoreParams::new(4, 12, 64, HashFamily::Crc, 0).unwrap(),
                ),
                (
                    "build, spn k=4 b=12, 1 thread",
                    CoreParams::new(4, 12, 64, HashFamily::Spn, 0).unwrap(),
                ),
                (
                    "build, spn k=16 b=16, 1 thread",
                    CoreParams::new(16, 16, 64, HashFamily::Spn, 0).unwrap(),
                ),
                (
                    "build, feistel k=4 b=12, 1 thread",
                    CoreParams::new(4, 12, 64, HashFamily::Feistel, 0).unwrap(),
                ),
                (
                    "build, feistel k=16 b=16, 1 thread",
                    CoreParams::new(16, 16, 64, HashFamily::Feistel, 0).unwrap(),
                ),
                (
                    "build, spn k=7 b=13 W=128 keys, 1 thread",
                    CoreParams::new(7, 13, 128, HashFamily::Spn, 0).unwrap(),
                ),
            ] {
                row(
                    label,
                    best_rate(|| {
                        build_filter(cfg, &text[..], "bench", 1, |_| {})
                            .unwrap()
                            .1
                            .keys
                    }),
                    1,
                );
            }
            // The same keys inserted one by one without a key file: the filter alone.
            let mut keys = Vec::with_capacity(KEYS as usize);
            read_keys(&text[..], "bench", 64, |k| keys.push(k)).unwrap();
            for (label, cfg) in [
                ("insert only (keys already parsed), h3, 1 thread", cfg),
                (
                    "insert only (keys already parsed), spn, 1 thread",
                    CoreParams::new(4, 12, 64, HashFamily::Spn, 0).unwrap(),
                ),
                (
                    "insert only (keys already parsed), feistel, 1 thread",
                    CoreParams::new(4, 12, 64, HashFamily::Feistel, 0).unwrap(),
                ),
            ] {
                row(
                    label,
                    best_rate(|| {
                        let mut filter = PartitionedFilter::new(cfg);
                        for &k in &keys {
                            let _ = filter.insert(k);
                        }
                        black_box(filter.fill_of(0));
                        keys.len() as u64
                    }),
                    1,
                );
            }
        }
    }
}
