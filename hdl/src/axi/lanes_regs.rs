//! `bloom_lanes_regs`: the AXI4-Lite register block of `bloom_lanes_axis`
//! (hdl/src/axi/lanes.rs), the map of `bloom_axis` (ip/rdl/bloom_axis.rdl) served
//! for lanes. It is `bloom_axis`'s register parts, wired to lane 0's side ports and
//! to the face's beats instead of a core's requests:
//!
//! - [`ResetCopies`]: aresetn registered; `lanes_reset` is `bloom_lanes`'s reset;
//! - [`LiteWrite`], [`BitAccess`], [`LiteRead`]: the AXI4-Lite channels, BIT_ADDR,
//!   BIT_DATA, BIT_COUNT (lane 0's `rb_*` and counter ports: a bit write reaches
//!   every replica, as lane 0's writes do), STATUS, FILL[i] and SATURATED[i] (lane
//!   0's `fill_*`, `counter_saturated`);
//! - [`DropRing`]: which response beat answers a register clear (taken, not sent);
//! - OPS and HITS ([`AmountCounter`]: the operations of each beat taken on s_axis,
//!   the hits of each read beat's response sent on m_axis), INSERTS
//!   ([`EventCounter`]: beats taken with an insert in slot 0).
//!
//! COMMAND.clear raises `clear_beat` from the next cycle: the face closes s_axis
//! (`hold`) and presents a beat of one clear in slot 0 in its place; `clear_taken`
//! (bloom_lanes took it) lowers it. Its response beat is taken and dropped
//! (`resp_drop`). A bit access (BIT_ADDR write) closes s_axis the same way
//! (`hold`, from `BitAccess::armed_next`) until lane 0 takes it between beats.
//! COMMAND.scrub is ignored (lanes have no scrub; SCRUB_EVERY and SCRUB_MISMATCH
//! read 0, CONFIG.scrub is 0).
//!
//! Every output is a register or logic of registers, no input reaches an output
//! combinationally. Latency: as `bloom_axis`'s parts (lite_write.rs,
//! lite_read.rs, bit_access.rs); a count is in its register two cycles after its
//! beat. Memory: none (flip-flops).

use rust_hdl::prelude::*;

use super::amount_counter::AmountCounter;
use super::bit_access::BitAccess;
use super::drop_ring::DropRing;
use super::event_counter::EventCounter;
use super::interface::{AxiClocking, AxiLiteRead, AxiLiteWrite};
use super::lite_read::LiteRead;
use super::lite_write::LiteWrite;
use super::regmap as map;
use super::resets::ResetCopies;
use crate::ports::{FillDriver, ReadbackDriver};

/// Module name.
pub const LANES_REGS_TOP: &str = "bloom_lanes_regs";

#[derive(LogicBlock)]
pub struct LanesRegs<const W: usize> {
    pub sys: AxiClocking<W>,
    /// The AXI4-Lite slave `s_axil_*`: its write channels, then its read channels.
    pub s_axil_write: AxiLiteWrite<W>,
    pub s_axil_read: AxiLiteRead<W>,
    /// Lane 0's bank access and fill counters.
    pub rb: ReadbackDriver<W>,
    pub fill: FillDriver<W>,
    /// Lane 0's busy, its counters' saturated count of fill_bank, its counter
    /// access (a counting filter; 0 and unread otherwise).
    pub lanes_busy: Signal<In, bool>,
    pub counter_saturated: Signal<In, Bits<17>>,
    pub counter_rdata: Signal<In, Bits<8>>,
    pub counter_wdata: Signal<Out, Bits<8>>,
    /// `bloom_lanes`'s reset (aresetn registered).
    pub lanes_reset: Signal<Out, bool>,
    /// Keep s_axis closed: a register clear is pending or a bit access armed.
    pub hold: Signal<Out, bool>,
    /// Present a beat of one clear (slot 0) to bloom_lanes.
    pub clear_beat: Signal<Out, bool>,
    /// bloom_lanes is presented a beat with an operation (`beat_valid`), takes it
    /// (`beat_ready`); its slot 0's op code if slot 0 holds a write, else 0.
    pub beat_valid: Signal<In, bool>,
    pub beat_ready: Signal<In, bool>,
    pub beat_op: Signal<In, Bits<2>>,
    /// bloom_lanes's response beat presented is taken this cycle (sent or dropped).
    pub resp_pop: Signal<In, bool>,
    /// The response beat presented answers a register clear: take it, do not send it.
    pub resp_drop: Signal<Out, bool>,
    /// The response beat presented answers a read beat (its hits are query hits).
    pub resp_query: Signal<Out, bool>,
    /// Operations in the beat s_axis hands over this cycle, an insert among them
    /// (slot 0); hits in the read beat's response m_axis hands over this cycle.
    pub ops_taken: Signal<In, Bits<32>>,
    pub insert_taken: Signal<In, bool>,
    pub hits_sent: Signal<In, Bits<32>>,
    clock: Signal<Local, Clock>,
    resets: ResetCopies,
    /// 32 places: up to 15 beats are unanswered (`outstanding_beats`).
    ring: DropRing<32>,
    lite_write: LiteWrite<W>,
    bit_access: BitAccess<W>,
    lite_read: LiteRead<W>,
    ops: AmountCounter,
    inserts: EventCounter,
    hits: AmountCounter,
    clear_pending: DFF<bool>,
    /// COMMAND.scrub, which lanes ignore.
    unused_scrub: Signal<Local, bool>,
    zero_16: Constant<Bits<16>>,
}

