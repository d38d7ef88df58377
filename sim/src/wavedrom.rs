//! Timing diagrams from real runs: scripted stimulus through the Verilated
//! core, every cycle checked by [`Checker`], the ports written as
//! WaveDrom JSON (docs/core.md shows them rendered to SVG). A payload whose
//! valid is low is drawn as `x`: the core does not define it.

use serde_json::{json, Value};

use crate::checker::Checker;
use crate::cycles::{CycleLog, PortCore, PortNames};
use crate::traffic::Request;
use crate::SimError;

/// One scripted diagram: its name (the file name), title, the ports drawn,
/// the cycles run, the requests (each presented from its cycle on until it
/// is taken, one after the other) and the other inputs of each cycle (inputs
/// not named are 0).
pub struct Scenario {
    pub name: &'static str,
    pub title: &'static str,
    pub ports: &'static [&'static str],
    pub cycles: usize,
    /// (first cycle, request)
    pub requests: fn() -> Vec<(usize, Request)>,
    pub inputs: fn(cycle: usize, rb_addr: u128) -> Vec<(&'static str, u128)>,
}

/// The configuration the diagrams are drawn for: small banks, so a clear fits on a page.
pub fn diagram_config() -> hdl::CoreConfig {
    hdl::CoreConfig::from(hdl::CoreParams::new(2, 6, 32, hdl::HashFamily::H3, 0).expect("allowed"))
}

/// The key every scenario inserts.
pub const KEY_A: u128 = 0x1234_5678;
/// A key the scenarios only query.
pub const KEY_B: u128 = 0x0bad_cafe;

fn ready(_: usize, _: u128) -> Vec<(&'static str, u128)> {
    vec![("resp_ready", 1)]
}

/// The scenarios of docs/core.md.
pub fn scenarios() -> Vec<Scenario> {
    const CHANNELS: &[&str] = &[
        "req_valid",
        "req_ready",
        "req_op",
        "req_key",
        "req_tag",
        "resp_valid",
        "resp_ready",
        "resp_hit",
        "resp_tag",
    ];
    vec![
        Scenario {
            name: "request_response",
            title: "Insert A, query A, query B back to back: one per cycle, each answered 7 cycles later",
            ports: CHANNELS,
            cycles: 13,
            requests: || {
                vec![
                    (1, Request { op: 1, key: KEY_A, tag: 1 }),
                    (1, Request { op: 0, key: KEY_A, tag: 2 }),
                    (1, Request { op: 0, key: KEY_B, tag: 3 }),
                ]
            },
            inputs: ready,
        },
        Scenario {
            name: "backpressure",
            title: "Ten queries while the consumer stalls: after 8 outstanding responses req_ready falls until one is taken",
            ports: CHANNELS,
            cycles: 26,
            requests: || (1..=10).map(|t| (1, Request { op: 0, key: KEY_B, tag: t })).collect(),
            inputs: |c, _| vec![("resp_ready", (c >= 14) as u128)],
        },
        Scenario {
            name: "readback_fill",
            title: "Insert A, then read back its bit in bank 0: rb_valid 6 cycles later; fill_count counts it 7 cycles after the insert",
            ports: &["req_valid", "req_ready", "req_op", "rb_req", "rb_bank", "rb_addr", "rb_valid", "rb_data", "fill_bank", "fill_count"],
            cycles: 11,
            requests: || vec![(1, Request { op: 1, key: KEY_A, tag: 1 })],
            inputs: |c, rb_addr| match c {
                2 => vec![("rb_req", 1), ("rb_bank", 0), ("rb_addr", rb_addr), ("resp_ready", 1)],
                _ => vec![("resp_ready", 1)],
            },
        },
        Scenario {
            name: "clear",
            title: "Insert A, clear, query A: busy and req_ready low for 2^b + 3 = 67 cycles (b = 6), the query then misses",
            ports: &["req_valid", "req_ready", "req_op", "resp_valid", "resp_hit", "busy", "fill_count"],
            cycles: 82,
            requests: || {
                vec![
                    (1, Request { op: 1, key: KEY_A, tag: 1 }),
                    (1, Request { op: 2, key: 0, tag: 2 }),
                    (1, Request { op: 0, key: KEY_A, tag: 3 }),
                ]
            },
            inputs: ready,
        },
    ]
}

