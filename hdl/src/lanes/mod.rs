//! `bloom_lanes`: L lanes, up to L operations per clock (contract §8,
//! docs/core.md "Lanes"): lane 0, a whole core that broadcasts its writes, and
//! L - 1 query lanes that only read.
//!
//! A beat is L request slots (`req_valid[j]`, `req_op`, `req_key`, `req_tag`
//! at slot j's place in each packed bus); the beat is taken when any slot is
//! valid and `req_ready` is high, into a one-entry input stage (decoded: the op
//! lane 0 takes, which slots write), from which it enters lane 0 the next cycle
//! if lane 0 is ready; `req_ready` is high when the entry is empty or its beat
//! enters lane 0 in this cycle. Lane 0 takes an operation in every beat:
//! - a write beat (slot 0 an insert, clear or delete, nothing above it): slot
//!   0's operation;
//! - a read beat (queries, some slots empty): slot 0's key as a query (an empty
//!   slot's key too; a query changes nothing and its answer is dropped);
//! - a refused beat (contract §8.2): slot 0's key as a query, and the response
//!   beat has `resp_refused` set, every hit 0.
//!
//! The parts (one file each):
//! - lane0.rs, `bloom_lanes_core`: the plain core (admission, every write, the
//!   clear sweep, the recount after reset, fill counters, readback, `busy`), or
//!   the counting core, and its tap: its banks' writes one cycle ahead and its
//!   responses in c6;
//! - writes.rs, `bloom_lanes_writes`: a copy of lane 0's bank write registers
//!   per group of `WRITE_GROUP` query lanes, loaded from the tap (register
//!   duplication: a write reaches the replicas from flip-flops beside them);
//! - query.rs, `bloom_lanes_query` (lanes 1 .. L-1): the slot's key in the
//!   beat's c0, its own hash units, address registers, replica banks written by
//!   lane 0's writes (so they hold lane 0's bits in every cycle), forwarding
//!   against those writes (forward.rs, `bloom_lanes_forward`) and the AND over
//!   its banks: its hit in c6, beside lane 0's;
//! - pair.rs, `bloom_lanes_query_pair` (with [`ReplicaPorts::Two`], in place of
//!   query.rs): two query lanes sharing two-port replicas, reading in lane 0's
//!   write stage, with nothing to forward;
//! - responses.rs, `bloom_lanes_responses`: the response beats, a FIFO as deep as
//!   lane 0's (8, or 10 with the Feistel family's request line) and as many more
//!   as the query lanes answer later ([`replica_delay`]) (descriptor: refused, slot
//!   valid bits, tags; written when the beat enters lane 0; hits: pushed when lane
//!   0's response and the query lanes' answers are in). Lane 0's
//!   own response FIFO is taken with the same `resp_ready`, so it holds the
//!   same beats as this one in every cycle and its credits (as many unanswered)
//!   stop the beats when the consumer does not take them.
//!
//! A query lane has no control: its pipeline moves every cycle, as lane 0's
//! does after admission, so its slot sits beside lane 0's in every stage; a
//! query lane's answer is taken only when lane 0 pushes the beat's response.
//! Bit writes and readbacks (`rb_*`), `fill_count` and `busy` are lane 0's; a
//! bit write reaches every replica through the write broadcast.
//!
//! A counting filter (contract §8.3): lane 0 is the counting core (lane0.rs,
//! `LaneCountingCore`), which alone holds the counters and does every read-modify-write;
//! its tap gives each bank's write-back of c7 one cycle ahead, with whether the counter
//! written is non-zero, and the query lanes' replicas are 1-bit banks of that bit
//! (query.rs, `replica_modules`). Because a counting lane 0 writes three stages later
//! than a plain one, the query lanes read their replicas three stages later
//! ([`replica_delay`]) and lane 0's response waits for theirs: three cycles more.
//!
//! Latency: the core's and one (the input stage): a beat taken in cycle 0 is
//! answered in cycle 8 when lane 0 takes it in cycle 1 (11 for a counting filter). Clear, readback,
//! reset: the core's, counted from the cycle a beat enters lane 0; a reset
//! also empties the input stage and the response beats, and cancels the
//! operations in flight (contract §5.1). Memory: lane 0's banks and L - 1
//! replicas of them (L x k block RAMs), the input stage (1 beat) and the
//! response beats (8), flip-flops. Same-address read and write: each query
//! lane forwards lane 0's write of the cycle its replica is read (forward.rs).

