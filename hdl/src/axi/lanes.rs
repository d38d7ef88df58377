//! `bloom_lanes_axis`: `bloom_lanes` (hdl/src/lanes/mod.rs) behind AXI4-Stream, L
//! keys per beat (docs/core.md, "Lanes", "AXI4-Stream face").
//!
//! A request beat on `s_axis` is one beat of `bloom_lanes`: `tdata` holds the L
//! keys (slot j at [W(j+1)-1:Wj]), `tuser` says which slots hold an operation
//! (bit j) and their op codes (slot j at [L+2j+1:L+2j]), `tid` their tags (slot
//! j at [8j+7:8j]). A response beat on `m_axis` has one byte per slot: `tdata`
//! byte j bit 0 is slot j's answer, `tkeep` bit j says slot j answers an
//! operation (the byte of an empty slot is a null byte, AMBA AXI4-Stream §2.4),
//! `tuser` is 1 when the beat was refused (contract §8.2), `tid` carries the
//! tags, `tlast` is 1 (every response is a packet of one beat).
//!
//! A request beat with no slot marked (all null) is taken and dropped: it gets
//! no response beat.
//!
//! The AXI4-Lite slave `s_axil_*` is `bloom_lanes_regs` (lanes_regs.rs):
//! `bloom_axis`'s register map (ip/rdl/bloom_axis.rdl) on lane 0's bank access
//! and fill counters. A register clear (COMMAND.clear) becomes a beat of one
//! clear in slot 0, offered in place of s_axis (closed until it is taken), whose
//! response beat is taken and not sent; a bit access (BIT_ADDR) closes s_axis
//! until lane 0 takes it between beats, and a bit write reaches every replica as
//! lane 0's writes do. OPS counts the operations of the beats taken on s_axis
//! (refused ones included), INSERTS the beats with an insert in slot 0, HITS the
//! hits of the read beats' responses sent on m_axis. TIMING holds the face's
//! latency and the beats it holds unanswered; CONFIG and SEED the filter's.
//! `busy` is lane 0's.
//!
//! Timing: `bloom_lanes`'s (latency 8, 10 with the Feistel family's request line; one
//! beat per clock); `s_axis_tready` and
//! `m_axis_tvalid` are `bloom_lanes`'s `req_ready` (LUTs of flip-flops here,
//! the register block's bank access and reset among them; it does not depend on
//! `s_axis_tvalid`) and `resp_valid`, each gated by a register of
//! the register block, and `m_axis` holds a beat, data and all, until it is
//! taken. Reset: `aresetn`, active low, is registered once (in the register
//! block); `s_axis_tready` is low from the first rising edge with `aresetn`
//! low, `m_axis_tvalid` from the second, and both stay low until the reset is
//! over. Memory: none of its own.

use crate::lanes::{lanes_ports, GeneratedLanes, LANES_TOP};
use crate::ports::{instance, module_ports, output_wires, CorePort, Direction};

/// Top module name.
pub const LANES_AXIS_TOP: &str = "bloom_lanes_axis";

/// `bloom_lanes_axis` around `lanes`, and the Verilog of everything it holds.
#[derive(Clone, Debug)]
pub struct GeneratedLanesAxis {
    /// `bloom_core`, `bloom_lanes`, then `bloom_lanes_axis`.
    pub verilog: String,
    /// `bloom_lanes_axis` alone (it instantiates `bloom_lanes`).
    pub top_module: String,
    pub top: String,
}

/// The AXI4-Stream face around `lanes` (already generated), with its register block.
pub fn axis_around(lanes: &GeneratedLanes) -> Result<GeneratedLanesAxis, crate::HdlError> {
    let regs = super::lanes_regs::lanes_regs_verilog(lanes)?;
    let top_module = format!(
        "{}\n{regs}",
        axis_top(&lanes.core.config.params, lanes.lanes)
    );
    Ok(GeneratedLanesAxis {
        verilog: format!("{}\n{}", lanes.verilog, top_module),
        top_module,
        top: LANES_AXIS_TOP.to_string(),
    })
}

