//! `bloom_lanes_writes`: one copy of lane 0's bank write registers, driving the replica
//! banks of a group of query lanes (query.rs).
//!
//! Lane 0's tap (lane0.rs) gives its banks' writes one cycle ahead: what its own c4
//! write registers load. Each copy loads the same, so that it writes its group's replicas
//! in the very cycle lane 0 writes its own banks, from flip-flops beside them: a write
//! reaches L - 1 replicas through one register per group of lanes (register
//! duplication) instead of one register's fan-out over the whole part. The module is kept
//! whole in synthesis (`(* keep_hierarchy *)`), so that the copies are not merged back
//! into one (Yosys merges identical flip-flops).
//!
//! Latency: 1 (the tap in cycle t -> the write in t+1, as lane 0's). No reset: the tap's
//! enables already carry lane 0's reset (a cancelled write is no write in the tap).
//! No memory.

/// Module name.
pub const WRITES: &str = "bloom_lanes_writes";

/// The text of `bloom_lanes_writes` for k banks of 2^`bank_bits` bits; `per_bank`: the
/// data written is a bit per bank (a counting filter's), else one bit for every bank.
pub fn writes_module(k: usize, bank_bits: usize, per_bank: bool) -> String {
    let b = bank_bits;
    let d = if per_bank { k } else { 1 };
    let addrs: Vec<String> = (0..k)
        .rev()
        .map(|p| format!("addr_next[{}:{}]", 16 * p + b - 1, 16 * p))
        .collect();
    let mut unused = Vec::new();
    if k < 16 {
        unused.push(format!("write_next[15:{k}]"));
        unused.push(format!("addr_next[255:{}]", 16 * k));
    }
    if b < 16 {
        unused.extend((0..k).map(|p| format!("addr_next[{}:{}]", 16 * p + 15, 16 * p + b)));
    }
    let unused = if unused.is_empty() {
        String::new()
    } else {
        format!(
            "/* verilator lint_off UNUSED */\nwire unused_tap = &{{1'b0, {}, 1'b0}};\n/* verilator lint_on UNUSED */\n",
            unused.join(", ")
        )
    };
    format!(
        "\
// {WRITES}: a copy of lane 0's bank write registers (hdl/src/lanes/writes.rs).
(* keep_hierarchy *)
module {WRITES} (
    input  wire clock,
    // Lane 0's tap: its banks' writes of the next cycle.
    input  wire [15:0] write_next,
    input  wire [{dm1}:0] write_data_next,
    input  wire [255:0] addr_next,
    // The writes of this cycle: bank p's enable at bit p, its address at [{b}p+{bm1}:{b}p].
    output wire [{km1}:0] write_enable,
    output wire [{kbm1}:0] write_addr,
    output wire [{dm1}:0] write_data
);
reg [{km1}:0] enable_r = {k}'d0;
reg [{kbm1}:0] addr_r = {kb}'d0;
reg [{dm1}:0] data_r = {d}'d0;
always @(posedge clock) begin
    enable_r <= write_next[{km1}:0];
    addr_r <= {{{addrs}}};
    data_r <= write_data_next;
end
assign write_enable = enable_r;
assign write_addr = addr_r;
assign write_data = data_r;
{unused}endmodule // {WRITES}
",
        km1 = k - 1,
        dm1 = d - 1,
        bm1 = b - 1,
        kb = k * b,
        kbm1 = k * b - 1,
        addrs = addrs.join(", "),
    )
}
