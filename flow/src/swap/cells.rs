//! Locating the filter in a bitstream, per family: iCE40 through iceunpack and the
//! bank tiles' `.ram_data`, ECP5 through the `.bit`'s EBR init blocks (or Trellis's
//! ecpunpack for an independent readback); the banks read and written through the
//! signature's map.

use super::signature::{signature_of, Signature, Site};
use super::{invalid, io};
use crate::bitstream::{self, Asc, Header};
use crate::board::Family;
use crate::tools::{self, Progress, Tool};
use crate::FlowError;
use hdl::CoreParams;
use std::path::Path;

/// An unpacked or patched bitstream, with its banks reachable through a signature.
pub(super) enum Open {
    Ice40 {
        asc: Asc,
    },
    Ecp5 {
        bytes: Vec<u8>,
        blocks: Vec<Vec<usize>>,
    },
}

/// Largest bitstream read (an ECP5-85F's uncompressed `.bit` is about 2.3 MB).
pub(super) const BITSTREAM_LIMIT: u64 = 64 << 20;

/// The bytes of a bitstream file: a regular file of at most [`BITSTREAM_LIMIT`] bytes
/// (a FIFO or a device is refused, not waited on or read for ever).
pub(super) fn read_bitstream(path: &Path) -> Result<Vec<u8>, FlowError> {
    bloom_files::read_file(path, "bitstream", BITSTREAM_LIMIT).map_err(|e| invalid(e.to_string()))
}

/// A private scratch directory for the unpacker, removed when dropped or on a signal.
pub(super) fn scratch(tag: &str) -> Result<bloom_files::ScratchDir, FlowError> {
    bloom_files::ScratchDir::create(tag).map_err(|e| FlowError::Io(e.to_string()))
}

fn iceunpack(bytes: &[u8], work: &Path) -> Result<Asc, FlowError> {
    let bin = work.join("in.bin");
    std::fs::write(&bin, bytes).map_err(|e| io("writing", &bin, e))?;
    tools::run(
        Tool::Iceunpack,
        &["in.bin".into(), "in.asc".into()],
        work,
        &work.join("iceunpack.log"),
        &Progress::quiet(),
    )?;
    let path = work.join("in.asc");
    Asc::parse(&std::fs::read_to_string(&path).map_err(|e| io("reading", &path, e))?)
}

