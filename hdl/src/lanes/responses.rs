//! `bloom_lanes_responses`: the response path of `bloom_lanes` (mod.rs), a FIFO of
//! response beats that mirrors lane 0's response FIFO (core/response_fifo.rs) for
//! every lane at once.
//!
//! An entry is written in two parts, each at its own one-hot pointer: the beat's
//! descriptor (which slots hold an operation, whether the beat was refused, every slot's
//! tag) when the beat enters lane 0, and every lane's hit (lane 0's `tap_hit6`, the query
//! lanes' `hit6`) when lane 0's c6 holds its response (`push`, lane 0's `tap_valid6`).
//! A response beat is presented once its hits are in, and taken when `ready` is high.
//!
//! Credits: `room` (a flip-flop) is low while N beats have entered and not been taken,
//! and lane 0 takes no beat then; so an entry is never written twice before it is read,
//! and backpressure loses and reorders nothing. Lane 0's own response FIFO is always
//! emptied (the lanes hold its answers here), so its credits never stop a beat.
//!
//! Latency: 1 (a push in cycle t -> `valid` in t+1 when empty). Reset empties it. Every
//! enable is a flip-flop's AND (the descriptor part loads its inputs in every cycle it has
//! room, at its pointer, which moves when a beat enters); pointers are one-hot and the
//! counts thermometers, each next value two LUT levels, as in core/response_fifo.rs.
//! Memory: N entries of registers (no array); the head is an AND-OR of the entries.
//!
//! The head is the ports' final value, two LUT4 levels from flip-flops: it is chosen by
//! `head_select`, the read pointer while a beat is presented and 0 otherwise (registered
//! from both next values), so an empty FIFO presents 0 without a gate after the AND-OR.
//! An entry's tags come already 0 in the slots that hold no operation (the input stage
//! keeps them so, mod.rs), and its hits are written already 0 where the slot is empty or
//! the beat refused (from the entry's own descriptor bits). Masking after the AND-OR
//! instead made the response ports three levels deep, the slowest path of HX8K lanes.

/// Module name.
pub const RESPONSES: &str = "bloom_lanes_responses";

/// Where a beat's descriptor keeps its fields, {refused, slot valid[L-1:0],
/// tags[8L-1:0]}: the bits the input stage hands over as the beat enters lane 0
/// (mod.rs) and that the head presents on the response ports. Ranges are (high, low).
#[derive(Clone, Copy, Debug)]
pub struct Descriptor {
    lanes: usize,
}

impl Descriptor {
    pub fn new(lanes: usize) -> Self {
        Descriptor { lanes }
    }

    /// 1 + L + 8 L bits.
    pub fn width(self) -> usize {
        1 + self.lanes + 8 * self.lanes
    }

    /// The refused bit, the top one.
    pub fn refused(self) -> usize {
        self.width() - 1
    }

    /// Slot j's valid bit is bit `low + j`.
    pub fn slots(self) -> (usize, usize) {
        (9 * self.lanes - 1, 8 * self.lanes)
    }

    /// Slot j's tag is bits [low + 8j + 7 : low + 8j].
    pub fn tags(self) -> (usize, usize) {
        (8 * self.lanes - 1, 0)
    }
}

