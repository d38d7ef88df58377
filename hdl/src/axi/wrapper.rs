//! `bloom_axis`: the core behind AXI4-Stream request and response streams and
//! an AXI4-Lite register block (the map: ip/rdl/bloom_axis.rdl, here as
//! `regmap`). This block only wires its parts, each in a file of its own:
//!
//! - [`ResetCopies`] (resets.rs): aresetn registered, one copy per part;
//! - [`RequestPath`] (request_path.rs): s_axis, or a register clear, into a
//!   two-entry FIFO in front of the core's request port;
//! - [`DropRing`] (drop_ring.rs): which of the core's responses are a
//!   register clear's (taken and dropped) and which answer a query;
//! - [`ResponsePath`] (response_path.rs): the core's responses into a two-entry
//!   FIFO in front of m_axis;
//! - [`StreamCounters`] (stream_counters.rs): OPS, INSERTS, HITS;
//! - [`LiteWrite`] (lite_write.rs): the AXI4-Lite write channels and the write's
//!   actions (COMMAND, BIT_ADDR, BIT_COUNT); COMMAND.scrub is the core's
//!   scrub_req (registered), STATUS.scrub_busy and SCRUB_MISMATCH its outputs;
//! - [`BitAccess`] (bit_access.rs): BIT_ADDR, BIT_DATA, BIT_COUNT and the
//!   core's bank access port;
//! - [`LiteRead`] (lite_read.rs, with `ReadSelect`): the AXI4-Lite read
//!   channels, every register's read data, FILL and SATURATED.
//!
//! Streams: `s_axis` feeds the core's request port field for field and the
//! core's response port feeds `m_axis`, each through a registered stage (a
//! two-entry FIFO, `pair_fifo`), so that the core's handshakes stay local and
//! no path of the core reaches a stream port or the reverse. Each adds one
//! cycle: latency 9 cycles from a request taken on s_axis to its response
//! presented on m_axis (the core's 7 and 2; 12 with the Feistel family's 10;
//! [`stream_timing`], the TIMING register), initiation interval 1 (any mix, while
//! m_axis_tready stays high), at most 12 requests taken and not yet answered under
//! backpressure (the core's 8, or 11, and 2 in each FIFO), nothing lost or reordered.
//!
//! The registers reach the core through the same ports: a register clear
//! enters the request FIFO in stream order and its response is dropped; a bit
//! access (BIT_ADDR) is issued between requests, s_axis closed from the write
//! until it is; FILL[i] and SATURATED[i] drive the core's fill_bank. AXI4-Lite
//! is one transaction at a time per direction, every decision taken from
//! registers: a write is answered (awready, wready) two cycles after both
//! valids, a read (rvalid, rdata) three cycles after arvalid.
//!
//! The core's inputs are every one a register (of the FIFOs or of a part) or an
//! input of this block, never logic that reads the core's outputs: no always
//! block of the Verilog both reads an output of the core and drives an input
//! of it. No output depends combinationally on an input of the same interface.
//! Reset (aresetn, active low) is registered.
//!
//! Memory: none of its own (the ring, the FIFOs and the registers are
//! flip-flops).

use rust_hdl::prelude::*;

use super::bit_access::BitAccess;
use super::drop_ring::DropRing;
use super::interface::{AxiClocking, AxiLiteRead, AxiLiteWrite, AxisRequest, AxisResponse};
use super::lite_read::LiteRead;
use super::lite_write::LiteWrite;
use super::regmap as map;
use super::request_path::RequestPath;
use super::resets::ResetCopies;
use super::response_path::ResponsePath;
use super::stream_counters::StreamCounters;
use crate::bridge::core_box::BridgeBox;
use crate::ports::{FillDriver, ReadbackDriver, RequestDriver, ResponseDriver};
use crate::{CoreConfig, CoreParams};

