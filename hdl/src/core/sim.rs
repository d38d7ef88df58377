//! A cycle-by-cycle driver of the core in rust-hdl's simulator (slow: for short runs).
//!
//! A cycle's inputs and outputs are lists of values in the order of the port
//! table ([`crate::ports::core_ports`]): [`CoreSim::inputs`] and
//! [`CoreSim::outputs`] name them.

use rust_hdl::prelude::*;

use crate::core::BloomCore;
use crate::ports::{core_ports, CorePort, Direction};

pub struct CoreSim<const W: usize> {
    pub core: BloomCore<W>,
    pub cycle: u64,
    inputs: Vec<CorePort>,
    outputs: Vec<CorePort>,
}

const MAX_SETTLE_ITERATIONS: usize = 10_000;

impl<const W: usize> CoreSim<W> {
    pub fn new(core: BloomCore<W>, params: &bloom_params::CoreParams) -> Self {
        let (inputs, outputs) = core_ports(params)
            .into_iter()
            .partition(|p| p.direction == Direction::Input);
        let mut sim = CoreSim {
            core,
            cycle: 0,
            inputs,
            outputs,
        };
        sim.core.sys.clock.next = Clock::from(false);
        sim.settle();
        sim
    }

    /// The input ports, in the order `step` takes their values (`clock` first: its value is ignored).
    pub fn inputs(&self) -> &[CorePort] {
        &self.inputs
    }

    /// The output ports, in the order `step` returns their values.
    pub fn outputs(&self) -> &[CorePort] {
        &self.outputs
    }

    fn settle(&mut self) {
        assert!(
            simulate(&mut self.core, MAX_SETTLE_ITERATIONS),
            "rust-hdl simulation did not settle"
        );
    }

    /// Applies `inputs` for one cycle, returns the outputs seen in that cycle, then
    /// clocks the rising edge that ends it.
    pub fn step(&mut self, inputs: &[u128]) -> Vec<u128> {
        assert_eq!(inputs.len(), self.inputs.len(), "one value per input port");
        for (v, p) in inputs.iter().zip(&self.inputs) {
            assert!(
                p.width >= 128 || v >> p.width == 0,
                "{v:#x} does not fit the {}-bit port {}",
                p.width,
                p.name
            );
        }
        let mut values = inputs.iter().copied();
        self.core.sys.poke(&mut values);
        self.core.io.poke(&mut values);
        self.core.scrub.poke(&mut values);
        self.core.sys.clock.next = Clock::from(false);
        self.settle();
        let mut out = Vec::with_capacity(self.outputs.len());
        self.core.sys.peek(&mut out);
        self.core.io.peek(&mut out);
        self.core.scrub.peek(&mut out);
        self.core.sys.clock.next = Clock::from(true);
        self.settle();
        self.cycle += 1;
        out
    }
}
