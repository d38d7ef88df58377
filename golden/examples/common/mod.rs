//! Address functions shared by the design-space examples (hash_candidates,
//! hash_networks): the SPN and Feistel networks as [`Addresser`]s, and the
//! unstructured reference.

use golden::feistel::FeistelBlocks;
use golden::spn::SpnBlocks;
use golden::structured::Addresser;

pub struct Spn {
    pub blocks: SpnBlocks,
    pub bank_bits: u32,
}

impl Addresser for Spn {
    fn addresses_into(&self, key: u128, out: &mut [u32]) {
        self.blocks.addresses_into(key, self.bank_bits, out);
    }
}

#[allow(dead_code)] // hash_candidates measures no Feistel network.
pub struct Feistel {
    pub blocks: FeistelBlocks,
    pub bank_bits: u32,
}

impl Addresser for Feistel {
    fn addresses_into(&self, key: u128, out: &mut [u32]) {
        self.blocks.addresses_into(key, self.bank_bits, out);
    }
}

/// A reference with no structure to exploit: SplitMix64's finaliser of the
/// key (both halves of a 128-bit key, chained) per partition, keyed by the
/// seed. Not buildable on a LUT fabric at one key per clock cheaply (two
/// 64-bit multiplications per partition); it shows the suite's noise floor.
pub struct Ideal {
    pub seed: u64,
    pub bank_bits: u32,
}

impl Addresser for Ideal {
    fn addresses_into(&self, key: u128, out: &mut [u32]) {
        for (p, address) in out.iter_mut().enumerate() {
            let low = golden::hash::splitmix64_output(self.seed ^ (p as u64) << 56, key as u64);
            let mixed = golden::hash::splitmix64_output(low, (key >> 64) as u64);
            *address = (mixed >> 20) as u32 & ((1 << self.bank_bits) - 1);
        }
    }
}