#[derive(LogicBlock)]
pub struct BloomAxis<const W: usize> {
    pub sys: AxiClocking<W>,
    pub s_axis: AxisRequest<W>,
    pub m_axis: AxisResponse<W>,
    /// The AXI4-Lite slave `s_axil_*`: its write channels, then its read channels.
    pub s_axil_write: AxiLiteWrite<W>,
    pub s_axil_read: AxiLiteRead<W>,
    /// The core, with a counting core's ports (behind a plain core the box ties
    /// the counter outputs to 0) and the scrub's (a core generated without the
    /// scrub ignores scrub_req and reads 0 on the others).
    core: BridgeBox<W>,
    clock: Signal<Local, Clock>,
    resets: ResetCopies,
    requests: RequestPath<W>,
    ring: DropRing<16>,
    responses: ResponsePath<W>,
    counters: StreamCounters,
    lite_write: LiteWrite<W>,
    bit_access: BitAccess<W>,
    lite_read: LiteRead<W>,
}

/// The blocks synthesis must keep whole (`(* keep_hierarchy *)`, by
/// `keep_for_synthesis` in axi/mod.rs; paths below `bloom_axis`, `_`-joined),
/// because they hold a register loaded alike with another, which synthesis
/// would merge into one flip-flop fanning out across the chip:
/// - the three event counters (their zero registers; merged, one flip-flop
///   reached all 99 counter bits);
/// - the copies of the reset register (merged, one flip-flop drove every reset).
pub const KEPT_MODULES: [&str; 6] = [
    "counters_ops",
    "counters_inserts",
    "counters_hits",
    "resets_for_core",
    "resets_for_streams",
    "resets_for_counters",
];

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

/// The ID, VERSION, CONFIG, SEED_LO, SEED_HI and TIMING words of a core
/// generated without the scrub (CONFIG.scrub 0).
pub fn fixed_words(params: &CoreParams) -> [(super::regs::RegisterDef, u32); 6] {
    let w = fixed_words_of(&CoreConfig::from(*params));
    [w[0], w[1], w[2], w[3], w[4], w[5]]
}

/// The registers whose words are fixed when the core is generated.
pub const FIXED_WORDS: usize = 8;

/// The words fixed when the core is generated: ID, VERSION, CONFIG (its scrub
/// bit from `cfg.scrub`), SEED_LO, SEED_HI, TIMING, SCRUB_EVERY (the period
/// of `--scrub-every`, 0 without one) and LANES (1: one key per beat).
pub fn fixed_words_of(cfg: &CoreConfig) -> [(super::regs::RegisterDef, u32); FIXED_WORDS] {
    let params = &cfg.params;
    let t = stream_timing(params);
    let scrub_every = if cfg.scrub {
        cfg.scrub_every.unwrap_or(0)
    } else {
        0
    };
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
                | map::CONFIG_SCRUB.place(cfg.scrub as u64)
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
        (
            map::SCRUB_EVERY,
            map::SCRUB_EVERY_EVERY.place(scrub_every as u64),
        ),
        (map::LANES, map::LANES_LANES.place(1)),
    ]
}

impl<const W: usize> BloomAxis<W> {
    /// The wrapper of a core generated with `cfg` (key_bits = W), whose Verilog
    /// module `core_top` is supplied beside the wrapper's.
    pub fn new(cfg: &CoreConfig, core_top: &str) -> Self {
        let params = &cfg.params;
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
        assert_eq!(
            (
                map::SCRUB_MISMATCH_MISMATCH.lsb,
                map::SCRUB_MISMATCH_MISMATCH.width
            ),
            (0, 16),
            "SCRUB_MISMATCH.mismatch is scrub_mismatch, zero-extended"
        );
        assert_eq!(
            (map::STATUS_SCRUB_BUSY.width, map::COMMAND_SCRUB.width),
            (1, 1),
            "STATUS.scrub_busy is scrub_busy, COMMAND.scrub is scrub_req"
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
        Self {
            sys: Default::default(),
            s_axis: Default::default(),
            m_axis: Default::default(),
            s_axil_write: Default::default(),
            s_axil_read: Default::default(),
            core: BridgeBox::new(String::new(), core_top.to_string(), params),
            clock: Default::default(),
            resets: Default::default(),
            requests: Default::default(),
            ring: DropRing::new(crate::Timing::of(params).response_fifo_depth as usize),
            responses: Default::default(),
            counters: Default::default(),
            lite_write: Default::default(),
            bit_access: BitAccess::new(params.counter_bits <= 1),
            lite_read: LiteRead::new(fixed_words_of(cfg).map(|(_, v)| v)),
        }
    }
}

impl<const W: usize> Logic for BloomAxis<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.clock.next = self.sys.aclk.val();
        clock!(
            self, clock, resets, requests, ring, responses, counters, lite_write, bit_access,
            lite_read
        );
        Signal::<In, Clock>::link(&mut self.sys.aclk, &mut self.core.sys.clock);
        self.resets.aresetn.next = self.sys.aresetn.val();
        self.core.sys.reset.next = self.resets.core.val();

