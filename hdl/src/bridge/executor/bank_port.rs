//! `BankPort`: the core's bank access port (rb_*, counter_wdata) and its fill
//! port (fill_bank), driven from flip-flops, and the registers that walk a bank
//! for the dump, the writes and the stats' fills ([`Walk`]): the bank, the bit
//! address, the bits of the current byte, the byte, and a wait counter.
//!
//! The access reaches the core one cycle after the state that asks for it (a
//! readback in DumpReq, a bit or counter write in WriteBit): rb_req holds the
//! core's req_ready low combinationally, so a state decode in front of it put
//! the core's admission logic between two of the executor's registers.
//! `counter_wdata` is the byte, registered alongside. A dump assembles 8
//! readbacks into a byte (bit 0 first), or takes one counter a byte; write bits
//! shifts a byte out a bit per write, write counters writes one counter a byte.
//!
//! Latency: an access asked for in cycle t is on the core's port in t+1; its
//! result in the core's readback_latency after that. Memory: none (registers).

use rust_hdl::prelude::*;

use super::groups::{DispatchIn, Walk};
use super::state::ExecState;
use crate::ports::ReadbackDriver;

#[derive(LogicBlock)]
pub struct BankPort {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub state: Signal<In, ExecState>,
    pub dispatch: DispatchIn<0>,
    /// The payload bytes left and the fills' phase (the stats' fills walk the banks).
    pub left: Signal<In, Bits<8>>,
    pub saturated_phase: Signal<In, Bit>,
    /// A dump's or write's arguments: bank, address low, address high.
    pub args: Signal<In, Bits<24>>,
    pub busy: Signal<In, Bit>,
    /// The frame is a dump counters; a write counters.
    pub cdump: Signal<In, Bit>,
    pub cwrite: Signal<In, Bit>,
    /// The receive buffer's byte (a write's data).
    pub buf_rdata: Signal<In, Bits<8>>,
    /// The core's bank access port; its fill_bank; its counter read and counter write value.
    pub rb: ReadbackDriver<128>,
    pub fill_bank: Signal<Out, Bits<4>>,
    pub counter_rdata: Signal<In, Bits<8>>,
    pub counter_wdata: Signal<Out, Bits<8>>,
    pub walk: Walk<0>,
    bank: DFF<Bits<8>>,
    addr: DFF<Bits<16>>,
    bitcnt: DFF<Bits<4>>,
    byte_acc: DFF<Bits<8>>,
    wait_count: DFF<Bits<5>>,
    /// The value the next counter write writes (counter_wdata from a flip-flop).
    cw_data_r: DFF<Bits<8>>,
    rb_req_r: DFF<Bit>,
    rb_write_r: DFF<Bit>,
    rb_wdata_r: DFF<Bit>,
    rb_addr_r: DFF<Bits<16>>,
    /// k - 1: compared without an adder.
    last_bank: Constant<Bits<8>>,
    counting: Constant<Bit>,
}

impl BankPort {
    pub fn new(core: &crate::CoreParams) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            state: Default::default(),
            dispatch: Default::default(),
            left: Default::default(),
            saturated_phase: Default::default(),
            args: Default::default(),
            busy: Default::default(),
            cdump: Default::default(),
            cwrite: Default::default(),
            buf_rdata: Default::default(),
            rb: Default::default(),
            fill_bank: Default::default(),
            counter_rdata: Default::default(),
            counter_wdata: Default::default(),
            walk: Default::default(),
            bank: Default::default(),
            addr: Default::default(),
            bitcnt: Default::default(),
            byte_acc: Default::default(),
            wait_count: Default::default(),
            cw_data_r: Default::default(),
            rb_req_r: Default::default(),
            rb_write_r: Default::default(),
            rb_wdata_r: Default::default(),
            rb_addr_r: Default::default(),
            last_bank: Constant::new((core.k.saturating_sub(1) as u64).into()),
            counting: Constant::new(core.counter_bits > 1),
        }
    }
}

