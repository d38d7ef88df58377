//! What is flashed is what is simulated: a design (the core, or the board top
//! around it) as the FPGA tools make it, written as Verilog for Verilator with
//! the cells' simulation models ([`crate::cells`]).
//!
//! Kinds ([`NetlistKind`]):
//! - `rtl`: the generated Verilog itself;
//! - `ice40`: after `synth_ice40` (the flow's own synthesis step,
//!   `flow::steps::synthesise`, the one `bloom build` and `bloom fmax` run),
//!   read back from the JSON nextpnr would place (`flow::steps::write_sim_netlist`);
//! - `ecp5`: the same after `synth_ecp5`;
//! - `ice40-routed`: the design placed and routed by nextpnr on an iCE40
//!   HX8K (CT256: enough pins for every port of the core, left to nextpnr to
//!   place), packed by icepack into the bitstream that would be flashed,
//!   unpacked again by iceunpack and turned into Verilog by icestorm's
//!   `icebox_vlog`: the configuration bits themselves, read by a tool
//!   independent of nextpnr. A wrapper with the design's own ports (named
//!   from the placement nextpnr reports) instantiates it.
//!
//! Tool runs are cached by content (the design's Verilog, the kind, the tool
//! versions) under `<cache>/netlists/`, with every tool's log, so that tests
//! and commands share them; a netlist whose ports differ from the design's
//! is refused before anything is simulated.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use flow::board::Family;
use flow::steps;
use flow::tools::{self, Progress, Tool};

use crate::cells;
use crate::ports::{parse_ports, Direction, Port};
use crate::verilator::{cache_dir, hash128, CppOpt, ModelOptions};
use crate::SimError;

/// Bumped whenever a step below changes what it writes; part of the cache key, with
/// the synthesis's own commands (`flow::steps::synthesis_commands`).
const NETLIST_VERSION: u32 = 2;

/// What is simulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetlistKind {
    Rtl,
    Ice40,
    Ecp5,
    Ice40Routed,
}

impl NetlistKind {
    pub const ALL: [NetlistKind; 4] = [
        NetlistKind::Rtl,
        NetlistKind::Ice40,
        NetlistKind::Ecp5,
        NetlistKind::Ice40Routed,
    ];

    pub fn name(self) -> &'static str {
        match self {
            NetlistKind::Rtl => "rtl",
            NetlistKind::Ice40 => "ice40",
            NetlistKind::Ecp5 => "ecp5",
            NetlistKind::Ice40Routed => "ice40-routed",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            NetlistKind::Rtl => "the generated Verilog",
            NetlistKind::Ice40 => "after Yosys synth_ice40, with Yosys's iCE40 cell models",
            NetlistKind::Ecp5 => "after Yosys synth_ecp5, with Yosys's ECP5 cell models and bloom's DP16KD model",
            NetlistKind::Ice40Routed => {
                "placed and routed by nextpnr on an iCE40 HX8K, packed by icepack, read back from the bitstream by iceunpack and icebox_vlog"
            }
        }
    }

    pub fn family(self) -> Option<Family> {
        match self {
            NetlistKind::Rtl => None,
            NetlistKind::Ice40 | NetlistKind::Ice40Routed => Some(Family::Ice40),
            NetlistKind::Ecp5 => Some(Family::Ecp5),
        }
    }

    /// How the model's C++ is optimised: the RTL and the synthesized
    /// netlists as [`CppOpt::DEFAULT`] says; the routed netlist (routing hops
    /// as assigns, LUTs as nested conditionals) ran 256k against 155k
    /// operations per second at -O3.
    pub fn cpp_opt(self) -> CppOpt {
        match self {
            NetlistKind::Rtl | NetlistKind::Ice40 | NetlistKind::Ecp5 => CppOpt::DEFAULT,
            NetlistKind::Ice40Routed => CppOpt::ROUTED,
        }
    }

    /// The tools this kind runs (for versions, and for a missing one).
    pub fn tools(self) -> Vec<Tool> {
        match self {
            NetlistKind::Rtl => vec![],
            NetlistKind::Ice40 => vec![Tool::Yosys],
            NetlistKind::Ecp5 => vec![Tool::YowaspYosys],
            NetlistKind::Ice40Routed => vec![
                Tool::Yosys,
                Tool::NextpnrIce40,
                Tool::Icepack,
                Tool::Iceunpack,
                Tool::IceboxVlog,
            ],
        }
    }
}