/// The ports of `bloom_lanes_axis` with `lanes` lanes for `params` (docs/core.md's table).
pub fn lanes_axis_ports(params: &crate::CoreParams, lanes: usize) -> Vec<CorePort> {
    use Direction::*;
    let l = lanes as u32;
    let w = params.key_bits;
    let port = CorePort::declared;
    let mut ports = vec![
        port("aclk", Input, 1, "1", "Clock of every port."),
        port("aresetn", Input, 1, "1", "Synchronous, active low, registered once: bloom_lanes's reset (docs/core.md, \"Reset\") and the register block's."),
        port("s_axis_tvalid", Input, 1, "1", "A request beat is presented."),
        port("s_axis_tready", Output, 1, "1", "The beat presented is taken (bloom_lanes's req_ready; it does not depend on s_axis_tvalid); low in reset, and while a register clear or a bit access waits for its turn."),
        port("s_axis_tdata", Input, w * l, "key_bits L", "Slot j's key at [W(j+1)-1:Wj]."),
        port("s_axis_tuser", Input, 3 * l, "3 L", "Bit j: slot j holds an operation; slot j's op code at [L+2j+1:L+2j] (0 query; 1 insert, 2 clear, 3 delete in slot 0 alone). A beat with no bit of [L-1:0] set is taken and dropped."),
        port("s_axis_tid", Input, 8 * l, "8 L", "Slot j's tag at [8j+7:8j], returned on m_axis_tid."),
        port("m_axis_tvalid", Output, 1, "1", "A response beat is presented; held, with its data, until taken."),
        port("m_axis_tready", Input, 1, "1", "The downstream takes the response beat presented."),
        port("m_axis_tdata", Output, 8 * l, "8 L", "Byte j: slot j's answer in bit 0 (contract section 5; 0 in a refused beat), bits 7:1 are 0."),
        port("m_axis_tkeep", Output, l, "L", "Bit j: byte j answers an operation (slot j of the request held one); a null byte otherwise."),
        port("m_axis_tuser", Output, 1, "1", "The beat broke the rule of contract section 8.2: nothing of it took effect."),
        port("m_axis_tid", Output, 8 * l, "8 L", "Slot j's tag at [8j+7:8j] (0 for a null byte)."),
        port("m_axis_tlast", Output, 1, "1", "Always 1: every response is a packet of one beat."),
    ];
    // The register block: bloom_axis's AXI4-Lite slave and map.
    ports.extend(crate::ports::ports_of(&super::axi_groups()[3..5], params));
    ports.push(port(
        "busy",
        Output,
        1,
        "1",
        "Lane 0's busy: a clear's sweep, or the recount after a reset (STATUS.busy also counts a register clear not yet taken).",
    ));
    ports
}

/// The register block's ports that `bloom_lanes_axis` has as they are.
fn register_port(name: &str) -> bool {
    name.starts_with("s_axil_") || name == "aclk" || name == "aresetn"
}

