//! docs/core.md's timing diagrams are what the core does now: each scenario
//! runs through the Verilated core (every cycle checked against the golden
//! model and the timing contract), and its WaveDrom JSON must equal the
//! committed docs/wavedrom/NAME.json, the SVG beside it must be that JSON
//! rendered by the `wavedrom` Python package (installed by scripts/setup.sh).
//! docs/axi.md's AXI4-Lite diagrams likewise, from runs of the Verilated
//! `bloom_axis` whose every answer (register values, responses, SLVERR, the
//! clear's end, the bit read back) is checked against the register map and
//! the golden model.
//! Regenerate both with `BLOOM_UPDATE_SNAPSHOTS=1 cargo test -p sim --test timing_diagrams`.

use std::path::PathBuf;
use std::process::Command;

use sim::cycles::settle;
use sim::wavedrom::{axi_diagram, axi_scenarios, diagram, diagram_config, run, run_axi, scenarios};
use sim::{Checker, VerilatedCore};

fn docs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/wavedrom")
}

fn render_svg(json: &std::path::Path, svg: &std::path::Path) {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sys, wavedrom; wavedrom.render(open(sys.argv[1]).read()).saveas(sys.argv[2])",
        ])
        .arg(json)
        .arg(svg)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run python3 ({e}); install Python 3 and run scripts/setup.sh")
        });
    assert!(
        out.status.success(),
        "rendering {} failed (the wavedrom Python package is installed by scripts/setup.sh):\n{}",
        json.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn committed_diagrams_are_what_the_core_does() {
    let cfg = diagram_config();
    let update = std::env::var("BLOOM_UPDATE_SNAPSHOTS").as_deref() == Ok("1");
    let scratch = std::env::temp_dir().join(format!("bloom-wavedrom-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for scenario in scenarios() {
        let mut core = VerilatedCore::build(&cfg, false).unwrap();
        let mut checker = Checker::new(core.timing, cfg.params, core.last_reset);
        settle(&mut core, &cfg.params, &mut checker).unwrap();
        let log = run(&mut core, &scenario, &mut checker).unwrap();
        let first: Vec<String> = checker.first.iter().map(|m| m.to_string()).collect();
        assert_eq!(checker.mismatches, 0, "{}: {first:#?}", scenario.name);
        let text =
            serde_json::to_string_pretty(&diagram(&scenario, &cfg.params, &log)).unwrap() + "\n";
        check_or_update(scenario.name, &text, &scratch, update);
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// Compares `text` with the committed docs/wavedrom/NAME.json and its SVG, or writes both when updating.
fn check_or_update(name: &str, text: &str, scratch: &std::path::Path, update: bool) {
    let json = docs().join(format!("{name}.json"));
    let svg = docs().join(format!("{name}.svg"));
    if update {
        std::fs::create_dir_all(docs()).unwrap();
        std::fs::write(&json, text).unwrap();
        render_svg(&json, &svg);
        return;
    }
    let committed = std::fs::read_to_string(&json).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}); write it with BLOOM_UPDATE_SNAPSHOTS=1",
            json.display()
        )
    });
    assert_eq!(
        committed,
        text,
        "{} differs from what the hardware does; regenerate with BLOOM_UPDATE_SNAPSHOTS=1",
        json.display()
    );
    let rendered = scratch.join(format!("{name}.svg"));
    render_svg(&json, &rendered);
    assert_eq!(
        std::fs::read(&rendered).unwrap(),
        std::fs::read(&svg).unwrap_or_default(),
        "{} is not {} rendered; regenerate with BLOOM_UPDATE_SNAPSHOTS=1",
        svg.display(),
        json.display()
    );
}

