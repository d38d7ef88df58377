//! The Verilated default core alone: requests streamed back to back with no
//! golden model and no checking, to separate the simulator's own cost from the
//! harness's. Prints figures; asserts nothing about time.
//!
//!     cargo bench -p sim --bench verilator_raw [-- EXTRA_VERILATOR_ARGS...]

use std::time::Instant;

use sim::core::{push_request, ModelPorts};
use sim::{InitialState, ModelOptions, StreamOutput, Traffic, TrafficShape};

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let extra: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let spec = hdl::CoreConfig::default();
    let generated = hdl::generate_core(&spec).expect("generate the default core");
    let t0 = Instant::now();
    let lib = sim::build(
        &generated.verilog,
        &generated.top,
        &ModelOptions {
            extra_args: extra.clone(),
            ..Default::default()
        },
    )
    .expect("build");
    println!(
        "model {} (extra args {extra:?}): ready in {:.1} s",
        spec.label(),
        t0.elapsed().as_secs_f64()
    );
    let ports = ModelPorts::of(&lib, &spec.params).unwrap();
    let mut m = lib.instantiate(Some("clock"), InitialState::Zero).unwrap();
    m.set(ports.id("reset"), 1).unwrap();
    m.step(2).unwrap();
    m.set(ports.id("reset"), 0).unwrap();
    let n = 1usize << 16;
    let mut traffic = Traffic::new(TrafficShape::saturating(64), 1);
    let mut items = Vec::new();
    for _ in 0..n {
        push_request(&mut items, &traffic.next_request().0, 64);
    }
    let gaps = vec![0u32; n];
    let ready = vec![1u8; n + 64];
    let mut out = StreamOutput::default();
    let (input, output) = (ports.request_channel(), ports.response_channel());
    let rounds = if bench { 100 } else { 2 };
    let cpu0 = sim::cosim::thread_cpu_seconds();
    let start = Instant::now();
    let mut total = 0;
    for _ in 0..rounds {
        m.stream(
            &input, &output, None, &items, &gaps, &ready, 0, true, &mut out,
        )
        .unwrap();
        total += out.accepted;
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = sim::cosim::thread_cpu_seconds()
        .zip(cpu0)
        .map(|(a, b)| a - b);
    println!(
        "{total} requests in {wall:.2} s wall: {:.2} M/s ({:.0} ns each); thread CPU {}",
        total as f64 / wall / 1e6,
        wall * 1e9 / total as f64,
        cpu.map(|c| format!("{c:.2} s = {:.0} ns each", c * 1e9 / total as f64))
            .unwrap_or_else(|| "n/a".into())
    );
}
