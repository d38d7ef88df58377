//! `LiteRead`: the AXI4-Lite read channels of `bloom_axis`, one transaction at a
//! time, every decision taken from registers: idle -> read_go (arready) ->
//! read_data -> rvalid.
//!
//! arready rises from a register the cycle after arvalid; the read address is
//! decoded into one-hot select registers (`ReadSelect`, loaded while idle, so
//! held during the read); the data is an AND-OR of selects and values,
//! registered in the read_data cycle (its enable straight from a register);
//! rvalid rises with it and the data then holds. Idle is a register loaded from
//! the next values of the three state registers (read_go, read_data, rvalid),
//! which alone have a reset: no enable on the read side sees reset or rready,
//! and the selects' enable is a flip-flop.
//!
//! FILL[i] and SATURATED[i]: the read address drives the core's fill_bank
//! (registered, `ReadSelect::fill_bank`); fill_count and counter_saturated are
//! registered before they join the read data.
//!
//! Latency: arvalid in cycle t (idle): arready in t+1, rvalid and rdata from
//! t+3. Memory: none (flip-flops).

use rust_hdl::prelude::*;

use super::interface::AxiLiteRead;
use super::read_select::ReadSelect;
use super::regmap as map;
use super::regs::{mask, value};
use super::zero_extend::ZeroExtend;
use crate::ports::FillDriver;

#[derive(LogicBlock)]
pub struct LiteRead<const W: usize> {
    pub clock: Signal<In, Clock>,
    /// The AXI4-Lite side's reset.
    pub reset: Signal<In, bool>,
    pub axil: AxiLiteRead<W>,
    /// The core's fill counters, and its saturated counts for the same bank.
    pub fill: FillDriver<W>,
    pub saturated: Signal<In, Bits<17>>,
    /// STATUS.busy is any of: the core is busy, a register clear is pending,
    /// one is queued in the request FIFO.
    pub busy: Signal<In, bool>,
    pub clear_pending: Signal<In, bool>,
    pub clear_queued: Signal<In, bool>,
    /// The registers held elsewhere, as they read.
    pub bit_addr: Signal<In, Bits<32>>,
    pub bit_data: Signal<In, Bits<32>>,
    pub bit_count: Signal<In, Bits<8>>,
    pub ops: Signal<In, Bits<32>>,
    pub inserts: Signal<In, Bits<32>>,
    pub hits: Signal<In, Bits<32>>,
    /// The core's scrub_busy and scrub_mismatch (0 in a core without the scrub).
    pub scrub_busy: Signal<In, bool>,
    pub scrub_mismatch: Signal<In, Bits<16>>,
    select: ReadSelect,
    /// None of read_go, read_data, rvalid: no read in progress.
    read_idle: DFF<bool>,
    read_go: DFF<bool>,
    read_data: DFF<bool>,
    rvalid: DFF<bool>,
    rresp: DFF<Bits<2>>,
    rdata: DFF<Bits<32>>,
    fill_q: DFF<Bits<32>>,
    fill_word: ZeroExtend<17, 32>,
    /// SATURATED[fill_bank], registered like fill_q.
    saturated_q: DFF<Bits<32>>,
    saturated_word: ZeroExtend<17, 32>,
    bit_count_word: ZeroExtend<8, 32>,
    scrub_mismatch_word: ZeroExtend<16, 32>,
    status_word: Signal<Local, Bits<32>>,
    /// STATUS.scrub_busy's bit.
    status_scrub_word: Signal<Local, Bits<32>>,
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
    term_scrub_mismatch: Signal<Local, Bits<32>>,
    /// Inputs AXI4-Lite defines and this block does not need (the protection
    /// type, the byte offset within a word).
    unused_axil: Signal<Local, bool>,
    // Registers whose value is fixed when the core is generated.
    value_id: Constant<Bits<32>>,
    value_version: Constant<Bits<32>>,
    value_config: Constant<Bits<32>>,
    value_seed_lo: Constant<Bits<32>>,
    value_seed_hi: Constant<Bits<32>>,
    value_timing: Constant<Bits<32>>,
    value_scrub_every: Constant<Bits<32>>,
    value_lanes: Constant<Bits<32>>,
    mask_status_busy: Constant<Bits<32>>,
    mask_status_scrub_busy: Constant<Bits<32>>,
    zero_32: Constant<Bits<32>>,
    resp_okay: Constant<Bits<2>>,
    resp_slverr: Constant<Bits<2>>,
}

