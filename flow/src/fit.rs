//! Whether a design fits the part's logic, known before place and route:
//!
//! - from the synthesised netlist ([`check_netlist_fits_logic`], after Yosys,
//!   before nextpnr): on iCE40 the logic cells the packer makes of it at the
//!   least ([`ice40_logic_cells`]), on ECP5 its LUT4s and flip-flops, against
//!   the part's; a design over the part is refused with the figures and
//!   nextpnr is not run;
//! - from the configuration alone ([`lanes_logic_estimate`], before any tool):
//!   the iCE40 logic cells `bloom_lanes` needs at the least, from the
//!   calibration below; lanes over the part are refused naming the most the
//!   estimate allows.
//!
//! An iCE40 logic cell holds one LUT4, one flip-flop and one carry. nextpnr's
//! packer puts a LUT4 and a flip-flop in one cell when the LUT4's output goes
//! to that flip-flop's D input and nowhere else; every other LUT4 and
//! flip-flop takes a cell of its own; a carry shares a LUT4's cell or takes
//! one. Counting the same way on the netlist, carries as sharing, gives a
//! figure the packer can only exceed (it adds cells to legalise carry chains
//! and for constants): 7694 where it packs 7700 (the HX8K Fmax harness of eight
//! Feistel lanes).

use crate::board::{Device, Family};
use crate::steps::Synthesis;
use crate::FlowError;
use bloom_params::HashFamily;
use serde::Serialize;
use std::collections::HashMap;

/// What a synthesised iCE40 netlist needs of the part's logic cells at the least.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LogicCells {
    /// SB_LUT4 cells.
    pub luts: u64,
    /// SB_DFF* cells.
    pub ffs: u64,
    /// LUT4s whose output's one sink is a flip-flop's D input: each shares that
    /// flip-flop's cell.
    pub shared: u64,
    /// Logic cells: `luts + ffs - shared`.
    pub cells: u64,
}

impl LogicCells {
    fn add(&mut self, other: &LogicCells) {
        self.luts += other.luts;
        self.ffs += other.ffs;
        self.shared += other.shared;
    }
}

/// The logic cells of module `top` of a Yosys JSON netlist of `synth_ice40`,
/// its kept submodules (`keep_hierarchy`) counted once per instance. A LUT4
/// whose one sink is a submodule's port or the module's own output port is
/// counted as sharing a cell (the flip-flop may be on the other side), so the
/// figure stays at or below the packer's.
pub fn ice40_logic_cells(netlist: &serde_json::Value, top: &str) -> Result<LogicCells, String> {
    let modules = netlist
        .get("modules")
        .and_then(|m| m.as_object())
        .ok_or("the netlist has no modules")?;
    let mut memo: HashMap<String, LogicCells> = HashMap::new();
    let mut cells = module_cells(modules, top, &mut memo, 0)?;
    cells.cells = cells.luts + cells.ffs - cells.shared;
    Ok(cells)
}

fn module_cells(
    modules: &serde_json::Map<String, serde_json::Value>,
    name: &str,
    memo: &mut HashMap<String, LogicCells>,
    depth: usize,
) -> Result<LogicCells, String> {
    if let Some(c) = memo.get(name) {
        return Ok(*c);
    }
    if depth > 64 {
        return Err(format!("module {name}: the hierarchy is deeper than 64"));
    }
    let module = modules
        .get(name)
        .ok_or_else(|| format!("the netlist has no module {name}"))?;
    let is_submodule = |ty: &str| {
        modules.get(ty).is_some_and(|m| {
            m.get("attributes")
                .and_then(|a| a.get("blackbox"))
                .is_none()
        })
    };
    let empty = serde_json::Map::new();
    let cells = module
        .get("cells")
        .and_then(|c| c.as_object())
        .unwrap_or(&empty);
    // Every bit's sinks: how many, and whether the one there is takes a LUT4 into its cell.
    let mut sinks: HashMap<u64, (u32, bool)> = HashMap::new();
    let mut sink = |bit: &serde_json::Value, shares: bool| {
        if let Some(b) = bit.as_u64() {
            let e = sinks.entry(b).or_insert((0, shares));
            e.0 += 1;
        }
    };
    for cell in cells.values() {
        let ty = cell.get("type").and_then(|t| t.as_str()).unwrap_or("");
        let dirs = cell.get("port_directions").and_then(|d| d.as_object());
        let Some(conns) = cell.get("connections").and_then(|c| c.as_object()) else {
            continue;
        };
        for (port, bits) in conns {
            let dir = dirs
                .and_then(|d| d.get(port))
                .and_then(|d| d.as_str())
                .unwrap_or("input");
            if dir == "output" {
                continue;
            }
            let shares = (ty.starts_with("SB_DFF") && port == "D") || is_submodule(ty);
            for bit in bits.as_array().into_iter().flatten() {
                sink(bit, shares);
            }
        }
    }
    if let Some(ports) = module.get("ports").and_then(|p| p.as_object()) {
        for port in ports.values() {
            if port.get("direction").and_then(|d| d.as_str()) == Some("output") {
                for bit in port
                    .get("bits")
                    .and_then(|b| b.as_array())
                    .into_iter()
                    .flatten()
                {
                    sink(bit, true);
                }
            }
        }
    }
    let mut total = LogicCells::default();
    for cell in cells.values() {
        let ty = cell.get("type").and_then(|t| t.as_str()).unwrap_or("");
        if ty == "SB_LUT4" {
            total.luts += 1;
            let out = cell
                .get("connections")
                .and_then(|c| c.get("O"))
                .and_then(|o| o.as_array())
                .and_then(|o| o.first());
            if out
                .and_then(|b| b.as_u64())
                .and_then(|b| sinks.get(&b))
                .is_some_and(|&(n, shares)| n == 1 && shares)
            {
                total.shared += 1;
            }
        } else if ty.starts_with("SB_DFF") {
            total.ffs += 1;
        } else if is_submodule(ty) {
            let sub = module_cells(modules, ty, memo, depth + 1)?;
            total.add(&sub);
        }
    }
    memo.insert(name.to_string(), total);
    Ok(total)
}

