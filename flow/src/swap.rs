//! Filters inside bitstreams: what a build records so that the filter can be
//! replaced later without synthesis or place and route, the replacement itself, and
//! reading a bitstream's filter back.
//!
//! Why a direct patch and not icebram / ecpbram. Both tools find a RAM's slices by
//! content: they need a placeholder pattern in the bitstream whose every slice is
//! unique (an empty or sparse filter is refused, so a swapped bitstream cannot be
//! swapped again), yowasp's ecpbram exits 0 having replaced nothing when the pattern
//! is absent, and the ECP5 route needs the routed `.config` and ecppack (about 2 s).
//! Placement changes with every build, so the build records where each bank's cells
//! went, and the swap writes the cells there through the formulas of flow/src/bram.rs:
//! iCE40 by iceunpack, a rewrite of the bank tiles' `.ram_data`, icepack (~0.3 s);
//! ECP5 by rewriting the bank EBRs' init blocks of the `.bit` and their CRCs
//! (~0.1 s; byte for byte what ecpbram + ecppack make).
//!
//! What a build records. A signature line in the bitstream's own header comment
//! (flow/src/bitstream.rs), so that a copied bitstream keeps its description:
//!
//! ```text
//! bloom-bitstream v1 k=4 bank_bits=12 key_bits=64 hash=h3 seed=0 map=ice40-sb_ram40_4k-r2048x2 cells=6,19;6,21;6,17;6,15 image-sha256=...
//! ```
//!
//! (cells: per bank, `;` between banks, `+` between the cells of a bank in cell order;
//! iCE40 RAM tiles `x,y`, ECP5 EBR numbers), and a manifest beside the bitstream
//! (`NAME.swap.json`, [`Manifest`]) with the same facts, the cells' names, the tools
//! and the bitstream's SHA-256, for people and reports. `image-sha256` is the SHA-256
//! of the banks' contents, bank 0 first: a plain bank as 2^b / 8 bytes, address a in
//! byte a / 8, bit a % 8 (least significant first); a counting core's bank (its
//! signature has `counter_bits=C`, its map one of the counter maps of
//! flow/src/bram.rs) as 2^b bytes, counter a in byte a.
//!
//! Before recording, the build checks the mapping on its own netlist ([`record`]); a
//! bitstream whose netlist does not fit is still written, without a signature (not
//! swappable), rather than with a wrong map.
//!
//! A swap refuses, writing nothing: a file that is not an iCE40 or ECP5 bitstream; a
//! bitstream without a bloom signature; an image of another configuration (the
//! differing parameters named); a recorded cell that is not in the bitstream (or, on
//! ECP5, whose block fails its CRC); banks whose contents, read through the mapping, do
//! not hash to the signature's digest (the bitstream was changed by something else, or
//! the mapping does not address our banks; with a random image this catches a wrong
//! map with probability 1 - 2^-256). It writes the new bitstream under a temporary
//! name, reads every bank bit of it back, and only then renames it into place.

use crate::bitstream::{self, Asc, Header};
use crate::board::Family;
use crate::bram::Mapping;
use crate::tools::{self, Progress, Tool};
use crate::FlowError;
use hdl::CoreParams;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub const SIGNATURE_TAG: &str = "bloom-bitstream v1";
pub const MANIFEST_FORMAT: &str = "bloom-swap-manifest";

fn invalid(msg: impl Into<String>) -> FlowError {
    FlowError::Refused(msg.into())
}

fn io(what: &str, path: &Path, e: impl std::fmt::Display) -> FlowError {
    FlowError::Io(format!("{what} {}: {e}", path.display()))
}

/// Where one block-RAM cell sits: an iCE40 RAM tile or an ECP5 EBR number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Site {
    Ice40Tile { x: u32, y: u32 },
    Ecp5Ebr { wid: u32 },
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Site::Ice40Tile { x, y } => write!(f, "{x},{y}"),
            Site::Ecp5Ebr { wid } => write!(f, "{wid}"),
        }
    }
}

