//! Each partition's hash, for both families, as one affine map over GF(2):
//! `addr = (M * key) ^ c`. Address bit j is the parity of `key & column_mask[j]`, XORed
//! with bit j of `c`. H3 is linear (c = 0). A CRC over a fixed-length message is affine
//! in the message bits, so its matrix is read off by running the bit-serial CRC on the
//! all-zero key (giving c) and on every single-bit key (giving c ^ column).

use bloom_params::HashFamily;

use crate::config::CoreConfig;
use crate::hash::crc::CRC_ALGORITHMS;
use crate::hash::splitmix::h3_row;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashMatrix {
    pub key_bits: usize,
    pub bank_bits: usize,
    /// `column_mask[j]` bit i set: key bit i feeds address bit j. Length = bank_bits.
    pub column_mask: Vec<u128>,
    pub constant: u16,
}

impl HashMatrix {
    /// Partition `p`'s map for configuration `cfg` (seed as `cfg.seed_of_bank(p)`).
    pub fn for_partition(cfg: &CoreConfig, p: usize) -> HashMatrix {
        let seed = cfg.seed_of_bank(p);
        let rows: Vec<u16>;
        let constant: u16;
        match cfg.params.hash {
            HashFamily::H3 => {
                rows = (0..cfg.key_bits())
                    .map(|i| h3_row(seed, p, i, cfg.bank_bits()))
                    .collect();
                constant = 0;
            }
            HashFamily::Crc => {
                let crc_address = |key: u128| -> u16 {
                    let mut message = seed.to_le_bytes().to_vec();
                    message.extend_from_slice(&key.to_le_bytes()[..cfg.key_bits() / 8]);
                    let crc = CRC_ALGORITHMS[p % 8].compute(&message);
                    ((crc >> (16 * (p / 8))) & ((1u64 << cfg.bank_bits()) - 1)) as u16
                };
                constant = crc_address(0);
                rows = (0..cfg.key_bits())
                    .map(|i| crc_address(1u128 << i) ^ constant)
                    .collect();
            }
            HashFamily::Spn | HashFamily::Feistel => unreachable!(
                "the {} family is not an affine map: its units are built by HashUnit::for_partition",
                cfg.params.hash
            ),
        }
        let column_mask = (0..cfg.bank_bits())
            .map(|j| {
                rows.iter()
                    .enumerate()
                    .filter(|(_, row)| (*row >> j) & 1 == 1)
                    .fold(0u128, |m, (i, _)| m | (1u128 << i))
            })
            .collect();
        HashMatrix {
            key_bits: cfg.key_bits(),
            bank_bits: cfg.bank_bits(),
            column_mask,
            constant,
        }
    }

    /// The address this map gives `key` (the reference the hash unit's logic is checked against).
    pub fn apply(&self, key: u128) -> u16 {
        self.column_mask
            .iter()
            .enumerate()
            .fold(self.constant, |addr, (j, mask)| {
                addr ^ ((((key & mask).count_ones() & 1) as u16) << j)
            })
    }
}
