//! `bloom_axis`: the core behind AXI4-Stream request and response streams and
//! an AXI4-Lite register block (the map: ip/rdl/bloom_axis.rdl, here as
//! `regmap`).
//!
//! Streams: `s_axis` feeds the core's request port field for field (tdata the
//! key, tuser the op code, tid the tag) and the core's response port feeds
//! `m_axis` (tdata bit 0 the hit, tid the tag, tlast 1), each through a
//! registered stage, so that the core's handshakes stay local and no path
//! of the core reaches a stream port or the reverse:
//! - requests: a two-entry FIFO (`pair_fifo::PairControl`), its entries loaded
//!   with enables from registers only: `s_axis_tready` and the core's
//!   req_valid are flip-flops, the core's key, op and tag a 2:1 multiplexer of
//!   flip-flops, and the core's req_ready reaches only the FIFO's few control
//!   flip-flops (a skid buffer's output stage would need req_ready on the
//!   enable of every payload bit);
//! - responses: a two-entry FIFO (`pair_fifo::PairControl`) whose entries are
//!   written straight from the core's response port: the core's resp_ready
//!   and `m_axis_tvalid` are flip-flops.
//!
//! Each adds one cycle: latency 9 cycles from a request taken on s_axis to its
//! response presented on m_axis (the core's 7 and 2; [`stream_timing`], the
//! TIMING register), initiation interval 1 (any mix, while m_axis_tready
//! stays high), at most 12 requests taken and not yet answered under
//! backpressure (the core's 8 and 2 in each FIFO), nothing lost
//! or reordered.
//!
//! The registers reach the core through the same ports:
//! - COMMAND.clear raises `clear_pending`; the clear enters the request
//!   FIFO ahead of s_axis (s_axis_tready is low from the write until it is
//!   in), so it reaches the core in stream order, and its response is
//!   dropped instead of sent on m_axis: taken from the core, never written
//!   into the response FIFO. Which responses to drop is a ring of 8 entries
//!   (the core holds at most 8 requests unanswered), one written (at the
//!   one-hot `write_at`, the cycle after, from registers) for every request
//!   the core takes and one read (at `read_at`) for every response it gives:
//!   bit `drop` marks a register clear, bit `query` a query (op 0) for the
//!   HITS counter. The head entry is kept in registers (`head_drop`,
//!   `head_query`), recomputed every cycle from the ring and whether a
//!   response is taken. An entry is written at least 6 cycles before its
//!   response: the head registers always see it.
//! - A BIT_ADDR write arms a bit access (a readback, with BIT_ADDR.write also
//!   a bit write: the core's rb_write, rb_wdata); `rb_req` (which keeps the
//!   core from taking a request in that cycle) is a register, set when an
//!   access is armed, the core is not busy, no clear is pending and the
//!   request FIFO is empty: s_axis is closed from the write until the access
//!   is issued, so it takes effect after every request taken before the
//!   write and before every request taken after. Should the core still be
//!   busy when rb_req is high (a reset), it drops a write and its read is
//!   not valid: the access stays armed, its result is discarded and it is
//!   issued again. Its bit lands in BIT_DATA `readback_latency` cycles after rb_req.
//!   No AXI4-Lite write is taken while an access is armed, so an acknowledged
//!   bit write is never overwritten before it reaches the core, and accesses
//!   and clears reach the core in the order they were written. A BIT_ADDR
//!   write while one is in flight (issued, result not yet back) discards the
//!   older result.
//! - FILL[i]: the read address drives the core's fill_bank (registered) and
//!   fill_count is registered before it joins the read data.
//!
//! AXI4-Lite, one transaction at a time per direction, every decision taken
//! from registers:
//! - write: awready and wready rise together, from a register, two cycles
//!   after both valids are seen while `write_idle` (a register: no write in
//!   progress, no bit access armed); the address and strobes are decoded
//!   into select registers (`wsel_*`) loaded in every cycle while idle, like
//!   the read side's. The cycle between (`write_seen`) lets the write's
//!   actions be loaded from registers alone: write_seen AND a select (the
//!   master holds address and data until ready). Acting in the cycle after
//!   the valids, decoding the address on the way, the action's register
//!   took three LUT levels, the slowest path of the wrapper in 7 HX8K seeds
//!   of 15. bvalid/bresp follow the ready cycle.
//! - read: arready rises from a register the cycle after arvalid; the read
//!   address is decoded into one-hot select registers (held during the
//!   read); the data is an AND-OR of selects and values, registered, one
//!   cycle after arready; rvalid then. Idle is a register loaded from the
//!   next values of the three state registers (read_go, read_data, rvalid),
//!   which alone have a reset: no enable on the read side sees reset or
//!   rready. The write cycle's actions (COMMAND, BIT_ADDR, BIT_COUNT) are
//!   registers loaded the same way, so that each enable of the registers
//!   they load is a flip-flop.
//! - counters (`EventCounter`) register their events (a request taken on
//!   s_axis, an insert taken, a query hit taken on m_axis) and their zero:
//!   an event is counted two cycles after it happens. Counters are
//!   statistics; a read's address is taken at least a cycle after the
//!   master saw the event, and its data two cycles after that, so a read
//!   always includes the events seen before it. COMMAND.zero_counters (and
//!   reset) zeroes them two cycles after the write, winning over a count in
//!   the same cycle.
//!
//! No output depends combinationally on an input of the same interface.
//! Reset (aresetn, active low) is registered, in four flip-flops loaded alike:
//! one drives the core, one the streams' FIFOs and the ring, one the counters'
//! zero, one the AXI4-Lite side and the bit access.
//!
//! Memory: none of its own (the ring, the FIFOs and the registers are
//! flip-flops).

use rust_hdl::prelude::*;

use super::event_counter::EventCounter;
use super::interface::{AxiClocking, AxiLite, AxisRequest, AxisResponse};
use super::pair_fifo::{PairControl, PairReg};
use super::regmap as map;
use super::zero_extend::ZeroExtend;
use crate::bridge::core_box::CountingBox;
use crate::CoreParams;

