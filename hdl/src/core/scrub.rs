//! The scrub's control (docs/contract.md §5.2): which cycles it reads in, the address it
//! reads next, and when it starts and ends. The banks count (core/partition.rs,
//! counting/counts.rs); this block says what and when.
//!
//! A scrub requested in cycle q (`req`, while not `busy`) is `busy` from q + 1. It takes
//! every free cycle after q as a slot (`free0`: no request accepted, no readback, not
//! busy, no reset): the slot's decision is registered (`take1`, the slot in c1), and in
//! c1 the slot reads address `pos`, the number of slots taken before it, through the
//! readback path of c2 (core/stages.rs). `pos` counts on past the last address: a slot
//! taken with `pos` >= 2^b is no slot (`slot2` low; it reads an address nobody counts),
//! so the decision needs no look-ahead. A write accepted in cycle a carries the `pos` of
//! its c1 (the slots taken before a) to c3 as `ptr3`: a bank compares its address with
//! it, and a change at an address below it counts in the scrub's count too.
//!
//! Start: `pos` := 0 in q, and the start travels like an operation accepted in q, so
//! that `zero5` (c5) zeroes the scrub's counts in the cycle a clear would zero the fill
//! counters: every change of an older write (which carries an older `ptr3`) is dropped
//! with them. End: `pos` reaches 2^b in the cycle after the last slot's c1; `finish`
//! follows when that slot's count and the counts' compare have been registered
//! (`finish_after` cycles later: 7 in a plain core, 8 in a counting core, whose counts
//! are a cycle later), the banks load their results, and `busy` falls in the next cycle,
//! the one that shows them. Reset: no scrub, `pos` 0, nothing in flight.
//!
//! Latency: `req` in q -> `busy` from q + 1; a slot free in cycle s -> c1 in s + 1
//! (`take1`) -> `scrub4` in s + 4; the last slot in s -> `finish` in s + 2 +
//! `finish_after`. No memory; no same-address behaviour (the banks forward).
//!
//! Not built (`built` false, a core generated without the scrub): `req` is ignored, so
//! every register of the scrub is loaded with 0 (a constant, which synthesis removes),
//! as are the banks' scrub counts and results (core/partition.rs, counting/counts.rs).
//!
//! Every register is at most two LUT4 levels after flip-flops or the core's inputs
//! (`take1`: `free0` is the admission's terms and the request inputs); `pos` adds a
//! flip-flop's bit (a carry chain from flip-flops, as the fill counters do).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Scrubber {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// The core's `scrub_req`.
    pub req: Signal<In, bool>,
    /// This cycle is free but for the scrub's own state and the reset: no request
    /// accepted, no readback, not busy.
    pub free0: Signal<In, bool>,
    /// A recount slot in c3 (the sweep's), merged into `counted4`.
    pub recount3: Signal<In, bool>,
    /// The core's `scrub_busy`.
    pub busy: Signal<Out, bool>,
    /// A slot taken in c1 (its address goes to c2 in place of a readback's), and the
    /// address it reads (bits >= b are dropped by the stages).
    pub take1: Signal<Out, bool>,
    pub addr1: Signal<Out, Bits<16>>,
    /// A scrub slot in c4.
    pub scrub4: Signal<Out, bool>,
    /// A recount or scrub slot in c4: the 1 bit it reads in c5 is counted.
    pub counted4: Signal<Out, bool>,
    /// The slots taken before the slot now in c3.
    pub ptr3: Signal<Out, Bits<17>>,
    /// The start in c5: the scrub's counts are zeroed at the end of this cycle.
    pub zero5: Signal<Out, bool>,
    /// The banks compare their counts now (the scrub's result, shown from the next cycle).
    pub finish: Signal<Out, bool>,
    /// The sweep is idle (the core's `busy` low).
    pub idle: Signal<In, bool>,
    /// The power-up check (docs/contract.md §5.3): the banks compare the fill counters
    /// of two cycles ago (the first cycle after the first recount) with their image's
    /// fills now.
    pub power_up: Signal<Out, bool>,
    active: DFF<bool>,
    take_r: DFF<bool>,
    pos: DFF<Bits<17>>,
    // pos >= 2^b in the cycle before (pos reaching 2^b is the end of the reading).
    ended: DFF<bool>,
    // A slot of this scrub in c2, c3, c4; a recount or scrub slot in c4.
    slot2: DFF<bool>,
    slot3: DFF<bool>,
    slot4: DFF<bool>,
    counted4_r: DFF<bool>,
    ptr2: DFF<Bits<17>>,
    ptr3_r: DFF<Bits<17>>,
    // The start, c1 .. c5 (bit 0: c1).
    started: DFF<Bits<8>>,
    // The end of the reading, 1 .. 8 cycles ago (bit 0: 1 cycle).
    ending: DFF<Bits<8>>,
    start0: Signal<Local, bool>,
    // The power-up check: a reset seen since configuration, the check done (neither is
    // cleared by a reset), `idle` a cycle ago, the recount's end 1 and 2 cycles ago.
    armed: DFF<bool>,
    checked: DFF<bool>,
    idle_d: DFF<bool>,
    pu1: DFF<bool>,
    pu2: DFF<bool>,
    pu_start: Signal<Local, bool>,
    // The scrub is built (else `req` is ignored).
    built: Constant<bool>,
    rise: Signal<Local, bool>,
    // The periodic request: cycles since the reset or the last tick, the tick, and
    // whether the core has it (period - 1 the tick's count).
    tick_count: DFF<Bits<24>>,
    tick: Signal<Local, bool>,
    periodic: Constant<bool>,
    tick_last: Constant<Bits<24>>,
    tick_zero: Constant<Bits<24>>,
    tick_one: Constant<Bits<24>>,
    step: Signal<Local, Bits<17>>,
    pos_zero: Constant<Bits<17>>,
    pos_one: Constant<Bits<17>>,
    pos_mask: Constant<Bits<17>>,
    pos_end: Constant<Bits<17>>,
    bits_zero: Constant<Bits<8>>,
    bits_one: Constant<Bits<8>>,
    start_at5: Constant<Bits<8>>,
    finish_at: Constant<Bits<8>>,
}

