//! One partition of a counting core (counter_bits c in 2..=8, contract §7): its hash unit,
//! its bank of 2^b counters (`CounterRam`), the read-modify-write of the counter, the
//! forwarding of counter values between back-to-back operations, and two counts: the
//! fill (non-zero counters) and the saturated count (counters at S = 2^c - 1).
//!
//! Pipeline (cycles relative to acceptance in c0; the plain control's stages and the
//! counting flags of counting/ops.rs):
//!   c1 key register -> hash unit's chunk registers
//!   c2 address = hash (or the readback / recount address) -> addr3
//!   c3 addr3 -> RAM read port; compare addr3 with the slots in c4 (m1_4), c5 (e2a/e2d:
//!      with that slot's operation), c6 and c7
//!   c4 pre5: the value after the slot two ahead (now in c6: its alternative or its
//!      counter, by present6), else three ahead (w7), else four ahead (w8); prealt5 the
//!      same, or a counter write's base; the one-hot selects of c5, registered; and,
//!      registered too, whether this slot's counter is non-zero if it is the slot one
//!      ahead's (now in c5) after it, for either outcome of that slot (slot_p5,
//!      slot_a5), or pre5's (pre_term5)
//!   c5 RAM output register. The counter = the slot one ahead's alternative or its
//!      unchanged counter (c6, by present6), else pre5, else the RAM's: an AND-OR over
//!      four one-hot selects, of which only take_alt5 / take_cur5 see present6. The
//!      alternative (+1 below S, -1 below S, counting/counter_step.rs; a counter write's value
//!      is the +1 of value - 1, or the -1 of 1) of each candidate, chosen the same way.
//!      term5, whether the counter is non-zero: the OR (counting/kept_or.rs) of the registered
//!      term chosen by this bank's copy of present6 and the RAM's counter if chosen,
//!      two LUT levels of flip-flops. Every bank's copy of present6 (counting/present_copy.rs) is
//!      the AND of the k banks' term5, registered: the loop from one slot's presence to
//!      the next one's is two LUTs in the bank and one at the copy.
//!   c6 the counter (cur6), its alternative (alt6), present6; w6 = the counter after the
//!      slot (alt6 if it writes it: an insert, a counter write, a delete if present6);
//!      the count steps from the counter before and after, registered
//!   c7 write-back of w7 (= w6 registered, 0 for the clear's sweep) with a registered
//!      enable and address: every input of the RAM's write port is a flip-flop; the
//!      counts add their steps (from flip-flops)
//! Latency: key at c1 -> the counter in c5 (registered as nz6, value6 in c6); write-back
//! and counts at the end of c7 (commit_latency 7; fill_latency 8, see timing.rs).
//!
//! Same-address read and write: an operation reads its counter at the end of c3; the
//! slots one to four ahead write theirs at the end of c7 of their own, i.e. after, or
//! at the same edge as, that read. Their values are forwarded, the newest first: every
//! slot that read an address (a request or a readback) carries the counter's value after
//! itself (w6: the value written, or the unchanged value), so a slot behind takes the
//! newest value of its address from the pipeline and the RAM's only when none of the
//! four slots ahead had that address. Slots five or more ahead wrote before the read.
//! The RAM's own same-address read is never used.
//!
//! Clear: the plain control's sweep is delayed three cycles to the write-back stage, so
//! that it writes address n at the end of c7 + n of the clear (after every older slot's
//! write-back); the clear zeroes both counts at the end of its c6, over the step of the
//! slot one ahead (its counter is swept afterwards). Reset: cancels every write not yet
//! in c7 and zeroes the counts; the control's recount then counts non-zero and saturated
//! counters of every address (a recount slot's counter is the RAM's in c5, counted at the
//! end of c6, as in a plain core: the recount and its `busy` take the plain core's time).

use rust_hdl::prelude::*;

use crate::axi::zero_extend::ZeroExtend;
use crate::core::partition::FromControl;
use crate::counting::addresses::CountingAddresses;
use crate::counting::choice::ValueChoice;
use crate::counting::counter_ram::CounterRam;
use crate::counting::counts::Counts;
use crate::counting::forward::ForwardSelect;
use crate::counting::kept_or::KeptOr3;
use crate::counting::ops::FromOps;
use crate::counting::pre::PreValue;
use crate::counting::present_copy::PresentCopy;
use crate::counting::write_back::WriteBack;
use crate::hash::HashUnit;