#[derive(LogicBlock)]
pub struct BloomAxis<const W: usize> {
    pub sys: AxiClocking<W>,
    pub s_axis: AxisRequest<W>,
    pub m_axis: AxisResponse<W>,
    pub s_axil: AxiLite<W>,
    /// The core, with a counting core's ports (behind a plain core the box ties
    /// the counter outputs to 0).
    core: CountingBox<W>,
    clock: Signal<Local, Clock>,
    /// !aresetn, registered.
    reset: DFF<bool>,
    /// The same, in flip-flops of their own (kept apart in synthesis,
    /// `KEPT_MODULES`) for the core, for the streams (the FIFOs and the ring)
    /// and for the counters' zero: one register driving every reset was the
    /// slowest path of the wrapper on iCE40 (3 ns of route to the far side).
    /// `reset` drives the AXI4-Lite side and the bit access.
    reset_core: DFF<bool>,
    reset_streams: DFF<bool>,
    reset_counters: DFF<bool>,
    // ---- Requests into the core: a two-entry FIFO, its
    // input s_axis or, while `clear_pending`, a clear from COMMAND.
    req_ctl: PairControl,
    req_key: PairReg<Bits<W>>,
    req_op: PairReg<Bits<2>>,
    req_tag: PairReg<Bits<8>>,
    /// The beat is a clear from COMMAND (its response is dropped).
    req_drop: PairReg<bool>,
    clear_pending: DFF<bool>,
    clear_next: Signal<Local, bool>,
    armed_next: Signal<Local, bool>,
    in_op: Signal<Local, Bits<2>>,
    /// s_axis hands over a request this cycle.
    take: Signal<Local, bool>,
    // ---- Responses out of the core: a two-entry FIFO toward m_axis, its
    // entries written straight from the core's response port.
    resp_ctl: PairControl,
    resp_hit: PairReg<bool>,
    resp_tag: PairReg<Bits<8>>,
    /// The response answers a query (op 0): for the HITS counter.
    resp_query: PairReg<bool>,
    // ---- The ring of outstanding requests (see the header).
    drop: DFF<Bits<8>>,
    query: DFF<Bits<8>>,
    write_at: DFF<Bits<8>>,
    read_at: DFF<Bits<8>>,
    head_drop: DFF<bool>,
    head_query: DFF<bool>,
    pop: Signal<Local, bool>,
    send: Signal<Local, bool>,
    read_next: Signal<Local, Bits<8>>,
    write_next: Signal<Local, Bits<8>>,
    // ---- Counters and their registered events.
    ops: EventCounter,
    inserts: EventCounter,
    hits: EventCounter,
    /// The core took a request (a register clear if `took_clear`, a query if `took_query`) in the cycle before.
    accepted: DFF<bool>,
    took_clear: DFF<bool>,
    took_query: DFF<bool>,
    /// Zero the counters (COMMAND.zero_counters or reset).
    zero_now: Signal<Local, bool>,
    // ---- Bit readback: BIT_ADDR and BIT_DATA as they read, and the core's readback port.
    bit_addr: DFF<Bits<32>>,
    bit_data: DFF<Bits<32>>,
    rb_armed: DFF<bool>,
    rb_waiting: DFF<bool>,
    rb_req: DFF<bool>,
    rb_bank: DFF<Bits<4>>,
    rb_addr: DFF<Bits<16>>,
    rb_write: DFF<bool>,
    rb_wdata: DFF<bool>,
    /// BIT_COUNT: the counter value a counting core's bit write writes (the
    /// core's counter_wdata, straight from this register: no write is taken
    /// while an access is armed, so it holds until the access is issued).
    bit_count: DFF<Bits<8>>,
    /// The counter the readback read, as a word (bits 7:0).
    rb_counter: ZeroExtend<8, 32>,
    /// BIT_DATA's value and counter fields from the core's readback result: the
    /// counter read (a counting core), or the bit as a counter (a plain core).
    bit_data_value: Signal<Local, Bits<32>>,
    bit_data_counter: Signal<Local, Bits<32>>,
    // ---- AXI4-Lite write side: idle -> write_seen -> write_go (awready,
    // wready) -> bvalid.
    write_seen: DFF<bool>,
    write_go: DFF<bool>,
    bvalid: DFF<bool>,
    bresp: DFF<Bits<2>>,
    /// Both valids seen while idle: awready and wready rise two cycles later.
    write_start: Signal<Local, bool>,
    /// No write in progress (none taken and unanswered) and no bit access
    /// armed: a write may start. A register of its own, so that write_start
    /// is one gate.
    write_idle: DFF<bool>,
    /// The write address (and full strobes) selects COMMAND, BIT_ADDR,
    /// BIT_COUNT: loaded while write_idle, so held through write_seen and write_go.
    wsel_command: DFF<bool>,
    wsel_bit_addr: DFF<bool>,
    wsel_bit_count: DFF<bool>,
    /// The write acts on COMMAND, on BIT_ADDR (also high during reset: it
    /// loads BIT_ADDR's and BIT_DATA's reset values), on BIT_COUNT: write_go
    /// and a select.
    do_command: Signal<Local, bool>,
    do_bit_addr: Signal<Local, bool>,
    do_bit_count: Signal<Local, bool>,
    /// do_command, do_bit_addr, do_bit_count as flip-flops, loaded in the
    /// write_seen cycle from write_seen and the selects: do_bit_addr enables some 90
    /// flip-flops (BIT_ADDR, BIT_DATA, the access), a net nextpnr promotes to
    /// a global buffer, and a LUT in front of that route was the slowest path
    /// of the wrapper on iCE40.
    act_command: DFF<bool>,
    act_bit_addr: DFF<bool>,
    act_bit_count: DFF<bool>,
    /// The write cycle's COMMAND.clear and COMMAND.zero_counters (or the
    /// reset, for the counters), loaded the same way: the counters' zero
    /// and the pending clear are then each a flip-flop, not a gate of the
    /// action, a data bit and the reset.
    act_clear: DFF<bool>,
    act_zero: DFF<bool>,
    // ---- AXI4-Lite read side: idle -> read_go (arready) -> read_data -> rvalid.
    /// None of read_go, read_data, rvalid: no read in progress. A register,
    /// loaded from the three's next values, so that neither reset nor rready
    /// reaches an enable on the read side, and the selects' enable is a
    /// flip-flop.
    read_idle: DFF<bool>,
    read_go: DFF<bool>,
    read_data: DFF<bool>,
    rvalid: DFF<bool>,
    rresp: DFF<Bits<2>>,
    rdata: DFF<Bits<32>>,
    /// One-hot read selects, decoded from the read address while idle.
    sel_id: DFF<bool>,
    sel_version: DFF<bool>,
    sel_config: DFF<bool>,
    sel_seed_lo: DFF<bool>,
    sel_seed_hi: DFF<bool>,
    sel_timing: DFF<bool>,
    sel_status: DFF<bool>,
    sel_bit_addr: DFF<bool>,
    sel_bit_data: DFF<bool>,
    sel_ops: DFF<bool>,
    sel_inserts: DFF<bool>,
    sel_hits: DFF<bool>,
    sel_fill: DFF<bool>,
    sel_bit_count: DFF<bool>,
    sel_saturated: DFF<bool>,
    sel_none: DFF<bool>,
    fill_bank: DFF<Bits<4>>,
    fill_q: DFF<Bits<32>>,
    fill_word: ZeroExtend<17, 32>,
    /// SATURATED[fill_bank], registered like fill_q.
    saturated_q: DFF<Bits<32>>,
    saturated_word: ZeroExtend<17, 32>,
    bit_count_word: ZeroExtend<8, 32>,
    status_word: Signal<Local, Bits<32>>,
    read_word: Signal<Local, Bits<6>>,
    write_word: Signal<Local, Bits<6>>,
    // One term of the read data each: the value if selected, else 0.
    term_fixed: Signal<Local, Bits<32>>,
    term_status: Signal<Local, Bits<32>>,
    term_bit_addr: Signal<Local, Bits<32>>,
    term_bit_data: Signal<Local, Bits<32>>,
    term_ops: Signal<Local, Bits<32>>,
    term_inserts: Signal<Local, Bits<32>>,
    term_hits: Signal<Local, Bits<32>>,
    term_fill: Signal<Local, Bits<32>>,
    term_bit_count: Signal<Local, Bits<32>>,
    term_saturated: Signal<Local, Bits<32>>,
    /// Inputs AXI4-Lite defines and this block does not need (the protection
    /// types, the byte offset within a word), read here only: Verilator's lint
    /// passes over signals whose name contains `unused`.
    unused_axil: Signal<Local, bool>,
    /// FIFO outputs this block does not need (entries read only through
    /// the presented one, the response FIFO's `open`).
    unused_fifos: Signal<Local, bool>,
    // Word addresses (byte address / 4) of the registers.
    word_id: Constant<Bits<6>>,
    word_version: Constant<Bits<6>>,
    word_config: Constant<Bits<6>>,
    word_seed_lo: Constant<Bits<6>>,
    word_seed_hi: Constant<Bits<6>>,
    word_timing: Constant<Bits<6>>,
    word_status: Constant<Bits<6>>,
    word_command: Constant<Bits<6>>,
    word_bit_addr: Constant<Bits<6>>,
    word_bit_data: Constant<Bits<6>>,
    word_ops: Constant<Bits<6>>,
    word_inserts: Constant<Bits<6>>,
    word_hits: Constant<Bits<6>>,
    word_bit_count: Constant<Bits<6>>,
    /// FILL[0..16] is the aligned block of words whose bits 5:4 are this.
    fill_block: Constant<Bits<2>>,
    /// SATURATED[0..16] likewise.
    saturated_block: Constant<Bits<2>>,
    /// A plain core (counter_bits 1): BIT_DATA.counter is the bit.
    plain_core: Constant<bool>,
    // Registers whose value is fixed when the core is generated.
    value_id: Constant<Bits<32>>,
    value_version: Constant<Bits<32>>,
    value_config: Constant<Bits<32>>,
    value_seed_lo: Constant<Bits<32>>,
    value_seed_hi: Constant<Bits<32>>,
    value_timing: Constant<Bits<32>>,
    // Fields the hardware writes or reads: positions (lsb) and masks.
    at_command_clear: Constant<Bits<5>>,
    at_command_zero: Constant<Bits<5>>,
    at_bit_addr_addr: Constant<Bits<5>>,
    at_bit_addr_bank: Constant<Bits<5>>,
    at_bit_addr_write: Constant<Bits<5>>,
    at_bit_addr_wdata: Constant<Bits<5>>,
    mask_status_busy: Constant<Bits<32>>,
    mask_bit_addr: Constant<Bits<32>>,
    mask_bit_data_value: Constant<Bits<32>>,
    mask_bit_data_valid: Constant<Bits<32>>,
    /// BIT_DATA.counter = 1 (a plain core's set bit).
    mask_bit_data_counter_one: Constant<Bits<32>>,
    zero_32: Constant<Bits<32>>,
    zero_8: Constant<Bits<8>>,
    one_8: Constant<Bits<8>>,
    all_strobes: Constant<Bits<4>>,
    op_insert: Constant<Bits<2>>,
    op_query: Constant<Bits<2>>,
    op_clear: Constant<Bits<2>>,
    resp_okay: Constant<Bits<2>>,
    resp_slverr: Constant<Bits<2>>,
}