impl Scrubber {
    /// The scrub of banks of 2^`bank_bits` addresses, whose counts land `count_delay`
    /// cycles after a plain core's (0 plain, 1 counting); `built` false: a core without
    /// the scrub (every register stays 0).
    /// `every`: the core requests a scrub itself every this many cycles (2..=2^24).
    pub fn new(bank_bits: usize, count_delay: usize, built: bool, every: Option<u32>) -> Self {
        // finish in s + 2 + finish_after, the result shown a cycle later (timing.rs).
        let finish_after = crate::timing::SCRUB_END_LATENCY as usize - 3 + count_delay;
        Scrubber {
            clock: Default::default(),
            reset: Default::default(),
            req: Default::default(),
            free0: Default::default(),
            recount3: Default::default(),
            busy: Default::default(),
            take1: Default::default(),
            addr1: Default::default(),
            scrub4: Default::default(),
            counted4: Default::default(),
            ptr3: Default::default(),
            zero5: Default::default(),
            finish: Default::default(),
            idle: Default::default(),
            power_up: Default::default(),
            armed: Default::default(),
            checked: Default::default(),
            idle_d: Default::default(),
            pu1: Default::default(),
            pu2: Default::default(),
            pu_start: Default::default(),
            active: Default::default(),
            take_r: Default::default(),
            pos: Default::default(),
            ended: Default::default(),
            slot2: Default::default(),
            slot3: Default::default(),
            slot4: Default::default(),
            counted4_r: Default::default(),
            ptr2: Default::default(),
            ptr3_r: Default::default(),
            started: Default::default(),
            ending: Default::default(),
            start0: Default::default(),
            built: Constant::new(built),
            rise: Default::default(),
            tick_count: Default::default(),
            tick: Default::default(),
            periodic: Constant::new(every.is_some()),
            tick_last: Constant::new((every.unwrap_or(1).max(1) as u64 - 1).into()),
            tick_zero: Constant::new(0u64.into()),
            tick_one: Constant::new(1u64.into()),
            step: Default::default(),
            pos_zero: Constant::new(0u64.into()),
            pos_one: Constant::new(1u64.into()),
            // pos counts at most a few slots past 2^b before the scrub ends.
            pos_mask: Constant::new(((1u64 << (bank_bits + 1)) - 1).into()),
            pos_end: Constant::new((1u64 << bank_bits).into()),
            bits_zero: Constant::new(0u64.into()),
            bits_one: Constant::new(1u64.into()),
            start_at5: Constant::new((1u64 << 4).into()),
            finish_at: Constant::new((1u64 << (finish_after - 1)).into()),
        }
    }
}