pub(super) fn open(
    bytes: &[u8],
    header: &Header,
    sig: &Signature,
    work: &Path,
) -> Result<Open, FlowError> {
    match sig.mapping.family() {
        Family::Ice40 => {
            let asc = iceunpack(bytes, work)?;
            for (p, bank) in sig.banks.iter().enumerate() {
                for (c, site) in bank.iter().enumerate() {
                    let Site::Ice40Tile { x, y } = *site else {
                        unreachable!("an iCE40 signature has tiles")
                    };
                    if asc.ram(x, y).is_none() {
                        return Err(invalid(format!(
                            "bank {p} cell {c}: the bitstream has no block RAM at tile ({x}, {y})"
                        )));
                    }
                }
            }
            Ok(Open::Ice40 { asc })
        }
        Family::Ecp5 => {
            let blocks = sig
                .banks
                .iter()
                .enumerate()
                .map(|(p, bank)| {
                    bank.iter()
                        .enumerate()
                        .map(|(c, site)| {
                            let Site::Ecp5Ebr { wid } = *site else {
                                unreachable!("an ECP5 signature has EBRs")
                            };
                            bitstream::ebr_block(bytes, header.end, wid)
                                .map_err(|e| invalid(format!("bank {p} cell {c}: {e}")))
                        })
                        .collect::<Result<Vec<_>, _>>()
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Open::Ecp5 {
                bytes: bytes.to_vec(),
                blocks,
            })
        }
    }
}

impl Open {
    fn cell(&self, sig: &Signature, p: usize, c: usize) -> Vec<bool> {
        match (self, sig.banks[p][c]) {
            (Open::Ice40 { asc }, Site::Ice40Tile { x, y }) => {
                asc.ram(x, y).expect("checked when opened")
            }
            (Open::Ecp5 { bytes, blocks }, _) => bitstream::ebr_bits(bytes, blocks[p][c]),
            _ => unreachable!("site and family agree"),
        }
    }

    pub(super) fn banks(&self, sig: &Signature) -> Vec<Vec<u8>> {
        (0..sig.banks.len())
            .map(|p| {
                let cells: Vec<Vec<bool>> = (0..sig.banks[p].len())
                    .map(|c| self.cell(sig, p, c))
                    .collect();
                sig.mapping
                    .bank_of_cells(sig.params.bank_bits, sig.params.counter_bits, &cells)
            })
            .collect()
    }

    pub(super) fn write_banks(&mut self, sig: &Signature, banks: &[Vec<u8>]) {
        for (p, bank) in banks.iter().enumerate() {
            for (c, bits) in sig
                .mapping
                .cells_of_bank(sig.params.counter_bits, bank)
                .iter()
                .enumerate()
            {
                match (&mut *self, sig.banks[p][c]) {
                    (Open::Ice40 { asc }, Site::Ice40Tile { x, y }) => {
                        asc.set_ram(x, y, bits);
                    }
                    (Open::Ecp5 { bytes, blocks }, _) => {
                        bitstream::set_ebr_bits(bytes, blocks[p][c], bits)
                    }
                    _ => unreachable!("site and family agree"),
                }
            }
        }
    }
}

/// The filter a bloom bitstream holds (bits, or counters), read through its signature
/// with the swap's own reader (iCE40: iceunpack; ECP5: the `.bit`'s EBR blocks).
pub fn banks_of(bytes: &[u8]) -> Result<(Signature, Vec<Vec<u8>>), FlowError> {
    let (header, sig) = signature_of(bytes)?;
    let work = scratch("read")?;
    let opened = open(bytes, &header, &sig, work.path())?;
    Ok((sig.clone(), opened.banks(&sig)))
}

/// The filter a bloom bitstream holds, read with the family's unpacker (icestorm's
/// iceunpack, Trellis's ecpunpack: not the swap's ECP5 reader) and the signature's map.
pub fn read_back(bitstream: &Path) -> Result<(Signature, Vec<Vec<u8>>), FlowError> {
    let bytes = read_bitstream(bitstream)?;
    let (_, sig) = signature_of(&bytes)?;
    let work = scratch("readback")?;
    let banks = match sig.mapping.family() {
        Family::Ice40 => {
            let asc = iceunpack(&bytes, work.path())?;
            read_sites(&sig, |site| match site {
                Site::Ice40Tile { x, y } => asc.ram(x, y),
                _ => None,
            })?
        }
        Family::Ecp5 => {
            let bit = work.path().join("in.bit");
            std::fs::write(&bit, &bytes).map_err(|e| io("writing", &bit, e))?;
            let args: Vec<String> = vec![
                "--input".into(),
                "in.bit".into(),
                "--textcfg".into(),
                "in.config".into(),
            ];
            tools::run(
                Tool::Ecpunpack,
                &args,
                work.path(),
                &work.path().join("ecpunpack.log"),
                &Progress::quiet(),
            )?;
            let cfg = work.path().join("in.config");
            let text = std::fs::read_to_string(&cfg).map_err(|e| io("reading", &cfg, e))?;
            if !bitstream::config_comments(&text)
                .iter()
                .any(|c| c == &sig.line())
            {
                return Err(invalid(
                    "ecpunpack does not give the signature back as a comment",
                ));
            }
            let brams = bitstream::config_brams(&text)?;
            read_sites(&sig, |site| match site {
                Site::Ecp5Ebr { wid } => brams.get(&wid).cloned(),
                _ => None,
            })?
        }
    };
    Ok((sig, banks))
}

fn read_sites(
    sig: &Signature,
    init: impl Fn(Site) -> Option<Vec<bool>>,
) -> Result<Vec<Vec<u8>>, FlowError> {
    sig.banks
        .iter()
        .enumerate()
        .map(|(p, bank)| {
            let cells = bank
                .iter()
                .map(|&s| {
                    init(s).ok_or_else(|| {
                        invalid(format!(
                            "bank {p}: the unpacked bitstream has no block RAM at {s}"
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(sig
                .mapping
                .bank_of_cells(sig.params.bank_bits, sig.params.counter_bits, &cells))
        })
        .collect()
}

/// Bits (of the bits, or of the counters) that differ between two filters of one
/// shape, per bank.
pub fn differing_bits(a: &[Vec<u8>], b: &[Vec<u8>]) -> Vec<u64> {
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            x.iter()
                .zip(y)
                .map(|(p, q)| u64::from((p ^ q).count_ones()))
                .sum()
        })
        .collect()
}

/// Set bits, or non-zero counters, per bank.
pub fn fills(banks: &[Vec<u8>]) -> Vec<u64> {
    banks
        .iter()
        .map(|b| b.iter().filter(|x| **x != 0).count() as u64)
        .collect()
}

/// Bank bits of a filter: k 2^b c.
pub fn bank_bits_total(params: &CoreParams) -> u64 {
    params.total_bits() * u64::from(params.counter_bits)
}
