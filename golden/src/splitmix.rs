//! SplitMix64 as the contract uses it (§3.1): the stream every family's seed expands
//! into (H3's rows, the SPN's round keys) and the golden model's own random numbers.

/// SplitMix64's increment (contract §3.1).
pub const SPLITMIX64_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The j-th output (j = 0, 1, ...) of SplitMix64 seeded with `seed`.
pub fn splitmix64_output(seed: u64, j: u64) -> u64 {
    let mut z = seed.wrapping_add(j.wrapping_add(1).wrapping_mul(SPLITMIX64_GAMMA));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