/// Runs `scenario` on `core` (drained and idle), checking every cycle; the log.
pub fn run(
    core: &mut dyn PortCore,
    scenario: &Scenario,
    checker: &mut Checker,
) -> Result<CycleLog, SimError> {
    let names = PortNames::of(checker.golden.config());
    let rb_addr = checker
        .golden
        .addresses(KEY_A)
        .map_err(|e| SimError::Value(e.to_string()))?[0] as u128;
    let mut log = CycleLog {
        start: core.now(),
        ..Default::default()
    };
    let mut requests = (scenario.requests)().into_iter().peekable();
    for c in 0..scenario.cycles {
        let mut inputs = vec![0u128; names.inputs.len()];
        let mut set = |name: &str, v: u128| names.set(&mut inputs, name, v);
        for (name, v) in (scenario.inputs)(c, rb_addr) {
            set(name, v);
        }
        if let Some((_, r)) = requests.peek().filter(|(first, _)| *first <= c) {
            set("req_valid", 1);
            set("req_op", r.op as u128);
            set("req_key", r.key);
            set("req_tag", r.tag as u128);
        }
        let cycle = core.now();
        let outputs = core.step_ports(&inputs)?;
        let get = |name: &str| names.get(&inputs, &outputs, name);
        let taken = get("req_valid") == 1 && get("req_ready") == 1;
        checker.cycle_ports(cycle, &get);
        if taken {
            requests.next();
        }
        log.inputs.push(inputs);
        log.outputs.push(outputs);
    }
    Ok(log)
}

/// The WaveDrom JSON of `log` for the ports of `scenario`.
pub fn diagram(scenario: &Scenario, params: &hdl::CoreParams, log: &CycleLog) -> Value {
    let table = hdl::ports::core_ports(params);
    let names = PortNames::of(params);
    let value = |c: usize, name: &str| names.get(&log.inputs[c], &log.outputs[c], name);
    // Payloads that mean nothing while their valid is low.
    let guard = |name: &str| -> Option<&'static str> {
        match name {
            "req_op" | "req_key" | "req_tag" => Some("req_valid"),
            "resp_hit" | "resp_tag" => Some("resp_valid"),
            "rb_bank" | "rb_addr" => Some("rb_req"),
            "rb_data" => Some("rb_valid"),
            _ => None,
        }
    };
    let n = log.inputs.len();
    let mut signals =
        vec![json!({"name": "clock", "wave": format!("p{}", ".".repeat(n.saturating_sub(1)))})];
    for &name in scenario.ports {
        let port = table
            .iter()
            .find(|p| p.name == name)
            .expect("a port of the table");
        signals.push(wave_signal(
            name,
            port.width,
            (0..n).map(|c| match guard(name) {
                Some(g) if value(c, g) == 0 => None,
                _ => Some(value(c, name)),
            }),
        ));
    }
    json!({
        "signal": signals,
        "head": {"text": scenario.title, "tick": 0},
        "foot": {"text": format!("bloom_core {params}; generated from a Verilator run (sim/tests/timing_diagrams.rs)")},
    })
}

// ---------------------------------------------------------------------------
// bloom_axis: AXI4-Lite timing diagrams (docs/axi.md), from Verilator runs of
// the wrapper driven by a plain AXI4-Lite master, one transaction at a time.

/// One step of an AXI4-Lite scenario's script, run in order.
#[derive(Clone, Copy, Debug)]
pub enum AxiStep {
    /// Cycles with nothing offered.
    Idle(usize),
    /// One request on s_axis (op, key, tag), offered until taken.
    Request { op: u8, key: u128, tag: u8 },
    /// A register write: address and data offered together until taken, the
    /// response taken `bready_delay` cycles after it is first seen.
    Write {
        addr: u8,
        data: u32,
        bready_delay: usize,
    },
    /// A register read, the data taken `rready_delay` cycles after it is first seen.
    Read { addr: u8, rready_delay: usize },
    /// Reads of `addr`, one after the other, until `data & mask == value`.
    Poll { addr: u8, mask: u32, value: u32 },
    /// A write of BIT_ADDR for bank 0 at KEY_A's address there (a readback).
    ReadbackKeyA,
}

/// One scripted diagram of `bloom_axis`: its name (the file name), title,
/// the ports drawn and the script.
pub struct AxiScenario {
    pub name: &'static str,
    pub title: &'static str,
    pub ports: &'static [&'static str],
    pub script: fn() -> Vec<AxiStep>,
}

