//! Reading and patching the parts of iCE40 and ECP5 bitstreams that hold block-RAM
//! contents and the header comment.
//!
//! Header. Both packers start a bitstream with `FF 00`, then comment strings, each
//! ended by a NUL byte, then `FF` (icepack adds an empty string before it):
//! `.comment` lines of the iCE40 `.asc` (the text on the `.comment` line itself is
//! dropped) and of the ECP5 `.config` (there it is kept) become those strings, and
//! iceunpack / ecpunpack give them back. The FPGA starts reading at the
//! synchronisation pattern after the header (iCE40 `7E AA 99 7E`, ECP5 preamble
//! `FF FF BD B3`), which is how Lattice's own tools use the header too; no CRC covers it.
//!
//! iCE40 block RAM: in an `.asc`, each RAM has a `.ram_data X Y` block of 16 lines of
//! 64 hex digits; line n is `INIT_n` as a 256-bit number, most significant digit first.
//! The binary format is left to icepack and iceunpack.
//!
//! ECP5 block RAM: Trellis writes each initialised EBR, uncompressed even in a
//! `--compress` bitstream, as `F6 00 00 00 <WID << 11, 32-bit big-endian>`
//! (LSC_EBR_ADDRESS), `B2 D0 01 00` (LSC_EBR_WRITE, 256 frames), 256 frames of 9 bytes
//! (8 words of 9 bits, big-endian: word 8f + j, bit i at bit 9j + 8 - i from the
//! frame's most significant bit), then a CRC-16 (polynomial 0x8005, initial value 0,
//! not reflected: CRC-16/UMTS) over those 2316 bytes (prjtrellis
//! libtrellis/src/Bitstream.cpp). The `.config` text form has `.bram_init WID` followed
//! by the 2048 words, 3 hex digits each.

use crate::board::Family;
use crate::FlowError;
use std::collections::HashMap;

const ICE40_SYNC: [u8; 4] = [0x7E, 0xAA, 0x99, 0x7E];
const ECP5_PREAMBLE: [u8; 4] = [0xFF, 0xFF, 0xBD, 0xB3];

fn invalid(msg: impl Into<String>) -> FlowError {
    FlowError::Refused(msg.into())
}

/// A bitstream's header: its comment strings and where the configuration data starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub family: Family,
    /// Non-empty comment strings, in order.
    pub comments: Vec<String>,
    /// Offset of the first byte after the header's closing `FF`.
    pub end: usize,
}

/// Reads the header of an iCE40 `.bin` or ECP5 `.bit`; anything else is an error.
pub fn read_header(bytes: &[u8]) -> Result<Header, FlowError> {
    let not_one = || {
        invalid("not an iCE40 or ECP5 bitstream (no FF 00 comment header followed by a synchronisation pattern)")
    };
    if bytes.len() < 8 || bytes[0] != 0xFF || bytes[1] != 0x00 {
        return Err(not_one());
    }
    let mut comments = Vec::new();
    let mut i = 2;
    loop {
        match bytes.get(i) {
            None => return Err(not_one()),
            Some(0xFF) => break,
            Some(_) => {
                let len = bytes[i..]
                    .iter()
                    .position(|&b| b == 0)
                    .ok_or_else(not_one)?;
                let text = std::str::from_utf8(&bytes[i..i + len]).map_err(|_| not_one())?;
                if !text.is_empty() {
                    comments.push(text.to_string());
                }
                i += len + 1;
            }
        }
    }
    let end = i + 1;
    let rest = &bytes[end..];
    let family = if rest.starts_with(&ICE40_SYNC) {
        Family::Ice40
    } else if rest.starts_with(&ECP5_PREAMBLE) {
        Family::Ecp5
    } else {
        return Err(not_one());
    };
    Ok(Header {
        family,
        comments,
        end,
    })
}

/// The bitstream with its header comments replaced by `comments` (ECP5 layout:
/// strings, each NUL-ended, then `FF`).
pub fn with_comments(bytes: &[u8], header: &Header, comments: &[String]) -> Vec<u8> {
    let mut out = vec![0xFF, 0x00];
    for c in comments {
        out.extend_from_slice(c.as_bytes());
        out.push(0);
    }
    out.push(0xFF);
    out.extend_from_slice(&bytes[header.end..]);
    out
}