impl<const W: usize> LiteRead<W> {
    /// `fixed`: the ID, VERSION, CONFIG, SEED_LO, SEED_HI, TIMING,
    /// SCRUB_EVERY and LANES words (`wrapper::fixed_words_of`).
    pub fn new(fixed: [u32; super::FIXED_WORDS]) -> Self {
        let [id, version, config, seed_lo, seed_hi, timing, scrub_every, lanes] = fixed;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            axil: Default::default(),
            fill: Default::default(),
            saturated: Default::default(),
            busy: Default::default(),
            clear_pending: Default::default(),
            clear_queued: Default::default(),
            bit_addr: Default::default(),
            bit_data: Default::default(),
            bit_count: Default::default(),
            ops: Default::default(),
            inserts: Default::default(),
            hits: Default::default(),
            scrub_busy: Default::default(),
            scrub_mismatch: Default::default(),
            select: Default::default(),
            read_idle: Default::default(),
            read_go: Default::default(),
            read_data: Default::default(),
            rvalid: Default::default(),
            rresp: Default::default(),
            rdata: Default::default(),
            fill_q: Default::default(),
            fill_word: Default::default(),
            saturated_q: Default::default(),
            saturated_word: Default::default(),
            bit_count_word: Default::default(),
            scrub_mismatch_word: Default::default(),
            status_word: Default::default(),
            status_scrub_word: Default::default(),
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
            term_scrub_mismatch: Default::default(),
            unused_axil: Default::default(),
            value_id: value(id),
            value_version: value(version),
            value_config: value(config),
            value_seed_lo: value(seed_lo),
            value_seed_hi: value(seed_hi),
            value_timing: value(timing),
            value_scrub_every: value(scrub_every),
            value_lanes: value(lanes),
            mask_status_busy: mask(&[map::STATUS_BUSY]),
            mask_status_scrub_busy: mask(&[map::STATUS_SCRUB_BUSY]),
            zero_32: value(0),
            resp_okay: Constant::new(0.into()),
            resp_slverr: Constant::new(2.into()),
        }
    }
}