/// What an AXI4-Lite run gave: every cycle's ports, and each transaction's answer.
#[derive(Clone, Debug, Default)]
pub struct AxiLog {
    /// Port names, in the model's order.
    pub names: Vec<String>,
    pub widths: Vec<u32>,
    /// Per cycle, one value per port (inputs as driven, outputs before the edge).
    pub cycles: Vec<Vec<u128>>,
    /// (address, rresp, rdata) of every read, polls included.
    pub reads: Vec<(u8, u8, u32)>,
    /// (address, bresp) of every write.
    pub writes: Vec<(u8, u8)>,
    /// (tag, tdata) of every response taken on m_axis.
    pub responses: Vec<(u8, u8)>,
}

impl AxiLog {
    pub fn value(&self, cycle: usize, name: &str) -> u128 {
        let i = self
            .names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no port {name}"));
        self.cycles[cycle][i]
    }
}

/// The AXI4-Lite scenarios of docs/axi.md.
pub fn axi_scenarios() -> Vec<AxiScenario> {
    use hdl::axi::regmap as map;
    vec![
        AxiScenario {
            name: "axil_read_write",
            title: "Read ID (the master holds RREADY low for 2 cycles), write COMMAND.zero_counters, read an unmapped address: SLVERR",
            ports: &[
                "s_axil_araddr", "s_axil_arvalid", "s_axil_arready", "s_axil_rvalid", "s_axil_rready", "s_axil_rdata", "s_axil_rresp",
                "s_axil_awaddr", "s_axil_awvalid", "s_axil_awready", "s_axil_wdata", "s_axil_wvalid", "s_axil_wready",
                "s_axil_bvalid", "s_axil_bready", "s_axil_bresp",
            ],
            script: || {
                vec![
                    AxiStep::Idle(1),
                    AxiStep::Read { addr: map::ID.offset as u8, rready_delay: 2 },
                    AxiStep::Idle(1),
                    AxiStep::Write { addr: map::COMMAND.offset as u8, data: map::COMMAND_ZERO_COUNTERS.mask(), bready_delay: 0 },
                    AxiStep::Idle(1),
                    AxiStep::Read { addr: map::MAP_BYTES as u8, rready_delay: 0 },
                    AxiStep::Idle(2),
                ]
            },
        },
        AxiScenario {
            name: "axil_clear",
            title: "COMMAND.clear, then STATUS polled until busy is 0 (the sweep takes 2^b + 3 cycles in the core, b = 6); s_axis_tready falls for the cycle the clear enters the request FIFO",
            ports: &[
                "s_axis_tready", "s_axil_awaddr", "s_axil_awvalid", "s_axil_awready", "s_axil_wdata", "s_axil_bvalid",
                "s_axil_araddr", "s_axil_arvalid", "s_axil_arready", "s_axil_rvalid", "s_axil_rdata",
            ],
            script: || {
                vec![
                    AxiStep::Idle(1),
                    AxiStep::Write { addr: map::COMMAND.offset as u8, data: map::COMMAND_CLEAR.mask(), bready_delay: 0 },
                    AxiStep::Poll { addr: map::STATUS.offset as u8, mask: map::STATUS_BUSY.mask(), value: 0 },
                    AxiStep::Idle(2),
                ]
            },
        },
        AxiScenario {
            name: "axil_bit_readback",
            title: "Insert A on s_axis, then read back its bit in bank 0: BIT_ADDR written (s_axis closed until the access is issued), BIT_DATA polled until valid: value 1",
            ports: &[
                "s_axis_tvalid", "s_axis_tready", "s_axis_tuser", "s_axis_tdata", "m_axis_tvalid", "m_axis_tdata",
                "s_axil_awaddr", "s_axil_awvalid", "s_axil_awready", "s_axil_wdata", "s_axil_bvalid",
                "s_axil_araddr", "s_axil_arvalid", "s_axil_arready", "s_axil_rvalid", "s_axil_rdata",
            ],
            script: || {
                vec![
                    AxiStep::Idle(1),
                    AxiStep::Request { op: 1, key: KEY_A, tag: 1 },
                    AxiStep::ReadbackKeyA,
                    AxiStep::Poll { addr: map::BIT_DATA.offset as u8, mask: map::BIT_DATA_VALID.mask(), value: map::BIT_DATA_VALID.mask() },
                    AxiStep::Idle(2),
                ]
            },
        },
    ]
}

/// The master's state within the current step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Offer,
    /// Waiting for the response, seen valid in this many cycles so far:
    /// ready from when that reaches the step's delay.
    Answer(usize),
}

