//! `bloom_lanes`: L lanes, up to L operations per clock (contract §8,
//! docs/core.md "Lanes"), as L replicas of `bloom_core` side by side.
//!
//! A beat is L request slots (`req_valid[j]`, `req_op`, `req_key`, `req_tag`
//! at slot j's place in each packed bus); the beat is taken when any slot is
//! valid and `req_ready` is high, into a two-entry input stage (decoded: is it
//! a write beat, is it refused), from which it enters the replicas, the next
//! cycle if they are ready. Every replica takes an operation in every
//! beat, so that all of them run in lockstep (the same control state, the
//! same `req_ready`, `resp_valid`, `busy`, `rb_valid` in every cycle; keys
//! never change a core's timing):
//! - a write beat (slot 0 an insert, clear or delete, nothing above it): every
//!   replica takes slot 0's operation, so every replica's banks stay equal;
//!   the response beat answers slot 0 from replica 0;
//! - a read beat (queries, some slots empty): replica j queries slot j's key
//!   (an empty slot's key too; a query changes nothing and its answer is
//!   dropped);
//! - a refused beat (contract §8.2): every replica queries, nothing changes,
//!   and the response beat has `resp_refused` set, every hit 0.
//!
//! Bit writes and readbacks (`rb_*`) go to every replica (a bit write must
//! change every replica; the readback answer is replica 0's); `fill_count` and
//! `busy` are replica 0's.
//!
//! The response beat: `resp_valid` (replica 0's, equal to every replica's),
//! per slot `resp_slot_valid[j]` (slot j of the beat held an operation),
//! `resp_hit[j]`, `resp_tag` (slot j's tag, 0 for an empty slot), and
//! `resp_refused`. Which slots held operations and whether the beat was
//! refused travel beside the replicas in a FIFO of beat descriptors, written
//! when a beat is taken and read when its response beat is taken; a replica
//! holds at most `response_fifo_depth` (8) operations unanswered, so 16
//! entries never fill. Reset empties it, as it empties the replicas' response
//! FIFOs and cancels their operations in flight (contract §5.1).
//!
//! Latency: the core's and one (the input stage): a beat taken in cycle 0 is
//! answered in cycle 8 when the replicas take it in cycle 1. Clear, readback,
//! reset: the core's, counted from the cycle a beat enters the replicas; a
//! reset also empties the input stage. Memory: the replicas' banks (L x k
//! block RAMs), the input stage (2 beats) and the descriptor FIFO (16 x
//! (L+1) bits), flip-flops. Same-address read and write: none across
//! replicas; each replica forwards its own writes.

use crate::{CoreConfig, GeneratedCore, HdlError, Timing};

/// Top module name.
pub const LANES_TOP: &str = "bloom_lanes";

/// Lanes allowed (contract §8.3).
pub const MAX_LANES: usize = 64;

/// Entries of the beat descriptor FIFO: more than a replica's unanswered
/// operations (its response FIFO depth).
const DESCRIPTOR_DEPTH: usize = 16;

/// Switches for tests only: each breaks one property that co-simulation must catch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneSwitches {
    /// Replicas above 0 do not take write beats (each queries its own slot instead).
    pub no_write_broadcast: bool,
}

/// Generated Verilog of `bloom_lanes` with the core it replicates.
#[derive(Clone, Debug)]
pub struct GeneratedLanes {
    /// `bloom_core` and its modules, then `bloom_lanes`.
    pub verilog: String,
    /// `bloom_lanes` alone (it instantiates `bloom_core`).
    pub top_module: String,
    pub top: String,
    pub lanes: usize,
    pub core: GeneratedCore,
    pub timing: Timing,
}