mod forward;
pub mod lane0;
mod pair;
mod query;
mod responses;
mod writes;

use serde::Serialize;

use crate::{CoreConfig, GeneratedCore, HdlError, Timing};

/// Top module name.
pub const LANES_TOP: &str = "bloom_lanes";

/// Lanes allowed (contract §8.3).
pub const MAX_LANES: usize = 128;

/// Query lanes per copy of lane 0's bank write registers (writes.rs).
pub const WRITE_GROUP: usize = 4;

/// Switches for tests only: each breaks one property that co-simulation must catch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneSwitches {
    /// The query lanes' replica banks are not written (lane 0's writes are not broadcast).
    pub no_write_broadcast: bool,
    /// A counting filter's query lanes read their replicas in c3, as a plain filter's do,
    /// before the writes of the three beats ahead are in them ([`replica_delay`] 0).
    pub early_replica_read: bool,
}

/// How the query lanes read their replicas.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum ReplicaPorts {
    /// Each query lane reads replicas of its own, one read port each, a stage before
    /// lane 0 writes its banks, and forwards that write (query.rs). Every block RAM
    /// serves (iCE40's SB_RAM40_4K has one read port and one write port).
    #[default]
    One,
    /// Two query lanes share each replica, one on each port of a true dual-port block
    /// RAM (ECP5's DP16KD): port A reads for one lane whenever it does not write; both
    /// read in the stage lane 0 writes, with nothing to forward, one cycle later
    /// (pair.rs). Half the replicas, an address multiplexer per bank and lane pair.
    Two,
}

impl ReplicaPorts {
    /// Query lanes served by one replica of each bank.
    pub fn lanes_per_replica(self) -> usize {
        match self {
            ReplicaPorts::One => 1,
            ReplicaPorts::Two => 2,
        }
    }
}

/// Generated Verilog of `bloom_lanes`.
#[derive(Clone, Debug)]
pub struct GeneratedLanes {
    /// `bloom_lanes` and every module it holds (lane 0, `bloom_lanes_core`, and its
    /// modules; the query lanes' modules). It does not hold `bloom_core`.
    pub verilog: String,
    /// The same text (what a design that already holds `bloom_core` adds for the lanes).
    pub top_module: String,
    pub top: String,
    pub lanes: usize,
    /// How the query lanes read their replicas.
    pub replica_ports: ReplicaPorts,
    /// The core whose filter the lanes are (its configuration and timing).
    pub core: GeneratedCore,
    pub timing: Timing,
}

/// `lanes` is allowed: 1..=128 (contract §8.3), for a plain or a counting filter.
pub fn check_lanes(_params: &crate::CoreParams, lanes: usize) -> Result<(), HdlError> {
    if !(1..=MAX_LANES).contains(&lanes) {
        return Err(HdlError::Config(format!(
            "lanes = {lanes} is not allowed (allowed: 1 ..= {MAX_LANES})"
        )));
    }
    Ok(())
}