/// The blocks synthesis must keep whole (`(* keep_hierarchy *)`, by
/// `keep_for_synthesis` in axi/mod.rs), because they hold a register loaded alike
/// with another, which synthesis would merge into one flip-flop fanning out
/// across the chip:
/// - the three event counters (their zero registers; merged, one flip-flop
///   reached all 99 counter bits);
/// - the copies of the reset register (merged, one flip-flop drove every reset).
pub const KEPT_MODULES: [&str; 6] = [
    "ops",
    "inserts",
    "hits",
    "reset_core",
    "reset_streams",
    "reset_counters",
];

/// A register's 32-bit word index as a 6-bit constant (the map spans 64 words).
fn word(r: &super::regs::RegisterDef) -> Constant<Bits<6>> {
    Constant::new(r.word().into())
}

fn at(f: &super::regs::FieldDef) -> Constant<Bits<5>> {
    Constant::new((f.lsb as u64).into())
}

fn mask(fields: &[super::regs::FieldDef]) -> Constant<Bits<32>> {
    value(fields.iter().fold(0, |m, f| m | f.mask()))
}

fn value(v: u32) -> Constant<Bits<32>> {
    Constant::new((v as u64).into())
}

/// The timing of `bloom_axis` on its streams, in clock cycles: the core's
/// (docs/core.md) plus the two two-entry FIFOs, one in front of the core's
/// request port and one behind its response port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StreamTiming {
    /// A request taken on s_axis in cycle t is presented on m_axis in cycle
    /// t + latency when m_axis_tready is high: the core's latency, one cycle
    /// in each FIFO.
    pub latency: u32,
    /// Requests taken on s_axis and not yet answered on m_axis, at most: the
    /// core's response_fifo_depth and two in each FIFO; s_axis_tready is low
    /// while this many are outstanding.
    pub outstanding: u32,
    /// A bit access issued to the core (rb_req) in cycle t lands in BIT_DATA
    /// at the end of cycle t + readback_latency: the core's.
    pub readback_latency: u32,
}

/// The stream timing of the wrapper of a core with `params`.
pub fn stream_timing(params: &CoreParams) -> StreamTiming {
    let t = crate::Timing::of(params);
    StreamTiming {
        latency: t.latency + 2,
        outstanding: t.response_fifo_depth + 4,
        readback_latency: t.readback_latency,
    }
}

