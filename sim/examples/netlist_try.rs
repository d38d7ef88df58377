use sim::netlist::{make, NetlistKind};
use sim::{CoSim, RunOptions, TrafficShape, VerilatedCore};
use std::time::Instant;

fn main() {
    let kind: NetlistKind = std::env::args().nth(1).unwrap_or("ice40".into()).parse().unwrap();
    let ops: u64 = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(50_000);
    let cfg = hdl::CoreConfig::default();
    let g = hdl::generate_core(&cfg).unwrap();
    let t = Instant::now();
    let n = make(&g.verilog, &g.top, kind, &flow::tools::Progress::new("[netlist] ")).unwrap();
    println!("netlist {:?} in {:.1} s (tools {:?}), {} bytes", kind, t.elapsed().as_secs_f64(), n.tool_seconds, n.verilog.len());
    let t = Instant::now();
    let core = VerilatedCore::from_netlist(&g, &n, false, sim::core::PowerUp::default()).unwrap();
    println!("model in {:.1} s ({:?})", t.elapsed().as_secs_f64(), sim::verilator::recorded_build_seconds(&core.library));
    let mut cosim = CoSim::from_core(core).unwrap();
    let mut opts = RunOptions::stress(ops, 64, 1);
    opts.shape = TrafficShape::stress_for(64, &cosim.core.timing);
    opts.checkpoint_every = ops / 2;
    let r = cosim.run(&opts, &mut |_, _| {}).unwrap();
    println!("stress: {} ops, {} mismatches, {:.0} ops/s, {}", r.ops, r.mismatches, r.ops_per_second(), r.resets);
    for m in r.first_mismatches.iter().take(5) { println!("  {m}"); }
    let mut opts = RunOptions::stress(ops * 4, 64, 2);
    opts.shape = TrafficShape::saturating(64);
    let r = cosim.run(&opts, &mut |_, _| {}).unwrap();
    println!("saturating: {} ops, {:.4} ops/cycle, {} mismatches, {:.0} ops/s, busiest thread {:?}", r.ops, r.ops_per_cycle(), r.mismatches, r.ops_per_second(), r.ops_per_cpu_second_of_busiest_thread());
}
