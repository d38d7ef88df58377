//! The bank's two bodies (hdl/src/core/ram.rs) against each other, in Icarus: the
//! SB_RAM40_4K cells instantiated by hand for iCE40 (`BLOOM_ICE40_BANK` defined,
//! simulated with Yosys's own model of the primitive, `ice40/cells_sim.v`) and the
//! inferred memory that every simulator reads. For b = 6 (part of one cell), 11, 12
//! (one cell), 13, 14 and 16 (2, 4 and 16 cells), each preloaded with a random image:
//! - every address read back after power-up gives the image's bit in both (the INIT
//!   layout of every cell);
//! - then 20,000 cycles of random reads and writes, addresses drawn from a small
//!   window part of the time so that reads meet earlier writes: both give the same
//!   read data two cycles after each address, except for a read of the address
//!   written in the same cycle, which the bank leaves unspecified.
//!
//! Tools: Debian's `iverilog` and Yosys's `cells_sim.v` (`yosys-config --datdir`),
//! both from scripts/setup.sh.

use std::path::PathBuf;
use std::process::Command;

mod common;

use hdl::core::ram::BankRam;
use rust_hdl::prelude::*;

fn bank_verilog(bank_bits: usize, image: &[bool], module: &str) -> String {
    let mut ram = BankRam::new(bank_bits, Some(image.to_vec()));
    ram.connect_all();
    let v = generate_verilog(&ram);
    assert!(
        v.contains("module top("),
        "rust-hdl names the top module `top`"
    );
    v.replace("module top(", &format!("module {module}("))
}

/// Yosys's simulation models of the iCE40 primitives: `yosys-config --datdir`, or
/// `share/yosys` beside the `yosys` program (Debian ships yosys-config apart).
fn ice40_cells_sim() -> PathBuf {
    let hint = "install Yosys with scripts/setup.sh (Debian: apt-get install yosys)";
    let datdir = Command::new("yosys-config")
        .arg("--datdir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .or_else(|| {
            let which = Command::new("which").arg(common::yosys()).output().ok()?;
            let program = PathBuf::from(String::from_utf8_lossy(&which.stdout).trim());
            let program = std::fs::canonicalize(&program).unwrap_or(program);
            Some(program.parent()?.parent()?.join("share/yosys"))
        })
        .unwrap_or_else(|| panic!("cannot find Yosys's data directory; {hint}"));
    let path = datdir.join("ice40/cells_sim.v");
    assert!(path.exists(), "{} is missing; {hint}", path.display());
    path
}

/// A deterministic pseudo-random image of 2^b bits, about one in three set.
fn image(bank_bits: usize, seed: u64) -> Vec<bool> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..1usize << bank_bits)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x.is_multiple_of(3)
        })
        .collect()
}