impl std::fmt::Display for NetlistKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for NetlistKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        NetlistKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown netlist kind `{s}`; known: {}",
                    NetlistKind::ALL
                        .iter()
                        .map(|k| k.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }
}

/// A design as one netlist kind, ready for Verilator.
#[derive(Clone, Debug)]
pub struct Netlist {
    pub kind: NetlistKind,
    pub top: String,
    /// The top's Verilog (the netlist, or the RTL).
    pub verilog: String,
    /// Cell libraries and models compiled with it.
    pub cells: Vec<(String, String)>,
    pub verilator_args: Vec<String>,
    pub opt: CppOpt,
    /// Where the tools ran and left their logs (None for RTL).
    pub dir: Option<PathBuf>,
    /// Seconds the tools took, if they ran now (None: cached or RTL).
    pub tool_seconds: Option<f64>,
    /// One line per tool: its version.
    pub tools: Vec<String>,
}

impl Netlist {
    /// The Verilator build of this netlist.
    pub fn build_options(&self, trace: bool) -> ModelOptions {
        ModelOptions {
            trace,
            extra_args: self.verilator_args.clone(),
            extra_sources: self.cells.clone(),
            opt: self.opt,
        }
    }
}

fn flow_err(e: flow::FlowError) -> SimError {
    SimError::Value(e.to_string())
}

/// The tools' versions, once per process.
fn tool_versions(kind: NetlistKind) -> Result<Vec<String>, SimError> {
    static CACHE: OnceLock<Mutex<std::collections::HashMap<&'static str, String>>> =
        OnceLock::new();
    let mut out = Vec::new();
    for tool in kind.tools() {
        let mut map = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let v = match map.get(tool.program()) {
            Some(v) => v.clone(),
            None => {
                let v = tool.version().map_err(flow_err)?;
                map.insert(tool.program(), v.clone());
                v
            }
        };
        out.push(format!("{}: {v}", tool.program()));
    }
    Ok(out)
}