impl Site {
    fn parse(mapping: Mapping, text: &str) -> Option<Site> {
        match mapping.family() {
            Family::Ice40 => {
                let (x, y) = text.split_once(',')?;
                Some(Site::Ice40Tile {
                    x: x.parse().ok()?,
                    y: y.parse().ok()?,
                })
            }
            Family::Ecp5 => Some(Site::Ecp5Ebr {
                wid: text.parse().ok()?,
            }),
        }
    }
}

/// The line a bloom bitstream carries in its header comment.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    pub params: CoreParams,
    pub mapping: Mapping,
    /// Per bank, its cells in cell order.
    pub banks: Vec<Vec<Site>>,
    pub image_sha256: [u8; 32],
}

impl Signature {
    pub fn line(&self) -> String {
        let cells: Vec<String> = self
            .banks
            .iter()
            .map(|b| b.iter().map(Site::to_string).collect::<Vec<_>>().join("+"))
            .collect();
        format!(
            "{SIGNATURE_TAG} {} map={} cells={} image-sha256={}",
            self.params,
            self.mapping.name(),
            cells.join(";"),
            hex(&self.image_sha256)
        )
    }

    /// Parses a signature line; None if the line is not one, an error if it is one but broken.
    pub fn parse(line: &str) -> Option<Result<Signature, FlowError>> {
        let rest = line.strip_prefix(SIGNATURE_TAG)?.strip_prefix(' ')?;
        Some(
            Self::parse_fields(rest)
                .map_err(|e| invalid(format!("the bitstream's bloom signature is damaged: {e}"))),
        )
    }