fn axis_top(params: &crate::CoreParams, lanes: usize) -> String {
    let l = lanes;
    let counting = params.counter_bits > 1;
    let inner = lanes_ports(params, l);
    let mut v = String::new();
    v += "// bloom_lanes_axis: bloom_lanes behind AXI4-Stream, L keys per beat, and its\n";
    v += "// AXI4-Lite register block (hdl/src/axi/lanes.rs; docs/core.md, \"Lanes\").\n";
    v += &format!(
        "module {LANES_AXIS_TOP} (\n{}\n);\n",
        module_ports(&lanes_axis_ports(params, l))
    );
    v += "wire regs_lanes_reset, regs_hold, regs_clear_beat, regs_resp_drop, regs_resp_query;\n";
    v += "wire regs_rb_req, regs_rb_write, regs_rb_wdata;\nwire [3:0] regs_rb_bank, regs_fill_bank;\nwire [15:0] regs_rb_addr;\n";
    v += if counting {
        "wire [7:0] regs_counter_wdata;\n"
    } else {
        "wire [7:0] unused_regs_counter_wdata;\n"
    };
    v += &output_wires(&inner, "lanes_");
    // The beat bloom_lanes is offered: s_axis's (closed while the register block holds
    // it), or the register clear's, one clear in slot 0.
    v += &format!(
        "\
wire [{lm1}:0] beat_valid = regs_clear_beat ? {l}'d1 : (s_axis_tuser[{lm1}:0] & {{{l}{{s_axis_tvalid & (~regs_hold)}}}});
wire [{om1}:0] beat_op = regs_clear_beat ? {o}'d2 : s_axis_tuser[{tm1}:{l}];
",
        lm1 = l - 1,
        om1 = 2 * l - 1,
        o = 2 * l,
        tm1 = 3 * l - 1,
    );
    v += &instance(LANES_TOP, "lanes", &inner, |p| match p.name.as_str() {
        "clock" => Some("aclk".into()),
        "reset" => Some("regs_lanes_reset".into()),
        "req_valid" => Some("beat_valid".into()),
        "req_op" => Some("beat_op".into()),
        "req_key" => Some("s_axis_tdata".into()),
        "req_tag" => Some("s_axis_tid".into()),
        "resp_ready" => Some("(m_axis_tready | regs_resp_drop)".into()),
        "counter_wdata" => Some("regs_counter_wdata".into()),
        n if p.direction == Direction::Input => Some(format!("regs_{n}")),
        _ => Some(format!("lanes_{}", p.name)),
    })
    .expect("every input of bloom_lanes is connected");
    let hits: Vec<String> = (0..l)
        .rev()
        .map(|j| format!("7'd0, lanes_resp_hit[{j}]"))
        .collect();
    // What the register block counts: the operations of each beat s_axis hands over,
    // an insert in its slot 0, the hits of each read beat's response m_axis hands over.
    v += &format!(
        "\
assign s_axis_tready = lanes_req_ready & (~regs_lanes_reset) & (~regs_hold);
assign m_axis_tvalid = lanes_resp_valid & (~regs_resp_drop);
assign m_axis_tdata = {{{hits}}};
assign m_axis_tkeep = lanes_resp_slot_valid;
assign m_axis_tuser = lanes_resp_refused;
assign m_axis_tid = lanes_resp_tag;
assign m_axis_tlast = 1'b1;
assign busy = lanes_busy;
wire s_take = s_axis_tvalid & s_axis_tready;
wire m_take = m_axis_tvalid & m_axis_tready;
reg [31:0] ops_taken;
reg [31:0] hits_sent;
integer slot;
always @(*) begin
    ops_taken = 32'd0;
    hits_sent = 32'd0;
    for (slot = 0; slot < {l}; slot = slot + 1) begin
        ops_taken = ops_taken + {{31'd0, s_axis_tuser[slot] & s_take}};
        hits_sent = hits_sent + {{31'd0, lanes_resp_hit[slot] & lanes_resp_slot_valid[slot] & m_take & regs_resp_query}};
    end
end
wire insert_taken = s_take & s_axis_tuser[0] & (s_axis_tuser[{op0h}:{l}] == 2'd1);
",
        hits = hits.join(", "),
        op0h = l + 1,
    );
    let counter_ports = if counting {
        ".counter_saturated(lanes_counter_saturated), .counter_rdata(lanes_counter_rdata), .counter_wdata(regs_counter_wdata)"
    } else {
        ".counter_saturated(17'd0), .counter_rdata(8'd0), .counter_wdata(unused_regs_counter_wdata)"
    };
    let axil: Vec<String> = lanes_axis_ports(params, l)
        .iter()
        .filter(|p| register_port(&p.name))
        .map(|p| format!(".{0}({0})", p.name))
        .collect();
    v += &format!(
        "\
{REGS} regs (
    {axil},
    .rb_req(regs_rb_req), .rb_bank(regs_rb_bank), .rb_addr(regs_rb_addr), .rb_write(regs_rb_write),
    .rb_wdata(regs_rb_wdata), .rb_valid(lanes_rb_valid), .rb_data(lanes_rb_data),
    .fill_bank(regs_fill_bank), .fill_count(lanes_fill_count), .lanes_busy(lanes_busy),
    {counter_ports},
    .lanes_reset(regs_lanes_reset), .hold(regs_hold), .clear_beat(regs_clear_beat),
    .beat_valid(|beat_valid), .beat_ready(lanes_req_ready), .beat_op(beat_valid[0] ? beat_op[1:0] : 2'd0),
    .resp_pop(lanes_resp_valid & (m_axis_tready | regs_resp_drop)), .resp_drop(regs_resp_drop),
    .resp_query(regs_resp_query), .ops_taken(ops_taken), .insert_taken(insert_taken), .hits_sent(hits_sent)
);
endmodule // {LANES_AXIS_TOP}
",
        REGS = super::lanes_regs::LANES_REGS_TOP,
        axil = axil.join(",\n    "),
    );
    v
}