        // Requests: s_axis, or a register clear, into the core.
        AxisRequest::<W>::link(&mut self.s_axis, &mut self.requests.s_axis);
        RequestDriver::<W>::join(&mut self.requests.core, &mut self.core.io.req);
        self.requests.reset.next = self.resets.streams.val();
        self.requests.clear.next = self.lite_write.clear.val();
        self.requests.hold.next = self.bit_access.armed_next.val();

        // Responses: the core's onto m_axis, a register clear's dropped.
        self.ring.reset.next = self.resets.streams.val();
        self.ring.req_valid.next = self.requests.core.valid.val();
        self.ring.req_ready.next = self.core.io.req.ready.val();
        self.ring.req_clear.next = self.requests.presented_clear.val();
        self.ring.req_op.next = self.requests.core.op.val();
        self.ring.pop.next = self.responses.pop.val();
        ResponseDriver::<W>::join(&mut self.responses.core, &mut self.core.io.resp);
        AxisResponse::<W>::link(&mut self.m_axis, &mut self.responses.m_axis);
        self.responses.reset.next = self.resets.streams.val();
        self.responses.drop.next = self.ring.drop.val();
        self.responses.query.next = self.ring.query.val();

        self.counters.take.next = self.requests.take.val();
        self.counters.take_op.next = self.s_axis.tuser.val();
        self.counters.query_hit_sent.next = self.responses.query_hit_sent.val();
        self.counters.zero.next = self.lite_write.zero_counters.val();
        self.core.scrub.req.next = self.lite_write.scrub.val();

        // AXI4-Lite write, and the bit access it arms.
        AxiLiteWrite::<W>::link(&mut self.s_axil_write, &mut self.lite_write.axil);
        self.lite_write.reset.next = self.resets.lite.val();
        self.lite_write.reset_next.next = self.resets.asserted.val();
        self.lite_write.armed_next.next = self.bit_access.armed_next.val();
        ReadbackDriver::<W>::join(&mut self.bit_access.rb, &mut self.core.io.rb);
        self.bit_access.reset.next = self.resets.lite.val();
        self.bit_access.bit_addr_write.next = self.lite_write.bit_addr_write.val();
        self.bit_access.bit_count_write.next = self.lite_write.bit_count_write.val();
        self.bit_access.wdata.next = self.s_axil_write.wdata.val();
        self.bit_access.busy.next = self.core.io.status.busy.val();
        self.bit_access.clear_pending.next = self.requests.pending_clear.val();
        self.bit_access.request_waiting.next = self.requests.core.valid.val();
        self.bit_access.counter_rdata.next = self.core.counter.rdata.val();
        self.core.counter.wdata.next = self.bit_access.counter_wdata.val();

        // AXI4-Lite read: every register as it reads.
        AxiLiteRead::<W>::link(&mut self.s_axil_read, &mut self.lite_read.axil);
        FillDriver::<W>::join(&mut self.lite_read.fill, &mut self.core.io.fill);
        self.lite_read.reset.next = self.resets.lite.val();
        self.lite_read.saturated.next = self.core.counter.saturated.val();
        self.lite_read.busy.next = self.core.io.status.busy.val();
        self.lite_read.clear_pending.next = self.requests.pending_clear.val();
        self.lite_read.clear_queued.next = self.requests.clear_queued.val();
        self.lite_read.bit_addr.next = self.bit_access.bit_addr.val();
        self.lite_read.bit_data.next = self.bit_access.bit_data.val();
        self.lite_read.bit_count.next = self.bit_access.bit_count.val();
        self.lite_read.ops.next = self.counters.ops_value.val();
        self.lite_read.inserts.next = self.counters.inserts_value.val();
        self.lite_read.hits.next = self.counters.hits_value.val();
        self.lite_read.scrub_busy.next = self.core.scrub.busy.val();
        self.lite_read.scrub_mismatch.next = self.core.scrub.mismatch.val();
    }
}