impl<const W: usize> LanesRegs<W> {
    /// The block for lanes whose fixed words are `fixed` ([`lanes_fixed_words`]),
    /// `beats` response beats at most outstanding, of a plain filter or not.
    pub fn new(fixed: [u32; super::FIXED_WORDS], beats: usize, plain_filter: bool) -> Self {
        Self {
            sys: Default::default(),
            s_axil_write: Default::default(),
            s_axil_read: Default::default(),
            rb: Default::default(),
            fill: Default::default(),
            lanes_busy: Default::default(),
            counter_saturated: Default::default(),
            counter_rdata: Default::default(),
            counter_wdata: Default::default(),
            lanes_reset: Default::default(),
            hold: Default::default(),
            clear_beat: Default::default(),
            beat_valid: Default::default(),
            beat_ready: Default::default(),
            beat_op: Default::default(),
            resp_pop: Default::default(),
            resp_drop: Default::default(),
            resp_query: Default::default(),
            ops_taken: Default::default(),
            insert_taken: Default::default(),
            hits_sent: Default::default(),
            clock: Default::default(),
            resets: Default::default(),
            ring: DropRing::new(beats),
            lite_write: Default::default(),
            bit_access: BitAccess::new(plain_filter),
            lite_read: LiteRead::new(fixed),
            ops: Default::default(),
            inserts: Default::default(),
            hits: Default::default(),
            clear_pending: Default::default(),
            unused_scrub: Default::default(),
            zero_16: Constant::new(0.into()),
        }
    }
}

impl<const W: usize> Logic for LanesRegs<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.clock.next = self.sys.aclk.val();
        clock!(self, clock, resets, ring, lite_write, bit_access, lite_read, ops, inserts, hits);
        dff_setup!(self, clock, clear_pending);
        self.resets.aresetn.next = self.sys.aresetn.val();
        self.lanes_reset.next = self.resets.core.val();

        // A register clear: pending from the write until bloom_lanes takes its beat.
        self.clear_pending.d.next =
            (self.clear_pending.q.val() & !self.beat_ready.val()) | self.lite_write.clear.val();
        if self.resets.streams.val() {
            self.clear_pending.d.next = false;
        }
        self.clear_beat.next = self.clear_pending.q.val();
        self.hold.next = self.clear_pending.q.val()
            | self.lite_write.clear.val()
            | self.bit_access.armed_next.val();

        // Which response beats answer the clear (dropped) or a read beat.
        self.ring.reset.next = self.resets.streams.val();
        self.ring.req_valid.next = self.beat_valid.val();
        self.ring.req_ready.next = self.beat_ready.val();
        self.ring.req_clear.next = self.clear_pending.q.val();
        self.ring.req_op.next = self.beat_op.val();
        self.ring.pop.next = self.resp_pop.val();
        self.resp_drop.next = self.ring.drop.val();
        self.resp_query.next = self.ring.query.val();

        // OPS, INSERTS, HITS.
        self.ops.amount.next = self.ops_taken.val();
        self.ops.zero.next = self.lite_write.zero_counters.val();
        self.inserts.step.next = self.insert_taken.val() | self.lite_write.zero_counters.val();
        self.inserts.zero.next = self.lite_write.zero_counters.val();
        self.hits.amount.next = self.hits_sent.val();
        self.hits.zero.next = self.lite_write.zero_counters.val();

        // AXI4-Lite write, and the bit access it arms.
        AxiLiteWrite::<W>::link(&mut self.s_axil_write, &mut self.lite_write.axil);
        self.lite_write.reset.next = self.resets.lite.val();
        self.lite_write.reset_next.next = self.resets.asserted.val();
        self.lite_write.armed_next.next = self.bit_access.armed_next.val();
        ReadbackDriver::<W>::link(&mut self.rb, &mut self.bit_access.rb);
        self.bit_access.reset.next = self.resets.lite.val();
        self.bit_access.bit_addr_write.next = self.lite_write.bit_addr_write.val();
        self.bit_access.bit_count_write.next = self.lite_write.bit_count_write.val();
        self.bit_access.wdata.next = self.s_axil_write.wdata.val();
        self.bit_access.busy.next = self.lanes_busy.val();
        self.bit_access.clear_pending.next = self.clear_pending.q.val();
        self.bit_access.request_waiting.next = self.beat_valid.val();
        self.bit_access.counter_rdata.next = self.counter_rdata.val();
        self.counter_wdata.next = self.bit_access.counter_wdata.val();

        // AXI4-Lite read: every register as it reads.
        AxiLiteRead::<W>::link(&mut self.s_axil_read, &mut self.lite_read.axil);
        FillDriver::<W>::link(&mut self.fill, &mut self.lite_read.fill);
        self.lite_read.reset.next = self.resets.lite.val();
        self.lite_read.saturated.next = self.counter_saturated.val();
        self.lite_read.busy.next = self.lanes_busy.val();
        self.lite_read.clear_pending.next = self.clear_pending.q.val();
        self.lite_read.clear_queued.next = false;
        self.lite_read.bit_addr.next = self.bit_access.bit_addr.val();
        self.lite_read.bit_data.next = self.bit_access.bit_data.val();
        self.lite_read.bit_count.next = self.bit_access.bit_count.val();
        self.lite_read.ops.next = self.ops.value.val();
        self.lite_read.inserts.next = self.inserts.value.val();
        self.lite_read.hits.next = self.hits.value.val();
        self.lite_read.scrub_busy.next = false;
        self.lite_read.scrub_mismatch.next = self.zero_16.val();
        self.unused_scrub.next = self.lite_write.scrub.val();
    }
}

