//! `ReadSelect`: the AXI4-Lite read address decoded into one-hot select
//! registers, one per register of the map (FILL and SATURATED one each, for
//! their aligned blocks of 16 words) and `none` for an address that reads
//! nothing (SLVERR), and FILL's and SATURATED's index into `fill_bank` (the core's
//! fill_bank_q, registered). All are loaded in every cycle while `load` (the read
//! side is idle), so they hold the address of the read in progress: the last
//! one seen before arready, which the master holds until then.
//!
//! Latency: an address in cycle t (with `load`) is decoded from t+1. Memory:
//! none (flip-flops).

use rust_hdl::prelude::*;

use super::regmap as map;
use super::regs::word;

#[derive(LogicBlock)]
pub struct ReadSelect {
    pub clock: Signal<In, Clock>,
    /// Load the selects from `word` this cycle.
    pub load: Signal<In, bool>,
    /// The read address's word index (araddr bits 7:2).
    pub word: Signal<In, Bits<6>>,
    pub sel_id: Signal<Out, bool>,
    pub sel_version: Signal<Out, bool>,
    pub sel_config: Signal<Out, bool>,
    pub sel_seed_lo: Signal<Out, bool>,
    pub sel_seed_hi: Signal<Out, bool>,
    pub sel_timing: Signal<Out, bool>,
    pub sel_status: Signal<Out, bool>,
    pub sel_bit_addr: Signal<Out, bool>,
    pub sel_bit_data: Signal<Out, bool>,
    pub sel_ops: Signal<Out, bool>,
    pub sel_inserts: Signal<Out, bool>,
    pub sel_hits: Signal<Out, bool>,
    pub sel_fill: Signal<Out, bool>,
    pub sel_bit_count: Signal<Out, bool>,
    pub sel_saturated: Signal<Out, bool>,
    pub sel_scrub_every: Signal<Out, bool>,
    pub sel_lanes: Signal<Out, bool>,
    pub sel_scrub_mismatch: Signal<Out, bool>,
    /// No register at the address.
    pub sel_none: Signal<Out, bool>,
    /// FILL[i]'s and SATURATED[i]'s i.
    pub fill_bank: Signal<Out, Bits<4>>,
    sel_id_q: DFF<bool>,
    sel_version_q: DFF<bool>,
    sel_config_q: DFF<bool>,
    sel_seed_lo_q: DFF<bool>,
    sel_seed_hi_q: DFF<bool>,
    sel_timing_q: DFF<bool>,
    sel_status_q: DFF<bool>,
    sel_bit_addr_q: DFF<bool>,
    sel_bit_data_q: DFF<bool>,
    sel_ops_q: DFF<bool>,
    sel_inserts_q: DFF<bool>,
    sel_hits_q: DFF<bool>,
    sel_fill_q: DFF<bool>,
    sel_bit_count_q: DFF<bool>,
    sel_saturated_q: DFF<bool>,
    sel_scrub_every_q: DFF<bool>,
    sel_lanes_q: DFF<bool>,
    sel_scrub_mismatch_q: DFF<bool>,
    sel_none_q: DFF<bool>,
    fill_bank_q: DFF<Bits<4>>,
    // Word addresses (byte address / 4) of the registers.
    word_id: Constant<Bits<6>>,
    word_version: Constant<Bits<6>>,
    word_config: Constant<Bits<6>>,
    word_seed_lo: Constant<Bits<6>>,
    word_seed_hi: Constant<Bits<6>>,
    word_timing: Constant<Bits<6>>,
    word_status: Constant<Bits<6>>,
    word_bit_addr: Constant<Bits<6>>,
    word_bit_data: Constant<Bits<6>>,
    word_ops: Constant<Bits<6>>,
    word_inserts: Constant<Bits<6>>,
    word_hits: Constant<Bits<6>>,
    word_bit_count: Constant<Bits<6>>,
    word_scrub_every: Constant<Bits<6>>,
    word_lanes: Constant<Bits<6>>,
    word_scrub_mismatch: Constant<Bits<6>>,
    /// FILL[0..16] is the aligned block of words whose bits 5:4 are this.
    fill_block: Constant<Bits<2>>,
    /// SATURATED[0..16] likewise.
    saturated_block: Constant<Bits<2>>,
}

impl Default for ReadSelect {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            load: Default::default(),
            word: Default::default(),
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
            sel_scrub_every: Default::default(),
            sel_lanes: Default::default(),
            sel_scrub_mismatch: Default::default(),
            sel_none: Default::default(),
            fill_bank: Default::default(),
            sel_id_q: Default::default(),
            sel_version_q: Default::default(),
            sel_config_q: Default::default(),
            sel_seed_lo_q: Default::default(),
            sel_seed_hi_q: Default::default(),
            sel_timing_q: Default::default(),
            sel_status_q: Default::default(),
            sel_bit_addr_q: Default::default(),
            sel_bit_data_q: Default::default(),
            sel_ops_q: Default::default(),
            sel_inserts_q: Default::default(),
            sel_hits_q: Default::default(),
            sel_fill_q: Default::default(),
            sel_bit_count_q: Default::default(),
            sel_saturated_q: Default::default(),
            sel_scrub_every_q: Default::default(),
            sel_lanes_q: Default::default(),
            sel_scrub_mismatch_q: Default::default(),
            sel_none_q: Default::default(),
            fill_bank_q: Default::default(),
            word_id: word(&map::ID),
            word_version: word(&map::VERSION),
            word_config: word(&map::CONFIG),
            word_seed_lo: word(&map::SEED_LO),
            word_seed_hi: word(&map::SEED_HI),
            word_timing: word(&map::TIMING),
            word_status: word(&map::STATUS),
            word_bit_addr: word(&map::BIT_ADDR),
            word_bit_data: word(&map::BIT_DATA),
            word_ops: word(&map::COUNTERS_OPS),
            word_inserts: word(&map::COUNTERS_INSERTS),
            word_hits: word(&map::COUNTERS_HITS),
            word_bit_count: word(&map::BIT_COUNT),
            word_scrub_every: word(&map::SCRUB_EVERY),
            word_lanes: word(&map::LANES),
            word_scrub_mismatch: word(&map::SCRUB_MISMATCH),
            fill_block: Constant::new((map::FILL.word() >> 4).into()),
            saturated_block: Constant::new((map::SATURATED.word() >> 4).into()),
        }
    }
}