/// An iCE40 `.asc`, as lines, with the position of every `.ram_data` block.
pub struct Asc {
    pub lines: Vec<String>,
    ram_data: HashMap<(u32, u32), usize>,
}

impl Asc {
    pub fn parse(text: &str) -> Result<Asc, FlowError> {
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut ram_data = HashMap::new();
        for (i, l) in lines.iter().enumerate() {
            if let Some(rest) = l.strip_prefix(".ram_data ") {
                let xy: Vec<u32> = rest
                    .split_whitespace()
                    .filter_map(|t| t.parse().ok())
                    .collect();
                let ok = xy.len() == 2
                    && i + 16 < lines.len()
                    && lines[i + 1..=i + 16]
                        .iter()
                        .all(|d| d.len() == 64 && d.bytes().all(|c| c.is_ascii_hexdigit()));
                if !ok {
                    return Err(invalid(format!(
                        "malformed `.ram_data` block at line {} of the unpacked bitstream",
                        i + 1
                    )));
                }
                ram_data.insert((xy[0], xy[1]), i);
            }
        }
        Ok(Asc { lines, ram_data })
    }

    /// The 4096 init bits of the RAM at tile (x, y), if there is one.
    pub fn ram(&self, x: u32, y: u32) -> Option<Vec<bool>> {
        let i = *self.ram_data.get(&(x, y))?;
        let mut bits = vec![false; 4096];
        for n in 0..16 {
            let line = self.lines[i + 1 + n].as_bytes();
            for (d, &c) in line.iter().enumerate() {
                let v = (c as char).to_digit(16).expect("checked when parsed");
                for k in 0..4 {
                    bits[256 * n + 4 * (63 - d) + k] = (v >> k) & 1 == 1;
                }
            }
        }
        Some(bits)
    }

    /// Replaces the RAM at (x, y)'s init bits; false if there is no RAM there.
    pub fn set_ram(&mut self, x: u32, y: u32, bits: &[bool]) -> bool {
        let Some(&i) = self.ram_data.get(&(x, y)) else {
            return false;
        };
        for n in 0..16 {
            let line: String = (0..64)
                .map(|d| {
                    let v = (0..4).fold(0u32, |v, k| {
                        v | (bits[256 * n + 4 * (63 - d) + k] as u32) << k
                    });
                    char::from_digit(v, 16).unwrap()
                })
                .collect();
            self.lines[i + 1 + n] = line;
        }
        true
    }

    /// The `.comment` section's lines (those after `.comment` up to the next directive).
    pub fn comments(&self) -> Vec<String> {
        let Some(start) = self.lines.iter().position(|l| l.starts_with(".comment")) else {
            return Vec::new();
        };
        self.lines[start + 1..]
            .iter()
            .take_while(|l| !l.starts_with('.'))
            .filter(|l| !l.is_empty())
            .cloned()
            .collect()
    }

    /// Replaces the `.comment` section's lines (adding the section if there is none).
    pub fn set_comments(&mut self, comments: &[String]) {
        let start = match self.lines.iter().position(|l| l.starts_with(".comment")) {
            Some(s) => s,
            None => {
                self.lines.insert(0, ".comment".into());
                self.shift(0, 1);
                0
            }
        };
        let old = self.lines[start + 1..]
            .iter()
            .take_while(|l| !l.starts_with('.'))
            .count();
        self.lines
            .splice(start + 1..start + 1 + old, comments.iter().cloned());
        self.shift(start, comments.len() as isize - old as isize);
    }

    fn shift(&mut self, after: usize, by: isize) {
        for i in self.ram_data.values_mut() {
            if *i > after {
                *i = (*i as isize + by) as usize;
            }
        }
    }

    pub fn text(&self) -> String {
        let mut s = self.lines.join("\n");
        s.push('\n');
        s
    }
}

