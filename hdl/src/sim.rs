//! A cycle-by-cycle driver of the core in rust-hdl's simulator (slow: for short runs).

use rust_hdl::prelude::*;

use crate::core::BloomCore;

/// Inputs held during one clock cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CycleInputs {
    pub reset: bool,
    pub req_valid: bool,
    pub req_op: u8,
    pub req_key: u128,
    pub req_tag: u8,
    pub resp_ready: bool,
    pub rb_req: bool,
    pub rb_bank: u8,
    pub rb_addr: u16,
    pub fill_bank: u8,
}

/// Outputs during that cycle (before its closing clock edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CycleOutputs {
    pub req_ready: bool,
    pub resp_valid: bool,
    pub resp_hit: bool,
    pub resp_tag: u8,
    pub rb_valid: bool,
    pub rb_data: bool,
    pub fill_count: u32,
    pub busy: bool,
}

/// `value` as a W-bit vector; panics if it does not fit (callers validate keys).
pub fn bits_from_u128<const W: usize>(value: u128) -> Bits<W> {
    assert!(W == 128 || value >> W == 0, "key {value:#x} does not fit in {W} bits");
    let low: Bits<W> = ((value as u64) & if W >= 64 { u64::MAX } else { (1u64 << W) - 1 }).into();
    if W > 64 {
        let high: Bits<W> = ((value >> 64) as u64).into();
        (high << 64u64) | low
    } else {
        low
    }
}

pub struct CoreSim<const W: usize> {
    pub core: BloomCore<W>,
    pub cycle: u64,
    /// Every cycle's inputs and outputs, when recording (to replay in a Verilog simulator).
    pub trace: Option<Vec<(CycleInputs, CycleOutputs)>>,
}

const MAX_SETTLE_ITERATIONS: usize = 10_000;

impl<const W: usize> CoreSim<W> {
    pub fn new(core: BloomCore<W>) -> Self {
        let mut sim = CoreSim { core, cycle: 0, trace: None };
        sim.core.clock.next = Clock::from(false);
        sim.settle();
        sim
    }

    fn settle(&mut self) {
        assert!(simulate(&mut self.core, MAX_SETTLE_ITERATIONS), "rust-hdl simulation did not settle");
    }

    /// Applies `inputs` for one cycle, returns the outputs seen in that cycle, then
    /// clocks the rising edge that ends it.
    pub fn step(&mut self, inputs: &CycleInputs) -> CycleOutputs {
        let c = &mut self.core;
        c.clock.next = Clock::from(false);
        c.reset.next = inputs.reset;
        c.req_valid.next = inputs.req_valid;
        c.req_op.next = (inputs.req_op as u64).into();
        c.req_key.next = bits_from_u128::<W>(inputs.req_key);
        c.req_tag.next = (inputs.req_tag as u64).into();
        c.resp_ready.next = inputs.resp_ready;
        c.rb_req.next = inputs.rb_req;
        c.rb_bank.next = (inputs.rb_bank as u64).into();
        c.rb_addr.next = (inputs.rb_addr as u64).into();
        c.fill_bank.next = (inputs.fill_bank as u64).into();
        self.settle();
        let c = &self.core;
        let out = CycleOutputs {
            req_ready: c.req_ready.val(),
            resp_valid: c.resp_valid.val(),
            resp_hit: c.resp_hit.val(),
            resp_tag: c.resp_tag.val().to_u8(),
            rb_valid: c.rb_valid.val(),
            rb_data: c.rb_data.val(),
            fill_count: c.fill_count.val().to_u32(),
            busy: c.busy.val(),
        };
        if let Some(trace) = self.trace.as_mut() {
            trace.push((*inputs, out));
        }
        self.core.clock.next = Clock::from(true);
        self.settle();
        self.cycle += 1;
        out
    }
}