/// Runs `scenario` on a fresh `bloom_axis` model of `axi` (reset, then idle
/// until the core's recount after reset is over), logging every cycle of the
/// script. m_axis_tready is high throughout.
pub fn run_axi(
    lib: &std::sync::Arc<crate::ModelLibrary>,
    params: &hdl::CoreParams,
    scenario: &AxiScenario,
) -> Result<AxiLog, SimError> {
    use hdl::axi::regmap as map;
    let mut m = lib.instantiate(Some("aclk"), crate::InitialState::Random(1))?;
    let ports = lib.ports().to_vec();
    let id = |name: &str| lib.port(name);
    let inputs: Vec<(String, crate::PortId)> = ports
        .iter()
        .filter(|p| p.direction == crate::Direction::Input && p.name != "aclk")
        .map(|p| Ok((p.name.clone(), id(&p.name)?)))
        .collect::<Result<_, SimError>>()?;
    let all: Vec<crate::PortId> = ports
        .iter()
        .map(|p| id(&p.name))
        .collect::<Result<_, _>>()?;
    let golden = golden::PartitionedFilter::new(*params);
    let key_a_bank0 = golden
        .addresses(KEY_A)
        .map_err(|e| SimError::Value(e.to_string()))?[0];
    let timing = hdl::Timing::of(params);

    // Reset, then wait out the recount after it.
    for (_, p) in &inputs {
        m.set(*p, 0)?;
    }
    m.step(4)?;
    m.set(id("aresetn")?, 1)?;
    m.set(id("m_axis_tready")?, 1)?;
    m.step(timing.reset_busy_cycles as u64 + 8)?;

    let mut log = AxiLog {
        names: ports.iter().map(|p| p.name.clone()).collect(),
        widths: ports.iter().map(|p| p.width).collect(),
        ..Default::default()
    };
    let mut steps: std::collections::VecDeque<AxiStep> = (scenario.script)().into();
    let mut phase = Phase::Offer;
    let mut idle_left: Option<usize> = None;
    let limit = 10_000;
    while let Some(step) = steps.front().copied() {
        if log.cycles.len() >= limit {
            return Err(SimError::Value(format!(
                "{}: the script did not finish in {limit} cycles",
                scenario.name
            )));
        }
        // This cycle's inputs.
        let mut set: Vec<(&str, u128)> = vec![("aresetn", 1), ("m_axis_tready", 1)];
        let (write, read) = match step {
            AxiStep::Write {
                addr,
                data,
                bready_delay,
            } => (Some((addr, data, bready_delay)), None),
            AxiStep::ReadbackKeyA => {
                let data =
                    map::BIT_ADDR_ADDR.place(key_a_bank0 as u64) | map::BIT_ADDR_BANK.place(0);
                (Some((map::BIT_ADDR.offset as u8, data, 0)), None)
            }
            AxiStep::Read { addr, rready_delay } => (None, Some((addr, rready_delay))),
            AxiStep::Poll { addr, .. } => (None, Some((addr, 0))),
            _ => (None, None),
        };
        match (step, phase) {
            (AxiStep::Request { op, key, tag }, _) => {
                set.extend([
                    ("s_axis_tvalid", 1),
                    ("s_axis_tuser", op as u128),
                    ("s_axis_tdata", key),
                    ("s_axis_tid", tag as u128),
                ]);
            }
            (_, Phase::Offer) => {
                if let Some((addr, data, _)) = write {
                    set.extend([
                        ("s_axil_awvalid", 1),
                        ("s_axil_awaddr", addr as u128),
                        ("s_axil_wvalid", 1),
                        ("s_axil_wdata", data as u128),
                        ("s_axil_wstrb", 0xf),
                    ]);
                }
                if let Some((addr, _)) = read {
                    set.extend([("s_axil_arvalid", 1), ("s_axil_araddr", addr as u128)]);
                }
            }
            (_, Phase::Answer(waited)) => {
                if let Some((_, _, delay)) = write {
                    set.push(("s_axil_bready", (waited >= delay) as u128));
                }
                if let Some((_, delay)) = read {
                    set.push(("s_axil_rready", (waited >= delay) as u128));
                }
            }
        }
        for (name, p) in &inputs {
            let v = set
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| *v)
                .unwrap_or(0);
            m.set(*p, v)?;
        }
        m.eval();
        let values: Vec<u128> = all.iter().map(|p| m.get(*p)).collect();
        let get = |name: &str| values[log.names.iter().position(|n| n == name).expect("a port")];
        if get("m_axis_tvalid") == 1 {
            log.responses
                .push((get("m_axis_tid") as u8, get("m_axis_tdata") as u8));
        }
        // What the cycle did to the script.
        let mut done = false;
        match (step, phase) {
            (AxiStep::Idle(n), _) => {
                let left = idle_left.unwrap_or(n);
                idle_left = Some(left.saturating_sub(1));
                done = left <= 1;
            }
            (AxiStep::Request { .. }, _) => done = get("s_axis_tready") == 1,
            (_, Phase::Offer) => {
                let taken = if write.is_some() {
                    get("s_axil_awready") == 1 && get("s_axil_wready") == 1
                } else {
                    get("s_axil_arready") == 1
                };
                if taken {
                    phase = Phase::Answer(0);
                }
            }
            (_, Phase::Answer(waited)) => {
                let (valid, ready) = if write.is_some() {
                    (get("s_axil_bvalid"), get("s_axil_bready"))
                } else {
                    (get("s_axil_rvalid"), get("s_axil_rready"))
                };
                if valid == 1 && ready == 1 {
                    if let Some((addr, _, _)) = write {
                        log.writes.push((addr, get("s_axil_bresp") as u8));
                        done = true;
                    } else {
                        let (addr, _) = read.expect("a read");
                        let (resp, data) = (get("s_axil_rresp") as u8, get("s_axil_rdata") as u32);
                        log.reads.push((addr, resp, data));
                        done = match step {
                            AxiStep::Poll { mask, value, .. } => data & mask == value,
                            _ => true,
                        };
                        if !done {
                            phase = Phase::Offer;
                        }
                    }
                } else if valid == 1 {
                    phase = Phase::Answer(waited + 1);
                }
            }
        }
        log.cycles.push(values);
        m.step(1)?;
        if done {
            steps.pop_front();
            phase = Phase::Offer;
            idle_left = None;
        }
    }
    Ok(log)
}