impl Logic for Scrubber {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, active, take_r, pos, ended, slot2, slot3, slot4, counted4_r, ptr2, ptr3_r,
            started, ending, armed, checked, idle_d, pu1, pu2, tick_count
        );
        // The periodic request: a tick in the cycles r + N, r + 2N, ... after a reset
        // ending in r (tick_count N - 1 then).
        self.tick.next = (self.tick_count.q.val() == self.tick_last.val()) & self.periodic.val();
        if self.tick.val() {
            self.tick_count.d.next = self.tick_zero.val();
        } else {
            self.tick_count.d.next = self.tick_count.q.val() + self.tick_one.val();
        }
        self.start0.next =
            ((self.req.val() | self.tick.val()) & self.built.val()) & !self.active.q.val();
        self.finish.next = (self.ending.q.val() & self.finish_at.val()) != self.bits_zero.val();
        self.active.d.next = (self.active.q.val() | self.start0.val()) & !self.finish.val();
        self.take_r.d.next = self.active.q.val() & self.free0.val();
        if self.take_r.q.val() {
            self.step.next = self.pos_one.val();
        } else {
            self.step.next = self.pos_zero.val();
        }
        if self.start0.val() {
            self.pos.d.next = self.pos_zero.val();
        } else {
            self.pos.d.next = (self.pos.q.val() + self.step.val()) & self.pos_mask.val();
        }
        self.ended.d.next = (self.pos.q.val() & self.pos_end.val()) != self.pos_zero.val();
        self.rise.next =
            ((self.pos.q.val() & self.pos_end.val()) != self.pos_zero.val()) & !self.ended.q.val();
        if self.rise.val() {
            self.ending.d.next = (self.ending.q.val() << self.bits_one.val()) | self.bits_one.val();
        } else {
            self.ending.d.next = self.ending.q.val() << self.bits_one.val();
        }
        if self.start0.val() {
            self.started.d.next =
                (self.started.q.val() << self.bits_one.val()) | self.bits_one.val();
        } else {
            self.started.d.next = self.started.q.val() << self.bits_one.val();
        }
        self.slot2.d.next =
            self.take_r.q.val() & ((self.pos.q.val() & self.pos_end.val()) == self.pos_zero.val());
        self.slot3.d.next = self.slot2.q.val();
        self.slot4.d.next = self.slot3.q.val();
        self.counted4_r.d.next = self.slot3.q.val() | self.recount3.val();
        self.ptr2.d.next = self.pos.q.val();
        self.ptr3_r.d.next = self.ptr2.q.val();
        self.busy.next = self.active.q.val();
        self.take1.next = self.take_r.q.val();
        self.addr1.next = self.pos.q.val().get_bits::<16>(0);
        self.scrub4.next = self.slot4.q.val();
        self.counted4.next = self.counted4_r.q.val();
        self.ptr3.next = self.ptr3_r.q.val();
        self.zero5.next = (self.started.q.val() & self.start_at5.val()) != self.bits_zero.val();
        // The power-up check: the first rise of `idle` after a reset ends the recount
        // (nothing else makes the sweep busy before a request is accepted).
        self.armed.d.next = self.armed.q.val() | self.reset.val();
        self.idle_d.d.next = self.idle.val();
        self.pu_start.next = ((self.idle.val() & !self.idle_d.q.val())
            & (self.armed.q.val() & !self.checked.q.val()))
            & !self.reset.val();
        self.pu1.d.next = self.pu_start.val();
        self.pu2.d.next = self.pu1.q.val() & !self.reset.val();
        self.checked.d.next = self.checked.q.val() | (self.pu2.q.val() & !self.reset.val());
        self.power_up.next = self.pu2.q.val() & !self.reset.val();
        if !self.built.val() {
            self.armed.d.next = false;
            self.checked.d.next = false;
            self.idle_d.d.next = false;
            self.pu1.d.next = false;
            self.pu2.d.next = false;
        }
        // counted4 also carries the recount's slots (built or not): reset only.
        if self.reset.val() {
            self.counted4_r.d.next = false;
        }
        // Not built: every other register held at 0 (constant inputs, so synthesis removes them;
        // a loop of registers that merely stays 0 it would keep).
        if self.reset.val() | !(self.built.val() & self.periodic.val()) {
            self.tick_count.d.next = self.tick_zero.val();
        }
        if self.reset.val() | !self.built.val() {
            self.active.d.next = false;
            self.take_r.d.next = false;
            self.pos.d.next = self.pos_zero.val();
            self.ended.d.next = false;
            self.slot2.d.next = false;
            self.slot3.d.next = false;
            self.slot4.d.next = false;
            self.ptr2.d.next = self.pos_zero.val();
            self.ptr3_r.d.next = self.pos_zero.val();
            self.started.d.next = self.bits_zero.val();
            self.ending.d.next = self.bits_zero.val();
        }
    }
}
