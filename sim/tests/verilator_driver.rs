//! The generic Verilator driver on small hand-written designs.

use sim::{build, Handshake, InitialState, ModelOptions, StreamOutput};

const COUNTER: &str = r#"
// A counter with a wide pass-through and an adder, in classic port style.
module tiny_counter(clock, reset, inc, count, wide_in, wide_out, a, b, sum);
  input wire clock;
  input wire reset;
  input wire [3:0] inc;
  output reg [7:0] count;
  input wire [99:0] wide_in;
  output wire [99:0] wide_out;
  input wire [63:0] a;
  input wire [63:0] b;
  output wire [64:0] sum;
  assign wide_out = wide_in ^ {92'b0, count};
  assign sum = a + b;
  always @(posedge clock) if (reset) count <= 8'd0; else count <= count + {4'b0, inc};
endmodule
"#;

/// A one-deep valid/ready register slice: response = request + 1, one cycle
/// later; not ready while a held response is not taken.
const SLICE: &str = r#"
module tiny_slice(
  input clock, input reset,
  input in_valid, output in_ready, input [31:0] in_data,
  output reg out_valid, input out_ready, output reg [31:0] out_data);
  assign in_ready = !out_valid || out_ready;
  always @(posedge clock) begin
    if (reset) out_valid <= 1'b0;
    else if (in_ready) begin
      out_valid <= in_valid;
      out_data <= in_data + 32'd1;
    end
  end
endmodule
"#;

#[test]
fn counter_adder_and_wide_ports() {
    let lib = build(COUNTER, "tiny_counter", &ModelOptions::default()).expect("verilator build");
    let mut m = lib
        .instantiate(Some("clock"), InitialState::Random(7))
        .unwrap();
    let (reset, inc, count) = (
        m.port("reset").unwrap(),
        m.port("inc").unwrap(),
        m.port("count").unwrap(),
    );
    m.set(reset, 1).unwrap();
    m.step(1).unwrap();
    m.set(reset, 0).unwrap();
    assert_eq!(m.get(count), 0);
    m.set(inc, 3).unwrap();
    m.step(5).unwrap();
    assert_eq!(m.get(count), 15);
    assert_eq!(m.cycle(), 6);
    m.set(inc, 15).unwrap();
    m.step(20).unwrap();
    assert_eq!(m.get(count), (15 + 15 * 20) % 256);

    let (a, b, sum) = (
        m.port("a").unwrap(),
        m.port("b").unwrap(),
        m.port("sum").unwrap(),
    );
    m.set(a, u64::MAX as u128).unwrap();
    m.set(b, 5).unwrap();
    m.eval();
    assert_eq!(m.get(sum), u64::MAX as u128 + 5);

    let (wi, wo) = (m.port("wide_in").unwrap(), m.port("wide_out").unwrap());
    let v: u128 = (1u128 << 99) | 0xdead_beef_0000_1234_5678_9abc;
    m.set(wi, v).unwrap();
    m.eval();
    assert_eq!(m.get(wo), v ^ m.get(count));
    assert_eq!(m.get_words(wo).len(), 4);

    // Values that do not fit, and writes to outputs, are errors, not truncation.
    assert!(m.set(inc, 16).is_err());
    assert!(m.set(wi, 1u128 << 100).is_err());
    assert!(m.set(count, 1).is_err());
    assert!(m.port("nope").is_err());
    // Trace needs a traced build.
    assert!(m
        .trace_open(std::path::Path::new("/tmp/x.vcd"))
        .unwrap_err()
        .to_string()
        .contains("--trace"));
}

#[test]
fn instances_are_independent_and_vectors_sample_before_the_edge() {
    let lib = build(COUNTER, "tiny_counter", &ModelOptions::default()).unwrap();
    let mut m1 = lib.instantiate(Some("clock"), InitialState::Zero).unwrap();
    let mut m2 = lib.instantiate(Some("clock"), InitialState::Zero).unwrap();
    let (reset, inc, count) = (
        m1.port("reset").unwrap(),
        m1.port("inc").unwrap(),
        m1.port("count").unwrap(),
    );
    for m in [&mut m1, &mut m2] {
        m.set(reset, 1).unwrap();
        m.step(1).unwrap();
        m.set(reset, 0).unwrap();
    }
    m1.set(inc, 1).unwrap();
    m2.set(inc, 2).unwrap();
    m1.step(10).unwrap();
    m2.step(10).unwrap();
    assert_eq!((m1.get(count), m2.get(count)), (10, 20));
    // Per cycle: inc = c; the count sampled in cycle c is the sum of inc before c.
    let ins: Vec<u32> = (0..8).map(|c| c % 16).collect();
    let mut outs = vec![0u32; 8];
    m1.run_vectors(&[inc], &ins, &[count], &mut outs).unwrap();
    let mut expect = 10u32;
    for c in 0..8 {
        assert_eq!(outs[c], expect, "cycle {c}");
        expect = (expect + ins[c]) % 256;
    }
    assert_eq!(m1.get(count) as u32, expect);
    assert!(m1.run_vectors(&[inc], &[16], &[count], &mut [0]).is_err());
}

