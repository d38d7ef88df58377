use sim::*;
fn main() {
    let spec = CoreSpec::default();
    let t = std::time::Instant::now();
    let mut cs = CoSim::new(&spec).unwrap();
    eprintln!("build {:?} {:?}", t.elapsed(), cs.core.library.build_seconds());
    let mut opts = RunOptions::stress(20000, 64, 1);
    opts.checkpoint_every = 10000;
    let r = cs.run(&opts, &mut |_, _| {}).unwrap();
    eprintln!("{:?}", r);
    let mut opts = RunOptions::stress(4_000_000, 64, 2);
    opts.shape = TrafficShape::saturating(64);
    opts.batch = 1 << 16;
    let r = cs.run(&opts, &mut |_, _| {}).unwrap();
    eprintln!("ops {} cycles {} opc {} ops/s {:.3e} worker {:.3}s sim {:.3}s total {:.3}s mism {}", r.ops, r.traffic_cycles, r.ops_per_cycle(), r.ops_per_second(), r.worker_seconds, r.simulator_seconds, r.seconds, r.mismatches);
    for m in &r.first_mismatches { eprintln!("{m}"); }
}
