//! Shared configurations for the co-simulation tests. Few distinct builds, so
//! that the Verilator cache keeps the whole suite within a few minutes.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use golden::HashFamily::{Crc, Feistel, Spn, H3};
use proptest::prelude::*;
use sim::traffic::ReadyPattern;
use sim::{CoSim, ModelLibrary, VerilatedCore};

/// The default configuration (also used by `bloom sim` and the benchmark).
pub fn h3_k4_b12_w64() -> hdl::CoreConfig {
    hdl::CoreConfig::from(hdl::CoreParams::new(4, 12, 64, H3, 0).unwrap())
}
/// Smallest banks, CRC, 32-bit keys, odd k.
pub fn crc_k3_b6_w32() -> hdl::CoreConfig {
    hdl::CoreConfig::from(hdl::CoreParams::new(3, 6, 32, Crc, 0x1234_5678_9abc_def0).unwrap())
}
/// SPN, the default filter's shape: one block holds the four addresses.
pub fn spn_k4_b12_w64() -> hdl::CoreConfig {
    hdl::CoreConfig::from(hdl::CoreParams::new(4, 12, 64, Spn, 5).unwrap())
}
/// SPN over three 32-bit blocks, partitions whose bits span two blocks.
pub fn spn_k7_b13_w32() -> hdl::CoreConfig {
    hdl::CoreConfig::from(hdl::CoreParams::new(7, 13, 32, Spn, 0x0bad_cafe).unwrap())
}
/// SPN over 128-bit keys (six rounds), two blocks.
pub fn feistel_k4_b12_w64() -> hdl::CoreConfig {
    hdl::CoreConfig::from(hdl::CoreParams::new(4, 12, 64, Feistel, 5).unwrap())
}

pub fn feistel_k7_b13_w32() -> hdl::CoreConfig {
    hdl::CoreConfig::from(hdl::CoreParams::new(7, 13, 32, Feistel, 0x0bad_cafe).unwrap())
}

pub fn spn_k12_b12_w128() -> hdl::CoreConfig {
    hdl::CoreConfig::from(hdl::CoreParams::new(12, 12, 128, Spn, 9).unwrap())
}
/// One partition, smallest banks, 128-bit keys.
pub fn h3_k1_b6_w128() -> hdl::CoreConfig {
    hdl::CoreConfig::from(hdl::CoreParams::new(1, 6, 128, H3, 77).unwrap())
}
/// Eight partitions of the largest bank size; CRC fields of both CRC widths.
pub fn crc_k8_b16_w128() -> hdl::CoreConfig {
    hdl::CoreConfig::from(hdl::CoreParams::new(8, 16, 128, Crc, 3).unwrap())
}

type Slot = Arc<Mutex<Option<VerilatedCore>>>;

/// One built core per configuration per test process; tests take new instances.
fn built(spec: &hdl::CoreConfig) -> VerilatedCore {
    static BUILT: OnceLock<Mutex<HashMap<String, Slot>>> = OnceLock::new();
    let slot = BUILT
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry(spec.label())
        .or_default()
        .clone();
    let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
    if slot.is_none() {
        *slot = Some(
            VerilatedCore::build(spec, false)
                .unwrap_or_else(|e| panic!("building {}: {e}", spec.label())),
        );
    }
    slot.as_ref().unwrap().new_instance().unwrap()
}

/// A fresh model instance (from the cached build) with empty banks.
pub fn fresh(spec: &hdl::CoreConfig) -> CoSim {
    CoSim::from_core(built(spec)).unwrap()
}

pub fn library(spec: &hdl::CoreConfig) -> Arc<ModelLibrary> {
    built(spec).library
}

/// A fresh instance of the Verilated core of `spec` (from the cached build).
pub fn verilated(spec: &hdl::CoreConfig) -> VerilatedCore {
    built(spec)
}