/// The text of `bloom_lanes_responses` for `lanes` lanes and `beats` entries: a
/// descriptor of 1 + L + 8 L bits ({refused, slot valid bits, tags}) and L hits per
/// entry. `beats` is lane 0's response FIFO depth (core/response_fifo.rs): lane 0's
/// credits are what stop the beats, so this FIFO must hold as many (a beat's response
/// is pushed `latency - 1` cycles after it entered lane 0 and can be taken the cycle
/// after, so a consumer that is always ready never stops the beats).
pub fn responses_module(lanes: usize, beats: usize) -> String {
    let n = beats;
    let l = lanes;
    let descriptor = Descriptor::new(l);
    let d = descriptor.width();
    let (shi, slo) = descriptor.slots();
    let refused = descriptor.refused();
    let mut v = format!(
        "\
// {RESPONSES}: the response beats of bloom_lanes (hdl/src/lanes/responses.rs).
module {RESPONSES} (
    input  wire clock,
    input  wire reset,
    // A beat enters lane 0 in this cycle, with its descriptor {{refused, slot valid[L-1:0], tags[8L-1:0]}}.
    input  wire enter,
    input  wire [{dm1}:0] beat,
    // Fewer than {n} beats entered and not taken (a flip-flop).
    output wire room,
    // Lane 0's c6 holds a response: every lane's hit of the oldest beat not yet pushed.
    input  wire push,
    input  wire [{lm1}:0] hits,
    // The consumer takes the response beat presented.
    input  wire ready,
    // A response beat is presented (a flip-flop), its descriptor and hits.
    output wire valid,
    output wire [{dm1}:0] head_beat,
    output wire [{lm1}:0] head_hits
);
",
        dm1 = d - 1,
        lm1 = l - 1,
    );
    for i in 0..n {
        v += &format!("reg [{}:0] beat_{i};\nreg [{}:0] hits_{i};\n", d - 1, l - 1);
    }
    let last = n - 1;
    let lm1 = last - 1;
    v += &format!(
        "\
reg [{last}:0] beat_select = {n}'d1;
reg [{last}:0] hit_select = {n}'d1;
reg [{last}:0] read_select = {n}'d1;
// The read pointer while a beat is presented, else 0: the head's AND-OR gives 0 then.
reg [{last}:0] head_select = {n}'d0;
// Thermometers: bit i = more than i beats entered and not taken / pushed and not taken.
reg [{last}:0] allocated = {n}'d0;
reg [{last}:0] occupancy = {n}'d0;
assign room = ~allocated[{last}];
assign valid = occupancy[0];
wire given = occupancy[0] & ready;
wire [{last}:0] given_mask = {{{n}{{given}}}};
wire [{last}:0] allocated_if_enter = (allocated & given_mask) | ({{allocated[{lm1}:0], 1'b1}} & ~given_mask);
wire [{last}:0] allocated_if_not = ({{1'b0, allocated[{last}:1]}} & given_mask) | (allocated & ~given_mask);
wire [{last}:0] occupancy_if_push = (occupancy & given_mask) | ({{occupancy[{lm1}:0], 1'b1}} & ~given_mask);
wire [{last}:0] occupancy_if_not = ({{1'b0, occupancy[{last}:1]}} & given_mask) | (occupancy & ~given_mask);
wire [{last}:0] read_select_next = ({{read_select[{lm1}:0], read_select[{last}]}} & given_mask)
    | (read_select & ~given_mask);
wire [{last}:0] occupancy_next = (occupancy_if_push & {{{n}{{push}}}}) | (occupancy_if_not & {{{n}{{~push}}}});
always @(posedge clock) begin
"
    );
    for i in 0..n {
        v += &format!(
            "    if (beat_select[{i}] & room) beat_{i} <= beat;\n    if (hit_select[{i}] & push) hits_{i} <= hits & beat_{i}[{shi}:{slo}] & {{{l}{{~beat_{i}[{refused}]}}}};\n",
        );
    }
    v += &format!(
        "    if (reset) begin
        beat_select <= {n}'d1;
        hit_select <= {n}'d1;
        read_select <= {n}'d1;
        head_select <= {n}'d0;
        allocated <= {n}'d0;
        occupancy <= {n}'d0;
    end else begin
        beat_select <= ({{beat_select[{lm1}:0], beat_select[{last}]}} & {{{n}{{enter}}}})
            | (beat_select & {{{n}{{~enter}}}});
        hit_select <= ({{hit_select[{lm1}:0], hit_select[{last}]}} & {{{n}{{push}}}})
            | (hit_select & {{{n}{{~push}}}});
        read_select <= read_select_next;
        head_select <= read_select_next & {{{n}{{occupancy_next[0]}}}};
        allocated <= (allocated_if_enter & {{{n}{{enter}}}}) | (allocated_if_not & {{{n}{{~enter}}}});
        occupancy <= occupancy_next;
    end
end
"
    );
    let beats: Vec<String> = (0..n)
        .map(|i| format!("({{{d}{{head_select[{i}]}}}} & beat_{i})"))
        .collect();
    let hits: Vec<String> = (0..n)
        .map(|i| format!("({{{l}{{head_select[{i}]}}}} & hits_{i})"))
        .collect();
    v += &format!(
        "assign head_beat = {};\nassign head_hits = {};\nendmodule // {RESPONSES}\n",
        beats.join("\n    | "),
        hits.join("\n    | ")
    );
    v
}