fn compare(bank_bits: usize) {
    let dir = std::env::temp_dir().join(format!(
        "bloom-ice40-bank-{}-b{bank_bits}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let bits = image(bank_bits, bank_bits as u64);
    // The inferred body first, then the define, then the hand body: a macro holds
    // from its definition on, across files.
    std::fs::write(
        dir.join("inferred.v"),
        bank_verilog(bank_bits, &bits, "bank_inferred"),
    )
    .unwrap();
    std::fs::write(dir.join("define.v"), "`define BLOOM_ICE40_BANK\n").unwrap();
    std::fs::write(
        dir.join("hand.v"),
        bank_verilog(bank_bits, &bits, "bank_hand"),
    )
    .unwrap();
    let lines: String = bits
        .iter()
        .map(|b| if *b { "1\n" } else { "0\n" })
        .collect();
    std::fs::write(dir.join("image.mem"), lines).unwrap();
    let n = 1usize << bank_bits;
    let mask = n - 1;
    let bench = format!(
        "`timescale 1ns/1ps
module bench;
reg clock = 0;
reg [15:0] read_addr = 0, write_addr = 0;
reg write_enable = 0, write_data = 0;
wire inferred_data, hand_data;
bank_inferred inferred(.clock(clock), .read_addr(read_addr), .read_data(inferred_data),
    .write_enable(write_enable), .write_addr(write_addr), .write_data(write_data));
bank_hand hand(.clock(clock), .read_addr(read_addr), .read_data(hand_data),
    .write_enable(write_enable), .write_addr(write_addr), .write_data(write_data));
reg image [0:{nm1}];
integer a, cycle, seed, compared, mismatches, image_errors;
reg same1, same2;
task tick; begin #1 clock = 1; #1 clock = 0; end endtask
initial begin
    $readmemb(\"image.mem\", image);
    compared = 0; mismatches = 0; image_errors = 0; seed = 7;
    // Power-up contents: address a goes in before edge a, its bit is out after a + 1.
    for (a = 0; a < {n} + 2; a = a + 1) begin
        read_addr = a & {mask};
        if (a >= 2) begin
            if (inferred_data !== image[a - 2] || hand_data !== image[a - 2]) begin
                if (image_errors < 5) $display(\"image a=%0d want %b inferred %b hand %b\",
                    a - 2, image[a - 2], inferred_data, hand_data);
                image_errors = image_errors + 1;
            end
        end
        tick;
    end
    same1 = 0; same2 = 0;
    for (cycle = 0; cycle < 20000; cycle = cycle + 1) begin
        if (cycle >= 2 && !same2) begin
            compared = compared + 1;
            if (inferred_data !== hand_data) begin
                if (mismatches < 5) $display(\"cycle %0d inferred %b hand %b\", cycle, inferred_data, hand_data);
                mismatches = mismatches + 1;
            end
        end
        // Half the cycles in a window of 32 addresses, so reads meet recent writes.
        if ($random(seed) & 1) begin
            read_addr = $random(seed) & 31 & {mask};
            write_addr = $random(seed) & 31 & {mask};
        end else begin
            read_addr = $random(seed) & {mask};
            write_addr = $random(seed) & {mask};
        end
        write_enable = $random(seed) & 1;
        write_data = $random(seed) & 1;
        same2 = same1;
        same1 = write_enable && (write_addr == read_addr);
        tick;
    end
    $display(\"image_errors %0d compared %0d mismatches %0d\", image_errors, compared, mismatches);
    $finish;
end
endmodule
",
        nm1 = n - 1,
    );
    std::fs::write(dir.join("bench.v"), bench).unwrap();
    let cells = ice40_cells_sim();
    let out = common::icarus::run(
        &dir,
        &["-g2012", "-DNO_ICE40_DEFAULT_ASSIGNMENTS"],
        &[
            "inferred.v",
            "define.v",
            "hand.v",
            cells.to_str().unwrap(),
            "bench.v",
        ],
    );
    let last = out.lines().last().unwrap_or("");
    let figures: Vec<usize> = last
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(figures.len(), 3, "no summary line from the bench:\n{out}");
    let (image_errors, compared, mismatches) = (figures[0], figures[1], figures[2]);
    assert_eq!(
        image_errors, 0,
        "b = {bank_bits}: power-up contents differ:\n{out}"
    );
    assert_eq!(mismatches, 0, "b = {bank_bits}: read data differ:\n{out}");
    assert!(
        compared > 18_000,
        "b = {bank_bits}: only {compared} reads compared"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hand_and_inferred_banks_agree_b6() {
    compare(6);
}

#[test]
fn hand_and_inferred_banks_agree_b11() {
    compare(11);
}

#[test]
fn hand_and_inferred_banks_agree_b12() {
    compare(12);
}

#[test]
fn hand_and_inferred_banks_agree_b13() {
    compare(13);
}

#[test]
fn hand_and_inferred_banks_agree_b14() {
    compare(14);
}

#[test]
fn hand_and_inferred_banks_agree_b16() {
    compare(16);
}