/// Stages a query lane reads its replicas after lane 0 reads its banks (c3), which is
/// also how many cycles later its answer is than lane 0's. Lane 0 writes its banks in
/// c4 (a plain filter) or c7 (a counting filter, whose write-back follows the AND over
/// its banks in c5: a delete writes only if the key is present). A lane of
/// `ReplicaPorts::One` reads its replica in the cycle the write of the beat one ahead is
/// made, and forwards it (forward.rs), so every older write is in the replica by then:
/// 0 stages after lane 0, or 3. A lane of `ReplicaPorts::Two` reads in the write's own
/// stage, after every write ahead, with nothing to forward: 1, or 4.
pub fn replica_delay(params: &crate::CoreParams, ports: ReplicaPorts) -> u32 {
    let write_stage = if params.counter_bits > 1 {
        crate::timing::COUNTING_COMMIT_LATENCY
    } else {
        crate::timing::COMMIT_LATENCY
    };
    match ports {
        ReplicaPorts::One => write_stage - 4,
        ReplicaPorts::Two => write_stage - 3,
    }
}

/// Beats `bloom_lanes` takes and has not answered, at most: lane 0's credits (its
/// response FIFO depth, core/response_fifo.rs), the entry of the input stage
/// (`req_ready` takes a beat into it while lane 0 has no credit), and the responses
/// in the line that waits for the query lanes ([`replica_delay`]: lane 0's credit
/// comes back as its response enters it). 11 for the default filter, 15 at most
/// (a counting filter of the Feistel family on two-port replicas); checked by
/// co-simulation with a stalling sink (sim/tests/lanes.rs).
pub fn unanswered_beats(params: &crate::CoreParams, ports: ReplicaPorts) -> usize {
    crate::core::response_fifo::depth_for(crate::core::request_line::delay_of(params.hash))
        + 1
        + replica_delay(params, ports) as usize
}

/// `bloom_lanes` for `cfg` with `lanes` lanes ([`check_lanes`]), each query lane with
/// replicas of its own.
pub fn generate_lanes(
    cfg: &CoreConfig,
    lanes: usize,
    switches: LaneSwitches,
) -> Result<GeneratedLanes, HdlError> {
    generate_lanes_with(cfg, lanes, ReplicaPorts::One, switches)
}

/// `bloom_lanes` for `cfg` with `lanes` lanes whose query lanes read their replicas as
/// `ports` says.
pub fn generate_lanes_with(
    cfg: &CoreConfig,
    lanes: usize,
    ports: ReplicaPorts,
    switches: LaneSwitches,
) -> Result<GeneratedLanes, HdlError> {
    check_lanes(&cfg.params, lanes)?;
    lanes_around_with(crate::generate_core(cfg)?, lanes, ports, switches)
}

/// `bloom_lanes` of the filter of `core`, already generated ([`check_lanes`]), each query
/// lane with replicas of its own.
pub fn lanes_around(
    core: GeneratedCore,
    lanes: usize,
    switches: LaneSwitches,
) -> Result<GeneratedLanes, HdlError> {
    lanes_around_with(core, lanes, ReplicaPorts::One, switches)
}

/// [`lanes_around`] with the query lanes reading their replicas as `ports` says.
pub fn lanes_around_with(
    core: GeneratedCore,
    lanes: usize,
    ports: ReplicaPorts,
    switches: LaneSwitches,
) -> Result<GeneratedLanes, HdlError> {
    check_lanes(&core.config.params, lanes)?;
    let lane0 = lane0::lane0_verilog(&core.config)?;
    let top = lanes_top(&core.config, lanes, ports, switches)?;
    let delay = lanes_delay(&core.config.params, ports, switches);
    let verilog = format!("{lane0}\n{top}");
    Ok(GeneratedLanes {
        top_module: verilog.clone(),
        verilog,
        top: LANES_TOP.to_string(),
        lanes,
        replica_ports: ports,
        // One cycle more than the core (the input stage), and the query lanes' replica
        // delay.
        timing: Timing {
            latency: core.timing.latency + 1 + delay,
            ..core.timing
        },
        core,
    })
}

/// [`replica_delay`], or 0 with the test switch `early_replica_read` (lanes of their
/// own replicas).
fn lanes_delay(params: &crate::CoreParams, ports: ReplicaPorts, switches: LaneSwitches) -> u32 {
    if switches.early_replica_read && ports == ReplicaPorts::One {
        0
    } else {
        replica_delay(params, ports)
    }
}

