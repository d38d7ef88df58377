//! One partition: its hash unit, its bank, the bank's read-after-write forwarding and
//! its fill counter.
//!
//! Pipeline (cycle numbers relative to the request's acceptance in cycle 0, see core/top.rs):
//!   c1 key register (in control) -> hash unit's chunk registers
//!   c2 address = hash (or the readback address in a readback slot) -> address3 register
//!   c3 address3 -> RAM read port (so the block RAM's address comes straight from a register)
//!   c4 address4 register (the sweep's address during a clear); an insert writes 1
//!      here, a bit write (a readback slot with rb_write, this bank only) its bit, a
//!      clear sweep 0; the write registers "this bank was written 1 / 0" (up5 / down5;
//!      the sweep counts as neither)
//!   c5 RAM output register: bit5 = the stored bit, or the forwarded one; a write
//!      registers whether it changed the bit (0 -> 1: +1, 1 -> 0: -1)
//!   c6 the fill counter adds the registered change (+1, -1 or 0: the adder's
//!      operand starts at a flip-flop, not at the RAM output; a clear in c5 zeroes
//!      the counter and wins over a change in c6, which belongs to an older write)
//! Latency: key at c1 -> bit5 at c5; fill counter updated at the end of c6.
//!
//! Fill counter and reset: reset sets the counter to 0, and the control then sweeps
//! every address through the read port (a recount slot, like a readback slot, in c2;
//! no writes meanwhile: the core is busy, bit writes are dropped); a recount slot
//! whose bit is 1 counts +1 (flagged in c4 like a write that changes a 1, so the
//! counter's path from the RAM output is the same 2:1 choice). So after every reset
//! the counter is the number of 1 bits the bank holds, whatever put them there (the
//! preloaded image, a bitstream whose block RAM was rewritten after synthesis, a clear
//! or bit writes cut short by the reset).
//!
//! Scrub (docs/contract.md §5.2, core/scrub.rs): a scrub slot reads like a readback (with
//! forwarding) and its 1 bit counts in the scrub's own count, not in the fill; a write's
//! change counts in both when its address is below the scrub's pointer (`ptr3`, compared
//! in c3: the addresses the scrub has already read). Both counts take the same change
//! flags, one LUT after the RAM's output each, and a clear zeroes both in the same cycle,
//! so with no bit changing outside the operations they are equal once the scrub has read
//! every address. The scrub's start zeroes its count (`scrub_zero5`, as a clear would in
//! c5); `scrub_finish` loads `scrub_mismatch` from the two counts' compare, and the
//! power-up check from the fill's compare with the image's (core/scrub_compare.rs).
//!
//! Same-address read and write: an operation reads the RAM at the end of c3, in the same
//! clock edge as the operation one slot ahead writes (its c4). The RAM does not define
//! what that read returns, so when the slot ahead wrote this bank at the same address
//! the bit it wrote is forwarded (addresses compared in c3, in two halves of at most 8
//! bits so that each is two LUT4 levels, the halves and the write flags combined in c4,
//! registered into c5 as "forward a 1" / "forward a 0"). Writes two or more slots
//! ahead are already in the RAM when this read happens, so one comparator suffices.
//! The sweep's writes are not forwarded: only readbacks, whose bit is unspecified
//! while a clear runs, can be one slot behind them.

use rust_hdl::prelude::*;

use crate::axi::zero_extend::ZeroExtend;
use crate::core::ram::BankRam;
use crate::core::scrub_compare::ScrubCompare;
use crate::hash::HashUnit;

crate::bundle! {
    /// What the control sends every partition, one stage register each.
    FromControl / ToBanks {
        /// The key, in c1 (not with the Feistel family, whose units take `stream2`).
        key1: In Bits<W>,
        /// The Feistel family's network's blocks (hash/feistel.rs), in c2; 0 otherwise.
        stream2: In Bits<256>,
        /// c2 holds a readback or a recount slot: its address replaces the hash.
        is_rb2: In bool,
        /// The readback (or recount) address in c2 (bits >= b already 0).
        rb_addr2: In Bits<16>,
        /// RAM write enables of c4, bit p for bank p (an insert or the sweep: all; a bit write: its bank), from a flip-flop.
        write4: In Bits<16>,
        /// RAM write data of c4 (1 for an insert, 0 for the sweep, a bit write's bit), from a flip-flop.
        wdata4: In bool,
        /// c5 holds a clear.
        clear5: In bool,
        /// c4 holds a slot of the recount after reset or of a scrub: a 1 bit (a non-zero counter) read in c5 is counted.
        counted4: In bool,
        /// c4 holds a scrub slot: what it reads is counted by the scrub, not by the fill.
        scrub4: In bool,
        /// The scrub slots taken before the slot in c3: a change at an address below it counts in the scrub's count.
        ptr3: In Bits<17>,
        /// The scrub's start in c5: its counts are zeroed at the end of this cycle (a counting bank's, a cycle later).
        scrub_zero5: In bool,
        /// The banks compare their scrub counts with their fills now.
        scrub_finish: In bool,
        /// The power-up check (docs/contract.md §5.3): compare the fill of two cycles ago with the image's fill now.
        power_up: In bool,
        /// The sweep writes in c4.
        sweep_en: In bool,
        /// The sweep will write in c4 next cycle, at sweep_addr3.
        sweep_en3: In bool,
        /// The sweep's address, one cycle ahead.
        sweep_addr3: In Bits<16>,
    }
}