// An arm whose only statement is an `if`: rust-hdl's `hdl_gen` has no match
// guards, so it stays an `if` inside the arm.
#[allow(clippy::collapsible_match)]
impl Logic for BankPort {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, bank, addr, bitcnt, byte_acc, wait_count, cw_data_r, rb_req_r, rb_write_r,
            rb_wdata_r, rb_addr_r
        );
        self.walk.bank.next = self.bank.q.val();
        self.walk.bitcnt.next = self.bitcnt.q.val();
        self.walk.byte.next = self.byte_acc.q.val();
        self.walk.wait.next = self.wait_count.q.val();
        self.rb.req.next = self.rb_req_r.q.val();
        self.rb.bank.next = self.bank.q.val().get_bits::<4>(0);
        self.rb.addr.next = self.rb_addr_r.q.val();
        self.rb.write.next = self.rb_write_r.q.val();
        self.rb.wdata.next = self.rb_wdata_r.q.val();
        self.rb_req_r.d.next = false;
        self.rb_write_r.d.next = false;
        self.rb_addr_r.d.next = self.addr.q.val();
        self.rb_wdata_r.d.next = self.byte_acc.q.val().get_bit(0);
        self.fill_bank.next = self.bank.q.val().get_bits::<4>(0);
        self.counter_wdata.next = self.cw_data_r.q.val();
        self.cw_data_r.d.next = self.byte_acc.q.val();
        match self.state.val() {
            ExecState::Decode => {
                if self.dispatch.stats.val() {
                    self.bank.d.next = 0.into();
                }
            }
            ExecState::FillSet => {
                self.wait_count.d.next = 0.into();
            }
            ExecState::FillWait => {
                self.wait_count.d.next = self.wait_count.q.val() + 1;
            }
            ExecState::ShiftFill => {
                if self.left.val() == 1 {
                    self.bank.d.next = self.bank.q.val() + 1;
                    if (self.bank.q.val() == self.last_bank.val())
                        & self.counting.val()
                        & !self.saturated_phase.val()
                    {
                        self.bank.d.next = 0.into();
                    }
                }
            }
            ExecState::DumpCheck => {
                self.bank.d.next = self.args.val().get_bits::<8>(0);
                self.addr.d.next = self.args.val().get_bits::<16>(8);
                self.bitcnt.d.next = 0.into();
            }
            ExecState::DumpReq => {
                // The readback reaches the core next cycle, from rb_req_r.
                if !self.busy.val() {
                    self.rb_req_r.d.next = true;
                }
            }
            ExecState::DumpWait => {
                if self.rb.valid.val() & self.cdump.val() {
                    // Dump counters: one counter a byte.
                    self.byte_acc.d.next = self.counter_rdata.val();
                    self.addr.d.next = self.addr.q.val() + 1;
                } else if self.rb.valid.val() {
                    self.byte_acc.d.next =
                        (self.byte_acc.q.val() >> 1).replace_bit(7, self.rb.data.val());
                    self.addr.d.next = self.addr.q.val() + 1;
                    self.bitcnt.d.next = self.bitcnt.q.val() + 1;
                    if self.bitcnt.q.val() == 7 {
                        self.bitcnt.d.next = 0.into();
                    }
                }
            }
            ExecState::WriteCheck => {
                self.bank.d.next = self.args.val().get_bits::<8>(0);
                self.addr.d.next = self.args.val().get_bits::<16>(8);
            }
            ExecState::WriteLoad => {
                self.byte_acc.d.next = self.buf_rdata.val();
                self.bitcnt.d.next = 0.into();
            }
            ExecState::WriteBit => {
                // The bit (or counter) write reaches the core next cycle, from rb_*_r
                // (and cw_data_r, which takes byte_acc now).
                self.rb_req_r.d.next = true;
                self.rb_write_r.d.next = true;
                self.addr.d.next = self.addr.q.val() + 1;
                if self.cwrite.val() {
                    // One counter a byte.
                    self.bitcnt.d.next = 0.into();
                    self.wait_count.d.next = 0.into();
                } else {
                    self.byte_acc.d.next = self.byte_acc.q.val() >> 1;
                    self.bitcnt.d.next = self.bitcnt.q.val() + 1;
                    if self.bitcnt.q.val() == 7 {
                        self.wait_count.d.next = 0.into();
                    }
                }
            }
            ExecState::WriteSettle => {
                self.wait_count.d.next = self.wait_count.q.val() + 1;
            }
            _ => {}
        }
        if self.reset.val() {
            self.rb_req_r.d.next = false;
            self.rb_write_r.d.next = false;
        }
    }
}
