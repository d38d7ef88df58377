//! Software reference ("golden") model of the partitioned Bloom filter.
//!
//! This crate is one of two independent implementations of
//! `docs/contract.md` (the other is the hardware in `hdl/`); it is written
//! naively, straight from that text, so that it is obviously correct. With
//! the hardware it shares only the configuration of contract §1: the crate
//! `bloom_params` (the parameters' table, ranges and validation, `CoreParams`
//! as [`CoreParams`], [`HashFamily`]). Every hash, address, image and operation
//! is computed here from the contract alone, with no code, table or constant
//! of the hardware's.
//!
//! # Summary of the contract
//!
//! * [`CoreParams`]: k partitions (1..=16), banks of 2^b words (b in 6..=16),
//!   key width W in {32, 64, 128}, hash family, 64-bit seed, and c bits per
//!   word (1: a plain filter's bits; 2..=8: [`CountingFilter`]'s counters).
//! * A key is an unsigned integer of exactly W bits (`u128` here); a wider
//!   value is rejected with a [`KeyError`], never truncated.
//! * Partition p's address `a_p` is the b-bit output of hash unit p, used as
//!   is (no modulo, no mixing):
//!   * **H3**: `a_p = XOR of R[p][i] over the set bits i of the key`, where
//!     `R[p][i]` is the low b bits of SplitMix64 output number `128 p + i`
//!     for the seed ([`hash::splitmix64_output`]). Bit i of the key is
//!     `(key >> i) & 1`, bit 0 the least significant.
//!   * **CRC**: the message is the seed as 8 bytes little-endian followed by
//!     the key's W/8 bytes little-endian (byte j = `key[8j+7:8j]`, byte 0
//!     first); the bits of each byte are fed in the order the algorithm's
//!     `refin` says. Partition p runs catalogue algorithm `p mod 8`
//!     ([`hash::CRC_ALGORITHM_NAMES`], computed with the `crc` crate) and
//!     takes field `p div 8` (bits `[16f+15:16f]`) of the result; `a_p` is
//!     its low b bits. Every partition has its own polynomial or a disjoint
//!     field of the same CRC, never a CRC differing only by init/xorout.
//!   * **SPN**: a keyed substitution-permutation network over the key
//!     ([`spn`]): four planes of W/4 bits, RECTANGLE's S-box on every column,
//!     the planes rotated, a round key from SplitMix64 of the seed before
//!     every S-box layer; 5 rounds (6 for W = 128). Block t is the network
//!     with block t's round keys; address bit j of partition p is bit
//!     `g mod W` of block `g div W`, `g = p b + j`.
//! * [`structured`]: the structured-key suite: how far a family's false
//!   positives, fills and estimates depart from the theory on structured
//!   key sets (`bloom fpr check`).
//! * Bank p holds bit `a` at address `a`; the image of contract §4 is one
//!   `bankPP.hex` (`$readmemh`, one `0`/`1` line per address) per bank plus
//!   `image.json` ([`PartitionedFilter::export_image`], [`image`]).
//! * Key files (contract §2.1) are read by [`keys`], and a filter is built
//!   from one, streaming and on several threads, by [`build::build_filter`].
//! * Operations are sequential ([`Op`], contract §5): an insert answers hit
//!   iff all its bits were already set; a clear empties every bank; code 3
//!   is a query on this plain filter.
//! * [`CountingFilter`] (contract §7): the same banks hold saturating
//!   counters of c bits ([`CounterBits`], 1..=8); insert increments, delete
//!   (code 3) decrements the key's counters if all are non-zero, a counter at
//!   2^c - 1 never changes again until a clear; fill, saturated counts and
//!   the 0-1 projection ([`CountingFilter::to_plain`]).
//! * Lanes (contract §8): a beat of L slots is its operations in slot order,
//!   slot 0 first ([`PartitionedFilter::apply_beat`]); a beat either writes
//!   (an insert, a clear or a delete, in slot 0 alone) or reads (queries),
//!   and a beat that breaks that rule is refused whole
//!   ([`lanes::BeatOutcome::Refused`]).
//!
//! [`StandardFilter`] is a classic one-array filter with the same hash units,
//! for comparing layouts; it is not part of the hardware contract.

pub mod build;
pub mod config;
pub mod counting;
pub mod error;
pub mod feistel;
pub mod hash;
pub mod image;
pub mod keys;
pub mod lanes;
pub mod partitioned;
pub mod rng;
pub mod scrub;
pub mod splitmix;
pub mod spn;
pub mod standard;
pub mod structured;
pub mod theory;

pub use config::{CoreParams, HashFamily};
pub use counting::{CounterBits, CountingFilter, Deleted};
pub use error::{ConfigError, Error, ImageError, IncompatibleError, KeyError};
pub use image::{bank_file_name, IMAGE_HEADER};
pub use lanes::{BeatError, BeatOutcome, MAX_LANES};
pub use partitioned::{Op, PartitionedFilter, MAX_PARTITIONS};
pub use standard::{StandardConfig, StandardFilter};
