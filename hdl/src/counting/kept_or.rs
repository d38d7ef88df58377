//! `KeptOr3`: the OR of three nets, in a module that synthesis keeps whole
//! (`(* keep_hierarchy *)`, added by the generator (`verilog::keep_counting_for_synthesis`)), so that it
//! maps to one LUT of exactly these three nets. The counting core's `term5` is one: each
//! of its nets is one LUT from flip-flops, and the OR is the last LUT before the AND over
//! the banks; left to itself, synthesis folds the RAM's bits into a deeper tree.
//!
//! Combinational, no delay, no memory.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct KeptOr3 {
    pub a: Signal<In, bool>,
    pub b: Signal<In, bool>,
    pub c: Signal<In, bool>,
    pub y: Signal<Out, bool>,
}

impl Logic for KeptOr3 {
    #[hdl_gen]
    fn update(&mut self) {
        self.y.next = (self.a.val() | self.b.val()) | self.c.val();
    }
}