/// `lanes` is allowed for a filter of `params`: 1..=64, and a plain filter (a
/// counting filter has one lane, contract §8.3).
pub fn check_lanes(params: &crate::CoreParams, lanes: usize) -> Result<(), HdlError> {
    if !(1..=MAX_LANES).contains(&lanes) {
        return Err(HdlError::Config(format!(
            "lanes = {lanes} is not allowed (allowed: 1 ..= {MAX_LANES})"
        )));
    }
    if params.counter_bits > 1 {
        return Err(HdlError::Config(format!(
            "lanes = {lanes} with counter_bits = {}: bloom_lanes replicates plain cores only; a counting filter has one lane, bloom_core (docs/contract.md section 8.3)",
            params.counter_bits
        )));
    }
    Ok(())
}

/// `bloom_lanes` for `cfg` with `lanes` lanes ([`check_lanes`]).
pub fn generate_lanes(
    cfg: &CoreConfig,
    lanes: usize,
    switches: LaneSwitches,
) -> Result<GeneratedLanes, HdlError> {
    check_lanes(&cfg.params, lanes)?;
    lanes_around(crate::generate_core(cfg)?, lanes, switches)
}

/// `bloom_lanes` around `core`, already generated ([`check_lanes`]). The
/// lanes' `core` is `core` with its hash units and response FIFO not kept
/// whole in synthesis (`verilog::without_kept_whole`): write that as the
/// lanes' `bloom_core.v`.
pub fn lanes_around(
    core: GeneratedCore,
    lanes: usize,
    switches: LaneSwitches,
) -> Result<GeneratedLanes, HdlError> {
    check_lanes(&core.config.params, lanes)?;
    let core = GeneratedCore {
        verilog: crate::verilog::without_kept_whole(&core.verilog),
        ..core
    };
    let top = lanes_top(&core.config.params, lanes, switches);
    Ok(GeneratedLanes {
        verilog: format!("{}\n{}", core.verilog, top),
        top_module: top.clone(),
        top: LANES_TOP.to_string(),
        lanes,
        // One cycle more than the core: the input stage.
        timing: Timing {
            latency: core.timing.latency + 1,
            ..core.timing
        },
        core,
    })
}

/// The text of module `bloom_lanes` over `lanes` instances of `bloom_core`: its ports,
/// then its four parts in the order the Verilog reads them.
fn lanes_top(params: &crate::CoreParams, lanes: usize, switches: LaneSwitches) -> String {
    use crate::ports::module_ports;
    let mut v = String::new();
    v += "// bloom_lanes: up to L operations per clock over L replicas of bloom_core\n";
    v += "// (hdl/src/lanes/mod.rs; docs/core.md, \"Lanes\"; docs/contract.md section 8).\n";
    v += &format!(
        "module {LANES_TOP} (\n{}\n);\n",
        module_ports(&lanes_ports(params, lanes))
    );
    v += &beat_rule(lanes);
    v += &input_stage(params.key_bits as usize, lanes, switches);
    v += &replicas(params, lanes, switches);
    v += &descriptors(lanes);
    v += &format!("endmodule // {LANES_TOP}\n");
    v
}

/// The beat and its rule (contract §8.2): `beat`, `refused`, `write_beat`.
fn beat_rule(l: usize) -> String {
    let mut v = String::new();
    // The beat and the rule of contract section 8.2, decoded on entry into the input stage.
    v += "wire beat = |req_valid;\n";
    v += "wire slot0_writes = req_valid[0] & (req_op[1:0] != 2'd0);\n";
    if l == 1 {
        v += "wire refused = 1'b0;\nwire write_beat = slot0_writes;\n";
    } else {
        let above_writes: Vec<String> = (1..l)
            .map(|j| {
                format!(
                    "(req_valid[{j}] & (req_op[{}:{}] != 2'd0))",
                    2 * j + 1,
                    2 * j
                )
            })
            .collect();
        v += &format!("wire above_valid = |req_valid[{}:1];\n", l - 1);
        v += &format!("wire above_writes = {};\n", above_writes.join(" | "));
        v += "wire refused = above_writes | (slot0_writes & above_valid);\n";
        v += "wire write_beat = slot0_writes & (~above_valid);\n";
    }
    v
}

