//! A counting bank's addresses through the pipeline: the slot's address in c2 (its hash,
//! or a readback's or recount slot's address) registered into c3 (straight into the
//! RAM's read port), c4 and c5; and the write address of c6: the slot's, or the clear
//! sweep's, whose writes the control makes in its c4 and this bank makes three stages
//! later, in c7 (`sweep6` is registered into the write-back), after every older slot's
//! write-back.
//!
//! Latency: c2 -> c3 .. c6 registers. No memory. Reset drops the sweep's writes in flight.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct CountingAddresses {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// The hash unit's address in c2.
    pub hash_addr: Signal<In, Bits<16>>,
    /// c2 holds a readback or recount slot, and its address.
    pub is_rb2: Signal<In, bool>,
    pub rb_addr2: Signal<In, Bits<16>>,
    /// The control's sweep: writing in c4 (with its write enables and data of c4), its
    /// address one cycle ahead.
    pub sweep_en: Signal<In, bool>,
    pub write4: Signal<In, Bits<16>>,
    pub wdata4: Signal<In, bool>,
    pub sweep_en3: Signal<In, bool>,
    pub sweep_addr3: Signal<In, Bits<16>>,
    /// The slot's address in c3 .. c5, and the write address of c6.
    pub addr3: Signal<Out, Bits<16>>,
    pub addr4: Signal<Out, Bits<16>>,
    pub addr5: Signal<Out, Bits<16>>,
    pub addr6: Signal<Out, Bits<16>>,
    /// The sweep writes 0 in c6 (it is in c5 / c6 of this bank).
    pub sweep5: Signal<Out, bool>,
    pub sweep6: Signal<Out, bool>,
    addr2: Signal<Local, Bits<16>>,
    addr3_r: DFF<Bits<16>>,
    addr4_r: DFF<Bits<16>>,
    addr5_r: DFF<Bits<16>>,
    addr6_r: DFF<Bits<16>>,
    // The sweep's address and write, delayed from the control's c4 to c6.
    sweep_addr4: DFF<Bits<16>>,
    sweep_addr5: DFF<Bits<16>>,
    sweep4: Signal<Local, bool>,
    sweep5_r: DFF<bool>,
    sweep6_r: DFF<bool>,
    // Bit p set: this is bank p.
    bank_select: Constant<Bits<16>>,
    address_zero: Constant<Bits<16>>,
}

impl CountingAddresses {
    /// The addresses of bank `index`.
    pub fn new(index: usize) -> Self {
        CountingAddresses {
            clock: Default::default(),
            reset: Default::default(),
            hash_addr: Default::default(),
            is_rb2: Default::default(),
            rb_addr2: Default::default(),
            sweep_en: Default::default(),
            write4: Default::default(),
            wdata4: Default::default(),
            sweep_en3: Default::default(),
            sweep_addr3: Default::default(),
            addr3: Default::default(),
            addr4: Default::default(),
            addr5: Default::default(),
            addr6: Default::default(),
            sweep5: Default::default(),
            sweep6: Default::default(),
            addr2: Default::default(),
            addr3_r: Default::default(),
            addr4_r: Default::default(),
            addr5_r: Default::default(),
            addr6_r: Default::default(),
            sweep_addr4: Default::default(),
            sweep_addr5: Default::default(),
            sweep4: Default::default(),
            sweep5_r: Default::default(),
            sweep6_r: Default::default(),
            bank_select: Constant::new((1u64 << index).into()),
            address_zero: Constant::new(0u64.into()),
        }
    }
}

impl Logic for CountingAddresses {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            addr3_r,
            addr4_r,
            addr5_r,
            addr6_r,
            sweep_addr4,
            sweep_addr5,
            sweep5_r,
            sweep6_r
        );
        if self.is_rb2.val() {
            self.addr2.next = self.rb_addr2.val();
        } else {
            self.addr2.next = self.hash_addr.val();
        }
        self.addr3_r.d.next = self.addr2.val();
        self.addr4_r.d.next = self.addr3_r.q.val();
        self.addr5_r.d.next = self.addr4_r.q.val();
        // The sweep writes 0 into this bank in the control's c4 (its write enable and data
        // while sweeping, none during the recount); here three stages later (c7).
        self.sweep4.next = (self.sweep_en.val() & !self.wdata4.val())
            & ((self.write4.val() & self.bank_select.val()) != self.address_zero.val());
        if self.sweep_en3.val() {
            self.sweep_addr4.d.next = self.sweep_addr3.val();
        }
        self.sweep5_r.d.next = self.sweep4.val();
        self.sweep_addr5.d.next = self.sweep_addr4.q.val();
        self.sweep6_r.d.next = self.sweep5_r.q.val();
        if self.sweep5_r.q.val() {
            self.addr6_r.d.next = self.sweep_addr5.q.val();
        } else {
            self.addr6_r.d.next = self.addr5_r.q.val();
        }
        self.addr3.next = self.addr3_r.q.val();
        self.addr4.next = self.addr4_r.q.val();
        self.addr5.next = self.addr5_r.q.val();
        self.addr6.next = self.addr6_r.q.val();
        self.sweep5.next = self.sweep5_r.q.val();
        self.sweep6.next = self.sweep6_r.q.val();
        if self.reset.val() {
            self.sweep5_r.d.next = false;
            self.sweep6_r.d.next = false;
        }
    }
}
