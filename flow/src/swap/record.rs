//! The build's side: finding each bank's block-RAM cells in the netlist and the
//! placement, proving the map on them, and signing the routed design.

use super::signature::{image_digest, Signature, Site, SIGNATURE_TAG};
use crate::bitstream::{self, Asc};
use crate::board::Family;
use crate::bram::Mapping;
use crate::FlowError;
use hdl::CoreParams;
use std::collections::HashMap;
use std::path::Path;

/// A bank cell of a netlist.
struct NetCell {
    name: String,
    bank: usize,
    cell: usize,
    ty: String,
    params: serde_json::Map<String, serde_json::Value>,
    attrs: serde_json::Map<String, serde_json::Value>,
}

/// `...parts$P.ram.mem.0.C[_suffix]` -> (prefix, P, C).
fn bank_cell_name(name: &str) -> Option<(&str, usize, usize)> {
    let at = name.rfind("parts$")?;
    let rest = &name[at + 6..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let bank: usize = rest[..digits].parse().ok()?;
    let rest = rest[digits..].strip_prefix(".ram.mem.0.")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let cell: usize = rest[..digits].parse().ok()?;
    // nextpnr-ice40 calls the packed cell `..._RAM`; Yosys's LUTs around a RAM carry
    // its name with other suffixes (`mem.0.0_MASK_10_SB_LUT4_O`).
    let tail = &rest[digits..];
    (tail.is_empty() || tail == "_RAM").then_some((&name[..at], bank, cell))
}

fn netlist_cells(path: &Path) -> Result<Vec<NetCell>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("parsing {}: {e}", path.display()))?;
    let mut out = Vec::new();
    let mut prefixes = std::collections::BTreeSet::new();
    for m in v["modules"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values())
    {
        for (name, c) in m["cells"].as_object().into_iter().flatten() {
            let Some((prefix, bank, cell)) = bank_cell_name(name) else {
                continue;
            };
            prefixes.insert(prefix.to_string());
            out.push(NetCell {
                name: name.clone(),
                bank,
                cell,
                ty: c["type"].as_str().unwrap_or("").to_string(),
                params: c["parameters"].as_object().cloned().unwrap_or_default(),
                attrs: c["attributes"].as_object().cloned().unwrap_or_default(),
            });
        }
    }
    if prefixes.len() > 1 {
        return Err(format!(
            "bank cells of more than one core in {}: {prefixes:?}",
            path.display()
        ));
    }
    Ok(out)
}

/// A parameter or attribute's bits, least significant first: Yosys writes them as
/// strings of `0`/`1`/`x`/`z`, most significant first (x and z read as 0, as
/// nextpnr writes them), or as JSON numbers.
fn value_bits(v: &serde_json::Value) -> Option<Vec<bool>> {
    match v {
        serde_json::Value::String(s)
            if !s.is_empty() && s.bytes().all(|c| b"01xz".contains(&c)) =>
        {
            Some(s.bytes().rev().map(|c| c == b'1').collect())
        }
        serde_json::Value::Number(n) => n
            .as_u64()
            .map(|n| (0..64).map(|i| (n >> i) & 1 == 1).collect()),
        _ => None,
    }
}

fn value_int(v: &serde_json::Value) -> Option<u64> {
    if let Some(bits) = value_bits(v) {
        return Some(
            bits.iter()
                .take(64)
                .enumerate()
                .fold(0u64, |n, (i, &x)| n | (x as u64) << i),
        );
    }
    v.as_str().and_then(|s| s.trim().parse().ok())
}