/// The synthesised design `synth` (module `top`, `what` in messages) fits the
/// part's logic, as far as the netlist can tell: iCE40, its logic cells at the
/// least ([`ice40_logic_cells`]); ECP5, its LUT4s (two per carry cell) and
/// flip-flops. Otherwise an error with the figures, before nextpnr runs.
pub fn check_netlist_fits_logic(
    d: &Device,
    synth: &Synthesis,
    top: &str,
    what: &str,
) -> Result<(), FlowError> {
    let refuse = |detail: String| FlowError::DoesNotFit {
        part: d.part.to_string(),
        detail: format!(
            "{detail}; nextpnr was not run (netlist: {})",
            synth.json.display()
        ),
    };
    match d.family {
        Family::Ice40 => {
            let text = std::fs::read_to_string(&synth.json)
                .map_err(|e| FlowError::Io(format!("reading {}: {e}", synth.json.display())))?;
            let netlist: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| FlowError::Io(format!("parsing {}: {e}", synth.json.display())))?;
            let c = ice40_logic_cells(&netlist, top)
                .map_err(|e| FlowError::Io(format!("{}: {e}", synth.json.display())))?;
            if c.cells > d.luts as u64 {
                return Err(refuse(format!(
                    "{what}, synthesised, needs at least {} logic cells ({} LUT4, {} flip-flops, {} of the LUT4s \
                     sharing a flip-flop's cell), the {} has {}",
                    c.cells, c.luts, c.ffs, c.shared, d.part, d.luts
                )));
            }
        }
        Family::Ecp5 => {
            let (luts, ffs) = (synth.cells.luts(), synth.cells.ffs());
            if luts > d.luts as u64 || ffs > d.ffs as u64 {
                return Err(refuse(format!(
                    "{what}, synthesised, needs {luts} LUT4 and {ffs} flip-flops, the {} has {} and {}",
                    d.part, d.luts, d.ffs
                )));
            }
        }
    }
    Ok(())
}

/// `bloom_lanes` of one configuration synthesised with `synth_ice40` (Yosys 0.23,
/// flattened, alone) at two and three lanes: its logic cells as [`ice40_logic_cells`]
/// counts them. Measured with seed 0 (`lanes_logic_estimate` says how other seeds
/// are allowed for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanesCalibration {
    pub hash: HashFamily,
    pub key_bits: u32,
    pub k: u32,
    pub bank_bits: u32,
    /// Logic cells at L = 2.
    pub two_lanes: u64,
    /// Logic cells L = 3 adds: one query lane.
    pub per_lane: u64,
}

const fn row(
    hash: HashFamily,
    key_bits: u32,
    k: u32,
    bank_bits: u32,
    two_lanes: u64,
    three_lanes: u64,
) -> LanesCalibration {
    LanesCalibration {
        hash,
        key_bits,
        k,
        bank_bits,
        two_lanes,
        per_lane: three_lanes - two_lanes,
    }
}

