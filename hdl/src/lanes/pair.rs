//! `bloom_lanes_query_pair`: two query lanes of `bloom_lanes` (mod.rs) that share their
//! replica banks, one block RAM with two ports per bank (`ReplicaPorts::Two`: ECP5's
//! DP16KD, a true dual-port RAM).
//!
//! A replica's port A is its write port: it writes lane 0's writes (copied, writes.rs)
//! and, in every cycle it does not write, reads for lane a; port B reads for lane b. A
//! lane reads in the stage lane 0 writes its banks (c4; c7 for a counting filter), so the
//! two never need port A in the same cycle: the beat in that stage either writes (a
//! write beat, whose query slots are empty, or a bit write or the clear's sweep, which
//! are no beat) or reads. Reading there, after every write of the beats ahead, a lane
//! needs no forwarding; its answer is one stage later than a lane of its own replicas
//! (query.rs, which reads a stage before the write and forwards it).
//!
//! Per lane: its hash units (lane 0's modules: with the Feistel family, a copy of lane
//! 0's network too), its address registers up to the read stage; per bank, one replica
//! (`bloom_lanes_replica2_{p}`, [`replica2_modules`]) whose port A's address is the
//! write's when it writes, else lane a's (one LUT level after flip-flops); the AND over
//! each lane's bits, registered.
//!
//! Pipeline, for a beat entering lane 0 in cycle 0 (R: the read stage, 4 or 7):
//!   c0 `key_a`, `key_b` -> key registers (or the networks, two cycles ahead of c0)
//!   c2 addresses -> address registers, carried to cR
//!   cR every replica read on both ports (port A: unless it writes)
//!   cR+2 the bits (RAM output registers), ANDed; `hit_a`, `hit_b` registered in cR+3
//! Latency: `key` in c0 -> `hit_*` in c7 (plain) or c10 (counting). Memory: k replicas of
//! 2^b bits, each one block RAM with two ports; same-address read and write: port A
//! never reads while it writes, and port B reads what was written in earlier cycles
//! only (a write and a read of one cycle are of different beats, and the read's beat is
//! behind: never in the same cycle, see above).

use super::lane0::LANE0_TOP;

/// Module name.
pub const QUERY_PAIR: &str = "bloom_lanes_query_pair";

/// The module name of the two-port replica of bank p.
fn replica2_name(p: usize) -> String {
    format!("bloom_lanes_replica2_{p}")
}