/// The input stage of two entries in front of the replicas, and the head entry's
/// fields (`head_valid`, `write_op`, `head_key`, `head_tag`, `head_write`).
fn input_stage(w: usize, l: usize, switches: LaneSwitches) -> String {
    let mut v = String::new();
    // The input stage: two entries, so that the replicas' request inputs are flip-flops
    // and a 2:1 choice or two, and the decode above never reaches their admission logic.
    // An entry: {write_beat, the op the replicas take (slot 0's in a write beat, else 0:
    // the core decodes it, so it is one choice after flip-flops), req_key, req_tag}.
    // Replica j takes slot 0's key in a write beat: chosen on the way out, by the
    // stored write_beat (chosen on the way in, it put the decode and a choice with a
    // fanout of every key bit between the inputs and the entries). Which slots are
    // valid, and whether the beat is refused, wait in the descriptors below.
    let e = 3 + w * l + 8 * l;
    v += "wire [1:0] write_beat_op = write_beat ? req_op[1:0] : 2'd0;\n";
    v += &format!(
        "\
localparam ENTRY = {e};
reg [ENTRY-1:0] entry0 = {e}'d0;
reg [ENTRY-1:0] entry1 = {e}'d0;
reg [1:0] entry_full = 2'b00;
reg entry_write = 1'b0;
reg entry_read = 1'b0;
wire [ENTRY-1:0] head_entry = entry_read ? entry1 : entry0;
// The head entry is full: a flip-flop (the replicas' req_valid), kept equal to
// entry_full[entry_read] by computing it from their next values.
reg head_valid = 1'b0;
assign req_ready = ~(entry_full[0] & entry_full[1]);
wire take = beat & req_ready;
wire enter = head_valid & lane0_req_ready;
wire entry_read_next = entry_read ^ enter;
wire [1:0] entry_full_next = (entry_full & (~({{enter & entry_read, enter & (~entry_read)}})))
    | {{take & entry_write, take & (~entry_write)}};
always @(posedge clock) begin
    // The free entry at the write pointer loads the inputs in every cycle (whether
    // or not a beat is taken), so its enables are flip-flops only.
    if ((~entry_write) & (~entry_full[0])) begin
        entry0 <= {{write_beat, write_beat_op, req_key, req_tag}};
    end
    if (entry_write & (~entry_full[1])) begin
        entry1 <= {{write_beat, write_beat_op, req_key, req_tag}};
    end
    if (reset) begin
        entry_full <= 2'b00;
        entry_write <= 1'b0;
        entry_read <= 1'b0;
        head_valid <= 1'b0;
    end else begin
        head_valid <= entry_read_next ? entry_full_next[1] : entry_full_next[0];
        if (take) begin
            entry_full[entry_write] <= 1'b1;
            entry_write <= ~entry_write;
        end
        if (enter) begin
            entry_full[entry_read] <= 1'b0;
            entry_read <= ~entry_read;
        end
    end
end
{head_write}
wire [1:0] write_op = head_entry[{ohi}:{olo}];
wire [{keym1}:0] head_key = head_entry[{khi}:{klo}];
wire [{tagm1}:0] head_tag = head_entry[{thi}:0];
",
        head_write = if l > 1 && !switches.no_write_broadcast {
            format!("wire head_write = head_entry[{}];", e - 1)
        } else {
            // One lane (or no broadcast): no replica takes slot 0's key in another's place.
            format!("/* verilator lint_off UNUSED */\nwire unused_head_write = head_entry[{}];\n/* verilator lint_on UNUSED */", e - 1)
        },
        ohi = e - 2,
        olo = w * l + 8 * l,
        khi = w * l + 8 * l - 1,
        klo = 8 * l,
        thi = 8 * l - 1,
        keym1 = w * l - 1,
        tagm1 = 8 * l - 1,
    );
    v
}

