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

use crate::core::partition::FromControl;
use crate::counting::counter_ram::CounterRam;
use crate::counting::counter_step::CounterStep;
use crate::counting::kept_or::KeptOr3;
use crate::counting::ops::FromOps;
use crate::counting::present_copy::PresentCopy;
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
    hash: HashUnit<W>,
    ram: CounterRam,
    addr2: Signal<Local, Bits<16>>,
    addr3: DFF<Bits<16>>,
    addr4: DFF<Bits<16>>,
    addr5: DFF<Bits<16>>,
    // The write address of c6: the slot's, or the sweep's.
    addr6: DFF<Bits<16>>,
    // The write address of c7 (addr6 registered).
    addr7: DFF<Bits<16>>,
    // The sweep's address and write, delayed from the control's c4 to c6.
    sweep_addr4: DFF<Bits<16>>,
    sweep_addr5: DFF<Bits<16>>,
    sweep4: Signal<Local, bool>,
    sweep5: DFF<bool>,
    sweep6: DFF<bool>,
    // Slots whose value is forwarded (fwd_enabled below), per stage.
    fv5: DFF<bool>,
    fv6: DFF<bool>,
    fv7: DFF<bool>,
    // fv4, the slot in c4's, registered in every bank from the flags of c3 (kept apart:
    // from one flip-flop in the operations' block, it reached every bank's c3 compare
    // with the slot one ahead, m1_4, across the chip).
    fv4: DFF<bool>,
    // fv5 and the slot writes its alternative unconditionally (an insert or a counter
    // write: fva5) / if present (a delete: fvd5), so that each c3 compare ends in one
    // LUT of its own, packed with its flip-flop.
    fva5: DFF<bool>,
    fvd5: DFF<bool>,
    ins5: DFF<bool>,
    del5: DFF<bool>,
    cw5: DFF<bool>,
    cwd5: DFF<Bits<8>>,
    cw4: Signal<Local, bool>,
    cwd4: Signal<Local, Bits<8>>,
    recount5: DFF<bool>,
    // c3 compares: the slot in c3 has the address of the slot in c5 / c6 / c7.
    eq2_4: DFF<bool>,
    eq3_4: DFF<bool>,
    eq4_4: DFF<bool>,
    // The slot in c3 has the address of the slot in c5, which will write its
    // alternative unconditionally / if present.
    e2a_4: DFF<bool>,
    e2d_4: DFF<bool>,
    // c4: pre5 / prealt5 take the alternative of the slot in c6 (present6 enters here
    // only), else the rest of their choice.
    take_pre_alt4: Signal<Local, bool>,
    take_prealt_alt4: Signal<Local, bool>,
    pre_else4: Signal<Local, Bits<8>>,
    pre_nz_else4: Signal<Local, bool>,
    prealt_else4: Signal<Local, Bits<8>>,
    // c3 compare: the slot in c3 has the address of the slot in c4 (m1_5 in c5: the slot
    // in c5 has the address of the slot in c6).
    m1_4: DFF<bool>,
    m1_5: DFF<bool>,
    // The slot in c5 has the address of the slot in c6, which writes its alternative
    // unconditionally (an insert or a counter write: ma_5), or if present (a delete: md_5).
    ma_5: DFF<bool>,
    md_5: DFF<bool>,
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
    // only selects that see present6).
    take_alt5: Signal<Local, bool>,
    // Each candidate (a_: alt6, c_: cur6, e_: prealt5, r_: the RAM's): its saturating
    // +1 and -1 (counting/counter_step.rs), its alternative and whether that is non-zero.
    a_step: CounterStep,
    a_alt: Signal<Local, Bits<8>>,
    a_altnz: Signal<Local, bool>,
    c_step: CounterStep,
    c_alt: Signal<Local, Bits<8>>,
    c_altnz: Signal<Local, bool>,
    e_step: CounterStep,
    e_alt: Signal<Local, Bits<8>>,
    e_altnz: Signal<Local, bool>,
    r_step: CounterStep,
    r_alt: Signal<Local, Bits<8>>,
    r_altnz: Signal<Local, bool>,
    // The alternative of the slot in c5 is a +1 (insert, counter write of a non-zero
    // value), else a -1.
    g_inc5: DFF<bool>,
    // pre5, or for a counter write its base (its value - 1, or 1 for 0).
    prealt5: DFF<Bits<8>>,
    cw_base4: Signal<Local, Bits<8>>,
    // The selects of the alternative: those of the counter, but a counter write's
    // alternative comes from prealt5 alone.
    ma_x5: DFF<bool>,
    md_x5: DFF<bool>,
    sel_cur_p_x5: DFF<bool>,
    sel_cur_a_x5: DFF<bool>,
    sel_pre_x5: DFF<bool>,
    sel_ram_x5: DFF<bool>,
    take_alt_x5: Signal<Local, bool>,
    take_cur_x5: Signal<Local, bool>,
    take_cur5: Signal<Local, bool>,
    // The four terms of the AND-OR choices of the counter and of its alternative.
    t_alt: Signal<Local, Bits<8>>,
    t_cur: Signal<Local, Bits<8>>,
    t_pre: Signal<Local, Bits<8>>,
    t_ram: Signal<Local, Bits<8>>,
    t_alt_alt: Signal<Local, Bits<8>>,
    t_cur_alt: Signal<Local, Bits<8>>,
    t_pre_alt: Signal<Local, Bits<8>>,
    t_ram_alt: Signal<Local, Bits<8>>,
    // The counter of the slot in c5 is the slot one ahead's unchanged counter if present6
    // / if not (with ma_5, md_5 these choose take_alt5 and take_cur5), pre5's, or the RAM's.
    sel_cur_p5: DFF<bool>,
    sel_cur_a5: DFF<bool>,
    sel_pre5: DFF<bool>,
    sel_ram5: DFF<bool>,
    pre5: DFF<Bits<8>>,
    // Whether pre5 / cur6 / alt6 / w7 / w8 are non-zero, registered with them.
    pre_nz5: DFF<bool>,
    cur_nz6: DFF<bool>,
    alt_nz6: DFF<bool>,
    w7_nz: DFF<bool>,
    w8_nz: DFF<bool>,
    w6_nz: Signal<Local, bool>,
    // What c5 chooses: the counter, whether it is non-zero, its alternative and whether
    // that is non-zero.
    value: Signal<Local, Bits<8>>,
    p_nz: Signal<Local, bool>,
    p_alt: Signal<Local, Bits<8>>,
    p_altnz: Signal<Local, bool>,
    cur6: DFF<Bits<8>>,
    alt6: DFF<Bits<8>>,
    // c6 writes alt6 unconditionally (insert, counter write) / if present6 (delete).
    write_alt6: DFF<bool>,
    delete6: DFF<bool>,
    // The slot in c6 found all its counters non-zero: this bank's copy, kept apart
    // from the other banks' so that each bank's uses of it are local.
    present: PresentCopy,
    use_alt6: Signal<Local, bool>,
    w6: Signal<Local, Bits<8>>,
    // The counter after the slot in c7 (0 for the sweep): the RAM's write data, and
    // forwarded to the slot three behind; w8 to the slot four behind.
    w7: DFF<Bits<8>>,
    w8: DFF<Bits<8>>,
    // The write of c7: any insert, counter write, delete (its unchanged counter if
    // absent) or sweep; every input of the RAM's write port is a register.
    write6: DFF<bool>,
    write7: DFF<bool>,
    // The slot in c6: its counter non-zero / at S before and after its change.
    nz_after6: Signal<Local, bool>,
    sat_before6: Signal<Local, bool>,
    sat_after6: Signal<Local, bool>,
    // The count steps of the slot in c6, registered and added in c7.
    fill_up7: DFF<bool>,
    fill_down7: DFF<bool>,
    sat_up7: DFF<bool>,
    sat_down7: DFF<bool>,
    fill_addend: Signal<Local, Bits<17>>,
    sat_addend: Signal<Local, Bits<17>>,
    fill_addend_low: Signal<Local, Bits<17>>,
    sat_addend_low: Signal<Local, Bits<17>>,
    // A clear in c6 (it zeroes the counts at the end of c6).
    clear6: DFF<bool>,
    fill_count: DFF<Bits<17>>,
    sat_count: DFF<Bits<17>>,
    forwarding_enabled: Constant<bool>,
    // False only under the test switch that removes the forwarding of a delete's value.
    delete_forwarding_enabled: Constant<bool>,
    bank_select: Constant<Bits<16>>,
    address_mask: Constant<Bits<16>>,
    address_zero: Constant<Bits<16>>,
    counter_zero: Constant<Bits<8>>,
    counter_one: Constant<Bits<8>>,
    counter_max: Constant<Bits<8>>,
    counter_below_max: Constant<Bits<8>>,
    counter_above_one: Constant<Bits<8>>,
    count_zero: Constant<Bits<17>>,
    count_one: Constant<Bits<17>>,
    count_upper: Constant<Bits<17>>,
    count_mask: Constant<Bits<17>>,
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
pub const KEPT_MODULES: [&str; 13] = [
    "present", "term_or", "ins5", "del5", "fv4", "fv5", "fva5", "fvd5", "fv6", "fv7", "recount5",
    "delete6", "clear6",
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
    ) -> Self {
        let (bank_bits, counter_bits) = (ram.bank_bits(), ram.counter_bits());
        let max = (1u64 << counter_bits) - 1;
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
            hash,
            ram,
            addr2: Default::default(),
            addr3: Default::default(),
            addr4: Default::default(),
            addr5: Default::default(),
            addr6: Default::default(),
            addr7: Default::default(),
            sweep_addr4: Default::default(),
            sweep_addr5: Default::default(),
            sweep4: Default::default(),
            sweep5: Default::default(),
            sweep6: Default::default(),
            fv5: Default::default(),
            fv6: Default::default(),
            fv7: Default::default(),
            fv4: Default::default(),
            fva5: Default::default(),
            fvd5: Default::default(),
            ins5: Default::default(),
            del5: Default::default(),
            cw5: Default::default(),
            cwd5: Default::default(),
            cw4: Default::default(),
            cwd4: Default::default(),
            recount5: Default::default(),
            eq2_4: Default::default(),
            e2a_4: Default::default(),
            e2d_4: Default::default(),
            take_pre_alt4: Default::default(),
            take_prealt_alt4: Default::default(),
            pre_else4: Default::default(),
            pre_nz_else4: Default::default(),
            prealt_else4: Default::default(),
            eq3_4: Default::default(),
            eq4_4: Default::default(),
            m1_4: Default::default(),
            m1_5: Default::default(),
            ma_5: Default::default(),
            md_5: Default::default(),
            ram_nz5: Default::default(),
            slot_term5: Default::default(),
            ram_high_term5: Default::default(),
            ram_low_term5: Default::default(),
            term_or: Default::default(),
            slot_p5: Default::default(),
            slot_a5: Default::default(),
            pre_term5: Default::default(),
            take_alt5: Default::default(),
            a_step: CounterStep::new(counter_bits),
            a_alt: Default::default(),
            a_altnz: Default::default(),
            c_step: CounterStep::new(counter_bits),
            c_alt: Default::default(),
            c_altnz: Default::default(),
            e_step: CounterStep::new(counter_bits),
            e_alt: Default::default(),
            e_altnz: Default::default(),
            r_step: CounterStep::new(counter_bits),
            r_alt: Default::default(),
            r_altnz: Default::default(),
            g_inc5: Default::default(),
            prealt5: Default::default(),
            cw_base4: Default::default(),
            ma_x5: Default::default(),
            md_x5: Default::default(),
            sel_cur_p_x5: Default::default(),
            sel_cur_a_x5: Default::default(),
            sel_pre_x5: Default::default(),
            sel_ram_x5: Default::default(),
            take_alt_x5: Default::default(),
            take_cur_x5: Default::default(),
            take_cur5: Default::default(),
            t_alt: Default::default(),
            t_cur: Default::default(),
            t_pre: Default::default(),
            t_ram: Default::default(),
            t_alt_alt: Default::default(),
            t_cur_alt: Default::default(),
            t_pre_alt: Default::default(),
            t_ram_alt: Default::default(),
            sel_cur_p5: Default::default(),
            sel_cur_a5: Default::default(),
            sel_pre5: Default::default(),
            sel_ram5: Default::default(),
            pre5: Default::default(),
            pre_nz5: Default::default(),
            cur_nz6: Default::default(),
            alt_nz6: Default::default(),
            w7_nz: Default::default(),
            w8_nz: Default::default(),
            w6_nz: Default::default(),
            value: Default::default(),
            p_nz: Default::default(),
            p_alt: Default::default(),
            p_altnz: Default::default(),
            cur6: Default::default(),
            alt6: Default::default(),
            write_alt6: Default::default(),
            delete6: Default::default(),
            present: PresentCopy::new(banks),
            use_alt6: Default::default(),
            w6: Default::default(),
            w7: Default::default(),
            w8: Default::default(),
            write6: Default::default(),
            write7: Default::default(),
            nz_after6: Default::default(),
            sat_before6: Default::default(),
            sat_after6: Default::default(),
            fill_up7: Default::default(),
            fill_down7: Default::default(),
            sat_up7: Default::default(),
            sat_down7: Default::default(),
            fill_addend: Default::default(),
            sat_addend: Default::default(),
            fill_addend_low: Default::default(),
            sat_addend_low: Default::default(),
            clear6: Default::default(),
            fill_count: Default::default(),
            sat_count: Default::default(),
            forwarding_enabled: Constant::new(forwarding_enabled),
            delete_forwarding_enabled: Constant::new(delete_forwarding_enabled),
            bank_select: Constant::new((1u64 << index).into()),
            address_mask: Constant::new(((1u64 << bank_bits) - 1).into()),
            address_zero: Constant::new(0u64.into()),
            counter_zero: Constant::new(0u64.into()),
            counter_one: Constant::new(1u64.into()),
            counter_max: Constant::new(max.into()),
            counter_below_max: Constant::new((max - 1).into()),
            counter_above_one: Constant::new((max & !1).into()),
            count_zero: Constant::new(0u64.into()),
            count_one: Constant::new(1u64.into()),
            count_upper: Constant::new(((1u64 << (bank_bits + 1)) - 2).into()),
            count_mask: Constant::new(((1u64 << (bank_bits + 1)) - 1).into()),
        }
    }

    /// The simulated bank's counters (for tests).
    pub fn bank_contents(&self) -> &[u8] {
        self.ram.contents()
    }
}

