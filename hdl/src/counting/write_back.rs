//! A counting bank's write-back: the value after the slot in c6 (`w6`: its alternative
//! if it writes it, an insert's or a counter write's always, a delete's if present6,
//! else its unchanged counter), written into the RAM at the end of c7 with a registered
//! enable and address (every input of the RAM's write port a flip-flop; 0 for the clear
//! sweep), and kept one and two cycles longer (`w7`, `w8`) for the slots three and four
//! behind to take forward. Also whether the slot's counter is non-zero / at S after its
//! change, for the counts.
//!
//! Latency: c6 -> RAM write at the end of c7. One address written per cycle, the RAM's
//! own same-address read never used (the partition forwards). Reset cancels every write
//! not yet in c7.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct WriteBack {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// The slot in c6 found all its counters non-zero (this bank's copy).
    pub present6: Signal<In, bool>,
    /// The slot in c5: writes its alternative unconditionally (an insert, a counter
    /// write) / if present (a delete).
    pub write_alt5: Signal<In, bool>,
    pub delete5: Signal<In, bool>,
    /// The sweep writes in c5 / c6 of this bank, and the write address of c6.
    pub sweep5: Signal<In, bool>,
    pub sweep6: Signal<In, bool>,
    pub addr6: Signal<In, Bits<16>>,
    /// The slot in c6: its counter and its alternative, and whether each is non-zero.
    pub cur6: Signal<In, Bits<8>>,
    pub cur_nz6: Signal<In, bool>,
    pub alt6: Signal<In, Bits<8>>,
    pub alt_nz6: Signal<In, bool>,
    /// The value after the slots in c7 and c8, and whether each is non-zero.
    pub w7: Signal<Out, Bits<8>>,
    pub w7_nz: Signal<Out, bool>,
    pub w8: Signal<Out, Bits<8>>,
    pub w8_nz: Signal<Out, bool>,
    /// The write address of c7.
    pub addr7: Signal<Out, Bits<16>>,
    /// The RAM's write port.
    pub write_enable: Signal<Out, bool>,
    pub write_addr: Signal<Out, Bits<16>>,
    pub write_data: Signal<Out, Bits<8>>,
    /// The slot in c6's counter after its change: non-zero, at S.
    pub nz_after6: Signal<Out, bool>,
    pub sat_after6: Signal<Out, bool>,
    /// What the write port's registers load at the end of this cycle, for the replicas
    /// of the lanes' query lanes (hdl/src/lanes): the write of c7 in the next cycle,
    /// and whether the counter it writes is non-zero (0 for the clear sweep).
    pub replica_write_next: Signal<Out, bool>,
    pub replica_nz_next: Signal<Out, bool>,
    // c6 writes alt6 unconditionally (insert, counter write) / if present6 (delete).
    write_alt6: DFF<bool>,
    delete6: DFF<bool>,
    use_alt6: Signal<Local, bool>,
    w6: Signal<Local, Bits<8>>,
    w6_nz: Signal<Local, bool>,
    w7_r: DFF<Bits<8>>,
    w8_r: DFF<Bits<8>>,
    w7_nz_r: DFF<bool>,
    w8_nz_r: DFF<bool>,
    // The write of c7: any insert, counter write, delete (its unchanged counter if
    // absent) or sweep.
    write6: DFF<bool>,
    write7: DFF<bool>,
    addr7_r: DFF<Bits<16>>,
    counter_zero: Constant<Bits<8>>,
    counter_max: Constant<Bits<8>>,
}

impl WriteBack {
    /// The write-back of counters of `counter_bits` (2..=8) bits.
    pub fn new(counter_bits: usize) -> Self {
        WriteBack {
            clock: Default::default(),
            reset: Default::default(),
            present6: Default::default(),
            write_alt5: Default::default(),
            delete5: Default::default(),
            sweep5: Default::default(),
            sweep6: Default::default(),
            addr6: Default::default(),
            cur6: Default::default(),
            cur_nz6: Default::default(),
            alt6: Default::default(),
            alt_nz6: Default::default(),
            w7: Default::default(),
            w7_nz: Default::default(),
            w8: Default::default(),
            w8_nz: Default::default(),
            addr7: Default::default(),
            write_enable: Default::default(),
            write_addr: Default::default(),
            write_data: Default::default(),
            nz_after6: Default::default(),
            sat_after6: Default::default(),
            replica_write_next: Default::default(),
            replica_nz_next: Default::default(),
            write_alt6: Default::default(),
            delete6: Default::default(),
            use_alt6: Default::default(),
            w6: Default::default(),
            w6_nz: Default::default(),
            w7_r: Default::default(),
            w8_r: Default::default(),
            w7_nz_r: Default::default(),
            w8_nz_r: Default::default(),
            write6: Default::default(),
            write7: Default::default(),
            addr7_r: Default::default(),
            counter_zero: Constant::new(0u64.into()),
            counter_max: Constant::new(((1u64 << counter_bits) - 1).into()),
        }
    }
}

impl Logic for WriteBack {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, write_alt6, delete6, w7_r, w8_r, w7_nz_r, w8_nz_r, write6, write7, addr7_r
        );
        self.write_alt6.d.next = self.write_alt5.val();
        self.delete6.d.next = self.delete5.val();
        self.write6.d.next = (self.write_alt5.val() | self.delete5.val()) | self.sweep5.val();
        self.use_alt6.next = self.write_alt6.q.val() | (self.delete6.q.val() & self.present6.val());
        if self.use_alt6.val() {
            self.w6.next = self.alt6.val();
        } else {
            self.w6.next = self.cur6.val();
        }
        if self.use_alt6.val() {
            self.w6_nz.next = self.alt_nz6.val();
        } else {
            self.w6_nz.next = self.cur_nz6.val();
        }
        if self.use_alt6.val() {
            self.nz_after6.next = self.alt_nz6.val();
            self.sat_after6.next = self.alt6.val() == self.counter_max.val();
        } else {
            self.nz_after6.next = self.cur_nz6.val();
            self.sat_after6.next = self.cur6.val() == self.counter_max.val();
        }
        self.write7.d.next = self.write6.q.val();
        self.addr7_r.d.next = self.addr6.val();
        if self.sweep6.val() {
            self.w7_r.d.next = self.counter_zero.val();
        } else {
            self.w7_r.d.next = self.w6.val();
        }
        self.w7_nz_r.d.next = self.w6_nz.val();
        self.w8_r.d.next = self.w7_r.q.val();
        self.w8_nz_r.d.next = self.w7_nz_r.q.val();
        self.w7.next = self.w7_r.q.val();
        self.w7_nz.next = self.w7_nz_r.q.val();
        self.w8.next = self.w8_r.q.val();
        self.w8_nz.next = self.w8_nz_r.q.val();
        self.addr7.next = self.addr7_r.q.val();
        self.write_enable.next = self.write7.q.val();
        self.write_addr.next = self.addr7_r.q.val();
        self.write_data.next = self.w7_r.q.val();
        self.replica_write_next.next = self.write6.q.val() & !self.reset.val();
        self.replica_nz_next.next = self.w6_nz.val() & !self.sweep6.val();
        if self.reset.val() {
            self.write_alt6.d.next = false;
            self.delete6.d.next = false;
            self.write6.d.next = false;
            self.write7.d.next = false;
        }
    }
}
