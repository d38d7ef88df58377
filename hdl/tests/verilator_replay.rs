//! Proves the generated Verilog is the hardware that the rust-hdl simulation tested: the
//! cycle-by-cycle trace of a rust-hdl run (checked against the golden model as it ran)
//! is replayed into the Verilated `bloom_core`, whose outputs must match on every cycle.
//! (The co-simulation crate does the long random runs; this is the short, local check.)

mod common;

use std::fmt::Write as _;
use std::process::Command;

use common::*;
use hdl::HashFamily::{Crc, H3};
use hdl::sim::{CycleInputs, CycleOutputs};
use hdl::CoreConfig;

fn harness(key_bits: usize) -> String {
    let set_key = match key_bits {
        32 => "top->req_key = w[0];",
        64 => "top->req_key = ((QData)w[1] << 32) | w[0];",
        _ => "for (int i = 0; i < 4; i++) top->req_key[i] = w[i];",
    };
    format!(
        r#"#include "Vbloom_core.h"
#include "verilated.h"
#include <cstdio>
int main(int argc, char** argv) {{
    Verilated::commandArgs(argc, argv);
    Vbloom_core* top = new Vbloom_core;
    FILE* f = fopen(argv[1], "r");
    if (!f) {{ printf("cannot open trace\n"); return 2; }}
    unsigned reset, valid, op, w[4], tag, resp_ready, rb_req, rb_bank, rb_addr, fill_bank;
    unsigned req_ready, resp_valid, resp_hit, resp_tag, rb_valid, rb_data, fill_count, busy;
    long cycle = 0;
    top->clock = 0;
    top->eval();
    while (fscanf(f, "%x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x",
                  &reset, &valid, &op, &w[0], &w[1], &w[2], &w[3], &tag, &resp_ready, &rb_req,
                  &rb_bank, &rb_addr, &fill_bank, &req_ready, &resp_valid, &resp_hit, &resp_tag,
                  &rb_valid, &rb_data, &fill_count, &busy) == 21) {{
        top->reset = reset; top->req_valid = valid; top->req_op = op; {set_key}
        top->req_tag = tag; top->resp_ready = resp_ready; top->rb_req = rb_req;
        top->rb_bank = rb_bank; top->rb_addr = rb_addr; top->fill_bank = fill_bank;
        top->clock = 0;
        top->eval();
        bool ok = top->req_ready == req_ready && top->resp_valid == resp_valid
            && top->rb_valid == rb_valid && top->fill_count == fill_count && top->busy == busy
            && (!resp_valid || (top->resp_hit == resp_hit && top->resp_tag == resp_tag))
            && (!rb_valid || top->rb_data == rb_data);
        if (!ok) {{
            printf("cycle %ld: verilog req_ready=%d resp_valid=%d resp_hit=%d resp_tag=%d rb_valid=%d rb_data=%d fill=%d busy=%d\n"
                   "          rust-hdl req_ready=%d resp_valid=%d resp_hit=%d resp_tag=%d rb_valid=%d rb_data=%d fill=%d busy=%d\n",
                   cycle, top->req_ready, top->resp_valid, top->resp_hit, top->resp_tag, top->rb_valid,
                   top->rb_data, top->fill_count, top->busy, req_ready, resp_valid, resp_hit, resp_tag,
                   rb_valid, rb_data, fill_count, busy);
            return 1;
        }}
        top->clock = 1;
        top->eval();
        cycle++;
    }}
    printf("%ld cycles match\n", cycle);
    delete top;
    return cycle > 0 ? 0 : 3;
}}
"#
    )
}

fn trace_text(trace: &[(CycleInputs, CycleOutputs)]) -> String {
    let mut t = String::new();
    for (i, o) in trace {
        let k = i.req_key;
        writeln!(
            t,
            "{:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x}",
            i.reset as u8, i.req_valid as u8, i.req_op, k as u32, (k >> 32) as u32, (k >> 64) as u32, (k >> 96) as u32,
            i.req_tag, i.resp_ready as u8, i.rb_req as u8, i.rb_bank, i.rb_addr, i.fill_bank,
            o.req_ready as u8, o.resp_valid as u8, o.resp_hit as u8, o.resp_tag, o.rb_valid as u8, o.rb_data as u8,
            o.fill_count, o.busy as u8
        )
        .unwrap();
    }
    t
}

fn replay(cfg: &CoreConfig, trace: &[(CycleInputs, CycleOutputs)]) {
    let dir = std::env::temp_dir().join(format!("bloom-hdl-replay-{}-{}-k{}", std::process::id(), cfg.params.hash, cfg.k()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bloom_core.v"), hdl::generate_core(cfg).unwrap().verilog).unwrap();
    std::fs::write(dir.join("harness.cpp"), harness(cfg.key_bits())).unwrap();
    std::fs::write(dir.join("trace.txt"), trace_text(trace)).unwrap();
    let build = Command::new("verilator")
        .current_dir(&dir)
        .args(["--cc", "--exe", "--build", "-j", "2", "--top-module", "bloom_core", "-Wno-DECLFILENAME"])
        .args(["-CFLAGS", "-O1", "-Mdir", "obj", "bloom_core.v", "harness.cpp"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run verilator ({e}); install it with scripts/setup.sh"));
    assert!(build.status.success(), "verilator build failed:\n{}", String::from_utf8_lossy(&build.stderr));
    let run = Command::new(dir.join("obj/Vbloom_core")).arg(dir.join("trace.txt")).output().unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "Verilog differs from the rust-hdl model:\n{stdout}");
    eprintln!("{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn h3_k4_b6_w64_mixed_traffic_with_clears_backpressure_readback() {
    let cfg = config(4, 6, 64, H3, 21);
    let mut rng = Rng::new(31);
    let requests = random_requests(&mut rng, 400, 64, 24, 130);
    let bench = Bench { idle_percent: 10, backpressure_percent: 30, readback_percent: 10, seed: 5 };
    let (run, mut sim) = run_recording::<64>(&cfg, &requests, bench, true);
    check_image(&mut sim, &run.golden, &cfg);
    replay(&cfg, sim.trace.as_ref().unwrap());
}

#[test]
fn crc_k10_b6_w128_full_rate_then_backpressure() {
    let cfg = config(10, 6, 128, Crc, 0xdead_beef);
    let mut rng = Rng::new(32);
    let requests = random_requests(&mut rng, 300, 128, 20, 0);
    let (run, mut sim) = run_recording::<128>(&cfg, &requests, Bench::full_rate(), true);
    check_image(&mut sim, &run.golden, &cfg);
    replay(&cfg, sim.trace.as_ref().unwrap());
}

#[test]
fn crc_k2_b7_w32_backpressure() {
    let cfg = config(2, 7, 32, Crc, 1);
    let mut rng = Rng::new(33);
    let requests = random_requests(&mut rng, 300, 32, 30, 100);
    let bench = Bench { idle_percent: 0, backpressure_percent: 60, readback_percent: 5, seed: 6 };
    let (run, mut sim) = run_recording::<32>(&cfg, &requests, bench, true);
    check_image(&mut sim, &run.golden, &cfg);
    replay(&cfg, sim.trace.as_ref().unwrap());
}
