//! `bloom_lanes_forward`: the read-after-write forwarding of one replica bank of a
//! query lane (query.rs), the core's (core/partition.rs) for a bank that only reads.
//!
//! The query lane reads its replica bank at the end of c3, in the same clock edge as the
//! slot one ahead has its write (lane 0's, broadcast to every replica: writes.rs)
//! written; the RAM does not define what that read returns, so when the write is to the
//! same address, its bit is forwarded. Writes two or more slots ahead are in the RAM
//! when the read happens, so one compare suffices.
//!
//! Pipeline (cycle t: the query's address `read_addr` is the RAM's read address, and
//! `write_*` is the replica's write of that same cycle):
//!   t    the addresses compared, in halves of at most 8 bits (two LUT4 levels each);
//!        the write registered as "wrote a 1" / "wrote a 0"
//!   t+1  halves and write flags combined, registered as "forward a 1" / "forward a 0"
//!   t+2  `bit5` = the RAM's bit (`stored`, read at t), or the forwarded one
//! Latency 2, the RAM's. No memory; the same-address read and write of one cycle is
//! exactly what it resolves.

/// Module name.
pub const FORWARD: &str = "bloom_lanes_forward";

/// The text of `bloom_lanes_forward` for banks of 2^`bank_bits` bits; with `enabled`
/// false (tests only, `TestSwitches::disable_forwarding`) it forwards nothing.
pub fn forward_module(bank_bits: usize, enabled: bool) -> String {
    let b = bank_bits;
    let low = b.min(8);
    let (high_compare, same) = if b > 8 {
        (
            format!(
                "    same_high <= read_addr[{}:8] == write_addr[{}:8];\n",
                b - 1,
                b - 1
            ),
            "(same_low & same_high)",
        )
    } else {
        (String::new(), "same_low")
    };
    let high_reg = if b > 8 { "reg same_high = 1'b0;\n" } else { "" };
    let on = if enabled { "" } else { "1'b0 & " };
    format!(
        "\
// {FORWARD}: a query lane's forwarding for one replica bank (hdl/src/lanes/forward.rs).
module {FORWARD} (
    input  wire clock,
    // The query's address in c3 (the replica bank reads it at the end of this cycle).
    input  wire [{bm1}:0] read_addr,
    // The replica bank's write in this cycle (the slot one ahead's, lane 0's).
    input  wire write_enable,
    input  wire [{bm1}:0] write_addr,
    input  wire write_data,
    // The bank's bit read at read_addr, two cycles later (c5).
    input  wire stored,
    // c5: the bit after every slot ahead.
    output wire bit5
);
reg same_low = 1'b0;
{high_reg}reg up = 1'b0;
reg down = 1'b0;
reg set = 1'b0;
reg kill = 1'b0;
always @(posedge clock) begin
    same_low <= read_addr[{lm1}:0] == write_addr[{lm1}:0];
{high_compare}    up <= write_enable & write_data;
    down <= write_enable & (~write_data);
    set <= {on}(up & {same});
    kill <= {on}(down & {same});
end
assign bit5 = stored ? (~kill) : set;
endmodule // {FORWARD}
",
        bm1 = b - 1,
        lm1 = low - 1,
    )
}