/// A bank as the glue (core/glue.rs) sees it, whatever its variant: its clock, reset and the control's stage registers.
/// A bank's part of the scrub (docs/contract.md §5.2): whether the core has it, and
/// (a test switch when false) whether changes below the scrub's pointer count for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BankScrub {
    pub built: bool,
    pub correction: bool,
}

pub(crate) trait ControlledBank<const W: usize> {
    fn clock(&mut self) -> &mut Signal<In, Clock>;
    fn reset(&mut self) -> &mut Signal<In, bool>;
    fn control(&mut self) -> &mut FromControl<W>;
    /// The bank's scrub result.
    fn scrub_mismatch(&self) -> bool;
    fn scrub_mismatch_connect(&mut self);
}

#[derive(LogicBlock)]
pub struct Partition<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub control: FromControl<W>,
    pub bit5: Signal<Out, bool>,
    /// The fill count's bits 7..0 and 16..8 (the core puts them together).
    pub fill_low: Signal<Out, Bits<8>>,
    pub fill_high: Signal<Out, Bits<9>>,
    /// This bank's count at the end of the last scrub differed from its fill.
    pub scrub_mismatch: Signal<Out, bool>,
    /// The RAM write address of the next cycle (c4; what `addr4` loads): the lanes'
    /// replica banks take lane 0's writes from copies of it (hdl/src/lanes). A core on
    /// its own leaves it unread.
    pub write_addr_next: Signal<Out, Bits<16>>,
    hash: HashUnit<W>,
    ram: BankRam,
    addr2: Signal<Local, Bits<16>>,
    addr3: DFF<Bits<16>>,
    // The RAM write address of c4: the operation's address, or the sweep's during a
    // clear (chosen in c3, so the RAM's write address and mask start at flip-flops).
    addr4: DFF<Bits<16>>,
    // The c3 and c4 addresses agree in bits 7..0 / 15..8 (a 16-input compare is two
    // LUT4 levels, the whole address's 24 or more inputs three).
    same_low4: DFF<bool>,
    same_high4: DFF<bool>,
    // This bank's write enable in c4, split by the bit written (the sweep in neither).
    up5: DFF<bool>,
    down5: DFF<bool>,
    // Forward a 1 / a 0 in c5 (the slot ahead wrote it at this address).
    set5: DFF<bool>,
    kill5: DFF<bool>,
    // This slot's write in c4 (a 1 / a 0; the sweep is neither), and the forward
    // it will see in c5 (the slot ahead wrote a 0 / a 1 at its address).
    up4: Signal<Local, bool>,
    down4: Signal<Local, bool>,
    kill4: Signal<Local, bool>,
    set4: Signal<Local, bool>,
    // Whether the write in c5 changes the bit (0 -> 1 or 1 -> 0), and whether it
    // takes it down, worked out in c4 for either value the RAM may return, so
    // that only a 2:1 choice by the RAM's output lies between it and the counter.
    change_if_one5: DFF<bool>,
    change_if_zero5: DFF<bool>,
    down_if_one5: DFF<bool>,
    down_if_zero5: DFF<bool>,
    // The write in c5 changes its bit / turns a 1 into a 0.
    inc5: Signal<Local, bool>,
    dec5: Signal<Local, bool>,
    // The change of the write in c6: 1, -1 (all ones) or 0, added, not used as a
    // clock enable (a fill counter's enable was promoted to a slow global buffer);
    // registered as two flags, each one LUT after the RAM's output.
    change6: DFF<bool>,
    down6: DFF<bool>,
    delta6: Signal<Local, Bits<17>>,
    step6: Signal<Local, Bits<17>>,
    count: DFF<Bits<17>>,
    // The count's b + 1 bits (it never exceeds the bank's 2^b bits), or 0 when a clear
    // is in c5: the clear is ANDed into the counter's next value, so that the counters'
    // synchronous reset is the reset input alone (reset OR clear was a LUT whose output
    // went onto a slow global buffer). Above bit b the count is constant 0, so synthesis
    // drops those flip-flops and the adder's carry chain is b + 1 bits long, not 17.
    keep: Signal<Local, Bits<17>>,
    // The scrub: the c3 address as 17 bits, and below the pointer (registered in c3).
    addr3_wide: ZeroExtend<16, 17>,
    // Below the pointer, compared in two halves (bits 16..8 less / equal, bits 7..0
    // less) registered in c3 and joined in c4: two short carry chains, not one of 17.
    lt_hi4: DFF<bool>,
    eq_hi4: DFF<bool>,
    lt_lo4: DFF<bool>,
    below4: Signal<Local, bool>,
    // The slot in c5 counts for the scrub (a change below the pointer, a scrub slot's
    // read) / is a scrub slot (its read is not the fill's).
    sc5: DFF<bool>,
    scrub5: DFF<bool>,
    // The scrub count's change in c6, as the fill's (change6, down6).
    sc_change6: DFF<bool>,
    sc_down6: DFF<bool>,
    sc_delta6: Signal<Local, Bits<17>>,
    sc_step6: Signal<Local, Bits<17>>,
    sc_keep: Signal<Local, Bits<17>>,
    scrub_count: DFF<Bits<17>>,
    // The scrub's result and the power-up check's: the fill against the scrub's count
    // and against the image's fill.
    compare: ScrubCompare,
    // Test switch: changes below the pointer count for the scrub (off: false alarms).
    scrub_correction: Constant<bool>,
    // The core has the scrub; without it the scrub's count and result are held at 0.
    scrub_built: Constant<bool>,
    forwarding_enabled: Constant<bool>,
    // Bit p set: this is bank p.
    bank_select: Constant<Bits<16>>,
    count_zero: Constant<Bits<17>>,
    count_one: Constant<Bits<17>>,
    count_all: Constant<Bits<17>>,
    count_upper: Constant<Bits<17>>,
    address_mask_low: Constant<Bits<16>>,
    address_mask_high: Constant<Bits<16>>,
    address_zero: Constant<Bits<16>>,
}

