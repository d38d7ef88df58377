//! One partition of a counting core (counter_bits c in 2..=8, contract §7): its hash unit,
//! its bank of 2^b counters (`CounterRam`), the read-modify-write of the counter, the
//! forwarding of counter values between back-to-back operations, and two counts: the
//! fill (non-zero counters) and the saturated count (counters at S = 2^c - 1).
//!
//! Pipeline (cycles relative to acceptance in c0; the plain control's stages and the
//! counting flags of count_ops.rs):
//!   c1 key register -> hash unit's chunk registers
//!   c2 address = hash (or the readback / recount address) -> addr3
//!   c3 addr3 -> RAM read port; compare addr3 with the slots in c5 and c6
//!   c4 addr4; compare addr4 with the slot in c5; the values of the slots two and three
//!      ahead (now in c6 and c7) chosen by the c3 compares -> pre5; the slot's operation
//!      decoded for the count flags of c5 (e.g. "the fill steps if the counter is 0")
//!   c5 RAM output register; the counter = the slot one ahead's new value (c6) if it has
//!      this address, else pre5 if a slot two or three ahead had it, else the RAM's.
//!      The slot one ahead's new value depends on its own presence (a delete writes only
//!      if all its k counters were non-zero), a flip-flop by now (present6). Nothing here
//!      waits for it: every result of c5 is worked out for each candidate counter (the
//!      RAM's and pre5, each on its own, chosen by pre_valid5 after; the slot ahead's
//!      alternative; its unchanged counter) and chosen last by the address match and
//!      present6: the counter and its "non-zero" (for the cross-bank AND, which the core
//!      forms for both outcomes and chooses by present6), the one other value this slot
//!      may write (insert: +1 below S; counter write: its value; delete: -1 below S), and
//!      the count steps. So present6 reaches the next slot's registers through a final
//!      choice, never through an incrementer or the AND over the banks. Every value is
//!      kept within c bits, so the compares on values are c bits wide.
//!   c6 write-back: an insert or a counter write writes its alternative (alt6), a delete
//!      writes it only if present6 (its AND over the banks of c5, registered); the
//!      counter and its non-zero of c5, registered (value6, nz6), are the readback's.
//!      The counts add a step every cycle: +1, -1 or 0, each a function of flip-flops
//!      only (bit 0: a step, the rest: a step down), so the adders start from registers
//!      and no enable is needed; the fill's two sums, for a delete in c6 present or
//!      absent, are chosen by present6 after the adders.
//!   c7 w7 = w6 registered (forwarded to the slot three behind through pre5)
//! Latency: key at c1 -> the counter in c5 (registered as nz6, value6 in c6); write-back
//! and counts at the end of c6 (commit_latency 6: two stages after the plain core's c4, see timing.rs).
//!
//! Same-address read and write: an operation reads its counter at the end of c3; the
//! slots one, two and three ahead write theirs at the end of c6 of their own, i.e. after,
//! at the same edge as, and one cycle before that read. Their values are forwarded, the
//! newest first: every slot that read an address (a request or a readback) carries the
//! counter's value after itself (w6: the value written, or the unchanged value), so a
//! slot behind takes the newest value of its address from the pipeline and the RAM's
//! only when none of the three slots ahead had that address. Slots four or more ahead
//! wrote before the read. The RAM's own same-address read is never used.
//!
//! Clear: the plain control's sweep is delayed two cycles to the write-back stage, so
//! that it writes address n at the end of c6 + n of the clear (after every older slot's
//! write-back); the clear in c5 zeroes both counts, winning over an older slot's change
//! in c6 (its counter is swept afterwards). Reset: cancels every write not yet in c6
//! and zeroes the counts; the control's recount then counts non-zero and saturated
//! counters of every address (a recount slot in c5, counted in c6).

use rust_hdl::prelude::*;

use crate::count_ops::FromOps;
use crate::counter_ram::CounterRam;
use crate::hash_unit::HashUnit;
use crate::partition::FromControl;

