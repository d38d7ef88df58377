//! The same core in rust-hdl's own simulator (`hdl::sim::CoreSim`), driven by
//! exactly the stimulus the Verilator driver applies, for the three-way check:
//! rust-hdl vs Verilator vs golden. rust-hdl simulates the Rust description of
//! the core; Verilator simulates the Verilog printed from it. If the printer
//! meant something different from the Rust, the two logs differ.
//!
//! rust-hdl's simulator settles the whole design per half cycle and is orders
//! of magnitude slower than Verilator: use it for short runs only.

use hdl::sim::{CoreSim, CycleInputs, CycleOutputs};

use crate::model::StreamOutput;
use crate::traffic::Request;
use crate::SimError;

/// One clock cycle of a core: inputs held for the cycle, outputs seen in it.
pub trait CycleCore: Send {
    fn step(&mut self, inputs: &CycleInputs) -> CycleOutputs;
}

impl<const W: usize> CycleCore for CoreSim<W> {
    fn step(&mut self, inputs: &CycleInputs) -> CycleOutputs {
        CoreSim::step(self, inputs)
    }
}

/// The rust-hdl model of the core, with the Verilator driver's conventions:
/// inputs keep their last value, cycles are counted from construction.
pub struct RustHdlCore {
    sim: Box<dyn CycleCore>,
    inputs: CycleInputs,
    cycle: u64,
    pub config: hdl::CoreConfig,
}

impl RustHdlCore {
    pub fn new(cfg: &hdl::CoreConfig) -> Result<RustHdlCore, SimError> {
        let err = |e: hdl::HdlError| SimError::Value(e.to_string());
        let sim: Box<dyn CycleCore> = match cfg.key_bits() {
            32 => Box::new(CoreSim::new(hdl::verilog::build_core::<32>(&cfg).map_err(err)?)),
            64 => Box::new(CoreSim::new(hdl::verilog::build_core::<64>(&cfg).map_err(err)?)),
            128 => Box::new(CoreSim::new(hdl::verilog::build_core::<128>(&cfg).map_err(err)?)),
            w => return Err(SimError::Value(format!("key_bits = {w} is not allowed (allowed: 32, 64, 128)"))),
        };
        let mut core = RustHdlCore { sim, inputs: CycleInputs::default(), cycle: 0, config: cfg.clone() };
        core.reset();
        Ok(core)
    }

    /// Reset plus the same power-up clear as `VerilatedCore` with
    /// `PowerUp::RandomThenClear`, so that both run in step from then on.
    pub fn new_like_verilated(cfg: &hdl::CoreConfig, timing: &hdl::Timing) -> Result<RustHdlCore, SimError> {
        let mut core = Self::new(cfg)?;
        let cycles = timing.clear_cycles as usize + timing.latency as usize + 16;
        let mut out = StreamOutput::default();
        core.stream(&[Request { op: 2, key: 0, tag: 0 }], &[0], &vec![1u8; cycles], 1, &mut out);
        if out.accepted != 1 || out.n_responses != 1 {
            return Err(SimError::Value("rust-hdl: the power-up clear was not accepted and answered".into()));
        }
        let end = out.accept_cycle[0] + timing.clear_cycles as u64 + 1;
        if end > core.cycle {
            core.idle(end - core.cycle);
        }
        Ok(core)
    }

    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    fn step(&mut self) -> CycleOutputs {
        self.cycle += 1;
        self.sim.step(&self.inputs)
    }

    /// Two cycles of reset with every input idle (as `VerilatedCore::reset`).
    pub fn reset(&mut self) {
        self.inputs = CycleInputs { reset: true, ..CycleInputs::default() };
        self.step();
        self.step();
        self.inputs.reset = false;
    }

    /// Idle cycles: no request, no readback, consumer ready (as `VerilatedCore::idle`).
    pub fn idle(&mut self, cycles: u64) {
        self.inputs.req_valid = false;
        self.inputs.resp_ready = true;
        for _ in 0..cycles {
            self.step();
        }
    }

    /// The same loop as the C++ `bsim_stream`, over the rust-hdl model.
    pub fn stream(&mut self, requests: &[Request], gaps: &[u32], ready: &[u8], want: usize, out: &mut StreamOutput) {
        out.stride = 4;
        out.start_cycle = self.cycle;
        out.accept_cycle.clear();
        out.responses.clear();
        out.flags.clear();
        let (n, max) = (requests.len(), ready.len());
        let (mut item, mut nresp, mut c) = (0usize, 0usize, 0usize);
        let mut idle = gaps.first().copied().unwrap_or(0);
        let mut loaded = false;
        while c < max && (item < n || nresp < want) && nresp < max.max(1) {
            let present = item < n && idle == 0;
            if present && !loaded {
                let r = requests[item];
                self.inputs.req_op = r.op & 3;
                self.inputs.req_key = r.key;
                self.inputs.req_tag = r.tag;
                loaded = true;
            }
            self.inputs.req_valid = present;
            let ordy = ready[c] & 1 == 1;
            self.inputs.resp_ready = ordy;
            let now = self.cycle;
            let o = self.step();
            out.flags.push(present as u8 | (o.req_ready as u8) << 1 | (o.resp_valid as u8) << 2 | (ordy as u8) << 3);
            if o.resp_valid && ordy {
                out.responses.extend_from_slice(&[now as u32, (now >> 32) as u32, o.resp_hit as u32, o.resp_tag as u32]);
                nresp += 1;
            }
            if present && o.req_ready {
                out.accept_cycle.push(now);
                item += 1;
                loaded = false;
                idle = gaps.get(item).copied().unwrap_or(0);
            } else if !present && item < n {
                idle -= 1;
            }
            c += 1;
        }
        self.inputs.req_valid = false;
        out.cycles = c as u64;
        out.accepted = item;
        out.n_responses = nresp;
    }

    /// Every bit of every bank through the readback port (as `VerilatedCore::read_image`).
    pub fn read_image(&mut self, readback_latency: u32) -> Vec<Vec<u8>> {
        let k = self.config.k();
        let size = self.config.bank_size();
        let lat = readback_latency as usize;
        let n = k * size;
        let mut banks = vec![vec![0u8; size]; k];
        self.inputs.req_valid = false;
        for c in 0..n + lat + 1 {
            self.inputs.rb_req = c < n;
            self.inputs.rb_bank = if c < n { (c / size) as u8 } else { 0 };
            self.inputs.rb_addr = if c < n { (c % size) as u16 } else { 0 };
            let o = self.step();
            if c >= lat && c - lat < n && o.rb_valid {
                let i = c - lat;
                banks[i / size][i % size] = o.rb_data as u8;
            }
        }
        banks
    }

    /// fill_count for fill_bank = 0..16.
    pub fn read_fills(&mut self) -> Vec<u32> {
        (0..16u8)
            .map(|b| {
                self.inputs.fill_bank = b;
                self.step().fill_count
            })
            .collect()
    }
}