/// The cell's initial contents as the netlist states them (undefined bits 0).
fn netlist_init(mapping: Mapping, c: &NetCell) -> Result<Vec<bool>, String> {
    let mut bits = vec![false; mapping.init_bits()];
    match mapping.family() {
        Family::Ice40 => {
            for n in 0..16 {
                let key = format!("INIT_{n:X}");
                let Some(v) = c.params.get(&key) else {
                    continue;
                };
                let b = value_bits(v)
                    .filter(|b| b.len() == 256)
                    .ok_or_else(|| format!("{}: {key} is not 256 bits", c.name))?;
                bits[256 * n..256 * (n + 1)].copy_from_slice(&b);
            }
        }
        Family::Ecp5 => {
            // INITVAL_xx: 16 fields of 20 bits, 18 used; field j bit k is init bit 18 (16 xx + j) + k.
            for xx in 0..64 {
                let key = format!("INITVAL_{xx:02X}");
                let Some(v) = c.params.get(&key) else {
                    continue;
                };
                let b = match v.as_str().and_then(|s| s.strip_prefix("0x")) {
                    Some(h) => (0..320)
                        .map(|i| {
                            let d = h
                                .len()
                                .checked_sub(1 + i / 4)
                                .and_then(|at| h.as_bytes()[at..].first().copied());
                            d.and_then(|d| (d as char).to_digit(16))
                                .is_some_and(|d| (d >> (i % 4)) & 1 == 1)
                        })
                        .collect(),
                    None => value_bits(v)
                        .filter(|b| b.len() == 320)
                        .ok_or_else(|| format!("{}: {key} is not 320 bits", c.name))?,
                };
                for j in 0..16 {
                    for k in 0..18 {
                        bits[18 * (16 * xx + j) + k] = b[20 * j + k];
                    }
                }
            }
        }
    }
    Ok(bits)
}

/// The block-RAM mode the formulas of flow/src/bram.rs assume, checked on one cell.
fn check_mode(mapping: Mapping, c: &NetCell) -> Result<(), String> {
    if c.ty != mapping.cell_type() {
        return Err(format!(
            "{} is a {}, not a {}",
            c.name,
            c.ty,
            mapping.cell_type()
        ));
    }
    let int = |k: &str| c.params.get(k).and_then(value_int);
    let keys: &[&str] = match mapping.family() {
        Family::Ice40 => &["READ_MODE"],
        Family::Ecp5 => &["DATA_WIDTH_A", "DATA_WIDTH_B"],
    };
    for k in keys {
        if int(k) != Some(mapping.mode()) {
            return Err(format!(
                "{} has {k} {}; the maps of this version are for {} {} (the {} map), no other",
                c.name,
                int(k).map_or("unset".to_string(), |v| v.to_string()),
                k,
                mapping.mode(),
                mapping.name()
            ));
        }
    }
    Ok(())
}

/// The map for a build's banks: a plain bank's one map, or for counters the map of
/// the block-RAM mode Yosys chose, read off the netlist's first bank cell (iCE40
/// READ_MODE, ECP5 DATA_WIDTH_A). A mode with no map gives the widest one, which
/// [`record`] then refuses, naming the mode it found.
pub fn mapping_for(family: Family, counter_bits: u32, netlist: &Path) -> Mapping {
    let default = Mapping::of(family, counter_bits);
    if counter_bits == 1 {
        return default;
    }
    let key = match family {
        Family::Ice40 => "READ_MODE",
        Family::Ecp5 => "DATA_WIDTH_A",
    };
    let found = netlist_cells(netlist).ok().and_then(|cells| {
        let first = cells
            .iter()
            .filter(|c| c.ty == default.cell_type())
            .min_by_key(|c| (c.bank, c.cell))?;
        first.params.get(key).and_then(value_int)
    });
    found
        .and_then(|mode| Mapping::of_mode(family, counter_bits, mode))
        .unwrap_or(default)
}

/// What [`record`] found out.
#[derive(Debug)]
pub struct Recorded {
    pub signature: Signature,
    pub cell_names: Vec<Vec<String>>,
    /// How the mapping was proved on the netlist.
    pub mapping_check: String,
}