/// The text of module `bloom_lanes` (lane 0, the query lanes, the input stage and
/// the response beats), then the modules of the query lanes.
fn lanes_top(
    cfg: &CoreConfig,
    lanes: usize,
    ports: ReplicaPorts,
    switches: LaneSwitches,
) -> Result<String, HdlError> {
    use crate::ports::module_ports;
    let params = &cfg.params;
    let counting = params.counter_bits > 1;
    let delay = lanes_delay(params, ports, switches) as usize;
    let (k, b, w) = (cfg.k(), cfg.bank_bits(), params.key_bits as usize);
    let mut v = String::new();
    v += "// bloom_lanes: up to L operations per clock: lane 0, a core that broadcasts its\n";
    v += "// writes, and L - 1 query lanes (hdl/src/lanes/mod.rs; docs/core.md, \"Lanes\";\n";
    v += "// docs/contract.md section 8).\n";
    v += &format!(
        "module {LANES_TOP} (\n{}\n);\n",
        module_ports(&lanes_ports(params, lanes))
    );
    v += &beat_rule(lanes);
    v += &input_stage(w, lanes);
    v += &lane_zero(params);
    v += &query_lanes(k, b, w, lanes, ports, switches, counting);
    v += &response_beats(lanes, delay);
    v += &format!("endmodule // {LANES_TOP}\n");
    if lanes > 1 {
        v += "\n";
        v += &writes::writes_module(k, b, counting);
        v += "\n";
        let network = params.hash == bloom_params::HashFamily::Feistel;
        match ports {
            ReplicaPorts::One => {
                v += &forward::forward_module(b, !cfg.test_switches.disable_forwarding);
                v += "\n";
                v += &query::query_module(k, b, w, network, delay);
                if counting {
                    v += &query::replica_modules(cfg)?;
                }
            }
            ReplicaPorts::Two => {
                v += &pair::query_pair_module(k, b, w, network, 3 + delay, counting);
                v += "\n";
                v += &pair::replica2_modules(k, b, query::replica_bits(cfg)?.as_deref());
            }
        }
    }
    v += "\n";
    // Lane 0's response FIFO depth, and the beats whose responses wait for the query
    // lanes' later answers (responses.rs).
    let beats =
        crate::core::response_fifo::depth_for(crate::core::request_line::delay_of(params.hash))
            + delay;
    v += &responses::responses_module(lanes, beats);
    Ok(v)
}

/// The beat and what the input stage keeps of its rule (contract §8.2): `beat`, each
/// slot's `slot_writes` (it holds an insert, clear or delete) and `write_beat_op`.
fn beat_rule(l: usize) -> String {
    let mut v = String::new();
    // Decoded on entry into the input stage, each term at most two LUT4 levels from the
    // inputs; whether the beat is refused is decided from the entry (`head_refused`).
    v += "wire beat = |req_valid;\n";
    let writes: Vec<String> = (0..l)
        .rev()
        .map(|j| {
            format!(
                "(req_valid[{j}] & (req_op[{}:{}] != 2'd0))",
                2 * j + 1,
                2 * j
            )
        })
        .collect();
    v += &format!(
        "wire [{}:0] slot_writes = {{{}}};\n",
        l - 1,
        writes.join(", ")
    );
    // Slot 0's op in a write beat (slot 0 writes, no slot above is valid), else 0 (a
    // query): an op bit of 1 is a write, so each bit is slot 0's valid, that bit and
    // no slot above (`req_valid >> 1`: the slots above 0, none when L = 1).
    v += "wire [1:0] write_beat_op = req_op[1:0] & {2{req_valid[0] & (~(|(req_valid >> 1)))}};\n";
    v
}