/// The default configuration as a counting filter with 4-bit counters (the seeds' width).
pub fn h3_k4_b12_w64_c4() -> hdl::CoreConfig {
    hdl::CoreConfig::from(
        hdl::CoreParams::new(4, 12, 64, H3, 0)
            .unwrap()
            .with_counter_bits(4)
            .unwrap(),
    )
}
/// Smallest banks with 2-bit counters: saturation, deletes of absent keys and deletes
/// after saturation are frequent.
pub fn crc_k3_b6_w32_c2() -> hdl::CoreConfig {
    hdl::CoreConfig::from(
        hdl::CoreParams::new(3, 6, 32, Crc, 0x1234_5678_9abc_def0)
            .unwrap()
            .with_counter_bits(2)
            .unwrap(),
    )
}
/// One partition, smallest banks, 128-bit keys, the widest counters.
pub fn h3_k1_b6_w128_c8() -> hdl::CoreConfig {
    hdl::CoreConfig::from(
        hdl::CoreParams::new(1, 6, 128, H3, 77)
            .unwrap()
            .with_counter_bits(8)
            .unwrap(),
    )
}

/// The first mismatches of a report, one a line.
pub fn list(m: &[sim::Mismatch]) -> String {
    m.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs a sequence of (op code, key choice, gap) on a fresh instance of `spec`, keys
/// drawn from a pool of `pool_size` random keys plus the edge keys 0, the largest
/// and 1; the consumer's readiness repeats `ready`; the image is read back and
/// compared at the end.
pub fn run_sequence(
    spec: &hdl::CoreConfig,
    ops: &[(u8, u8, u8)],
    ready: &[bool],
    pool_seed: u64,
    pool_size: usize,
) -> Result<(), TestCaseError> {
    let mut cosim: CoSim = fresh(spec);
    let w = spec.params.key_bits;
    let mut rng = sim::traffic::Rng::new(pool_seed);
    let max = if w == 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    };
    let pool: Vec<u128> = (0..pool_size)
        .map(|_| rng.key(w))
        .chain([0, max, 1])
        .collect();
    let requests: Vec<sim::Request> = ops
        .iter()
        .enumerate()
        .map(|(i, &(op, key, _))| sim::Request {
            op,
            key: pool[key as usize % pool.len()],
            tag: i as u8,
        })
        .collect();
    let gaps: Vec<u32> = ops.iter().map(|&(_, _, g)| g as u32).collect();
    // (A consumer that is never ready would legitimately stall the core forever.)
    let mut consumer = ReadyPattern::new(ready.iter().copied().chain([true]).collect());
    cosim.run_requests(&requests, &gaps, &mut consumer).unwrap();
    cosim.check_image(&mut consumer).unwrap();
    let r = cosim.report();
    prop_assert_eq!(
        r.mismatches,
        0,
        "{}: {}",
        spec.label(),
        list(&r.first_mismatches)
    );
    prop_assert_eq!(r.responses, ops.len() as u64);
    Ok(())
}

/// `cases` random sequences of `ops` (see [`run_sequence`]) on `spec`.
pub fn property_of_sequences(
    spec: hdl::CoreConfig,
    cases: u32,
    ops: impl Strategy<Value = (u8, u8, u8)>,
    pool_size: usize,
) {
    // Build once, before proptest's timer-free loop, so a build error is clear.
    let _ = library(&spec);
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(ops in prop::collection::vec(ops, 1..160),
                        ready in prop::collection::vec(prop_oneof![3 => Just(true), 1 => Just(false)], 1..64),
                        pool_seed in any::<u64>())| {
        run_sequence(&spec, &ops, &ready, pool_seed, pool_size)?;
    });
}

/// Every situation of contract §7 met more than 100 times in a counting run:
/// inserts reaching and at saturation, deletes of absent keys, after saturation
/// and taking a counter to zero. `label` names the run in the failure.
pub fn assert_counting_situations_met(e: &sim::checker::CountingEvents, label: &str) {
    assert!(
        e.inserts_reaching_saturation > 100 && e.inserts_at_saturation > 100,
        "{label}: {e}"
    );
    assert!(
        e.deletes_of_absent > 100 && e.deletes_after_saturation > 100 && e.deletes_to_zero > 100,
        "{label}: {e}"
    );
}