/// CRC-16/UMTS (poly 0x8005, init 0, not reflected), as Trellis checks EBR blocks.
pub fn crc16(data: &[u8]) -> u16 {
    const CRC: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_UMTS);
    CRC.checksum(data)
}

const EBR_DATA: usize = 256 * 9;
const EBR_HEAD: usize = 12;

fn ebr_head(wid: u32) -> [u8; EBR_HEAD] {
    let a = (wid << 11).to_be_bytes();
    [
        0xF6, 0, 0, 0, a[0], a[1], a[2], a[3], 0xB2, 0xD0, 0x01, 0x00,
    ]
}

/// Offset of EBR `wid`'s init block in an ECP5 bitstream: it must occur exactly once
/// after the header and carry a correct CRC.
pub fn ebr_block(bytes: &[u8], from: usize, wid: u32) -> Result<usize, FlowError> {
    let head = ebr_head(wid);
    let hits: Vec<usize> = bytes[from..]
        .windows(EBR_HEAD)
        .enumerate()
        .filter(|(_, w)| *w == head)
        .map(|(i, _)| from + i)
        .collect();
    let at = match hits.as_slice() {
        [one] => *one,
        [] => {
            return Err(invalid(format!(
                "the bitstream has no initial contents for block RAM {wid}"
            )))
        }
        _ => {
            return Err(invalid(format!(
                "the bitstream has {} blocks for block RAM {wid}; expected one",
                hits.len()
            )))
        }
    };
    let end = at + EBR_HEAD + EBR_DATA;
    if bytes.len() < end + 2 {
        return Err(invalid(format!(
            "the bitstream ends inside block RAM {wid}'s contents"
        )));
    }
    let stored = u16::from_be_bytes([bytes[end], bytes[end + 1]]);
    if crc16(&bytes[at..end]) != stored {
        return Err(invalid(format!(
            "block RAM {wid}'s contents fail their CRC: the bitstream is damaged"
        )));
    }
    Ok(at)
}

/// The 18432 init bits (bit 9w + i = word w, bit i) of the EBR block at `at`.
pub fn ebr_bits(bytes: &[u8], at: usize) -> Vec<bool> {
    let data = &bytes[at + EBR_HEAD..at + EBR_HEAD + EBR_DATA];
    let mut bits = vec![false; 18432];
    for w in 0..2048 {
        for i in 0..9 {
            let pos = 72 * (w / 8) + 9 * (w % 8) + 8 - i;
            bits[9 * w + i] = (data[pos / 8] >> (7 - pos % 8)) & 1 == 1;
        }
    }
    bits
}

/// Writes `bits` into the EBR block at `at` and renews its CRC.
pub fn set_ebr_bits(bytes: &mut [u8], at: usize, bits: &[bool]) {
    let data = &mut bytes[at + EBR_HEAD..at + EBR_HEAD + EBR_DATA];
    data.fill(0);
    for w in 0..2048 {
        for i in 0..9 {
            if bits[9 * w + i] {
                let pos = 72 * (w / 8) + 9 * (w % 8) + 8 - i;
                data[pos / 8] |= 1 << (7 - pos % 8);
            }
        }
    }
    let end = at + EBR_HEAD + EBR_DATA;
    let crc = crc16(&bytes[at..end]);
    bytes[end..end + 2].copy_from_slice(&crc.to_be_bytes());
}

/// Every `.bram_init WID` block of an ECP5 `.config` text: WID -> 18432 init bits.
pub fn config_brams(text: &str) -> Result<HashMap<u32, Vec<bool>>, FlowError> {
    let mut out = HashMap::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let Some(rest) = line.strip_prefix(".bram_init ") else {
            continue;
        };
        let wid: u32 = rest
            .trim()
            .parse()
            .map_err(|_| invalid(format!("malformed `.bram_init` at line {}", n + 1)))?;
        let mut bits = vec![false; 18432];
        let mut w = 0;
        while w < 2048 {
            let (m, l) = lines.next().ok_or_else(|| {
                invalid(format!("`.bram_init {wid}` ends after {w} of 2048 words"))
            })?;
            for t in l.split_whitespace() {
                let v = u32::from_str_radix(t, 16)
                    .ok()
                    .filter(|v| *v < 512 && w < 2048)
                    .ok_or_else(|| {
                        invalid(format!(
                            "bad word `{t}` in `.bram_init {wid}` at line {}",
                            m + 1
                        ))
                    })?;
                for i in 0..9 {
                    bits[9 * w + i] = (v >> i) & 1 == 1;
                }
                w += 1;
            }
        }
        out.insert(wid, bits);
    }
    Ok(out)
}

