//! Yosys synth_ice40 and synth_ecp5 map every bank to the minimal number of block RAMs
//! (SB_RAM40_4K = 4096 bits, DP16KD = 16384 bits; banks cannot share a block RAM since all
//! are read in the same cycle) and leave no memory in flip-flops. Default configuration
//! and both ends of the ranges. Tool: Debian's `yosys` (0.23 here); BLOOM_YOSYS overrides.

mod common;

use hdl::CoreConfig;
use hdl::HashFamily::{self, Crc, Feistel, H3};

struct Family {
    synth: &'static str,
    ram_cell: &'static str,
    /// How `memory_libmap` names the block RAM in "mapping memory X via $__..." (the
    /// prefix differs between Yosys versions).
    libmap_cell: &'static str,
    ram_bits: usize,
}

const ICE40: Family = Family {
    synth: "synth_ice40",
    ram_cell: "SB_RAM40_4K",
    libmap_cell: "RAM4K_",
    ram_bits: 4096,
};
const ECP5: Family = Family {
    synth: "synth_ecp5",
    ram_cell: "DP16KD",
    libmap_cell: "DP16KD_",
    ram_bits: 16384,
};

/// Cell counts of the top module after synthesis (from `stat`), and the log.
fn synthesise(
    cfg: &CoreConfig,
    family: &Family,
) -> (std::collections::BTreeMap<String, usize>, String) {
    let core = hdl::generate_core(cfg).unwrap();
    let dir = std::env::temp_dir().join(format!(
        "bloom-hdl-synth-{}-{}-k{}-b{}-w{}-{}-c{}",
        std::process::id(),
        family.synth,
        cfg.k(),
        cfg.bank_bits(),
        cfg.key_bits(),
        cfg.params.hash,
        cfg.params.counter_bits
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bloom_core.v");
    std::fs::write(&file, &core.verilog).unwrap();
    let script = format!(
        "read_verilog bloom_core.v; {} -top bloom_core; stat",
        family.synth
    );
    let log = common::run_yosys(&dir, &script);
    std::fs::remove_dir_all(&dir).unwrap();
    let cells = common::stat_cells(&log, "bloom_core");
    (cells, log)
}

fn check(k: usize, bank_bits: usize, key_bits: usize, hash: HashFamily, family: &Family) {
    let _ = check_config(
        &CoreConfig::from(
            hdl::CoreParams::new(k as u32, bank_bits as u32, key_bits as u32, hash, 3).unwrap(),
        ),
        family,
    );
}

/// Returns Yosys's log.
fn check_config(cfg: &CoreConfig, family: &Family) -> String {
    let (k, bank_bits, key_bits, hash) =
        (cfg.k(), cfg.bank_bits(), cfg.key_bits(), cfg.params.hash);
    let (cells, log) = synthesise(cfg, family);
    // A bank of 2^b counters of c bits (c = 1: bits).
    let per_bank =
        ((1usize << bank_bits) * cfg.params.counter_bits as usize).div_ceil(family.ram_bits);
    eprintln!(
        "{} k={k} b={bank_bits} W={key_bits} {hash}: {cells:?}",
        family.synth
    );
    assert_eq!(
        cells.get(family.ram_cell).copied().unwrap_or(0),
        k * per_bank,
        "{} count: {cells:?}",
        family.ram_cell
    );
    let mapped = log
        .lines()
        .filter(|l| l.starts_with("mapping memory ") && l.ends_with(family.libmap_cell))
        .count();
    assert_eq!(
        mapped,
        k,
        "every bank memory mapped to {}:\n{}",
        family.libmap_cell,
        log.lines()
            .filter(|l| l.starts_with("mapping memory"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    for (cell, n) in &cells {
        assert!(
            !cell.starts_with("$mem"),
            "memory cell {cell} x{n} left unmapped"
        );
    }
    let all_mapped = log
        .lines()
        .filter(|l| l.starts_with("mapping memory "))
        .count();
    assert_eq!(
        all_mapped, mapped,
        "some memory mapped to something other than {}",
        family.libmap_cell
    );
    log
}

#[test]
fn ice40_feistel_k4_b12_w64_default() {
    check(4, 12, 64, Feistel, &ICE40);
}
#[test]
fn ecp5_feistel_k4_b12_w64_default() {
    check(4, 12, 64, Feistel, &ECP5);
}
#[test]
fn ice40_crc_k1_b6_w32() {
    check(1, 6, 32, Crc, &ICE40);
}
#[test]
fn ecp5_crc_k1_b6_w32() {
    check(1, 6, 32, Crc, &ECP5);
}
#[test]
fn ice40_h3_k16_b16_w128() {
    check(16, 16, 128, H3, &ICE40);
}
#[test]
fn ecp5_h3_k16_b16_w128() {
    check(16, 16, 128, H3, &ECP5);
}

/// A preloaded image (about half the bits 1, each an `initial` assignment Yosys sees)
/// still maps every bank to block RAM.
fn check_preloaded(family: &Family) {
    let gcfg = golden::CoreParams::new(2, 9, 32, golden::HashFamily::Crc, 3).unwrap();
    let mut filter = golden::PartitionedFilter::new(gcfg);
    for key in 0..350u128 {
        filter
            .insert(key.wrapping_mul(0x9E37_79B9) & 0xFFFF_FFFF)
            .unwrap();
    }
    assert!(
        filter.fill().iter().all(|&f| f > 150),
        "{:?}",
        filter.fill()
    );
    let dir = std::env::temp_dir().join(format!(
        "bloom-hdl-synth-image-{}-{}",
        std::process::id(),
        family.synth
    ));
    let _ = std::fs::remove_dir_all(&dir);
    filter.export_image(&dir).unwrap();
    let cfg = CoreConfig {
        params: hdl::CoreParams::new(2, 9, 32, Crc, 3).unwrap(),
        preload: Some(dir.clone()),
        ..Default::default()
    };
    let _ = check_config(&cfg, family);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ice40_crc_k2_b9_w32_preloaded() {
    check_preloaded(&ICE40);
}
#[test]
fn ecp5_crc_k2_b9_w32_preloaded() {
    check_preloaded(&ECP5);
}

/// Counting cores: every bank of 2^b counters of c bits in the minimal block RAMs,
/// ceil(2^b c / block bits) each (iCE40: 4 SB_RAM40_4K for 2^12 x 4; ECP5: 1 DP16KD).
/// And every bank keeps its own copy of each of `KEPT_MODULES` through synthesis (its
/// present6, its copies of the registers loaded alike in every bank, its term's OR):
/// flattened, synthesis merges the copies into one and the banks share it across the chip.
fn check_counting(
    k: u32,
    bank_bits: u32,
    key_bits: u32,
    hash: HashFamily,
    c: u32,
    family: &Family,
) {
    let params = hdl::CoreParams::new(k, bank_bits, key_bits, hash, 3)
        .unwrap()
        .with_counter_bits(c)
        .unwrap();
    let cfg = CoreConfig::from(params);
    let log = check_config(&cfg, family);
    for p in 0..k {
        for name in hdl::counting::partition::KEPT_MODULES {
            let section = format!("=== bloom_core_parts_{p}_{} ===", name.replace('$', "_"));
            assert!(
                log.contains(&section),
                "{}: no module {section} after synthesis: the copy was flattened",
                family.synth
            );
        }
    }
}
#[test]
fn ice40_h3_k4_b12_w64_c4() {
    check_counting(4, 12, 64, H3, 4, &ICE40);
}
#[test]
fn ecp5_h3_k4_b12_w64_c4() {
    check_counting(4, 12, 64, H3, 4, &ECP5);
}
#[test]
fn ice40_crc_k3_b9_w32_c2() {
    check_counting(3, 9, 32, Crc, 2, &ICE40);
}
#[test]
fn ecp5_crc_k2_b12_w32_c8() {
    check_counting(2, 12, 32, Crc, 8, &ECP5);
}