#[derive(LogicBlock)]
pub struct CountingPartition<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub control: FromControl<W>,
    pub ops: FromOps<W>,
    /// Every bank's `term5`, a bit per bank (1 above k): their AND is whether every
    /// counter of the slot in c5 is non-zero, registered here as present6.
    pub terms5: Signal<In, Bits<16>>,
    /// This bank's counter of the slot in c6 (before that slot's change) is non-zero,
    /// registered (the readback's bit).
    pub nz6: Signal<Out, bool>,
    /// This bank's counter of the slot in c5 is non-zero, after the slot in c6 (whose
    /// delete, if any, is carried out as this bank's copy of present6 says): two LUT
    /// levels of flip-flops, the RAM's data among them.
    pub term5: Signal<Out, bool>,
    /// This bank's counter of the slot in c6 (before that slot's change), registered.
    pub value6: Signal<Out, Bits<8>>,
    pub fill: Signal<Out, Bits<17>>,
    pub saturated: Signal<Out, Bits<17>>,
    /// This bank's count at the end of the last scrub differed from its fill.
    pub scrub_mismatch: Signal<Out, bool>,
    /// This bank's write of the next cycle (c7), for the lanes' replicas
    /// (hdl/src/lanes/lane0.rs): its enable, its address, and whether the counter
    /// written is non-zero. A core on its own leaves them unread.
    pub replica_write_next: Signal<Out, bool>,
    pub replica_addr_next: Signal<Out, Bits<16>>,
    pub replica_nz_next: Signal<Out, bool>,
    hash: HashUnit<W>,
    ram: CounterRam,
    // The slot's address per stage, and the sweep's writes.
    addresses: CountingAddresses,
    // Where the slot's counter comes from (compares of c3, selects of c5).
    forward: ForwardSelect,
    // The counter of c5 and its alternative, chosen among the candidates.
    choice: ValueChoice,
    // The value forwarded from two to four slots ahead, and the alternative's base.
    pre: PreValue,
    // The write-back of c6 and c7.
    write_back: WriteBack,
    // The fill and saturated counts.
    counts: Counts,
    // A counter write of this bank in c4, and its value.
    cw4: Signal<Local, bool>,
    cwd4: Signal<Local, Bits<8>>,
    // The registered terms of term5, loaded in c4: the slot one ahead has this address
    // and its counter after it is non-zero, if it is present (slot_p5) / absent
    // (slot_a5); pre5 is chosen and non-zero (pre_term5). slot_term5 chooses between them
    // by present6, the RAM's terms add the RAM's counter if it is chosen.
    slot_p5: DFF<bool>,
    slot_a5: DFF<bool>,
    pre_term5: DFF<bool>,
    // The RAM's counter is non-zero.
    ram_nz5: Signal<Local, bool>,
    // The three parts of term5, one LUT each (kept as nets, so that term5 is one LUT
    // of them): the slot one ahead's or pre5's term, chosen by present6; the RAM's
    // counter above bit 0 and its bit 0, if chosen.
    slot_term5: Signal<Local, bool>,
    ram_high_term5: Signal<Local, bool>,
    ram_low_term5: Signal<Local, bool>,
    term_or: KeptOr3,
    // The slot in c5 takes the slot one ahead's alternative / unchanged counter (the
    // only selects that see present6), for its counter and for its alternative.
    take_alt5: Signal<Local, bool>,
    take_cur5: Signal<Local, bool>,
    take_alt_x5: Signal<Local, bool>,
    take_cur_x5: Signal<Local, bool>,
    // The counter of the slot in c6 and its alternative, and whether each is non-zero.
    cur_nz6: DFF<bool>,
    alt_nz6: DFF<bool>,
    cur6: DFF<Bits<8>>,
    alt6: DFF<Bits<8>>,
    // The slot in c6 found all its counters non-zero: this bank's copy, kept apart
    // from the other banks' so that each bank's uses of it are local.
    present: PresentCopy,
    // The scrub: the c3 address as 17 bits, below the scrub's pointer (registered in c3).
    addr3_wide: ZeroExtend<16, 17>,
    // Compared in two halves registered in c3, joined in c4 (as core/partition.rs).
    lt_hi4: DFF<bool>,
    eq_hi4: DFF<bool>,
    lt_lo4: DFF<bool>,
    // Test switch: changes below the pointer count for the scrub (off: false alarms).
    scrub_correction: Constant<bool>,
    bank_select: Constant<Bits<16>>,
    address_zero: Constant<Bits<16>>,
    counter_zero: Constant<Bits<8>>,
    counter_one: Constant<Bits<8>>,
    counter_max: Constant<Bits<8>>,
    counter_above_one: Constant<Bits<8>>,
}

