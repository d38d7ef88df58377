//! The designs `bloom fmax` places and routes: the core in a harness that
//! feeds it from internal registers and reduces its outputs to one pin, and a
//! bare block-RAM loop that shows what the part's block RAM allows.

use crate::{FlowError, GeneratedCore};

pub const HARNESS_TOP: &str = "bloom_fmax_harness";
pub const BRAM_LOOP_TOP: &str = "bloom_bram_loop";

/// The core with every input driven from LFSR registers (requests, back-pressure,
/// readback and fill-bank selection all vary) and every output registered and
/// folded by a registered XOR tree into `out`, so no path of the core is
/// optimised away and none of the harness is slower than the core.
///
/// The request, response and readback controls are decoded from the LFSR a cycle
/// ahead and registered, so each core input is a flip-flop, as it is behind the
/// board bridge: decoding them in front of the core added a LUT level to the core's
/// admission paths, and a deeper worst path lets ABC relax every other tree (the
/// hash trees included) to that depth when it recovers area.
pub fn fmax_harness(core: &GeneratedCore) -> Result<String, FlowError> {
    let key_bits = core.config.params.key_bits;
    let key = match key_bits {
        32 => "traffic[31:0]".to_string(),
        64 => "traffic".to_string(),
        128 => "{traffic ^ 64'hc3a5c85c97cb3127, traffic}".to_string(),
        w => return Err(FlowError::Invalid(format!("key width {w}: must be 32, 64 or 128"))),
    };
    let ports = hdl::ports::core_ports(&core.config.params);
    // Inputs from the registers below, outputs to wires of their own name.
    let instance = hdl::ports::instance(&core.top, "core", &ports, |p| match p.name.as_str() {
        "req_tag" => Some("control[23:16]".into()),
        "rb_bank" => Some("control[34:31]".into()),
        "rb_addr" => Some("traffic[47:32]".into()),
        "fill_bank" => Some("control[38:35]".into()),
        "clock" | "reset" | "req_valid" | "req_op" | "req_key" | "resp_ready" | "rb_req" | "rb_write" | "rb_wdata" => {
            Some(p.name.clone())
        }
        _ if p.direction == hdl::ports::Direction::Output => Some(p.name.clone()),
        _ => None,
    })
    .map_err(|e| FlowError::Invalid(format!("Fmax harness: {e}")))?;
    // Every output, padded to whole groups of four bits for the XOR tree.
    let outputs: Vec<&hdl::ports::CorePort> = ports.iter().filter(|p| p.direction == hdl::ports::Direction::Output).collect();
    let width: u32 = outputs.iter().map(|p| p.width).sum();
    let padded = width.div_ceil(4) * 4;
    let mut concat: Vec<String> = Vec::new();
    if padded > width {
        concat.push(format!("{}'b0", padded - width));
    }
    concat.extend(outputs.iter().map(|p| p.name.clone()));
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
    // half of them bit writes.
    reg req_valid = 1'b0;
    reg [1:0] req_op = 2'd0;
    reg resp_ready = 1'b0;
    reg rb_req = 1'b0;
    reg rb_write = 1'b0;
    reg rb_wdata = 1'b0;
    always @(posedge clock) begin
        req_valid <= control[0] | control[1];
        req_op <= control[10:4] == 7'd0 ? 2'd2 : {{1'b0, control[2]}};
        resp_ready <= control[7] | control[8];
        rb_req <= control[30:27] == 4'd0;
        rb_write <= control[39];
        rb_wdata <= control[40];
    end

    // The key in a register of its own, kept: fed from the LFSR directly, the core's
    // key register (a copy of it) is merged into the LFSR's shift stages, and ABC then
    // built some hash trees three LUT levels deep instead of two (UP5K 77 MHz -> 83).
    (* keep *) reg [{kb1}:0] req_key = {key_bits}'d0;
    always @(posedge clock) req_key <= {key};

{wires}{instance}
    reg [{pm1}:0] outputs = {padded}'d0;
    reg [{fm1}:0] folded = {folds}'d0;
    integer i;
    always @(posedge clock) begin
        outputs <= {{{concat}}};
        for (i = 0; i < {folds}; i = i + 1) folded[i] <= ^outputs[4*i +: 4];
        out <= ^folded;
    end
endmodule

{verilog}",
        top = core.top,
        kb1 = key_bits - 1,
        wires = hdl::ports::output_wires(&ports, ""),
        pm1 = padded - 1,
        folds = padded / 4,
        fm1 = padded / 4 - 1,
        concat = concat.join(", "),
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
