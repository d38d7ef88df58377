//! `PresentCopy`: one bank's copy of present6, the counting core's "every counter of the
//! slot in c6 was non-zero" (contract §7: whether a delete is carried out): the AND of the
//! k banks' `term5`, registered.
//!
//! Every bank of a counting core holds one, so that the logic of the bank that reads
//! present6 (its choices of the next counter, its write of a delete, its own `term5`)
//! sits beside its own flip-flop, and the loop from one slot's presence to the next one's
//! crosses the chip once (a bank's term to every copy), not twice. Synthesis would merge
//! k identical flip-flops of one function into one: the module is marked
//! `(* keep_hierarchy *)` by the generator (`verilog::keep_counting_for_synthesis`), which Yosys honours
//! and simulators ignore.
//!
//! Latency: `terms5` in cycle t, `present6` in cycle t+1. No reset: present6 is read only
//! with the selects of the slots behind, which a reset clears. No memory.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct PresentCopy {
    pub clock: Signal<In, Clock>,
    /// One bit per bank: its counter of the slot in c5 is non-zero (bits k..15 ignored).
    pub terms5: Signal<In, Bits<16>>,
    /// Every bit of `terms5`, a cycle later.
    pub present6: Signal<Out, bool>,
    all_set: DFF<bool>,
    all_ones: Constant<Bits<16>>,
    // Bits k..15: constant 1 here, so that synthesis, which does not look across this
    // module's boundary, ANDs only the k terms.
    above_k: Constant<Bits<16>>,
}

impl PresentCopy {
    /// The copy for a core of `k` banks (1..=16).
    pub fn new(k: usize) -> Self {
        assert!((1..=16).contains(&k), "k {k} outside 1..=16");
        PresentCopy {
            clock: Default::default(),
            terms5: Default::default(),
            present6: Default::default(),
            all_set: Default::default(),
            all_ones: Constant::new(0xffffu64.into()),
            above_k: Constant::new((0xffffu64 & !((1u64 << k) - 1)).into()),
        }
    }
}

impl Logic for PresentCopy {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, all_set);
        self.all_set.d.next = (self.terms5.val() | self.above_k.val()) == self.all_ones.val();
        self.present6.next = self.all_set.q.val();
    }
}