/// The input stage, one entry in front of lane 0, and the entry's fields (`head_valid`,
/// `write_op`, `head_refused`, `head_slots`, `head_key`, `head_tag`).
fn input_stage(w: usize, l: usize) -> String {
    // The input stage: one entry, so that lane 0's request inputs are flip-flops and
    // the decode above never reaches its admission logic. An entry: {the op lane 0
    // takes (slot 0's in a write beat, else 0: the core decodes it), slot_writes,
    // req_valid, req_key, req_tag with the tags of empty slots 0}.
    let e = 2 + 2 * l + w * l + 8 * l;
    let kept_tags: Vec<String> = (0..l)
        .rev()
        .map(|j| {
            format!(
                "(req_tag[{}:{}] & {{8{{req_valid[{j}]}}}})",
                8 * j + 7,
                8 * j
            )
        })
        .collect();
    let kept_tags = kept_tags.join(", ");
    format!(
        "\
// Slot j's tag as the beat keeps it: 0 where the slot holds no operation (the
// response beats then present it as it is, responses.rs).
wire [{tagm1}:0] req_tag_kept = {{{kept_tags}}};
localparam ENTRY = {e};
// One entry: lane 0's request inputs are its flip-flops. It loads the inputs in
// every cycle it is empty or its beat enters lane 0 (whether or not a beat is
// offered), so a beat offered while lane 0 takes the one ahead is taken at once.
reg [ENTRY-1:0] head_entry = {e}'d0;
reg head_valid = 1'b0;
assign req_ready = (~head_valid) | lane0_req_ready;
wire take = beat & req_ready;
wire enter = head_valid & lane0_req_ready;
always @(posedge clock) begin
    if (req_ready) begin
        head_entry <= {{write_beat_op, slot_writes, req_valid, req_key, req_tag_kept}};
    end
    if (reset) begin
        head_valid <= 1'b0;
    end else begin
        head_valid <= take | (head_valid & (~enter));
    end
end
wire [1:0] write_op = head_entry[{ohi}:{olo}];
wire [{lm1}:0] head_writes = head_entry[{whi}:{wlo}];
wire [{lm1}:0] head_slots = head_entry[{shi}:{slo}];
// Refused (contract section 8.2): a slot above 0 writes, or slot 0 writes and a
// slot above it is valid (none is above when L = 1).
wire head_refused = (|(head_writes >> 1)) | (head_writes[0] & (|(head_slots >> 1)));
wire [{keym1}:0] head_key = head_entry[{khi}:{klo}];
wire [{tagm1}:0] head_tag = head_entry[{thi}:0];
",
        ohi = e - 1,
        olo = e - 2,
        whi = e - 3,
        wlo = e - 2 - l,
        lm1 = l - 1,
        shi = e - 3 - l,
        slo = w * l + 8 * l,
        khi = w * l + 8 * l - 1,
        klo = 8 * l,
        thi = 8 * l - 1,
        keym1 = w * l - 1,
        tagm1 = 8 * l - 1,
    )
}

