//! SplitMix64, written from contract §3.1 (the H3 rows' source). Elaboration-time only.

const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The j-th output (j = 0, 1, ...) of SplitMix64 seeded with `seed`.
pub fn splitmix64_output(seed: u64, j: u64) -> u64 {
    let mut z = seed.wrapping_add(j.wrapping_add(1).wrapping_mul(GAMMA));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Row `R[p][i]` of partition `p`'s H3 matrix: the low `bank_bits` bits of output 128p + i.
pub fn h3_row(seed: u64, p: usize, i: usize, bank_bits: usize) -> u16 {
    (splitmix64_output(seed, (128 * p + i) as u64) & ((1u64 << bank_bits) - 1)) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answers_from_contract() {
        assert_eq!(splitmix64_output(0, 0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64_output(0, 1), 0x6E78_9E6A_A1B9_65F4);
    }
}