#[derive(LogicBlock)]
pub struct CountingPartition<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub control: FromControl<W>,
    pub ops: FromOps<W>,
    /// Every bank's counter of the slot in c5 is non-zero (the AND over the banks of the counter's non-zero).
    pub present5: Signal<In, bool>,
    /// This bank's counter of the slot in c6 (before that slot's change) is non-zero,
    /// registered (the readback's bit).
    pub nz6: Signal<Out, bool>,
    /// The counter is non-zero if the delete in c6 (if any) is carried out / is not: the core ANDs each over
    /// the banks and chooses by present6, so the cross-bank AND of one slot reaches the
    /// next one's through a single 2:1 choice.
    pub nz_if_present5: Signal<Out, bool>,
    pub nz_if_absent5: Signal<Out, bool>,
    /// The slot in c6 found all its counters non-zero (the same in every bank).
    pub present6_out: Signal<Out, bool>,
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
    // The sweep's address and write, delayed from the control's c4 to c6.
    sweep_addr4: DFF<Bits<16>>,
    sweep_addr5: DFF<Bits<16>>,
    sweep4: Signal<Local, bool>,
    sweep5: DFF<bool>,
    sweep6: DFF<bool>,
    // Slots whose value is forwarded (fwd_enabled below), per stage.
    fv5: DFF<bool>,
    fv6: DFF<bool>,
    fv4: Signal<Local, bool>,
    ins5: DFF<bool>,
    del5: DFF<bool>,
    cw5: DFF<bool>,
    cwd5: DFF<Bits<8>>,
    cw4: Signal<Local, bool>,
    cwd4: Signal<Local, Bits<8>>,
    recount5: DFF<bool>,
    // The slot's operation decoded in c4 for the count flags of c5:
    // fill_step_zero5: the fill steps (+1) if the counter is 0: an insert, a counter write of a non-zero value.
    fill_step_zero5: DFF<bool>,
    // fill_step_nz5: the fill steps if the counter is non-zero: a recount (+1), a counter write of 0 (-1).
    fill_step_nz5: DFF<bool>,
    // fill_down_nz5: the fill steps down if the counter is non-zero (a counter write of 0); a delete's -1 is apart.
    fill_down_nz5: DFF<bool>,
    // sat_step_sat5: the saturated count steps if the counter is at S: a recount (+1), a counter write below S (-1).
    sat_step_sat5: DFF<bool>,
    // sat_down_sat5: the saturated count steps down if the counter is at S (a counter write below S).
    sat_down_sat5: DFF<bool>,
    // sat_set5: the saturated count steps up if the counter is below S: a counter write of S (an insert's is apart).
    sat_set5: DFF<bool>,
    // c3 compares: the slot in c3 has the address of the slot in c5 / c6.
    eq2_4: DFF<bool>,
    eq3_4: DFF<bool>,
    // c4 compare: the slot in c4 has the address of the slot in c5.
    m1_5: DFF<bool>,
    pre_valid5: DFF<bool>,
    // Neither the slot one ahead nor the two or three ahead have this address: the
    // counter is the RAM's (registered so that the RAM's data meets only the last choice).
    ram_used5: DFF<bool>,
    pre5: DFF<Bits<8>>,
    // Whether pre5 / cur6 / alt6 / w7 are non-zero, registered with them.
    pre_nz5: DFF<bool>,
    cur_nz6: DFF<bool>,
    alt_nz6: DFF<bool>,
    w7_nz: DFF<bool>,
    w6_nz: Signal<Local, bool>,
    // The counter unless the slot in c6 has this address, and whether it is non-zero.
    other: Signal<Local, Bits<8>>,
    other_nz: Signal<Local, bool>,
    // Non-zero if the slot in c6 writes its alternative value / keeps its counter.
    nz_alt: Signal<Local, bool>,
    nz_cur: Signal<Local, bool>,
    value: Signal<Local, Bits<8>>,
    // What c6 registers, worked out for each counter the slot in c5 may have: the
    // other one (o_: RAM or pre5), and, when the slot in c6 has its address, that
    // slot's alternative (a_) or unchanged counter (c_), both registers; chosen last
    // by m1 and the slot in c6's outcome (use_alt6), so that its presence reaches
    // these registers through two LUT levels, not through an incrementer.
    a_sat: Signal<Local, bool>,
    a_one: Signal<Local, bool>,
    a_below: Signal<Local, bool>,
    a_alt: Signal<Local, Bits<8>>,
    a_altnz: Signal<Local, bool>,
    c_sat: Signal<Local, bool>,
    c_one: Signal<Local, bool>,
    c_below: Signal<Local, bool>,
    c_alt: Signal<Local, Bits<8>>,
    c_altnz: Signal<Local, bool>,
    p_nz: Signal<Local, bool>,
    p_alt: Signal<Local, Bits<8>>,
    p_altnz: Signal<Local, bool>,
    // The count flags of c6 for each candidate counter.
    a_nz_down: Signal<Local, bool>,
    a_nz_dip: Signal<Local, bool>,
    a_sat_down: Signal<Local, bool>,
    c_nz_down: Signal<Local, bool>,
    c_nz_dip: Signal<Local, bool>,
    c_sat_down: Signal<Local, bool>,
    // The same for the two older sources: the slots two or three ahead (e_, pre5) and
    // the RAM (r_), chosen by pre_valid5 into o_.
    e_sat: Signal<Local, bool>,
    r_sat: Signal<Local, bool>,
    e_one: Signal<Local, bool>,
    r_one: Signal<Local, bool>,
    e_below: Signal<Local, bool>,
    r_below: Signal<Local, bool>,
    e_alt: Signal<Local, Bits<8>>,
    r_alt: Signal<Local, Bits<8>>,
    e_altnz: Signal<Local, bool>,
    r_altnz: Signal<Local, bool>,
    e_nz_down: Signal<Local, bool>,
    r_nz_down: Signal<Local, bool>,
    e_nz_dip: Signal<Local, bool>,
    r_nz_dip: Signal<Local, bool>,
    e_sat_down: Signal<Local, bool>,
    r_sat_down: Signal<Local, bool>,
    r_nz: Signal<Local, bool>,
    // The count steps of each source: fill +-1 if the slot in c6 is absent (fa) /
    // present (pa), fill -1 if present (pn), saturated +-1 (ss).
    e_fa: Signal<Local, bool>,
    e_pn: Signal<Local, bool>,
    e_pa: Signal<Local, bool>,
    e_ss: Signal<Local, bool>,
    r_fa: Signal<Local, bool>,
    r_pn: Signal<Local, bool>,
    r_pa: Signal<Local, bool>,
    r_ss: Signal<Local, bool>,
    a_fa: Signal<Local, bool>,
    a_pn: Signal<Local, bool>,
    a_pa: Signal<Local, bool>,
    a_ss: Signal<Local, bool>,
    c_fa: Signal<Local, bool>,
    c_pn: Signal<Local, bool>,
    c_pa: Signal<Local, bool>,
    c_ss: Signal<Local, bool>,
    cur6: DFF<Bits<8>>,
    alt6: DFF<Bits<8>>,
    // c6 writes alt6 unconditionally (insert, counter write) / if present6 (delete).
    write_alt6: DFF<bool>,
    delete6: DFF<bool>,
    present6: DFF<bool>,
    use_alt6: Signal<Local, bool>,
    w6: Signal<Local, Bits<8>>,
    w7: DFF<Bits<8>>,
    // Count changes of c6: the fill steps / steps down if the slot in c6 is absent (a)
    // or present (p); the saturated count steps / steps down.
    fill_step_a6: DFF<bool>,
    fill_neg_a6: DFF<bool>,
    fill_neg_p6: DFF<bool>,
    fill_step_p6: DFF<bool>,
    sat_step6: DFF<bool>,
    sat_down6: DFF<bool>,
    fill_neg_a: Signal<Local, Bits<17>>,
    fill_one_a: Signal<Local, Bits<17>>,
    fill_neg_p: Signal<Local, Bits<17>>,
    fill_one_p: Signal<Local, Bits<17>>,
    sat_neg: Signal<Local, Bits<17>>,
    sat_one: Signal<Local, Bits<17>>,
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
    count_zero: Constant<Bits<17>>,
    count_one: Constant<Bits<17>>,
    count_upper: Constant<Bits<17>>,
}

