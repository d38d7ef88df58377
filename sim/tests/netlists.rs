//! What is flashed is what is verified: the co-simulation (every port in every
//! cycle against the golden model, stress traffic with random resets, bit
//! writes, readbacks and clears, the memory image read back) run on the core
//! as the FPGA tools make it: after `synth_ice40`, after `synth_ecp5`, and
//! placed, routed, packed and read back from the iCE40 bitstream; the default
//! configuration at every kind and two others (one per synthesized kind), all
//! started from a preloaded image with thousands of ones per bank. Netlists
//! and models are cached by content (target/verilator-cache), so a second run
//! builds nothing. Longer runs: `bloom sim --netlist KIND` (README).
//!
//! Teeth: a synthesized netlist broken after synthesis (one LUT's INIT bit, one
//! block RAM's INIT bit) is caught, with the cycle and the operation.
//!
//! Counting cores (contract §7) go through the same: 2-bit counters in the
//! smallest banks (saturation, deletes of absent keys, deletes after
//! saturation all happen), synthesized for iCE40 and ECP5, started from a
//! counting image with saturated counters in every bank, checked by the same
//! checker against the golden counting filter; and one counter bit of a
//! counting bank's block RAM flipped after synthesis is caught by the readback.

mod common;

use common::assert_counting_situations_met;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use golden::HashFamily::{Crc, Feistel, Spn, H3};
use golden::{CountingFilter, PartitionedFilter};
use sim::netlist::{self, NetlistKind};
use sim::traffic::ReadyPattern;
use sim::PowerUp;
use sim::{CoSim, RunOptions, TrafficShape, VerilatedCore};

/// Stress operations per test (tens of thousands: the models build once,
/// the runs are short).
const OPS: u64 = 20_000;

fn params(k: u32, b: u32, w: u32, h: golden::HashFamily, seed: u64) -> hdl::CoreParams {
    hdl::CoreParams::new(k, b, w, h, seed).unwrap()
}

