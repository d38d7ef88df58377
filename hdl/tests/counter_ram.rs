//! The counting filter's bank, `hdl::counting::counter_ram::CounterRam` (2^b counters of c bits):
//! - its generated Verilog in Icarus: the initial contents, the 2-cycle read latency,
//!   writes of every value 0..=2^c - 1, bits c..7 of the write data ignored and of the
//!   read data 0 (c = 2, 4, 8);
//! - Yosys maps it to the minimal number of block RAMs, ceil(2^b c / block bits), with no
//!   memory left in flip-flops: SB_RAM40_4K (4096 bits) on iCE40, DP16KD (16384 bits) on
//!   ECP5, for b = 12 (the default) with c = 2, 4, 8 and b = 9 with c = 4.
//!
//! Tools: Debian's `iverilog` and `yosys` (scripts/setup.sh installs both).

use std::path::PathBuf;

mod common;

use hdl::counting::counter_ram::CounterRam;
use rust_hdl::prelude::*;

fn verilog(bank_bits: usize, counter_bits: usize, initial: Option<Vec<u8>>) -> String {
    let mut ram = CounterRam::new(bank_bits, counter_bits, initial);
    ram.connect_all();
    generate_verilog(&ram)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bloom-counter-ram-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The initial counter of address a in the functional test's preload.
fn initial(a: usize, c: usize) -> u8 {
    ((a * 7 + 3) % (1 << c)) as u8
}

#[test]
fn counter_ram_c2_c4_c8_in_icarus_reads_what_was_written_two_cycles_later() {
    let b = 6;
    for c in [2usize, 4, 8] {
        let dir = scratch(&format!("icarus-c{c}"));
        let largest = (1u32 << c) - 1;
        let image: Vec<u8> = (0..1usize << b).map(|a| initial(a, c)).collect();
        std::fs::write(dir.join("ram.v"), verilog(b, c, Some(image.clone()))).unwrap();
        // Reads every preloaded counter, then writes value (a * 5 + 1) mod 2^c with all
        // ones above bit c, and reads everything back; prints "addr value" per read.
        let bench = format!(
            "`timescale 1ns/1ps
module bench;
reg clock = 0;
reg [15:0] read_addr = 0, write_addr = 0;
reg write_enable = 0;
reg [7:0] write_data = 0;
wire [7:0] read_data;
top dut(.clock(clock), .read_addr(read_addr), .read_data(read_data), .write_enable(write_enable),
        .write_addr(write_addr), .write_data(write_data));
integer a;
task tick; begin #1 clock = 1; #1 clock = 0; end endtask
initial begin
    // The address goes in before edge t, the data is out after edge t + 1.
    for (a = 0; a < {n} + 1; a = a + 1) begin
        read_addr = a; tick;
        if (a >= 1) $display(\"R %0d %0d\", a - 1, read_data);
    end
    for (a = 0; a < {n}; a = a + 1) begin
        write_enable = 1; write_addr = a; write_data = (((a * 5 + 1) % {m}) | ~8'd{largest}) & 8'hff; tick;
    end
    write_enable = 0;
    for (a = 0; a < {n} + 1; a = a + 1) begin
        read_addr = a; tick;
        if (a >= 1) $display(\"W %0d %0d\", a - 1, read_data);
    end
    $finish;
end
endmodule
",
            n = 1 << b,
            m = largest + 1,
        );
        std::fs::write(dir.join("bench.v"), bench).unwrap();
        let out = common::icarus::run(&dir, &["-g2012"], &["bench.v", "ram.v"]);
        let mut reads = 0;
        for line in out.lines() {
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.len() != 3 || (w[0] != "R" && w[0] != "W") {
                continue;
            }
            let (a, v): (usize, u32) = (w[1].parse().unwrap(), w[2].parse().unwrap());
            let want = if w[0] == "R" {
                image[a] as u32
            } else {
                (a as u32 * 5 + 1) % (largest + 1)
            };
            assert_eq!(v, want, "c = {c}: {line}");
            reads += 1;
        }
        assert_eq!(reads, 2 << b, "c = {c}: {out}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Cell counts after `synth`, from Yosys's `stat` of the top module.
fn synthesise(
    bank_bits: usize,
    counter_bits: usize,
    synth: &str,
) -> std::collections::BTreeMap<String, usize> {
    let dir = scratch(&format!("{synth}-b{bank_bits}-c{counter_bits}"));
    std::fs::write(dir.join("ram.v"), verilog(bank_bits, counter_bits, None)).unwrap();
    let log = common::run_yosys(&dir, &format!("read_verilog ram.v; {synth} -top top; stat"));
    std::fs::remove_dir_all(&dir).unwrap();
    common::stat_cells(&log, "top")
}

#[test]
fn counter_ram_maps_to_the_minimal_block_rams_on_ice40_and_ecp5() {
    let mut table = Vec::new();
    for (b, c) in [(12usize, 2usize), (12, 4), (12, 8), (9, 4)] {
        for (synth, cell, block_bits) in [
            ("synth_ice40", "SB_RAM40_4K", 4096usize),
            ("synth_ecp5", "DP16KD", 16384),
        ] {
            let cells = synthesise(b, c, synth);
            let minimum = (c << b).div_ceil(block_bits);
            let used = cells.get(cell).copied().unwrap_or(0);
            let flops: usize = cells
                .iter()
                .filter(|(name, _)| name.contains("DFF") || name.starts_with("TRELLIS_FF"))
                .map(|(_, n)| n)
                .sum();
            table.push(format!(
                "b = {b} c = {c} {synth}: {used} {cell} (minimum {minimum}), {flops} flip-flops"
            ));
            assert_eq!(used, minimum, "b = {b}, c = {c}, {synth}: {cells:?}");
            // The read register (c bits) and a cascade's select may be flip-flops; no memory bit may (one bank is thousands).
            assert!(
                flops < 64,
                "b = {b}, c = {c}, {synth}: memory in flip-flops? {cells:?}"
            );
        }
    }
    eprintln!("{}", table.join("\n"));
}
