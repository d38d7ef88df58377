//! Throughput of the co-simulation for the default configuration (h3, k=4,
//! b=12, W=64): Verilated core, golden model and cycle checker together, as
//! one stream on two threads (`CoSim::run`) and as one independent shard per
//! CPU (`run_sharded`, what `bloom sim` does by default).
//! Prints figures; asserts nothing about time.
//!
//!     cargo bench -p sim --bench cosim_speed            # 20 M operations
//!     cargo bench -p sim --bench cosim_speed -- 100000000
//!
//! Under `cargo test --benches` (no `--bench` argument) it runs a short smoke.

use std::time::Instant;

use sim::{run_sharded, CoSim, RunOptions, TrafficShape};

/// CPU seconds used by this process so far (user + system), from /proc.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let ops: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(if bench { 20_000_000 } else { 200_000 });
    let spec = hdl::CoreConfig::default();
    let t = Instant::now();
    let mut cosim = CoSim::new(&spec).expect("build the default core");
    let build = cosim.core.library.build_seconds();
    println!(
        "model {}: {} ({:.1} s)",
        spec.label(),
        if build.is_some() { "built" } else { "cached" },
        build.unwrap_or(t.elapsed().as_secs_f64())
    );
    for (name, shape) in [
        ("saturating", TrafficShape::saturating(64)),
        ("stress", TrafficShape::stress_for(64, &cosim.core.timing)),
    ] {
        let n = if name == "stress" { ops / 4 } else { ops };
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        println!(
            "load average before the {name} run: {}",
            load.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        );
        let opts = RunOptions {
            ops: n,
            traffic_seed: 1,
            shape,
            batch: 1 << 15,
            checkpoint_every: 0,
        };
        let cpu0 = process_cpu_seconds();
        let r = cosim.run(&opts, &mut |_, _| {}).expect("run");
        let cpu = process_cpu_seconds().zip(cpu0).map(|(a, b)| a - b);
        assert_eq!(r.mismatches, 0, "{:?}", r.first_mismatches);
        let cpu_of = |c: Option<f64>| {
            c.map(|c| format!("{c:.2} s"))
                .unwrap_or_else(|| "n/a".into())
        };
        println!(
            "{name:>10}: {} ops, {} cycles, {:.4} ops/cycle, {:.2} M ops/s wall ({:.2} s); CPU: simulator thread {}, golden+checker thread {}, process {}; {} M ops/s per CPU-second of the busier thread",
            r.ops,
            r.traffic_cycles,
            r.ops_per_cycle(),
            r.ops_per_second() / 1e6,
            r.seconds,
            cpu_of(r.simulator_cpu_seconds),
            cpu_of(r.worker_cpu_seconds),
            cpu_of(cpu),
            r.ops_per_cpu_second_of_busiest_thread().map(|x| format!("{:.2}", x / 1e6)).unwrap_or_else(|| "n/a".into()),
        );
    }
    let shards = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(64);
    let mut cosims = vec![cosim];
    for _ in 1..shards {
        cosims.push(
            CoSim::from_core(cosims[0].core.new_instance().expect("instance")).expect("cosim"),
        );
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average before the sharded run: {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let opts = RunOptions {
        ops,
        traffic_seed: 1,
        shape: TrafficShape::saturating(64),
        batch: 1 << 15,
        checkpoint_every: 0,
    };
    let (reports, seconds) = run_sharded(&mut cosims, &opts, &mut |_, _| {}).expect("sharded run");
    let total: u64 = reports.iter().map(|r| r.ops).sum();
    let cycles: u64 = reports.iter().map(|r| r.traffic_cycles).sum();
    for r in &reports {
        assert_eq!(r.mismatches, 0, "{:?}", r.first_mismatches);
    }
    println!(
        "{:>10}: {total} ops in {shards} shards, {cycles} cycles, {:.4} ops/cycle, {:.2} M ops/s wall ({seconds:.2} s); CPU per shard thread: {}",
        "sharded",
        total as f64 / cycles.max(1) as f64,
        total as f64 / seconds / 1e6,
        reports.iter().map(|r| r.simulator_cpu_seconds.map(|c| format!("{c:.2} s")).unwrap_or_else(|| "n/a".into())).collect::<Vec<_>>().join(", "),
    );
}