/// The nets that carry present6 into a bank (each one LUT from the flip-flop) and the
/// parts of the bank's input to the AND over the banks (each one LUT from flip-flops),
/// kept as nets: synthesis sees every register arrive at once, and would otherwise fold
/// present6 into deeper logic on the loop through the AND over the banks.
pub const PRESENT_NETS: [&str; 10] = [
    "slot_term5",
    "ram_high_term5",
    "ram_low_term5",
    "use_alt6",
    "take_alt5",
    "take_cur5",
    "take_alt_x5",
    "take_cur_x5",
    "take_pre_alt4",
    "take_prealt_alt4",
];

/// The blocks of every bank that synthesis must keep whole (`(* keep_hierarchy *)`):
/// - `present`, the bank's copy of present6, and the registers every bank holds a copy
///   of, loaded alike in every bank (the slot's operation, its forwarding flags, the
///   clear): synthesis would merge the copies into one flip-flop that fans out over the
///   whole chip, to every bank's selects. Kept apart, each copy is placed with the logic
///   it feeds;
/// - `term_or`, the last LUT of `term5` (counting/kept_or.rs).
///
/// The generator marks both (verilog/mod.rs, `keep_counting_for_synthesis`).
/// Each is a path below the partition (`$` between a block and its part).
pub const KEPT_MODULES: [&str; 13] = [
    "present",
    "term_or",
    "forward$ins5_r",
    "forward$del5_r",
    "forward$fv4",
    "forward$fv5",
    "forward$fva5",
    "forward$fvd5",
    "forward$fv6",
    "forward$fv7",
    "counts$recount5",
    "write_back$delete6",
    "counts$clear6",
];

impl<const W: usize> CountingPartition<W> {
    /// Partition `index` of `banks`, its counters those of `ram` (2^b of c bits, c in 2..=8).
    pub fn new(
        index: usize,
        banks: usize,
        hash: HashUnit<W>,
        ram: CounterRam,
        forwarding_enabled: bool,
        delete_forwarding_enabled: bool,
        scrub: crate::core::partition::BankScrub,
    ) -> Self {
        let (bank_bits, counter_bits) = (ram.bank_bits(), ram.counter_bits());
        let max = (1u64 << counter_bits) - 1;
        let image_fill = ram.contents().iter().filter(|c| **c != 0).count() as u64;
        CountingPartition {
            clock: Default::default(),
            reset: Default::default(),
            control: Default::default(),
            ops: Default::default(),
            terms5: Default::default(),
            nz6: Default::default(),
            term5: Default::default(),
            value6: Default::default(),
            fill: Default::default(),
            saturated: Default::default(),
            scrub_mismatch: Default::default(),
            replica_write_next: Default::default(),
            replica_addr_next: Default::default(),
            replica_nz_next: Default::default(),
            hash,
            ram,
            addresses: CountingAddresses::new(index),
            forward: ForwardSelect::new(bank_bits, forwarding_enabled, delete_forwarding_enabled),
            choice: ValueChoice::new(counter_bits),
            pre: PreValue::new(counter_bits),
            write_back: WriteBack::new(counter_bits),
            counts: Counts::new(bank_bits, image_fill, scrub.built),
            cw4: Default::default(),
            cwd4: Default::default(),
            ram_nz5: Default::default(),
            slot_term5: Default::default(),
            ram_high_term5: Default::default(),
            ram_low_term5: Default::default(),
            term_or: Default::default(),
            slot_p5: Default::default(),
            slot_a5: Default::default(),
            pre_term5: Default::default(),
            take_alt5: Default::default(),
            take_alt_x5: Default::default(),
            take_cur_x5: Default::default(),
            take_cur5: Default::default(),
            cur_nz6: Default::default(),
            alt_nz6: Default::default(),
            cur6: Default::default(),
            alt6: Default::default(),
            present: PresentCopy::new(banks),
            addr3_wide: Default::default(),
            lt_hi4: Default::default(),
            eq_hi4: Default::default(),
            lt_lo4: Default::default(),
            scrub_correction: Constant::new(scrub.correction),
            bank_select: Constant::new((1u64 << index).into()),
            address_zero: Constant::new(0u64.into()),
            counter_zero: Constant::new(0u64.into()),
            counter_one: Constant::new(1u64.into()),
            counter_max: Constant::new(max.into()),
            counter_above_one: Constant::new((max & !1).into()),
        }
    }

