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
//!   c6 `hit`, registered: the query's answer, beside lane 0's `tap_hit6`
//! With the Feistel family, c0 .. c6 are lane 0's stages behind its request line
//! (core/request_line.rs): the network takes `key` two cycles before c0, as lane 0's
//! does, and its blocks are the units' input in c2.
//! A counting filter's query lane (`delay` 3, mod.rs `replica_delay`) carries its
//! addresses three stages further and reads its replica in c6, beside the write-back of
//! the beat one ahead (lane 0's c7): `hit` in c9. Its replicas hold a bit per counter,
//! 1 iff the counter is non-zero, written by lane 0's write-back of every counter.
//! Latency: `key` in c0 -> `hit` in c6 (plain) or c9 (counting). Memory: k replica banks (one block RAM per bank
//! of up to 4096 bits on iCE40, 16384 on ECP5); same-address read and write: forward.rs.

use super::forward::FORWARD;
use super::lane0::LANE0_TOP;

/// Module name.
pub const QUERY: &str = "bloom_lanes_query";

/// The text of `bloom_lanes_query` for k banks of 2^`bank_bits` bits and `key_bits`-bit
/// keys; `network`: the family is Feistel (the units select from a network's blocks);
/// `delay`: the stages it reads its replicas after c3 (`replica_delay`, mod.rs: 0 for a
/// plain filter; 3 for a counting one, whose replicas are the modules of
/// [`replica_modules`] and are written a bit per bank).
pub fn query_module(
    k: usize,
    bank_bits: usize,
    key_bits: usize,
    network: bool,
    delay: usize,
) -> String {
    let b = bank_bits;
    let counting = delay > 0;
    let data_m1 = if counting { k - 1 } else { 0 };
    let read_stage = 3 + delay;
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
    // The bit written ({data}).
    input  wire [{data_m1}:0] write_data,
    // c{hit_stage}: every bank's bit was 1.
    output wire hit
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
        data = if counting {
            "bank p's at bit p: its counter written is non-zero"
        } else {
            "to every bank"
        },
        hit_stage = 6 + delay,
    );
    let mut unused = Vec::new();
    for p in 0..k {
        let waddr = format!("write_addr[{}:{}]", b * p + b - 1, b * p);
        let wdata = if counting {
            format!("write_data[{p}]")
        } else {
            "write_data".to_string()
        };
        let ram = if counting {
            replica_name(p)
        } else {
            format!("{LANE0_TOP}_parts_{p}_ram")
        };
        // The address from c3 to the stage the replica is read.
        let mut line = String::new();
        for s in 4..=read_stage {
            line += &format!(
                "reg [{bm1}:0] addr{s}_{p};\nalways @(posedge clock) addr{s}_{p} <= addr{}_{p};\n",
                s - 1,
                bm1 = b - 1
            );
        }
        v += &format!(
            "\
wire [15:0] addr2_{p};
{LANE0_TOP}_parts_{p}_hash hash_{p} (.clock(clock), {unit_inputs}, .addr(addr2_{p}));
reg [{bm1}:0] addr3_{p};
always @(posedge clock) addr3_{p} <= addr2_{p}[{bm1}:0];
{line}wire stored_{p};
{ram} bank_{p} (
    .clock(clock),
    .read_addr({read}),
    .read_data(stored_{p}),
    .write_enable(write_enable[{p}]),
    .write_addr({write}),
    .write_data({wdata})
);
wire bit_{p};
{FORWARD} forward_{p} (
    .clock(clock),
    .read_addr(addr{read_stage}_{p}),
    .write_enable(write_enable[{p}]),
    .write_addr({waddr}),
    .write_data({wdata}),
    .stored(stored_{p}),
    .bit5(bit_{p})
);
",
            bm1 = b - 1,
            unit_inputs = if network {
                format!(".key({key_bits}'d0), .stream(stream)")
            } else {
                ".key(key1), .stream(256'd0)".to_string()
            },
            read = pad(&format!("addr{read_stage}_{p}")),
            write = pad(&waddr),
        );
        if b < 16 {
            unused.push(format!("addr2_{p}[15:{b}]"));
        }
    }
    let bits: Vec<String> = (0..k).map(|p| format!("bit_{p}")).collect();
    v += &format!(
        "reg hit_r = 1'b0;\nalways @(posedge clock) hit_r <= {};\nassign hit = hit_r;\n",
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

/// The module name of a counting filter's replica of bank p.
fn replica_name(p: usize) -> String {
    format!("bloom_lanes_replica_{p}")
}

/// The replica banks of a counting filter's query lanes, one module per bank
/// (`bloom_lanes_replica_{p}`): the plain core's bank RAM (core/ram.rs), 2^b bits, whose
/// bit a is 1 iff counter a of lane 0's bank p is non-zero (all 0, or the preload image's
/// counters), so that a query lane's AND over its bits is lane 0's "present".
pub fn replica_modules(cfg: &crate::CoreConfig) -> Result<String, crate::HdlError> {
    use rust_hdl::prelude::*;
    let b = cfg.bank_bits();
    let initial = replica_bits(cfg)?;
    let mut v = String::new();
    for p in 0..cfg.k() {
        let mut ram =
            crate::core::ram::BankRam::new(b, initial.as_ref().map(|banks| banks[p].clone()));
        ram.connect_all();
        v += "\n";
        v += &crate::verilog::text::rename_modules(&generate_verilog(&ram), &replica_name(p), &[])?;
    }
    Ok(v)
}

/// What every replica of bank p starts with: the preload image's bits, or of a counting
/// filter's image, its counters' non-zero bits (contract §7.8's projection); None
/// without an image (all 0).
pub fn replica_bits(cfg: &crate::CoreConfig) -> Result<Option<Vec<Vec<bool>>>, crate::HdlError> {
    let Some(dir) = &cfg.preload else {
        return Ok(None);
    };
    Ok(Some(if cfg.params.counter_bits > 1 {
        crate::image::read_counter_image(dir, &cfg.params)?
            .iter()
            .map(|bank| bank.iter().map(|c| *c != 0).collect())
            .collect()
    } else {
        crate::image::read_image(dir, cfg)?
    }))
}