/// The calibration (`lanes_logic_estimate`): `bloom_lanes` at L = 2 and 3, each
/// synthesised alone with `synth_ice40` (Yosys 0.23), seed 0, its logic cells
/// counted by [`ice40_logic_cells`].
#[rustfmt::skip]
pub const LANES_CALIBRATION: &[LanesCalibration] = &[
    row(HashFamily::Crc, 32, 1, 6, 824, 1067),
    row(HashFamily::Crc, 32, 2, 12, 1180, 1535),
    row(HashFamily::Crc, 32, 4, 8, 1363, 1753),
    row(HashFamily::Crc, 32, 4, 12, 1659, 2150),
    row(HashFamily::Crc, 32, 8, 12, 2564, 3268),
    row(HashFamily::Crc, 64, 1, 6, 1021, 1360),
    row(HashFamily::Crc, 64, 2, 12, 1549, 2066),
    row(HashFamily::Crc, 64, 4, 8, 1787, 2367),
    row(HashFamily::Crc, 64, 4, 12, 2218, 2942),
    row(HashFamily::Crc, 64, 8, 12, 3443, 4541),
    row(HashFamily::Crc, 128, 1, 6, 1411, 1942),
    row(HashFamily::Crc, 128, 2, 12, 2293, 3188),
    row(HashFamily::Crc, 128, 4, 8, 2674, 3709),
    row(HashFamily::Crc, 128, 4, 12, 3371, 4700),
    row(HashFamily::Crc, 128, 8, 12, 5331, 7376),
    row(HashFamily::Feistel, 32, 1, 6, 1176, 1559),
    row(HashFamily::Feistel, 32, 2, 12, 1449, 1886),
    row(HashFamily::Feistel, 32, 4, 8, 1576, 2039),
    row(HashFamily::Feistel, 32, 4, 12, 2111, 2771),
    row(HashFamily::Feistel, 32, 8, 12, 3163, 4133),
    row(HashFamily::Feistel, 64, 1, 6, 1560, 2135),
    row(HashFamily::Feistel, 64, 2, 12, 1833, 2462),
    row(HashFamily::Feistel, 64, 4, 8, 1960, 2616),
    row(HashFamily::Feistel, 64, 4, 12, 2197, 2900),
    row(HashFamily::Feistel, 64, 8, 12, 3561, 4730),
    row(HashFamily::H3, 32, 1, 6, 811, 1050),
    row(HashFamily::H3, 32, 2, 12, 1186, 1531),
    row(HashFamily::H3, 32, 4, 8, 1367, 1768),
    row(HashFamily::H3, 32, 4, 12, 1663, 2147),
    row(HashFamily::H3, 32, 8, 12, 2579, 3311),
    row(HashFamily::H3, 64, 1, 6, 1008, 1345),
    row(HashFamily::H3, 64, 2, 12, 1552, 2077),
    row(HashFamily::H3, 64, 4, 8, 1793, 2388),
    row(HashFamily::H3, 64, 4, 12, 2215, 2947),
    row(HashFamily::H3, 64, 8, 12, 3457, 4569),
    row(HashFamily::H3, 128, 1, 6, 1386, 1907),
    row(HashFamily::H3, 128, 2, 12, 2305, 3191),
    row(HashFamily::H3, 128, 4, 8, 2702, 3767),
    row(HashFamily::H3, 128, 4, 12, 3387, 4722),
    row(HashFamily::H3, 128, 8, 12, 5376, 7444),
    row(HashFamily::Spn, 32, 1, 6, 1009, 1336),
    row(HashFamily::Spn, 32, 2, 12, 1262, 1636),
    row(HashFamily::Spn, 32, 4, 8, 1391, 1783),
    row(HashFamily::Spn, 32, 4, 12, 1850, 2395),
    row(HashFamily::Spn, 32, 8, 12, 2783, 3548),
    row(HashFamily::Spn, 64, 1, 6, 1328, 1817),
    row(HashFamily::Spn, 64, 2, 12, 1653, 2225),
    row(HashFamily::Spn, 64, 4, 8, 1779, 2363),
    row(HashFamily::Spn, 64, 4, 12, 1992, 2610),
    row(HashFamily::Spn, 64, 8, 12, 3173, 4142),
    row(HashFamily::Spn, 128, 1, 6, 2134, 3026),
    row(HashFamily::Spn, 128, 2, 12, 2615, 3662),
    row(HashFamily::Spn, 128, 4, 8, 2811, 3913),
    row(HashFamily::Spn, 128, 4, 12, 3018, 4155),
    row(HashFamily::Spn, 128, 8, 12, 3715, 4933),
];