impl<const W: usize> Partition<W> {
    /// Partition `index`.
    pub fn new(
        index: usize,
        hash: HashUnit<W>,
        ram: BankRam,
        bank_bits: usize,
        forwarding_enabled: bool,
        scrub: BankScrub,
    ) -> Self {
        let image_fill = ram.contents().iter().filter(|b| **b).count() as u64;
        Partition {
            clock: Default::default(),
            reset: Default::default(),
            control: Default::default(),
            bit5: Default::default(),
            fill_low: Default::default(),
            fill_high: Default::default(),
            scrub_mismatch: Default::default(),
            write_addr_next: Default::default(),
            hash,
            ram,
            addr2: Default::default(),
            addr3: Default::default(),
            addr4: Default::default(),
            same_low4: Default::default(),
            same_high4: Default::default(),
            up5: Default::default(),
            down5: Default::default(),
            set5: Default::default(),
            kill5: Default::default(),
            up4: Default::default(),
            down4: Default::default(),
            kill4: Default::default(),
            set4: Default::default(),
            change_if_one5: Default::default(),
            change_if_zero5: Default::default(),
            down_if_one5: Default::default(),
            down_if_zero5: Default::default(),
            inc5: Default::default(),
            dec5: Default::default(),
            change6: Default::default(),
            down6: Default::default(),
            delta6: Default::default(),
            step6: Default::default(),
            count: Default::default(),
            keep: Default::default(),
            addr3_wide: Default::default(),
            lt_hi4: Default::default(),
            eq_hi4: Default::default(),
            lt_lo4: Default::default(),
            below4: Default::default(),
            sc5: Default::default(),
            scrub5: Default::default(),
            sc_change6: Default::default(),
            sc_down6: Default::default(),
            sc_delta6: Default::default(),
            sc_step6: Default::default(),
            sc_keep: Default::default(),
            scrub_count: Default::default(),
            // The power-up check (docs/contract.md §5.3) compares with the bank's 1 bits
            // in the image it was generated with.
            compare: ScrubCompare::new(image_fill, scrub.built),
            scrub_correction: Constant::new(scrub.correction),
            scrub_built: Constant::new(scrub.built),
            forwarding_enabled: Constant::new(forwarding_enabled),
            bank_select: Constant::new((1u64 << index).into()),
            count_zero: Constant::new(0u64.into()),
            count_one: Constant::new(1u64.into()),
            count_all: Constant::new(((1u64 << (bank_bits + 1)) - 1).into()),
            count_upper: Constant::new(((1u64 << (bank_bits + 1)) - 2).into()),
            address_mask_low: Constant::new((((1u64 << bank_bits) - 1) & 0xff).into()),
            address_mask_high: Constant::new((((1u64 << bank_bits) - 1) & 0xff00).into()),
            address_zero: Constant::new(0u64.into()),
        }
    }

