//! The signature line a bloom bitstream carries in its header comment (module
//! `swap`'s doc gives its form), the banks' digest, and reading a bitstream's header
//! to find its signature: what the file is, and which filter it holds where.

use super::invalid;
use crate::bitstream::{self, Header};
use crate::board::Family;
use crate::bram::Mapping;
use crate::FlowError;
use hdl::CoreParams;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

pub const SIGNATURE_TAG: &str = "bloom-bitstream v1";

/// Where one block-RAM cell sits: an iCE40 RAM tile or an ECP5 EBR number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Site {
    Ice40Tile { x: u32, y: u32 },
    Ecp5Ebr { wid: u32 },
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Site::Ice40Tile { x, y } => write!(f, "{x},{y}"),
            Site::Ecp5Ebr { wid } => write!(f, "{wid}"),
        }
    }
}

impl Site {
    fn parse(mapping: Mapping, text: &str) -> Option<Site> {
        match mapping.family() {
            Family::Ice40 => {
                let (x, y) = text.split_once(',')?;
                Some(Site::Ice40Tile {
                    x: x.parse().ok()?,
                    y: y.parse().ok()?,
                })
            }
            Family::Ecp5 => Some(Site::Ecp5Ebr {
                wid: text.parse().ok()?,
            }),
        }
    }
}

/// The line a bloom bitstream carries in its header comment.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    pub params: CoreParams,
    pub mapping: Mapping,
    /// Per bank, its cells in cell order.
    pub banks: Vec<Vec<Site>>,
    pub image_sha256: [u8; 32],
}

impl Signature {
    pub fn line(&self) -> String {
        let cells: Vec<String> = self
            .banks
            .iter()
            .map(|b| b.iter().map(Site::to_string).collect::<Vec<_>>().join("+"))
            .collect();
        format!(
            "{SIGNATURE_TAG} {} map={} cells={} image-sha256={}",
            self.params,
            self.mapping.name(),
            cells.join(";"),
            hex(&self.image_sha256)
        )
    }

    /// Parses a signature line; None if the line is not one, an error if it is one but broken.
    pub fn parse(line: &str) -> Option<Result<Signature, FlowError>> {
        let rest = line.strip_prefix(SIGNATURE_TAG)?.strip_prefix(' ')?;
        Some(
            Self::parse_fields(rest)
                .map_err(|e| invalid(format!("the bitstream's bloom signature is damaged: {e}"))),
        )
    }

