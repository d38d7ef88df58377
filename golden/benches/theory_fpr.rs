//! Timing harness (no criterion: prints figures). Run with
//! `cargo bench -p golden --bench theory_fpr`.
//!
//! * the fast exact method at m = 2^32, k = 14 (goal: under 10 µs), at several n;
//! * the fast method at k = 64 and m = 2^40 (worst case of its loops);
//! * the CRJ Fig. 1 table algorithm at m = 4096, kn = 4096.

use std::hint::black_box;
use std::time::Instant;

use golden::theory::{standard_exact, standard_exact_table};

fn time_per_call<F: FnMut() -> f64>(label: &str, min_iters: u32, mut f: F) {
    // Warm up (also builds the method's static tables).
    let mut sink = 0.0;
    for _ in 0..3 {
        sink += f();
    }
    let mut iters = min_iters;
    loop {
        let start = Instant::now();
        for _ in 0..iters {
            sink += black_box(f());
        }
        let el = start.elapsed();
        if el.as_secs_f64() > 0.5 || iters >= 1 << 24 {
            let per = el.as_secs_f64() / iters as f64;
            let (v, unit) = if per < 1e-3 {
                (per * 1e6, "µs")
            } else {
                (per * 1e3, "ms")
            };
            println!("{label:<58} {v:>10.3} {unit}/call  ({iters} calls)");
            break;
        }
        iters *= 4;
    }
    black_box(sink);
}

fn main() {
    let m32 = 1u64 << 32;
    let n_opt = (m32 as f64 * std::f64::consts::LN_2 / 14.0) as u64;
    for (label, n) in [
        ("n = m ln2 / k (optimal fill)", n_opt),
        ("n = m / 1000 (sparse)", m32 / 1000),
        ("n = m (dense)", m32),
    ] {
        time_per_call(&format!("fast exact  m=2^32 k=14 {label}"), 1000, || {
            standard_exact(black_box(m32), black_box(n), 14).unwrap()
        });
    }
    let m40 = 1u64 << 40;
    time_per_call("fast exact  m=2^40 k=64 n = m ln2 / k", 100, || {
        standard_exact(
            black_box(m40),
            (m40 as f64 * std::f64::consts::LN_2 / 64.0) as u64,
            64,
        )
        .unwrap()
    });
    time_per_call(
        "fast exact  m=2^40 k=64 n = m / 8 (dense branch)",
        100,
        || standard_exact(black_box(m40), m40 / 8, 64).unwrap(),
    );
    time_per_call("table (CRJ Fig. 1)  m=4096 k=4 n=1024 (kn=4096)", 3, || {
        standard_exact_table(black_box(4096), 1024, 4).unwrap()
    });
    time_per_call("fast exact  m=4096 k=4 n=1024 (same point)", 1000, || {
        standard_exact(black_box(4096), 1024, 4).unwrap()
    });
    let t = standard_exact_table(4096, 1024, 4).unwrap();
    let f = standard_exact(4096, 1024, 4).unwrap();
    println!(
        "table {t:.17e}  fast {f:.17e}  relative difference {:.2e}",
        (t - f).abs() / t
    );
}