/// Lane 0 (`bloom_lanes_core`, lane0.rs): slot 0's key, the op of the beat, every
/// readback and bit write; the outputs it speaks for.
fn lane_zero(params: &crate::CoreParams) -> String {
    use crate::ports::{core_ports, instance, output_wires, Direction};
    let w = params.key_bits as usize;
    let ports = core_ports(params);
    let mut v = output_wires(&ports, "lane0_");
    v += "wire [15:0] tap_write_next;\nwire [15:0] tap_wdata_next;\nwire [255:0] tap_addr_next;\n";
    v += "wire tap_valid6;\nwire tap_hit6;\n";
    let mut inst = instance(lane0::LANE0_TOP, "lane0", &ports, |p| {
        match p.name.as_str() {
            "req_valid" => Some("head_valid".into()),
            "req_op" => Some("write_op".into()),
            "req_key" => Some(format!("head_key[{}:0]", w - 1)),
            // The tags wait in the response beats.
            "req_tag" => Some("8'd0".into()),
            // The lanes request no scrub (lane 0's banks alone could be scrubbed).
            "scrub_req" => Some("1'b0".into()),
            _ if p.direction == Direction::Output => Some(format!("lane0_{}", p.name)),
            _ => Some(p.name.clone()),
        }
    })
    .expect("every input of the core is connected");
    // The tap's ports after the core's.
    let tap = "        .tap_write_next(tap_write_next),\n        .tap_wdata_next(tap_wdata_next),\n        .tap_addr_next(tap_addr_next),\n        .tap_valid6(tap_valid6),\n        .tap_hit6(tap_hit6),\n";
    let at = inst.find("        .").expect("an instance has ports");
    inst.insert_str(at, tap);
    v += &inst;
    // Lane 0 speaks for the lanes; its response FIFO holds the same beats as the
    // response beats (taken with the same resp_ready), its answers are unread.
    v += "assign rb_valid = lane0_rb_valid;\nassign rb_data = lane0_rb_data;\n";
    v += "assign fill_count = lane0_fill_count;\nassign busy = lane0_busy;\n";
    if params.counter_bits > 1 {
        v += "assign counter_rdata = lane0_counter_rdata;\nassign counter_saturated = lane0_counter_saturated;\n";
    }
    v += "/* verilator lint_off UNUSED */\nwire unused_lane0 = &{1'b0, lane0_resp_valid, lane0_resp_hit, lane0_resp_tag, lane0_scrub_busy, lane0_scrub_mismatch, 1'b0};\n/* verilator lint_on UNUSED */\n";
    v
}

/// The copies of lane 0's write registers and the query lanes 1 .. L-1 (`lane{j}`):
/// `lane{j}_hit`, each query lane's answer in the stage `response_beats` pushes it.
fn query_lanes(
    k: usize,
    b: usize,
    w: usize,
    l: usize,
    ports: ReplicaPorts,
    switches: LaneSwitches,
    counting: bool,
) -> String {
    let data = if counting { k } else { 1 };
    let mut v = String::new();
    if data < 16 && l > 1 {
        // A plain core writes one bit to every bank (its copies in every bit).
        v += &format!(
            "/* verilator lint_off UNUSED */\nwire unused_wdata = &{{1'b0, tap_wdata_next[15:{data}], 1'b0}};\n/* verilator lint_on UNUSED */\n"
        );
    }
    if l == 1 {
        v += "/* verilator lint_off UNUSED */\nwire unused_tap = &{1'b0, tap_write_next, tap_wdata_next, tap_addr_next, 1'b0};\n/* verilator lint_on UNUSED */\n";
        return v;
    }
    let groups = (l - 1).div_ceil(WRITE_GROUP);
    for g in 0..groups {
        v += &format!(
            "\
wire [{km1}:0] write_enable_{g};
wire [{kbm1}:0] write_addr_{g};
wire [{dm1}:0] write_data_{g};
{writes} writes_{g} (
    .clock(clock),
    .write_next(tap_write_next),
    .write_data_next(tap_wdata_next[{dm1}:0]),
    .addr_next(tap_addr_next),
    .write_enable(write_enable_{g}),
    .write_addr(write_addr_{g}),
    .write_data(write_data_{g})
);
",
            km1 = k - 1,
            kbm1 = k * b - 1,
            dm1 = data - 1,
            writes = writes::WRITES,
        );
    }
    let enable = |g: usize| {
        if switches.no_write_broadcast {
            format!("{k}'d0")
        } else {
            format!("write_enable_{g}")
        }
    };
    let key = |j: usize| format!("head_key[{}:{}]", w * (j + 1) - 1, w * j);
    match ports {
        ReplicaPorts::One => {
            for j in 1..l {
                let g = (j - 1) / WRITE_GROUP;
                v += &format!(
                    "\
wire lane{j}_hit;
{query} lane{j} (
    .clock(clock),
    .key({key}),
    .write_enable({enable}),
    .write_addr(write_addr_{g}),
    .write_data(write_data_{g}),
    .hit(lane{j}_hit)
);
",
                    query = query::QUERY,
                    key = key(j),
                    enable = enable(g),
                );
            }
        }
        ReplicaPorts::Two => {
            // Lanes j and j + 1 share a pair's replicas; a last lane alone leaves its
            // pair's port B unread (synthesis removes what feeds it).
            for j in (1..l).step_by(2) {
                let g = (j - 1) / WRITE_GROUP;
                let (key_b, hit_b) = if j + 1 < l {
                    (key(j + 1), format!("lane{}_hit", j + 1))
                } else {
                    (format!("{w}'d0"), format!("unused_hit_{j}"))
                };
                v += &format!(
                    "\
wire lane{j}_hit;
wire {hit_b};
{pair} lanes{j} (
    .clock(clock),
    .key_a({key_a}),
    .key_b({key_b}),
    .write_enable({enable}),
    .write_addr(write_addr_{g}),
    .write_data(write_data_{g}),
    .hit_a(lane{j}_hit),
    .hit_b({hit_b})
);
",
                    pair = pair::QUERY_PAIR,
                    key_a = key(j),
                    enable = enable(g),
                );
                if j + 1 == l {
                    v += &format!("/* verilator lint_off UNUSED */\nwire unused_pair_{j} = {hit_b};\n/* verilator lint_on UNUSED */\n");
                }
            }
        }
    }
    if switches.no_write_broadcast {
        let unread: Vec<String> = (0..groups).map(|g| format!("write_enable_{g}")).collect();
        v += &format!(
            "/* verilator lint_off UNUSED */\nwire unused_enables = &{{1'b0, {}, 1'b0}};\n/* verilator lint_on UNUSED */\n",
            unread.join(", ")
        );
    }
    v
}

