//! `BitAccess`: BIT_ADDR, BIT_DATA and BIT_COUNT, and the core's bank access
//! port (`rb_*`, `counter_wdata`, `counter_rdata`) they drive.
//!
//! A BIT_ADDR write (`bit_addr_write`) arms an access: a readback, with
//! BIT_ADDR.write also a bit write (the core's rb_write, rb_wdata; on a counting
//! core a counter write of BIT_COUNT, `counter_wdata` straight from its register:
//! no write is taken while an access is armed, so it holds until the access is
//! issued). rb_req (`access_req`, which keeps the core from taking a request in
//! that cycle) is a register, set when an access is armed, the core is not busy,
//! no clear is pending and the request FIFO is empty: s_axis is closed from the
//! write until the access is issued (`armed_next` holds it), so it takes effect
//! after every request taken before the write and before every request taken
//! after. Should the core still be busy when rb_req is high (a reset), it drops
//! a write and its read is not valid: the access stays armed, its result is
//! discarded and it is issued again. No AXI4-Lite write is taken while an access
//! is armed (`armed_next` holds the write side), so an acknowledged bit write is
//! never overwritten before it reaches the core, and accesses and clears reach
//! the core in the order they were written. A BIT_ADDR write while one is in
//! flight (issued, result not yet back) discards the older result.
//!
//! BIT_DATA: valid, the bit read, and the counter read (a counting core) or the
//! bit as a counter (a plain core, `plain_core`).
//!
//! Latency: the write's action in cycle t arms the access from t+1; rb_req
//! rises in the first cycle the core may take it; the result lands in BIT_DATA
//! `readback_latency` cycles after rb_req (the core's). Memory: none
//! (flip-flops).

use rust_hdl::prelude::*;

use super::regmap as map;
use super::regs::{at, mask, value};
use super::zero_extend::ZeroExtend;
use crate::ports::ReadbackDriver;

#[derive(LogicBlock)]
pub struct BitAccess<const W: usize> {
    pub clock: Signal<In, Clock>,
    /// The AXI4-Lite side's reset.
    pub reset: Signal<In, bool>,
    /// BIT_ADDR is written from `wdata` this cycle (also high during reset).
    pub bit_addr_write: Signal<In, bool>,
    /// BIT_COUNT is written from `wdata` this cycle.
    pub bit_count_write: Signal<In, bool>,
    pub wdata: Signal<In, Bits<32>>,
    /// The core is busy; a register clear is pending; the request FIFO
    /// presents a request: each keeps the access from being issued.
    pub busy: Signal<In, bool>,
    pub clear_pending: Signal<In, bool>,
    pub request_waiting: Signal<In, bool>,
    /// The core's bank access port.
    pub rb: ReadbackDriver<W>,
    /// The core's counter read and counter write value.
    pub counter_rdata: Signal<In, Bits<8>>,
    pub counter_wdata: Signal<Out, Bits<8>>,
    /// An access is armed (or armed this cycle) and not yet issued to a core
    /// that was not busy.
    pub armed_next: Signal<Out, bool>,
    /// BIT_ADDR, BIT_DATA, BIT_COUNT as they read.
    pub bit_addr: Signal<Out, Bits<32>>,
    pub bit_data: Signal<Out, Bits<32>>,
    pub bit_count: Signal<Out, Bits<8>>,
    bit_addr_q: DFF<Bits<32>>,
    bit_data_q: DFF<Bits<32>>,
    rb_armed: DFF<bool>,
    rb_waiting: DFF<bool>,
    access_req: DFF<bool>,
    access_bank: DFF<Bits<4>>,
    access_addr: DFF<Bits<16>>,
    access_write: DFF<bool>,
    access_wdata: DFF<bool>,
    bit_count_q: DFF<Bits<8>>,
    /// The counter the readback read, as a word (bits 7:0).
    rb_counter: ZeroExtend<8, 32>,
    /// BIT_DATA's value and counter fields from the core's readback result.
    bit_data_value: Signal<Local, Bits<32>>,
    bit_data_counter: Signal<Local, Bits<32>>,
    /// A plain core (counter_bits 1): BIT_DATA.counter is the bit.
    plain_core: Constant<bool>,
    at_bit_addr_addr: Constant<Bits<5>>,
    at_bit_addr_bank: Constant<Bits<5>>,
    at_bit_addr_write: Constant<Bits<5>>,
    at_bit_addr_wdata: Constant<Bits<5>>,
    mask_bit_addr: Constant<Bits<32>>,
    mask_bit_data_value: Constant<Bits<32>>,
    mask_bit_data_valid: Constant<Bits<32>>,
    /// BIT_DATA.counter = 1 (a plain core's set bit).
    mask_bit_data_counter_one: Constant<Bits<32>>,
    zero_32: Constant<Bits<32>>,
    zero_8: Constant<Bits<8>>,
}

