//! The designs `bloom fmax` places and routes: the core in a harness that
//! feeds it from internal registers and reduces its outputs to one pin, and a
//! bare block-RAM loop that shows what the part's block RAM allows.

use crate::{FlowError, GeneratedCore};

pub const HARNESS_TOP: &str = "bloom_fmax_harness";
pub const BRAM_LOOP_TOP: &str = "bloom_bram_loop";
pub const LANES_HARNESS_TOP: &str = "bloom_lanes_fmax_harness";

/// How the Fmax harness drives the core's request and response handshakes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handshakes {
    /// A request is offered and a response taken by LFSR bits whatever the core
    /// answers: no register of the harness but the output fold reads the core's
    /// req_ready or resp_valid. The core's own speed; no client that keeps the
    /// protocol drives it so.
    Open,
    /// As the simplest client that keeps the valid/ready protocol drives it: a
    /// request is held until the core takes it (valid, op, key and tag loaded
    /// only while `!req_valid | req_ready`), and a response is captured into
    /// registers when it is taken (`resp_valid & resp_ready`). Any client pays
    /// for these paths: the core's req_ready into the source's registers, its
    /// response into the sink's.
    Closed,
}

/// The core with every input driven from LFSR registers (requests, back-pressure,
/// readback and fill-bank selection all vary) and every output registered and
/// folded by a registered XOR tree into `out`, so no path of the core is
/// optimised away and none of the harness is slower than the core; its
/// handshakes open or closed (`Handshakes`).
///
/// The request, response and readback controls are decoded from the LFSR a cycle
/// ahead and registered, so each core input is a flip-flop, as it is behind the
/// board bridge: decoding them in front of the core added a LUT level to the core's
/// admission paths, and a deeper worst path lets ABC relax every other tree (the
/// hash trees included) to that depth when it recovers area.
pub fn fmax_harness(core: &GeneratedCore, handshakes: Handshakes) -> Result<String, FlowError> {
    let key_bits = core.config.params.key_bits;
    let key = match key_bits {
        32 => "traffic[31:0]".to_string(),
        64 => "traffic".to_string(),
        128 => "{traffic ^ 64'hc3a5c85c97cb3127, traffic}".to_string(),
        w => {
            return Err(FlowError::Invalid(format!(
                "key width {w}: must be 32, 64 or 128"
            )))
        }
    };
    let ports = hdl::ports::core_ports(&core.config.params);
    // Inputs from the registers below, outputs to wires of their own name.
    let instance = hdl::ports::instance(&core.top, "core", &ports, |p| match p.name.as_str() {
        "req_tag" if handshakes == Handshakes::Open => Some("control[23:16]".into()),
        "req_tag" => Some("req_tag".into()),
        "rb_bank" => Some("control[34:31]".into()),
        "rb_addr" => Some("traffic[47:32]".into()),
        "fill_bank" => Some("control[38:35]".into()),
        "counter_wdata" => Some("control[48:41]".into()),
        "clock" | "reset" | "req_valid" | "req_op" | "req_key" | "resp_ready" | "rb_req"
        | "rb_write" | "rb_wdata" | "scrub_req" => Some(p.name.clone()),
        _ if p.direction == hdl::ports::Direction::Output => Some(p.name.clone()),
        _ => None,
    })
    .map_err(|e| FlowError::Invalid(format!("Fmax harness: {e}")))?;
    // Every output, padded to whole groups of four bits for the XOR tree.
    let (padded, mut concat) = padded_outputs(&ports);
    let op = format!(
        "control[10:4] == 7'd0 ? 2'd2 : {{{}, control[2]}}",
        if core.config.params.counter_bits > 1 {
            "control[3] & control[2]"
        } else {
            "1'b0"
        }
    );
    let others = "        resp_ready <= control[7] | control[8];
        rb_req <= control[30:27] == 4'd0;
        rb_write <= control[39];
        rb_wdata <= control[40];
        scrub_req <= control[49] & control[50];
";
    let kb1 = key_bits - 1;
    // What is written before the core's instance (registers that read none of
    // its outputs, and declarations), what after it (the logic that reads its
    // handshakes: the held request, the captured response), and the bits the
    // latter adds to the fold.
    let (before_core, after_core, after_core_bits) = match handshakes {
        Handshakes::Open => (
            format!(
                "    always @(posedge clock) begin
        req_valid <= control[0] | control[1];
        req_op <= {op};
{others}    end

    // The key in a register of its own, kept: fed from the LFSR directly, the core's
    // key register (a copy of it) is merged into the LFSR's shift stages, and ABC then
    // built some hash trees three LUT levels deep instead of two (UP5K 77 MHz -> 83).
    (* keep *) reg [{kb1}:0] req_key = {key_bits}'d0;
    always @(posedge clock) req_key <= {key};
"
            ),
            String::new(),
            0,
        ),
        Handshakes::Closed => {
            // The sink's nine bits join the fold, three zeros making them whole groups of four.
            concat.insert(0, "3'b0, taken_hit, taken_tag".into());
            (
                format!(
                    "    always @(posedge clock) begin
{others}    end
    reg [{kb1}:0] req_key = {key_bits}'d0;
    reg [7:0] req_tag = 8'd0;
"
                ),
                format!(
                    "    // A request is held until the core takes it.
    always @(posedge clock) begin
        if (!req_valid | req_ready) begin
            req_valid <= control[0] | control[1];
            req_op <= {op};
            req_key <= {key};
            req_tag <= control[23:16];
        end
    end

    // A response is captured when it is taken.
    reg taken_hit = 1'b0;
    reg [7:0] taken_tag = 8'd0;
    always @(posedge clock) begin
        if (resp_valid & resp_ready) begin
            taken_hit <= resp_hit;
            taken_tag <= resp_tag;
        end
    end

"
                ),
                12,
            )
        }
    };
    let padded = padded + after_core_bits;
    Ok(format!(
        "// Fmax harness: {top} fed from LFSRs, outputs folded into one pin.
module {HARNESS_TOP} (input clock, output reg out);
    // Reset comes straight from a flip-flop, as a board top's would.
    reg [3:0] reset_count = 4'd0;
    reg reset = 1'b1;
    always @(posedge clock) begin
        if (reset_count != 4'hf) reset_count <= reset_count + 4'd1;
        reset <= reset_count != 4'hf;
    end

    reg [63:0] traffic = 64'h9e3779b97f4a7c15;
    reg [63:0] control = 64'hd1b54a32d192ed03;
    always @(posedge clock) begin
        traffic <= {{traffic[62:0], traffic[63] ^ traffic[62] ^ traffic[60] ^ traffic[59]}};
        control <= {{control[62:0], control[63] ^ control[62] ^ control[60] ^ control[59]}};
    end

    // Traffic mix: valid 3/4, clear 1/128 of requests, resp_ready 3/4, readback 1/16,
    // half of them bit writes; a counting core also gets deletes (op 3, a quarter).
    reg req_valid = 1'b0;
    reg [1:0] req_op = 2'd0;
    reg resp_ready = 1'b0;
    reg rb_req = 1'b0;
    reg rb_write = 1'b0;
    reg rb_wdata = 1'b0;
    reg scrub_req = 1'b0;
{before_core}
{wires}{instance}
{after_core}{fold}
{verilog}",
        top = core.top,
        wires = hdl::ports::output_wires(&ports, ""),
        fold = output_fold(padded, &concat),
        verilog = core.verilog,
    ))
}

/// One block RAM whose read data is its own next read address, written every
/// cycle at a counter address from an LFSR (so it is a RAM, not a ROM). The
/// path RAM output -> RAM address, with the read/write collision logic Yosys
/// adds, is the fastest loop through a block RAM the part can close.
pub fn bram_loop() -> String {
    format!(
        "// Bare block-RAM loop: read data -> next read address.
module {BRAM_LOOP_TOP} (input clock, output reg out);
    reg [15:0] mem [0:255];
    reg [15:0] q = 16'd0;
    reg [15:0] lfsr = 16'hace1;
    reg [7:0] waddr = 8'd0;
    always @(posedge clock) begin
        lfsr <= {{lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]}};
        waddr <= waddr + 8'd1;
        mem[waddr] <= lfsr;
        q <= mem[q[7:0]];
        out <= q[15] ^ q[8];
    end
endmodule
"
    )
}