/// The response beats (responses.rs) and the response outputs. Lane 0's response
/// (`tap_valid6`, `tap_hit6`) is pushed with the query lanes' answers, `delay` cycles
/// after its c6 ([`replica_delay`]).
fn response_beats(l: usize, delay: usize) -> String {
    let descriptor = responses::Descriptor::new(l);
    let (shi, slo) = descriptor.slots();
    let (thi, tlo) = descriptor.tags();
    let mut v = if delay == 0 {
        "wire push = tap_valid6;\nwire lane0_hit = tap_hit6;\n".to_string()
    } else if delay == 1 {
        // A reset empties the response beats, and this register with them.
        "\
reg push_line = 1'b0;
reg hit_line = 1'b0;
always @(posedge clock) begin
    push_line <= tap_valid6 & (~reset);
    hit_line <= tap_hit6;
end
wire push = push_line;
wire lane0_hit = hit_line;
"
        .to_string()
    } else {
        // A reset empties the response beats, and this line with them.
        format!(
            "\
reg [{dm1}:0] push_line = {delay}'d0;
reg [{dm1}:0] hit_line = {delay}'d0;
always @(posedge clock) begin
    if (reset) begin
        push_line <= {delay}'d0;
    end else begin
        push_line <= {{push_line[{dm2}:0], tap_valid6}};
    end
    hit_line <= {{hit_line[{dm2}:0], tap_hit6}};
end
wire push = push_line[{dm1}];
wire lane0_hit = hit_line[{dm1}];
",
            dm1 = delay - 1,
            dm2 = delay - 2,
        )
    };
    let hits: Vec<String> = (0..l).rev().map(|j| format!("lane{j}_hit")).collect();
    v += &format!(
        "\
wire out_valid;
wire [{dm1}:0] out_beat;
wire [{lm1}:0] out_hits;
/* verilator lint_off UNUSED */
wire out_room;
/* verilator lint_on UNUSED */
{responses} responses (
    .clock(clock),
    .reset(reset),
    .enter(enter),
    // The descriptor, as responses::Descriptor lays it out.
    .beat({{head_refused, head_slots, head_tag}}),
    .room(out_room),
    .push(push),
    .hits({{{hits}}}),
    .ready(resp_ready),
    .valid(out_valid),
    .head_beat(out_beat),
    .head_hits(out_hits)
);
// The head is 0 while no beat is presented, its tags 0 in empty slots and its hits 0 in
// empty slots and refused beats (responses.rs): the ports are the head as it is.
assign resp_valid = out_valid;
assign resp_refused = out_beat[{refused}];
assign resp_slot_valid = out_beat[{shi}:{slo}];
assign resp_hit = out_hits;
assign resp_tag = out_beat[{thi}:{tlo}];
",
        dm1 = descriptor.width() - 1,
        lm1 = l - 1,
        refused = descriptor.refused(),
        responses = responses::RESPONSES,
        hits = hits.join(", "),
    );
    v
}

