//! docs/core.md's timing diagrams are what the core does now: each scenario
//! runs through the Verilated core (every cycle checked against the golden
//! model and the timing contract), and its WaveDrom JSON must equal the
//! committed docs/wavedrom/NAME.json, the SVG beside it must be that JSON
//! rendered by the `wavedrom` Python package (installed by scripts/setup.sh).
//! Regenerate both with `BLOOM_UPDATE_SNAPSHOTS=1 cargo test -p sim --test timing_diagrams`.

use std::path::PathBuf;
use std::process::Command;

use sim::wavedrom::{diagram, diagram_config, run, scenarios};
use sim::cycles::settle;
use sim::{Checker, VerilatedCore};

fn docs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/wavedrom")
}

fn render_svg(json: &std::path::Path, svg: &std::path::Path) {
    let out = Command::new("python3")
        .args(["-c", "import sys, wavedrom; wavedrom.render(open(sys.argv[1]).read()).saveas(sys.argv[2])"])
        .arg(json)
        .arg(svg)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}); install Python 3 and run scripts/setup.sh"));
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
        let text = serde_json::to_string_pretty(&diagram(&scenario, &cfg.params, &log)).unwrap() + "\n";
        let json = docs().join(format!("{}.json", scenario.name));
        let svg = docs().join(format!("{}.svg", scenario.name));
        if update {
            std::fs::create_dir_all(docs()).unwrap();
            std::fs::write(&json, &text).unwrap();
            render_svg(&json, &svg);
            continue;
        }
        let committed = std::fs::read_to_string(&json)
            .unwrap_or_else(|e| panic!("cannot read {} ({e}); write it with BLOOM_UPDATE_SNAPSHOTS=1", json.display()));
        assert_eq!(committed, text, "{} differs from the core's behaviour; regenerate with BLOOM_UPDATE_SNAPSHOTS=1", json.display());
        let rendered = scratch.join(format!("{}.svg", scenario.name));
        render_svg(&json, &rendered);
        assert_eq!(
            std::fs::read(&rendered).unwrap(),
            std::fs::read(&svg).unwrap_or_default(),
            "{} is not {} rendered; regenerate with BLOOM_UPDATE_SNAPSHOTS=1",
            svg.display(),
            json.display()
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
