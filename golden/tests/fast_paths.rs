//! The golden model's two shortcuts against their plain definitions, at every corner of
//! the configuration space:
//! * the filter's addresses (H3 by byte-sliced tables of the matrix, CRC from a state that
//!   has absorbed the seed, SPN bitsliced) against contract §3 evaluated literally, for
//!   random keys;
//! * the key-file reader's one-pass parse of plain lines against the full line parser, on
//!   random files mixing every spelling of contract §2.1.

mod common;

use common::{mask_key, SplitMix64};
use golden::hash::{crc_checksum, crc_message, h3_row64};
use golden::keys::read_keys;
use golden::{CoreParams, HashFamily, PartitionedFilter};
use proptest::prelude::*;

/// Contract §3 literally: one row XOR per set key bit; one CRC over the whole message.
fn literal_address(cfg: &CoreParams, p: u32, key: u128) -> u32 {
    let mask = (1u64 << cfg.bank_bits) - 1;
    match cfg.hash {
        HashFamily::H3 => {
            ((0..cfg.key_bits)
                .filter(|&i| key >> i & 1 == 1)
                .fold(0u64, |acc, i| acc ^ h3_row64(cfg.seed, p, i))
                & mask) as u32
        }
        HashFamily::Crc => {
            let (message, len) = crc_message(cfg.seed, key, cfg.key_bits);
            let value = crc_checksum(p as usize % 8, &message[..len]).unwrap();
            ((value >> (16 * (p / 8))) & mask) as u32
        }
        HashFamily::Spn => {
            golden::spn::SPN.address_naive(cfg.seed, cfg.key_bits, cfg.bank_bits, p, key)
        }
        HashFamily::Feistel => {
            golden::feistel::FEISTEL.address_naive(cfg.seed, cfg.key_bits, cfg.bank_bits, p, key)
        }
    }
}

#[test]
fn addresses_equal_the_literal_definition_at_every_corner() {
    let mut rng = SplitMix64::new(2024);
    let mut checked = 0;
    for hash in HashFamily::ALL {
        for k in [1u32, 2, 7, 8, 9, 16] {
            for bank_bits in [6u32, 11, 12, 16] {
                for key_bits in [32u32, 64, 128] {
                    if !hash.key_bits_allowed().contains(&(key_bits as u64)) {
                        continue;
                    }
                    for seed in [0u64, 1, u64::MAX, rng.next_u64()] {
                        let cfg = CoreParams::new(k, bank_bits, key_bits, hash, seed).unwrap();
                        let filter = PartitionedFilter::new(cfg);
                        let edges = [
                            0u128,
                            1,
                            mask_key(u128::MAX, key_bits),
                            1u128 << (key_bits - 1),
                        ];
                        let keys = edges.into_iter().chain((0..40).map(|_| rng.key(key_bits)));
                        for key in keys {
                            let fast = filter.addresses(key).unwrap();
                            for p in 0..k {
                                assert_eq!(
                                    fast[p as usize],
                                    literal_address(&cfg, p, key),
                                    "{cfg} p={p} key={key:#x}"
                                );
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    // Feistel is defined for two key widths, the others for three.
    let widths = (HashFamily::ALL.len() * 3 - 1) as u32;
    assert_eq!(checked, widths * 6 * 4 * 4 * 44);
}

#[derive(Clone, Debug)]
enum Spelling {
    Decimal,
    LowerHex,
    UpperHex,
    Underscored,
    LeadingZeros,
    Blanks,
    Crlf,
    Commented,
}

fn spelled(key: u128, how: &Spelling) -> String {
    match how {
        Spelling::Decimal => format!("{key}\n"),
        Spelling::LowerHex => format!("{key:#x}\n"),
        Spelling::UpperHex => format!("0X{key:X}\n"),
        Spelling::Underscored => {
            let digits = format!("{key:x}");
            let grouped: Vec<String> = digits
                .as_bytes()
                .rchunks(4)
                .rev()
                .map(|c| String::from_utf8(c.to_vec()).unwrap())
                .collect();
            format!("0x{}\n", grouped.join("_"))
        }
        Spelling::LeadingZeros => format!("000{key}\n"),
        Spelling::Blanks => format!(" \t{key}\t \n"),
        Spelling::Crlf => format!("{key}\r\n"),
        Spelling::Commented => format!("{key} # key\n# a comment line\n\n"),
    }
}

fn spelling() -> impl Strategy<Value = Spelling> {
    prop_oneof![
        Just(Spelling::Decimal),
        Just(Spelling::LowerHex),
        Just(Spelling::UpperHex),
        Just(Spelling::Underscored),
        Just(Spelling::LeadingZeros),
        Just(Spelling::Blanks),
        Just(Spelling::Crlf),
        Just(Spelling::Commented),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Whatever mix of spellings, the reader returns exactly the keys written.
    #[test]
    fn every_spelling_reads_back_as_its_key(
        entries in prop::collection::vec((any::<u128>(), prop::sample::select(vec![32u32, 64, 128]), spelling()), 0..200),
        key_bits in prop::sample::select(vec![32u32, 64, 128]),
    ) {
        let mut text = String::new();
        let mut want = Vec::new();
        for (raw, width, how) in &entries {
            let key = mask_key(*raw, (*width).min(key_bits));
            text.push_str(&spelled(key, how));
            want.push(key);
        }
        let mut got = Vec::new();
        let n = read_keys(text.as_bytes(), "p", key_bits, |k| got.push(k)).unwrap();
        prop_assert_eq!(n as usize, want.len());
        prop_assert_eq!(got, want);
    }

    /// Arbitrary bytes never panic the reader, and whatever it accepts fits the width.
    #[test]
    fn arbitrary_bytes_are_read_or_refused_never_panic(
        bytes in prop::collection::vec(prop::sample::select(b"0123456789abcdefxX_ +-#\r\n\t\xEF\xBB\xBF\x00z".to_vec()), 0..400),
        key_bits in prop::sample::select(vec![32u32, 64, 128]),
    ) {
        let max = mask_key(u128::MAX, key_bits);
        if let Ok(n) = read_keys(&bytes[..], "fuzz", key_bits, |k| assert!(k <= max)) {
            prop_assert!(n as usize <= bytes.len());
        }
    }
}
