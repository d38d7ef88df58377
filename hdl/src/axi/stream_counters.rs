//! `StreamCounters`: the OPS, INSERTS and HITS registers, three `EventCounter`s
//! and their events: a request taken on s_axis (`take`), one that is an insert
//! (`take_op`), a query's hit taken on m_axis (`query_hit_sent`). Each counter
//! registers its event and its zero (`zero`: COMMAND.zero_counters, or reset),
//! so an event is counted two cycles after it happens, and a zero wins over a
//! count in the same cycle. Counters are statistics: a read's address is taken
//! at least a cycle after the master saw the event, its data two cycles after
//! that, so a read always includes the events seen before it.
//!
//! The counters are kept whole in synthesis (`wrapper::KEPT_MODULES`): merged,
//! their zero registers became one flip-flop reaching all 99 counter bits.
//!
//! Latency: an event in cycle t is in the value from cycle t+2. Memory: none
//! (flip-flops).

use rust_hdl::prelude::*;

use super::event_counter::EventCounter;

#[derive(LogicBlock)]
pub struct StreamCounters {
    pub clock: Signal<In, Clock>,
    /// s_axis hands over a request, whose op code is `take_op`.
    pub take: Signal<In, bool>,
    pub take_op: Signal<In, Bits<2>>,
    /// m_axis hands over a query's response that is a hit.
    pub query_hit_sent: Signal<In, bool>,
    /// Zero every counter.
    pub zero: Signal<In, bool>,
    pub ops_value: Signal<Out, Bits<32>>,
    pub inserts_value: Signal<Out, Bits<32>>,
    pub hits_value: Signal<Out, Bits<32>>,
    ops: EventCounter,
    inserts: EventCounter,
    hits: EventCounter,
    op_insert: Constant<Bits<2>>,
}

impl Default for StreamCounters {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            take: Default::default(),
            take_op: Default::default(),
            query_hit_sent: Default::default(),
            zero: Default::default(),
            ops_value: Default::default(),
            inserts_value: Default::default(),
            hits_value: Default::default(),
            ops: Default::default(),
            inserts: Default::default(),
            hits: Default::default(),
            op_insert: Constant::new(1.into()),
        }
    }
}

impl Logic for StreamCounters {
    #[hdl_gen]
    fn update(&mut self) {
        self.ops.clock.next = self.clock.val();
        self.inserts.clock.next = self.clock.val();
        self.hits.clock.next = self.clock.val();
        // A counter's step is its event or its zero (see EventCounter).
        self.ops.step.next = self.take.val() | self.zero.val();
        self.inserts.step.next =
            (self.take.val() & (self.take_op.val() == self.op_insert.val())) | self.zero.val();
        self.hits.step.next = self.query_hit_sent.val() | self.zero.val();
        self.ops.zero.next = self.zero.val();
        self.inserts.zero.next = self.zero.val();
        self.hits.zero.next = self.zero.val();
        self.ops_value.next = self.ops.value.val();
        self.inserts_value.next = self.inserts.value.val();
        self.hits_value.next = self.hits.value.val();
    }
}
