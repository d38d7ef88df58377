//! Known-answer tests: values computed outside this crate.
//!
//! The SplitMix64 outputs for seed 0 are quoted in docs/contract.md §3.1. The
//! H3 and CRC addresses below were computed with an independent Python 3
//! script (big integers, a bit-by-bit CRC written from the RevEng model
//! parameters, its check values verified against the table of contract §3.2
//! first), not with this crate or the `crc` crate:
//!
//! ```python
//! def sm(s, j):
//!     z = (s + (j + 1) * 0x9E3779B97F4A7C15) & M
//!     z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
//!     z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
//!     return z ^ (z >> 31)
//! def crc(width, poly, init, refin, refout, xorout, data):   # bitwise, MSB-first register
//!     ...
//! ```

use golden::hash::{crc_checksum, h3_row64, splitmix64_output, CRC_ALGORITHM_NAMES};
use golden::{CoreParams, HashFamily, PartitionedFilter};

#[test]
fn crc_catalogue_check_values_over_123456789() {
    // (name, check) from docs/contract.md §3.2, in partition order p mod 8.
    let table: [(&str, u64); 8] = [
        ("CRC-32/ISCSI", 0xE306_9283),
        ("CRC-32/ISO-HDLC", 0xCBF4_3926),
        ("CRC-32/AUTOSAR", 0x1697_D06A),
        ("CRC-32/BASE91-D", 0x8731_5576),
        ("CRC-32/MEF", 0xD2C2_2F51),
        ("CRC-32/AIXM", 0x3010_BF7F),
        ("CRC-64/XZ", 0x995D_C9BB_DF19_39FA),
        ("CRC-64/MS", 0x75D4_B74F_024E_CEEA),
    ];
    for (algorithm, (name, check)) in table.iter().enumerate() {
        assert_eq!(CRC_ALGORITHM_NAMES[algorithm], *name);
        assert_eq!(
            crc_checksum(algorithm, b"123456789"),
            Some(*check),
            "{name}"
        );
    }
}

#[test]
fn splitmix64_seed0_outputs_0_and_1() {
    assert_eq!(splitmix64_output(0, 0), 0xE220_A839_7B1D_CDAF);
    assert_eq!(splitmix64_output(0, 1), 0x6E78_9E6A_A1B9_65F4);
}

#[test]
fn h3_rows_use_stride_128_per_partition() {
    // Python: sm(0x0123456789ABCDEF, 128*2 + i) for i = 0, 2, 63.
    let seed = 0x0123_4567_89AB_CDEF;
    assert_eq!(h3_row64(seed, 2, 0), 0x4b2a_0d3e_ad6d_d455);
    assert_eq!(h3_row64(seed, 2, 2), 0xce16_0356_fbc1_b836);
    assert_eq!(h3_row64(seed, 2, 63), 0x6227_d6a6_980d_dd92);
}

#[test]
fn h3_k4_b12_w64_address_of_one_key() {
    // Key 0x8000000000000005 sets bits 0, 2 and 63, so partition 2's address
    // is the low 12 bits of rows 256, 258 and 319 XORed:
    // 0x455 ^ 0x836 ^ 0xd92 = 0x1f1 (Python, above).
    let cfg = CoreParams::new(4, 12, 64, HashFamily::H3, 0x0123_4567_89AB_CDEF).unwrap();
    let filter = PartitionedFilter::new(cfg);
    assert_eq!(filter.addresses(0x8000_0000_0000_0005).unwrap()[2], 0x1f1);
    // The matrix does not depend on k.
    let cfg16 = CoreParams { k: 16, ..cfg };
    assert_eq!(
        PartitionedFilter::new(cfg16)
            .addresses(0x8000_0000_0000_0005)
            .unwrap()[2],
        0x1f1
    );
}

#[test]
fn crc_k16_b13_w64_addresses_of_one_key() {
    // Seed 0x0123456789ABCDEF, key 0x1122334455667788: message (hex)
    // efcdab8967452301 8877665544332211. Python's bitwise CRCs:
    //   p = 5  CRC-32/AIXM     = 0x47921a1e,          field 0 -> 0x1a1e & 0x1fff = 0x1a1e
    //   p = 9  CRC-32/ISO-HDLC = 0x699d8403,          field 1 -> 0x699d & 0x1fff = 0x099d
    //   p = 14 CRC-64/XZ       = 0xfe69293172d55055,  field 1 -> 0x72d5 & 0x1fff = 0x12d5
    let cfg = CoreParams::new(16, 13, 64, HashFamily::Crc, 0x0123_4567_89AB_CDEF).unwrap();
    let addrs = PartitionedFilter::new(cfg)
        .addresses(0x1122_3344_5566_7788)
        .unwrap();
    assert_eq!(addrs[5], 0x1a1e);
    assert_eq!(addrs[9], 0x099d);
    assert_eq!(addrs[14], 0x12d5);
}

