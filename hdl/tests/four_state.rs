//! The generated core in a four-state simulator (Icarus Verilog): straight after reset and
//! its recount, before any clear, every bank bit reads back as the contract's initial state
//! (0 without an image, the image with one), never X; a query answers 0 or 1, never X; the
//! fill counters hold the initial fills (recounted from the banks), `busy` is never X. Tool: Debian's `iverilog` (installed by
//! scripts/setup.sh; BLOOM_IVERILOG overrides).

mod common;

use std::path::PathBuf;

use golden::{CoreParams, HashFamily, PartitionedFilter};
use hdl::CoreConfig;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bloom-four-state-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A testbench that holds reset for two cycles, reads back every bit of every bank (one
/// readback per cycle), queries `query_key` once, and prints what it saw.
fn testbench(cfg: &CoreConfig, query_key: u128) -> String {
    let w = cfg.key_bits();
    let (k, size) = (cfg.k(), cfg.bank_size());
    // The core's outputs and its instance come from the port table.
    let ports = hdl::ports::core_ports(&cfg.params);
    let wires = hdl::ports::output_wires(&ports, "");
    let dut = hdl::ports::instance("bloom_core", "dut", &ports, |p| Some(p.name.clone())).unwrap();
    format!(
        r#"`timescale 1ns/1ps
module tb;
    reg clock = 1'b0;
    reg reset = 1'b1;
    reg req_valid = 1'b0;
    reg [1:0] req_op = 2'd0;
    reg [{wm1}:0] req_key = {w}'h{query_key:x};
    reg [7:0] req_tag = 8'd5;
    reg resp_ready = 1'b1;
    reg rb_req = 1'b0;
    reg [3:0] rb_bank = 4'd0;
    reg [15:0] rb_addr = 16'd0;
    reg [3:0] fill_bank = 4'd0;
{wires}{dut}    always #5 clock = ~clock;
    always @(posedge clock) begin
        if (rb_valid === 1'b1) $display("RB %b", rb_data);
        if (resp_valid === 1'b1) $display("RESP %b %0d", resp_hit, resp_tag);
    end
    integer bank, addr;
    initial begin
        @(negedge clock);
        @(negedge clock);
        reset = 1'b0;
        // The recount after reset: busy (never X) until every bank is counted.
        while (busy !== 1'b0) begin
            if (busy !== 1'b1) $display("BUSY X");
            @(negedge clock);
        end
        for (bank = 0; bank < {k}; bank = bank + 1) begin
            fill_bank = bank;
            #1 $display("FILL %0d %b", bank, fill_count);
        end
        for (bank = 0; bank < {k}; bank = bank + 1) begin
            for (addr = 0; addr < {size}; addr = addr + 1) begin
                @(negedge clock);
                rb_req = 1'b1;
                rb_bank = bank;
                rb_addr = addr;
            end
        end
        @(negedge clock);
        rb_req = 1'b0;
        repeat (12) @(negedge clock);
        req_valid = 1'b1;
        while (req_ready !== 1'b1) @(negedge clock);
        @(negedge clock);
        req_valid = 1'b0;
        repeat (12) @(negedge clock);
        $display("DONE");
        $finish;
    end
endmodule
"#,
        wm1 = w - 1,
    )
}

/// Runs the core of `cfg` in Icarus and checks every read-back bit against `banks`.
fn check(name: &str, cfg: &CoreConfig, banks: &[Vec<bool>], query_key: u128, query_hit: bool) {
    let dir = scratch(name);
    let core = hdl::generate_core(cfg).unwrap();
    std::fs::write(dir.join("bloom_core.v"), &core.verilog).unwrap();
    std::fs::write(dir.join("tb.v"), testbench(cfg, query_key)).unwrap();
    let out = common::icarus::run(&dir, &["-g2005", "-s", "tb"], &["tb.v", "bloom_core.v"]);
    assert!(out.contains("DONE"), "{out}");
    assert!(!out.contains("BUSY X"), "busy was X during the recount");

    let fills: Vec<&str> = out.lines().filter(|l| l.starts_with("FILL ")).collect();
    assert_eq!(fills.len(), cfg.k());
    for (p, line) in fills.iter().enumerate() {
        let bits = line.split_whitespace().nth(2).unwrap();
        let want = banks[p].iter().filter(|b| **b).count();
        assert_eq!(
            u32::from_str_radix(bits, 2).ok(),
            Some(want as u32),
            "bank {p} fill: {line}"
        );
    }
    let read: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("RB ")).collect();
    let want: Vec<&str> = banks
        .iter()
        .flatten()
        .map(|&b| if b { "1" } else { "0" })
        .collect();
    assert_eq!(read.len(), want.len(), "one readback per bank bit");
    let wrong: Vec<String> = read
        .iter()
        .zip(&want)
        .enumerate()
        .filter(|(_, (got, want))| got != want)
        .map(|(i, (got, want))| {
            format!(
                "bank {} addr {}: {got} (want {want})",
                i / cfg.bank_size(),
                i % cfg.bank_size()
            )
        })
        .take(5)
        .collect();
    assert!(
        wrong.is_empty(),
        "{name}: bits read back differ from the initial state: {wrong:?}"
    );
    let resp: Vec<&str> = out.lines().filter(|l| l.starts_with("RESP ")).collect();
    assert_eq!(
        resp,
        vec![format!("RESP {} 5", query_hit as u8).as_str()],
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn empty_core_h3_k4_b12_w64_reads_zero_not_x_before_any_clear() {
    let cfg = CoreConfig::default();
    let banks = vec![vec![false; cfg.bank_size()]; cfg.k()];
    check("empty", &cfg, &banks, 0x1234_5678_9ABC_DEF0, false);
}

#[test]
fn preloaded_core_crc_k3_b6_w32_reads_its_image_before_any_clear() {
    let cfg = CoreConfig::from(hdl::CoreParams::new(3, 6, 32, HashFamily::Crc, 11).unwrap());
    let mut filter =
        PartitionedFilter::new(CoreParams::new(3, 6, 32, HashFamily::Crc, 11).unwrap());
    for key in 0..25u128 {
        filter.insert(key * 0x0101_0307).unwrap();
    }
    let dir = scratch("image").join("image");
    filter.export_image(&dir).unwrap();
    let banks: Vec<Vec<bool>> = (0..3)
        .map(|p| filter.bank(p).unwrap().iter().map(|&b| b == 1).collect())
        .collect();
    let preloaded = CoreConfig {
        preload: Some(dir.clone()),
        ..cfg
    };
    // One inserted key hits; the image, not a later insert, is what answers.
    check("preloaded", &preloaded, &banks, 3 * 0x0101_0307, true);
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}
