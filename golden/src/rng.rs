//! The one seeded generator of test traffic, keys and faults in the project
//! (tests, co-simulation traffic, line-fault injection, sample keys):
//! SplitMix64 ([`crate::hash::splitmix64_output`]) run as a stream from a
//! mixed seed. Not part of the contract; the hardware has its own SplitMix64
//! for the H3 rows, independent of this one.

use crate::hash::{splitmix64_output, SPLITMIX64_GAMMA};

/// A deterministic stream of 64-bit values.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The stream of `seed`. The seed is mixed first, so that a stream never
    /// runs along the H3 rows of a filter with the same seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 {
            state: splitmix64_output(seed ^ 0x5EED_5EED_5EED_5EED, 0),
        }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(SPLITMIX64_GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0), by multiply-shift.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// True with probability p.
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) < p
    }

    /// A uniformly random key of `key_bits` bits.
    #[inline]
    pub fn key(&mut self, key_bits: u32) -> u128 {
        let wide = ((self.next_u64() as u128) << 64) | self.next_u64() as u128;
        wide & crate::config::max_key(key_bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_below_is_roughly_uniform() {
        let (mut a, mut b, mut c) = (SplitMix64::new(1), SplitMix64::new(1), SplitMix64::new(2));
        let va: Vec<u64> = (0..100).map(|_| a.next_u64()).collect();
        assert_eq!(va, (0..100).map(|_| b.next_u64()).collect::<Vec<_>>());
        assert_ne!(va, (0..100).map(|_| c.next_u64()).collect::<Vec<_>>());
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            counts[a.below(10) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&n| (9_500..10_500).contains(&n)),
            "{counts:?}"
        );
        assert!((0..1000).all(|_| a.key(32) >> 32 == 0));
    }
}
