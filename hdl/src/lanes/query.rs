//! `bloom_lanes_query`: a query lane, lanes 1 .. L-1 of `bloom_lanes` (mod.rs). It
//! answers the query in its slot of every read beat; it never writes, admits nothing and
//! has no control of its own: lane 0 (lane0.rs) takes every beat, and the query lane's
//! pipeline runs beside lane 0's, slot for slot.
//!
//! It holds, per partition p, lane 0's hash unit (the module
//! `bloom_lanes_core_parts_{p}_hash`, whatever family it computes; with the Feistel
//! family, a copy of lane 0's network, `bloom_lanes_core_control_hash`, whose blocks
//! the units select from), an address register,
//! a replica of lane 0's bank p (the module `bloom_lanes_core_parts_{p}_ram`: its initial
//! contents are lane 0's) and that replica's forwarding (forward.rs); then the AND over
//! the banks, registered. The replicas are written only by lane 0's writes, which
//! writes.rs copies to them in the very cycle lane 0 writes its own banks, so every
//! replica holds lane 0's bits in every cycle.
//!
//! Pipeline, as lane 0's (core/top.rs) for a beat entering lane 0 in cycle 0:
//!   c0 `key` (the slot's key, from the input stage) -> key register
//!   c1 hash units' registers load
//!   c2 addresses -> address registers
//!   c3 every replica bank read; its address compared with the write of c3 (forward.rs)
//!   c5 the bits (stored or forwarded), ANDed
//!   c6 `hit6`, registered: the query's answer, beside lane 0's `tap_hit6`
//! With the Feistel family, c0 .. c6 are lane 0's stages behind its request line
//! (core/request_line.rs): the network takes `key` three cycles before c0, as lane 0's
//! does, and its blocks are the units' input in c2.
//! Latency: `key` in c0 -> `hit6` in c6. Memory: k replica banks (one block RAM per bank
//! of up to 4096 bits on iCE40, 16384 on ECP5); same-address read and write: forward.rs.

use super::forward::FORWARD;
use super::lane0::LANE0_TOP;

/// Module name.
pub const QUERY: &str = "bloom_lanes_query";

/// The text of `bloom_lanes_query` for k banks of 2^`bank_bits` bits and `key_bits`-bit
/// keys; `network`: the family is Feistel (the units select from a network's blocks).
pub fn query_module(k: usize, bank_bits: usize, key_bits: usize, network: bool) -> String {
    let b = bank_bits;
    let pad = |what: &str| {
        if b < 16 {
            format!("{{{}'d0, {what}}}", 16 - b)
        } else {
            what.to_string()
        }
    };
    let mut v = format!(
        "\
// {QUERY}: a query lane of bloom_lanes (hdl/src/lanes/query.rs).
module {QUERY} (
    input  wire clock,
    // The slot's key in the cycle its beat enters lane 0 (c0; its request line, if any).
    input  wire [{wm1}:0] key,
    // The replica banks' writes of this cycle (lane 0's, copied: writes.rs), bank p at bit p.
    input  wire [{km1}:0] write_enable,
    // Bank p's write address at [{b}p+{bm1}:{b}p].
    input  wire [{kbm1}:0] write_addr,
    input  wire write_data,
    // c6: every bank's bit was 1.
    output wire hit6
);
{hashing}",
        hashing = if network {
            format!("wire [255:0] stream;\n{LANE0_TOP}_control_hash network (.clock(clock), .key(key), .stream(stream));\n")
        } else {
            format!(
                "reg [{}:0] key1;\nalways @(posedge clock) key1 <= key;\n",
                key_bits - 1
            )
        },
        wm1 = key_bits - 1,
        km1 = k - 1,
        bm1 = b - 1,
        kbm1 = k * b - 1,
    );
    let mut unused = Vec::new();
    for p in 0..k {
        let waddr = format!("write_addr[{}:{}]", b * p + b - 1, b * p);
        v += &format!(
            "\
wire [15:0] addr2_{p};
{LANE0_TOP}_parts_{p}_hash hash_{p} (.clock(clock), {unit_inputs}, .addr(addr2_{p}));
reg [{bm1}:0] addr3_{p};
always @(posedge clock) addr3_{p} <= addr2_{p}[{bm1}:0];
wire stored_{p};
{LANE0_TOP}_parts_{p}_ram bank_{p} (
    .clock(clock),
    .read_addr({read}),
    .read_data(stored_{p}),
    .write_enable(write_enable[{p}]),
    .write_addr({write}),
    .write_data(write_data)
);
wire bit5_{p};
{FORWARD} forward_{p} (
    .clock(clock),
    .read_addr(addr3_{p}),
    .write_enable(write_enable[{p}]),
    .write_addr({waddr}),
    .write_data(write_data),
    .stored(stored_{p}),
    .bit5(bit5_{p})
);
",
            bm1 = b - 1,
            unit_inputs = if network {
                format!(".key({key_bits}'d0), .stream(stream)")
            } else {
                ".key(key1), .stream(256'd0)".to_string()
            },
            read = pad(&format!("addr3_{p}")),
            write = pad(&waddr),
        );
        if b < 16 {
            unused.push(format!("addr2_{p}[15:{b}]"));
        }
    }
    let bits: Vec<String> = (0..k).map(|p| format!("bit5_{p}")).collect();
    v += &format!(
        "reg hit = 1'b0;\nalways @(posedge clock) hit <= {};\nassign hit6 = hit;\n",
        bits.join(" & ")
    );
    if !unused.is_empty() {
        // The hash units' address bits at and above b are 0 (hash/unit.rs).
        v += &format!(
            "/* verilator lint_off UNUSED */\nwire unused_addr2 = &{{1'b0, {}, 1'b0}};\n/* verilator lint_on UNUSED */\n",
            unused.join(", ")
        );
    }
    v += &format!("endmodule // {QUERY}\n");
    v
}