/// The L replicas of `bloom_core` (`lane{j}`), and the outputs replica 0 speaks for.
fn replicas(params: &crate::CoreParams, l: usize, switches: LaneSwitches) -> String {
    use crate::ports::{core_ports, instance, output_wires, Direction};
    let w = params.key_bits as usize;
    let mut v = String::new();
    // The replicas.
    let ports = core_ports(params);
    for j in 0..l {
        let broadcast = j == 0 || !switches.no_write_broadcast;
        let op = if broadcast { "write_op" } else { "2'd0" };
        let own = format!("head_key[{}:{}]", w * (j + 1) - 1, w * j);
        let key = if broadcast && j > 0 {
            format!("(head_write ? head_key[{}:0] : {own})", w - 1)
        } else {
            own
        };
        v += &output_wires(&ports, &format!("lane{j}_"));
        v += &instance("bloom_core", &format!("lane{j}"), &ports, |p| {
            match p.name.as_str() {
                "req_valid" => Some("head_valid".into()),
                "req_op" => Some(op.to_string()),
                "req_key" => Some(key.clone()),
                "req_tag" => Some(format!("head_tag[{}:{}]", 8 * j + 7, 8 * j)),
                "fill_bank" if j > 0 => Some("4'd0".into()),
                // The lanes request no scrub.
                "scrub_req" => Some("1'b0".into()),
                _ if p.direction == Direction::Output => Some(format!("lane{j}_{}", p.name)),
                _ => Some(p.name.clone()),
            }
        })
        .expect("every input of the core is connected");
    }
    // Replica 0 speaks for all (they run in lockstep); the others' status is unread.
    v += "assign rb_valid = lane0_rb_valid;\nassign rb_data = lane0_rb_data;\n";
    v += "assign fill_count = lane0_fill_count;\nassign busy = lane0_busy;\n";
    // No replica's scrub outputs are read (no scrub is requested).
    let unread: Vec<String> = (0..l)
        .flat_map(|j| {
            ports
                .iter()
                .filter(move |p| {
                    p.direction == Direction::Output
                        && (p.group == "scrub"
                            || (j > 0 && !matches!(p.name.as_str(), "resp_hit" | "resp_tag")))
                })
                .map(move |p| format!("lane{j}_{}", p.name))
        })
        .collect();
    if !unread.is_empty() {
        v += &format!(
            "/* verilator lint_off UNUSED */\nwire unused_lanes = &{{1'b0, {}, 1'b0}};\n/* verilator lint_on UNUSED */\n",
            unread.join(", ")
        );
    }
    v
}

/// The beat descriptors (which slots each beat taken holds, whether refused) and the
/// response beat built from the oldest one.
fn descriptors(l: usize) -> String {
    let d = DESCRIPTOR_DEPTH;
    let mut v = String::new();
    // The beat descriptors: {refused, req_valid} of every beat taken (in the order
    // the beats enter the replicas; written on taking, so that its enables start at
    // flip-flops and the request inputs, never at the replicas' admission).
    v += &format!(
        "\
wire give = lane0_resp_valid & resp_ready;
reg [{l}:0] descriptor [0:{dm1}];
reg [{pm1}:0] descriptor_write = {p}'d0;
reg [{pm1}:0] descriptor_read = {p}'d0;
reg [{pm1}:0] descriptor_read_next = {p}'d1;
always @(posedge clock) begin
    // Likewise the descriptor at the write pointer (not yet one of the FIFO's).
    descriptor[descriptor_write] <= {{refused, req_valid}};
    if (reset) begin
        descriptor_write <= {p}'d0;
        descriptor_read <= {p}'d0;
        descriptor_read_next <= {p}'d1;
    end else begin
        if (take) begin
            descriptor_write <= descriptor_write + {p}'d1;
        end
        if (give) begin
            descriptor_read <= descriptor_read_next;
            descriptor_read_next <= descriptor_read_next + {p}'d1;
        end
    end
end
// The oldest descriptor, registered: read a cycle ahead (the next one when a response
// beat is given), so the response outputs are one LUT from flip-flops. A descriptor is
// written at least `latency` cycles before its response beat.
(* keep *) wire [{l}:0] descriptor_this = descriptor[descriptor_read];
(* keep *) wire [{l}:0] descriptor_after = descriptor[descriptor_read_next];
reg [{l}:0] head_descriptor = {l1}'d0;
always @(posedge clock) begin
    head_descriptor <= give ? descriptor_after : descriptor_this;
end
wire [{l}:0] head = head_descriptor & {{{l1}{{lane0_resp_valid}}}};
assign resp_valid = lane0_resp_valid;
assign resp_refused = head[{l}];
assign resp_slot_valid = head[{lm1}:0];
",
        l1 = l + 1,
        lm1 = l - 1,
        dm1 = d - 1,
        p = d.trailing_zeros(),
        pm1 = d.trailing_zeros() - 1,
    );
    let hits: Vec<String> = (0..l).rev().map(|j| format!("lane{j}_resp_hit")).collect();
    v += &format!(
        "assign resp_hit = {{{}}} & head[{}:0] & {{{l}{{~head[{l}]}}}};\n",
        hits.join(", "),
        l - 1
    );
    let tags: Vec<String> = (0..l)
        .rev()
        .map(|j| format!("(lane{j}_resp_tag & {{8{{head[{j}]}}}})"))
        .collect();
    v += &format!("assign resp_tag = {{{}}};\n", tags.join(", "));
    v
}