/// Checks that the netlist's banks are where the mapping says, and finds where each
/// cell was placed:
/// (a) every bank is `cells_per_bank` cells `parts$P.ram.mem.0.C` of the expected type
///     and mode, and nothing else is named like a bank cell;
/// (b) every cell's INIT in the netlist is the image's bits placed by the formula (a
///     proof of the formula when the image has both 0s and 1s in a bank);
/// (c) each cell's placement (nextpnr's `--write` netlist: iCE40 `NEXTPNR_BEL`
///     `X<x>/Y<y>/ram`, ECP5 `WID`) holds the same contents in the routed design.
///
/// The error says why the bitstream cannot be recorded as swappable.
pub fn record(
    mapping: Mapping,
    params: &CoreParams,
    image: &[Vec<u8>],
    netlist: &Path,
    placed: &Path,
    routed: &Path,
) -> Result<Recorded, String> {
    let k = params.k as usize;
    let c_bits = params.counter_bits;
    let per_bank = mapping.cells_per_bank(params.bank_bits, c_bits);
    let cells = netlist_cells(netlist)?;
    let mut by_place: HashMap<(usize, usize), &NetCell> = HashMap::new();
    for c in &cells {
        if c.bank >= k || c.cell >= per_bank || by_place.insert((c.bank, c.cell), c).is_some() {
            return Err(format!(
                "unexpected bank cell {} (k = {k}, {per_bank} cell(s) per bank)",
                c.name
            ));
        }
        check_mode(mapping, c)?;
    }
    let placed_cells = netlist_cells(placed)?;
    let routed_text = std::fs::read_to_string(routed)
        .map_err(|e| format!("reading {}: {e}", routed.display()))?;
    let routed_init: Box<dyn Fn(Site) -> Option<Vec<bool>>> = match mapping.family() {
        Family::Ice40 => {
            let asc = Asc::parse(&routed_text).map_err(|e| e.to_string())?;
            Box::new(move |s| match s {
                Site::Ice40Tile { x, y } => asc.ram(x, y),
                _ => None,
            })
        }
        Family::Ecp5 => {
            let brams = bitstream::config_brams(&routed_text).map_err(|e| e.to_string())?;
            Box::new(move |s| match s {
                Site::Ecp5Ebr { wid } => brams.get(&wid).cloned(),
                _ => None,
            })
        }
    };
    let mut banks = Vec::new();
    let mut names = Vec::new();
    let mut informative = 0;
    for (p, bank) in image.iter().enumerate().take(k) {
        let want = mapping.cells_of_bank(c_bits, bank);
        // Every counter bit (or the bit) is 1 somewhere and 0 somewhere in the bank.
        if (0..c_bits).all(|j| {
            bank.iter().any(|v| (v >> j) & 1 == 1) && bank.iter().any(|v| (v >> j) & 1 == 0)
        }) {
            informative += 1;
        }
        let mut sites = Vec::new();
        let mut bank_names = Vec::new();
        for (c, want_c) in want.iter().enumerate() {
            let cell = by_place.get(&(p, c)).ok_or_else(|| {
                format!("bank {p} has no cell {c} (`parts${p}.ram.mem.0.{c}`) in the netlist")
            })?;
            let init = netlist_init(mapping, cell)?;
            let differ = init.iter().zip(want_c).filter(|(a, b)| a != b).count();
            if differ > 0 {
                return Err(format!(
                    "{}: {differ} of its init bits differ from the image placed by the {} formula",
                    cell.name,
                    mapping.name()
                ));
            }
            let pc = placed_cells
                .iter()
                .find(|x| x.bank == p && x.cell == c)
                .ok_or_else(|| {
                    format!(
                        "{} is not in the placed netlist {}",
                        cell.name,
                        placed.display()
                    )
                })?;
            let site = match mapping.family() {
                Family::Ice40 => {
                    let bel = pc
                        .attrs
                        .get("NEXTPNR_BEL")
                        .and_then(|v| v.as_str())
                        .unwrap_or("");
                    let xy: Vec<u32> = bel
                        .split('/')
                        .take(2)
                        .filter_map(|t| t.get(1..).and_then(|n| n.parse().ok()))
                        .collect();
                    match (bel.ends_with("/ram"), xy.as_slice()) {
                        (true, [x, y]) => Site::Ice40Tile { x: *x, y: *y },
                        _ => {
                            return Err(format!(
                                "{}: placement `{bel}` is not a RAM tile",
                                cell.name
                            ))
                        }
                    }
                }
                Family::Ecp5 => match pc.attrs.get("WID").and_then(value_int) {
                    Some(wid) => Site::Ecp5Ebr { wid: wid as u32 },
                    None => {
                        return Err(format!(
                            "{}: the placed netlist gives no EBR number (WID)",
                            cell.name
                        ))
                    }
                },
            };
            match routed_init(site) {
                Some(bits) if bits == init => {}
                Some(_) => {
                    return Err(format!(
                        "{}: the routed design's RAM at {site} holds other contents",
                        cell.name
                    ))
                }
                None => {
                    return Err(format!(
                        "{}: the routed design has no RAM at {site}",
                        cell.name
                    ))
                }
            }
            sites.push(site);
            bank_names.push(cell.name.clone());
        }
        banks.push(sites);
        names.push(bank_names);
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = banks.iter().flatten().find(|s| !seen.insert(**s)) {
        return Err(format!("two bank cells placed at {dup}"));
    }
    let mapping_check = if informative == k {
        format!("every bank bit found at its {} position in the netlist's INIT (every bank holds 0s and 1s)", mapping.name())
    } else {
        format!(
            "cell types, modes and names checked; {informative} of {k} banks hold both 0s and 1s in every bit, so \
             the bit order was proved on those only (the formula is the one proved on random images)"
        )
    };
    let signature = Signature {
        params: *params,
        mapping,
        banks,
        image_sha256: image_digest(c_bits, image),
    };
    Ok(Recorded {
        signature,
        cell_names: names,
        mapping_check,
    })
}

/// The routed design's text with the signature as a header comment (iCE40 `.asc`:
/// a line in the `.comment` section; ECP5 `.config`: a `.comment` line).
pub fn sign_routed(
    family: Family,
    routed: &str,
    signature: &Signature,
) -> Result<String, FlowError> {
    match family {
        Family::Ice40 => {
            let mut asc = Asc::parse(routed)?;
            let mut comments: Vec<String> = asc
                .comments()
                .into_iter()
                .filter(|c| !c.starts_with(SIGNATURE_TAG))
                .collect();
            comments.push(signature.line());
            asc.set_comments(&comments);
            Ok(asc.text())
        }
        Family::Ecp5 => {
            let mut out = String::with_capacity(routed.len() + 512);
            let mut added = false;
            for line in routed.lines() {
                if line.starts_with(&format!(".comment {SIGNATURE_TAG}")) {
                    continue;
                }
                out.push_str(line);
                out.push('\n');
                if !added && line.starts_with(".comment ") {
                    out.push_str(&format!(".comment {}\n", signature.line()));
                    added = true;
                }
            }
            if !added {
                out = format!(".comment {}\n{out}", signature.line());
            }
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bank_cell_names() {
        assert_eq!(
            bank_cell_name("a.core_inst.parts$3.ram.mem.0.12"),
            Some(("a.core_inst.", 3, 12))
        );
        assert_eq!(
            bank_cell_name("a.core_inst.parts$0.ram.mem.0.0_RAM"),
            Some(("a.core_inst.", 0, 0))
        );
        assert_eq!(bank_cell_name("a.bridge.frames.buffer.mem.0.0"), None);
        assert_eq!(bank_cell_name("a.parts$0.ram.mem.0.1x"), None);
        assert_eq!(
            bank_cell_name("a.parts$0.ram.mem.0.0_MASK_10_SB_LUT4_O"),
            None
        );
    }

    #[test]
    fn ints_from_yosys_params() {
        assert_eq!(
            value_int(&serde_json::json!("00000000000000000000000000000011")),
            Some(3)
        );
        assert_eq!(value_int(&serde_json::json!("11")), Some(3));
        assert_eq!(value_int(&serde_json::json!(5)), Some(5));
        assert_eq!(value_int(&serde_json::json!("  7")), Some(7));
    }
}
