//! `ZeroExtend<N, M>`: an N-bit value as M bits, zeros above. Combinational,
//! no delay, no memory. rust-hdl's `bit_cast` prints a widening as an AND with
//! a mask, which Verilator's lint (rightly) reports as a WIDTH mismatch; this
//! block prints a concatenation instead.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ZeroExtend<const N: usize, const M: usize> {
    pub narrow: Signal<In, Bits<N>>,
    pub wide: Signal<Out, Bits<M>>,
}

impl<const N: usize, const M: usize> Logic for ZeroExtend<N, M> {
    fn update(&mut self) {
        self.wide.next = bit_cast::<M, N>(self.narrow.val());
    }

    fn connect(&mut self) {
        self.wide.connect();
    }

    fn hdl(&self) -> Verilog {
        assert!(M > N, "ZeroExtend widens");
        Verilog::Custom(format!("always @(*) wide = {{{}'d0, narrow}};", M - N))
    }
}