    /// The simulated bank's contents (for tests).
    pub fn bank_contents(&self) -> &[bool] {
        self.ram.contents()
    }
}

impl<const W: usize> ControlledBank<W> for Partition<W> {
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

impl<const W: usize> Logic for Partition<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            addr3,
            addr4,
            same_low4,
            same_high4,
            up5,
            down5,
            set5,
            kill5,
            change6,
            down6,
            count,
            change_if_one5,
            change_if_zero5,
            down_if_one5,
            down_if_zero5,
            lt_hi4,
            eq_hi4,
            lt_lo4,
            sc5,
            scrub5,
            sc_change6,
            sc_down6,
            scrub_count
        );
        self.hash.clock.next = self.clock.val();
        self.hash.key.next = self.control.key1.val();
        self.hash.stream.next = self.control.stream2.val();
        self.ram.clock.next = self.clock.val();
        if self.control.is_rb2.val() {
            self.addr2.next = self.control.rb_addr2.val();
        } else {
            self.addr2.next = self.hash.addr.val();
        }
        self.addr3.d.next = self.addr2.val();
        self.ram.read_addr.next = self.addr3.q.val();
        if self.control.sweep_en3.val() {
            self.addr4.d.next = self.control.sweep_addr3.val();
        } else {
            self.addr4.d.next = self.addr3.q.val();
        }
        // The operation in c3 reads the address the one in c4 writes (bits >= b are 0).
        self.same_low4.d.next = ((self.addr3.q.val() ^ self.addr4.q.val())
            & self.address_mask_low.val())
            == self.address_zero.val();
        self.same_high4.d.next = ((self.addr3.q.val() ^ self.addr4.q.val())
            & self.address_mask_high.val())
            == self.address_zero.val();
        self.ram.write_enable.next =
            (self.control.write4.val() & self.bank_select.val()) != self.address_zero.val();
        self.ram.write_addr.next = self.addr4.q.val();
        self.ram.write_data.next = self.control.wdata4.val();
        self.up4.next = ((self.control.write4.val() & self.bank_select.val())
            != self.address_zero.val())
            & self.control.wdata4.val();
        self.down4.next = ((self.control.write4.val() & self.bank_select.val())
            != self.address_zero.val())
            & !(self.control.wdata4.val() | self.control.sweep_en.val());
        self.up5.d.next = self.up4.val();
        self.down5.d.next = self.down4.val();
        self.set4.next = (self.forwarding_enabled.val() & self.up5.q.val())
            & (self.same_low4.q.val() & self.same_high4.q.val());
        self.kill4.next = (self.forwarding_enabled.val() & self.down5.q.val())
            & (self.same_low4.q.val() & self.same_high4.q.val());
        self.set5.d.next = self.set4.val();
        self.kill5.d.next = self.kill4.val();
        // The bit in c5 is the RAM's (unless killed) when it reads 1, else the set forward.
        // A recount or scrub slot changes nothing but counts the 1 it reads (a recount
        // slot sees no forward: nothing writes while it runs).
        // A recount slot (counted, not a scrub's) counts its 1 whatever the forwarding
        // terms say (none: nothing writes during the recount; and an X there in a
        // four-state simulator right after power-up does not hide the count), a scrub
        // slot's read goes through the forwarding as a readback's.
        self.change_if_one5.d.next = ((self.up4.val() & self.kill4.val())
            | ((self.down4.val() | self.control.scrub4.val()) & !self.kill4.val()))
            | (self.control.counted4.val() & !self.control.scrub4.val());
        self.change_if_zero5.d.next = (self.up4.val() & !self.set4.val())
            | ((self.down4.val() | self.control.scrub4.val()) & self.set4.val());
        self.down_if_one5.d.next = self.down4.val() & !self.kill4.val();
        self.down_if_zero5.d.next = self.down4.val() & self.set4.val();
        if self.ram.read_data.val() {
            self.bit5.next = !self.kill5.q.val();
            self.inc5.next = self.change_if_one5.q.val();
            self.dec5.next = self.down_if_one5.q.val();
        } else {
            self.bit5.next = self.set5.q.val();
            self.inc5.next = self.change_if_zero5.q.val();
            self.dec5.next = self.down_if_zero5.q.val();
        }
        self.change6.d.next = self.inc5.val() & !self.scrub5.q.val();
        self.down6.d.next = self.dec5.val();
        // The scrub: its pointer compared in c3, its flags beside the fill's.
        self.addr3_wide.narrow.next = self.addr3.q.val();
        self.lt_hi4.d.next =
            self.addr3_wide.wide.val().get_bits::<9>(8) < self.control.ptr3.val().get_bits::<9>(8);
        self.eq_hi4.d.next =
            self.addr3_wide.wide.val().get_bits::<9>(8) == self.control.ptr3.val().get_bits::<9>(8);
        self.lt_lo4.d.next =
            self.addr3_wide.wide.val().get_bits::<8>(0) < self.control.ptr3.val().get_bits::<8>(0);
        self.below4.next = self.lt_hi4.q.val() | (self.eq_hi4.q.val() & self.lt_lo4.q.val());
        self.sc5.d.next =
            (self.below4.val() & self.scrub_correction.val()) | self.control.scrub4.val();
        self.scrub5.d.next = self.control.scrub4.val();
        self.sc_change6.d.next = self.inc5.val() & self.sc5.q.val();
        self.sc_down6.d.next = self.dec5.val() & self.sc5.q.val();
        // The change as a number: +1, -1 (all ones) or 0: bit 0 "changes", bits 16..1 "goes down".
        if self.down6.q.val() {
            self.delta6.next = self.count_upper.val();
        } else {
            self.delta6.next = self.count_zero.val();
        }
        if self.change6.q.val() {
            self.step6.next = self.count_one.val();
        } else {
            self.step6.next = self.count_zero.val();
        }
        if self.control.clear5.val() {
            self.keep.next = self.count_zero.val();
        } else {
            self.keep.next = self.count_all.val();
        }
        self.count.d.next =
            (self.count.q.val() + (self.delta6.val() | self.step6.val())) & self.keep.val();
        if self.sc_down6.q.val() {
            self.sc_delta6.next = self.count_upper.val();
        } else {
            self.sc_delta6.next = self.count_zero.val();
        }
        if self.sc_change6.q.val() {
            self.sc_step6.next = self.count_one.val();
        } else {
            self.sc_step6.next = self.count_zero.val();
        }
        if self.control.clear5.val() | self.control.scrub_zero5.val() {
            self.sc_keep.next = self.count_zero.val();
        } else {
            self.sc_keep.next = self.count_all.val();
        }
        self.scrub_count.d.next = (self.scrub_count.q.val()
            + (self.sc_delta6.val() | self.sc_step6.val()))
            & self.sc_keep.val();
        self.compare.clock.next = self.clock.val();
        self.compare.reset.next = self.reset.val();
        self.compare.fill.next = self.count.q.val();
        self.compare.scrub_count.next = self.scrub_count.q.val();
        self.compare.finish.next = self.control.scrub_finish.val();
        self.compare.power_up.next = self.control.power_up.val();
        self.scrub_mismatch.next = self.compare.mismatch.val();
        if !self.scrub_built.val() {
            self.scrub_count.d.next = self.count_zero.val();
        }
        if self.reset.val() {
            self.up5.d.next = false;
            self.down5.d.next = false;
            self.change_if_one5.d.next = false;
            self.change_if_zero5.d.next = false;
            self.down_if_one5.d.next = false;
            self.down_if_zero5.d.next = false;
            self.change6.d.next = false;
            self.down6.d.next = false;
            self.count.d.next = self.count_zero.val();
            self.lt_hi4.d.next = false;
            self.eq_hi4.d.next = false;
            self.lt_lo4.d.next = false;
            self.sc5.d.next = false;
            self.scrub5.d.next = false;
            self.sc_change6.d.next = false;
            self.sc_down6.d.next = false;
        }
        self.write_addr_next.next = self.addr4.d.val();
        self.fill_low.next = self.count.q.val().get_bits::<8>(0);
        self.fill_high.next = self.count.q.val().get_bits::<9>(8);
    }
}