/// Where `bloom_lanes` is placed: what is counted beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LanesAround {
    /// Nothing is counted beside the lanes (a board top adds its own logic: the
    /// estimate stays below what is placed).
    Nothing,
    /// `bloom fmax`'s harness (flow/src/harness.rs): a register in front of every input,
    /// fed from an LFSR pool, and the outputs folded into one pin.
    FmaxHarness,
    /// An IP package's self-test harness around `bloom_lanes_axis` (flow/src/harness.rs,
    /// `lanes_axis_harness_module`): registered and fed as the Fmax harness is, with at
    /// least its input bits (each slot's valid, op, key and tag) and more outputs (a
    /// byte per slot), so [`LanesAround::FmaxHarness`]'s bound holds for it too.
    SelfTestHarness,
}

/// The iCE40 logic cells placing `bloom_lanes` needs at the least, worked out
/// from the configuration alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanesEstimate {
    pub lanes: usize,
    /// The lanes' own cells: the calibration's two lanes, its cells per query lane for
    /// the others, and the flip-flops of the extra copies of the write registers
    /// (one per four query lanes), less [`MARGIN_PERCENT`].
    pub lanes_cells: u64,
    /// What is placed beside them, at the least ([`LanesAround`]).
    pub around_cells: u64,
    /// `lanes_cells + around_cells`.
    pub cells: u64,
    /// The calibration the estimate stands on.
    pub calibration: LanesCalibration,
}

/// The estimate is lowered by this share, for what the calibration does not hold: other
/// seeds (H3's matrices and the SPN's and Feistel's round keys change which LUT4s
/// synthesis can merge) and ABC's choices at other lane counts.
pub const MARGIN_PERCENT: u64 = 3;

/// Logic cells of `around` beside `lanes` lanes of `key_bits`-bit keys, at the least.
fn around_cells(around: LanesAround, key_bits: u32, lanes: u64) -> u64 {
    match around {
        LanesAround::Nothing => 0,
        LanesAround::FmaxHarness | LanesAround::SelfTestHarness => {
            fmax_harness_cells(key_bits, lanes)
        }
    }
}

/// The iCE40 logic cells `lanes` lanes of the filter of `params` need at the least,
/// placed with `around`; None on ECP5, for fewer than two lanes, for a counting
/// filter (its lanes are not calibrated), and for a configuration no calibration
/// row is below: one of the same family and key width
/// with k and bank_bits at most the configuration's (more partitions or wider banks
/// never take fewer cells), the largest estimate of those.
pub fn lanes_logic_estimate(
    family: Family,
    params: &bloom_params::CoreParams,
    lanes: usize,
    around: LanesAround,
) -> Option<LanesEstimate> {
    if family != Family::Ice40 || lanes < 2 || params.counter_bits > 1 {
        return None;
    }
    let l = lanes as u64;
    let copies = (l - 1).div_ceil(hdl::lanes::WRITE_GROUP as u64);
    let writes_copy = params.k as u64 * (params.bank_bits as u64 + 1);
    LANES_CALIBRATION
        .iter()
        .filter(|c| {
            c.hash == params.hash
                && c.key_bits == params.key_bits
                && c.k <= params.k
                && c.bank_bits <= params.bank_bits
        })
        .map(|c| {
            let full = c.two_lanes + (l - 2) * c.per_lane + (copies - 1) * writes_copy;
            let lanes_cells = full * (100 - MARGIN_PERCENT) / 100;
            let around_cells = around_cells(around, params.key_bits, l);
            LanesEstimate {
                lanes,
                lanes_cells,
                around_cells,
                cells: lanes_cells + around_cells,
                calibration: *c,
            }
        })
        .max_by_key(|e| e.cells)
}

/// `lanes` lanes of `params` fit the logic of `d` placed with `around`, as far as
/// [`lanes_logic_estimate`] can tell: otherwise an error naming what they need,
/// what the part has and the most lanes the estimate allows.
pub fn check_lanes_fit_logic(
    d: &Device,
    params: &bloom_params::CoreParams,
    lanes: usize,
    around: LanesAround,
) -> Result<(), FlowError> {
    let Some(e) = lanes_logic_estimate(d.family, params, lanes, around) else {
        return Ok(());
    };
    if e.cells <= d.luts as u64 {
        return Ok(());
    }
    let most = (2..lanes)
        .rev()
        .find(|&l| {
            lanes_logic_estimate(d.family, params, l, around)
                .is_some_and(|e| e.cells <= d.luts as u64)
        })
        .unwrap_or(1);
    let c = &e.calibration;
    let beside = match around {
        LanesAround::Nothing => String::new(),
        LanesAround::FmaxHarness => format!(" and {} for the Fmax harness", e.around_cells),
        LanesAround::SelfTestHarness => {
            format!(" and {} for the self-test harness", e.around_cells)
        }
    };
    Err(FlowError::DoesNotFit {
        part: d.part.to_string(),
        detail: format!(
            "lanes = {lanes} of this filter need at least {} logic cells ({} for bloom_lanes{beside}; estimated \
             before synthesis from synth_ice40 of {} lanes, k = {}, 2^{} bits, {}-bit keys: {} cells at L = 2 and {} per \
             further lane, less {MARGIN_PERCENT}%), the {} has {}: this estimate allows at most {most} lane{} of this filter",
            e.cells,
            e.lanes_cells,
            c.hash.name(),
            c.k,
            c.bank_bits,
            c.key_bits,
            c.two_lanes,
            c.per_lane,
            d.part,
            d.luts,
            if most == 1 { "" } else { "s" },
        ),
    })
}

