//! The same core in rust-hdl's own simulator (`hdl::core::sim::CoreSim`), driven by
//! exactly the stimulus the Verilator driver applies, for the three-way check:
//! rust-hdl vs Verilator vs golden. rust-hdl simulates the Rust description of
//! the core; Verilator simulates the Verilog printed from it. If the printer
//! meant something different from the Rust, the two logs differ.
//!
//! rust-hdl's simulator settles the whole design per half cycle and is orders
//! of magnitude slower than Verilator: use it for short runs only.

use hdl::core::sim::CoreSim;

use crate::model::StreamOutput;
use crate::traffic::Request;
use crate::SimError;

/// One clock cycle of a core: input values held for the cycle, output values
/// seen in it (each in the order of hdl's port table).
pub trait CycleCore: Send {
    fn step(&mut self, inputs: &[u128]) -> Vec<u128>;
    fn input_names(&self) -> Vec<String>;
    fn output_names(&self) -> Vec<String>;
}

impl<const W: usize> CycleCore for CoreSim<W> {
    fn step(&mut self, inputs: &[u128]) -> Vec<u128> {
        CoreSim::step(self, inputs)
    }
    fn input_names(&self) -> Vec<String> {
        self.inputs().iter().map(|p| p.name.clone()).collect()
    }
    fn output_names(&self) -> Vec<String> {
        self.outputs().iter().map(|p| p.name.clone()).collect()
    }
}

/// The outputs of one cycle, read by port name.
pub struct Outputs<'a> {
    names: &'a [String],
    values: Vec<u128>,
}

impl Outputs<'_> {
    pub fn get(&self, name: &str) -> u128 {
        let i = self
            .names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no output `{name}`"));
        self.values[i]
    }
    pub fn bit(&self, name: &str) -> bool {
        self.get(name) & 1 == 1
    }
}

/// The rust-hdl model of the core, with the Verilator driver's conventions:
/// inputs keep their last value, cycles are counted from construction.
pub struct RustHdlCore {
    sim: Box<dyn CycleCore>,
    input_names: Vec<String>,
    output_names: Vec<String>,
    inputs: Vec<u128>,
    cycle: u64,
    last_reset: u64,
    pub config: hdl::CoreConfig,
}

impl RustHdlCore {
    pub fn new(cfg: &hdl::CoreConfig) -> Result<RustHdlCore, SimError> {
        let err = |e: hdl::HdlError| SimError::Value(e.to_string());
        let p = &cfg.params;
        let sim: Box<dyn CycleCore> = match cfg.key_bits() {
            32 => Box::new(CoreSim::new(
                hdl::verilog::build::<32, hdl::BloomCore<32>>(cfg).map_err(err)?,
                p,
            )),
            64 => Box::new(CoreSim::new(
                hdl::verilog::build::<64, hdl::BloomCore<64>>(cfg).map_err(err)?,
                p,
            )),
            128 => Box::new(CoreSim::new(
                hdl::verilog::build::<128, hdl::BloomCore<128>>(cfg).map_err(err)?,
                p,
            )),
            w => {
                return Err(SimError::Value(format!(
                    "key_bits = {w} is not allowed (allowed: 32, 64, 128)"
                )))
            }
        };
        let (input_names, output_names) = (sim.input_names(), sim.output_names());
        let inputs = vec![0; input_names.len()];
        let mut core = RustHdlCore {
            sim,
            input_names,
            output_names,
            inputs,
            cycle: 0,
            last_reset: 0,
            config: cfg.clone(),
        };
        core.reset();
        Ok(core)
    }

    /// The last cycle of the latest reset (as `VerilatedCore::last_reset`).
    pub fn last_reset(&self) -> u64 {
        self.last_reset
    }

    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Sets input `name` from this cycle on.
    pub fn set(&mut self, name: &str, value: u128) {
        let i = self
            .input_names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no input `{name}`"));
        self.inputs[i] = value;
    }