#[test]
fn committed_axi_lite_diagrams_are_what_the_wrapper_does() {
    use hdl::axi::regmap as map;
    let cfg = diagram_config();
    let params = cfg.params;
    let axi = hdl::axi::generate_axi(&cfg).unwrap();
    let lib = sim::build(&axi.full_verilog(), &axi.top, &sim::ModelOptions::default()).unwrap();
    let fixed = hdl::axi::fixed_words(&params);
    let id = fixed.iter().find(|(r, _)| *r == map::ID).unwrap().1;
    let update = std::env::var("BLOOM_UPDATE_SNAPSHOTS").as_deref() == Ok("1");
    let scratch = std::env::temp_dir().join(format!("bloom-wavedrom-axi-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let golden = golden::PartitionedFilter::new(params);
    let busy = map::STATUS_BUSY.mask();
    for scenario in axi_scenarios() {
        let log = run_axi(&lib, &params, &scenario).unwrap();
        match scenario.name {
            "axil_read_write" => {
                assert_eq!(
                    log.reads,
                    vec![(map::ID.offset as u8, 0, id), (map::MAP_BYTES as u8, 2, 0)],
                    "ID, then an unmapped address"
                );
                assert_eq!(log.writes, vec![(map::COMMAND.offset as u8, 0)]);
                // RREADY held low for two cycles: RVALID and RDATA hold.
                let first_rvalid = (0..log.cycles.len())
                    .find(|&c| log.value(c, "s_axil_rvalid") == 1)
                    .unwrap();
                for c in first_rvalid..first_rvalid + 3 {
                    assert_eq!(
                        (
                            log.value(c, "s_axil_rvalid"),
                            log.value(c, "s_axil_rdata") as u32
                        ),
                        (1, id),
                        "cycle {c}"
                    );
                }
            }
            "axil_clear" => {
                assert_eq!(log.writes, vec![(map::COMMAND.offset as u8, 0)]);
                let (first, last) = (log.reads.first().unwrap(), log.reads.last().unwrap());
                assert!(
                    first.2 & busy != 0 && last.2 & busy == 0,
                    "busy while clearing, then not: {:?}",
                    log.reads
                );
                let busy_cycles = (0..log.cycles.len())
                    .filter(|&c| log.value(c, "s_axil_rvalid") == 1)
                    .count();
                let polled = log.cycles.len() as u32;
                assert!(
                    polled > hdl::Timing::of(&params).clear_cycles,
                    "the clear was over after {polled} cycles"
                );
                assert!(busy_cycles >= 2, "STATUS read {busy_cycles} times");
            }
            "axil_bit_readback" => {
                let mut expected = golden.clone();
                let hit = expected.insert(sim::wavedrom::KEY_A).unwrap();
                assert_eq!(log.responses, vec![(1, hit as u8)], "the insert's response");
                // The latency the TIMING register states: taken on s_axis in t, presented on m_axis in t + latency.
                let taken = (0..log.cycles.len())
                    .find(|&c| {
                        log.value(c, "s_axis_tvalid") == 1 && log.value(c, "s_axis_tready") == 1
                    })
                    .unwrap();
                let presented = (0..log.cycles.len())
                    .find(|&c| log.value(c, "m_axis_tvalid") == 1)
                    .unwrap();
                assert_eq!(
                    presented - taken,
                    hdl::axi::stream_timing(&params).latency as usize,
                    "the wrapper's latency"
                );
                assert_eq!(log.writes, vec![(map::BIT_ADDR.offset as u8, 0)]);
                let addr = expected.addresses(sim::wavedrom::KEY_A).unwrap()[0];
                let bit = expected.bit(0, addr) as u32;
                let last = log.reads.last().unwrap();
                assert_eq!(bit, 1, "an inserted key's bit is set");
                // A plain core's counter field is the bit again.
                let word = map::BIT_DATA_VALID.mask()
                    | map::BIT_DATA_VALUE.place(bit as u64)
                    | map::BIT_DATA_COUNTER.place(bit as u64);
                assert_eq!(last.2, word, "BIT_DATA");
            }
            other => panic!("no checks for scenario {other}"),
        }
        let text =
            serde_json::to_string_pretty(&axi_diagram(&scenario, &params, &log)).unwrap() + "\n";
        check_or_update(scenario.name, &text, &scratch, update);
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