impl<const W: usize> CountingPartition<W> {
    /// Partition `index` with counters of `counter_bits` (2..=8) bits.
    pub fn new(
        index: usize,
        hash: HashUnit<W>,
        ram: CounterRam,
        bank_bits: usize,
        counter_bits: usize,
        forwarding_enabled: bool,
        delete_forwarding_enabled: bool,
    ) -> Self {
        let max = (1u64 << counter_bits) - 1;
        CountingPartition {
            clock: Default::default(),
            reset: Default::default(),
            control: Default::default(),
            ops: Default::default(),
            present5: Default::default(),
            nz6: Default::default(),
            nz_if_present5: Default::default(),
            nz_if_absent5: Default::default(),
            present6_out: Default::default(),
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
            sweep_addr4: Default::default(),
            sweep_addr5: Default::default(),
            sweep4: Default::default(),
            sweep5: Default::default(),
            sweep6: Default::default(),
            fv5: Default::default(),
            fv6: Default::default(),
            fv4: Default::default(),
            ins5: Default::default(),
            del5: Default::default(),
            cw5: Default::default(),
            cwd5: Default::default(),
            cw4: Default::default(),
            cwd4: Default::default(),
            recount5: Default::default(),
            fill_step_zero5: Default::default(),
            fill_step_nz5: Default::default(),
            fill_down_nz5: Default::default(),
            sat_step_sat5: Default::default(),
            sat_down_sat5: Default::default(),
            sat_set5: Default::default(),
            eq2_4: Default::default(),
            eq3_4: Default::default(),
            m1_5: Default::default(),
            pre_valid5: Default::default(),
            ram_used5: Default::default(),
            pre5: Default::default(),
            pre_nz5: Default::default(),
            cur_nz6: Default::default(),
            alt_nz6: Default::default(),
            w7_nz: Default::default(),
            w6_nz: Default::default(),
            other: Default::default(),
            other_nz: Default::default(),
            nz_alt: Default::default(),
            nz_cur: Default::default(),
            value: Default::default(),
            a_sat: Default::default(),
            a_one: Default::default(),
            a_below: Default::default(),
            a_alt: Default::default(),
            a_altnz: Default::default(),
            c_sat: Default::default(),
            c_one: Default::default(),
            c_below: Default::default(),
            c_alt: Default::default(),
            c_altnz: Default::default(),
            p_nz: Default::default(),
            p_alt: Default::default(),
            p_altnz: Default::default(),
            a_nz_down: Default::default(),
            a_nz_dip: Default::default(),
            a_sat_down: Default::default(),
            c_nz_down: Default::default(),
            c_nz_dip: Default::default(),
            c_sat_down: Default::default(),
            e_sat: Default::default(),
            r_sat: Default::default(),
            e_one: Default::default(),
            r_one: Default::default(),
            e_below: Default::default(),
            r_below: Default::default(),
            e_alt: Default::default(),
            r_alt: Default::default(),
            e_altnz: Default::default(),
            r_altnz: Default::default(),
            e_nz_down: Default::default(),
            r_nz_down: Default::default(),
            e_nz_dip: Default::default(),
            r_nz_dip: Default::default(),
            e_sat_down: Default::default(),
            r_sat_down: Default::default(),
            r_nz: Default::default(),
            e_fa: Default::default(),
            e_pn: Default::default(),
            e_pa: Default::default(),
            e_ss: Default::default(),
            r_fa: Default::default(),
            r_pn: Default::default(),
            r_pa: Default::default(),
            r_ss: Default::default(),
            a_fa: Default::default(),
            a_pn: Default::default(),
            a_pa: Default::default(),
            a_ss: Default::default(),
            c_fa: Default::default(),
            c_pn: Default::default(),
            c_pa: Default::default(),
            c_ss: Default::default(),
            cur6: Default::default(),
            alt6: Default::default(),
            write_alt6: Default::default(),
            delete6: Default::default(),
            present6: Default::default(),
            use_alt6: Default::default(),
            w6: Default::default(),
            w7: Default::default(),
            fill_step_a6: Default::default(),
            fill_neg_a6: Default::default(),
            fill_neg_p6: Default::default(),
            fill_step_p6: Default::default(),
            sat_step6: Default::default(),
            sat_down6: Default::default(),
            fill_neg_a: Default::default(),
            fill_one_a: Default::default(),
            fill_neg_p: Default::default(),
            fill_one_p: Default::default(),
            sat_neg: Default::default(),
            sat_one: Default::default(),
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
            count_zero: Constant::new(0u64.into()),
            count_one: Constant::new(1u64.into()),
            count_upper: Constant::new(0x1fffeu64.into()),
        }
    }

