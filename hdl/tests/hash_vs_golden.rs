//! The hash units' GF(2) matrices (derived in hdl from the contract: its own SplitMix64
//! and bit-serial CRCs) give the golden model's addresses, for every partition up to
//! k = 16, every key width, both families, several bank sizes and seeds. The hash unit's
//! simulation and Verilog evaluate exactly these matrices (sim/tests/cycle_exact.rs).

use golden::rng::SplitMix64;
use golden::PartitionedFilter;
use hdl::hash::matrix::HashMatrix;
use hdl::HashFamily::{self, Crc, H3};

fn config(
    k: u32,
    bank_bits: usize,
    key_bits: usize,
    hash: HashFamily,
    seed: u64,
) -> hdl::CoreConfig {
    hdl::CoreConfig::from(
        hdl::CoreParams::new(k, bank_bits as u32, key_bits as u32, hash, seed).unwrap(),
    )
}

fn compare(hash: HashFamily, key_bits: usize, bank_bits: usize, seed: u64) {
    let cfg = config(16, bank_bits, key_bits, hash, seed);
    let g = PartitionedFilter::new(cfg.params);
    let matrices: Vec<HashMatrix> = (0..16)
        .map(|p| HashMatrix::for_partition(&cfg, p))
        .collect();
    let mask = if key_bits == 128 {
        u128::MAX
    } else {
        (1u128 << key_bits) - 1
    };
    let mut rng = SplitMix64::new(seed ^ key_bits as u64);
    let mut keys = vec![0, mask, 1, 1 << (key_bits - 1)];
    keys.extend((0..300).map(|_| rng.key(key_bits as u32)));
    for key in keys {
        let want = g.addresses(key).unwrap();
        for (p, m) in matrices.iter().enumerate() {
            assert_eq!(
                m.apply(key) as u32,
                want[p],
                "{hash} W={key_bits} b={bank_bits} seed={seed:#x} p={p} key={key:#x}"
            );
        }
    }
}

#[test]
fn h3_all_widths_and_bank_sizes() {
    for key_bits in [32, 64, 128] {
        for (bank_bits, seed) in [(6, 0), (12, 1), (16, u64::MAX)] {
            compare(H3, key_bits, bank_bits, seed);
        }
    }
}

#[test]
fn crc_all_widths_and_bank_sizes() {
    for key_bits in [32, 64, 128] {
        for (bank_bits, seed) in [(6, 0), (12, 0x0123_4567_89ab_cdef), (16, u64::MAX)] {
            compare(Crc, key_bits, bank_bits, seed);
        }
    }
}

#[test]
fn perturbed_seed_changes_only_that_bank() {
    let mut cfg = config(4, 12, 64, H3, 5);
    let base: Vec<HashMatrix> = (0..4).map(|p| HashMatrix::for_partition(&cfg, p)).collect();
    cfg.test_switches.perturb_seed_of_bank = Some(2);
    for (p, matrix) in base.iter().enumerate() {
        assert_eq!(
            HashMatrix::for_partition(&cfg, p) == *matrix,
            p != 2,
            "bank {p}"
        );
    }
}

/// The Feistel network as the hardware elaborates it (hdl/src/hash/feistel.rs, written
/// from the contract) against the golden model's units, every partition up to k = 16,
/// both key widths, one to eight blocks.
#[test]
fn feistel_network_gives_the_golden_addresses() {
    for key_bits in [32usize, 64] {
        for (k, bank_bits, seed) in [
            (4, 12, 0u64),
            (7, 13, 0x0bad_cafe),
            (16, 16, u64::MAX),
            (1, 6, 3),
        ] {
            let cfg = config(k, bank_bits, key_bits, hdl::HashFamily::Feistel, seed);
            let g = PartitionedFilter::new(cfg.params);
            let net = hdl::hash::feistel::FeistelNetwork::of(&cfg).unwrap();
            let mut rng = SplitMix64::new(seed ^ key_bits as u64);
            let mask = (1u128 << key_bits) - 1;
            let mut keys = vec![0, mask, 1, 1 << (key_bits - 1)];
            keys.extend((0..200).map(|_| rng.key(key_bits as u32)));
            for key in keys {
                let want = g.addresses(key).unwrap();
                for (p, &w) in want.iter().enumerate() {
                    assert_eq!(
                        net.address(key, p, bank_bits) as u32,
                        w,
                        "W={key_bits} k={k} b={bank_bits} seed={seed:#x} p={p} key={key:#x}"
                    );
                }
            }
        }
    }
}
