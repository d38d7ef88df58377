//! A two-entry FIFO between an upstream and a downstream valid/ready
//! channel, for a stream into or out of the core: both sides registered, so
//! neither sees the other combinationally (`in_ready`, `out_valid` and
//! `open` are flip-flops), full rate (initiation interval 1), nothing lost.
//! Its entries are written straight from the input with enables from
//! registers only (the free entry loads the input every cycle, offered or
//! not), and the beat presented is a 2:1 multiplexer of the two entries: no
//! signal of either side reaches a wide enable. (A skid buffer's output
//! stage needs the downstream's ready on the enable of every payload bit:
//! that was the slowest path of the wrapper on iCE40, the core's req_ready
//! promoted to a global buffer.)
//!
//! The block is split in two: [`PairControl`], the valid/ready logic (once
//! per FIFO), and [`PairReg`], the two entries of one payload field (one per
//! field, all driven by the same control), so one FIFO carries fields of
//! any type.
//!
//! Latency: a beat taken in cycle t is presented from cycle t+1.
//!
//! `hold` closes the upstream without stopping the FIFO: `open` (a register)
//! is `in_ready` as it will be, and low in the cycle after `hold` was high.
//! A user with a second source (the register block's clear) offers it on the
//! input while `open` is low and `in_ready` high.
//!
//! Memory: none (flip-flops).

use rust_hdl::prelude::*;

/// The valid/ready logic of a two-entry FIFO whose entries are written
/// straight from the input (no multiplexer in front of a register, and an
/// enable from registers only, for an input that arrives late in the cycle:
/// a core's response read from its own FIFO) and read through a 2:1
/// multiplexer of registers. `in_ready` and
/// `out_valid` are flip-flops; full rate; a beat written in cycle t is
/// presented from cycle t+1. The entries are [`PairReg`]s.
#[derive(LogicBlock, Default)]
pub struct PairControl {
    pub clock: Signal<In, Clock>,
    /// Synchronous: empties the FIFO; `in_ready` is low the cycle after.
    pub reset: Signal<In, bool>,
    /// A beat is offered on the input.
    pub in_valid: Signal<In, bool>,
    /// The downstream takes the beat presented in this cycle (when `out_valid`).
    pub out_ready: Signal<In, bool>,
    /// Keep `open` low in the next cycle.
    pub hold: Signal<In, bool>,
    /// The FIFO takes the beat offered in this cycle (a register: not full).
    pub in_ready: Signal<Out, bool>,
    /// `in_ready` unless `hold` was high in the cycle before (a register).
    pub open: Signal<Out, bool>,
    /// A beat is presented (a register: not empty).
    pub out_valid: Signal<Out, bool>,
    /// To the entries: load entry 0, entry 1 from the input this cycle
    /// (the free entry the next beat goes to, whether offered or not);
    /// present entry 1 (else 0).
    pub write_0: Signal<Out, bool>,
    pub write_1: Signal<Out, bool>,
    pub read_1: Signal<Out, bool>,
    ready: DFF<bool>,
    open_q: DFF<bool>,
    valid: DFF<bool>,
    ready_next: Signal<Local, bool>,
    write_at_1: DFF<bool>,
    read_at_1: DFF<bool>,
    write: Signal<Local, bool>,
    read: Signal<Local, bool>,
}

impl Logic for PairControl {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ready, open_q, valid, write_at_1, read_at_1);
        self.in_ready.next = self.ready.q.val();
        self.open.next = self.open_q.q.val();
        self.out_valid.next = self.valid.q.val();
        self.read_1.next = self.read_at_1.q.val();
        self.write.next = self.in_valid.val() & self.ready.q.val();
        self.read.next = self.valid.q.val() & self.out_ready.val();
        // The free entry at write_at_1 loads the input every cycle, offered
        // or not (it is not presented until written with valid high): so its
        // enable is registers only, not the input's late valid.
        self.write_0.next = self.ready.q.val() & !self.write_at_1.q.val();
        self.write_1.next = self.ready.q.val() & self.write_at_1.q.val();
        self.write_at_1.d.next = self.write_at_1.q.val() ^ self.write.val();
        self.read_at_1.d.next = self.read_at_1.q.val() ^ self.read.val();
        // Full (valid, not ready) is two held. Full next: two held and none
        // read, or one held, one written and none read. (Right after reset
        // neither ready nor valid: empty.)
        self.ready_next.next = !((self.valid.q.val() & !self.ready.q.val() & !self.read.val())
            | (self.valid.q.val() & self.ready.q.val() & self.write.val() & !self.read.val()));
        self.ready.d.next = self.ready_next.val();
        self.open_q.d.next = self.ready_next.val() & !self.hold.val();
        self.valid.d.next =
            (self.valid.q.val() & (!self.ready.q.val() | !self.read.val())) | self.write.val();
        if self.reset.val() {
            self.ready.d.next = false;
            self.open_q.d.next = false;
            self.valid.d.next = false;
            self.write_at_1.d.next = false;
            self.read_at_1.d.next = false;
        }
    }
}

/// The two entries of one field of a [`PairControl`] FIFO.
#[derive(LogicBlock, Default)]
pub struct PairReg<T: Synth> {
    pub clock: Signal<In, Clock>,
    pub write_0: Signal<In, bool>,
    pub write_1: Signal<In, bool>,
    pub read_1: Signal<In, bool>,
    /// The field of the beat offered.
    pub value_in: Signal<In, T>,
    /// The field of the beat presented.
    pub value_out: Signal<Out, T>,
    /// The fields of both entries, valid or not.
    pub held_0: Signal<Out, T>,
    pub held_1: Signal<Out, T>,
    entry_0: DFF<T>,
    entry_1: DFF<T>,
}

impl<T: Synth> Logic for PairReg<T> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, entry_0, entry_1);
        self.held_0.next = self.entry_0.q.val();
        self.held_1.next = self.entry_1.q.val();
        if self.write_0.val() {
            self.entry_0.d.next = self.value_in.val();
        }
        if self.write_1.val() {
            self.entry_1.d.next = self.value_in.val();
        }
        self.value_out.next = self.entry_0.q.val();
        if self.read_1.val() {
            self.value_out.next = self.entry_1.q.val();
        }
    }
}