#[test]
fn stream_handles_backpressure_and_gaps() {
    let lib = build(SLICE, "tiny_slice", &ModelOptions::default()).unwrap();
    let mut m = lib
        .instantiate(Some("clock"), InitialState::Random(1))
        .unwrap();
    let p = |n: &str| lib.port(n).unwrap();
    m.set(p("reset"), 1).unwrap();
    m.step(2).unwrap();
    m.set(p("reset"), 0).unwrap();
    let input = Handshake {
        valid: p("in_valid"),
        ready: p("in_ready"),
        data: vec![p("in_data")],
    };
    let output = Handshake {
        valid: p("out_valid"),
        ready: p("out_ready"),
        data: vec![p("out_data")],
    };
    let n = 500usize;
    let items: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let gaps: Vec<u32> = (0..n as u32).map(|i| (i * 7) % 3).collect();
    let ready: Vec<u8> = (0..5000u32).map(|c| ((c * 13) % 5 != 0) as u8).collect();
    let mut out = StreamOutput::default();
    m.stream(
        &input, &output, None, &items, &gaps, &ready, n, true, &mut out,
    )
    .unwrap();
    assert_eq!(out.accepted, n);
    assert_eq!(out.n_responses, n);
    for (i, item) in items.iter().enumerate() {
        let (cycle, data) = out.response(i);
        assert_eq!(data[0], item.wrapping_add(1), "response {i}");
        assert!(cycle > out.accept_cycle[i]);
        let f = out.flags[(cycle - out.start_cycle) as usize];
        assert_eq!(
            f & 0b1100,
            0b1100,
            "a response fires only with valid and ready"
        );
    }
    // Accepts happen exactly where valid and ready were both high.
    let fired: Vec<u64> = out
        .flags
        .iter()
        .enumerate()
        .filter(|(_, f)| **f & 3 == 3)
        .map(|(c, _)| out.start_cycle + c as u64)
        .collect();
    assert_eq!(fired, out.accept_cycle);
    assert_eq!(m.cycle(), out.start_cycle + out.cycles);
}

#[test]
fn traced_build_writes_a_vcd() {
    let lib = build(
        SLICE,
        "tiny_slice",
        &ModelOptions {
            trace: true,
            ..Default::default()
        },
    )
    .unwrap();
    let mut m = lib.instantiate(Some("clock"), InitialState::Zero).unwrap();
    let dir = std::env::temp_dir().join(format!("bloom-sim-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("slice.vcd");
    m.trace_open(&path).unwrap();
    m.set(lib.port("in_data").unwrap(), 41).unwrap();
    m.set(lib.port("in_valid").unwrap(), 1).unwrap();
    m.step(4).unwrap();
    m.trace_close();
    let vcd = std::fs::read_to_string(&path).unwrap();
    assert!(
        vcd.contains("$enddefinitions") && vcd.contains("out_data") && vcd.contains("#35"),
        "{vcd}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn broken_verilog_is_a_build_error_with_the_log() {
    let bad = "module broken(input clock, output reg q);\n always @(posedge clock) q <= undefined_signal;\nendmodule\n";
    let e = build(bad, "broken", &ModelOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("build failed") && e.contains("undefined_signal"),
        "{e}"
    );
}

#[test]
fn stream_rejects_an_item_too_wide_for_its_port() {
    const NARROW: &str = r#"
module tiny_narrow(input clock, input in_valid, output in_ready, input [2:0] in_data,
                   output out_valid, input out_ready, output [2:0] out_data);
  assign in_ready = 1'b1;
  assign out_valid = in_valid;
  assign out_data = in_data;
endmodule
"#;
    let lib = build(NARROW, "tiny_narrow", &ModelOptions::default()).unwrap();
    let mut m = lib.instantiate(Some("clock"), InitialState::Zero).unwrap();
    let p = |n: &str| lib.port(n).unwrap();
    let input = Handshake {
        valid: p("in_valid"),
        ready: p("in_ready"),
        data: vec![p("in_data")],
    };
    let output = Handshake {
        valid: p("out_valid"),
        ready: p("out_ready"),
        data: vec![p("out_data")],
    };
    let mut out = StreamOutput::default();
    let err = m
        .stream(
            &input,
            &output,
            None,
            &[1, 7, 8],
            &[0, 0, 0],
            &[1; 16],
            0,
            false,
            &mut out,
        )
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("item 2: value does not fit the 3-bit port"),
        "{err}"
    );
    assert_eq!(m.cycle(), 0, "nothing was simulated");
    m.stream(
        &input,
        &output,
        None,
        &[1, 7, 0],
        &[0, 0, 0],
        &[1; 16],
        3,
        false,
        &mut out,
    )
    .unwrap();
    assert_eq!(out.accepted, 3);
}