    /// One cycle with the inputs as set; its outputs.
    pub fn step(&mut self) -> Outputs<'_> {
        self.cycle += 1;
        let values = self.sim.step(&self.inputs);
        Outputs {
            names: &self.output_names,
            values,
        }
    }

    /// Two cycles of reset with every input idle (as `VerilatedCore::reset`).
    pub fn reset(&mut self) {
        self.inputs.iter_mut().for_each(|v| *v = 0);
        self.set("reset", 1);
        self.step();
        self.step();
        self.set("reset", 0);
        self.last_reset = self.cycle - 1;
    }

    /// Idle cycles: no request, no readback, consumer ready (as `VerilatedCore::idle`).
    pub fn idle(&mut self, cycles: u64) {
        self.set("req_valid", 0);
        self.set("resp_ready", 1);
        for _ in 0..cycles {
            self.step();
        }
    }

    /// The same loop as the C++ `bsim_stream` (with the side ports of
    /// `side`), over the rust-hdl model.
    pub fn stream(
        &mut self,
        requests: &[Request],
        gaps: &[u32],
        ready: &[u8],
        side_in: &[u64],
        want: usize,
        out: &mut StreamOutput,
    ) {
        out.stride = 4;
        out.start_cycle = self.cycle;
        out.accept_cycle.clear();
        out.responses.clear();
        out.flags.clear();
        out.side_out.clear();
        let (n, max) = (requests.len(), ready.len());
        let (mut item, mut nresp, mut c) = (0usize, 0usize, 0usize);
        let mut idle = gaps.first().copied().unwrap_or(0);
        let mut loaded = false;
        while c < max && (item < n || nresp < want) && nresp < max.max(1) {
            let present = item < n && idle == 0;
            if present && !loaded {
                let r = requests[item];
                self.set("req_op", (r.op & 3) as u128);
                self.set("req_key", r.key);
                self.set("req_tag", r.tag as u128);
                loaded = true;
            }
            self.set("req_valid", present as u128);
            let ordy = ready[c] & 1 == 1;
            self.set("resp_ready", ordy as u128);
            let si = side_in.get(c).copied().unwrap_or(0);
            for (name, shift) in crate::side::INPUTS {
                let width = if name == "rb_addr" {
                    16
                } else if name.ends_with("bank") {
                    4
                } else {
                    1
                };
                self.set(name, ((si >> shift) & ((1u64 << width) - 1)) as u128);
            }
            let now = self.cycle;
            let o = self.step();
            let mut so = 0u64;
            for (name, shift) in crate::side::OUTPUTS {
                so |= (o.get(name) as u64) << shift;
            }
            out.side_out.push(so);
            let (req_ready, resp_valid) = (o.bit("req_ready"), o.bit("resp_valid"));
            out.flags.push(
                present as u8
                    | (req_ready as u8) << 1
                    | (resp_valid as u8) << 2
                    | (ordy as u8) << 3,
            );
            if resp_valid && ordy {
                out.responses.extend_from_slice(&[
                    now as u32,
                    (now >> 32) as u32,
                    o.get("resp_hit") as u32,
                    o.get("resp_tag") as u32,
                ]);
                nresp += 1;
            }
            if present && req_ready {
                out.accept_cycle.push(now);
                item += 1;
                loaded = false;
                idle = gaps.get(item).copied().unwrap_or(0);
            } else if !present && item < n {
                idle -= 1;
            }
            c += 1;
        }
        self.set("req_valid", 0);
        for (name, _) in crate::side::INPUTS {
            self.set(name, 0);
        }
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
        self.set("req_valid", 0);
        for c in 0..n + lat + 1 {
            self.set("rb_req", (c < n) as u128);
            self.set("rb_bank", if c < n { (c / size) as u128 } else { 0 });
            self.set("rb_addr", if c < n { (c % size) as u128 } else { 0 });
            let o = self.step();
            if c >= lat && c - lat < n && o.bit("rb_valid") {
                let i = c - lat;
                banks[i / size][i % size] = o.get("rb_data") as u8;
            }
        }
        banks
    }

    /// fill_count for fill_bank = 0..16.
    pub fn read_fills(&mut self) -> Vec<u32> {
        (0..16u128)
            .map(|b| {
                self.set("fill_bank", b);
                self.step().get("fill_count") as u32
            })
            .collect()
    }
}
