use sim::*;
use sim::core::{push_request, CorePorts};
fn main() {
    let spec = CoreSpec::default();
    let g = hdl::generate_core(&spec.core_config()).unwrap();
    let extra: Vec<String> = std::env::args().skip(1).collect();
    let t0 = std::time::Instant::now();
    let lib = sim::build(&g.verilog, &g.top, &BuildOptions { extra_args: extra, ..Default::default() }).unwrap();
    eprintln!("build {:.1}s", t0.elapsed().as_secs_f64());
    let ports = CorePorts::of(&lib, 64).unwrap();
    let mut m = lib.instantiate(Some("clock"), InitialState::Zero).unwrap();
    m.set(ports.reset, 1).unwrap(); m.step(2).unwrap(); m.set(ports.reset, 0).unwrap();
    let n = 1usize << 16;
    let mut t = Traffic::new(TrafficShape::saturating(64), 1);
    let mut items = Vec::new();
    for _ in 0..n { let (r, _) = t.next_request(); push_request(&mut items, &r, 64); }
    let gaps = vec![0u32; n];
    let ready = vec![1u8; n + 64];
    let mut out = sim::StreamOutput::default();
    let (i, o) = (ports.request_channel(), ports.response_channel());
    let start = std::time::Instant::now();
    let mut total = 0;
    for _ in 0..30 { m.stream(&i, &o, &items, &gaps, &ready, 0, true, &mut out).unwrap(); total += out.accepted; }
    let s = start.elapsed().as_secs_f64();
    eprintln!("{} ops in {:.3}s: {:.3e} ops/s ({:.0} ns/op)", total, s, total as f64 / s, s * 1e9 / total as f64);
}