    fn parse_fields(rest: &str) -> Result<Signature, String> {
        let mut fields: BTreeMap<&str, &str> = BTreeMap::new();
        for token in rest.split(' ') {
            let (k, v) = token
                .split_once('=')
                .ok_or_else(|| format!("`{token}` is not NAME=VALUE"))?;
            if fields.insert(k, v).is_some() {
                return Err(format!("field {k} given twice"));
            }
        }
        let mut take = |k: &str| fields.remove(k).ok_or_else(|| format!("field {k} missing"));
        let mapping_name = take("map")?;
        let mapping =
            Mapping::parse(mapping_name).ok_or_else(|| format!("unknown map `{mapping_name}`"))?;
        let cells = take("cells")?;
        let digest = take("image-sha256")?;
        let mut texts = BTreeMap::new();
        for p in bloom_params::PARAMS {
            match take(p.name) {
                Ok(text) => {
                    texts.insert(p.name, text.to_string());
                }
                // Left out at its default (bloom_params::Param::omitted_at_default).
                Err(_) if p.omitted_at_default => {}
                Err(e) => return Err(e),
            }
        }
        if let Some(k) = fields.keys().next() {
            return Err(format!("unknown field {k}"));
        }
        let params =
            CoreParams::from_lookup(|p| texts.get(p.name).cloned()).map_err(|e| e.to_string())?;
        if !mapping.counter_bits().contains(&params.counter_bits) {
            return Err(format!(
                "map {} is not for counters of {} bit(s)",
                mapping.name(),
                params.counter_bits
            ));
        }
        let per_bank = mapping.cells_per_bank(params.bank_bits, params.counter_bits);
        let banks: Vec<Vec<Site>> = cells
            .split(';')
            .map(|b| {
                b.split('+')
                    .map(|s| Site::parse(mapping, s).ok_or_else(|| format!("bad cell `{s}`")))
                    .collect()
            })
            .collect::<Result<_, _>>()?;
        if banks.len() != params.k as usize || banks.iter().any(|b| b.len() != per_bank) {
            return Err(format!(
                "cells `{cells}` are not {} banks of {per_bank} cell(s)",
                params.k
            ));
        }
        let image_sha256 =
            unhex(digest).ok_or_else(|| format!("image-sha256 `{digest}` is not 64 hex digits"))?;
        Ok(Signature {
            params,
            mapping,
            banks,
            image_sha256,
        })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64
        || !text
            .bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// SHA-256 of the banks' contents (module doc): bits (`counter_bits` 1) or counters.
pub fn image_digest(counter_bits: u32, banks: &[Vec<u8>]) -> [u8; 32] {
    let mut h = Sha256::new();
    for bank in banks {
        if counter_bits > 1 {
            h.update(bank);
            continue;
        }
        let mut bytes = vec![0u8; bank.len().div_ceil(8)];
        for (a, &bit) in bank.iter().enumerate() {
            bytes[a / 8] |= u8::from(bit != 0) << (a % 8);
        }
        h.update(&bytes);
    }
    h.finalize().into()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The manifest beside a bitstream: `bloom.bin` -> `bloom.bin.swap.json`.
pub fn manifest_path(bitstream: &Path) -> PathBuf {
    let mut name = bitstream
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".swap.json");
    bitstream.with_file_name(name)
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ManifestCell {
    /// Yosys's name of the cell (`...parts$0.ram.mem.0.0`).
    pub name: String,
    /// iCE40 RAM tile `x,y` / ECP5 EBR number.
    pub site: String,
}

/// `NAME.swap.json`: what the build recorded, for people and reports. The signature in
/// the bitstream is what a swap trusts; this file says the same at more length.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    /// The bitstream's signature line.
    pub signature: String,
    pub family: String,
    pub part: String,
    pub board: String,
    pub mapping: Mapping,
    pub core: CoreParams,
    /// Per bank, its cells in cell order.
    pub banks: Vec<Vec<ManifestCell>>,
    /// How the build proved the mapping on its netlist.
    pub mapping_check: String,
    /// Where the banks' current contents came from (an image directory; None: empty filter).
    pub image: Option<String>,
    pub image_sha256: String,
    /// 1 bits (a counting core: non-zero counters) per bank of the current contents.
    pub fill: Vec<u64>,
    pub bitstream: String,
    pub bitstream_sha256: String,
    pub tools: BTreeMap<String, String>,
}

impl Manifest {
    pub fn write(&self, path: &Path) -> Result<(), FlowError> {
        let text = serde_json::to_string_pretty(self).expect("manifest serialises") + "\n";
        let tmp = partial_name(path);
        std::fs::write(&tmp, text).map_err(|e| io("writing", &tmp, e))?;
        std::fs::rename(&tmp, path).map_err(|e| io("renaming to", path, e))
    }

    pub fn read(path: &Path) -> Result<Manifest, FlowError> {
        let text = std::fs::read_to_string(path).map_err(|e| io("reading", path, e))?;
        let m: Manifest = serde_json::from_str(&text)
            .map_err(|e| invalid(format!("{}: not a swap manifest: {e}", path.display())))?;
        if m.format != MANIFEST_FORMAT || m.version != 1 {
            return Err(invalid(format!(
                "{}: not a version 1 {MANIFEST_FORMAT}",
                path.display()
            )));
        }
        Ok(m)
    }
}

fn partial_name(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".partial");
    path.with_file_name(name)
}

// ---------------------------------------------------------------------------
// Build side: find the bank cells in the netlist and the placement, check them.

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

// ---------------------------------------------------------------------------
// Reading and writing a bitstream's banks.

/// The signature in a bitstream's header; errors say plainly what the file is not.
pub fn signature_of(bytes: &[u8]) -> Result<(Header, Signature), FlowError> {
    let header = bitstream::read_header(bytes)?;
    let sig = header
        .comments
        .iter()
        .find_map(|c| Signature::parse(c))
        .ok_or_else(|| invalid(format!(
            "not a bloom bitstream: its header comment has no `{SIGNATURE_TAG}` signature (it was not built by \
             `bloom build`, by a version that does not record its filter's place, or its build found no proved \
             block-RAM map for its banks, as its report says (a counting filter whose counters Yosys laid out in \
             another mode): rebuild it with --preload instead)"
        )))??;
    if sig.mapping.family() != header.family {
        return Err(invalid(format!(
            "the bitstream is an {} bitstream but its signature describes {} block RAM",
            header.family,
            sig.mapping.family()
        )));
    }
    Ok((header, sig))
}

/// An unpacked or patched bitstream, with its banks reachable through a signature.
enum Open {
    Ice40 {
        asc: Asc,
    },
    Ecp5 {
        bytes: Vec<u8>,
        blocks: Vec<Vec<usize>>,
    },
}

fn temp_dir(tag: &str) -> Result<PathBuf, FlowError> {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("bloom-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| io("creating", &dir, e))?;
    Ok(dir)
}

struct TempDir(PathBuf);
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn iceunpack(bytes: &[u8], work: &Path) -> Result<Asc, FlowError> {
    let bin = work.join("in.bin");
    std::fs::write(&bin, bytes).map_err(|e| io("writing", &bin, e))?;
    tools::run(
        Tool::Iceunpack,
        &["in.bin".into(), "in.asc".into()],
        work,
        &work.join("iceunpack.log"),
        &Progress::quiet(),
    )?;
    let path = work.join("in.asc");
    Asc::parse(&std::fs::read_to_string(&path).map_err(|e| io("reading", &path, e))?)
}

fn open(bytes: &[u8], header: &Header, sig: &Signature, work: &Path) -> Result<Open, FlowError> {
    match sig.mapping.family() {
        Family::Ice40 => {
            let asc = iceunpack(bytes, work)?;
            for (p, bank) in sig.banks.iter().enumerate() {
                for (c, site) in bank.iter().enumerate() {
                    let Site::Ice40Tile { x, y } = *site else {
                        unreachable!("an iCE40 signature has tiles")
                    };
                    if asc.ram(x, y).is_none() {
                        return Err(invalid(format!(
                            "bank {p} cell {c}: the bitstream has no block RAM at tile ({x}, {y})"
                        )));
                    }
                }
            }
            Ok(Open::Ice40 { asc })
        }
        Family::Ecp5 => {
            let blocks = sig
                .banks
                .iter()
                .enumerate()
                .map(|(p, bank)| {
                    bank.iter()
                        .enumerate()
                        .map(|(c, site)| {
                            let Site::Ecp5Ebr { wid } = *site else {
                                unreachable!("an ECP5 signature has EBRs")
                            };
                            bitstream::ebr_block(bytes, header.end, wid)
                                .map_err(|e| invalid(format!("bank {p} cell {c}: {e}")))
                        })
                        .collect::<Result<Vec<_>, _>>()
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Open::Ecp5 {
                bytes: bytes.to_vec(),
                blocks,
            })
        }
    }
}

impl Open {
    fn cell(&self, sig: &Signature, p: usize, c: usize) -> Vec<bool> {
        match (self, sig.banks[p][c]) {
            (Open::Ice40 { asc }, Site::Ice40Tile { x, y }) => {
                asc.ram(x, y).expect("checked when opened")
            }
            (Open::Ecp5 { bytes, blocks }, _) => bitstream::ebr_bits(bytes, blocks[p][c]),
            _ => unreachable!("site and family agree"),
        }
    }

    fn banks(&self, sig: &Signature) -> Vec<Vec<u8>> {
        (0..sig.banks.len())
            .map(|p| {
                let cells: Vec<Vec<bool>> = (0..sig.banks[p].len())
                    .map(|c| self.cell(sig, p, c))
                    .collect();
                sig.mapping
                    .bank_of_cells(sig.params.bank_bits, sig.params.counter_bits, &cells)
            })
            .collect()
    }

    fn write_banks(&mut self, sig: &Signature, banks: &[Vec<u8>]) {
        for (p, bank) in banks.iter().enumerate() {
            for (c, bits) in sig
                .mapping
                .cells_of_bank(sig.params.counter_bits, bank)
                .iter()
                .enumerate()
            {
                match (&mut *self, sig.banks[p][c]) {
                    (Open::Ice40 { asc }, Site::Ice40Tile { x, y }) => {
                        asc.set_ram(x, y, bits);
                    }
                    (Open::Ecp5 { bytes, blocks }, _) => {
                        bitstream::set_ebr_bits(bytes, blocks[p][c], bits)
                    }
                    _ => unreachable!("site and family agree"),
                }
            }
        }
    }
}

/// The filter a bloom bitstream holds (bits, or counters), read through its signature
/// with the swap's own reader (iCE40: iceunpack; ECP5: the `.bit`'s EBR blocks).
pub fn banks_of(bytes: &[u8]) -> Result<(Signature, Vec<Vec<u8>>), FlowError> {
    let (header, sig) = signature_of(bytes)?;
    let work = TempDir(temp_dir("read")?);
    let opened = open(bytes, &header, &sig, &work.0)?;
    Ok((sig.clone(), opened.banks(&sig)))
}

/// The filter a bloom bitstream holds, read with the family's unpacker (icestorm's
/// iceunpack, Trellis's ecpunpack: not the swap's ECP5 reader) and the signature's map.
pub fn read_back(bitstream: &Path) -> Result<(Signature, Vec<Vec<u8>>), FlowError> {
    let bytes = std::fs::read(bitstream).map_err(|e| io("reading", bitstream, e))?;
    let (_, sig) = signature_of(&bytes)?;
    let work = TempDir(temp_dir("readback")?);
    let banks = match sig.mapping.family() {
        Family::Ice40 => {
            let asc = iceunpack(&bytes, &work.0)?;
            read_sites(&sig, |site| match site {
                Site::Ice40Tile { x, y } => asc.ram(x, y),
                _ => None,
            })?
        }
        Family::Ecp5 => {
            let bit = work.0.join("in.bit");
            std::fs::write(&bit, &bytes).map_err(|e| io("writing", &bit, e))?;
            let args: Vec<String> = vec![
                "--input".into(),
                "in.bit".into(),
                "--textcfg".into(),
                "in.config".into(),
            ];
            tools::run(
                Tool::Ecpunpack,
                &args,
                &work.0,
                &work.0.join("ecpunpack.log"),
                &Progress::quiet(),
            )?;
            let cfg = work.0.join("in.config");
            let text = std::fs::read_to_string(&cfg).map_err(|e| io("reading", &cfg, e))?;
            if !bitstream::config_comments(&text)
                .iter()
                .any(|c| c == &sig.line())
            {
                return Err(invalid(
                    "ecpunpack does not give the signature back as a comment",
                ));
            }
            let brams = bitstream::config_brams(&text)?;
            read_sites(&sig, |site| match site {
                Site::Ecp5Ebr { wid } => brams.get(&wid).cloned(),
                _ => None,
            })?
        }
    };
    Ok((sig, banks))
}

fn read_sites(
    sig: &Signature,
    init: impl Fn(Site) -> Option<Vec<bool>>,
) -> Result<Vec<Vec<u8>>, FlowError> {
    sig.banks
        .iter()
        .enumerate()
        .map(|(p, bank)| {
            let cells = bank
                .iter()
                .map(|&s| {
                    init(s).ok_or_else(|| {
                        invalid(format!(
                            "bank {p}: the unpacked bitstream has no block RAM at {s}"
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(sig
                .mapping
                .bank_of_cells(sig.params.bank_bits, sig.params.counter_bits, &cells))
        })
        .collect()
}

/// Bits (of the bits, or of the counters) that differ between two filters of one
/// shape, per bank.
pub fn differing_bits(a: &[Vec<u8>], b: &[Vec<u8>]) -> Vec<u64> {
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            x.iter()
                .zip(y)
                .map(|(p, q)| u64::from((p ^ q).count_ones()))
                .sum()
        })
        .collect()
}

/// Set bits, or non-zero counters, per bank.
pub fn fills(banks: &[Vec<u8>]) -> Vec<u64> {
    banks
        .iter()
        .map(|b| b.iter().filter(|x| **x != 0).count() as u64)
        .collect()
}

/// Bank bits of a filter: k 2^b c.
pub fn bank_bits_total(params: &CoreParams) -> u64 {
    params.total_bits() * u64::from(params.counter_bits)
}

/// What a swap did.
#[derive(Clone, Debug, Serialize)]
pub struct SwapReport {
    pub bitstream: String,
    pub out: String,
    pub image: String,
    pub family: String,
    pub core: CoreParams,
    pub cells: usize,
    /// Bank bits (counter bits included) written and read back from the new bitstream.
    pub bits_checked: u64,
    pub bits_differing: u64,
    pub fill: Vec<u64>,
    pub manifest: Option<String>,
    /// Warnings (a stale manifest).
    pub warnings: Vec<String>,
    pub seconds: f64,
}

/// Replaces the filter in `input` by the image in `image_dir`, writing `out` (which may
/// be `input`) and its manifest; see the module doc for what is refused.
pub fn swap(input: &Path, image_dir: &Path, out: &Path) -> Result<SwapReport, FlowError> {
    let start = Instant::now();
    let bytes = std::fs::read(input).map_err(|e| io("reading the bitstream", input, e))?;
    let (header, sig) =
        signature_of(&bytes).map_err(|e| invalid(format!("{}: {e}", input.display())))?;
    let (image_params, image) =
        hdl::image::read_image_values(image_dir).map_err(|e| invalid(e.to_string()))?;
    if image_params.is_counting() != sig.params.is_counting() {
        let kind = |p: &CoreParams| {
            if p.is_counting() {
                format!("a counting filter's (counter_bits = {})", p.counter_bits)
            } else {
                "a plain filter's".to_string()
            }
        };
        return Err(invalid(format!(
            "the image {} is {} but the bitstream {} holds {}: a swap cannot change the kind of filter{}",
            image_dir.display(),
            if image_params.is_counting() { "a counting image" } else { "a plain image" },
            input.display(),
            kind(&sig.params),
            if image_params.is_counting() { "; `bloom image plain` gives a counting image's 0-1 projection" } else { "" }
        )));
    }
    if image_params != sig.params {
        return Err(invalid(format!(
            "the image {} is of another configuration than the bitstream {} (image vs bitstream: {}); \
             a swap cannot change the configuration: build a bitstream for it with bloom build --preload",
            image_dir.display(),
            input.display(),
            image_params.differences(&sig.params)
        )));
    }
    if out.is_dir() {
        return Err(invalid(format!(
            "--out {} is a directory; name the bitstream file to write",
            out.display()
        )));
    }
    let work = TempDir(temp_dir("swap")?);
    let mut opened = open(&bytes, &header, &sig, &work.0)
        .map_err(|e| invalid(format!("{}: {e}", input.display())))?;
    let current = opened.banks(&sig);
    if image_digest(sig.params.counter_bits, &current) != sig.image_sha256 {
        return Err(invalid(format!(
            "{}: its banks do not hold the filter its signature describes (SHA-256 differs): the bitstream was \
             changed by another tool, or its block RAMs are not where the signature says. Nothing was written",
            input.display()
        )));
    }
    let mut warnings = Vec::new();
    let old_manifest = match Manifest::read(&manifest_path(input)) {
        Ok(m) if m.bitstream_sha256 == sha256_hex(&bytes) && m.signature == sig.line() => Some(m),
        Ok(_) => {
            warnings.push(format!(
                "{} describes another bitstream (stale); the bitstream's own signature was used",
                manifest_path(input).display()
            ));
            None
        }
        Err(_) => None,
    };
    let new_sig = Signature {
        image_sha256: image_digest(sig.params.counter_bits, &image),
        ..sig.clone()
    };
    opened.write_banks(&new_sig, &image);
    // The new bitstream, and its banks read back before it replaces anything: ECP5
    // from the patched bytes; iCE40 from the design text icepack packed (a second
    // iceunpack would double the swap's time; `bloom image readback` and the tests
    // unpack swapped bitstreams with iceunpack).
    let (new_bytes, back) = match &mut opened {
        Open::Ecp5 { bytes, .. } => {
            let h = bitstream::read_header(bytes)?;
            let comments: Vec<String> = h
                .comments
                .iter()
                .map(|c| {
                    if c.starts_with(SIGNATURE_TAG) {
                        new_sig.line()
                    } else {
                        c.clone()
                    }
                })
                .collect();
            let new_bytes = bitstream::with_comments(bytes, &h, &comments);
            let h2 = bitstream::read_header(&new_bytes)?;
            let back = open(&new_bytes, &h2, &new_sig, &work.0)?.banks(&new_sig);
            (new_bytes, back)
        }
        Open::Ice40 { asc } => {
            let comments: Vec<String> = asc
                .comments()
                .iter()
                .map(|c| {
                    if c.starts_with(SIGNATURE_TAG) {
                        new_sig.line()
                    } else {
                        c.clone()
                    }
                })
                .collect();
            asc.set_comments(&comments);
            let text = asc.text();
            let path = work.0.join("out.asc");
            std::fs::write(&path, &text).map_err(|e| io("writing", &path, e))?;
            tools::run(
                Tool::Icepack,
                &["out.asc".into(), "out.bin".into()],
                &work.0,
                &work.0.join("icepack.log"),
                &Progress::quiet(),
            )?;
            let bin = work.0.join("out.bin");
            let new_bytes = std::fs::read(&bin).map_err(|e| io("reading", &bin, e))?;
            let back = Open::Ice40 {
                asc: Asc::parse(&text)?,
            }
            .banks(&new_sig);
            (new_bytes, back)
        }
    };
    let (_, sig2) = signature_of(&new_bytes)?;
    if sig2 != new_sig {
        return Err(FlowError::Io(
            "the swapped bitstream does not carry the new signature".into(),
        ));
    }
    let differing: u64 = differing_bits(&back, &image).iter().sum();
    if differing != 0 {
        return Err(FlowError::Io(format!(
            "the swapped bitstream reads back {differing} bank bits wrong; nothing was written"
        )));
    }
    let tmp = partial_name(out);
    std::fs::write(&tmp, &new_bytes).map_err(|e| io("writing", &tmp, e))?;
    let manifest = old_manifest.map(|m| Manifest {
        signature: new_sig.line(),
        image: Some(image_dir.display().to_string()),
        image_sha256: hex(&new_sig.image_sha256),
        fill: fills(&image),
        bitstream: out
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default(),
        bitstream_sha256: sha256_hex(&new_bytes),
        ..m
    });
    if let Err(e) = std::fs::rename(&tmp, out) {
        let _ = std::fs::remove_file(&tmp);
        return Err(io("renaming the new bitstream to", out, e));
    }
    let manifest_file = manifest_path(out);
    match &manifest {
        Some(m) => m.write(&manifest_file)?,
        // A manifest of the input's contents must not stay beside the new bitstream.
        None => {
            let _ = std::fs::remove_file(&manifest_file);
        }
    }
    let bits = bank_bits_total(&sig.params);
    Ok(SwapReport {
        bitstream: input.display().to_string(),
        out: out.display().to_string(),
        image: image_dir.display().to_string(),
        family: sig.mapping.family().to_string(),
        core: sig.params,
        cells: sig.banks.iter().map(Vec::len).sum(),
        bits_checked: bits,
        bits_differing: differing,
        fill: fills(&image),
        manifest: manifest
            .as_ref()
            .map(|_| manifest_file.display().to_string()),
        warnings,
        seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(mapping: Mapping, k: u32, b: u32) -> Signature {
        sig_c(mapping, k, b, 1)
    }

    fn sig_c(mapping: Mapping, k: u32, b: u32, counter_bits: u32) -> Signature {
        let params = CoreParams::new(k, b, 64, hdl::HashFamily::H3, 7)
            .unwrap()
            .with_counter_bits(counter_bits)
            .unwrap();
        let per = mapping.cells_per_bank(b, counter_bits);
        let banks = (0..k)
            .map(|p| {
                (0..per)
                    .map(|c| match mapping.family() {
                        Family::Ice40 => Site::Ice40Tile {
                            x: 6 + c as u32,
                            y: 2 * p + 1,
                        },
                        Family::Ecp5 => Site::Ecp5Ebr {
                            wid: 10 * p + c as u32,
                        },
                    })
                    .collect()
            })
            .collect();
        Signature {
            params,
            mapping,
            banks,
            image_sha256: [0xab; 32],
        }
    }

    #[test]
    fn signature_line_round_trip() {
        for (m, k, b) in [
            (Mapping::Ice40Ram40, 4, 12),
            (Mapping::Ice40Ram40, 2, 14),
            (Mapping::Ecp5Dp16kd, 3, 16),
        ] {
            let s = sig(m, k, b);
            let line = s.line();
            assert!(line.starts_with("bloom-bitstream v1 k="), "{line}");
            assert_eq!(Signature::parse(&line).unwrap().unwrap(), s);
        }
        let line = sig(Mapping::Ice40Ram40, 2, 14).line();
        assert!(
            line.contains("cells=6,1+7,1+8,1+9,1;6,3+7,3+8,3+9,3 "),
            "{line}"
        );
        for (m, k, b, c) in [
            (Mapping::Ice40Ram40Counters, 2, 12, 2),
            (Mapping::Ice40Ram40Counters, 4, 12, 4),
            (Mapping::Ecp5Dp16kdX2, 2, 13, 2),
            (Mapping::Ecp5Dp16kdX4, 3, 12, 3),
            (Mapping::Ecp5Dp16kdX9, 1, 16, 8),
        ] {
            let s = sig_c(m, k, b, c);
            let line = s.line();
            assert!(
                line.contains(&format!("counter_bits={c} ")) && line.contains(m.name()),
                "{line}"
            );
            assert_eq!(Signature::parse(&line).unwrap().unwrap(), s);
        }
        // A map that is not for the signature's counters.
        let line = sig_c(Mapping::Ecp5Dp16kdX4, 2, 12, 4)
            .line()
            .replace("map=ecp5-dp16kd-x4", "map=ecp5-dp16kd-x1");
        let e = Signature::parse(&line).unwrap().unwrap_err().to_string();
        assert!(
            e.contains("ecp5-dp16kd-x1 is not for counters of 4 bit(s)"),
            "{e}"
        );
    }

    #[test]
    fn broken_signatures_are_errors_other_lines_are_not_signatures() {
        assert!(Signature::parse("Part: LFE5U-85F-6CABGA381").is_none());
        let good = sig(Mapping::Ecp5Dp16kd, 2, 12).line();
        let cases = [
            (good.replace("k=2", "k=3"), "not 3 banks"),
            (good.replace("k=2", "k=2 k=2"), "given twice"),
            (good.replace(" map=ecp5-dp16kd-x1", ""), "field map missing"),
            (
                good.replace("map=ecp5-dp16kd-x1", "map=xilinx"),
                "unknown map",
            ),
            (good.replace("bank_bits=12", "bank_bits=40"), "bank_bits"),
            (good.replace("abab", "zz"), "64 hex digits"),
            (good.clone() + " extra=1", "unknown field extra"),
        ];
        for (line, needle) in cases {
            let e = Signature::parse(&line).unwrap().unwrap_err().to_string();
            assert!(
                e.contains("signature is damaged") && e.contains(needle),
                "{line}: {e}"
            );
        }
    }

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
    fn digest_depends_on_every_bit_and_bank_order() {
        let a = vec![vec![0u8; 64], vec![1u8; 64]];
        let mut b = a.clone();
        b[0][63] = 1;
        let c = vec![a[1].clone(), a[0].clone()];
        assert_ne!(image_digest(1, &a), image_digest(1, &b));
        assert_ne!(image_digest(1, &a), image_digest(1, &c));
        assert_eq!(image_digest(1, &a), image_digest(1, &a.clone()));
        // Counters: every bit of every counter counts.
        let mut d = a.clone();
        d[1][5] = 3;
        assert_ne!(image_digest(2, &a), image_digest(2, &d));
        d[1][5] = 2;
        assert_ne!(image_digest(2, &a), image_digest(2, &d));
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