    fn parse_fields(rest: &str) -> Result<Signature, String> {
        let mut fields: BTreeMap<&str, &str> = BTreeMap::new();
        for token in rest.split(' ') {
            let (k, v) = token
                .split_once('=')
                .ok_or_else(|| format!("`{token}` is not NAME=VALUE"))?;
            if fields.insert(k, v).is_some() {
                return Err(format!("field {k} given twice"));
            }
        }
        let mut take = |k: &str| fields.remove(k).ok_or_else(|| format!("field {k} missing"));
        let mapping_name = take("map")?;
        let mapping =
            Mapping::parse(mapping_name).ok_or_else(|| format!("unknown map `{mapping_name}`"))?;
        let cells = take("cells")?;
        let digest = take("image-sha256")?;
        let mut texts = BTreeMap::new();
        for p in bloom_params::PARAMS {
            match take(p.name) {
                Ok(text) => {
                    texts.insert(p.name, text.to_string());
                }
                // Left out at its default (bloom_params::Param::omitted_at_default).
                Err(_) if p.omitted_at_default => {}
                Err(e) => return Err(e),
            }
        }
        if let Some(k) = fields.keys().next() {
            return Err(format!("unknown field {k}"));
        }
        let params =
            CoreParams::from_lookup(|p| texts.get(p.name).cloned()).map_err(|e| e.to_string())?;
        if !mapping.counter_bits().contains(&params.counter_bits) {
            return Err(format!(
                "map {} is not for counters of {} bit(s)",
                mapping.name(),
                params.counter_bits
            ));
        }
        let per_bank = mapping.cells_per_bank(params.bank_bits, params.counter_bits);
        let banks: Vec<Vec<Site>> = cells
            .split(';')
            .map(|b| {
                b.split('+')
                    .map(|s| Site::parse(mapping, s).ok_or_else(|| format!("bad cell `{s}`")))
                    .collect()
            })
            .collect::<Result<_, _>>()?;
        if banks.len() != params.k as usize || banks.iter().any(|b| b.len() != per_bank) {
            return Err(format!(
                "cells `{cells}` are not {} banks of {per_bank} cell(s)",
                params.k
            ));
        }
        let image_sha256 =
            unhex(digest).ok_or_else(|| format!("image-sha256 `{digest}` is not 64 hex digits"))?;
        Ok(Signature {
            params,
            mapping,
            banks,
            image_sha256,
        })
    }
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64
        || !text
            .bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// SHA-256 of the banks' contents (module doc): bits (`counter_bits` 1) or counters.
pub fn image_digest(counter_bits: u32, banks: &[Vec<u8>]) -> [u8; 32] {
    let mut h = Sha256::new();
    for bank in banks {
        if counter_bits > 1 {
            h.update(bank);
            continue;
        }
        let mut bytes = vec![0u8; bank.len().div_ceil(8)];
        for (a, &bit) in bank.iter().enumerate() {
            bytes[a / 8] |= u8::from(bit != 0) << (a % 8);
        }
        h.update(&bytes);
    }
    h.finalize().into()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The signature in a bitstream's header; errors say plainly what the file is not.
pub fn signature_of(bytes: &[u8]) -> Result<(Header, Signature), FlowError> {
    let header = bitstream::read_header(bytes)?;
    let sig = header
        .comments
        .iter()
        .find_map(|c| Signature::parse(c))
        .ok_or_else(|| invalid(format!(
            "not a bloom bitstream: its header comment has no `{SIGNATURE_TAG}` signature (it was not built by \
             `bloom build`, by a version that does not record its filter's place, or its build found no proved \
             block-RAM map for its banks, as its report says (a counting filter whose counters Yosys laid out in \
             another mode): rebuild it with --preload instead)"
        )))??;
    if sig.mapping.family() != header.family {
        return Err(invalid(format!(
            "the bitstream is an {} bitstream but its signature describes {} block RAM",
            header.family,
            sig.mapping.family()
        )));
    }
    Ok((header, sig))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(mapping: Mapping, k: u32, b: u32) -> Signature {
        sig_c(mapping, k, b, 1)
    }

    fn sig_c(mapping: Mapping, k: u32, b: u32, counter_bits: u32) -> Signature {
        let params = CoreParams::new(k, b, 64, hdl::HashFamily::H3, 7)
            .unwrap()
            .with_counter_bits(counter_bits)
            .unwrap();
        let per = mapping.cells_per_bank(b, counter_bits);
        let banks = (0..k)
            .map(|p| {
                (0..per)
                    .map(|c| match mapping.family() {
                        Family::Ice40 => Site::Ice40Tile {
                            x: 6 + c as u32,
                            y: 2 * p + 1,
                        },
                        Family::Ecp5 => Site::Ecp5Ebr {
                            wid: 10 * p + c as u32,
                        },
                    })
                    .collect()
            })
            .collect();
        Signature {
            params,
            mapping,
            banks,
            image_sha256: [0xab; 32],
        }
    }

    #[test]
    fn signature_line_round_trip() {
        for (m, k, b) in [
            (Mapping::Ice40Ram40, 4, 12),
            (Mapping::Ice40Ram40, 2, 14),
            (Mapping::Ecp5Dp16kd, 3, 16),
        ] {
            let s = sig(m, k, b);
            let line = s.line();
            assert!(line.starts_with("bloom-bitstream v1 k="), "{line}");
            assert_eq!(Signature::parse(&line).unwrap().unwrap(), s);
        }
        let line = sig(Mapping::Ice40Ram40, 2, 14).line();
        assert!(
            line.contains("cells=6,1+7,1+8,1+9,1;6,3+7,3+8,3+9,3 "),
            "{line}"
        );
        for (m, k, b, c) in [
            (Mapping::Ice40Ram40Counters, 2, 12, 2),
            (Mapping::Ice40Ram40Counters, 4, 12, 4),
            (Mapping::Ecp5Dp16kdX2, 2, 13, 2),
            (Mapping::Ecp5Dp16kdX4, 3, 12, 3),
            (Mapping::Ecp5Dp16kdX9, 1, 16, 8),
        ] {
            let s = sig_c(m, k, b, c);
            let line = s.line();
            assert!(
                line.contains(&format!("counter_bits={c} ")) && line.contains(m.name()),
                "{line}"
            );
            assert_eq!(Signature::parse(&line).unwrap().unwrap(), s);
        }
        // A map that is not for the signature's counters.
        let line = sig_c(Mapping::Ecp5Dp16kdX4, 2, 12, 4)
            .line()
            .replace("map=ecp5-dp16kd-x4", "map=ecp5-dp16kd-x1");
        let e = Signature::parse(&line).unwrap().unwrap_err().to_string();
        assert!(
            e.contains("ecp5-dp16kd-x1 is not for counters of 4 bit(s)"),
            "{e}"
        );
    }

    #[test]
    fn broken_signatures_are_errors_other_lines_are_not_signatures() {
        assert!(Signature::parse("Part: LFE5U-85F-6CABGA381").is_none());
        let good = sig(Mapping::Ecp5Dp16kd, 2, 12).line();
        let cases = [
            (good.replace("k=2", "k=3"), "not 3 banks"),
            (good.replace("k=2", "k=2 k=2"), "given twice"),
            (good.replace(" map=ecp5-dp16kd-x1", ""), "field map missing"),
            (
                good.replace("map=ecp5-dp16kd-x1", "map=xilinx"),
                "unknown map",
            ),
            (good.replace("bank_bits=12", "bank_bits=40"), "bank_bits"),
            (good.replace("abab", "zz"), "64 hex digits"),
            (good.clone() + " extra=1", "unknown field extra"),
        ];
        for (line, needle) in cases {
            let e = Signature::parse(&line).unwrap().unwrap_err().to_string();
            assert!(
                e.contains("signature is damaged") && e.contains(needle),
                "{line}: {e}"
            );
        }
    }

    #[test]
    fn digest_depends_on_every_bit_and_bank_order() {
        let a = vec![vec![0u8; 64], vec![1u8; 64]];
        let mut b = a.clone();
        b[0][63] = 1;
        let c = vec![a[1].clone(), a[0].clone()];
        assert_ne!(image_digest(1, &a), image_digest(1, &b));
        assert_ne!(image_digest(1, &a), image_digest(1, &c));
        assert_eq!(image_digest(1, &a), image_digest(1, &a.clone()));
        // Counters: every bit of every counter counts.
        let mut d = a.clone();
        d[1][5] = 3;
        assert_ne!(image_digest(2, &a), image_digest(2, &d));
        d[1][5] = 2;
        assert_ne!(image_digest(2, &a), image_digest(2, &d));
    }
}