/// The text of `bloom_lanes_query_pair` for k banks of 2^`bank_bits` bits and
/// `key_bits`-bit keys; `network`: the Feistel family's network per lane; `read_stage`:
/// the stage lane 0 writes its banks (4, or 7 for a counting filter); `per_bank_data`:
/// the bit written is one per bank (a counting filter's), else one for every bank.
pub fn query_pair_module(
    k: usize,
    bank_bits: usize,
    key_bits: usize,
    network: bool,
    read_stage: usize,
    per_bank_data: bool,
) -> String {
    let b = bank_bits;
    let data_m1 = if per_bank_data { k - 1 } else { 0 };
    let mut v = format!(
        "\
// {QUERY_PAIR}: two query lanes of bloom_lanes sharing two-port replicas
// (hdl/src/lanes/pair.rs).
module {QUERY_PAIR} (
    input  wire clock,
    // Each lane's key in the cycle its beat enters lane 0 (c0; its request line, if any).
    input  wire [{wm1}:0] key_a,
    input  wire [{wm1}:0] key_b,
    // The replica banks' writes of this cycle (lane 0's, copied: writes.rs), bank p at bit p.
    input  wire [{km1}:0] write_enable,
    // Bank p's write address at [{b}p+{bm1}:{b}p].
    input  wire [{kbm1}:0] write_addr,
    input  wire [{data_m1}:0] write_data,
    // c{hit_stage}: every bank's bit was 1, for each lane.
    output wire hit_a,
    output wire hit_b
);
",
        wm1 = key_bits - 1,
        km1 = k - 1,
        bm1 = b - 1,
        kbm1 = k * b - 1,
        hit_stage = read_stage + 3,
    );
    let mut unused = Vec::new();
    for lane in ["a", "b"] {
        v += &if network {
            format!("wire [255:0] stream_{lane};\n{LANE0_TOP}_control_hash network_{lane} (.clock(clock), .key(key_{lane}), .stream(stream_{lane}));\n")
        } else {
            format!(
                "reg [{}:0] key1_{lane};\nalways @(posedge clock) key1_{lane} <= key_{lane};\n",
                key_bits - 1
            )
        };
        for p in 0..k {
            let unit_inputs = if network {
                format!(".key({key_bits}'d0), .stream(stream_{lane})")
            } else {
                format!(".key(key1_{lane}), .stream(256'd0)")
            };
            v += &format!(
                "wire [15:0] addr2_{lane}{p};\n{LANE0_TOP}_parts_{p}_hash hash_{lane}{p} (.clock(clock), {unit_inputs}, .addr(addr2_{lane}{p}));\n"
            );
            v += &format!(
                "reg [{bm1}:0] addr3_{lane}{p};\nalways @(posedge clock) addr3_{lane}{p} <= addr2_{lane}{p}[{bm1}:0];\n",
                bm1 = b - 1
            );
            for s in 4..=read_stage {
                v += &format!(
                    "reg [{bm1}:0] addr{s}_{lane}{p};\nalways @(posedge clock) addr{s}_{lane}{p} <= addr{}_{lane}{p};\n",
                    s - 1,
                    bm1 = b - 1
                );
            }
            if b < 16 {
                unused.push(format!("addr2_{lane}{p}[15:{b}]"));
            }
        }
    }
    for p in 0..k {
        let waddr = format!("write_addr[{}:{}]", b * p + b - 1, b * p);
        let wdata = if per_bank_data {
            format!("write_data[{p}]")
        } else {
            "write_data".to_string()
        };
        v += &format!(
            "\
wire bit_a{p};
wire bit_b{p};
{ram} bank_{p} (
    .clock(clock),
    .addr_a(write_enable[{p}] ? {waddr} : addr{read_stage}_a{p}),
    .write_a(write_enable[{p}]),
    .data_a({wdata}),
    .read_a(bit_a{p}),
    .addr_b(addr{read_stage}_b{p}),
    .read_b(bit_b{p})
);
",
            ram = replica2_name(p),
        );
    }
    for lane in ["a", "b"] {
        let bits: Vec<String> = (0..k).map(|p| format!("bit_{lane}{p}")).collect();
        v += &format!(
            "reg hit_{lane}_r = 1'b0;\nalways @(posedge clock) hit_{lane}_r <= {};\nassign hit_{lane} = hit_{lane}_r;\n",
            bits.join(" & ")
        );
    }
    if !unused.is_empty() {
        // The hash units' address bits at and above b are 0 (hash/unit.rs).
        v += &format!(
            "/* verilator lint_off UNUSED */\nwire unused_addr2 = &{{1'b0, {}, 1'b0}};\n/* verilator lint_on UNUSED */\n",
            unused.join(", ")
        );
    }
    v += &format!("endmodule // {QUERY_PAIR}\n");
    v
}

/// The two-port replicas of `k` banks of 2^`bank_bits` bits (`bloom_lanes_replica2_{p}`),
/// bank p starting with `initial[p]`'s 1 bits (all 0 without). Written as the core's bank
/// RAM (core/ram.rs: `no_rw_check`, block RAM, no initial value on a read register in
/// synthesis, an output register), with port A reading and writing at one address and
/// port B reading, which Yosys maps to one DP16KD on ECP5 (two block RAMs on iCE40,
/// whose RAM has one read port).
pub fn replica2_modules(k: usize, bank_bits: usize, initial: Option<&[Vec<bool>]>) -> String {
    let b = bank_bits;
    let last = (1usize << b) - 1;
    let mut v = String::new();
    for p in 0..k {
        let ones = initial
            .map(|banks| crate::core::ram::ones(&banks[p]))
            .unwrap_or_default();
        v += &format!(
            "\
// {name}: a two-port replica of bank {p} (hdl/src/lanes/pair.rs).
module {name} (
    input  wire clock,
    // Port A: written when write_a, else read.
    input  wire [{bm1}:0] addr_a,
    input  wire write_a,
    input  wire data_a,
    // mem[addr_a] two cycles after it was presented (not written in that cycle).
    output reg  read_a,
    // Port B: read only.
    input  wire [{bm1}:0] addr_b,
    output reg  read_b
);
(* no_rw_check, ram_style = \"block\" *)
reg mem [0:{last}];
reg raw_a;
reg raw_b;
{initial}always @(posedge clock) begin
    if (write_a) begin
        mem[addr_a] <= data_a;
    end
    raw_a <= mem[addr_a];
end
always @(posedge clock) begin
    raw_b <= mem[addr_b];
end
always @(posedge clock) begin
    read_a <= raw_a;
    read_b <= raw_b;
end
endmodule // {name}
",
            name = replica2_name(p),
            bm1 = b - 1,
            initial = crate::core::ram::initial_contents(
                b,
                "1'b0",
                &ones,
                &[
                    ("raw_a", "1'b0"),
                    ("raw_b", "1'b0"),
                    ("read_a", "1'b0"),
                    ("read_b", "1'b0")
                ]
            ),
        );
    }
    v
}