impl Logic for ReadSelect {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            sel_id_q,
            sel_version_q,
            sel_config_q,
            sel_seed_lo_q,
            sel_seed_hi_q,
            sel_timing_q,
            sel_status_q,
            sel_bit_addr_q,
            sel_bit_data_q,
            sel_ops_q,
            sel_inserts_q,
            sel_hits_q,
            sel_fill_q,
            sel_bit_count_q,
            sel_saturated_q,
            sel_scrub_every_q,
            sel_lanes_q,
            sel_scrub_mismatch_q,
            sel_none_q,
            fill_bank_q
        );
        self.sel_id.next = self.sel_id_q.q.val();
        self.sel_version.next = self.sel_version_q.q.val();
        self.sel_config.next = self.sel_config_q.q.val();
        self.sel_seed_lo.next = self.sel_seed_lo_q.q.val();
        self.sel_seed_hi.next = self.sel_seed_hi_q.q.val();
        self.sel_timing.next = self.sel_timing_q.q.val();
        self.sel_status.next = self.sel_status_q.q.val();
        self.sel_bit_addr.next = self.sel_bit_addr_q.q.val();
        self.sel_bit_data.next = self.sel_bit_data_q.q.val();
        self.sel_ops.next = self.sel_ops_q.q.val();
        self.sel_inserts.next = self.sel_inserts_q.q.val();
        self.sel_hits.next = self.sel_hits_q.q.val();
        self.sel_fill.next = self.sel_fill_q.q.val();
        self.sel_bit_count.next = self.sel_bit_count_q.q.val();
        self.sel_saturated.next = self.sel_saturated_q.q.val();
        self.sel_scrub_every.next = self.sel_scrub_every_q.q.val();
        self.sel_lanes.next = self.sel_lanes_q.q.val();
        self.sel_scrub_mismatch.next = self.sel_scrub_mismatch_q.q.val();
        self.sel_none.next = self.sel_none_q.q.val();
        self.fill_bank.next = self.fill_bank_q.q.val();
        if self.load.val() {
            self.fill_bank_q.d.next = self.word.val().get_bits::<4>(0);
            self.sel_id_q.d.next = self.word.val() == self.word_id.val();
            self.sel_version_q.d.next = self.word.val() == self.word_version.val();
            self.sel_config_q.d.next = self.word.val() == self.word_config.val();
            self.sel_seed_lo_q.d.next = self.word.val() == self.word_seed_lo.val();
            self.sel_seed_hi_q.d.next = self.word.val() == self.word_seed_hi.val();
            self.sel_timing_q.d.next = self.word.val() == self.word_timing.val();
            self.sel_status_q.d.next = self.word.val() == self.word_status.val();
            self.sel_bit_addr_q.d.next = self.word.val() == self.word_bit_addr.val();
            self.sel_bit_data_q.d.next = self.word.val() == self.word_bit_data.val();
            self.sel_ops_q.d.next = self.word.val() == self.word_ops.val();
            self.sel_inserts_q.d.next = self.word.val() == self.word_inserts.val();
            self.sel_hits_q.d.next = self.word.val() == self.word_hits.val();
            self.sel_fill_q.d.next = self.word.val().get_bits::<2>(4) == self.fill_block.val();
            self.sel_bit_count_q.d.next = self.word.val() == self.word_bit_count.val();
            self.sel_saturated_q.d.next =
                self.word.val().get_bits::<2>(4) == self.saturated_block.val();
            self.sel_scrub_every_q.d.next = self.word.val() == self.word_scrub_every.val();
            self.sel_lanes_q.d.next = self.word.val() == self.word_lanes.val();
            self.sel_scrub_mismatch_q.d.next = self.word.val() == self.word_scrub_mismatch.val();
            self.sel_none_q.d.next = (self.word.val() != self.word_id.val())
                & (self.word.val() != self.word_version.val())
                & (self.word.val() != self.word_config.val())
                & (self.word.val() != self.word_seed_lo.val())
                & (self.word.val() != self.word_seed_hi.val())
                & (self.word.val() != self.word_timing.val())
                & (self.word.val() != self.word_status.val())
                & (self.word.val() != self.word_bit_addr.val())
                & (self.word.val() != self.word_bit_data.val())
                & (self.word.val() != self.word_ops.val())
                & (self.word.val() != self.word_inserts.val())
                & (self.word.val() != self.word_hits.val())
                & (self.word.val() != self.word_bit_count.val())
                & (self.word.val() != self.word_scrub_every.val())
                & (self.word.val() != self.word_lanes.val())
                & (self.word.val() != self.word_scrub_mismatch.val())
                & (self.word.val().get_bits::<2>(4) != self.fill_block.val())
                & (self.word.val().get_bits::<2>(4) != self.saturated_block.val());
        }
    }
}
