//! `verilator --lint-only -Wall` on the generated Verilog, with only the waivers listed
//! (and justified) in hdl::verilog::lint::VERILATOR_WAIVERS, for the default configuration and
//! both ends of the parameter ranges, in both hash families.

use hdl::HashFamily::{self, Crc, Feistel, H3};
use hdl::{CoreConfig, TestSwitches};

fn lint(k: usize, bank_bits: usize, key_bits: usize, hash: HashFamily) {
    let cfg = CoreConfig::from(
        hdl::CoreParams::new(k as u32, bank_bits as u32, key_bits as u32, hash, 0x5eed).unwrap(),
    );
    let core = hdl::generate_core(&cfg).unwrap();
    if let Err(report) = hdl::verilog::lint::verilator_lint(&core.verilog, &core.top) {
        panic!("k={k} b={bank_bits} W={key_bits} {hash}: {report}");
    }
}

#[test]
fn h3_k4_b12_w64() {
    lint(4, 12, 64, H3);
}
#[test]
fn crc_k4_b12_w64() {
    lint(4, 12, 64, Crc);
}
#[test]
fn h3_k1_b6_w32() {
    lint(1, 6, 32, H3);
}
#[test]
fn crc_k1_b6_w32() {
    lint(1, 6, 32, Crc);
}
#[test]
fn h3_k16_b16_w128() {
    lint(16, 16, 128, H3);
}
#[test]
fn crc_k16_b16_w128() {
    lint(16, 16, 128, Crc);
}

#[test]
fn feistel_k4_b12_w64() {
    lint(4, 12, 64, Feistel);
}
#[test]
fn feistel_k16_b16_w32() {
    lint(16, 16, 32, Feistel);
}
#[test]
fn feistel_k1_b6_w64() {
    lint(1, 6, 64, Feistel);
}

#[test]
fn h3_k3_b6_w64_with_test_switches() {
    let cfg = CoreConfig {
        params: hdl::CoreParams {
            k: 3,
            bank_bits: 6,
            ..Default::default()
        },
        test_switches: TestSwitches {
            disable_forwarding: true,
            perturb_seed_of_bank: Some(1),
            ..Default::default()
        },
        ..Default::default()
    };
    let core = hdl::generate_core(&cfg).unwrap();
    hdl::verilog::lint::verilator_lint(&core.verilog, &core.top).unwrap();
}

#[test]
fn lint_rejects_a_width_mismatch() {
    // The check has teeth: a WIDTH warning (not waived) fails it.
    let bad =
        "module bloom_core(input wire [3:0] a, output wire [1:0] y);\nassign y = a;\nendmodule\n";
    assert!(hdl::verilog::lint::verilator_lint(bad, "bloom_core")
        .unwrap_err()
        .contains("WIDTH"));
}

#[test]
fn h3_k2_b6_w64_preloaded() {
    let mut cfg = CoreConfig::from(hdl::CoreParams {
        k: 2,
        bank_bits: 6,
        hash: hdl::HashFamily::H3,
        ..Default::default()
    });
    let mut g = golden::PartitionedFilter::new(
        golden::CoreParams::new(2, 6, 64, golden::HashFamily::H3, 0).unwrap(),
    );
    for key in 0..30u128 {
        g.insert(key * 0x9e37_79b9).unwrap();
    }
    let dir = std::env::temp_dir().join(format!("hdl-lint-preload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    g.export_image(&dir).unwrap();
    cfg.preload = Some(dir.clone());
    let core = hdl::generate_core(&cfg).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(core.verilog.contains("initial begin"));
    hdl::verilog::lint::verilator_lint(&core.verilog, &core.top).unwrap();
}

fn lint_counting(
    k: u32,
    bank_bits: u32,
    key_bits: u32,
    hash: HashFamily,
    c: u32,
    switches: TestSwitches,
) {
    let params = hdl::CoreParams::new(k, bank_bits, key_bits, hash, 0x5eed)
        .unwrap()
        .with_counter_bits(c)
        .unwrap();
    let cfg = CoreConfig {
        params,
        test_switches: switches,
        ..Default::default()
    };
    let core = hdl::generate_core(&cfg).unwrap();
    if let Err(report) = hdl::verilog::lint::verilator_lint(&core.verilog, &core.top) {
        panic!("{}: {report}", cfg.label());
    }
}

#[test]
fn counting_h3_k4_b12_w64_c4() {
    lint_counting(4, 12, 64, H3, 4, TestSwitches::default());
}
#[test]
fn counting_crc_k1_b6_w32_c2() {
    lint_counting(1, 6, 32, Crc, 2, TestSwitches::default());
}
#[test]
fn counting_feistel_k3_b6_w32_c2() {
    lint_counting(3, 6, 32, Feistel, 2, TestSwitches::default());
}
#[test]
fn counting_h3_k16_b16_w128_c8() {
    lint_counting(16, 16, 128, H3, 8, TestSwitches::default());
}
#[test]
fn counting_crc_k3_b6_w64_c3_with_test_switches() {
    lint_counting(
        3,
        6,
        64,
        Crc,
        3,
        TestSwitches {
            disable_delete_forwarding: true,
            perturb_seed_of_bank: Some(2),
            ..Default::default()
        },
    );
}

/// The scrub built (with its period), plain and counting: lint-clean too.
#[test]
fn scrub_plain_and_counting() {
    for c in [1, 3] {
        let params = hdl::CoreParams::new(4, 12, 64, H3, 0x5eed)
            .unwrap()
            .with_counter_bits(c)
            .unwrap();
        let cfg = CoreConfig {
            params,
            scrub: true,
            scrub_every: Some(100_000),
            ..Default::default()
        };
        let core = hdl::generate_core(&cfg).unwrap();
        if let Err(report) = hdl::verilog::lint::verilator_lint(&core.verilog, &core.top) {
            panic!("{}: {report}", cfg.label());
        }
    }
}