/// The WaveDrom JSON of an AXI4-Lite run for the ports of `scenario`.
pub fn axi_diagram(scenario: &AxiScenario, params: &hdl::CoreParams, log: &AxiLog) -> Value {
    // Payloads that mean nothing while their valid is low.
    let guard = |name: &str| -> Option<&'static str> {
        match name {
            "s_axil_araddr" => Some("s_axil_arvalid"),
            "s_axil_rdata" | "s_axil_rresp" => Some("s_axil_rvalid"),
            "s_axil_awaddr" => Some("s_axil_awvalid"),
            "s_axil_wdata" => Some("s_axil_wvalid"),
            "s_axil_bresp" => Some("s_axil_bvalid"),
            "s_axis_tdata" | "s_axis_tuser" | "s_axis_tid" => Some("s_axis_tvalid"),
            "m_axis_tdata" | "m_axis_tid" => Some("m_axis_tvalid"),
            _ => None,
        }
    };
    let n = log.cycles.len();
    let mut signals =
        vec![json!({"name": "aclk", "wave": format!("p{}", ".".repeat(n.saturating_sub(1)))})];
    for &name in scenario.ports {
        let width = log.widths[log
            .names
            .iter()
            .position(|p| p == name)
            .expect("a port of bloom_axis")];
        signals.push(wave_signal(
            name,
            width,
            (0..n).map(|c| match guard(name) {
                Some(g) if log.value(c, g) == 0 => None,
                _ => Some(log.value(c, name)),
            }),
        ));
    }
    json!({
        "signal": signals,
        "head": {"text": scenario.title, "tick": 0},
        "foot": {"text": format!("bloom_axis {params}; generated from a Verilator run (sim/tests/timing_diagrams.rs)")},
    })
}

/// One WaveDrom signal from a port's value in each cycle (`None`: not valid,
/// drawn as `x`): a 1-bit port as levels, a wider one as hex data, `.` while
/// nothing changes.
fn wave_signal(name: &str, width: u32, values: impl Iterator<Item = Option<u128>>) -> Value {
    let mut wave = String::new();
    let mut data = Vec::new();
    let mut last: Option<Option<u128>> = None;
    for v in values {
        if last == Some(v) {
            wave.push('.');
        } else {
            match v {
                None => wave.push('x'),
                Some(x) if width == 1 => wave.push(if x == 1 { '1' } else { '0' }),
                Some(x) => {
                    wave.push('=');
                    data.push(Value::from(format!("{x:x}")));
                }
            }
        }
        last = Some(v);
    }
    let mut s = json!({"name": name, "wave": wave});
    if !data.is_empty() {
        s["data"] = Value::from(data);
    }
    s
}
