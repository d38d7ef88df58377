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

    // Traffic mix: valid 3/4, clear 1/128 of requests, resp_ready 3/4, readback 1/16.
    reg req_valid = 1'b0;
    reg [1:0] req_op = 2'd0;
    reg resp_ready = 1'b0;
    reg rb_req = 1'b0;
    always @(posedge clock) begin
        req_valid <= control[0] | control[1];
        req_op <= control[10:4] == 7'd0 ? 2'd2 : {{1'b0, control[2]}};
        resp_ready <= control[7] | control[8];
        rb_req <= control[30:27] == 4'd0;
    end

    // The key in a register of its own, kept: fed from the LFSR directly, the core's
    // key register (a copy of it) is merged into the LFSR's shift stages, and ABC then
    // built some hash trees three LUT levels deep instead of two (UP5K 77 MHz -> 83).
    (* keep *) reg [{kb1}:0] req_key = {key_bits}'d0;
    always @(posedge clock) req_key <= {key};

    wire req_ready, resp_valid, resp_hit, rb_valid, rb_data, busy;
    wire [7:0] resp_tag;
    wire [16:0] fill_count;
    {top} core (
        .clock(clock),
        .reset(reset),
        .req_valid(req_valid),
        .req_ready(req_ready),
        .req_op(req_op),
        .req_key(req_key),
        .req_tag(control[23:16]),
        .resp_valid(resp_valid),
        .resp_ready(resp_ready),
        .resp_hit(resp_hit),
        .resp_tag(resp_tag),
        .rb_req(rb_req),
        .rb_bank(control[34:31]),
        .rb_addr(traffic[47:32]),
        .rb_valid(rb_valid),
        .rb_data(rb_data),
        .fill_bank(control[38:35]),
        .fill_count(fill_count),
        .busy(busy)
    );

    reg [31:0] outputs = 32'd0;
    reg [7:0] folded = 8'd0;
    integer i;
    always @(posedge clock) begin
        outputs <= {{1'b0, req_ready, resp_valid, resp_hit, resp_tag, rb_valid, rb_data, fill_count, busy}};
        for (i = 0; i < 8; i = i + 1) folded[i] <= ^outputs[4*i +: 4];
        out <= ^folded;
    end
endmodule

{verilog}",
        top = core.top,
        kb1 = key_bits - 1,
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
