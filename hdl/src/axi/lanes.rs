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
//! no response beat. Readback, bit writes, the fill counters and `busy` are
//! `bloom_lanes`'s own ports, passed through (the AXI4-Lite register block of
//! `bloom_axis` serves one lane).
//!
//! Timing: `bloom_lanes`'s (latency 8, one beat per clock); `s_axis_tready` and
//! `m_axis_tvalid` are `bloom_lanes`'s `req_ready` (a flip-flop's LUT, it does
//! not depend on `s_axis_tvalid`) and `resp_valid`, and `m_axis` holds a beat,
//! data and all, until it is taken. Reset: `aresetn`, active low, is
//! registered once; `s_axis_tready` is low from the first rising edge with
//! `aresetn` low, `m_axis_tvalid` from the second, and both stay low until
//! the reset is over. Memory: none of its own.

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

/// The AXI4-Stream face around `lanes` (already generated).
pub fn axis_around(lanes: &GeneratedLanes) -> GeneratedLanesAxis {
    let top_module = axis_top(&lanes.core.config.params, lanes.lanes);
    GeneratedLanesAxis {
        verilog: format!("{}\n{}", lanes.verilog, top_module),
        top_module,
        top: LANES_AXIS_TOP.to_string(),
    }
}

/// The ports of `bloom_lanes_axis` with `lanes` lanes for `params` (docs/core.md's table).
pub fn lanes_axis_ports(params: &crate::CoreParams, lanes: usize) -> Vec<CorePort> {
    use Direction::*;
    let l = lanes as u32;
    let w = params.key_bits;
    let port = CorePort::declared;
    let mut ports = vec![
        port("aclk", Input, 1, "1", "Clock of every port."),
        port("aresetn", Input, 1, "1", "Synchronous, active low, registered once: bloom_lanes's reset (docs/core.md, \"Reset\")."),
        port("s_axis_tvalid", Input, 1, "1", "A request beat is presented."),
        port("s_axis_tready", Output, 1, "1", "The beat presented is taken (bloom_lanes's req_ready; it does not depend on s_axis_tvalid); low in reset."),
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
    // Readback, fill, busy and a counting filter's counter access: bloom_lanes's ports,
    // as they are.
    ports.extend(
        lanes_ports(params, lanes)
            .into_iter()
            .filter(|p| passed_through(&p.name)),
    );
    ports
}

/// A port of `bloom_lanes` that `bloom_lanes_axis` has as it is.
fn passed_through(name: &str) -> bool {
    ["rb_", "fill_", "counter_"]
        .iter()
        .any(|prefix| name.starts_with(prefix))
        || name == "busy"
}

fn axis_top(params: &crate::CoreParams, lanes: usize) -> String {
    let l = lanes;
    let inner = lanes_ports(params, l);
    let mut v = String::new();
    v += "// bloom_lanes_axis: bloom_lanes behind AXI4-Stream, L keys per beat\n";
    v += "// (hdl/src/axi/lanes.rs; docs/core.md, \"Lanes\").\n";
    v += &format!(
        "module {LANES_AXIS_TOP} (\n{}\n);\n",
        module_ports(&lanes_axis_ports(params, l))
    );
    v += "reg reset = 1'b1;\nalways @(posedge aclk) reset <= ~aresetn;\n";
    v += &output_wires(&inner, "lanes_");
    v += &instance(LANES_TOP, "lanes", &inner, |p| match p.name.as_str() {
        "clock" => Some("aclk".into()),
        "reset" => Some("reset".into()),
        "req_valid" => Some(format!(
            "(s_axis_tuser[{}:0] & {{{l}{{s_axis_tvalid}}}})",
            l - 1
        )),
        "req_op" => Some(format!("s_axis_tuser[{}:{l}]", 3 * l - 1)),
        "req_key" => Some("s_axis_tdata".into()),
        "req_tag" => Some("s_axis_tid".into()),
        "resp_ready" => Some("m_axis_tready".into()),
        n if passed_through(n) && n != "busy" => Some(if p.direction == Direction::Input {
            n.to_string()
        } else {
            format!("lanes_{n}")
        }),
        _ if p.direction == Direction::Output => Some(format!("lanes_{}", p.name)),
        _ => None,
    })
    .expect("every input of bloom_lanes is connected");
    let hits: Vec<String> = (0..l)
        .rev()
        .map(|j| format!("7'd0, lanes_resp_hit[{j}]"))
        .collect();
    v += &format!(
        "\
assign s_axis_tready = lanes_req_ready & (~reset);
assign m_axis_tvalid = lanes_resp_valid;
assign m_axis_tdata = {{{hits}}};
assign m_axis_tkeep = lanes_resp_slot_valid;
assign m_axis_tuser = lanes_resp_refused;
assign m_axis_tid = lanes_resp_tag;
assign m_axis_tlast = 1'b1;
assign rb_valid = lanes_rb_valid;
assign rb_data = lanes_rb_data;
assign fill_count = lanes_fill_count;
assign busy = lanes_busy;
{counter}endmodule // {LANES_AXIS_TOP}
",
        hits = hits.join(", "),
        counter = if params.counter_bits > 1 {
            "assign counter_rdata = lanes_counter_rdata;\nassign counter_saturated = lanes_counter_saturated;\n"
        } else {
            ""
        },
    );
    v
}