/// The rows of the Markdown table in docs/contract.md's section `section`
/// (its heading) whose header starts with `header`, each split into its cells.
fn contract_table(section: &str, header: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/contract.md"))
        .expect("docs/contract.md");
    let section = &text[text.find(section).expect("the contract's section")..];
    let start = section.find(header).expect("the table");
    section[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

fn number(text: &str) -> u128 {
    u128::from_str_radix(text.trim_start_matches("0x"), 16)
        .unwrap_or_else(|_| text.parse().unwrap())
}

/// Contract §3.3's test vectors (computed by scripts/spn_vectors.py from the
/// contract's text, one bit at a time), against the golden model's bitsliced
/// units and its literal definition.
#[test]
fn spn_blocks_and_addresses_equal_the_contract_vectors() {
    let blocks = contract_table("### 3.3 SPN", "| W | seed | block t |");
    assert_eq!(blocks.len(), 4);
    for row in &blocks {
        let (w, seed, t, key) = (
            row[0].parse::<u32>().unwrap(),
            number(&row[1]) as u64,
            row[2].parse::<u32>().unwrap(),
            number(&row[3]),
        );
        let literal = golden::spn::SPN.block_naive(seed, w, t, key);
        assert_eq!(literal, number(&row[4]), "{row:?}");
        let fast = golden::spn::SpnBlocks::new(&golden::spn::SPN, seed, w, t + 1);
        assert_eq!(fast.block(t as usize, key), literal, "{row:?}");
    }
    let addresses = address_vectors("### 3.3 SPN", HashFamily::Spn);
    assert_eq!(addresses.len(), 9);
    for (cfg, key, expected) in &addresses {
        let filter = PartitionedFilter::new(*cfg);
        assert_eq!(
            &filter.addresses(*key).unwrap(),
            expected,
            "{cfg} key {key:#x}"
        );
    }
}

/// The rows of the `| W | k | b | seed | key | addresses |` table of the contract's
/// section `section`: each row's configuration of `family`, its key and its addresses.
fn address_vectors(section: &str, family: HashFamily) -> Vec<(CoreParams, u128, Vec<u32>)> {
    contract_table(section, "| W | k | b | seed | key | addresses |")
        .iter()
        .map(|row| {
            let (w, k, b, seed) = (
                row[0].parse::<u32>().unwrap(),
                row[1].parse::<u32>().unwrap(),
                row[2].parse::<u32>().unwrap(),
                number(&row[3]) as u64,
            );
            let expected = row[5]
                .split_whitespace()
                .map(|a| u32::from_str_radix(a, 16).unwrap())
                .collect();
            (
                CoreParams::new(k, b, w, family, seed).unwrap(),
                number(&row[4]),
                expected,
            )
        })
        .collect()
}

/// Contract §3.4's test vectors (computed by scripts/feistel_cost.py from the
/// contract's text, one bit at a time), against the golden model's units (a
/// half per machine word) and its bit-by-bit definition.
#[test]
fn feistel_addresses_equal_the_contract_vectors() {
    let addresses = address_vectors("### 3.4 Feistel", HashFamily::Feistel);
    assert_eq!(addresses.len(), 7);
    for (cfg, key, expected) in &addresses {
        let filter = PartitionedFilter::new(*cfg);
        assert_eq!(
            &filter.addresses(*key).unwrap(),
            expected,
            "{cfg} key {key:#x}"
        );
        // The same addresses from the definition, a bit at a time.
        let literal: Vec<u32> = (0..cfg.k)
            .map(|p| {
                golden::feistel::FEISTEL.address_naive(
                    cfg.seed,
                    cfg.key_bits,
                    cfg.bank_bits,
                    p,
                    *key,
                )
            })
            .collect();
        assert_eq!(&literal, expected, "{cfg} key {key:#x}");
    }
}
