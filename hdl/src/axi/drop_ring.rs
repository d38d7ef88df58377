//! `DropRing`: which of the core's responses `bloom_axis` takes and drops (a
//! register clear's) and which answer a query (for the HITS counter). A ring of
//! as many entries as the core holds unanswered requests (its response FIFO's depth,
//! 8, or 11 with the Feistel family's request line; at most N, the width of its
//! registers): one written for
//! every request the core takes (`req_valid & req_ready`), at the one-hot
//! `write_at`, in the cycle after, from registers (`accepted`, `took_clear`,
//! `took_query`); one read for every response the core gives (`pop`), at
//! `read_at`. Bit i of `drops` marks entry i a register clear, of `queries` a
//! query (op 0).
//!
//! The head entry is kept in registers (`head_drop`, `head_query`, the outputs
//! `drop` and `query`), recomputed every cycle from the ring and from whether
//! a response is taken. An entry is written at least 6 cycles before its
//! response is presented, so the head registers always see it.
//!
//! Latency: the head of a response taken in cycle t is the next entry's from
//! cycle t+1. Memory: none (flip-flops; one entry written and one read per
//! cycle, at different places: `write_at` runs ahead of `read_at`).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct DropRing<const N: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous: empties the ring.
    pub reset: Signal<In, bool>,
    /// The core's request handshake and the beat presented: a register clear,
    /// its op code.
    pub req_valid: Signal<In, bool>,
    pub req_ready: Signal<In, bool>,
    pub req_clear: Signal<In, bool>,
    pub req_op: Signal<In, Bits<2>>,
    /// The core's response is taken this cycle.
    pub pop: Signal<In, bool>,
    /// The response the core presents answers a register clear: take it, do not send it.
    pub drop: Signal<Out, bool>,
    /// The response the core presents answers a query.
    pub query: Signal<Out, bool>,
    drops: DFF<Bits<N>>,
    queries: DFF<Bits<N>>,
    write_at: DFF<Bits<N>>,
    read_at: DFF<Bits<N>>,
    head_drop: DFF<bool>,
    head_query: DFF<bool>,
    /// The core took a request (a register clear if `took_clear`, a query if
    /// `took_query`) in the cycle before.
    accepted: DFF<bool>,
    took_clear: DFF<bool>,
    took_query: DFF<bool>,
    read_next: Signal<Local, Bits<N>>,
    write_next: Signal<Local, Bits<N>>,
    zero_ring: Constant<Bits<N>>,
    one_ring: Constant<Bits<N>>,
    /// The ring's last place (entries - 1), and its places (bits above stay 0).
    last: Constant<Bits<N>>,
    places: Constant<Bits<N>>,
    op_query: Constant<Bits<2>>,
}

impl<const N: usize> DropRing<N> {
    /// A ring of `entries` (2..=N, N at most 63) in N-bit registers.
    pub fn new(entries: usize) -> Self {
        assert!((2..=N).contains(&entries) && N < 64);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_clear: Default::default(),
            req_op: Default::default(),
            pop: Default::default(),
            drop: Default::default(),
            query: Default::default(),
            drops: Default::default(),
            queries: Default::default(),
            write_at: Default::default(),
            read_at: Default::default(),
            head_drop: Default::default(),
            head_query: Default::default(),
            accepted: Default::default(),
            took_clear: Default::default(),
            took_query: Default::default(),
            read_next: Default::default(),
            write_next: Default::default(),
            zero_ring: Constant::new(0.into()),
            one_ring: Constant::new(1.into()),
            last: Constant::new((entries as u64 - 1).into()),
            places: Constant::new(((1u64 << entries) - 1).into()),
            op_query: Constant::new(0.into()),
        }
    }
}

impl<const N: usize> Logic for DropRing<N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, drops, queries, write_at, read_at, head_drop, head_query, accepted,
            took_clear, took_query
        );
        self.drop.next = self.head_drop.q.val();
        self.query.next = self.head_query.q.val();
        // Write at write_at when the core takes a request, advance read_at when
        // it gives a response; the head registers follow read_at.
        self.write_next.next = ((self.write_at.q.val() << self.one_ring.val())
            | (self.write_at.q.val() >> self.last.val()))
            & self.places.val();
        self.read_next.next = ((self.read_at.q.val() << self.one_ring.val())
            | (self.read_at.q.val() >> self.last.val()))
            & self.places.val();
        self.accepted.d.next = self.req_valid.val() & self.req_ready.val();
        self.took_clear.d.next = self.req_clear.val();
        self.took_query.d.next = self.req_op.val() == self.op_query.val();
        if self.accepted.q.val() {
            self.write_at.d.next = self.write_next.val();
            if self.took_clear.q.val() {
                self.drops.d.next = self.drops.q.val() | self.write_at.q.val();
            } else {
                self.drops.d.next = self.drops.q.val() & !self.write_at.q.val();
            }
            if self.took_query.q.val() {
                self.queries.d.next = self.queries.q.val() | self.write_at.q.val();
            } else {
                self.queries.d.next = self.queries.q.val() & !self.write_at.q.val();
            }
        }
        self.head_drop.d.next = (self.drops.q.val() & self.read_at.q.val()).any();
        self.head_query.d.next = (self.queries.q.val() & self.read_at.q.val()).any();
        if self.pop.val() {
            self.read_at.d.next = self.read_next.val();
            self.head_drop.d.next = (self.drops.q.val() & self.read_next.val()).any();
            self.head_query.d.next = (self.queries.q.val() & self.read_next.val()).any();
        }
        if self.reset.val() {
            self.drops.d.next = self.zero_ring.val();
            self.queries.d.next = self.zero_ring.val();
            self.write_at.d.next = self.one_ring.val();
            self.read_at.d.next = self.one_ring.val();
            self.head_drop.d.next = false;
            self.head_query.d.next = false;
            self.accepted.d.next = false;
        }
    }
}
