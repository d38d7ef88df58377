//! docs/integrating.md's table of faces and its instantiation templates are generated
//! from what the Verilog is generated from: the faces' timing (hdl::Timing, the AXI
//! wrapper's stream timing, the lanes') and their port declarations (the core's
//! ports, `bloom_axis`'s, `bloom_lanes`' and `bloom_lanes_axis`'s). This test fails
//! when the page differs, and rewrites it with `BLOOM_UPDATE_SNAPSHOTS=1 cargo test
//! --test integrating_doc`. Each template is also linted by Verilator, inside one
//! module, against the modules `bloom verilog` and `bloom export` write, so that a
//! template that names a port wrongly, misses one or gets a width wrong fails here.

use std::path::PathBuf;

use hdl::doc_page::DocPage;
use hdl::ports::{CorePort, Direction};
use hdl::{CoreConfig, CoreParams};

/// Lanes in the templates of `bloom_lanes` and `bloom_lanes_axis`.
const LANES: usize = 4;

/// The templates' wires: `bloom_req_valid` for the port `req_valid`.
const PREFIX: &str = "bloom_";

/// What a template connects a clock or reset port to; every other port is a wire
/// named [`PREFIX`] + the port's name.
fn outside(port: &str) -> Option<&'static str> {
    match port {
        "clock" | "aclk" => Some("clk"),
        "reset" => Some("rst"),
        "aresetn" => Some("rst_n"),
        _ => None,
    }
}

/// Wire declarations for `ports` and an instance of `module` connecting them.
fn template(module: &str, ports: &[CorePort]) -> String {
    let prefix = PREFIX;
    let wired: Vec<&CorePort> = ports
        .iter()
        .filter(|p| outside(&p.name).is_none())
        .collect();
    let range_width = wired.iter().map(|p| p.range().len()).max().unwrap_or(0);
    let name_width = ports.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let wire_width = wired
        .iter()
        .map(|p| prefix.len() + p.name.len() + 1)
        .max()
        .unwrap_or(0);
    let mut t = String::new();
    for p in &wired {
        let direction = match p.direction {
            Direction::Input => "in",
            Direction::Output => "out",
        };
        let wire = format!("{prefix}{};", p.name);
        // The width as the configuration sets it, where it is not a constant.
        let width = if p.width_expr.parse::<u32>().is_ok() {
            String::new()
        } else {
            format!(", {}", p.width_expr)
        };
        t += &format!(
            "wire {:range_width$}{wire:wire_width$} // {direction}{width}\n",
            p.range()
        );
    }
    t += &format!("\n{module} u_{module} (\n");
    let lines: Vec<String> = ports
        .iter()
        .map(|p| {
            let signal = outside(&p.name)
                .map(str::to_string)
                .unwrap_or_else(|| format!("{prefix}{}", p.name));
            format!("    .{:name_width$} ({signal})", p.name)
        })
        .collect();
    t += &lines.join(",\n");
    t += "\n);\n";
    t
}

fn fenced(verilog: &str) -> String {
    format!("```verilog\n{verilog}```\n")
}

/// The table of faces: files, operations per clock, latency, counting filters.
fn faces(params: &CoreParams) -> String {
    let core = hdl::Timing::of(params);
    let axis = hdl::axi::stream_timing(params);
    let lanes = hdl::lanes::generate_lanes(&CoreConfig::from(*params), LANES, Default::default())
        .expect("the default configuration has lanes");
    let counting = params.with_counter_bits(4).unwrap();
    let lanes_count = match hdl::lanes::check_lanes(&counting, 2) {
        Ok(()) => "yes",
        Err(_) => "no",
    };
    let mut t = String::from(
        "| face | files | operations per clock | latency (cycles) | counting filter |\n\
         |---|---|---|---|---|\n",
    );
    t += &format!(
        "| `bloom_core` | `bloom_core.v` (`bloom verilog`) | 1 | {} | yes |\n",
        core.latency
    );
    t += &format!(
        "| `bloom_axis` | `bloom_axis.v`, `bloom_core.v` (`bloom export`) | 1 | {} | yes |\n",
        axis.latency
    );
    t += &format!(
        "| `bloom_lanes` | `bloom_lanes.v`, `bloom_core.v` (`bloom verilog --lanes L`) | L reads or 1 write | {} | {lanes_count} |\n",
        lanes.timing.latency
    );
    t += &format!(
        "| `bloom_lanes_axis` | `bloom_lanes_axis.v` and the two above | L reads or 1 write | {} | {lanes_count} |\n",
        lanes.timing.latency
    );
    t
}