impl<const W: usize> BitAccess<W> {
    /// `plain_core`: the core has no counters (counter_bits 1).
    pub fn new(plain_core: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            bit_addr_write: Default::default(),
            bit_count_write: Default::default(),
            wdata: Default::default(),
            busy: Default::default(),
            clear_pending: Default::default(),
            request_waiting: Default::default(),
            rb: Default::default(),
            counter_rdata: Default::default(),
            counter_wdata: Default::default(),
            armed_next: Default::default(),
            bit_addr: Default::default(),
            bit_data: Default::default(),
            bit_count: Default::default(),
            bit_addr_q: Default::default(),
            bit_data_q: Default::default(),
            rb_armed: Default::default(),
            rb_waiting: Default::default(),
            access_req: Default::default(),
            access_bank: Default::default(),
            access_addr: Default::default(),
            access_write: Default::default(),
            access_wdata: Default::default(),
            bit_count_q: Default::default(),
            rb_counter: Default::default(),
            bit_data_value: Default::default(),
            bit_data_counter: Default::default(),
            plain_core: Constant::new(plain_core),
            at_bit_addr_addr: at(&map::BIT_ADDR_ADDR),
            at_bit_addr_bank: at(&map::BIT_ADDR_BANK),
            at_bit_addr_write: at(&map::BIT_ADDR_WRITE),
            at_bit_addr_wdata: at(&map::BIT_ADDR_WDATA),
            mask_bit_addr: mask(map::BIT_ADDR.fields),
            mask_bit_data_value: mask(&[map::BIT_DATA_VALUE]),
            mask_bit_data_valid: mask(&[map::BIT_DATA_VALID]),
            mask_bit_data_counter_one: value(map::BIT_DATA_COUNTER.place(1)),
            zero_32: value(0),
            zero_8: Constant::new(0.into()),
        }
    }
}

impl<const W: usize> Logic for BitAccess<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            bit_addr_q,
            bit_data_q,
            rb_armed,
            rb_waiting,
            access_req,
            access_bank,
            access_addr,
            access_write,
            access_wdata,
            bit_count_q
        );
        // The core's inputs, every one a register.
        self.rb.req.next = self.access_req.q.val();
        self.rb.bank.next = self.access_bank.q.val();
        self.rb.addr.next = self.access_addr.q.val();
        self.rb.write.next = self.access_write.q.val();
        self.rb.wdata.next = self.access_wdata.q.val();
        self.counter_wdata.next = self.bit_count_q.q.val();
        self.rb_counter.narrow.next = self.counter_rdata.val();
        self.bit_addr.next = self.bit_addr_q.q.val();
        self.bit_data.next = self.bit_data_q.q.val();
        self.bit_count.next = self.bit_count_q.q.val();

        // Issued when nothing taken before it is still on its way into the core.
        self.armed_next.next = (self.rb_armed.q.val()
            & !(self.access_req.q.val() & !self.busy.val()))
            | self.bit_addr_write.val();
        self.access_req.d.next = self.rb_armed.q.val()
            & !self.rb_waiting.q.val()
            & !self.access_req.q.val()
            & !self.busy.val()
            & !self.clear_pending.val()
            & !self.request_waiting.val();
        if self.access_req.q.val() {
            self.rb_waiting.d.next = true;
        }
        self.rb_armed.d.next = self.armed_next.val();
        self.bit_data_value.next = self.zero_32.val();
        if self.rb.data.val() {
            self.bit_data_value.next = self.mask_bit_data_value.val();
        }
        // Behind a plain core the box's counter is 0.
        self.bit_data_counter.next = self.rb_counter.wide.val() << 8;
        if self.plain_core.val() & self.rb.data.val() {
            self.bit_data_counter.next = self.mask_bit_data_counter_one.val();
        }
        if self.rb.valid.val() {
            self.rb_waiting.d.next = false;
            if !self.rb_armed.q.val() {
                self.bit_data_q.d.next = (self.mask_bit_data_valid.val()
                    | self.bit_data_value.val())
                    | self.bit_data_counter.val();
            }
        }

        // The write side's actions, after the result: a BIT_ADDR write wins.
        if self.bit_count_write.val() {
            self.bit_count_q.d.next = self.wdata.val().get_bits::<8>(0);
        }
        if self.bit_addr_write.val() {
            self.bit_addr_q.d.next = self.wdata.val() & self.mask_bit_addr.val();
            if self.reset.val() {
                self.bit_addr_q.d.next = self.zero_32.val();
            }
            self.access_addr.d.next = self
                .wdata
                .val()
                .get_bits::<16>(self.at_bit_addr_addr.val().index());
            self.access_bank.d.next = self
                .wdata
                .val()
                .get_bits::<4>(self.at_bit_addr_bank.val().index());
            self.access_write.d.next = self
                .wdata
                .val()
                .get_bit(self.at_bit_addr_write.val().index());
            self.access_wdata.d.next = self
                .wdata
                .val()
                .get_bit(self.at_bit_addr_wdata.val().index());
            self.bit_data_q.d.next = self.zero_32.val();
        }
        if self.reset.val() {
            self.rb_armed.d.next = false;
            self.rb_waiting.d.next = false;
            self.access_req.d.next = false;
            self.bit_count_q.d.next = self.zero_8.val();
        }
    }
}