/// The CONFIG, SEED_LO, SEED_HI and TIMING words of a core.
pub fn fixed_words(params: &CoreParams) -> [(super::regs::RegisterDef, u32); 6] {
    let t = stream_timing(params);
    let hash = map::CONFIG_HASH
        .encode
        .and_then(|e| e.iter().find(|(n, _)| *n == params.hash.name()))
        .map(|(_, v)| *v)
        .expect("every hash family has its code in the register map");
    [
        (map::ID, map::ID.reset_value().expect("ID is a constant")),
        (
            map::VERSION,
            map::VERSION.reset_value().expect("VERSION is a constant"),
        ),
        (
            map::CONFIG,
            map::CONFIG_K.place(params.k as u64)
                | map::CONFIG_BANK_BITS.place(params.bank_bits as u64)
                | map::CONFIG_KEY_BITS.place(params.key_bits as u64)
                | map::CONFIG_HASH.place(hash)
                | map::CONFIG_COUNTER_BITS.place(params.counter_bits as u64),
        ),
        (
            map::SEED_LO,
            map::SEED_LO_SEED.place(params.seed & 0xffff_ffff),
        ),
        (map::SEED_HI, map::SEED_HI_SEED.place(params.seed >> 32)),
        (
            map::TIMING,
            map::TIMING_LATENCY.place(t.latency as u64)
                | map::TIMING_READBACK_LATENCY.place(t.readback_latency as u64)
                | map::TIMING_RESPONSE_FIFO_DEPTH.place(t.outstanding as u64),
        ),
    ]
}

impl<const W: usize> BloomAxis<W> {
    /// The wrapper of a core with `params` (key_bits = W), whose Verilog module
    /// `core_top` is supplied beside the wrapper's.
    pub fn new(params: &CoreParams, core_top: &str) -> Self {
        assert_eq!(
            params.key_bits as usize, W,
            "the wrapper is built with W = key_bits"
        );
        assert_eq!(map::FILL.stride, 4);
        assert_eq!(map::FILL.count, 16);
        assert_eq!(
            map::FILL.offset % 64,
            0,
            "FILL is an aligned block of 16 words"
        );
        assert_eq!(
            (map::FILL_COUNT.lsb, map::FILL_COUNT.width),
            (0, 17),
            "FILL.count is fill_count, zero-extended"
        );
        assert_eq!((map::SATURATED.stride, map::SATURATED.count), (4, 16));
        assert_eq!(
            map::SATURATED.offset % 64,
            0,
            "SATURATED is an aligned block of 16 words"
        );
        assert_eq!(
            (map::SATURATED_COUNT.lsb, map::SATURATED_COUNT.width),
            (0, 17),
            "SATURATED.count is counter_saturated, zero-extended"
        );
        assert_eq!(
            (map::BIT_DATA_COUNTER.lsb, map::BIT_DATA_COUNTER.width),
            (8, 8),
            "BIT_DATA.counter is counter_rdata at bit 8"
        );
        assert_eq!(
            (map::BIT_COUNT_VALUE.lsb, map::BIT_COUNT_VALUE.width),
            (0, 8),
            "BIT_COUNT.value is counter_wdata"
        );
        let [id, version, config, seed_lo, seed_hi, timing] = fixed_words(params).map(|(_, v)| v);
        Self {
            sys: Default::default(),
            s_axis: Default::default(),
            m_axis: Default::default(),
            s_axil: Default::default(),
            core: CountingBox::new(String::new(), core_top.to_string(), params),
            clock: Default::default(),
            reset: Default::default(),
            reset_core: Default::default(),
            reset_streams: Default::default(),
            reset_counters: Default::default(),
            req_ctl: Default::default(),
            req_key: Default::default(),
            req_op: Default::default(),
            req_tag: Default::default(),
            req_drop: Default::default(),
            clear_pending: Default::default(),
            clear_next: Default::default(),
            armed_next: Default::default(),
            in_op: Default::default(),
            take: Default::default(),
            resp_ctl: Default::default(),
            resp_hit: Default::default(),
            resp_tag: Default::default(),
            resp_query: Default::default(),
            drop: Default::default(),
            query: Default::default(),
            write_at: Default::default(),
            read_at: Default::default(),
            head_drop: Default::default(),
            head_query: Default::default(),
            pop: Default::default(),
            send: Default::default(),
            read_next: Default::default(),
            write_next: Default::default(),
            ops: Default::default(),
            inserts: Default::default(),
            hits: Default::default(),
            accepted: Default::default(),
            took_clear: Default::default(),
            took_query: Default::default(),
            zero_now: Default::default(),
            bit_addr: Default::default(),
            bit_data: Default::default(),
            rb_armed: Default::default(),
            rb_waiting: Default::default(),
            rb_req: Default::default(),
            rb_bank: Default::default(),
            rb_addr: Default::default(),
            rb_write: Default::default(),
            rb_wdata: Default::default(),
            bit_count: Default::default(),
            rb_counter: Default::default(),
            bit_data_value: Default::default(),
            bit_data_counter: Default::default(),
            write_seen: Default::default(),
            write_go: Default::default(),
            bvalid: Default::default(),
            bresp: Default::default(),
            write_start: Default::default(),
            write_idle: Default::default(),
            wsel_command: Default::default(),
            wsel_bit_addr: Default::default(),
            wsel_bit_count: Default::default(),
            do_command: Default::default(),
            do_bit_addr: Default::default(),
            do_bit_count: Default::default(),
            act_command: Default::default(),
            act_bit_addr: Default::default(),
            act_bit_count: Default::default(),
            act_clear: Default::default(),
            act_zero: Default::default(),
            read_idle: Default::default(),
            read_go: Default::default(),
            read_data: Default::default(),
            rvalid: Default::default(),
            rresp: Default::default(),
            rdata: Default::default(),
            sel_id: Default::default(),
            sel_version: Default::default(),
            sel_config: Default::default(),
            sel_seed_lo: Default::default(),
            sel_seed_hi: Default::default(),
            sel_timing: Default::default(),
            sel_status: Default::default(),
            sel_bit_addr: Default::default(),
            sel_bit_data: Default::default(),
            sel_ops: Default::default(),
            sel_inserts: Default::default(),
            sel_hits: Default::default(),
            sel_fill: Default::default(),
            sel_bit_count: Default::default(),
            sel_saturated: Default::default(),
            sel_none: Default::default(),
            fill_bank: Default::default(),
            fill_q: Default::default(),
            fill_word: Default::default(),
            saturated_q: Default::default(),
            saturated_word: Default::default(),
            bit_count_word: Default::default(),
            status_word: Default::default(),
            read_word: Default::default(),
            write_word: Default::default(),
            term_fixed: Default::default(),
            term_status: Default::default(),
            term_bit_addr: Default::default(),
            term_bit_data: Default::default(),
            term_ops: Default::default(),
            term_inserts: Default::default(),
            term_hits: Default::default(),
            term_fill: Default::default(),
            term_bit_count: Default::default(),
            term_saturated: Default::default(),
            unused_axil: Default::default(),
            unused_fifos: Default::default(),
            word_id: word(&map::ID),
            word_version: word(&map::VERSION),
            word_config: word(&map::CONFIG),
            word_seed_lo: word(&map::SEED_LO),
            word_seed_hi: word(&map::SEED_HI),
            word_timing: word(&map::TIMING),
            word_status: word(&map::STATUS),
            word_command: word(&map::COMMAND),
            word_bit_addr: word(&map::BIT_ADDR),
            word_bit_data: word(&map::BIT_DATA),
            word_ops: word(&map::COUNTERS_OPS),
            word_inserts: word(&map::COUNTERS_INSERTS),
            word_hits: word(&map::COUNTERS_HITS),
            word_bit_count: word(&map::BIT_COUNT),
            fill_block: Constant::new((map::FILL.word() >> 4).into()),
            saturated_block: Constant::new((map::SATURATED.word() >> 4).into()),
            plain_core: Constant::new(params.counter_bits <= 1),
            value_id: value(id),
            value_version: value(version),
            value_config: value(config),
            value_seed_lo: value(seed_lo),
            value_seed_hi: value(seed_hi),
            value_timing: value(timing),
            at_command_clear: at(&map::COMMAND_CLEAR),
            at_command_zero: at(&map::COMMAND_ZERO_COUNTERS),
            at_bit_addr_addr: at(&map::BIT_ADDR_ADDR),
            at_bit_addr_bank: at(&map::BIT_ADDR_BANK),
            at_bit_addr_write: at(&map::BIT_ADDR_WRITE),
            at_bit_addr_wdata: at(&map::BIT_ADDR_WDATA),
            mask_status_busy: mask(&[map::STATUS_BUSY]),
            mask_bit_addr: mask(map::BIT_ADDR.fields),
            mask_bit_data_value: mask(&[map::BIT_DATA_VALUE]),
            mask_bit_data_valid: mask(&[map::BIT_DATA_VALID]),
            mask_bit_data_counter_one: value(map::BIT_DATA_COUNTER.place(1)),
            zero_32: value(0),
            zero_8: Constant::new(0.into()),
            one_8: Constant::new(1.into()),
            all_strobes: Constant::new(15.into()),
            op_insert: Constant::new(1.into()),
            op_query: Constant::new(0.into()),
            op_clear: Constant::new(2.into()),
            resp_okay: Constant::new(0.into()),
            resp_slverr: Constant::new(2.into()),
        }
    }
}