struct Templates {
    core: String,
    axis: String,
    lanes: String,
    lanes_axis: String,
}

fn templates(params: &CoreParams) -> Templates {
    let core_ports = hdl::ports::core_ports(params);
    let counting_ports = hdl::ports::core_ports(&params.with_counter_bits(4).unwrap());
    let extra: Vec<String> = counting_ports
        .iter()
        .filter(|p| !core_ports.iter().any(|q| q.name == p.name))
        .map(|p| {
            let direction = match p.direction {
                Direction::Input => "input",
                Direction::Output => "output",
            };
            format!("{direction} {}{}", p.range(), p.name)
        })
        .collect();
    let mut core = template("bloom_core", &core_ports);
    core += &format!(
        "// A counting core (--counter-bits 2..=8) has {} more: {}.\n",
        extra.len(),
        extra.join(", ")
    );
    Templates {
        core,
        axis: template("bloom_axis", &hdl::axi::axi_ports(params)),
        lanes: template("bloom_lanes", &hdl::lanes::lanes_ports(params, LANES)),
        lanes_axis: template(
            "bloom_lanes_axis",
            &hdl::axi::lanes::lanes_axis_ports(params, LANES),
        ),
    }
}

fn page() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/integrating.md")
}

#[test]
fn faces_and_templates_match_the_declarations() {
    let params = CoreParams::default();
    let t = templates(&params);
    let mut doc = DocPage::open(
        &page(),
        "docs/integrating.md",
        "cargo test --test integrating_doc",
    );
    for (name, text) in [
        ("faces", faces(&params)),
        ("template-core", fenced(&t.core)),
        ("template-axis", fenced(&t.axis)),
        ("template-lanes", fenced(&t.lanes)),
        ("template-lanes-axis", fenced(&t.lanes_axis)),
    ] {
        doc.section(name, &text, "the declarations");
    }
    doc.finish();
}

#[test]
fn the_fusesoc_core_name_is_the_one_bloom_export_writes() {
    let axi = hdl::axi::generate_axi(&CoreConfig::from(CoreParams::default())).unwrap();
    let name = ip::package::core_name(&axi);
    let doc = std::fs::read_to_string(page()).unwrap();
    assert!(
        doc.contains(&format!("`{name}`")),
        "docs/integrating.md does not name the default package's FuseSoC core `{name}`"
    );
}

/// The templates' wires are the integrator's to drive and to read: inside the
/// lint's one module nothing drives or reads them.
const TEMPLATE_WAIVERS: &[(&str, &str)] = &[
    (
        "DECLFILENAME",
        "one self-contained file holding every module",
    ),
    (
        "UNDRIVEN",
        "the template's input wires are the integrator's to drive",
    ),
    ("UNUSED", "and its output wires the integrator's to read"),
];

/// Each template in a module of its own, after the modules they instantiate, and
/// a top holding those.
fn lint(modules: &str, templates: &[&str]) {
    const PORTS: &str = "(\n    input wire clk,\n    input wire rst,\n    input wire rst_n\n);\n";
    let mut verilog = modules.to_string();
    let mut top = format!("module integration{PORTS}");
    for (i, t) in templates.iter().enumerate() {
        let body: String = t.lines().map(|l| format!("    {l}\n")).collect();
        verilog += &format!("\nmodule template_{i}{PORTS}{body}endmodule\n");
        top += &format!("    template_{i} u_template_{i} (.clk(clk), .rst(rst), .rst_n(rst_n));\n");
    }
    verilog += &format!("\n{top}endmodule\n");
    if let Err(report) =
        hdl::verilog::lint::verilator_lint_with(&verilog, "integration", TEMPLATE_WAIVERS, true)
    {
        panic!("{report}");
    }
}

#[test]
fn the_templates_connect_the_generated_modules() {
    let params = CoreParams::default();
    let t = templates(&params);
    // `bloom export`'s modules: the wrapper and the core it holds.
    let axi = hdl::axi::generate_axi(&CoreConfig::from(params)).unwrap();
    lint(&axi.full_verilog(), &[&t.core, &t.axis]);
    // `bloom verilog --lanes 4`'s: the lanes' core, bloom_lanes and its AXI4-Stream face.
    let lanes =
        hdl::lanes::generate_lanes(&CoreConfig::from(params), LANES, Default::default()).unwrap();
    let lanes_axis = hdl::axi::lanes::axis_around(&lanes).unwrap();
    lint(&lanes_axis.verilog, &[&t.lanes, &t.lanes_axis]);
}