pub const AXI_HARNESS_TOP: &str = "bloom_axis_fmax_harness";
pub const AXI_BOARD_TOP: &str = "bloom_axis_board";

/// `bloom_axis` with every input (but the clock and reset) driven from its own
/// register, fed from a pool of LFSRs, and every output registered and folded
/// into `out`: the wrapper's counterpart of [`fmax_harness`], generated from
/// the wrapper's port table. The inputs are random bits, not a well-behaved
/// AXI master: the point is that every path of the wrapper and the core is
/// exercised and none is optimised away, with a flip-flop in front of every
/// input, as an integrator's registered interconnect would have. Only the
/// module; `bloom_axis.v` and `bloom_core.v` are compiled beside it.
pub fn axi_harness_module(axi: &hdl::axi::GeneratedAxi) -> String {
    let ports = hdl::axi::axi_ports(&axi.core.config.params);
    register_fed_harness(
        &axi.top,
        AXI_HARNESS_TOP,
        "axi",
        &ports,
        "aclk",
        Reset::ActiveLow("aresetn"),
    )
}

/// The reset input of a design under [`register_fed_harness`].
enum Reset {
    ActiveLow(&'static str),
    ActiveHigh(&'static str),
}

/// Module `module` with `top` (instance `instance`) inside: every input but the
/// clock and the reset from a register fed by LFSRs, the reset from a counter
/// (asserted in the first 15 cycles), every output registered and folded into
/// the pin `out`.
fn register_fed_harness(
    top: &str,
    module: &str,
    instance: &str,
    ports: &[hdl::ports::CorePort],
    clock: &str,
    reset: Reset,
) -> String {
    use hdl::ports::Direction;
    let reset_name = match reset {
        Reset::ActiveLow(n) | Reset::ActiveHigh(n) => n,
    };
    let inputs: Vec<&hdl::ports::CorePort> = ports
        .iter()
        .filter(|p| p.direction == Direction::Input && p.name != clock && p.name != reset_name)
        .collect();
    let input_bits: u32 = inputs.iter().map(|p| p.width).sum();
    let lfsrs = input_bits.div_ceil(64);
    // Each LFSR's own non-zero initial value.
    let pool_seeds: Vec<u64> = (0..lfsrs as u64)
        .map(|i| 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i + 1) | 1)
        .collect();
    let reset_logic = match reset {
        Reset::ActiveLow(n) => format!("    reg {n} = 1'b0;\n    always @(posedge clock) begin\n        if (reset_count != 4'hf) reset_count <= reset_count + 4'd1;\n        {n} <= reset_count == 4'hf;\n    end\n"),
        Reset::ActiveHigh(n) => format!("    reg {n} = 1'b1;\n    always @(posedge clock) begin\n        if (reset_count != 4'hf) reset_count <= reset_count + 4'd1;\n        {n} <= reset_count != 4'hf;\n    end\n"),
    };
    let mut v = format!(
        "// Fmax harness of {top}: every input from a register fed by LFSRs, outputs folded into one pin.
module {module} (input clock, output reg out);
    reg [3:0] reset_count = 4'd0;
{reset_logic}
    reg [{pool_msb}:0] pool = {pool_bits}'h{pool_init};
    always @(posedge clock) begin
",
        pool_msb = lfsrs * 64 - 1,
        pool_bits = lfsrs * 64,
        pool_init = pool_seeds.iter().rev().map(|s| format!("{s:016x}")).collect::<String>(),
    );
    for i in 0..lfsrs {
        let (lo, hi) = (64 * i, 64 * i + 63);
        // A maximal-length LFSR (taps 64, 63, 61, 60) from a non-zero initial
        // value never reaches zero: no check for it on the path (a 64-input
        // compare driving every pool register would be the slowest path).
        v += &format!(
            "        pool[{hi}:{lo}] <= {{pool[{hm}:{lo}], pool[{hi}] ^ pool[{hm}] ^ pool[{h3}] ^ pool[{h4}]}};\n",
            hm = hi - 1,
            h3 = hi - 3,
            h4 = hi - 4,
        );
    }
    v += "    end\n\n";
    let mut at = 0;
    for p in &inputs {
        let decl = format!("reg {}{}", p.range(), p.name);
        v += &format!(
            "    {decl} = {}'d0;\n    always @(posedge clock) {} <= pool[{}:{}];\n",
            p.width,
            p.name,
            at + p.width - 1,
            at
        );
        at += p.width;
    }
    v += &hdl::ports::output_wires(ports, "");
    let instance = hdl::ports::instance(top, instance, ports, |p| {
        if p.name == clock {
            Some("clock".into())
        } else {
            Some(p.name.clone())
        }
    })
    .expect("every input is driven");
    v += &instance;
    let (padded, concat) = padded_outputs(ports);
    v += "\n";
    v += &output_fold(padded, &concat);
    v
}

/// The Fmax harness of `bloom_lanes` (hdl/src/lanes/mod.rs) with its Verilog, in one text.
pub fn lanes_fmax_harness(lanes: &hdl::lanes::GeneratedLanes) -> String {
    let ports = hdl::lanes::lanes_ports(&lanes.core.config.params, lanes.lanes);
    let module = register_fed_harness(
        &lanes.top,
        LANES_HARNESS_TOP,
        "lanes",
        &ports,
        "clock",
        Reset::ActiveHigh("reset"),
    );
    format!("{module}\n{}", lanes.verilog)
}

/// The Fmax harness of the wrapper with the wrapper's and the core's Verilog, in one text.
pub fn axi_fmax_harness(axi: &hdl::axi::GeneratedAxi) -> String {
    format!("{}\n{}", axi_harness_module(axi), axi.full_verilog())
}

pub const LANES_AXIS_HARNESS_TOP: &str = "bloom_lanes_axis_fmax_harness";
pub const LANES_AXIS_BOARD_TOP: &str = "bloom_lanes_axis_board";

/// `bloom_lanes_axis` (hdl/src/axi/lanes.rs) in a harness as [`axi_harness_module`]
/// puts `bloom_axis`: every input from a register fed by LFSRs, every output folded
/// into `out`. Only the module; `bloom_lanes_axis.v` and `bloom_lanes.v` are compiled
/// beside it.
pub fn lanes_axis_harness_module(lanes: &hdl::lanes::GeneratedLanes) -> String {
    let ports = hdl::axi::lanes::lanes_axis_ports(&lanes.core.config.params, lanes.lanes);
    register_fed_harness(
        hdl::axi::lanes::LANES_AXIS_TOP,
        LANES_AXIS_HARNESS_TOP,
        "lanes_axis",
        &ports,
        "aclk",
        Reset::ActiveLow("aresetn"),
    )
}

/// A board top `bloom_axis_board` for `board` around [`axi_harness_module`]
/// ([`board_top`]). For the IP package's synthesis targets.
pub fn axi_board_top(board: &crate::board::Board) -> String {
    board_top(board, AXI_BOARD_TOP, AXI_HARNESS_TOP)
}

/// A board top `bloom_lanes_axis_board` for `board` around
/// [`lanes_axis_harness_module`] ([`board_top`]). For the lanes package's synthesis
/// targets.
pub fn lanes_axis_board_top(board: &crate::board::Board) -> String {
    board_top(board, LANES_AXIS_BOARD_TOP, LANES_AXIS_HARNESS_TOP)
}

/// A board top `module` for `board` around the harness module `harness` (ports
/// `clock` and `out`): the ports of the board's constraint file
/// (flow/src/board.rs), the harness's output on led[0] (lit when 1, whatever the
/// LED's polarity), the other LEDs dark, uart_tx idle; the oscillator clocks the
/// design directly.
fn board_top(board: &crate::board::Board, module: &str, harness: &str) -> String {
    let n = board.leds.len();
    // led[n-1] .. led[1] dark, led[0] the self-test's output.
    let mut bits: Vec<String> = board.leds[1..]
        .iter()
        .rev()
        .map(|p| {
            if p.active_low {
                "1'b1".to_string()
            } else {
                "1'b0".to_string()
            }
        })
        .collect();
    bits.push(if board.leds[0].active_low {
        "~selftest".into()
    } else {
        "selftest".into()
    });
    let reset_port = if board.reset_button.is_some() {
        "    input reset_button,     // not used: the harness resets itself\n"
    } else {
        ""
    };
    let unused = if board.reset_button.is_some() {
        "reset_button ^ uart_rx"
    } else {
        "uart_rx"
    };
    format!(
        "// Board top for the {title}: {harness} on the board's pins.
module {module} (
    input clock,            // {mhz} MHz oscillator
{reset_port}    input uart_rx,          // not used
    output uart_tx,
    output [{nm1}:0] led
);
    wire selftest;
    {harness} harness (.clock(clock), .out(selftest));
    // Inputs the self-test does not use.
    wire unused_pins = {unused};
    assign uart_tx = 1'b1;
    assign led = {{{bits}}};
endmodule
",
        title = board.title,
        mhz = board.clock_mhz,
        nm1 = n - 1,
        bits = bits.join(", "),
    )
}

/// The end of a harness module: `concat` (the outputs, `padded` bits, a
/// multiple of 4) registered, XORed in groups of four into `folded`, and
/// those XORed into the one pin `out`.
fn output_fold(padded: u32, concat: &[String]) -> String {
    format!(
        "    reg [{pm1}:0] outputs = {padded}'d0;
    reg [{fm1}:0] folded = {folds}'d0;
    integer i;
    always @(posedge clock) begin
        outputs <= {{{concat}}};
        for (i = 0; i < {folds}; i = i + 1) folded[i] <= ^outputs[4*i +: 4];
        out <= ^folded;
    end
endmodule
",
        pm1 = padded - 1,
        folds = padded / 4,
        fm1 = padded / 4 - 1,
        concat = concat.join(", "),
    )
}

/// Every output of `ports` for the harness's XOR fold, padded with zeros in
/// front to whole groups of four bits: the padded width and the parts of the
/// concatenation, most significant first.
fn padded_outputs(ports: &[hdl::ports::CorePort]) -> (u32, Vec<String>) {
    let outputs: Vec<&hdl::ports::CorePort> = ports
        .iter()
        .filter(|p| p.direction == hdl::ports::Direction::Output)
        .collect();
    let width: u32 = outputs.iter().map(|p| p.width).sum();
    let padded = width.div_ceil(4) * 4;
    let mut concat: Vec<String> = Vec::new();
    if padded > width {
        concat.push(format!("{}'b0", padded - width));
    }
    concat.extend(outputs.iter().map(|p| p.name.clone()));
    (padded, concat)
}