/// The `.comment` lines of an ECP5 `.config` (the text after `.comment `).
pub fn config_comments(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix(".comment "))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc16_umts_check_value() {
        assert_eq!(crc16(b"123456789"), 0xFEE8);
    }

    #[test]
    fn headers_of_both_families() {
        let ice = [
            0xFF, 0x00, b'h', b'i', 0, 0, 0xFF, 0x7E, 0xAA, 0x99, 0x7E, 0x51,
        ];
        let h = read_header(&ice).unwrap();
        assert_eq!(
            (h.family, h.comments.clone(), h.end),
            (Family::Ice40, vec!["hi".to_string()], 7)
        );
        let mut ecp = vec![0xFF, 0x00];
        ecp.extend_from_slice(b"Part: X\0");
        ecp.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0xBD, 0xB3, 0x01]);
        let h = read_header(&ecp).unwrap();
        assert_eq!(
            (h.family, h.comments.clone()),
            (Family::Ecp5, vec!["Part: X".to_string()])
        );
        let again = with_comments(&ecp, &h, &["Part: X".into(), "more".into()]);
        let h2 = read_header(&again).unwrap();
        assert_eq!(h2.comments, vec!["Part: X".to_string(), "more".to_string()]);
        assert_eq!(&again[h2.end..], &ecp[h.end..]);
        for bad in [
            &b"hello world, not a bitstream"[..],
            &[0xFF, 0x00, b'x', 0, 0xFF, 1, 2, 3, 4][..],
            &[][..],
        ] {
            assert!(read_header(bad).is_err());
        }
    }

    #[test]
    fn ebr_block_round_trip() {
        let mut bytes = vec![0x11; 40];
        bytes.extend_from_slice(&ebr_head(5));
        bytes.extend(std::iter::repeat_n(0, EBR_DATA + 2));
        bytes.extend_from_slice(&[0x22; 10]);
        let at = 40;
        let bits: Vec<bool> = (0..18432).map(|n| (n * 7919) % 3 == 0).collect();
        set_ebr_bits(&mut bytes, at, &bits);
        assert_eq!(ebr_block(&bytes, 2, 5).unwrap(), at);
        assert_eq!(ebr_bits(&bytes, at), bits);
        assert!(ebr_block(&bytes, 2, 6).is_err());
        bytes[at + 100] ^= 1;
        assert!(ebr_block(&bytes, 2, 5)
            .unwrap_err()
            .to_string()
            .contains("CRC"));
    }

    #[test]
    fn asc_ram_data_and_comments() {
        let zero = "0".repeat(64);
        let mut text = String::from(".comment from next-pnr\n.device 5k\n.ram_data 6 19\n");
        for _ in 0..16 {
            text += &zero;
            text += "\n";
        }
        text += ".ramt_tile 6 20\n";
        let mut asc = Asc::parse(&text).unwrap();
        let mut bits = vec![false; 4096];
        bits[0] = true;
        bits[255] = true;
        bits[4095] = true;
        asc.set_comments(&["bloom-bitstream v1 test".into()]);
        assert!(asc.set_ram(6, 19, &bits));
        assert!(!asc.set_ram(6, 21, &bits));
        let again = Asc::parse(&asc.text()).unwrap();
        assert_eq!(again.ram(6, 19).unwrap(), bits);
        assert_eq!(
            again.comments(),
            vec!["bloom-bitstream v1 test".to_string()]
        );
        // INIT_0 bit 0 is the last hex digit of the block's first line, INIT_F bit 255 the first of its last.
        assert!(again.lines[4].starts_with('8') && again.lines[4].ends_with('1'));
        assert!(again.lines[19].starts_with('8'));
    }
}