/// Compares the ports of a netlist with the design's: the same names, widths
/// and directions, nothing more, nothing less.
pub fn check_ports(netlist: &[Port], design: &[Port], what: &str) -> Result<(), SimError> {
    let mut problems = Vec::new();
    for d in design {
        match netlist.iter().find(|n| n.name == d.name) {
            None => problems.push(format!("no port `{}`", d.name)),
            Some(n) if n.width != d.width || n.direction != d.direction => problems.push(format!(
                "port `{}` is a {}-bit {:?}, the design's a {}-bit {:?}",
                d.name, n.width, n.direction, d.width, d.direction
            )),
            Some(_) => {}
        }
    }
    for n in netlist {
        if !design.iter().any(|d| d.name == n.name) {
            problems.push(format!("port `{}` is not the design's", n.name));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(SimError::Ports(format!(
            "{what}: its ports differ from the configuration's: {}",
            problems.join("; ")
        )))
    }
}

/// A kind's cell libraries (file name, Verilog text) and its extra Verilator arguments.
type Cells = (Vec<(String, String)>, Vec<String>);

/// The cell libraries and Verilator arguments of a kind.
fn cells_of(kind: NetlistKind) -> Result<Cells, SimError> {
    match kind {
        NetlistKind::Rtl => Ok((vec![], vec![])),
        NetlistKind::Ice40 | NetlistKind::Ice40Routed => Ok((
            vec![cells::ice40_cells()?],
            cells::ICE40_DEFINES.iter().map(|s| s.to_string()).collect(),
        )),
        NetlistKind::Ecp5 => Ok((
            cells::ecp5_cells()?,
            cells::ECP5_DEFINES.iter().map(|s| s.to_string()).collect(),
        )),
    }
}

/// `verilog` (whose top module is `top`) as `kind`, from the cache or made
/// now; `progress` shows the tools' progress.
pub fn make(
    verilog: &str,
    top: &str,
    kind: NetlistKind,
    progress: &Progress,
) -> Result<Netlist, SimError> {
    let design_ports = parse_ports(verilog, top)?;
    if kind == NetlistKind::Rtl {
        return Ok(Netlist {
            kind,
            top: top.into(),
            verilog: verilog.into(),
            cells: vec![],
            verilator_args: vec![],
            opt: CppOpt::DEFAULT,
            dir: None,
            tool_seconds: None,
            tools: vec![],
        });
    }
    if kind == NetlistKind::Ice40Routed {
        check_routed_pins(&design_ports)?;
    }
    // A missing tool is said before anything runs, with how to install it.
    for tool in kind.tools() {
        tool.locate().map_err(flow_err)?;
    }
    let (cells, verilator_args) = cells_of(kind)?;
    let tools = tool_versions(kind)?;
    let synthesis = kind.family().map(steps::synthesis_commands);
    let key = hash128(&[
        &NETLIST_VERSION.to_le_bytes(),
        kind.name().as_bytes(),
        top.as_bytes(),
        verilog.as_bytes(),
        tools.join("\n").as_bytes(),
        synthesis.unwrap_or_default().as_bytes(),
    ]);
    let safe_top: String = top
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(40)
        .collect();
    let root = cache_dir().join("netlists");
    fs::create_dir_all(&root).map_err(|e| SimError::io(&root, e))?;
    let name = format!("{safe_top}-{}-{key:032x}", kind.name());
    let dir = root.join(&name);
    let lock_path = root.join(format!("{name}.lock"));
    let lock = File::create(&lock_path).map_err(|e| SimError::io(&lock_path, e))?;
    lock.lock().map_err(|e| SimError::io(&lock_path, e))?;
    let mut tool_seconds = None;
    let ready = dir.join("READY");
    let cached = ready.exists()
        && fs::read_to_string(dir.join("design.v"))
            .map(|t| t == verilog)
            .unwrap_or(false);
    if !cached {
        let _ = fs::remove_dir_all(&dir);
        let tmp = root.join(format!("tmp-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&tmp);
        fs::create_dir_all(&tmp).map_err(|e| SimError::io(&tmp, e))?;
        let started = Instant::now();
        let result = run_tools(&tmp, verilog, top, kind, &design_ports, progress);
        if let Err(e) = result {
            let failed = root.join(format!("failed-{name}"));
            let _ = fs::remove_dir_all(&failed);
            let _ = fs::rename(&tmp, &failed);
            return Err(SimError::Build(format!(
                "{e} (the tools' logs are in {})",
                failed.display()
            )));
        }
        fs::write(tmp.join("tools.txt"), tools.join("\n") + "\n")
            .map_err(|e| SimError::io(&tmp, e))?;
        fs::write(tmp.join("READY"), b"ok\n").map_err(|e| SimError::io(&tmp, e))?;
        fs::rename(&tmp, &dir).map_err(|e| SimError::io(&dir, e))?;
        tool_seconds = Some(started.elapsed().as_secs_f64());
    }
    let path = dir.join("netlist.v");
    let netlist = fs::read_to_string(&path).map_err(|e| SimError::io(&path, e))?;
    drop(lock);
    check_ports(
        &parse_ports(&netlist, top)?,
        &design_ports,
        &format!("the {kind} netlist {}", path.display()),
    )?;
    Ok(Netlist {
        kind,
        top: top.into(),
        verilog: netlist,
        cells,
        verilator_args,
        opt: kind.cpp_opt(),
        dir: Some(dir),
        tool_seconds,
        tools,
    })
}

/// A netlist the user gives (e.g. from their own synthesis) of `kind`,
/// checked against the design's ports before anything is simulated.
pub fn from_file(
    path: &Path,
    design_verilog: &str,
    top: &str,
    kind: NetlistKind,
) -> Result<Netlist, SimError> {
    if kind == NetlistKind::Rtl || kind == NetlistKind::Ice40Routed {
        return Err(SimError::Value(format!(
            "a netlist file is simulated as `ice40` or `ecp5` (Yosys write_verilog of a synth_ice40 / synth_ecp5 netlist), not as `{kind}`"
        )));
    }
    let text = fs::read_to_string(path)
        .map_err(|e| SimError::Value(format!("cannot read the netlist {}: {e}", path.display())))?;
    let design_ports = parse_ports(design_verilog, top)?;
    let ports = parse_ports(&text, top)
        .map_err(|e| SimError::Ports(format!("netlist {}: {e}", path.display())))?;
    check_ports(
        &ports,
        &design_ports,
        &format!("the netlist {}", path.display()),
    )?;
    let (cells, verilator_args) = cells_of(kind)?;
    Ok(Netlist {
        kind,
        top: top.into(),
        verilog: text,
        cells,
        verilator_args,
        opt: kind.cpp_opt(),
        dir: None,
        tool_seconds: None,
        tools: vec![],
    })
}

fn run_tools(
    dir: &Path,
    verilog: &str,
    top: &str,
    kind: NetlistKind,
    ports: &[Port],
    progress: &Progress,
) -> Result<(), SimError> {
    steps::write(&dir.join("design.v"), verilog).map_err(flow_err)?;
    let family = kind.family().expect("not RTL");
    steps::synthesise(family, dir, "design.v", top, "synth", progress).map_err(flow_err)?;
    match kind {
        NetlistKind::Ice40 | NetlistKind::Ecp5 => {
            steps::write_sim_netlist(family, dir, "synth.json", "netlist.v", progress)
                .map_err(flow_err)?;
        }
        NetlistKind::Ice40Routed => routed(dir, top, ports, progress)?,
        NetlistKind::Rtl => unreachable!(),
    }
    Ok(())
}

/// The device the routed kind is placed on: the iCE40 with the most pins.
fn routed_device() -> &'static flow::board::Device {
    flow::board::device("hx8k").expect("the flow's device table has the hx8k")
}

/// Package pins of the routed kind's device and package (HX8K, CT256: the 207
/// entries of `.pins ct256` in icestorm's chipdb-8k; nextpnr models 256 I/O cells
/// on the die, but only bonded ones can be placed): every port bit of the routed
/// design is on one of them.
pub const ROUTED_IO_CELLS: u32 = 207;

/// The routed kind places every port bit on a pin: a design with more port
/// bits than [`ROUTED_IO_CELLS`] is refused before any tool runs.
pub fn check_routed_pins(ports: &[Port]) -> Result<(), SimError> {
    let bits: u32 = ports.iter().map(|p| p.width).sum();
    if bits > ROUTED_IO_CELLS {
        let device = routed_device();
        return Err(SimError::Value(format!(
            "the design's {bits} port bits do not fit the {ROUTED_IO_CELLS} pins of the {} {} that the routed netlist places every port bit on",
            device.part, device.default_package
        )));
    }
    Ok(())
}

fn routed(dir: &Path, top: &str, ports: &[Port], progress: &Progress) -> Result<(), SimError> {
    let device = routed_device();
    let bits: u32 = ports.iter().map(|p| p.width).sum();
    let job = steps::PnrJob {
        device,
        package: device.default_package,
        constraints: None,
        freq_mhz: None,
        seed: 1,
        input: "synth.json",
        name: "routed",
        write_placed: Some("routed.json"),
    };
    steps::place_and_route(dir, &job, progress).map_err(|e| match e {
        flow::FlowError::DoesNotFit { part, detail } => SimError::Value(format!(
            "the design's {bits} port bits do not fit the pins of the {part} {} that the routed netlist is placed on: {detail}",
            device.default_package
        )),
        e => flow_err(e),
    })?;
    steps::pack(
        Family::Ice40,
        dir,
        Path::new("routed.asc"),
        "routed.bin",
        progress,
    )
    .map_err(flow_err)?;
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    progress.say("reading the bitstream back: iceunpack, icebox_vlog");
    tools::run(
        Tool::Iceunpack,
        &args(&["routed.bin", "unpacked.asc"]),
        dir,
        &dir.join("iceunpack.log"),
        progress,
    )
    .map_err(flow_err)?;
    let inner = format!("{top}_routed");
    tools::run_to_file(
        Tool::IceboxVlog,
        &args(&["-s", "-n", &inner, "unpacked.asc"]),
        dir,
        &dir.join("routed_vlog.v"),
        &dir.join("icebox_vlog.log"),
        progress,
    )
    .map_err(flow_err)?;
    let raw = fs::read_to_string(dir.join("routed_vlog.v")).map_err(|e| SimError::io(dir, e))?;
    let placed = fs::read_to_string(dir.join("routed.json")).map_err(|e| SimError::io(dir, e))?;
    let pins = pin_map(&placed)?;
    let text = classic_header(&raw, &inner)?
        + "\n"
        + &routed_wrapper(top, &inner, ports, &pins, &parse_ports(&raw, &inner)?)?;
    steps::write(&dir.join("netlist.v"), &text).map_err(flow_err)
}

/// From nextpnr's placed netlist (`--write`): each I/O cell's port bit and
/// the I/O tile it was placed in, as icebox_vlog names it (`io_X_Y_Z`).
/// A port bit's cell is `NAME$sb_io` or `NAME[i]$sb_io`; its bel `X33/Y17/io0`.
pub fn pin_map(routed_json: &str) -> Result<Vec<(String, Option<u32>, String)>, SimError> {
    let v: serde_json::Value = serde_json::from_str(routed_json)
        .map_err(|e| SimError::Value(format!("nextpnr's routed netlist is not JSON: {e}")))?;
    let modules = v["modules"]
        .as_object()
        .ok_or_else(|| SimError::Value("nextpnr's routed netlist has no modules".into()))?;
    let mut out = Vec::new();
    for m in modules.values() {
        let Some(cells) = m["cells"].as_object() else {
            continue;
        };
        for (name, cell) in cells {
            if cell["type"] != "SB_IO" {
                continue;
            }
            let Some(port) = name.strip_suffix("$sb_io") else {
                continue;
            };
            let bel = cell["attributes"]["NEXTPNR_BEL"].as_str().unwrap_or("");
            let tile = bel_tile(bel).ok_or_else(|| {
                SimError::Value(format!(
                    "I/O cell {name} has the bel `{bel}`, not X../Y../io."
                ))
            })?;
            let (base, bit) =
                match port.strip_suffix(']').and_then(|p| p.rsplit_once('[')) {
                    Some((b, i)) => (
                        b.to_string(),
                        Some(i.parse::<u32>().map_err(|_| {
                            SimError::Value(format!("I/O cell {name}: bad bit index"))
                        })?),
                    ),
                    None => (port.to_string(), None),
                };
            out.push((base, bit, tile));
        }
    }
    Ok(out)
}

fn bel_tile(bel: &str) -> Option<String> {
    let mut it = bel.split('/');
    let x = it.next()?.strip_prefix('X')?.parse::<u32>().ok()?;
    let y = it.next()?.strip_prefix('Y')?.parse::<u32>().ok()?;
    let z = it.next()?.strip_prefix("io")?.parse::<u32>().ok()?;
    Some(format!("io_{x}_{y}_{z}"))
}

/// icebox_vlog writes an ANSI port list (`module m (input io_1_2_0, output
/// io_3_4_1, ...);`) and then declares the same names again in the body
/// (`wire io_1_2_0;`, `reg io_3_4_1 = 0;`), which Verilator refuses
/// ("Duplicate declaration of signal"). In the classic style (`module m
/// (io_1_2_0, ...); input io_1_2_0; ...`) the body's declarations are legal
/// re-declarations. Only the header changes.
pub fn classic_header(text: &str, module: &str) -> Result<String, SimError> {
    let start = text
        .find(&format!("module {module} ("))
        .or_else(|| text.find(&format!("module {module}(")))
        .ok_or_else(|| SimError::Value(format!("icebox_vlog's output has no module {module}")))?;
    let open = start + text[start..].find('(').expect("found above");
    let close = open
        + text[open..]
            .find(");")
            .ok_or_else(|| SimError::Value("icebox_vlog's module header does not end".into()))?;
    let mut names = Vec::new();
    let mut decls = String::new();
    for item in text[open + 1..close].split(',') {
        let words: Vec<&str> = item.split_whitespace().collect();
        let (dir, rest) = match words.split_first() {
            Some((d, rest)) if matches!(*d, "input" | "output" | "inout") => (*d, rest),
            _ => {
                return Err(SimError::Value(format!(
                    "icebox_vlog's port declaration `{}` is not `input|output NAME`",
                    item.trim()
                )))
            }
        };
        let (range, name) = match rest {
            [name] => ("", *name),
            [range, name] if range.starts_with('[') => (*range, *name),
            _ => {
                return Err(SimError::Value(format!(
                    "icebox_vlog's port declaration `{}` is not understood",
                    item.trim()
                )))
            }
        };
        let name = name.trim_start_matches('\\');
        names.push(name.to_string());
        decls += &format!(
            "{dir} {range}{}{name};\n",
            if range.is_empty() { "" } else { " " }
        );
    }
    Ok(format!(
        "{}module {module} ({});\n{decls}{}",
        &text[..start],
        names.join(", "),
        &text[close + 2..]
    ))
}

/// A module named `top` with the design's ports, instantiating the routed
/// netlist `inner` whose ports are I/O tiles, connected by `pins`.
pub fn routed_wrapper(
    top: &str,
    inner: &str,
    ports: &[Port],
    pins: &[(String, Option<u32>, String)],
    inner_ports: &[Port],
) -> Result<String, SimError> {
    let mut header = Vec::new();
    let mut decls = String::new();
    let mut conns = Vec::new();
    for p in ports {
        header.push(p.name.clone());
        let dir = match p.direction {
            Direction::Input => "input",
            Direction::Output => "output",
            Direction::Inout => {
                return Err(SimError::Value(format!("port `{}` is an inout", p.name)))
            }
        };
        let range = if p.width > 1 {
            format!("[{}:0] ", p.width - 1)
        } else {
            String::new()
        };
        decls += &format!("    {dir} {range}{};\n", p.name);
        for bit in 0..p.width {
            let want = if p.width > 1 { Some(bit) } else { None };
            let signal = if p.width > 1 {
                format!("{}[{bit}]", p.name)
            } else {
                p.name.clone()
            };
            let tile = pins
                .iter()
                .find(|(n, b, _)| *n == p.name && (*b == want || (p.width == 1 && b.is_none())));
            let present = tile.and_then(|(_, _, t)| inner_ports.iter().find(|q| q.name == *t));
            match (present, p.direction) {
                (Some(q), _) => conns.push(format!("        .{}({signal})", q.name)),
                // An input bit no logic reads has no configured I/O tile.
                (None, Direction::Input) => {}
                (None, _) => {
                    // An output bit the logic ties to a constant may be left
                    // unconfigured too: that is a difference, not a zero.
                    return Err(SimError::Value(format!(
                        "the routed netlist has no pin for output {signal} (nextpnr placed it at {:?})",
                        tile.map(|t| t.2.clone())
                    )));
                }
            }
        }
    }
    Ok(format!(
        "// The design's ports around the routed netlist: each port bit goes to the
// I/O tile nextpnr placed it in (from its routed netlist), generated by bloom.
module {top} ({});
{decls}    {inner} routed (
{}
    );
endmodule
",
        header.join(", "),
        conns.join(",\n")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_and_name_themselves() {
        for k in NetlistKind::ALL {
            assert_eq!(k.name().parse::<NetlistKind>().unwrap(), k);
        }
        let e = "ice50".parse::<NetlistKind>().unwrap_err();
        assert!(e.contains("rtl, ice40, ecp5, ice40-routed"), "{e}");
    }

    #[test]
    fn icebox_vlog_header_becomes_classic() {
        let raw = "\nmodule m_routed (input io_1_2_0, output io_3_4_1, input [1:0] \\v );\n\nwire io_1_2_0;\nreg io_3_4_1 = 0;\nendmodule\n";
        let fixed = classic_header(raw, "m_routed").unwrap();
        assert!(fixed.contains("module m_routed (io_1_2_0, io_3_4_1, v);\ninput io_1_2_0;\noutput io_3_4_1;\ninput [1:0] v;\n"), "{fixed}");
        assert!(
            fixed.ends_with("\n\nwire io_1_2_0;\nreg io_3_4_1 = 0;\nendmodule\n"),
            "{fixed}"
        );
        let ports = parse_ports(&fixed, "m_routed").unwrap();
        assert_eq!(ports.len(), 3);
    }

    #[test]
    fn pins_from_nextpnr_bels_and_the_wrapper() {
        let json = r#"{"modules":{"top":{"cells":{
            "clock$sb_io":{"type":"SB_IO","attributes":{"NEXTPNR_BEL":"X33/Y17/io0"}},
            "q[1]$sb_io":{"type":"SB_IO","attributes":{"NEXTPNR_BEL":"X0/Y5/io1"}},
            "q[0]$sb_io":{"type":"SB_IO","attributes":{"NEXTPNR_BEL":"X2/Y0/io0"}},
            "lut":{"type":"ICESTORM_LC","attributes":{"NEXTPNR_BEL":"X1/Y1/lc0"}}}}}}"#;
        let pins = pin_map(json).unwrap();
        assert_eq!(pins.len(), 3);
        assert!(pins.contains(&("q".into(), Some(1), "io_0_5_1".into())));
        let ports = vec![
            Port {
                name: "clock".into(),
                direction: Direction::Input,
                width: 1,
            },
            Port {
                name: "q".into(),
                direction: Direction::Output,
                width: 2,
            },
        ];
        let inner: Vec<Port> = ["io_33_17_0", "io_0_5_1", "io_2_0_0"]
            .iter()
            .map(|n| Port {
                name: n.to_string(),
                direction: Direction::Input,
                width: 1,
            })
            .collect();
        let w = routed_wrapper("m", "m_routed", &ports, &pins, &inner).unwrap();
        assert!(
            w.contains(".io_33_17_0(clock)")
                && w.contains(".io_2_0_0(q[0])")
                && w.contains(".io_0_5_1(q[1])"),
            "{w}"
        );
        assert_eq!(parse_ports(&w, "m").unwrap(), ports);
        // An output bit without a pin is refused.
        let without: Vec<_> = pins.iter().filter(|p| p.1 != Some(0)).cloned().collect();
        let e = routed_wrapper("m", "m_routed", &ports, &without, &inner)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no pin for output q[0]"), "{e}");
    }

    #[test]
    fn ports_that_differ_are_named() {
        let p = |n: &str, d, w| Port {
            name: n.into(),
            direction: d,
            width: w,
        };
        let design = vec![
            p("clock", Direction::Input, 1),
            p("key", Direction::Input, 64),
            p("hit", Direction::Output, 1),
        ];
        assert!(check_ports(&design, &design, "x").is_ok());
        let netlist = vec![
            p("clock", Direction::Input, 1),
            p("key", Direction::Input, 32),
            p("extra", Direction::Output, 1),
        ];
        let e = check_ports(&netlist, &design, "the netlist n.v")
            .unwrap_err()
            .to_string();
        assert!(e.contains("the netlist n.v: its ports differ"), "{e}");
        assert!(
            e.contains("`key` is a 32-bit Input, the design's a 64-bit Input"),
            "{e}"
        );
        assert!(
            e.contains("no port `hit`") && e.contains("`extra` is not the design's"),
            "{e}"
        );
    }
}
