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
    const CHANNELS: &[&str] =
        &["req_valid", "req_ready", "req_op", "req_key", "req_tag", "resp_valid", "resp_ready", "resp_hit", "resp_tag"];
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
pub fn run(core: &mut dyn PortCore, scenario: &Scenario, checker: &mut Checker) -> Result<CycleLog, SimError> {
    let names = PortNames::of(checker.golden.config());
    let rb_addr = checker.golden.addresses(KEY_A).map_err(|e| SimError::Value(e.to_string()))?[0] as u128;
    let mut log = CycleLog { start: core.now(), ..Default::default() };
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
    let mut signals = vec![json!({"name": "clock", "wave": format!("p{}", ".".repeat(n.saturating_sub(1)))})];
    for &name in scenario.ports {
        let port = table.iter().find(|p| p.name == name).expect("a port of the table");
        let mut wave = String::new();
        let mut data = Vec::new();
        let mut last: Option<Option<u128>> = None;
        for c in 0..n {
            let v = match guard(name) {
                Some(g) if value(c, g) == 0 => None,
                _ => Some(value(c, name)),
            };
            if last == Some(v) {
                wave.push('.');
            } else {
                match v {
                    None => wave.push('x'),
                    Some(x) if port.width == 1 => wave.push(if x == 1 { '1' } else { '0' }),
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
        signals.push(s);
    }
    json!({
        "signal": signals,
        "head": {"text": scenario.title, "tick": 0},
        "foot": {"text": format!("bloom_core {params}; generated from a Verilator run (sim/tests/timing_diagrams.rs)")},
    })
}
