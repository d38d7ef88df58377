use sim::*;
fn main() {
    let mut spec = CoreSpec::new(3, 6, 32, golden::HashFamily::Crc, 0x1234_5678_9abc_def0);
    spec.switches.disable_forwarding = true;
    let mut core = sim::core::VerilatedCore::build(&spec, true).unwrap();
    core.model.trace_open(std::path::Path::new("/tmp/dbg.vcd")).unwrap();
    let mut cs = CoSim::from_core(core).unwrap();
    let x = 0xdead_beefu128;
    let reqs = vec![Request { op: 1, key: x, tag: 1 }, Request { op: 0, key: x, tag: 2 }, Request { op: 0, key: x, tag: 3 }];
    let c0 = cs.core.cycle();
    cs.run_requests(&reqs, &vec![0; reqs.len()], &mut sim::traffic::ReadyPattern::default()).unwrap();
    cs.drain(&mut sim::traffic::ReadyPattern::default()).unwrap();
    println!("start {c0} mismatches {} {:?} golden addrs {:?}", cs.report().mismatches, cs.report().first_mismatches, cs.golden.addresses(x));
    cs.core.model.trace_close();
}