impl<const W: usize> Logic for BloomAxis<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.clock.next = self.sys.aclk.val();
        dff_setup!(
            self,
            clock,
            reset,
            reset_core,
            reset_streams,
            reset_counters,
            clear_pending,
            drop,
            query,
            write_at,
            read_at,
            head_drop,
            head_query,
            accepted,
            took_clear,
            took_query,
            bit_addr,
            bit_data,
            rb_armed,
            rb_waiting,
            rb_req,
            rb_bank,
            rb_addr,
            rb_write,
            rb_wdata,
            bit_count,
            write_seen,
            write_go,
            write_idle,
            bvalid,
            bresp,
            wsel_command,
            wsel_bit_addr,
            wsel_bit_count,
            act_command,
            act_bit_addr,
            act_bit_count,
            act_clear,
            act_zero,
            read_idle,
            read_go,
            read_data,
            rvalid,
            rresp,
            rdata,
            sel_id,
            sel_version,
            sel_config,
            sel_seed_lo,
            sel_seed_hi,
            sel_timing,
            sel_status,
            sel_bit_addr,
            sel_bit_data,
            sel_ops,
            sel_inserts,
            sel_hits,
            sel_fill,
            sel_bit_count,
            sel_saturated,
            sel_none,
            fill_bank,
            fill_q,
            saturated_q
        );
        self.reset.d.next = !self.sys.aresetn.val();
        self.reset_core.d.next = !self.sys.aresetn.val();
        self.reset_streams.d.next = !self.sys.aresetn.val();
        self.reset_counters.d.next = !self.sys.aresetn.val();
        // The write cycle's actions (see the AXI4-Lite write below), ahead of
        // their readers: write_go and a select, or the reset (loaded at the end).
        self.do_command.next = self.act_command.q.val();
        self.do_bit_addr.next = self.act_bit_addr.q.val();
        self.do_bit_count.next = self.act_bit_count.q.val();

        // ---- The core's inputs, every one a register (of the FIFOs or of
        // this block) or an input of this block, never logic that reads the
        // core's outputs: no always block of the Verilog both reads an output
        // of the core and drives an input of it.
        Signal::<In, Clock>::link(&mut self.sys.aclk, &mut self.core.sys.clock);
        Signal::<Out, bool>::join(&mut self.reset_core.q, &mut self.core.sys.reset);
        Signal::<Out, bool>::join(&mut self.req_ctl.out_valid, &mut self.core.io.req.valid);
        Signal::<Out, Bits<W>>::join(&mut self.req_key.value_out, &mut self.core.io.req.key);
        Signal::<Out, Bits<2>>::join(&mut self.req_op.value_out, &mut self.core.io.req.op);
        Signal::<Out, Bits<8>>::join(&mut self.req_tag.value_out, &mut self.core.io.req.tag);
        Signal::<Out, bool>::join(&mut self.resp_ctl.in_ready, &mut self.core.io.resp.ready);
        Signal::<Out, bool>::join(&mut self.rb_req.q, &mut self.core.io.rb.req);
        Signal::<Out, Bits<4>>::join(&mut self.rb_bank.q, &mut self.core.io.rb.bank);
        Signal::<Out, Bits<16>>::join(&mut self.rb_addr.q, &mut self.core.io.rb.addr);
        Signal::<Out, bool>::join(&mut self.rb_write.q, &mut self.core.io.rb.write);
        Signal::<Out, bool>::join(&mut self.rb_wdata.q, &mut self.core.io.rb.wdata);
        Signal::<Out, Bits<4>>::join(&mut self.fill_bank.q, &mut self.core.io.fill.bank);
        Signal::<Out, Bits<17>>::join(&mut self.core.io.fill.count, &mut self.fill_word.narrow);
        Signal::<Out, Bits<8>>::join(&mut self.bit_count.q, &mut self.core.counter.wdata);
        Signal::<Out, Bits<17>>::join(
            &mut self.core.counter.saturated,
            &mut self.saturated_word.narrow,
        );
        Signal::<Out, Bits<8>>::join(&mut self.core.counter.rdata, &mut self.rb_counter.narrow);

        // ---- Requests: s_axis, or a pending clear, into the request FIFO.
        self.req_ctl.clock.next = self.clock.val();
        self.req_key.clock.next = self.clock.val();
        self.req_op.clock.next = self.clock.val();
        self.req_tag.clock.next = self.clock.val();
        self.req_drop.clock.next = self.clock.val();
        self.req_ctl.reset.next = self.reset_streams.q.val();
        self.req_ctl.out_ready.next = self.core.io.req.ready.val();
        self.s_axis.tready.next = self.req_ctl.open.val();
        self.take.next = self.s_axis.tvalid.val() & self.req_ctl.open.val();
        self.req_ctl.in_valid.next = self.clear_pending.q.val() | self.take.val();
        self.in_op.next = self.s_axis.tuser.val();
        if self.clear_pending.q.val() {
            self.in_op.next = self.op_clear.val();
        }
        self.req_key.value_in.next = self.s_axis.tdata.val();
        self.req_op.value_in.next = self.in_op.val();
        self.req_tag.value_in.next = self.s_axis.tid.val();
        self.req_drop.value_in.next = self.clear_pending.q.val();
        self.req_key.write_0.next = self.req_ctl.write_0.val();
        self.req_key.write_1.next = self.req_ctl.write_1.val();
        self.req_key.read_1.next = self.req_ctl.read_1.val();
        self.req_op.write_0.next = self.req_ctl.write_0.val();
        self.req_op.write_1.next = self.req_ctl.write_1.val();
        self.req_op.read_1.next = self.req_ctl.read_1.val();
        self.req_tag.write_0.next = self.req_ctl.write_0.val();
        self.req_tag.write_1.next = self.req_ctl.write_1.val();
        self.req_tag.read_1.next = self.req_ctl.read_1.val();
        self.req_drop.write_0.next = self.req_ctl.write_0.val();
        self.req_drop.write_1.next = self.req_ctl.write_1.val();
        self.req_drop.read_1.next = self.req_ctl.read_1.val();
        // A clear waits for the request FIFO's input (s_axis is closed meanwhile); an
        // armed bit access closes s_axis too, until it is issued.
        self.clear_next.next =
            (self.clear_pending.q.val() & !self.req_ctl.in_ready.val()) | self.act_clear.q.val();
        self.armed_next.next = (self.rb_armed.q.val()
            & !(self.rb_req.q.val() & !self.core.io.status.busy.val()))
            | self.do_bit_addr.val();
        self.req_ctl.hold.next = self.clear_next.val() | self.armed_next.val();
        self.clear_pending.d.next = self.clear_next.val();

        // ---- Responses: the core's into the response FIFO, but a register
        // clear's, which is taken from the core and dropped.
        self.resp_ctl.clock.next = self.clock.val();
        self.resp_hit.clock.next = self.clock.val();
        self.resp_tag.clock.next = self.clock.val();
        self.resp_query.clock.next = self.clock.val();
        self.resp_ctl.reset.next = self.reset_streams.q.val();
        self.resp_ctl.out_ready.next = self.m_axis.tready.val();
        self.resp_ctl.hold.next = false;
        self.resp_ctl.in_valid.next = self.core.io.resp.valid.val() & !self.head_drop.q.val();
        self.resp_hit.value_in.next = self.core.io.resp.hit.val();
        self.resp_tag.value_in.next = self.core.io.resp.tag.val();
        self.resp_query.value_in.next = self.head_query.q.val();
        self.resp_hit.write_0.next = self.resp_ctl.write_0.val();
        self.resp_tag.write_0.next = self.resp_ctl.write_0.val();
        self.resp_query.write_0.next = self.resp_ctl.write_0.val();
        self.resp_hit.write_1.next = self.resp_ctl.write_1.val();
        self.resp_tag.write_1.next = self.resp_ctl.write_1.val();
        self.resp_query.write_1.next = self.resp_ctl.write_1.val();
        self.resp_hit.read_1.next = self.resp_ctl.read_1.val();
        self.resp_tag.read_1.next = self.resp_ctl.read_1.val();
        self.resp_query.read_1.next = self.resp_ctl.read_1.val();
        self.m_axis.tvalid.next = self.resp_ctl.out_valid.val();
        self.m_axis.tdata.next = self.zero_8.val();
        if self.resp_hit.value_out.val() {
            self.m_axis.tdata.next = self.one_8.val();
        }
        self.m_axis.tid.next = self.resp_tag.value_out.val();
        self.m_axis.tlast.next = true;
        self.pop.next = self.core.io.resp.valid.val() & self.resp_ctl.in_ready.val();
        self.send.next = self.resp_ctl.out_valid.val() & self.m_axis.tready.val();

        // The ring: write at write_at when the core takes a request, advance
        // read_at when it gives a response; the head registers follow read_at.
        self.write_next.next = (self.write_at.q.val() << 1) | (self.write_at.q.val() >> 7);
        self.read_next.next = (self.read_at.q.val() << 1) | (self.read_at.q.val() >> 7);
        self.accepted.d.next = self.req_ctl.out_valid.val() & self.core.io.req.ready.val();
        self.took_clear.d.next = self.req_drop.value_out.val();
        self.took_query.d.next = self.req_op.value_out.val() == self.op_query.val();
        if self.accepted.q.val() {
            self.write_at.d.next = self.write_next.val();
            if self.took_clear.q.val() {
                self.drop.d.next = self.drop.q.val() | self.write_at.q.val();
            } else {
                self.drop.d.next = self.drop.q.val() & !self.write_at.q.val();
            }
            if self.took_query.q.val() {
                self.query.d.next = self.query.q.val() | self.write_at.q.val();
            } else {
                self.query.d.next = self.query.q.val() & !self.write_at.q.val();
            }
        }
        self.head_drop.d.next = (self.drop.q.val() & self.read_at.q.val()).any();
        self.head_query.d.next = (self.query.q.val() & self.read_at.q.val()).any();
        if self.pop.val() {
            self.read_at.d.next = self.read_next.val();
            self.head_drop.d.next = (self.drop.q.val() & self.read_next.val()).any();
            self.head_query.d.next = (self.query.q.val() & self.read_next.val()).any();
        }

        // ---- Counters: they register their events and zero themselves.
        self.ops.clock.next = self.clock.val();
        self.inserts.clock.next = self.clock.val();
        self.hits.clock.next = self.clock.val();
        self.zero_now.next = self.act_zero.q.val();
        self.ops.step.next = self.take.val() | self.zero_now.val();
        self.inserts.step.next = (self.take.val()
            & (self.s_axis.tuser.val() == self.op_insert.val()))
            | self.zero_now.val();
        self.hits.step.next =
            (self.send.val() & self.resp_hit.value_out.val() & self.resp_query.value_out.val())
                | self.zero_now.val();
        self.ops.zero.next = self.zero_now.val();
        self.inserts.zero.next = self.zero_now.val();
        self.hits.zero.next = self.zero_now.val();

        // ---- Bit readback (see the header): issued when nothing taken
        // before it is still on its way into the core.
        self.rb_req.d.next = self.rb_armed.q.val()
            & !self.rb_waiting.q.val()
            & !self.rb_req.q.val()
            & !self.core.io.status.busy.val()
            & !self.clear_pending.q.val()
            & !self.req_ctl.out_valid.val();
        if self.rb_req.q.val() {
            self.rb_waiting.d.next = true;
        }
        self.rb_armed.d.next = self.armed_next.val();
        self.bit_data_value.next = self.zero_32.val();
        if self.core.io.rb.data.val() {
            self.bit_data_value.next = self.mask_bit_data_value.val();
        }
        // Behind a plain core the box's counter is 0.
        self.bit_data_counter.next = self.rb_counter.wide.val() << 8;
        if self.plain_core.val() & self.core.io.rb.data.val() {
            self.bit_data_counter.next = self.mask_bit_data_counter_one.val();
        }
        if self.core.io.rb.valid.val() {
            self.rb_waiting.d.next = false;
            if !self.rb_armed.q.val() {
                self.bit_data.d.next = (self.mask_bit_data_valid.val() | self.bit_data_value.val())
                    | self.bit_data_counter.val();
            }
        }

        // ---- AXI4-Lite write.
        self.s_axil.awready.next = self.write_go.q.val();
        self.s_axil.wready.next = self.write_go.q.val();
        self.s_axil.bvalid.next = self.bvalid.q.val();
        self.s_axil.bresp.next = self.bresp.q.val();
        self.write_word.next = self.s_axil.awaddr.val().get_bits::<6>(2);
        self.write_start.next =
            self.s_axil.awvalid.val() & self.s_axil.wvalid.val() & self.write_idle.q.val();
        self.write_idle.d.next = !self.write_start.val()
            & !self.write_seen.q.val()
            & !self.write_go.q.val()
            & !(self.bvalid.q.val() & !self.s_axil.bready.val())
            & !self.armed_next.val();
        self.write_seen.d.next = self.write_start.val();
        self.write_go.d.next = self.write_seen.q.val();
        if self.write_idle.q.val() {
            self.wsel_command.d.next = (self.write_word.val() == self.word_command.val())
                & (self.s_axil.wstrb.val() == self.all_strobes.val());
            self.wsel_bit_addr.d.next = (self.write_word.val() == self.word_bit_addr.val())
                & (self.s_axil.wstrb.val() == self.all_strobes.val());
            self.wsel_bit_count.d.next = (self.write_word.val() == self.word_bit_count.val())
                & (self.s_axil.wstrb.val() == self.all_strobes.val());
        }
        if self.bvalid.q.val() & self.s_axil.bready.val() {
            self.bvalid.d.next = false;
        }
        if self.do_bit_count.val() {
            self.bit_count.d.next = self.s_axil.wdata.val().get_bits::<8>(0);
        }
        if self.write_go.q.val() {
            self.bvalid.d.next = true;
            self.bresp.d.next = self.resp_slverr.val();
            if (self.do_command.val() | self.do_bit_addr.val()) | self.do_bit_count.val() {
                self.bresp.d.next = self.resp_okay.val();
            }
        }
        if self.do_bit_addr.val() {
            self.bit_addr.d.next = self.s_axil.wdata.val() & self.mask_bit_addr.val();
            if self.reset.q.val() {
                self.bit_addr.d.next = self.zero_32.val();
            }
            self.rb_addr.d.next = self
                .s_axil
                .wdata
                .val()
                .get_bits::<16>(self.at_bit_addr_addr.val().index());
            self.rb_bank.d.next = self
                .s_axil
                .wdata
                .val()
                .get_bits::<4>(self.at_bit_addr_bank.val().index());
            self.rb_write.d.next = self
                .s_axil
                .wdata
                .val()
                .get_bit(self.at_bit_addr_write.val().index());
            self.rb_wdata.d.next = self
                .s_axil
                .wdata
                .val()
                .get_bit(self.at_bit_addr_wdata.val().index());
            self.bit_data.d.next = self.zero_32.val();
        }

        // ---- AXI4-Lite read.
        self.s_axil.arready.next = self.read_go.q.val();
        self.s_axil.rvalid.next = self.rvalid.q.val();
        self.s_axil.rresp.next = self.rresp.q.val();
        self.s_axil.rdata.next = self.rdata.q.val();
        self.read_word.next = self.s_axil.araddr.val().get_bits::<6>(2);
        // The selects load while idle: last in the cycle arvalid is seen, whose
        // address the master holds until arready.
        if self.read_idle.q.val() {
            self.fill_bank.d.next = self.s_axil.araddr.val().get_bits::<4>(2);
            self.sel_id.d.next = self.read_word.val() == self.word_id.val();
            self.sel_version.d.next = self.read_word.val() == self.word_version.val();
            self.sel_config.d.next = self.read_word.val() == self.word_config.val();
            self.sel_seed_lo.d.next = self.read_word.val() == self.word_seed_lo.val();
            self.sel_seed_hi.d.next = self.read_word.val() == self.word_seed_hi.val();
            self.sel_timing.d.next = self.read_word.val() == self.word_timing.val();
            self.sel_status.d.next = self.read_word.val() == self.word_status.val();
            self.sel_bit_addr.d.next = self.read_word.val() == self.word_bit_addr.val();
            self.sel_bit_data.d.next = self.read_word.val() == self.word_bit_data.val();
            self.sel_ops.d.next = self.read_word.val() == self.word_ops.val();
            self.sel_inserts.d.next = self.read_word.val() == self.word_inserts.val();
            self.sel_hits.d.next = self.read_word.val() == self.word_hits.val();
            self.sel_fill.d.next = self.read_word.val().get_bits::<2>(4) == self.fill_block.val();
            self.sel_bit_count.d.next = self.read_word.val() == self.word_bit_count.val();
            self.sel_saturated.d.next =
                self.read_word.val().get_bits::<2>(4) == self.saturated_block.val();
            self.sel_none.d.next = (self.read_word.val() != self.word_id.val())
                & (self.read_word.val() != self.word_version.val())
                & (self.read_word.val() != self.word_config.val())
                & (self.read_word.val() != self.word_seed_lo.val())
                & (self.read_word.val() != self.word_seed_hi.val())
                & (self.read_word.val() != self.word_timing.val())
                & (self.read_word.val() != self.word_status.val())
                & (self.read_word.val() != self.word_bit_addr.val())
                & (self.read_word.val() != self.word_bit_data.val())
                & (self.read_word.val() != self.word_ops.val())
                & (self.read_word.val() != self.word_inserts.val())
                & (self.read_word.val() != self.word_hits.val())
                & (self.read_word.val() != self.word_bit_count.val())
                & (self.read_word.val().get_bits::<2>(4) != self.fill_block.val())
                & (self.read_word.val().get_bits::<2>(4) != self.saturated_block.val());
        }
        self.fill_q.d.next = self.fill_word.wide.val();
        self.saturated_q.d.next = self.saturated_word.wide.val();
        self.bit_count_word.narrow.next = self.bit_count.q.val();
        self.read_go.d.next = self.s_axil.arvalid.val() & self.read_idle.q.val();
        // Set by the data, held until taken: a D input, not an enable.
        self.rvalid.d.next =
            self.read_data.q.val() | (self.rvalid.q.val() & !self.s_axil.rready.val());
        self.status_word.next = self.zero_32.val();
        if self.core.io.status.busy.val()
            | self.clear_pending.q.val()
            | (self.req_ctl.out_valid.val()
                & (self.req_drop.held_0.val() | self.req_drop.held_1.val()))
        {
            self.status_word.next = self.mask_status_busy.val();
        }
        self.term_fixed.next = self.zero_32.val();
        if self.sel_id.q.val() {
            self.term_fixed.next = self.value_id.val();
        }
        if self.sel_version.q.val() {
            self.term_fixed.next = self.value_version.val();
        }
        if self.sel_config.q.val() {
            self.term_fixed.next = self.value_config.val();
        }
        if self.sel_seed_lo.q.val() {
            self.term_fixed.next = self.value_seed_lo.val();
        }
        if self.sel_seed_hi.q.val() {
            self.term_fixed.next = self.value_seed_hi.val();
        }
        if self.sel_timing.q.val() {
            self.term_fixed.next = self.value_timing.val();
        }
        self.term_status.next = self.zero_32.val();
        if self.sel_status.q.val() {
            self.term_status.next = self.status_word.val();
        }
        self.term_bit_addr.next = self.zero_32.val();
        if self.sel_bit_addr.q.val() {
            self.term_bit_addr.next = self.bit_addr.q.val();
        }
        self.term_bit_data.next = self.zero_32.val();
        if self.sel_bit_data.q.val() {
            self.term_bit_data.next = self.bit_data.q.val();
        }
        self.term_ops.next = self.zero_32.val();
        if self.sel_ops.q.val() {
            self.term_ops.next = self.ops.value.val();
        }
        self.term_inserts.next = self.zero_32.val();
        if self.sel_inserts.q.val() {
            self.term_inserts.next = self.inserts.value.val();
        }
        self.term_hits.next = self.zero_32.val();
        if self.sel_hits.q.val() {
            self.term_hits.next = self.hits.value.val();
        }
        self.term_fill.next = self.zero_32.val();
        if self.sel_fill.q.val() {
            self.term_fill.next = self.fill_q.q.val();
        }
        self.term_bit_count.next = self.zero_32.val();
        if self.sel_bit_count.q.val() {
            self.term_bit_count.next = self.bit_count_word.wide.val();
        }
        self.term_saturated.next = self.zero_32.val();
        if self.sel_saturated.q.val() {
            self.term_saturated.next = self.saturated_q.q.val();
        }
        // The read data is loaded in the read_data cycle (its enable straight
        // from a register); rvalid rises with it, and the data then holds.
        self.read_data.d.next = self.read_go.q.val();
        if self.read_data.q.val() {
            self.rdata.d.next = self.term_fixed.val()
                | self.term_status.val()
                | self.term_bit_addr.val()
                | self.term_bit_data.val()
                | self.term_ops.val()
                | self.term_inserts.val()
                | self.term_hits.val()
                | self.term_fill.val()
                | self.term_bit_count.val()
                | self.term_saturated.val();
            self.rresp.d.next = self.resp_okay.val();
            if self.sel_none.q.val() {
                self.rresp.d.next = self.resp_slverr.val();
            }
        }

        self.unused_axil.next = self.s_axil.awprot.val().xor()
            ^ self.s_axil.arprot.val().xor()
            ^ self.s_axil.awaddr.val().get_bits::<2>(0).xor()
            ^ self.s_axil.araddr.val().get_bits::<2>(0).xor();
        self.unused_fifos.next = self.resp_ctl.open.val()
            ^ self.req_key.held_0.val().xor()
            ^ self.req_key.held_1.val().xor()
            ^ self.req_op.held_0.val().xor()
            ^ self.req_op.held_1.val().xor()
            ^ self.req_tag.held_0.val().xor()
            ^ self.req_tag.held_1.val().xor()
            ^ self.resp_hit.held_0.val()
            ^ self.resp_hit.held_1.val()
            ^ self.resp_tag.held_0.val().xor()
            ^ self.resp_tag.held_1.val().xor()
            ^ self.resp_query.held_0.val()
            ^ self.resp_query.held_1.val();

        // ---- Reset (BIT_ADDR and BIT_DATA: through do_bit_addr).
        if self.reset_streams.q.val() {
            self.clear_pending.d.next = false;
            self.drop.d.next = self.zero_8.val();
            self.query.d.next = self.zero_8.val();
            self.write_at.d.next = self.one_8.val();
            self.read_at.d.next = self.one_8.val();
            self.head_drop.d.next = false;
            self.head_query.d.next = false;
            self.accepted.d.next = false;
        }
        if self.reset.q.val() {
            self.rb_armed.d.next = false;
            self.rb_waiting.d.next = false;
            self.rb_req.d.next = false;
            self.write_seen.d.next = false;
            self.write_go.d.next = false;
            self.write_idle.d.next = false;
            self.bit_count.d.next = self.zero_8.val();
            self.bvalid.d.next = false;
            self.read_go.d.next = false;
            self.read_data.d.next = false;
            self.rvalid.d.next = false;
        }
        // Registers loaded from next values, after every assignment above.
        // The actions: write_go as it will be (write_seen, no reset) and a
        // select, held since idle; or the reset, as it will be. Written out
        // in each, not as write_go.d (and act_command.d in the last two): the
        // same logic, but Yosys and ABC then map the whole wrapper anew, and
        // that netlist put the core's response FIFO output three LUT levels
        // deep, not two, in front of the response entries (UP5K 68.47 MHz
        // median over 10 seeds, not 73.93; HX8K 168.27 over 15, not 176.12).
        self.act_command.d.next =
            (self.write_seen.q.val() & !self.reset.q.val()) & self.wsel_command.q.val();
        self.act_bit_addr.d.next = ((self.write_seen.q.val() & !self.reset.q.val())
            & self.wsel_bit_addr.q.val())
            | self.reset.d.val();
        self.act_bit_count.d.next =
            (self.write_seen.q.val() & !self.reset.q.val()) & self.wsel_bit_count.q.val();
        self.act_clear.d.next = ((self.write_seen.q.val() & !self.reset.q.val())
            & self.wsel_command.q.val())
            & self
                .s_axil
                .wdata
                .val()
                .get_bit(self.at_command_clear.val().index());
        self.act_zero.d.next = (((self.write_seen.q.val() & !self.reset.q.val())
            & self.wsel_command.q.val())
            & self
                .s_axil
                .wdata
                .val()
                .get_bit(self.at_command_zero.val().index()))
            | self.reset_counters.d.val();
        self.read_idle.d.next =
            !self.read_go.d.val() & !self.read_data.d.val() & !self.rvalid.d.val();
    }
}