/// The ports of `bloom_lanes` with `lanes` lanes for `params` (docs/core.md's
/// "Lanes" table is these).
pub fn lanes_ports(params: &crate::CoreParams, lanes: usize) -> Vec<crate::ports::CorePort> {
    use crate::ports::{CorePort, Direction::*};
    let l = lanes as u32;
    let w = params.key_bits;
    let port = CorePort::declared;
    let mut ports = vec![
        port("clock", Input, 1, "1", "Clock."),
        port("reset", Input, 1, "1", "Synchronous, active high: lane 0's reset, the core's (docs/core.md, \"Reset\"); it also empties the input stage and the response beats."),
        port("req_valid", Input, l, "L", "Bit j: slot j of the beat holds an operation; the beat is offered while any bit is 1."),
        port("req_ready", Output, 1, "1", "The beat is taken in a cycle with req_ready and any req_valid bit high (the input stage is empty or its beat enters lane 0: flip-flops, `rb_req` and `reset` through LUTs)."),
        port("req_op", Input, 2 * l, "2 L", "Slot j's op code at [2j+1:2j]: 0 query; 1 insert, 2 clear, 3 delete (slot 0 alone, nothing else in the beat)."),
        port("req_key", Input, w * l, "key_bits L", "Slot j's key at [W(j+1)-1:Wj]."),
        port("req_tag", Input, 8 * l, "8 L", "Slot j's tag at [8j+7:8j], returned with its response."),
        port("resp_valid", Output, 1, "1", "A response beat: one per beat taken, in order."),
        port("resp_ready", Input, 1, "1", "The response beat is taken when resp_valid and resp_ready are high."),
        port("resp_slot_valid", Output, l, "L", "Bit j: slot j of the response beat answers an operation (slot j of its beat held one)."),
        port("resp_hit", Output, l, "L", "Bit j: slot j's answer (contract section 5); 0 in a refused beat."),
        port("resp_tag", Output, 8 * l, "8 L", "Slot j's tag at [8j+7:8j] (0 for an empty slot)."),
        port("resp_refused", Output, 1, "1", "The beat broke the rule of contract section 8.2: nothing of it took effect."),
        port("rb_req", Input, 1, "1", "The core's readback and bit write, to lane 0 (docs/core.md)."),
        port("rb_bank", Input, 4, "4", "As the core's."),
        port("rb_addr", Input, 16, "16", "As the core's."),
        port("rb_write", Input, 1, "1", "As the core's: the bit is written into lane 0's bank and, by its write broadcast, every replica."),
        port("rb_wdata", Input, 1, "1", "As the core's."),
        port("rb_valid", Output, 1, "1", "Lane 0's."),
        port("rb_data", Output, 1, "1", "Lane 0's."),
        port("fill_bank", Input, 4, "4", "As the core's, for lane 0."),
        port("fill_count", Output, 17, "17", "Lane 0's fill counter of fill_bank."),
        port("busy", Output, 1, "1", "Lane 0's."),
    ];
    // A counting filter's counter access (contract section 7.8): lane 0's.
    if params.counter_bits > 1 {
        ports.extend(crate::ports::ports_of(
            &[crate::ports::counter_group()],
            params,
        ));
    }
    ports
}