/// The Fmax harness's logic cells beside `lanes` lanes of `key_bits`-bit keys, at the
/// least: `per_lane * lanes + base`, below what it added to the lanes' cells in every
/// measurement (harness synthesised with `synth_ice40`, less the lanes synthesised
/// alone): 32-bit keys 256 / 446 cells at L = 2 / 4; 64-bit keys 362 / 667 / 768 /
/// 893 / 1016 at L = 2 / 4 / 5 / 6 / 7 (Feistel), 621 / 865 at L = 4 / 6 (H3), 1003
/// at L = 7 (SPN); 128-bit keys 558 / 1047 at L = 2 / 4 (H3). Each lane's slots
/// (valid, op, key, tag) come from registers of their own and an LFSR pool.
fn fmax_harness_cells(key_bits: u32, lanes: u64) -> u64 {
    let (per_lane, base) = match key_bits {
        32 => (88, 60),
        64 => (116, 120),
        _ => (230, 60),
    };
    per_lane * lanes + base
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{HX8K, UP5K};
    use serde_json::json;

    fn lut(o: u64, i0: u64) -> serde_json::Value {
        json!({"type": "SB_LUT4",
               "port_directions": {"I0": "input", "I1": "input", "I2": "input", "I3": "input", "O": "output"},
               "connections": {"I0": [i0], "I1": ["0"], "I2": ["0"], "I3": ["0"], "O": [o]}})
    }

    fn dff(d: u64, q: u64) -> serde_json::Value {
        json!({"type": "SB_DFFE",
               "port_directions": {"C": "input", "D": "input", "E": "input", "Q": "output"},
               "connections": {"C": [2], "D": [d], "E": ["1"], "Q": [q]}})
    }

    #[test]
    fn logic_cells_share_a_lut_only_with_the_one_flip_flop_it_drives() {
        let netlist = json!({"modules": {
            "SB_LUT4": {"attributes": {"blackbox": "1"}, "ports": {}, "cells": {}},
            "SB_DFFE": {"attributes": {"blackbox": "1"}, "ports": {}, "cells": {}},
            "copy": {"attributes": {"keep_hierarchy": "1"},
                     "ports": {"d": {"direction": "input", "bits": [2]}, "q": {"direction": "output", "bits": [3]}},
                     "cells": {"r": dff(2, 3)}},
            "top": {"attributes": {"top": "1"},
                    "ports": {"a": {"direction": "input", "bits": [10]}, "y": {"direction": "output", "bits": [19]}},
                    "cells": {
                        // A LUT4 into one flip-flop's D: one cell.
                        "l1": lut(11, 10), "f1": dff(11, 12),
                        // A LUT4 into a flip-flop and another LUT4: two cells, and the second LUT4's.
                        "l2": lut(13, 12), "f2": dff(13, 14), "l3": lut(15, 13),
                        // A flip-flop fed by a flip-flop: a cell of its own.
                        "f3": dff(14, 16),
                        // Two instances of a kept module of one flip-flop, fed by a LUT4 each.
                        "l4": lut(17, 16), "c1": {"type": "copy", "connections": {"d": [17], "q": [18]}},
                        "l5": lut(20, 18), "c2": {"type": "copy", "connections": {"d": [20], "q": [21]}},
                        // A LUT4 into the output port only.
                        "l6": lut(19, 21)
                    }}
        }});
        let c = ice40_logic_cells(&netlist, "top").unwrap();
        assert_eq!(
            c,
            LogicCells {
                luts: 6,
                ffs: 5,
                shared: 4,
                cells: 7
            }
        );
        assert!(ice40_logic_cells(&netlist, "nowhere")
            .unwrap_err()
            .contains("no module nowhere"));
    }

    fn params(hash: HashFamily, key_bits: u32) -> bloom_params::CoreParams {
        bloom_params::CoreParams::new(4, 12, key_bits, hash, 0).unwrap()
    }

    /// `bloom_lanes` synthesised alone with `synth_ice40` at other lane counts, seeds
    /// or sizes than the calibration's: family, key bits, k, bank bits, seed, lanes,
    /// logic cells ([`ice40_logic_cells`]).
    #[rustfmt::skip]
    const LANES_ALONE: &[(HashFamily, u32, u32, u32, u64, usize, u64)] = &[
        (HashFamily::Feistel, 64, 2, 9, 0, 2, 1734), (HashFamily::Feistel, 64, 2, 9, 0, 3, 2345),
        (HashFamily::Feistel, 64, 4, 12, 0, 4, 3604), (HashFamily::Feistel, 64, 4, 12, 0, 5, 4309),
        (HashFamily::Feistel, 64, 4, 12, 0, 6, 5150), (HashFamily::Feistel, 64, 4, 12, 0, 7, 5855),
        (HashFamily::Feistel, 64, 4, 12, 1, 2, 2196), (HashFamily::Feistel, 64, 4, 12, 1, 3, 2900),
        (HashFamily::Feistel, 64, 4, 12, 2, 2, 2197), (HashFamily::Feistel, 64, 4, 12, 2, 3, 2900),
        (HashFamily::Feistel, 64, 4, 16, 0, 2, 2733), (HashFamily::Feistel, 64, 4, 16, 0, 3, 3591),
        (HashFamily::Feistel, 64, 16, 12, 0, 2, 5669), (HashFamily::Feistel, 64, 16, 12, 0, 3, 7443),
        (HashFamily::H3, 32, 4, 12, 0, 4, 2620), (HashFamily::H3, 64, 2, 9, 0, 2, 1370),
        (HashFamily::H3, 64, 2, 9, 0, 3, 1833), (HashFamily::H3, 64, 4, 12, 0, 4, 3669),
        (HashFamily::H3, 64, 4, 12, 0, 6, 5279), (HashFamily::H3, 64, 4, 12, 1, 2, 2214),
        (HashFamily::H3, 64, 4, 12, 1, 3, 2947), (HashFamily::H3, 64, 4, 12, 2, 2, 2210),
        (HashFamily::H3, 64, 4, 12, 2, 3, 2943), (HashFamily::H3, 64, 4, 12, 3, 2, 2202),
        (HashFamily::H3, 64, 4, 12, 3, 3, 2912), (HashFamily::H3, 64, 4, 16, 0, 2, 2931),
        (HashFamily::H3, 64, 4, 16, 0, 3, 3881), (HashFamily::H3, 64, 16, 12, 0, 2, 5846),
        (HashFamily::H3, 64, 16, 12, 0, 3, 7647), (HashFamily::H3, 128, 4, 12, 0, 4, 6053),
        (HashFamily::Spn, 64, 4, 12, 0, 7, 5211), (HashFamily::Spn, 64, 4, 12, 1, 2, 1986),
        (HashFamily::Spn, 64, 4, 12, 1, 3, 2602), (HashFamily::Spn, 64, 4, 12, 2, 2, 1993),
        (HashFamily::Spn, 64, 4, 12, 2, 3, 2609),
    ];

    /// The same in `bloom fmax`'s harness, packed by nextpnr-ice40 0.4 (`--pack-only`):
    /// part, family, key bits, lanes, the packer's logic cells.
    #[rustfmt::skip]
    const PACKED_IN_HARNESS: &[(&Device, HashFamily, u32, usize, u64)] = &[
        (&HX8K, HashFamily::Feistel, 64, 2, 2576), (&HX8K, HashFamily::Feistel, 64, 6, 6051),
        (&HX8K, HashFamily::Feistel, 64, 7, 6878), (&HX8K, HashFamily::Feistel, 64, 8, 7700),
        (&HX8K, HashFamily::H3, 64, 6, 6146), (&HX8K, HashFamily::Spn, 64, 8, 6963),
        (&HX8K, HashFamily::H3, 32, 2, 1934), (&HX8K, HashFamily::H3, 32, 4, 3089),
        (&HX8K, HashFamily::H3, 128, 2, 3962), (&HX8K, HashFamily::H3, 128, 4, 7123),
        (&UP5K, HashFamily::Feistel, 64, 4, 4284), (&UP5K, HashFamily::Feistel, 64, 5, 5110),
        (&UP5K, HashFamily::H3, 64, 3, 3433), (&UP5K, HashFamily::H3, 64, 4, 4335),
    ];

    /// Measures again, for the family named by `BLOOM_CALIBRATE` (h3, crc, spn,
    /// feistel), the calibration rows and the lanes-alone figures above, and prints
    /// them as they are written here (Yosys on PATH; minutes):
    /// `BLOOM_CALIBRATE=feistel cargo test -p flow --lib calibrate -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn calibrate() {
        let family: HashFamily = std::env::var("BLOOM_CALIBRATE")
            .expect("BLOOM_CALIBRATE=h3|crc|spn|feistel")
            .parse()
            .unwrap();
        let dir = std::env::temp_dir().join(format!("bloom-calibrate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cells = |k: u32, b: u32, w: u32, seed: u64, lanes: usize| -> u64 {
            let p = bloom_params::CoreParams::new(k, b, w, family, seed).unwrap();
            let g =
                hdl::lanes::generate_lanes(&p.into(), lanes, hdl::lanes::LaneSwitches::default())
                    .unwrap();
            std::fs::write(dir.join("lanes.v"), &g.verilog).unwrap();
            let s = crate::steps::synthesise(
                Family::Ice40,
                &dir,
                "lanes.v",
                &g.top,
                "lanes",
                &crate::tools::Progress::quiet(),
            )
            .unwrap();
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&s.json).unwrap()).unwrap();
            ice40_logic_cells(&json, &g.top).unwrap().cells
        };
        for r in LANES_CALIBRATION.iter().filter(|r| r.hash == family) {
            let (two, three) = (
                cells(r.k, r.bank_bits, r.key_bits, 0, 2),
                cells(r.k, r.bank_bits, r.key_bits, 0, 3),
            );
            println!(
                "    row(HashFamily::{family:?}, {}, {}, {}, {two}, {three}),",
                r.key_bits, r.k, r.bank_bits
            );
        }
        for &(h, w, k, b, seed, lanes, _) in LANES_ALONE.iter().filter(|r| r.0 == family) {
            println!(
                "        (HashFamily::{h:?}, {w}, {k}, {b}, {seed}, {lanes}, {}),",
                cells(k, b, w, seed, lanes)
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn estimate_stays_below_every_measurement_and_accepts_what_packs() {
        for &(hash, w, k, b, seed, lanes, cells) in LANES_ALONE {
            let p = bloom_params::CoreParams::new(k, b, w, hash, seed).unwrap();
            let e = lanes_logic_estimate(Family::Ice40, &p, lanes, LanesAround::Nothing).unwrap();
            assert!(e.cells <= cells, "{p} L = {lanes}: {e:?} over {cells}");
            assert_eq!(e.around_cells, 0);
        }
        for &(d, hash, w, lanes, packed) in PACKED_IN_HARNESS {
            let p = params(hash, w);
            let e = lanes_logic_estimate(d.family, &p, lanes, LanesAround::FmaxHarness).unwrap();
            assert!(
                e.cells <= packed,
                "{} {hash:?} W = {w} L = {lanes}: {e:?} over {packed}",
                d.name
            );
            if packed <= d.luts as u64 {
                check_lanes_fit_logic(d, &p, lanes, LanesAround::FmaxHarness).unwrap();
                check_lanes_fit_logic(d, &p, lanes, LanesAround::Nothing).unwrap();
            }
        }
    }

    #[test]
    fn clear_overshoots_are_refused_naming_need_part_and_most_lanes() {
        let refusal = |d: &Device, hash, lanes| {
            check_lanes_fit_logic(d, &params(hash, 64), lanes, LanesAround::FmaxHarness)
                .unwrap_err()
                .to_string()
        };
        // (The logic alone: the HX8K's block RAMs hold 8 lanes of this filter.)
        let e = refusal(&HX8K, HashFamily::Feistel, 9);
        assert!(
            e.starts_with(
                "the design does not fit the iCE40HX8K: lanes = 9 of this filter need at least "
            ),
            "{e}"
        );
        assert!(
            e.contains("logic cells") && e.contains("the iCE40HX8K has 7680"),
            "{e}"
        );
        assert!(
            e.contains("this estimate allows at most 8 lanes of this filter"),
            "{e}"
        );
        let e = refusal(&UP5K, HashFamily::Feistel, 6);
        assert!(
            e.contains("the iCE40UP5K has 5280: this estimate allows at most 5 lanes"),
            "{e}"
        );
        // The most lanes named fit by the same estimate, one more does not.
        for (d, hash, lanes) in [
            (&HX8K, HashFamily::Feistel, 9),
            (&UP5K, HashFamily::Feistel, 6),
        ] {
            let p = params(hash, 64);
            let need = |l| {
                lanes_logic_estimate(d.family, &p, l, LanesAround::FmaxHarness)
                    .unwrap()
                    .cells
            };
            assert!(need(lanes - 1) <= d.luts as u64 && need(lanes) > d.luts as u64);
        }
    }

    #[test]
    fn calibration_grows_with_partitions_and_bank_bits() {
        // The estimate of a configuration stands on the rows at or below it: a row with
        // more partitions or wider banks (same family, same key width) never costs less.
        for a in LANES_CALIBRATION {
            assert!(a.per_lane > 0 && a.two_lanes > a.per_lane, "{a:?}");
            for b in LANES_CALIBRATION {
                if a.hash == b.hash
                    && a.key_bits == b.key_bits
                    && a.k <= b.k
                    && a.bank_bits <= b.bank_bits
                {
                    assert!(
                        a.two_lanes <= b.two_lanes && a.per_lane <= b.per_lane,
                        "{a:?} {b:?}"
                    );
                }
            }
        }
        // Every family and key width has a row at the smallest configuration lanes allow
        // on iCE40 (k = 1, 2^6-bit banks), so every configuration has an estimate.
        for hash in HashFamily::ALL {
            for w in bloom_params::KEY_BITS_ALLOWED {
                if hash == HashFamily::Feistel && w == 128 {
                    continue;
                }
                let p = bloom_params::CoreParams::new(1, 6, w as u32, hash, 0).unwrap();
                assert!(
                    lanes_logic_estimate(Family::Ice40, &p, 2, LanesAround::Nothing).is_some(),
                    "{hash:?} {w}"
                );
            }
        }
    }

    #[test]
    fn no_estimate_on_ecp5_nor_for_one_lane() {
        let p = params(HashFamily::Feistel, 64);
        assert!(lanes_logic_estimate(Family::Ecp5, &p, 7, LanesAround::FmaxHarness).is_none());
        assert!(lanes_logic_estimate(Family::Ice40, &p, 1, LanesAround::FmaxHarness).is_none());
        check_lanes_fit_logic(&crate::board::ECP5_12F, &p, 7, LanesAround::FmaxHarness).unwrap();
    }

    /// A part of `cells` logic cells (LUT4s on ECP5), as the device table writes one.
    fn part(family: Family, cells: u32) -> Device {
        Device {
            name: "test",
            family,
            part: "TESTPART",
            nextpnr_flag: "--test",
            default_package: "none",
            speed: None,
            luts: cells,
            ffs: cells,
            brams: 1,
            rated_brams: None,
            bram_bits: 4096,
            conservative_mhz: 12.0,
            lut_bel: "ICESTORM_LC",
            ff_bel: "ICESTORM_LC",
            bram_bel: "ICESTORM_RAM",
        }
    }

    #[test]
    fn a_netlist_over_the_part_is_refused_with_its_figures() {
        let dir = std::env::temp_dir().join(format!("bloom-fit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let json = dir.join("design.json");
        // Three LUT4s, two of them into flip-flops' D, and three flip-flops: 3 + 3 - 2 = 4 cells.
        let netlist = json!({"modules": {"top": {"attributes": {"top": "1"}, "ports": {},
            "cells": {"l1": lut(11, 10), "f1": dff(11, 12), "l2": lut(13, 12), "f2": dff(13, 14),
                      "l3": lut(15, 14), "f3": dff(14, 16)}}}});
        std::fs::write(&json, netlist.to_string()).unwrap();
        let mut cells = crate::steps::CellCounts::default();
        cells.cells.insert("LUT4".into(), 10);
        cells.cells.insert("CCU2C".into(), 1);
        cells.cells.insert("TRELLIS_FF".into(), 12);
        let synth = Synthesis {
            json: json.clone(),
            cells,
            memories: Vec::new(),
            log: dir.join("design-yosys.log"),
        };
        // f3 is fed by a flip-flop and l3 drives nothing: neither shares a cell.
        check_netlist_fits_logic(&part(Family::Ice40, 4), &synth, "top", "the design").unwrap();
        let e = check_netlist_fits_logic(&part(Family::Ice40, 3), &synth, "top", "the design")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "the design does not fit the TESTPART: the design, synthesised, needs at least 4 logic cells \
                 (3 LUT4, 3 flip-flops, 2 of the LUT4s sharing a flip-flop's cell), the TESTPART has 3; \
                 nextpnr was not run (netlist: {})",
                json.display()
            )
        );
        // ECP5: LUT4s (two per carry) and flip-flops against the part's.
        check_netlist_fits_logic(&part(Family::Ecp5, 12), &synth, "top", "the design").unwrap();
        let e = check_netlist_fits_logic(&part(Family::Ecp5, 11), &synth, "top", "the design")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("needs 12 LUT4 and 12 flip-flops, the TESTPART has 11 and 11"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
