//! Every port, every cycle: a reactive test bench that drives a core one
//! cycle at a time (requests with idle cycles, response backpressure,
//! readbacks and writes of random bits, a random `fill_bank`, resets), checks each cycle with
//! [`Checker`], and records the whole log. The same bench runs on the
//! rust-hdl model ([`RustHdlCore`]) and on the Verilated Verilog
//! ([`VerilatedCore`]); equal logs prove the printed Verilog is the hardware
//! the Rust describes.

use crate::checker::Checker;
use crate::core::VerilatedCore;
use crate::model::PortId;
use crate::rusthdl::RustHdlCore;
use crate::traffic::{Request, Rng};
use crate::SimError;

/// The names of a core's inputs (without `clock`) and outputs, in the order
/// of the port table: the order of the value lists below.
pub struct PortNames {
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
}

impl PortNames {
    pub fn of(params: &hdl::CoreParams) -> PortNames {
        let table = hdl::ports::core_ports(params);
        let names = |d| {
            table
                .iter()
                .filter(|p| p.direction == d && p.name != "clock")
                .map(|p| p.name.clone())
                .collect()
        };
        PortNames {
            inputs: names(hdl::ports::Direction::Input),
            outputs: names(hdl::ports::Direction::Output),
        }
    }

    /// Sets input `name` in a list of input values.
    pub fn set(&self, inputs: &mut [u128], name: &str, value: u128) {
        inputs[self
            .inputs
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no input `{name}`"))] = value;
    }

    /// Port `name`'s value in one cycle's inputs and outputs.
    pub fn get(&self, inputs: &[u128], outputs: &[u128], name: &str) -> u128 {
        match self.inputs.iter().position(|n| n == name) {
            Some(i) => inputs[i],
            None => {
                outputs[self
                    .outputs
                    .iter()
                    .position(|n| n == name)
                    .unwrap_or_else(|| panic!("no port `{name}`"))]
            }
        }
    }
}

/// A core driven one cycle at a time by port values in the port table's
/// order: inputs without `clock`, outputs all.
pub trait PortCore {
    fn step_ports(&mut self, inputs: &[u128]) -> Result<Vec<u128>, SimError>;
    fn now(&self) -> u64;
}

impl PortCore for RustHdlCore {
    fn step_ports(&mut self, inputs: &[u128]) -> Result<Vec<u128>, SimError> {
        let names = PortNames::of(&self.config.params);
        for (n, v) in names.inputs.iter().zip(inputs) {
            self.set(n, *v);
        }
        let out = self.step();
        Ok(names.outputs.iter().map(|n| out.get(n)).collect())
    }
    fn now(&self) -> u64 {
        self.cycle()
    }
}

impl PortCore for VerilatedCore {
    fn step_ports(&mut self, inputs: &[u128]) -> Result<Vec<u128>, SimError> {
        let ins: Vec<PortId> = self.ports.inputs().collect();
        let outs: Vec<PortId> = self
            .ports
            .ids
            .iter()
            .copied()
            .filter(|p| p.direction == crate::Direction::Output)
            .collect();
        let mut in_buf = Vec::new();
        for (p, v) in ins.iter().zip(inputs) {
            in_buf.extend((0..p.words()).map(|i| (v >> (32 * i)) as u32));
        }
        let mut out_buf = vec![0u32; outs.iter().map(|p| p.words()).sum()];
        self.model.run_vectors(&ins, &in_buf, &outs, &mut out_buf)?;
        let mut values = Vec::with_capacity(outs.len());
        let mut off = 0;
        for p in &outs {
            values.push(
                out_buf[off..off + p.words()]
                    .iter()
                    .take(4)
                    .enumerate()
                    .fold(0u128, |a, (i, &w)| a | ((w as u128) << (32 * i))),
            );
            off += p.words();
        }
        Ok(values)
    }
    fn now(&self) -> u64 {
        self.cycle()
    }
}

/// How the bench behaves on the handshakes, in percent of cycles.
#[derive(Clone, Copy, Debug)]
pub struct Bench {
    /// req_valid low although requests are waiting.
    pub idle_percent: u64,
    /// resp_ready low.
    pub backpressure_percent: u64,
    /// A readback of a random bit (sometimes of a bank >= k, sometimes with
    /// address bits >= b set) instead of a request, a third of them bit writes
    /// of a random value; never inside a clear window.
    pub readback_percent: u64,
    pub seed: u64,
}

impl Bench {
    pub fn full_rate() -> Bench {
        Bench {
            idle_percent: 0,
            backpressure_percent: 0,
            readback_percent: 0,
            seed: 1,
        }
    }
}

/// Every cycle's inputs and outputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CycleLog {
    pub start: u64,
    pub inputs: Vec<Vec<u128>>,
    pub outputs: Vec<Vec<u128>>,
}

