//! The register block's 32-bit event counter (hdl/src/axi/event_counter.rs),
//! its Verilog run in Icarus Verilog: 200 000 events with random gaps (two
//! carries out of the low half), a zero alone and a zero with an event in the
//! same cycle; every cycle the testbench keeps its own count, two cycles
//! behind the events as the counter's contract says, and compares it with
//! `value`.

mod common;

use hdl::axi::event_counter::EventCounter;
use rust_hdl::prelude::*;

const TESTBENCH: &str = r#"
module tb;
    reg clock = 0, count = 0, zero = 1;
    reg count_d = 0, zero_d = 1;
    wire [31:0] value;
    top uut(.clock(clock), .step(count | zero), .zero(zero), .value(value));
    reg [31:0] expected = 0, lfsr = 32'h1234567;
    integer cycle = 0, events = 0, errors = 0, carries = 0;
    always #5 clock = ~clock;
    always @(posedge clock) begin
        cycle <= cycle + 1;
        lfsr <= {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
        // What the counter shows now: the events and zeroes up to two edges ago.
        if (cycle > 4 && value !== expected) begin
            errors = errors + 1;
            if (errors < 10) $display("cycle %0d: value %h, expected %h", cycle, value, expected);
        end
        count_d <= count;
        zero_d <= zero;
        if (zero_d) expected <= 0;
        else if (count_d) begin
            expected <= expected + 1;
            if (expected[15:0] == 16'hffff) carries = carries + 1;
        end
        // A zero alone, and a zero with an event in the same cycle.
        count <= ((cycle > 4) && (lfsr[2:0] != 0) && events < 200000 && cycle != 100000) || cycle == 150000;
        if (count) events = events + 1;
        zero <= (cycle < 3) || (cycle == 100000) || (cycle == 150000);
        if (cycle == 230000) begin
            if (carries < 2) begin $display("FAIL: only %0d carries", carries); $fatal; end
            if (errors != 0) begin $display("FAIL: %0d errors", errors); $fatal; end
            $display("PASS: %0d events, %0d carries", events, carries);
            $finish;
        end
    end
endmodule
"#;

#[test]
fn event_counter_carries_and_zeroes_in_icarus() {
    let mut uut = EventCounter::default();
    uut.connect_all();
    let verilog = generate_verilog(&uut);
    let dir = std::env::temp_dir().join(format!("bloom-event-counter-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("counter.v"), verilog).unwrap();
    std::fs::write(dir.join("tb.v"), TESTBENCH).unwrap();
    let out = common::icarus::run(&dir, &["-g2005"], &["tb.v", "counter.v"]);
    assert!(out.contains("PASS: "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