/// The image `export` writes, in Cargo's scratch directory for integration
/// tests (`target/tmp/netlist-image-LABEL-HASH`, HASH of its files), where
/// every test and run that writes the same image shares it: written under a
/// name of this process, then renamed into place, so no test reads a
/// half-written image and an image of changed code never passes for an old
/// one. Its contents, not its path, go into the generated Verilog.
fn image_once(label: &str, export: impl FnOnce(&Path)) -> PathBuf {
    static LOCK: OnceLock<std::sync::Mutex<()>> = OnceLock::new();
    let _guard = LOCK
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let tmp = scratch.join(format!("netlist-image-{label}.tmp{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    export(&tmp);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let texts: Vec<Vec<u8>> = files
        .iter()
        .flat_map(|f| {
            [
                f.file_name().unwrap().as_encoded_bytes().to_vec(),
                std::fs::read(f).unwrap(),
            ]
        })
        .collect();
    let parts: Vec<&[u8]> = texts.iter().map(Vec::as_slice).collect();
    let hash = sim::verilator::hash128(&parts);
    let dir = scratch.join(format!("netlist-image-{label}-{hash:032x}"));
    if std::fs::rename(&tmp, &dir).is_err() {
        // There already, written by another test process or run.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    assert!(
        dir.join(golden::image::IMAGE_HEADER).exists(),
        "{}",
        dir.display()
    );
    dir
}

/// An image of `params` with about half of every bank set (thousands of ones
/// in a 4096-bit bank).
fn image(params: &hdl::CoreParams) -> PathBuf {
    let label = format!(
        "k{}-b{}-w{}-{}-{}",
        params.k, params.bank_bits, params.key_bits, params.hash, params.seed
    );
    image_once(&label, |dir| {
        let mut g = PartitionedFilter::new(*params);
        let mut rng = sim::traffic::Rng::new(0x1a9e ^ params.seed);
        // ln 2 * bank size keys: each bank about half full.
        for _ in 0..(params.bank_size() as f64 * std::f64::consts::LN_2) as usize {
            g.insert(rng.key(params.key_bits)).unwrap();
        }
        g.export_image(dir).unwrap();
    })
}

fn preloaded(params: &hdl::CoreParams) -> hdl::CoreConfig {
    hdl::CoreConfig {
        preload: Some(image(params)),
        ..hdl::CoreConfig::from(*params)
    }
}

fn build(config: &hdl::CoreConfig, kind: NetlistKind) -> sim::core::KindCore {
    sim::core::build_core(
        config,
        kind,
        false,
        PowerUp::default(),
        &flow::tools::Progress::quiet(),
    )
    .unwrap_or_else(|e| panic!("{kind} of {}: {e}", config.label()))
}

fn list(c: &CoSim) -> String {
    c.checker
        .first
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The image in the core read back (from the first cycle, a preloaded one):
/// no mismatch; `what` names it in the failure.
fn assert_image_reads_back(cosim: &mut CoSim, what: &str) {
    let wrong = cosim.check_image(&mut ReadyPattern::default()).unwrap();
    assert_eq!(wrong, 0, "{what} read back wrong:\n{}", list(cosim));
}

/// `opts`' traffic with no mismatch; `what` names it in the failure.
fn run_clean(cosim: &mut CoSim, opts: &RunOptions, what: &str) -> sim::RunReport {
    let r = cosim.run_inline(opts, &mut |_, _| {}).unwrap();
    assert_eq!(r.mismatches, 0, "{what}:\n{}", list(cosim));
    r
}

/// Stress traffic with resets (about `resets_per_recount` per recount's length of
/// cycles) and the image compared `checkpoints` times: no mismatch, and a reset met.
fn run_stress_with_resets(
    cosim: &mut CoSim,
    shape: TrafficShape,
    resets_per_recount: f64,
    checkpoints: u64,
    seed: u64,
    label: &str,
) -> sim::RunReport {
    let mut opts = RunOptions::stress(OPS, cosim.core.config.params.key_bits, seed);
    opts.shape = shape;
    opts.shape.p_reset = resets_per_recount / cosim.core.timing.reset_busy_cycles as f64;
    opts.checkpoint_every = OPS / checkpoints;
    let r = run_clean(cosim, &opts, &format!("{label}: stress traffic"));
    assert!(
        r.resets.resets > 0,
        "{label}: the stress traffic reset the core ({})",
        r.resets
    );
    r
}

/// Back-to-back saturating traffic: no mismatch, one operation per clock.
fn run_saturating(cosim: &mut CoSim, seed: u64, label: &str) -> sim::RunReport {
    let key_bits = cosim.core.config.params.key_bits;
    let mut opts = RunOptions::stress(OPS, key_bits, seed);
    opts.shape = TrafficShape::saturating(key_bits);
    let s = run_clean(cosim, &opts, &format!("{label}: saturating traffic"));
    assert!(
        s.ops_per_cycle() > 0.95,
        "{label}: one operation per clock, got {:.3}",
        s.ops_per_cycle()
    );
    s
}

/// The preloaded image read back from the first cycle (fill counters compared
/// in every cycle of the recount), stress traffic with resets, bit writes and
/// clears, the image read back at a checkpoint and at the end, then a burst of
/// saturating traffic: no mismatch anywhere.
fn run_preloaded(p: hdl::CoreParams, kind: NetlistKind) {
    let config = preloaded(&p);
    let built = build(&config, kind);
    let golden =
        PartitionedFilter::import_image_expecting(config.preload.as_ref().unwrap(), &p).unwrap();
    let ones: u32 = golden.fill().iter().sum();
    let mut cosim = CoSim::with_golden(built.core, golden).unwrap();
    let label = format!("{kind} {p}");
    assert_image_reads_back(
        &mut cosim,
        &format!("{label}: the preloaded image ({ones} ones)"),
    );
    // Resets often enough that a short run meets several (about one per
    // recount's length of cycles).
    let shape = TrafficShape::reset_heavy(p.key_bits, &cosim.core.timing);
    let r = run_stress_with_resets(&mut cosim, shape, 1.0, 2, 7, &label);
    let s = run_saturating(&mut cosim, 8, &label);
    println!(
        "{kind} {p}: preload {ones} ones read back; stress {} ops ({}), saturating {} ops at {:.3} ops/cycle; 0 mismatches; {:.0} ops/s saturating",
        r.ops,
        r.resets,
        s.ops,
        s.ops_per_cycle(),
        s.ops_per_second()
    );
}

fn default_params() -> hdl::CoreParams {
    hdl::CoreParams::default()
}

#[test]
fn rtl_h3_k4_b12_w64_preloaded_stress_and_saturating() {
    run_preloaded(default_params(), NetlistKind::Rtl);
}

#[test]
fn ice40_h3_k4_b12_w64_preloaded_stress_and_saturating() {
    run_preloaded(default_params(), NetlistKind::Ice40);
}

#[test]
fn ecp5_h3_k4_b12_w64_preloaded_stress_and_saturating() {
    run_preloaded(default_params(), NetlistKind::Ecp5);
}

#[test]
fn ice40_routed_h3_k4_b12_w64_preloaded_stress_and_saturating() {
    run_preloaded(default_params(), NetlistKind::Ice40Routed);
}

/// k above 8, CRC, 32-bit keys, banks of two iCE40 block RAMs (bank bits above 12).
#[test]
fn ice40_crc_k7_b13_w32_preloaded() {
    run_preloaded(params(7, 13, 32, Crc, 2), NetlistKind::Ice40);
}

/// The SPN family, the default filter's shape (its units flattened and merged).
#[test]
fn ice40_spn_k4_b12_w64_preloaded() {
    run_preloaded(params(4, 12, 64, Spn, 5), NetlistKind::Ice40);
}

/// The Feistel family, the default filter's shape: its network kept whole, its
/// request line in front of the stages.
#[test]
fn ice40_feistel_k4_b12_w64_preloaded() {
    run_preloaded(params(4, 12, 64, Feistel, 5), NetlistKind::Ice40);
}

/// Sixteen partitions, 128-bit keys, the smallest banks.
#[test]
fn ecp5_h3_k16_b6_w128_preloaded() {
    run_preloaded(params(16, 6, 128, H3, 4), NetlistKind::Ecp5);
}

// ---- teeth ----

/// A small preloaded core for the broken netlists (short builds).
fn teeth_params() -> hdl::CoreParams {
    params(2, 8, 32, H3, 11)
}

/// The iCE40 netlist of the teeth core with `mutate` applied to its text,
/// simulated; the co-simulation after a readback of the image and stress traffic.
fn broken_run(mutate: Option<&dyn Fn(&str) -> String>) -> CoSim {
    broken_run_of(&preloaded(&teeth_params()), mutate)
}

/// [`broken_run`] of any preloaded configuration (plain or counting).
fn broken_run_of(config: &hdl::CoreConfig, mutate: Option<&dyn Fn(&str) -> String>) -> CoSim {
    let p = config.params;
    let config = config.clone();
    let generated = hdl::generate_core(&config).unwrap();
    let n = netlist::make(
        &generated.verilog,
        &generated.top,
        NetlistKind::Ice40,
        &flow::tools::Progress::quiet(),
    )
    .unwrap();
    let broken = match mutate {
        Some(m) => m(&n.verilog),
        None => n.verilog.clone(),
    };
    assert_eq!(
        broken != n.verilog,
        mutate.is_some(),
        "the mutation changed the netlist"
    );
    let lib = sim::build(&broken, &n.top, &n.build_options(false)).unwrap();
    let core =
        VerilatedCore::from_library(config.clone(), generated.timing, lib, PowerUp::default())
            .unwrap();
    let golden =
        CountingFilter::import_image_expecting(config.preload.as_ref().unwrap(), &p).unwrap();
    let mut cosim = CoSim::with_golden(core, golden).unwrap();
    cosim.check_image(&mut ReadyPattern::default()).unwrap();
    let mut opts = RunOptions::stress(OPS, p.key_bits, 3);
    opts.shape = TrafficShape::stress_for(p.key_bits, &cosim.core.timing);
    cosim.run_inline(&opts, &mut |_, _| {}).unwrap();
    cosim
}

/// The netlist unbroken passes (so the teeth below bite on the change alone).
#[test]
fn ice40_teeth_core_unbroken_passes() {
    let c = broken_run(None);
    assert_eq!(c.checker.mismatches, 0, "{}", list(&c));
}

/// One bit of one hash LUT's truth table (a 4-input XOR, the hash's parity
/// trees) flipped: a wrong bank address for 1 key in 16 at that LUT.
#[test]
fn ice40_teeth_one_lut_init_bit_flipped_is_caught_with_cycle_and_operation() {
    // Each hash unit is a module of its own in the netlist (kept whole in
    // synthesis): the first 4-input parity of partition 0's.
    let lut = "    .LUT_INIT(16'h6996)\n  ) ";
    let c = broken_run(Some(&|t: &str| {
        let unit = t
            .find("module bloom_core_parts_0_hash(")
            .expect("partition 0's hash unit is a module of the netlist");
        let at = unit
            + t[unit..]
                .find(lut)
                .expect("the netlist has a 4-input parity LUT in partition 0's hash unit");
        format!(
            "{}{}{}",
            &t[..at],
            lut.replace("6996", "6997"),
            &t[at + lut.len()..]
        )
    }));
    assert!(
        c.checker.mismatches > 0,
        "a LUT with a wrong truth table must be caught"
    );
    let first = &c.checker.first[0];
    assert!(first.cycle > 0);
    println!(
        "LUT INIT flipped: {} mismatches; first: {first}",
        c.checker.mismatches
    );
    assert!(
        c.checker.first.iter().any(|m| m.op_index.is_some()),
        "a mismatch names its operation: {}",
        list(&c)
    );
}

/// One INIT bit of one block RAM flipped (a bit of the preloaded image): the
/// readback from the first cycle names the bank and address.
#[test]
fn ice40_teeth_one_block_ram_init_bit_flipped_is_caught_by_the_readback() {
    let c = broken_run(Some(&|t: &str| {
        let at = t.find(".INIT_0(256'h").expect("a block RAM") + ".INIT_0(256'h".len() + 63;
        let digit = u8::from_str_radix(&t[at..at + 1], 16).unwrap() ^ 1;
        format!("{}{:x}{}", &t[..at], digit, &t[at + 1..])
    }));
    assert!(
        c.checker.mismatches > 0,
        "a block RAM with a wrong initial bit must be caught"
    );
    let first = &c.checker.first[0];
    println!(
        "RAM INIT flipped: {} mismatches; first: {first}",
        c.checker.mismatches
    );
    assert!(
        c.checker
            .first
            .iter()
            .any(|m| m.what.contains("rb_data") || m.what.contains("fill_count")),
        "the readback or the recount's fill count shows it: {}",
        list(&c)
    );
}

// ---- counting cores ----

/// 2-bit counters, smallest banks, CRC, 32-bit keys: the configuration whose
/// counters saturate within a few operations.
fn counting_c2_params() -> hdl::CoreParams {
    params(3, 6, 32, Crc, 0x1234_5678_9abc_def0)
        .with_counter_bits(2)
        .unwrap()
}

/// A counting image of `params` in which every bank has saturated counters
/// and zero counters (keys inserted twice over a small pool, so that counters
/// pile up).
fn counting_image(params: &hdl::CoreParams) -> PathBuf {
    image_once(&hdl::CoreConfig::from(*params).label(), |dir| {
        let mut g = CountingFilter::from_config(*params).unwrap();
        let mut rng = sim::traffic::Rng::new(0xc0c0 ^ params.seed);
        let keys: Vec<u128> = (0..params.bank_size() / 3)
            .map(|_| rng.key(params.key_bits))
            .collect();
        for key in keys.iter().chain(&keys) {
            g.insert(*key).unwrap();
        }
        let size = params.bank_size();
        assert!(
            g.saturated().iter().all(|&s| s > 0)
                && g.fill().iter().all(|&f| f > size / 4 && f < size),
            "every bank has saturated and zero counters: saturated {:?}, fill {:?}",
            g.saturated(),
            g.fill()
        );
        g.export_image(dir).unwrap();
    })
}

fn counting_preloaded(params: &hdl::CoreParams) -> hdl::CoreConfig {
    hdl::CoreConfig {
        preload: Some(counting_image(params)),
        ..hdl::CoreConfig::from(*params)
    }
}

/// The counting image read back counter by counter from the first cycle,
/// stress traffic with deletes, counter writes, resets and clears (images
/// compared at checkpoints), then back-to-back traffic: no mismatch, and the
/// situations of contract §7 each met many times.
fn run_counting_preloaded(p: hdl::CoreParams, kind: NetlistKind) {
    let config = counting_preloaded(&p);
    let built = build(&config, kind);
    let golden =
        CountingFilter::import_image_expecting(config.preload.as_ref().unwrap(), &p).unwrap();
    let (nonzero, saturated): (u32, u32) =
        (golden.fill().iter().sum(), golden.saturated().iter().sum());
    let mut cosim = CoSim::with_golden(built.core, golden).unwrap();
    let label = format!("{kind} {p}");
    assert_image_reads_back(
        &mut cosim,
        &format!("{label}: the preloaded counting image"),
    );
    let shape = TrafficShape::stress_for(p.key_bits, &cosim.core.timing);
    let r = run_stress_with_resets(&mut cosim, shape, 0.1, 4, 17, &label);
    let e = r.counting;
    assert!(
        e.deletes > OPS / 10 && e.deletes_carried_out > 1000,
        "{kind} {p}: {e}"
    );
    assert_counting_situations_met(&e, &label);
    let s = run_saturating(&mut cosim, 18, &label);
    assert_image_reads_back(&mut cosim, &format!("{label}: the final image"));
    println!(
        "{kind} {p}: preload {nonzero} non-zero counters ({saturated} saturated) read back; stress {} ops ({}; {e}), saturating {} ops at {:.3} ops/cycle; 0 mismatches",
        r.ops,
        r.resets,
        s.ops,
        s.ops_per_cycle(),
    );
}

#[test]
fn ice40_counting_crc_k3_b6_w32_c2_preloaded_stress_and_saturating() {
    run_counting_preloaded(counting_c2_params(), NetlistKind::Ice40);
}

#[test]
fn ecp5_counting_crc_k3_b6_w32_c2_preloaded_stress_and_saturating() {
    run_counting_preloaded(counting_c2_params(), NetlistKind::Ecp5);
}

/// One counter bit of one counting bank's block RAM flipped after synthesis:
/// the readback of the preloaded image names the bank and address.
#[test]
fn ice40_counting_teeth_one_block_ram_init_bit_flipped_is_caught_by_the_readback() {
    let config = counting_preloaded(&counting_c2_params());
    let c = broken_run_of(
        &config,
        Some(&|t: &str| {
            let at = t.find(".INIT_0(256'h").expect("a block RAM") + ".INIT_0(256'h".len() + 63;
            let digit = u8::from_str_radix(&t[at..at + 1], 16).unwrap() ^ 1;
            format!("{}{:x}{}", &t[..at], digit, &t[at + 1..])
        }),
    );
    assert!(
        c.checker.mismatches > 0,
        "a counting block RAM with a wrong initial bit must be caught"
    );
    let first = &c.checker.first[0];
    println!(
        "counting RAM INIT flipped: {} mismatches; first: {first}",
        c.checker.mismatches
    );
    assert!(
        c.checker
            .first
            .iter()
            .any(|m| m.what.contains("counter_rdata")
                || m.what.contains("fill_count")
                || m.what.contains("saturated")),
        "the readback, the fill or the saturated count shows it: {}",
        list(&c)
    );
}

// ---- bad input ----

/// A netlist whose ports are not the configuration's is refused before
/// anything is simulated.
#[test]
fn netlist_with_other_ports_is_refused() {
    let p = teeth_params();
    let g32 = hdl::generate_core(&hdl::CoreConfig::from(p)).unwrap();
    let g64 = hdl::generate_core(&hdl::CoreConfig::from(params(2, 8, 64, H3, 11))).unwrap();
    let n = netlist::make(
        &g32.verilog,
        &g32.top,
        NetlistKind::Ice40,
        &flow::tools::Progress::quiet(),
    )
    .unwrap();
    let dir = std::env::temp_dir().join(format!("bloom-netlist-ports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("netlist.v");
    std::fs::write(&file, &n.verilog).unwrap();
    let e = netlist::from_file(&file, &g64.verilog, &g64.top, NetlistKind::Ice40)
        .unwrap_err()
        .to_string();
    assert!(e.contains("ports differ") && e.contains("req_key"), "{e}");
    assert!(netlist::from_file(&file, &g32.verilog, &g32.top, NetlistKind::Ice40).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}
