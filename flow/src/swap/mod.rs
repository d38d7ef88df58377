//! Filters inside bitstreams: what a build records so that the filter can be
//! replaced later without synthesis or place and route, the replacement itself, and
//! reading a bitstream's filter back.
//!
//! Why a direct patch and not icebram / ecpbram. Both tools find a RAM's slices by
//! content: they need a placeholder pattern in the bitstream whose every slice is
//! unique (an empty or sparse filter is refused, so a swapped bitstream cannot be
//! swapped again), yowasp's ecpbram exits 0 having replaced nothing when the pattern
//! is absent, and the ECP5 route needs the routed `.config` and ecppack (about 2 s).
//! Placement changes with every build, so the build records where each bank's cells
//! went, and the swap writes the cells there through the formulas of flow/src/bram.rs:
//! iCE40 by iceunpack, a rewrite of the bank tiles' `.ram_data`, icepack (~0.3 s);
//! ECP5 by rewriting the bank EBRs' init blocks of the `.bit` and their CRCs
//! (~0.1 s; byte for byte what ecpbram + ecppack make).
//!
//! What a build records. A signature line in the bitstream's own header comment
//! (flow/src/bitstream.rs), so that a copied bitstream keeps its description:
//!
//! ```text
//! bloom-bitstream v1 k=4 bank_bits=12 key_bits=64 hash=h3 seed=0 map=ice40-sb_ram40_4k-r2048x2 cells=6,19;6,21;6,17;6,15 image-sha256=...
//! ```
//!
//! (cells: per bank, `;` between banks, `+` between the cells of a bank in cell order;
//! iCE40 RAM tiles `x,y`, ECP5 EBR numbers), and a manifest beside the bitstream
//! (`NAME.swap.json`, [`Manifest`]) with the same facts, the cells' names, the tools
//! and the bitstream's SHA-256, for people and reports. `image-sha256` is the SHA-256
//! of the banks' contents, bank 0 first: a plain bank as 2^b / 8 bytes, address a in
//! byte a / 8, bit a % 8 (least significant first); a counting core's bank (its
//! signature has `counter_bits=C`, its map one of the counter maps of
//! flow/src/bram.rs) as 2^b bytes, counter a in byte a.
//!
//! Before recording, the build checks the mapping on its own netlist ([`record`]); a
//! bitstream whose netlist does not fit is still written, without a signature (not
//! swappable), rather than with a wrong map.
//!
//! A swap refuses, writing nothing: a file that is not an iCE40 or ECP5 bitstream; a
//! bitstream without a bloom signature; an image of another configuration (the
//! differing parameters named); a recorded cell that is not in the bitstream (or, on
//! ECP5, whose block fails its CRC); banks whose contents, read through the mapping, do
//! not hash to the signature's digest (the bitstream was changed by something else, or
//! the mapping does not address our banks; with a random image this catches a wrong
//! map with probability 1 - 2^-256). It writes the new bitstream under a temporary
//! name, reads every bank bit of it back, and only then renames it into place.

mod cells;
mod manifest;
mod record;
mod replace;
mod signature;

pub use cells::{bank_bits_total, banks_of, differing_bits, fills, read_back};
pub use manifest::{manifest_path, Manifest, ManifestCell, MANIFEST_FORMAT};
pub use record::{mapping_for, record, sign_routed, Recorded};
pub use replace::{swap, SwapReport};
pub use signature::{image_digest, sha256_hex, signature_of, Signature, Site, SIGNATURE_TAG};

use crate::FlowError;
use std::path::Path;

fn invalid(msg: impl Into<String>) -> FlowError {
    FlowError::Refused(msg.into())
}

fn io(what: &str, path: &Path, e: impl std::fmt::Display) -> FlowError {
    FlowError::Io(format!("{what} {}: {e}", path.display()))
}