impl<const W: usize> crate::core::glue::ControlledBank<W> for CountingPartition<W> {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn reset(&mut self) -> &mut Signal<In, bool> {
        &mut self.reset
    }
    fn control(&mut self) -> &mut FromControl<W> {
        &mut self.control
    }
}

impl<const W: usize> Logic for CountingPartition<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            addr3,
            addr4,
            addr5,
            addr6,
            addr7,
            sweep_addr4,
            sweep_addr5,
            sweep5,
            sweep6,
            fv4,
            fv5,
            fv6,
            fv7,
            fva5,
            fvd5,
            ins5,
            del5,
            cw5,
            cwd5,
            recount5,
            eq2_4,
            e2a_4,
            e2d_4,
            eq3_4,
            eq4_4,
            m1_4,
            m1_5,
            ma_5,
            md_5,
            g_inc5,
            prealt5,
            ma_x5,
            md_x5,
            sel_cur_p_x5,
            sel_cur_a_x5,
            sel_pre_x5,
            sel_ram_x5,
            sel_cur_p5,
            sel_cur_a5,
            sel_pre5,
            sel_ram5,
            slot_p5,
            slot_a5,
            pre_term5,
            pre5,
            pre_nz5,
            cur_nz6,
            alt_nz6,
            w7_nz,
            w8_nz,
            cur6,
            alt6,
            write_alt6,
            delete6,
            w7,
            w8,
            write6,
            write7,
            fill_up7,
            fill_down7,
            sat_up7,
            sat_down7,
            clear6,
            fill_count,
            sat_count
        );
        self.hash.clock.next = self.clock.val();
        self.hash.key.next = self.control.key1.val();
        self.ram.clock.next = self.clock.val();
        if self.control.is_rb2.val() {
            self.addr2.next = self.control.rb_addr2.val();
        } else {
            self.addr2.next = self.hash.addr.val();
        }
        self.addr3.d.next = self.addr2.val();
        self.ram.read_addr.next = self.addr3.q.val();
        self.addr4.d.next = self.addr3.q.val();
        self.addr5.d.next = self.addr4.q.val();
        // The sweep writes 0 into this bank in the control's c4 (its write enable and data
        // while sweeping, none during the recount); here three stages later (c7).
        self.sweep4.next = (self.control.sweep_en.val() & !self.control.wdata4.val())
            & ((self.control.write4.val() & self.bank_select.val()) != self.address_zero.val());
        if self.control.sweep_en3.val() {
            self.sweep_addr4.d.next = self.control.sweep_addr3.val();
        }
        self.sweep5.d.next = self.sweep4.val();
        self.sweep_addr5.d.next = self.sweep_addr4.q.val();
        self.sweep6.d.next = self.sweep5.q.val();
        if self.sweep5.q.val() {
            self.addr6.d.next = self.sweep_addr5.q.val();
        } else {
            self.addr6.d.next = self.addr5.q.val();
        }

        // Which slots forward their value (all that read an address; the test switches
        // take away all, or the deletes').
        self.fv4.d.next = (self.forwarding_enabled.val() & self.ops.slot3.val())
            & (self.delete_forwarding_enabled.val() | !self.ops.del3.val());
        self.fv5.d.next = self.fv4.q.val();
        self.fv6.d.next = self.fv5.q.val();
        self.fv7.d.next = self.fv6.q.val();
        self.ins5.d.next = self.ops.ins4.val();
        self.del5.d.next = self.ops.del4.val();
        self.cw4.next = (self.ops.cw4.val() & self.bank_select.val()) != self.address_zero.val();
        self.fva5.d.next = self.fv4.q.val() & (self.ops.ins4.val() | self.cw4.val());
        self.fvd5.d.next = self.fv4.q.val() & self.ops.del4.val();
        self.cwd4.next = self.ops.cwd4.val() & self.counter_max.val();
        self.cw5.d.next = self.cw4.val();
        self.cwd5.d.next = self.cwd4.val();
        self.recount5.d.next = self.control.recount4.val();

        // c6: the value after the slot in c6 (written back below), first: c4 and c5 read it.
        self.use_alt6.next =
            self.write_alt6.q.val() | (self.delete6.q.val() & self.present.present6.val());
        if self.use_alt6.val() {
            self.w6.next = self.alt6.q.val();
        } else {
            self.w6.next = self.cur6.q.val();
        }
        if self.use_alt6.val() {
            self.w6_nz.next = self.alt_nz6.q.val();
        } else {
            self.w6_nz.next = self.cur_nz6.q.val();
        }

        // Address compares, one stage before their use.
        self.eq2_4.d.next = (((self.addr3.q.val() ^ self.addr5.q.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fv5.q.val();
        self.e2a_4.d.next = (((self.addr3.q.val() ^ self.addr5.q.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fva5.q.val();
        self.e2d_4.d.next = (((self.addr3.q.val() ^ self.addr5.q.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fvd5.q.val();
        self.eq3_4.d.next = (((self.addr3.q.val() ^ self.addr6.q.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fv6.q.val();
        self.eq4_4.d.next = (((self.addr3.q.val() ^ self.addr7.q.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fv7.q.val();
        self.m1_4.d.next = (((self.addr3.q.val() ^ self.addr4.q.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fv4.q.val();
        self.m1_5.d.next = self.m1_4.q.val();
        self.ma_5.d.next = self.m1_5.d.val() & (self.ins5.q.val() | self.cw5.q.val());
        self.md_5.d.next = self.m1_5.d.val() & self.del5.q.val();
        self.sel_cur_p5.d.next =
            self.m1_5.d.val() & !((self.ins5.q.val() | self.cw5.q.val()) | self.del5.q.val());
        self.sel_cur_a5.d.next = self.m1_5.d.val() & !(self.ins5.q.val() | self.cw5.q.val());
        self.sel_pre5.d.next =
            !self.m1_5.d.val() & ((self.eq2_4.q.val() | self.eq3_4.q.val()) | self.eq4_4.q.val());
        self.sel_ram5.d.next =
            !self.m1_5.d.val() & !((self.eq2_4.q.val() | self.eq3_4.q.val()) | self.eq4_4.q.val());
        // A counter write's alternative is its value: made the +1 of value - 1 (or the -1
        // of 1 for 0) from prealt5, so that every alternative is a +1 or a -1.
        self.g_inc5.d.next =
            self.ops.ins4.val() | (self.cw4.val() & (self.cwd4.val() != self.counter_zero.val()));
        if self.cwd4.val() == self.counter_zero.val() {
            self.cw_base4.next = self.counter_one.val();
        } else {
            self.cw_base4.next = self.ops.cwd_dec4.val() & self.counter_max.val();
        }
        self.ma_x5.d.next =
            (self.m1_5.d.val() & (self.ins5.q.val() | self.cw5.q.val())) & !self.cw4.val();
        self.md_x5.d.next = (self.m1_5.d.val() & self.del5.q.val()) & !self.cw4.val();
        self.sel_cur_p_x5.d.next = (self.m1_5.d.val()
            & !((self.ins5.q.val() | self.cw5.q.val()) | self.del5.q.val()))
            & !self.cw4.val();
        self.sel_cur_a_x5.d.next =
            (self.m1_5.d.val() & !(self.ins5.q.val() | self.cw5.q.val())) & !self.cw4.val();
        self.sel_pre_x5.d.next = (!self.m1_5.d.val()
            & ((self.eq2_4.q.val() | self.eq3_4.q.val()) | self.eq4_4.q.val()))
            | self.cw4.val();
        self.sel_ram_x5.d.next = (!self.m1_5.d.val()
            & !((self.eq2_4.q.val() | self.eq3_4.q.val()) | self.eq4_4.q.val()))
            & !self.cw4.val();
        // pre5: the value after the slot two ahead (in c6: its alternative if take_pre_alt4,
        // its counter otherwise), else three ahead (w7), else four ahead (w8); present6
        // reaches it through take_pre_alt4 only.
        self.take_pre_alt4.next =
            self.e2a_4.q.val() | (self.e2d_4.q.val() & self.present.present6.val());
        self.take_prealt_alt4.next = (self.e2a_4.q.val()
            | (self.e2d_4.q.val() & self.present.present6.val()))
            & !self.cw4.val();
        if self.eq2_4.q.val() {
            self.pre_else4.next = self.cur6.q.val();
            self.pre_nz_else4.next = self.cur_nz6.q.val();
        } else if self.eq3_4.q.val() {
            self.pre_else4.next = self.w7.q.val();
            self.pre_nz_else4.next = self.w7_nz.q.val();
        } else {
            self.pre_else4.next = self.w8.q.val();
            self.pre_nz_else4.next = self.w8_nz.q.val();
        }
        if self.take_pre_alt4.val() {
            self.pre5.d.next = self.alt6.q.val();
            self.pre_nz5.d.next = self.alt_nz6.q.val();
        } else {
            self.pre5.d.next = self.pre_else4.val();
            self.pre_nz5.d.next = self.pre_nz_else4.val();
        }
        if self.cw4.val() {
            self.prealt_else4.next = self.cw_base4.val();
        } else {
            self.prealt_else4.next = self.pre_else4.val();
        }
        if self.take_prealt_alt4.val() {
            self.prealt5.d.next = self.alt6.q.val();
        } else {
            self.prealt5.d.next = self.prealt_else4.val();
        }

        // c5: the counter, newest value first: the slot one ahead's (c6: its alternative
        // or its unchanged counter, as present6 says), else two to four ahead's (pre5),
        // else the RAM's. Every choice is an AND-OR over one-hot selects, registered but
        // for take_* (one LUT from present6, kept as nets).
        self.ram_nz5.next = self.ram.read_data.val() != self.counter_zero.val();
        self.take_alt5.next = self.ma_5.q.val() | (self.md_5.q.val() & self.present.present6.val());
        if self.present.present6.val() {
            self.take_cur5.next = self.sel_cur_p5.q.val();
        } else {
            self.take_cur5.next = self.sel_cur_a5.q.val();
        }
        // The same for the alternative, whose sources differ for a counter write (its
        // base in prealt5, see c4).
        self.take_alt_x5.next =
            self.ma_x5.q.val() | (self.md_x5.q.val() & self.present.present6.val());
        if self.present.present6.val() {
            self.take_cur_x5.next = self.sel_cur_p_x5.q.val();
        } else {
            self.take_cur_x5.next = self.sel_cur_a_x5.q.val();
        }
        // Whether the counter is non-zero after the slot in c6 (a delete writes its
        // alternative only if present6; an insert or a counter write always), from the
        // terms registered in c4 (below) and the RAM's counter.
        if self.present.present6.val() {
            self.slot_term5.next = self.slot_p5.q.val() | self.pre_term5.q.val();
        } else {
            self.slot_term5.next = self.slot_a5.q.val() | self.pre_term5.q.val();
        }
        self.ram_high_term5.next = self.sel_ram5.q.val()
            & ((self.ram.read_data.val() & self.counter_above_one.val())
                != self.counter_zero.val());
        self.ram_low_term5.next = self.sel_ram5.q.val()
            & ((self.ram.read_data.val() & self.counter_one.val()) != self.counter_zero.val());
        self.term_or.a.next = self.slot_term5.val();
        self.term_or.b.next = self.ram_high_term5.val();
        self.term_or.c.next = self.ram_low_term5.val();
        self.term5.next = self.term_or.y.val();
        self.present.clock.next = self.clock.val();
        self.present.terms5.next = self.terms5.val();
        // Each candidate's alternative: +1 below S if g_inc5, else -1 below S (at S both
        // stay), and whether it is non-zero (+1: always; -1: if the counter is >= 2).
        self.a_step.value.next = self.alt6.q.val();
        if self.g_inc5.q.val() {
            self.a_alt.next = self.a_step.up.val();
        } else {
            self.a_alt.next = self.a_step.down.val();
        }
        self.a_altnz.next = self.g_inc5.q.val()
            | ((self.alt6.q.val() & self.counter_below_max.val()) != self.counter_zero.val());
        self.c_step.value.next = self.cur6.q.val();
        if self.g_inc5.q.val() {
            self.c_alt.next = self.c_step.up.val();
        } else {
            self.c_alt.next = self.c_step.down.val();
        }
        self.c_altnz.next = self.g_inc5.q.val()
            | ((self.cur6.q.val() & self.counter_below_max.val()) != self.counter_zero.val());
        self.e_step.value.next = self.prealt5.q.val();
        if self.g_inc5.q.val() {
            self.e_alt.next = self.e_step.up.val();
        } else {
            self.e_alt.next = self.e_step.down.val();
        }
        self.e_altnz.next = self.g_inc5.q.val()
            | ((self.prealt5.q.val() & self.counter_below_max.val()) != self.counter_zero.val());
        self.r_step.value.next = self.ram.read_data.val();
        if self.g_inc5.q.val() {
            self.r_alt.next = self.r_step.up.val();
        } else {
            self.r_alt.next = self.r_step.down.val();
        }
        self.r_altnz.next = self.g_inc5.q.val()
            | ((self.ram.read_data.val() & self.counter_below_max.val())
                != self.counter_zero.val());
        if self.take_alt5.val() {
            self.t_alt.next = self.alt6.q.val();
        } else {
            self.t_alt.next = self.counter_zero.val();
        }
        if self.take_alt_x5.val() {
            self.t_alt_alt.next = self.a_alt.val();
        } else {
            self.t_alt_alt.next = self.counter_zero.val();
        }
        if self.take_cur5.val() {
            self.t_cur.next = self.cur6.q.val();
        } else {
            self.t_cur.next = self.counter_zero.val();
        }
        if self.take_cur_x5.val() {
            self.t_cur_alt.next = self.c_alt.val();
        } else {
            self.t_cur_alt.next = self.counter_zero.val();
        }
        if self.sel_pre5.q.val() {
            self.t_pre.next = self.pre5.q.val();
        } else {
            self.t_pre.next = self.counter_zero.val();
        }
        if self.sel_pre_x5.q.val() {
            self.t_pre_alt.next = self.e_alt.val();
        } else {
            self.t_pre_alt.next = self.counter_zero.val();
        }
        if self.sel_ram5.q.val() {
            self.t_ram.next = self.ram.read_data.val();
        } else {
            self.t_ram.next = self.counter_zero.val();
        }
        if self.sel_ram_x5.q.val() {
            self.t_ram_alt.next = self.r_alt.val();
        } else {
            self.t_ram_alt.next = self.counter_zero.val();
        }
        self.value.next =
            (self.t_alt.val() | self.t_cur.val()) | (self.t_pre.val() | self.t_ram.val());
        self.p_alt.next = (self.t_alt_alt.val() | self.t_cur_alt.val())
            | (self.t_pre_alt.val() | self.t_ram_alt.val());
        self.p_altnz.next = ((self.take_alt_x5.val() & self.a_altnz.val())
            | (self.take_cur_x5.val() & self.c_altnz.val()))
            | ((self.sel_pre_x5.q.val() & self.e_altnz.val())
                | (self.sel_ram_x5.q.val() & self.r_altnz.val()));
        self.p_nz.next = ((self.take_alt5.val() & self.alt_nz6.q.val())
            | (self.take_cur5.val() & self.cur_nz6.q.val()))
            | ((self.sel_pre5.q.val() & self.pre_nz5.q.val())
                | (self.sel_ram5.q.val() & self.ram_nz5.val()));
        self.nz6.next = self.cur_nz6.q.val();
        self.value6.next = self.cur6.q.val();
        // Within c bits: a delete's -1 from 0 (never written) would wrap, and the
        // loop of value registers (cur6 -> w7 -> w8 -> pre5 -> cur6) would carry its
        // bits above c, which no reset clears, through every register of it. Masked
        // here, the bits above c are constant 0 in every value register, synthesis
        // removes them, and the compares on them are c bits wide. (Unmasked, they were
        // flip-flops whose synchronous reset was the choice of alt6, on the slowest
        // paths of HX8K.)
        self.cur6.d.next = self.value.val() & self.counter_max.val();
        self.cur_nz6.d.next = self.p_nz.val();
        // The alternative is non-zero: an insert's always, a counter write's if its value
        // is, a delete's if the counter is above 1 (a delete writes only when it is >= 1).
        self.alt_nz6.d.next = self.p_altnz.val();
        // The terms of the slot behind (now in c4) for its AND over the banks in c5: this
        // slot's counter after it is non-zero, if it is present / absent (the selects of
        // the slot behind, ma_5 .. sel_cur_a5, as they are loaded), and pre5's.
        self.slot_p5.d.next = ((self.ma_5.d.val() | self.md_5.d.val()) & self.p_altnz.val())
            | (self.sel_cur_p5.d.val() & self.p_nz.val());
        self.slot_a5.d.next =
            (self.ma_5.d.val() & self.p_altnz.val()) | (self.sel_cur_a5.d.val() & self.p_nz.val());
        self.pre_term5.d.next = self.sel_pre5.d.val() & self.pre_nz5.d.val();
        self.alt6.d.next = self.p_alt.val() & self.counter_max.val();
        self.write_alt6.d.next = self.ins5.q.val() | self.cw5.q.val();
        self.delete6.d.next = self.del5.q.val();
        self.write6.d.next =
            ((self.ins5.q.val() | self.cw5.q.val()) | self.del5.q.val()) | self.sweep5.q.val();

        self.write7.d.next = self.write6.q.val();
        self.addr7.d.next = self.addr6.q.val();
        if self.sweep6.q.val() {
            self.w7.d.next = self.counter_zero.val();
        } else {
            self.w7.d.next = self.w6.val();
        }
        self.w7_nz.d.next = self.w6_nz.val();
        self.w8.d.next = self.w7.q.val();
        self.w8_nz.d.next = self.w7_nz.q.val();
        self.ram.write_enable.next = self.write7.q.val();
        self.ram.write_addr.next = self.addr7.q.val();
        self.ram.write_data.next = self.w7.q.val();

        // The count steps of the slot in c6, from its counter before and after, and those
        // of a recount slot in c5 (the RAM's counter: nothing writes while it runs), so
        // that the recount ends as early as the plain core's; registered, added in c7.
        if self.use_alt6.val() {
            self.nz_after6.next = self.alt_nz6.q.val();
            self.sat_after6.next = self.alt6.q.val() == self.counter_max.val();
        } else {
            self.nz_after6.next = self.cur_nz6.q.val();
            self.sat_after6.next = self.cur6.q.val() == self.counter_max.val();
        }
        self.sat_before6.next = self.cur6.q.val() == self.counter_max.val();
        // Each count's addend as two flip-flops: a step (+1 or -1: bit 0) and a step down
        // (-1: bits 1..16 too), so that the adders start from registers.
        self.fill_up7.d.next = (self.cur_nz6.q.val() ^ self.nz_after6.val())
            | (self.recount5.q.val() & self.ram_nz5.val());
        self.fill_down7.d.next = self.cur_nz6.q.val() & !self.nz_after6.val();
        self.sat_up7.d.next = (self.sat_before6.val() ^ self.sat_after6.val())
            | (self.recount5.q.val() & (self.ram.read_data.val() == self.counter_max.val()));
        self.sat_down7.d.next = self.sat_before6.val() & !self.sat_after6.val();

        // c7: the counts add +1, -1 (all ones) or 0 every cycle (no enable: a count's
        // enable would be a wide net, promoted to a slow global one), from flip-flops.
        // A clear zeroes both counts at the end of its c6, over the step of the slot one
        // ahead (the last one counted after it), once a reset can no longer cancel it.
        if self.fill_down7.q.val() {
            self.fill_addend.next = self.count_upper.val();
        } else {
            self.fill_addend.next = self.count_zero.val();
        }
        if self.fill_up7.q.val() {
            self.fill_addend_low.next = self.count_one.val();
        } else {
            self.fill_addend_low.next = self.count_zero.val();
        }
        if self.sat_down7.q.val() {
            self.sat_addend.next = self.count_upper.val();
        } else {
            self.sat_addend.next = self.count_zero.val();
        }
        if self.sat_up7.q.val() {
            self.sat_addend_low.next = self.count_one.val();
        } else {
            self.sat_addend_low.next = self.count_zero.val();
        }
        // Both counts within b + 1 bits (neither exceeds the bank's 2^b counters): above
        // bit b they are constant 0, synthesis drops those flip-flops, and each adder's
        // carry chain is b + 1 bits long, not 17.
        self.fill_count.d.next = (self.fill_count.q.val()
            + (self.fill_addend.val() | self.fill_addend_low.val()))
            & self.count_mask.val();
        self.sat_count.d.next = (self.sat_count.q.val()
            + (self.sat_addend.val() | self.sat_addend_low.val()))
            & self.count_mask.val();
        self.clear6.d.next = self.control.clear5.val();
        if self.clear6.q.val() {
            self.fill_count.d.next = self.count_zero.val();
            self.sat_count.d.next = self.count_zero.val();
        }
        self.fill.next = self.fill_count.q.val();
        self.saturated.next = self.sat_count.q.val();

        if self.reset.val() {
            self.sweep5.d.next = false;
            self.sweep6.d.next = false;
            self.fv4.d.next = false;
            self.fv5.d.next = false;
            self.fva5.d.next = false;
            self.fvd5.d.next = false;
            self.fv6.d.next = false;
            self.fv7.d.next = false;
            self.ins5.d.next = false;
            self.del5.d.next = false;
            self.cw5.d.next = false;
            self.recount5.d.next = false;
            self.eq2_4.d.next = false;
            self.e2a_4.d.next = false;
            self.e2d_4.d.next = false;
            self.eq3_4.d.next = false;
            self.eq4_4.d.next = false;
            self.m1_4.d.next = false;
            self.m1_5.d.next = false;
            self.ma_5.d.next = false;
            self.md_5.d.next = false;
            self.sel_cur_p5.d.next = false;
            self.sel_cur_a5.d.next = false;
            self.sel_pre5.d.next = false;
            self.sel_ram5.d.next = false;
            self.slot_p5.d.next = false;
            self.slot_a5.d.next = false;
            self.pre_term5.d.next = false;
            self.ma_x5.d.next = false;
            self.md_x5.d.next = false;
            self.sel_cur_p_x5.d.next = false;
            self.sel_cur_a_x5.d.next = false;
            self.sel_pre_x5.d.next = false;
            self.sel_ram_x5.d.next = false;
            self.write_alt6.d.next = false;
            self.delete6.d.next = false;
            self.write6.d.next = false;
            self.write7.d.next = false;
            self.fill_up7.d.next = false;
            self.fill_down7.d.next = false;
            self.sat_up7.d.next = false;
            self.sat_down7.d.next = false;
            self.clear6.d.next = false;
            self.fill_count.d.next = self.count_zero.val();
            self.sat_count.d.next = self.count_zero.val();
        }
    }
}