    /// The simulated bank's counters (for tests).
    pub fn bank_contents(&self) -> &[u8] {
        self.ram.contents()
    }
}

impl<const W: usize> crate::core::partition::ControlledBank<W> for CountingPartition<W> {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn reset(&mut self) -> &mut Signal<In, bool> {
        &mut self.reset
    }
    fn control(&mut self) -> &mut FromControl<W> {
        &mut self.control
    }
    fn scrub_mismatch(&self) -> bool {
        self.scrub_mismatch.val()
    }
    fn scrub_mismatch_connect(&mut self) {}
}

impl<const W: usize> Logic for CountingPartition<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, slot_p5, slot_a5, pre_term5, cur_nz6, alt_nz6, cur6, alt6, lt_hi4, eq_hi4,
            lt_lo4
        );
        self.hash.clock.next = self.clock.val();
        self.hash.key.next = self.control.key1.val();
        self.hash.stream.next = self.control.stream2.val();
        self.ram.clock.next = self.clock.val();
        self.addresses.clock.next = self.clock.val();
        self.addresses.reset.next = self.reset.val();
        self.forward.clock.next = self.clock.val();
        self.forward.reset.next = self.reset.val();
        self.pre.clock.next = self.clock.val();
        self.write_back.clock.next = self.clock.val();
        self.write_back.reset.next = self.reset.val();
        self.counts.clock.next = self.clock.val();
        self.counts.reset.next = self.reset.val();
        self.present.clock.next = self.clock.val();
        self.present.terms5.next = self.terms5.val();

        // Addresses (addresses.rs): the RAM is read at the address of c3.
        self.addresses.hash_addr.next = self.hash.addr.val();
        self.addresses.is_rb2.next = self.control.is_rb2.val();
        self.addresses.rb_addr2.next = self.control.rb_addr2.val();
        self.addresses.sweep_en.next = self.control.sweep_en.val();
        self.addresses.write4.next = self.control.write4.val();
        self.addresses.wdata4.next = self.control.wdata4.val();
        self.addresses.sweep_en3.next = self.control.sweep_en3.val();
        self.addresses.sweep_addr3.next = self.control.sweep_addr3.val();
        self.ram.read_addr.next = self.addresses.addr3.val();

        // Where the counter comes from (forward.rs).
        self.cw4.next = (self.ops.cw4.val() & self.bank_select.val()) != self.address_zero.val();
        self.cwd4.next = self.ops.cwd4.val() & self.counter_max.val();
        self.forward.addr3.next = self.addresses.addr3.val();
        self.forward.addr4.next = self.addresses.addr4.val();
        self.forward.addr5.next = self.addresses.addr5.val();
        self.forward.addr6.next = self.addresses.addr6.val();
        self.forward.addr7.next = self.write_back.addr7.val();
        self.forward.slot3.next = self.ops.slot3.val();
        self.forward.del3.next = self.ops.del3.val();
        self.forward.ins4.next = self.ops.ins4.val();
        self.forward.del4.next = self.ops.del4.val();
        self.forward.cw4.next = self.cw4.val();

        // The value forwarded from two to four slots ahead, and the alternative's base (pre.rs).
        self.pre.present6.next = self.present.present6.val();
        self.pre.e2a.next = self.forward.e2a.val();
        self.pre.e2d.next = self.forward.e2d.val();
        self.pre.eq2.next = self.forward.eq2.val();
        self.pre.eq3.next = self.forward.eq3.val();
        self.pre.alt6.next = self.alt6.q.val();
        self.pre.alt_nz6.next = self.alt_nz6.q.val();
        self.pre.cur6.next = self.cur6.q.val();
        self.pre.cur_nz6.next = self.cur_nz6.q.val();
        self.pre.w7.next = self.write_back.w7.val();
        self.pre.w7_nz.next = self.write_back.w7_nz.val();
        self.pre.w8.next = self.write_back.w8.val();
        self.pre.w8_nz.next = self.write_back.w8_nz.val();
        self.pre.ins4.next = self.ops.ins4.val();
        self.pre.cw4.next = self.cw4.val();
        self.pre.cwd4.next = self.cwd4.val();
        self.pre.cwd_dec4.next = self.ops.cwd_dec4.val();

        // c5: the counter, newest value first (choice.rs). Only the take_* see present6
        // (one LUT from it, kept as nets).
        self.ram_nz5.next = self.ram.read_data.val() != self.counter_zero.val();
        self.take_alt5.next =
            self.forward.ma.val() | (self.forward.md.val() & self.present.present6.val());
        if self.present.present6.val() {
            self.take_cur5.next = self.forward.sel_cur_p.val();
        } else {
            self.take_cur5.next = self.forward.sel_cur_a.val();
        }
        // The same for the alternative, whose sources differ for a counter write (its
        // base in prealt5, see pre.rs).
        self.take_alt_x5.next =
            self.forward.ma_x.val() | (self.forward.md_x.val() & self.present.present6.val());
        if self.present.present6.val() {
            self.take_cur_x5.next = self.forward.sel_cur_p_x.val();
        } else {
            self.take_cur_x5.next = self.forward.sel_cur_a_x.val();
        }
        self.choice.g_inc.next = self.pre.g_inc5.val();
        self.choice.alt6.next = self.alt6.q.val();
        self.choice.alt_nz6.next = self.alt_nz6.q.val();
        self.choice.cur6.next = self.cur6.q.val();
        self.choice.cur_nz6.next = self.cur_nz6.q.val();
        self.choice.pre5.next = self.pre.pre5.val();
        self.choice.pre_nz5.next = self.pre.pre_nz5.val();
        self.choice.prealt5.next = self.pre.prealt5.val();
        self.choice.ram.next = self.ram.read_data.val();
        self.choice.ram_nz.next = self.ram_nz5.val();
        self.choice.take_alt.next = self.take_alt5.val();
        self.choice.take_cur.next = self.take_cur5.val();
        self.choice.sel_pre.next = self.forward.sel_pre.val();
        self.choice.sel_ram.next = self.forward.sel_ram.val();
        self.choice.take_alt_x.next = self.take_alt_x5.val();
        self.choice.take_cur_x.next = self.take_cur_x5.val();
        self.choice.sel_pre_x.next = self.forward.sel_pre_x.val();
        self.choice.sel_ram_x.next = self.forward.sel_ram_x.val();
        // Whether the counter is non-zero after the slot in c6 (a delete writes its
        // alternative only if present6; an insert or a counter write always), from the
        // terms registered in c4 (below) and the RAM's counter.
        if self.present.present6.val() {
            self.slot_term5.next = self.slot_p5.q.val() | self.pre_term5.q.val();
        } else {
            self.slot_term5.next = self.slot_a5.q.val() | self.pre_term5.q.val();
        }
        self.ram_high_term5.next = self.forward.sel_ram.val()
            & ((self.ram.read_data.val() & self.counter_above_one.val())
                != self.counter_zero.val());
        self.ram_low_term5.next = self.forward.sel_ram.val()
            & ((self.ram.read_data.val() & self.counter_one.val()) != self.counter_zero.val());
        self.term_or.a.next = self.slot_term5.val();
        self.term_or.b.next = self.ram_high_term5.val();
        self.term_or.c.next = self.ram_low_term5.val();
        self.term5.next = self.term_or.y.val();
        self.nz6.next = self.cur_nz6.q.val();
        self.value6.next = self.cur6.q.val();
        // Within c bits: a delete's -1 from 0 (never written) would wrap, and the
        // loop of value registers (cur6 -> w7 -> w8 -> pre5 -> cur6) would carry its
        // bits above c, which no reset clears, through every register of it. Masked
        // here, the bits above c are constant 0 in every value register, synthesis
        // removes them, and the compares on them are c bits wide. (Unmasked, they were
        // flip-flops whose synchronous reset was the choice of alt6, on the slowest
        // paths of HX8K.)
        self.cur6.d.next = self.choice.value.val() & self.counter_max.val();
        self.cur_nz6.d.next = self.choice.nz.val();
        // The alternative is non-zero: an insert's always, a counter write's if its value
        // is, a delete's if the counter is above 1 (a delete writes only when it is >= 1).
        self.alt_nz6.d.next = self.choice.alt_nz.val();
        // The terms of the slot behind (now in c4) for its AND over the banks in c5: this
        // slot's counter after it is non-zero, if it is present / absent (the selects of
        // the slot behind, ma_5 .. sel_cur_a5, as they are loaded), and pre5's.
        self.slot_p5.d.next = ((self.forward.ma_next.val() | self.forward.md_next.val())
            & self.choice.alt_nz.val())
            | (self.forward.sel_cur_p_next.val() & self.choice.nz.val());
        self.slot_a5.d.next = (self.forward.ma_next.val() & self.choice.alt_nz.val())
            | (self.forward.sel_cur_a_next.val() & self.choice.nz.val());
        self.pre_term5.d.next = self.forward.sel_pre_next.val() & self.pre.pre_nz_next.val();
        self.alt6.d.next = self.choice.alt.val() & self.counter_max.val();

        // c6 and c7: the write-back (write_back.rs).
        self.write_back.present6.next = self.present.present6.val();
        self.write_back.write_alt5.next = self.forward.ins5.val() | self.forward.cw5.val();
        self.write_back.delete5.next = self.forward.del5.val();
        self.write_back.sweep5.next = self.addresses.sweep5.val();
        self.write_back.sweep6.next = self.addresses.sweep6.val();
        self.write_back.addr6.next = self.addresses.addr6.val();
        self.write_back.cur6.next = self.cur6.q.val();
        self.write_back.cur_nz6.next = self.cur_nz6.q.val();
        self.write_back.alt6.next = self.alt6.q.val();
        self.write_back.alt_nz6.next = self.alt_nz6.q.val();
        self.ram.write_enable.next = self.write_back.write_enable.val();
        self.ram.write_addr.next = self.write_back.write_addr.val();
        self.ram.write_data.next = self.write_back.write_data.val();
        self.replica_write_next.next = self.write_back.replica_write_next.val();
        self.replica_addr_next.next = self.addresses.addr6.val();
        self.replica_nz_next.next = self.write_back.replica_nz_next.val();

        // The counts (counts.rs): the slot in c6's counter before and after its change,
        // and a recount slot's counter read from the RAM in c5.
        self.counts.clear5.next = self.control.clear5.val();
        self.counts.recount4.next = self.control.counted4.val() & !self.control.scrub4.val();
        self.addr3_wide.narrow.next = self.addresses.addr3.val();
        self.lt_hi4.d.next =
            self.addr3_wide.wide.val().get_bits::<9>(8) < self.control.ptr3.val().get_bits::<9>(8);
        self.eq_hi4.d.next =
            self.addr3_wide.wide.val().get_bits::<9>(8) == self.control.ptr3.val().get_bits::<9>(8);
        self.lt_lo4.d.next =
            self.addr3_wide.wide.val().get_bits::<8>(0) < self.control.ptr3.val().get_bits::<8>(0);
        self.counts.below4.next = (self.lt_hi4.q.val()
            | (self.eq_hi4.q.val() & self.lt_lo4.q.val()))
            & self.scrub_correction.val();
        self.counts.scrub4.next = self.control.scrub4.val();
        self.counts.scrub_zero5.next = self.control.scrub_zero5.val();
        self.counts.scrub_finish.next = self.control.scrub_finish.val();
        self.counts.power_up.next = self.control.power_up.val();
        self.counts.ram_nz5.next = self.ram_nz5.val();
        self.counts.ram_sat5.next = self.ram.read_data.val() == self.counter_max.val();
        self.counts.nz_before6.next = self.cur_nz6.q.val();
        self.counts.nz_after6.next = self.write_back.nz_after6.val();
        self.counts.sat_before6.next = self.cur6.q.val() == self.counter_max.val();
        self.counts.sat_after6.next = self.write_back.sat_after6.val();
        self.fill.next = self.counts.fill.val();
        self.saturated.next = self.counts.saturated.val();
        self.scrub_mismatch.next = self.counts.scrub_mismatch.val();

        if self.reset.val() {
            self.lt_hi4.d.next = false;
            self.eq_hi4.d.next = false;
            self.lt_lo4.d.next = false;
            self.slot_p5.d.next = false;
            self.slot_a5.d.next = false;
            self.pre_term5.d.next = false;
        }
    }
}
