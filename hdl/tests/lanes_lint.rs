//! `bloom_lanes` and `bloom_lanes_axis` pass the core's Verilator lint (`-Wall`, the same waivers), for
//! one lane, a few, and the contract's limit, plain and counting filters; out-of-range lanes
//! are refused before any Verilog is written.

use hdl::lanes::{generate_lanes, generate_lanes_with, LaneSwitches, ReplicaPorts};
use hdl::HashFamily::{Crc, Feistel, H3};
use hdl::{CoreConfig, CoreParams};

/// `bloom_lanes` and its AXI4-Stream face `bloom_lanes_axis`.
fn lint(params: CoreParams, lanes: usize) {
    let cfg = CoreConfig::from(params);
    let g = generate_lanes(&cfg, lanes, LaneSwitches::default()).unwrap();
    if let Err(report) = hdl::verilog::lint::verilator_lint(&g.verilog, &g.top) {
        panic!("lanes={lanes} {params:?}: {report}");
    }
    let a = hdl::axi::lanes::axis_around(&g).unwrap();
    if let Err(report) = hdl::verilog::lint::verilator_lint(&a.verilog, &a.top) {
        panic!("bloom_lanes_axis, lanes={lanes} {params:?}: {report}");
    }
}

#[test]
fn lanes_1_4_and_8_h3_k4_b12_w64() {
    for lanes in [1, 4, 8] {
        lint(CoreParams::new(4, 12, 64, H3, 0).unwrap(), lanes);
    }
}

#[test]
fn lanes_128_crc_k1_b6_w32() {
    lint(CoreParams::new(1, 6, 32, Crc, 3).unwrap(), 128);
}

#[test]
fn counting_lanes_1_3_and_5_h3_and_feistel() {
    for (params, lanes) in [
        (CoreParams::new(4, 12, 64, H3, 0).unwrap(), 3),
        (CoreParams::new(3, 8, 32, Feistel, 5).unwrap(), 5),
        (CoreParams::new(2, 6, 32, H3, 1).unwrap(), 1),
    ] {
        lint(params.with_counter_bits(4).unwrap(), lanes);
    }
}

/// Query lanes in pairs on two-port replicas (ReplicaPorts::Two): an even and an odd
/// number of query lanes, plain and counting, H3 and Feistel.
#[test]
fn two_port_replicas_lanes_2_4_and_5() {
    for (params, lanes) in [
        (CoreParams::new(4, 12, 64, H3, 0).unwrap(), 5),
        (CoreParams::new(3, 8, 32, Feistel, 5).unwrap(), 2),
        (
            CoreParams::new(2, 6, 32, Crc, 1)
                .unwrap()
                .with_counter_bits(4)
                .unwrap(),
            4,
        ),
    ] {
        let cfg = CoreConfig::from(params);
        let g =
            generate_lanes_with(&cfg, lanes, ReplicaPorts::Two, LaneSwitches::default()).unwrap();
        assert_eq!(
            g.verilog.matches("bloom_lanes_query_pair lanes").count(),
            (lanes - 1).div_ceil(2)
        );
        if let Err(report) = hdl::verilog::lint::verilator_lint(&g.verilog, &g.top) {
            panic!("two ports, lanes={lanes} {params:?}: {report}");
        }
    }
}

#[test]
fn lanes_0_and_129_are_refused() {
    let cfg = CoreConfig::from(CoreParams::new(4, 12, 64, H3, 0).unwrap());
    for lanes in [0, 129] {
        let err = generate_lanes(&cfg, lanes, LaneSwitches::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("lanes = {lanes} is not allowed")) && err.contains("1 ..= 128"),
            "{err}"
        );
    }
}

/// A counting filter's lanes preloaded with an image: each query lane's replica of bank p
/// starts with a 1 exactly where lane 0's counter is non-zero (the golden filter's fill of
/// bank p), and the lanes still pass the lint.
#[test]
fn counting_lanes_replicas_start_with_the_images_non_zero_counters() {
    let params = CoreParams::new(3, 6, 32, H3, 21)
        .unwrap()
        .with_counter_bits(4)
        .unwrap();
    let mut filter = golden::CountingFilter::from_config(params).unwrap();
    for key in 0..20u128 {
        filter.insert(key * 0x0001_0003).unwrap();
        if key % 3 == 0 {
            filter.insert(key * 0x0001_0003).unwrap();
        }
    }
    let dir = std::env::temp_dir().join(format!("bloom-lanes-lint-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    filter.export_image(&dir.join("image")).unwrap();
    let cfg = CoreConfig {
        preload: Some(dir.join("image")),
        ..CoreConfig::from(params)
    };
    let g = generate_lanes(&cfg, 3, LaneSwitches::default()).unwrap();
    for p in 0..3 {
        let module = format!("module bloom_lanes_replica_{p}(");
        let start = g.verilog.find(&module).expect("a replica per bank");
        let end = start + g.verilog[start..].find("endmodule").unwrap();
        let ones = g.verilog[start..end].matches("] = 1'b1;").count();
        assert_eq!(ones as u32, filter.fill_of(p), "bank {p}");
        assert!(ones > 0);
    }
    if let Err(report) = hdl::verilog::lint::verilator_lint(&g.verilog, &g.top) {
        panic!("{report}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