/// Runs `requests` (their tag is their index mod 256) through `core`, then
/// until every response and readback came back, checking every cycle.
pub fn run_bench(
    core: &mut dyn PortCore,
    params: &hdl::CoreParams,
    requests: &[Request],
    bench: Bench,
    checker: &mut Checker,
) -> Result<CycleLog, SimError> {
    let names = PortNames::of(params);
    let mut rng = Rng::new(bench.seed);
    let k = params.k as u64;
    let bank_size = params.bank_size() as u64;
    let mut log = CycleLog {
        start: core.now(),
        ..Default::default()
    };
    let mut next = 0usize;
    let mut guard = 0u64;
    let chance = |rng: &mut Rng, percent: u64| rng.below(100) < percent;
    while next < requests.len() || !checker.quiet_at(core.now()) {
        guard += 1;
        if guard > 100_000 + 40 * requests.len() as u64 {
            return Err(SimError::Value(format!(
                "the bench did not finish: {} of {} requests accepted",
                next,
                requests.len()
            )));
        }
        let cycle = core.now();
        let mut inputs = vec![0u128; names.inputs.len()];
        let mut set = |name: &str, v: u128| names.set(&mut inputs, name, v);
        set(
            "resp_ready",
            !chance(&mut rng, bench.backpressure_percent) as u128,
        );
        set("fill_bank", rng.below(16) as u128);
        if next < requests.len() && !chance(&mut rng, bench.idle_percent) {
            let r = requests[next];
            set("req_valid", 1);
            set("req_op", r.op as u128 & 3);
            set("req_key", r.key);
            set("req_tag", (next % 256) as u128);
        }
        // Readback while busy is unspecified (and rust-hdl's RAM answers a
        // same-cycle read and write of one address differently): never issued then.
        let clearing = checker.busy_at(cycle) || checker.busy_at(cycle + 1);
        if bench.readback_percent > 0 && !clearing && chance(&mut rng, bench.readback_percent) {
            set("rb_req", 1);
            set("rb_bank", rng.below(k + 1) as u128);
            let high = if chance(&mut rng, 30) {
                rng.below(1 << 16) & !(bank_size - 1)
            } else {
                0
            };
            set("rb_addr", (rng.below(bank_size) | high) as u128);
            // A third of them also write a random bit.
            if rng.below(3) == 0 {
                set("rb_write", 1);
                set("rb_wdata", rng.below(2) as u128);
            }
        }
        let outputs = core.step_ports(&inputs)?;
        let get = |name: &str| names.get(&inputs, &outputs, name);
        let accepted = get("req_valid") == 1 && get("req_ready") == 1;
        checker.cycle_ports(cycle, &get);
        if accepted {
            next += 1;
        }
        log.inputs.push(inputs);
        log.outputs.push(outputs);
    }
    Ok(log)
}

/// Reads every bit of every bank and every fill counter through the ports,
/// one cycle at a time, checking each against the golden model.
pub fn check_image(
    core: &mut dyn PortCore,
    params: &hdl::CoreParams,
    checker: &mut Checker,
) -> Result<(), SimError> {
    let bank_size = params.bank_size() as u128;
    let names = PortNames::of(params);
    let n = params.k as u128 * bank_size;
    let lat = checker.timing.readback_latency as u128;
    for c in 0..n + lat + 16 {
        let cycle = core.now();
        let mut inputs = vec![0u128; names.inputs.len()];
        let mut set = |name: &str, v: u128| names.set(&mut inputs, name, v);
        set("resp_ready", 1);
        set("fill_bank", c % 16);
        if c < n {
            set("rb_req", 1);
            set("rb_bank", c / bank_size);
            set("rb_addr", c % bank_size);
        }
        let outputs = core.step_ports(&inputs)?;
        let get = |name: &str| names.get(&inputs, &outputs, name);
        checker.cycle_ports(cycle, &get);
    }
    Ok(())
}

/// Idle cycles (no request, no readback, consumer ready, `fill_bank` cycling),
/// each checked, until nothing is in flight and the core is not busy (after a
/// reset: until its recount is over).
pub fn settle(
    core: &mut dyn PortCore,
    params: &hdl::CoreParams,
    checker: &mut Checker,
) -> Result<(), SimError> {
    let names = PortNames::of(params);
    let mut guard = 0u64;
    while !checker.quiet_at(core.now()) {
        guard += 1;
        if guard > 4 * (checker.timing.reset_busy_cycles as u64 + 1000) {
            return Err(SimError::Value("the core did not settle".into()));
        }
        let cycle = core.now();
        let mut inputs = vec![0u128; names.inputs.len()];
        names.set(&mut inputs, "resp_ready", 1);
        names.set(&mut inputs, "fill_bank", (cycle % 16) as u128);
        let outputs = core.step_ports(&inputs)?;
        let get = |name: &str| names.get(&inputs, &outputs, name);
        checker.cycle_ports(cycle, &get);
    }
    Ok(())
}
