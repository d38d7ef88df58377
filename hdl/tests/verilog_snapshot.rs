//! The default configuration's Verilog, compared with the reviewed snapshot in
//! tests/snapshots/, so that any change to the generated hardware shows in review.
//! It detects change; it proves no behaviour and is not counted as verification
//! (that is the co-simulation's: sim/tests, every port in every cycle against
//! the golden model, on the RTL and on the netlists the FPGA tools make).
//! Regenerate with `BLOOM_UPDATE_SNAPSHOTS=1 cargo test -p hdl --test verilog_snapshot`.

use std::path::PathBuf;

#[test]
fn default_config_verilog_matches_snapshot() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/bloom_core_default.v");
    let verilog = hdl::generate_core(&hdl::CoreConfig::default())
        .unwrap()
        .verilog;
    if std::env::var("BLOOM_UPDATE_SNAPSHOTS").as_deref() == Ok("1") {
        std::fs::write(&path, &verilog).unwrap();
        return;
    }
    let snapshot = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}); create it with BLOOM_UPDATE_SNAPSHOTS=1",
            path.display()
        )
    });
    if snapshot != verilog {
        let (n, (want, got)) = snapshot
            .lines()
            .chain(std::iter::repeat("<end of file>"))
            .zip(verilog.lines().chain(std::iter::repeat("<end of file>")))
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .unwrap();
        panic!(
            "generated Verilog differs from {} at line {}:\n  snapshot:  {want}\n  generated: {got}\n\
             If the change is intended, regenerate with BLOOM_UPDATE_SNAPSHOTS=1 and review the diff.",
            path.display(),
            n + 1
        );
    }
}

#[test]
fn generation_is_deterministic() {
    let cfg =
        hdl::CoreConfig::from(hdl::CoreParams::new(3, 7, 32, hdl::HashFamily::Crc, 9).unwrap());
    assert_eq!(
        hdl::generate_core(&cfg).unwrap().verilog,
        hdl::generate_core(&cfg).unwrap().verilog
    );
}
