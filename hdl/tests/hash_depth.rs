//! The hash units' XOR trees are two LUT4 levels per 16-bit chunk (hash/unit.rs)
//! wherever the core sits: `bloom_axis` around the default core, plain and
//! counting, synthesised by Yosys `synth_ice40` as a build does (flattened, the
//! kept modules whole), every chunk parity register of every hash unit is at
//! most two LUTs from the key. Flattened with the wrapper's logic, ABC had
//! shared terms across the units and mapped three levels for most of them.
//! Tool: Debian's `yosys` (0.23 here); BLOOM_YOSYS overrides.

use std::collections::HashMap;

use serde_json::Value;

mod common;

/// The JSON netlist of `bloom_axis` for `cfg`, synthesised for iCE40.
fn synthesise_axi(cfg: &hdl::CoreConfig, name: &str) -> Value {
    let axi = hdl::axi::generate_axi(cfg).unwrap();
    let dir = std::env::temp_dir().join(format!("bloom-hash-depth-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bloom_axis.v"), axi.full_verilog()).unwrap();
    let script = "read_verilog bloom_axis.v; synth_ice40 -top bloom_axis -json bloom_axis.json";
    common::run_yosys(&dir, script);
    let json = std::fs::read_to_string(dir.join("bloom_axis.json")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    serde_json::from_str(&json).unwrap()
}

/// Per flip-flop of `module` whose output net's name contains `register`: the
/// most SB_LUT4 cells on a path into its D input from a flip-flop, a block RAM
/// or a port of the module.
fn lut_depths(module: &Value, register: &str) -> Vec<(String, usize)> {
    let cells = module["cells"].as_object().unwrap();
    let mut driver: HashMap<u64, &Value> = HashMap::new();
    for cell in cells.values() {
        for (port, dir) in cell["port_directions"].as_object().unwrap() {
            if dir == "output" {
                for bit in cell["connections"][port]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(Value::as_u64)
                {
                    driver.insert(bit, cell);
                }
            }
        }
    }
    let mut name_of: HashMap<u64, &str> = HashMap::new();
    for (name, net) in module["netnames"].as_object().unwrap() {
        for bit in net["bits"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_u64)
        {
            name_of.entry(bit).or_insert(name);
        }
    }
    fn depth(bit: u64, driver: &HashMap<u64, &Value>, memo: &mut HashMap<u64, usize>) -> usize {
        if let Some(&d) = memo.get(&bit) {
            return d;
        }
        let d = match driver.get(&bit) {
            Some(cell) if cell["type"] == "SB_LUT4" => {
                let inputs: Vec<u64> = ["I0", "I1", "I2", "I3"]
                    .iter()
                    .flat_map(|p| {
                        cell["connections"][*p]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_u64)
                    })
                    .collect();
                1 + inputs
                    .into_iter()
                    .map(|b| depth(b, driver, memo))
                    .max()
                    .unwrap_or(0)
            }
            _ => 0,
        };
        memo.insert(bit, d);
        d
    }
    let mut memo = HashMap::new();
    let mut out = Vec::new();
    for cell in cells.values() {
        if !cell["type"].as_str().unwrap().starts_with("SB_DFF") {
            continue;
        }
        let q = cell["connections"]["Q"][0].as_u64().unwrap();
        let name = name_of.get(&q).copied().unwrap_or("");
        if name.contains(register) {
            let d = cell["connections"]["D"][0]
                .as_u64()
                .map_or(0, |b| depth(b, &driver, &mut memo));
            out.push((name.to_string(), d));
        }
    }
    out
}

fn check(counter_bits: u32) {
    let mut cfg = hdl::CoreConfig::default();
    cfg.params.hash = hdl::HashFamily::H3;
    cfg.params.counter_bits = counter_bits;
    cfg.validate().unwrap();
    let netlist = synthesise_axi(&cfg, &format!("c{counter_bits}"));
    let modules = netlist["modules"].as_object().unwrap();
    let units: Vec<&String> = modules
        .keys()
        .filter(|m| m.starts_with("bloom_core_parts_") && m.ends_with("_hash"))
        .collect();
    assert_eq!(
        units.len(),
        cfg.k(),
        "every hash unit is a module of its own: {:?}",
        modules.keys().collect::<Vec<_>>()
    );
    let bits_per_unit = cfg.bank_bits() * cfg.key_bits() / 16;
    for unit in units {
        // The unit's key port is the control's key register (core/partition.rs), so a
        // depth from the port is a depth from that flip-flop.
        let depths = lut_depths(&modules[unit], "chunk_parity");
        assert!(
            depths.len() > bits_per_unit / 2,
            "{unit}: {} chunk parity registers",
            depths.len()
        );
        let deepest = depths.iter().max_by_key(|(_, d)| *d).unwrap();
        assert!(
            deepest.1 <= 2,
            "{unit}: {} is {} LUT levels from the key",
            deepest.0,
            deepest.1
        );
        println!(
            "{unit}: {} chunk parity registers, at most {} LUT levels",
            depths.len(),
            deepest.1
        );
    }
}

/// The Feistel network inside `bloom_axis`: every register of every round pair at
/// most two LUT4 levels from the register before it (or the key port).
#[test]
fn ice40_axi_feistel_k4_b12_w64_network_two_lut_levels_per_stage() {
    let cfg = hdl::CoreConfig::from(
        hdl::CoreParams::new(4, 12, 64, hdl::HashFamily::Feistel, 0).unwrap(),
    );
    let netlist = synthesise_axi(&cfg, "feistel");
    let modules = netlist["modules"].as_object().unwrap();
    let network = &modules["bloom_core_control_hash"];
    let depths: Vec<_> = lut_depths(network, "x")
        .into_iter()
        .filter(|(name, _)| name.starts_with('x'))
        .collect();
    // X_2 .. X_7 of the one block, 32 bits each, and what is left of X_8 and X_9 once
    // synthesis drops the bits no address takes.
    assert!(depths.len() >= 6 * 32, "{} registers", depths.len());
    let deepest = depths.iter().max_by_key(|(_, d)| *d).unwrap();
    assert!(
        deepest.1 <= 2,
        "{} is {} LUT levels from a register",
        deepest.0,
        deepest.1
    );
    let luts = network["cells"]
        .as_object()
        .unwrap()
        .values()
        .filter(|c| c["type"] == "SB_LUT4")
        .count();
    println!(
        "bloom_core_control_hash: {} registers, {luts} LUT4, at most {} LUT levels",
        depths.len(),
        deepest.1
    );
}

#[test]
fn ice40_axi_h3_k4_b12_w64_hash_trees_two_lut_levels() {
    check(1);
}

#[test]
fn ice40_axi_counting_h3_k4_b12_w64_c4_hash_trees_two_lut_levels() {
    check(4);
}