/// The fixed words of the map for `lanes`: `bloom_axis`'s of the same filter
/// (CONFIG, SEED, ID, VERSION; no scrub), with TIMING the face's (its latency,
/// lane 0's readback latency, and the response beats outstanding at most) and
/// LANES its slots per beat.
pub fn lanes_fixed_words(lanes: &crate::lanes::GeneratedLanes) -> [u32; super::FIXED_WORDS] {
    super::fixed_words_of(&crate::CoreConfig {
        scrub: false,
        scrub_every: None,
        ..lanes.core.config.clone()
    })
    .map(|(reg, word)| {
        if reg.name == map::TIMING.name {
            map::TIMING_LATENCY.place(lanes.timing.latency as u64)
                | map::TIMING_READBACK_LATENCY.place(lanes.timing.readback_latency as u64)
                | map::TIMING_RESPONSE_FIFO_DEPTH.place(outstanding_beats(lanes) as u64)
        } else if reg.name == map::LANES.name {
            map::LANES_LANES.place(lanes.lanes as u64)
        } else {
            word
        }
    })
}

/// Beats taken on s_axis (or the register clear's) and not yet answered, at most
/// (`crate::lanes::unanswered_beats`): the drop ring's entries and TIMING's
/// response_fifo_depth.
pub fn outstanding_beats(lanes: &crate::lanes::GeneratedLanes) -> usize {
    crate::lanes::unanswered_beats(&lanes.core.config.params, lanes.replica_ports)
}

/// The blocks synthesis keeps whole (`(* keep_hierarchy *)`), for the reasons of
/// `wrapper::KEPT_MODULES`: the counters and the copies of the reset register.
pub const KEPT_MODULES: [&str; 6] = [
    "ops",
    "inserts",
    "hits",
    "resets_for_core",
    "resets_for_streams",
    "resets_for_counters",
];

/// The Verilog of `bloom_lanes_regs` for `lanes`.
pub fn lanes_regs_verilog(lanes: &crate::lanes::GeneratedLanes) -> Result<String, crate::HdlError> {
    match lanes.core.config.params.key_bits {
        32 => regs_verilog::<32>(lanes),
        64 => regs_verilog::<64>(lanes),
        128 => regs_verilog::<128>(lanes),
        other => unreachable!("generate_core validated key_bits {other}"),
    }
}

fn regs_verilog<const W: usize>(
    lanes: &crate::lanes::GeneratedLanes,
) -> Result<String, crate::HdlError> {
    let mut uut = LanesRegs::<W>::new(
        lanes_fixed_words(lanes),
        outstanding_beats(lanes),
        lanes.core.config.params.counter_bits <= 1,
    );
    uut.connect_all();
    check_all(&uut).map_err(|e| {
        crate::HdlError::Generate(format!("{LANES_REGS_TOP} failed rust-hdl's checks: {e:?}"))
    })?;
    let mut defines = ModuleDefines::default();
    uut.accept("top", &mut defines);
    let renamed = crate::verilog::text::rename_modules(
        &defines.defines(),
        LANES_REGS_TOP,
        &super::axi_flat_bundles(),
    )?;
    Ok(crate::verilog::text::keep_hierarchy_of(&renamed, |name| {
        KEPT_MODULES
            .iter()
            .any(|m| name == format!("{LANES_REGS_TOP}_{m}"))
    }))
}