/// The ports of `bloom_lanes` with `lanes` lanes for `params` (docs/core.md's
/// "Lanes" table is these).
pub fn lanes_ports(params: &crate::CoreParams, lanes: usize) -> Vec<crate::ports::CorePort> {
    use crate::ports::{CorePort, Direction::*};
    let l = lanes as u32;
    let w = params.key_bits;
    let port = CorePort::declared;
    vec![
        port("clock", Input, 1, "1", "Clock."),
        port("reset", Input, 1, "1", "Synchronous, active high: the core's reset, for every replica (docs/core.md, \"Reset\")."),
        port("req_valid", Input, l, "L", "Bit j: slot j of the beat holds an operation; the beat is offered while any bit is 1."),
        port("req_ready", Output, 1, "1", "The beat is taken in a cycle with req_ready and any req_valid bit high (the input stage has room; a flip-flop's LUT)."),
        port("req_op", Input, 2 * l, "2 L", "Slot j's op code at [2j+1:2j]: 0 query; 1 insert, 2 clear, 3 delete (slot 0 alone, nothing else in the beat)."),
        port("req_key", Input, w * l, "key_bits L", "Slot j's key at [W(j+1)-1:Wj]."),
        port("req_tag", Input, 8 * l, "8 L", "Slot j's tag at [8j+7:8j], returned with its response."),
        port("resp_valid", Output, 1, "1", "A response beat: one per beat taken, in order."),
        port("resp_ready", Input, 1, "1", "The response beat is taken when resp_valid and resp_ready are high."),
        port("resp_slot_valid", Output, l, "L", "Bit j: slot j of the response beat answers an operation (slot j of its beat held one)."),
        port("resp_hit", Output, l, "L", "Bit j: slot j's answer (contract section 5); 0 in a refused beat."),
        port("resp_tag", Output, 8 * l, "8 L", "Slot j's tag at [8j+7:8j] (0 for an empty slot)."),
        port("resp_refused", Output, 1, "1", "The beat broke the rule of contract section 8.2: nothing of it took effect."),
        port("rb_req", Input, 1, "1", "The core's readback and bit write, to every replica (docs/core.md)."),
        port("rb_bank", Input, 4, "4", "As the core's."),
        port("rb_addr", Input, 16, "16", "As the core's."),
        port("rb_write", Input, 1, "1", "As the core's: the bit is written into every replica."),
        port("rb_wdata", Input, 1, "1", "As the core's."),
        port("rb_valid", Output, 1, "1", "Replica 0's (all are equal)."),
        port("rb_data", Output, 1, "1", "Replica 0's."),
        port("fill_bank", Input, 4, "4", "As the core's, for replica 0."),
        port("fill_count", Output, 17, "17", "Replica 0's fill counter of fill_bank."),
        port("busy", Output, 1, "1", "Replica 0's (all are equal)."),
    ]
}