impl<const W: usize> Logic for LiteRead<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            read_idle,
            read_go,
            read_data,
            rvalid,
            rresp,
            rdata,
            fill_q,
            saturated_q
        );
        self.select.clock.next = self.clock.val();
        self.axil.arready.next = self.read_go.q.val();
        self.axil.rvalid.next = self.rvalid.q.val();
        self.axil.rresp.next = self.rresp.q.val();
        self.axil.rdata.next = self.rdata.q.val();
        // The selects load while idle: last in the cycle arvalid is seen, whose
        // address the master holds until arready.
        self.select.load.next = self.read_idle.q.val();
        self.select.word.next = self.axil.araddr.val().get_bits::<6>(2);
        self.fill.bank.next = self.select.fill_bank.val();
        self.fill_word.narrow.next = self.fill.count.val();
        self.saturated_word.narrow.next = self.saturated.val();
        self.fill_q.d.next = self.fill_word.wide.val();
        self.saturated_q.d.next = self.saturated_word.wide.val();
        self.bit_count_word.narrow.next = self.bit_count.val();
        self.scrub_mismatch_word.narrow.next = self.scrub_mismatch.val();
        self.read_go.d.next = self.axil.arvalid.val() & self.read_idle.q.val();
        // Set by the data, held until taken: a D input, not an enable.
        self.rvalid.d.next =
            self.read_data.q.val() | (self.rvalid.q.val() & !self.axil.rready.val());
        self.status_word.next = self.zero_32.val();
        if (self.busy.val() | self.clear_pending.val()) | self.clear_queued.val() {
            self.status_word.next = self.mask_status_busy.val();
        }
        self.status_scrub_word.next = self.zero_32.val();
        if self.scrub_busy.val() {
            self.status_scrub_word.next = self.mask_status_scrub_busy.val();
        }
        self.term_fixed.next = self.zero_32.val();
        if self.select.sel_id.val() {
            self.term_fixed.next = self.value_id.val();
        }
        if self.select.sel_version.val() {
            self.term_fixed.next = self.value_version.val();
        }
        if self.select.sel_config.val() {
            self.term_fixed.next = self.value_config.val();
        }
        if self.select.sel_seed_lo.val() {
            self.term_fixed.next = self.value_seed_lo.val();
        }
        if self.select.sel_seed_hi.val() {
            self.term_fixed.next = self.value_seed_hi.val();
        }
        if self.select.sel_timing.val() {
            self.term_fixed.next = self.value_timing.val();
        }
        if self.select.sel_scrub_every.val() {
            self.term_fixed.next = self.value_scrub_every.val();
        }
        if self.select.sel_lanes.val() {
            self.term_fixed.next = self.value_lanes.val();
        }
        self.term_status.next = self.zero_32.val();
        if self.select.sel_status.val() {
            self.term_status.next = self.status_word.val() | self.status_scrub_word.val();
        }
        self.term_bit_addr.next = self.zero_32.val();
        if self.select.sel_bit_addr.val() {
            self.term_bit_addr.next = self.bit_addr.val();
        }
        self.term_bit_data.next = self.zero_32.val();
        if self.select.sel_bit_data.val() {
            self.term_bit_data.next = self.bit_data.val();
        }
        self.term_ops.next = self.zero_32.val();
        if self.select.sel_ops.val() {
            self.term_ops.next = self.ops.val();
        }
        self.term_inserts.next = self.zero_32.val();
        if self.select.sel_inserts.val() {
            self.term_inserts.next = self.inserts.val();
        }
        self.term_hits.next = self.zero_32.val();
        if self.select.sel_hits.val() {
            self.term_hits.next = self.hits.val();
        }
        self.term_fill.next = self.zero_32.val();
        if self.select.sel_fill.val() {
            self.term_fill.next = self.fill_q.q.val();
        }
        self.term_bit_count.next = self.zero_32.val();
        if self.select.sel_bit_count.val() {
            self.term_bit_count.next = self.bit_count_word.wide.val();
        }
        self.term_saturated.next = self.zero_32.val();
        if self.select.sel_saturated.val() {
            self.term_saturated.next = self.saturated_q.q.val();
        }
        self.term_scrub_mismatch.next = self.zero_32.val();
        if self.select.sel_scrub_mismatch.val() {
            self.term_scrub_mismatch.next = self.scrub_mismatch_word.wide.val();
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
                | self.term_saturated.val()
                | self.term_scrub_mismatch.val();
            self.rresp.d.next = self.resp_okay.val();
            if self.select.sel_none.val() {
                self.rresp.d.next = self.resp_slverr.val();
            }
        }
        self.unused_axil.next =
            self.axil.arprot.val().xor() ^ self.axil.araddr.val().get_bits::<2>(0).xor();
        if self.reset.val() {
            self.read_go.d.next = false;
            self.read_data.d.next = false;
            self.rvalid.d.next = false;
        }
        // Idle as it will be: loaded from the state registers' next values.
        self.read_idle.d.next =
            !self.read_go.d.val() & !self.read_data.d.val() & !self.rvalid.d.val();
    }
}