    /// The simulated bank's counters (for tests).
    pub fn bank_contents(&self) -> &[u8] {
        self.ram.contents()
    }
}

impl<const W: usize> Logic for CountingPartition<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, addr3, addr4, addr5, addr6, sweep_addr4, sweep_addr5, sweep5, sweep6, fv5, fv6, ins5, del5, cw5,
            cwd5, recount5, fill_step_zero5, fill_step_nz5, fill_down_nz5, sat_step_sat5, sat_down_sat5, sat_set5, eq2_4, eq3_4, m1_5, pre_valid5, ram_used5, pre5, pre_nz5, cur_nz6, alt_nz6, w7_nz, cur6, alt6, write_alt6, delete6, present6, w7, fill_step_a6,
            fill_neg_a6, fill_neg_p6, fill_step_p6, sat_step6, sat_down6, fill_count, sat_count
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
        // while sweeping, none during the recount); here two stages later.
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
        self.fv4.next = (self.forwarding_enabled.val() & self.ops.slot4.val())
            & (self.delete_forwarding_enabled.val() | !self.ops.del4.val());
        self.fv5.d.next = self.fv4.val();
        self.fv6.d.next = self.fv5.q.val();
        self.ins5.d.next = self.ops.ins4.val();
        self.del5.d.next = self.ops.del4.val();
        self.cw4.next = (self.ops.cw4.val() & self.bank_select.val()) != self.address_zero.val();
        self.cwd4.next = self.ops.cwd4.val() & self.counter_max.val();
        self.fill_step_zero5.d.next = self.ops.ins4.val() | (self.cw4.val() & (self.cwd4.val() != self.counter_zero.val()));
        self.fill_down_nz5.d.next = self.cw4.val() & (self.cwd4.val() == self.counter_zero.val());
        self.fill_step_nz5.d.next = self.control.recount4.val() | (self.cw4.val() & (self.cwd4.val() == self.counter_zero.val()));
        self.sat_down_sat5.d.next = self.cw4.val() & (self.cwd4.val() != self.counter_max.val());
        self.sat_step_sat5.d.next = self.control.recount4.val() | (self.cw4.val() & (self.cwd4.val() != self.counter_max.val()));
        self.sat_set5.d.next = self.cw4.val() & (self.cwd4.val() == self.counter_max.val());
        self.cw5.d.next = self.cw4.val();
        self.cwd5.d.next = self.cwd4.val();
        self.recount5.d.next = self.control.recount4.val();

        // c6: the value after the slot in c6 (written back below), first: c4 and c5 read it.
        self.use_alt6.next = self.write_alt6.q.val() | (self.delete6.q.val() & self.present6.q.val());
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
        self.eq2_4.d.next = (((self.addr3.q.val() ^ self.addr5.q.val()) & self.address_mask.val()) == self.address_zero.val())
            & self.fv5.q.val();
        self.eq3_4.d.next = (((self.addr3.q.val() ^ self.addr6.q.val()) & self.address_mask.val()) == self.address_zero.val())
            & self.fv6.q.val();
        self.m1_5.d.next = (((self.addr4.q.val() ^ self.addr5.q.val()) & self.address_mask.val()) == self.address_zero.val())
            & self.fv5.q.val();
        self.pre_valid5.d.next = self.eq2_4.q.val() | self.eq3_4.q.val();
        self.ram_used5.d.next = !(self.eq2_4.q.val() | self.eq3_4.q.val()) & !self.m1_5.d.val();
        if self.eq2_4.q.val() {
            self.pre5.d.next = self.w6.val();
            self.pre_nz5.d.next = self.w6_nz.val();
        } else {
            self.pre5.d.next = self.w7.q.val();
            self.pre_nz5.d.next = self.w7_nz.q.val();
        }

        // c5: the counter, newest value first: the slot one ahead's (c6), else two or
        // three ahead's (pre5), else the RAM's.
        if self.pre_valid5.q.val() {
            self.other.next = self.pre5.q.val();
            self.other_nz.next = self.pre_nz5.q.val();
        } else {
            self.other.next = self.ram.read_data.val();
            self.other_nz.next = self.ram.read_data.val() != self.counter_zero.val();
        }
        if self.m1_5.q.val() {
            self.value.next = self.w6.val();
            self.nz_alt.next = self.alt_nz6.q.val();
            self.nz_cur.next = self.cur_nz6.q.val();
        } else {
            self.value.next = self.other.val();
            self.nz_alt.next = self.other_nz.val();
            self.nz_cur.next = self.other_nz.val();
        }
        // Whether the counter is non-zero, for either outcome of the slot in c6 (a delete
        // writes its alternative only if present6; an insert or a counter write always).
        if self.write_alt6.q.val() | self.delete6.q.val() {
            self.nz_if_present5.next = self.nz_alt.val();
        } else {
            self.nz_if_present5.next = self.nz_cur.val();
        }
        if self.write_alt6.q.val() {
            self.nz_if_absent5.next = self.nz_alt.val();
        } else {
            self.nz_if_absent5.next = self.nz_cur.val();
        }
        self.present6_out.next = self.present6.q.val();
        // Properties and the alternative value (insert: +1 below S; counter write: its
        // value; otherwise -1 below S) of each candidate counter.
        self.e_sat.next = self.pre5.q.val() == self.counter_max.val();
        self.e_one.next = self.pre5.q.val() == self.counter_one.val();
        self.e_below.next = self.pre5.q.val() == self.counter_below_max.val();
        if self.e_sat.val() & !self.cw5.q.val() {
            self.e_alt.next = self.counter_max.val();
        } else if self.ins5.q.val() {
            self.e_alt.next = self.pre5.q.val() + self.counter_one.val();
        } else if self.cw5.q.val() {
            self.e_alt.next = self.cwd5.q.val();
        } else {
            self.e_alt.next = self.pre5.q.val() - self.counter_one.val();
        }
        self.e_altnz.next = (self.ins5.q.val() | (self.cw5.q.val() & (self.cwd5.q.val() != self.counter_zero.val())))
            | ((!self.ins5.q.val() & !self.cw5.q.val()) & ((self.pre5.q.val() & self.counter_below_max.val()) != self.counter_zero.val()));
        self.r_nz.next = self.ram.read_data.val() != self.counter_zero.val();
        self.r_sat.next = self.ram.read_data.val() == self.counter_max.val();
        self.r_one.next = self.ram.read_data.val() == self.counter_one.val();
        self.r_below.next = self.ram.read_data.val() == self.counter_below_max.val();
        if self.r_sat.val() & !self.cw5.q.val() {
            self.r_alt.next = self.counter_max.val();
        } else if self.ins5.q.val() {
            self.r_alt.next = self.ram.read_data.val() + self.counter_one.val();
        } else if self.cw5.q.val() {
            self.r_alt.next = self.cwd5.q.val();
        } else {
            self.r_alt.next = self.ram.read_data.val() - self.counter_one.val();
        }
        self.r_altnz.next = (self.ins5.q.val() | (self.cw5.q.val() & (self.cwd5.q.val() != self.counter_zero.val())))
            | ((!self.ins5.q.val() & !self.cw5.q.val()) & ((self.ram.read_data.val() & self.counter_below_max.val()) != self.counter_zero.val()));
        self.e_nz_down.next = self.pre_nz5.q.val() & self.fill_down_nz5.q.val();
        self.e_nz_dip.next = self.del5.q.val() & self.e_one.val();
        self.e_sat_down.next = self.e_sat.val() & self.sat_down_sat5.q.val();
        self.e_fa.next = (self.pre_nz5.q.val() & self.fill_step_nz5.q.val()) | (!self.pre_nz5.q.val() & self.fill_step_zero5.q.val());
        self.e_pn.next = self.e_nz_down.val() | self.e_nz_dip.val();
        self.e_pa.next = self.e_fa.val() | self.e_nz_dip.val();
        self.e_ss.next = (self.e_sat.val() & self.sat_step_sat5.q.val())
            | (!self.e_sat.val() & ((self.ins5.q.val() & self.e_below.val()) | self.sat_set5.q.val()));
        self.r_nz_down.next = self.r_nz.val() & self.fill_down_nz5.q.val();
        self.r_nz_dip.next = self.del5.q.val() & self.r_one.val();
        self.r_sat_down.next = self.r_sat.val() & self.sat_down_sat5.q.val();
        self.r_fa.next = (self.r_nz.val() & self.fill_step_nz5.q.val()) | (!self.r_nz.val() & self.fill_step_zero5.q.val());
        self.r_pn.next = self.r_nz_down.val() | self.r_nz_dip.val();
        self.r_pa.next = self.r_fa.val() | self.r_nz_dip.val();
        self.r_ss.next = (self.r_sat.val() & self.sat_step_sat5.q.val())
            | (!self.r_sat.val() & ((self.ins5.q.val() & self.r_below.val()) | self.sat_set5.q.val()));
        self.a_sat.next = self.alt6.q.val() == self.counter_max.val();
        self.a_one.next = self.alt6.q.val() == self.counter_one.val();
        self.a_below.next = self.alt6.q.val() == self.counter_below_max.val();
        if self.a_sat.val() & !self.cw5.q.val() {
            self.a_alt.next = self.counter_max.val();
        } else if self.ins5.q.val() {
            self.a_alt.next = self.alt6.q.val() + self.counter_one.val();
        } else if self.cw5.q.val() {
            self.a_alt.next = self.cwd5.q.val();
        } else {
            self.a_alt.next = self.alt6.q.val() - self.counter_one.val();
        }
        self.a_altnz.next = (self.ins5.q.val() | (self.cw5.q.val() & (self.cwd5.q.val() != self.counter_zero.val())))
            | ((!self.ins5.q.val() & !self.cw5.q.val()) & ((self.alt6.q.val() & self.counter_below_max.val()) != self.counter_zero.val()));
        self.c_sat.next = self.cur6.q.val() == self.counter_max.val();
        self.c_one.next = self.cur6.q.val() == self.counter_one.val();
        self.c_below.next = self.cur6.q.val() == self.counter_below_max.val();
        if self.c_sat.val() & !self.cw5.q.val() {
            self.c_alt.next = self.counter_max.val();
        } else if self.ins5.q.val() {
            self.c_alt.next = self.cur6.q.val() + self.counter_one.val();
        } else if self.cw5.q.val() {
            self.c_alt.next = self.cwd5.q.val();
        } else {
            self.c_alt.next = self.cur6.q.val() - self.counter_one.val();
        }
        self.c_altnz.next = (self.ins5.q.val() | (self.cw5.q.val() & (self.cwd5.q.val() != self.counter_zero.val())))
            | ((!self.ins5.q.val() & !self.cw5.q.val()) & ((self.cur6.q.val() & self.counter_below_max.val()) != self.counter_zero.val()));
        if self.ram_used5.q.val() {
            self.p_alt.next = self.r_alt.val();
        } else if self.m1_5.q.val() {
            if self.use_alt6.val() {
                self.p_alt.next = self.a_alt.val();
            } else {
                self.p_alt.next = self.c_alt.val();
            }
        } else {
            self.p_alt.next = self.e_alt.val();
        }
        if self.ram_used5.q.val() {
            self.p_altnz.next = self.r_altnz.val();
        } else if self.m1_5.q.val() {
            if self.use_alt6.val() {
                self.p_altnz.next = self.a_altnz.val();
            } else {
                self.p_altnz.next = self.c_altnz.val();
            }
        } else {
            self.p_altnz.next = self.e_altnz.val();
        }
        if self.ram_used5.q.val() {
            self.p_nz.next = self.r_nz.val();
        } else if self.m1_5.q.val() {
            if self.use_alt6.val() {
                self.p_nz.next = self.alt_nz6.q.val();
            } else {
                self.p_nz.next = self.cur_nz6.q.val();
            }
        } else {
            self.p_nz.next = self.pre_nz5.q.val();
        }
        self.nz6.next = self.cur_nz6.q.val();
        self.value6.next = self.cur6.q.val();
        self.cur6.d.next = self.value.val();
        self.cur_nz6.d.next = self.p_nz.val();
        // The alternative is non-zero: an insert's always, a counter write's if its value
        // is, a delete's if the counter is above 1 (a delete writes only when it is >= 1).
        self.alt_nz6.d.next = self.p_altnz.val();
        // Within c bits (a delete's -1 from 0, never written, would wrap): the bits above
        // c stay 0 in every value register, so the compares on them are c bits wide.
        self.alt6.d.next = self.p_alt.val() & self.counter_max.val();
        self.write_alt6.d.next = self.ins5.q.val() | self.cw5.q.val();
        self.delete6.d.next = self.del5.q.val();
        self.present6.d.next = self.present5.val();
        // The count flags for each candidate, chosen last like the counter.
        self.a_nz_down.next = self.alt_nz6.q.val() & self.fill_down_nz5.q.val();
        self.a_nz_dip.next = self.del5.q.val() & self.a_one.val();
        self.a_sat_down.next = self.a_sat.val() & self.sat_down_sat5.q.val();
        self.a_fa.next = (self.alt_nz6.q.val() & self.fill_step_nz5.q.val()) | (!self.alt_nz6.q.val() & self.fill_step_zero5.q.val());
        self.a_pn.next = self.a_nz_down.val() | self.a_nz_dip.val();
        self.a_pa.next = self.a_fa.val() | self.a_nz_dip.val();
        self.a_ss.next = (self.a_sat.val() & self.sat_step_sat5.q.val())
            | (!self.a_sat.val() & ((self.ins5.q.val() & self.a_below.val()) | self.sat_set5.q.val()));
        self.c_nz_down.next = self.cur_nz6.q.val() & self.fill_down_nz5.q.val();
        self.c_nz_dip.next = self.del5.q.val() & self.c_one.val();
        self.c_sat_down.next = self.c_sat.val() & self.sat_down_sat5.q.val();
        self.c_fa.next = (self.cur_nz6.q.val() & self.fill_step_nz5.q.val()) | (!self.cur_nz6.q.val() & self.fill_step_zero5.q.val());
        self.c_pn.next = self.c_nz_down.val() | self.c_nz_dip.val();
        self.c_pa.next = self.c_fa.val() | self.c_nz_dip.val();
        self.c_ss.next = (self.c_sat.val() & self.sat_step_sat5.q.val())
            | (!self.c_sat.val() & ((self.ins5.q.val() & self.c_below.val()) | self.sat_set5.q.val()));
        if self.ram_used5.q.val() {
            self.fill_step_a6.d.next = self.r_fa.val();
        } else if self.m1_5.q.val() {
            if self.use_alt6.val() {
                self.fill_step_a6.d.next = self.a_fa.val();
            } else {
                self.fill_step_a6.d.next = self.c_fa.val();
            }
        } else {
            self.fill_step_a6.d.next = self.e_fa.val();
        }
        if self.ram_used5.q.val() {
            self.fill_neg_a6.d.next = self.r_nz_down.val();
        } else if self.m1_5.q.val() {
            if self.use_alt6.val() {
                self.fill_neg_a6.d.next = self.a_nz_down.val();
            } else {
                self.fill_neg_a6.d.next = self.c_nz_down.val();
            }
        } else {
            self.fill_neg_a6.d.next = self.e_nz_down.val();
        }
        if self.ram_used5.q.val() {
            self.fill_neg_p6.d.next = self.r_pn.val();
        } else if self.m1_5.q.val() {
            if self.use_alt6.val() {
                self.fill_neg_p6.d.next = self.a_pn.val();
            } else {
                self.fill_neg_p6.d.next = self.c_pn.val();
            }
        } else {
            self.fill_neg_p6.d.next = self.e_pn.val();
        }
        if self.ram_used5.q.val() {
            self.fill_step_p6.d.next = self.r_pa.val();
        } else if self.m1_5.q.val() {
            if self.use_alt6.val() {
                self.fill_step_p6.d.next = self.a_pa.val();
            } else {
                self.fill_step_p6.d.next = self.c_pa.val();
            }
        } else {
            self.fill_step_p6.d.next = self.e_pa.val();
        }
        if self.ram_used5.q.val() {
            self.sat_step6.d.next = self.r_ss.val();
        } else if self.m1_5.q.val() {
            if self.use_alt6.val() {
                self.sat_step6.d.next = self.a_ss.val();
            } else {
                self.sat_step6.d.next = self.c_ss.val();
            }
        } else {
            self.sat_step6.d.next = self.e_ss.val();
        }
        if self.ram_used5.q.val() {
            self.sat_down6.d.next = self.r_sat_down.val();
        } else if self.m1_5.q.val() {
            if self.use_alt6.val() {
                self.sat_down6.d.next = self.a_sat_down.val();
            } else {
                self.sat_down6.d.next = self.c_sat_down.val();
            }
        } else {
            self.sat_down6.d.next = self.e_sat_down.val();
        }

        self.w7.d.next = self.w6.val();
        self.w7_nz.d.next = self.w6_nz.val();
        self.ram.write_enable.next = self.use_alt6.val() | self.sweep6.q.val();
        self.ram.write_addr.next = self.addr6.q.val();
        // A slot writes only its alternative (use_alt6), so alt6 is the data: not w6,
        // which waits for present6.
        if self.sweep6.q.val() {
            self.ram.write_data.next = self.counter_zero.val();
        } else {
            self.ram.write_data.next = self.alt6.q.val();
        }

        // The counts add +1, -1 (all ones) or 0 every cycle (no enable: a count's enable
        // would be a wide net, promoted to a slow global one). Each addend is flip-flops
        // (bit 0: a step; bits 1..16: a step down), so the adders start from registers;
        // the fill's two sums, for a delete in c6 present or absent, are chosen last by
        // present6. A clear in c5 zeroes both counts.
        if self.fill_neg_a6.q.val() {
            self.fill_neg_a.next = self.count_upper.val();
        } else {
            self.fill_neg_a.next = self.count_zero.val();
        }
        if self.fill_step_a6.q.val() {
            self.fill_one_a.next = self.count_one.val();
        } else {
            self.fill_one_a.next = self.count_zero.val();
        }
        if self.fill_neg_p6.q.val() {
            self.fill_neg_p.next = self.count_upper.val();
        } else {
            self.fill_neg_p.next = self.count_zero.val();
        }
        if self.fill_step_p6.q.val() {
            self.fill_one_p.next = self.count_one.val();
        } else {
            self.fill_one_p.next = self.count_zero.val();
        }
        if self.sat_down6.q.val() {
            self.sat_neg.next = self.count_upper.val();
        } else {
            self.sat_neg.next = self.count_zero.val();
        }
        if self.sat_step6.q.val() {
            self.sat_one.next = self.count_one.val();
        } else {
            self.sat_one.next = self.count_zero.val();
        }
        if self.present6.q.val() {
            self.fill_count.d.next = self.fill_count.q.val() + (self.fill_neg_p.val() | self.fill_one_p.val());
        } else {
            self.fill_count.d.next = self.fill_count.q.val() + (self.fill_neg_a.val() | self.fill_one_a.val());
        }
        self.sat_count.d.next = self.sat_count.q.val() + (self.sat_neg.val() | self.sat_one.val());
        if self.control.clear5.val() {
            self.fill_count.d.next = self.count_zero.val();
            self.sat_count.d.next = self.count_zero.val();
        }
        self.fill.next = self.fill_count.q.val();
        self.saturated.next = self.sat_count.q.val();

        if self.reset.val() {
            self.sweep5.d.next = false;
            self.sweep6.d.next = false;
            self.fv5.d.next = false;
            self.fv6.d.next = false;
            self.ins5.d.next = false;
            self.del5.d.next = false;
            self.cw5.d.next = false;
            self.recount5.d.next = false;
            self.fill_step_zero5.d.next = false;
            self.fill_step_nz5.d.next = false;
            self.fill_down_nz5.d.next = false;
            self.sat_step_sat5.d.next = false;
            self.sat_down_sat5.d.next = false;
            self.sat_set5.d.next = false;
            self.eq2_4.d.next = false;
            self.eq3_4.d.next = false;
            self.m1_5.d.next = false;
            self.pre_valid5.d.next = false;
            self.ram_used5.d.next = false;
            self.write_alt6.d.next = false;
            self.delete6.d.next = false;
            self.fill_step_a6.d.next = false;
            self.fill_neg_a6.d.next = false;
            self.fill_neg_p6.d.next = false;
            self.fill_step_p6.d.next = false;
            self.sat_step6.d.next = false;
            self.sat_down6.d.next = false;
            self.fill_count.d.next = self.count_zero.val();
            self.sat_count.d.next = self.count_zero.val();
        }
    }
}
