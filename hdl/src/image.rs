//! Reads a memory image (contract §4; §7.6 for a counting filter's counters) so that a
//! core can be generated with it as the banks' initial contents. Written from the contract, independently of the golden model:
//! the header is a serde-derived struct (which refuses unknown and repeated fields by
//! itself), the bank files are scanned byte by byte. An image is accepted completely or
//! not at all: every rule is checked before any bit is returned.

use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Deserializer};

use bloom_params::{CoreParams, HashFamily};

use crate::config::CoreConfig;
use crate::HdlError;

/// Largest `image.json` (contract §4.2).
const HEADER_LIMIT: u64 = 65_536;
/// Largest `bankPP.hex` (contract §4.3).
const BANK_LIMIT: u64 = 16_777_216;

/// `image.json`, field for field (contract §4.2). serde's derive refuses a missing,
/// unknown or repeated field, and a number with a sign, fraction or exponent where an
/// unsigned integer is declared.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    format: String,
    version: u64,
    k: u64,
    bank_bits: u64,
    key_bits: u64,
    hash: String,
    seed: u64,
    /// Version 2 only; a `null` is refused like any other non-integer.
    #[serde(default, deserialize_with = "present_u64")]
    counter_bits: Option<u64>,
    banks: Vec<String>,
}

fn present_u64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    u64::deserialize(deserializer).map(Some)
}

/// `version` of a plain filter's image (c = 1).
const PLAIN_VERSION: u64 = 1;
/// `version` of a counting filter's image (c = 2..=8, contract §7.6).
const COUNTING_VERSION: u64 = 2;

fn kind(params: &CoreParams) -> String {
    if params.counter_bits > 1 {
        format!("a counting filter (counter_bits = {})", params.counter_bits)
    } else {
        "a plain filter (counter_bits = 1)".to_string()
    }
}

fn image_error(path: &Path, message: impl std::fmt::Display) -> HdlError {
    HdlError::Image(format!("{}: {message}", path.display()))
}

/// Bits of every bank, `banks[p][a]`, of the plain image in `dir`, whose header must
/// describe exactly `cfg`'s k, bank_bits, key_bits, hash and seed, and c = 1.
pub fn read_image(dir: &Path, cfg: &CoreConfig) -> Result<Vec<Vec<bool>>, HdlError> {
    let counters = read_counter_image(dir, &cfg.params)?;
    if cfg.params.counter_bits > 1 {
        return Err(image_error(
            &dir.join("image.json"),
            "a counting image has counters, not bits",
        ));
    }
    Ok(counters
        .into_iter()
        .map(|bank| bank.into_iter().map(|v| v != 0).collect())
        .collect())
}

/// Values of every bank, `banks[p][a]` (bits for c = 1, counters for c > 1), of the
/// image in `dir`, whose header must describe exactly `params`, the counter width
/// included: a plain image for a counting filter is refused, and the reverse.
pub fn read_counter_image(dir: &Path, params: &CoreParams) -> Result<Vec<Vec<u8>>, HdlError> {
    let header_path = dir.join("image.json");
    let image_params = read_header(&header_path)?;
    if image_params.counter_bits != params.counter_bits
        && (image_params.counter_bits == 1 || params.counter_bits == 1)
    {
        return Err(image_error(
            &header_path,
            format!(
                "the image is of {} but the core is {} (image vs core: {})",
                kind(&image_params),
                kind(params),
                image_params.differences(params)
            ),
        ));
    }
    if image_params != *params {
        return Err(image_error(
            &header_path,
            format!(
                "the image's configuration differs from the core's (image vs core: {})",
                image_params.differences(params)
            ),
        ));
    }
    check_directory(dir, params.k as usize)?;
    (0..params.k as usize)
        .map(|p| {
            scan_bank(
                &dir.join(format!("bank{p:02}.hex")),
                1 << params.bank_bits,
                params.counter_bits,
            )
        })
        .collect()
}

/// The configuration a plain image's header describes, and the bits of every bank:
/// the same checks as [`read_image`], for a reader that learns the configuration to
/// expect from somewhere else (a bitstream) and compares it itself.
pub fn read_image_any(dir: &Path) -> Result<(CoreParams, Vec<Vec<bool>>), HdlError> {
    let params = read_header(&dir.join("image.json"))?;
    if params.counter_bits > 1 {
        return Err(image_error(
            &dir.join("image.json"),
            format!(
                "a counting image (counter_bits = {}) is not a plain filter's bits; `bloom image plain` converts it to its 0-1 projection",
                params.counter_bits
            ),
        ));
    }
    let banks = read_image(dir, &CoreConfig::from(params))?;
    Ok((params, banks))
}

/// The configuration an image's header describes (plain or counting), and the
/// values of every bank (bits for c = 1, counters for c > 1): the same checks as
/// [`read_counter_image`], for a reader that learns the configuration to expect
/// from somewhere else (a bitstream) and compares it itself.
pub fn read_image_values(dir: &Path) -> Result<(CoreParams, Vec<Vec<u8>>), HdlError> {
    let params = read_header(&dir.join("image.json"))?;
    let banks = read_counter_image(dir, &params)?;
    Ok((params, banks))
}

/// Reads a file of at most `limit` bytes; it must be a regular file (or a link to one).
fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, HdlError> {
    let meta =
        std::fs::metadata(path).map_err(|e| image_error(path, format!("cannot read: {e}")))?;
    if !meta.file_type().is_file() {
        return Err(image_error(path, "is not a regular file"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(|e| image_error(path, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(image_error(
            path,
            format!("larger than the {limit} bytes allowed (contract §4)"),
        ));
    }
    Ok(bytes)
}

/// The header's configuration, every field checked (contract §4.2).
fn read_header(path: &Path) -> Result<CoreParams, HdlError> {
    let bytes = read_bounded(path, HEADER_LIMIT)?;
    if bytes.first() == Some(&0xEF) && bytes.get(1) == Some(&0xBB) && bytes.get(2) == Some(&0xBF) {
        return Err(image_error(
            path,
            "begins with a UTF-8 byte-order mark, which image.json must not have",
        ));
    }
    // serde's derived struct would also take the fields as a JSON array, in order.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(image_error(
            path,
            "not a valid image header: image.json must hold one JSON object",
        ));
    }
    let header: Header = serde_json::from_slice(&bytes)
        .map_err(|e| image_error(path, format!("not a valid image header: {e}")))?;
    if header.format != "bloom-image" {
        return Err(image_error(
            path,
            format!("format {:?} is not \"bloom-image\"", header.format),
        ));
    }
    let counter_bits = match (header.version, header.counter_bits) {
        (PLAIN_VERSION, None) => 1,
        (PLAIN_VERSION, Some(_)) => {
            return Err(image_error(
                path,
                "counter_bits is not a field of a version 1 image (a plain filter); a counting filter's image is version 2",
            ))
        }
        (COUNTING_VERSION, None) => {
            return Err(image_error(path, "missing field `counter_bits`: a version 2 image (a counting filter) gives its counter width"))
        }
        (COUNTING_VERSION, Some(1)) => {
            return Err(image_error(
                path,
                "counter_bits = 1 in a version 2 image: a plain filter's image is version 1 without counter_bits (version 2 allows 2..=8)",
            ))
        }
        (COUNTING_VERSION, Some(c)) => c,
        (other, _) => {
            return Err(image_error(path, format!("version {other} is not supported (supported: 1 = a plain filter, 2 = a counting filter)")))
        }
    };
    let hash: HashFamily = header.hash.parse().map_err(|e| image_error(path, e))?;
    let narrow = |name: &str, value: u64| {
        u32::try_from(value)
            .map_err(|_| image_error(path, format!("{name} = {value} is far outside its range")))
    };
    let cfg = CoreParams::new(
        narrow("k", header.k)?,
        narrow("bank_bits", header.bank_bits)?,
        narrow("key_bits", header.key_bits)?,
        hash,
        header.seed,
    )
    .and_then(|p| p.with_counter_bits(u32::try_from(counter_bits).unwrap_or(u32::MAX)))
    .map_err(|e| image_error(path, e))?;
    let names_ok = header.banks.len() == cfg.k as usize
        && header
            .banks
            .iter()
            .enumerate()
            .all(|(p, name)| *name == format!("bank{p:02}.hex"));
    if !names_ok {
        return Err(image_error(
            path,
            format!(
                "banks {:?} must be exactly bank00.hex .. bank{:02}.hex in order (k = {})",
                header.banks,
                cfg.k - 1,
                cfg.k
            ),
        ));
    }
    Ok(cfg)
}

/// Nothing but image.json and bank00.hex .. bank(k-1).hex, all regular files (§4.1).
fn check_directory(dir: &Path, k: usize) -> Result<(), HdlError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| image_error(dir, format!("cannot list: {e}")))?;
    let mut unexpected: Vec<String> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| image_error(dir, format!("cannot list: {e}")))?;
        let raw = entry.file_name();
        let name = raw.to_string_lossy();
        let b = name.as_bytes();
        let expected = name == "image.json"
            || (b.len() == 10
                && b.starts_with(b"bank")
                && b.ends_with(b".hex")
                && b[4].is_ascii_digit()
                && b[5].is_ascii_digit()
                && usize::from((b[4] - b'0') * 10 + (b[5] - b'0')) < k);
        if !expected {
            unexpected.push(name.into_owned());
        }
    }
    unexpected.sort();
    if let Some(name) = unexpected.first() {
        return Err(image_error(
            &dir.join(name),
            format!("stray entry; an image of k = {k} holds only image.json and bank00.hex .. bank{:02}.hex", k - 1),
        ));
    }
    Ok(())
}

/// One `bankPP.hex`: `size` data lines, each exactly `0` or `1` for c = 1 (§4.3), each
/// exactly ceil(c / 4) hex digits of a value at most 2^c - 1 for c > 1 (§7.6).
fn scan_bank(path: &Path, size: usize, counter_bits: u32) -> Result<Vec<u8>, HdlError> {
    let width = (counter_bits as usize).div_ceil(4);
    let largest = (1u32 << counter_bits) - 1;
    let bytes = read_bounded(path, BANK_LIMIT)?;
    let mut bits = Vec::with_capacity(size);
    let mut line_number = 0usize;
    let mut start = 0usize;
    while start <= bytes.len() {
        line_number += 1;
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| start + i);
        let line = &bytes[start..end];
        start = end + 1;
        let at = |msg: String| HdlError::Image(format!("{}:{line_number}: {msg}", path.display()));
        for (column, &b) in line.iter().enumerate() {
            let allowed = b == b'\t' || b == b'\r' || (0x20..0x7F).contains(&b);
            if !allowed {
                let what = if line_number == 1 && line.starts_with(&[0xEF, 0xBB, 0xBF]) {
                    "UTF-8 byte-order mark".to_string()
                } else {
                    format!("byte 0x{b:02X}")
                };
                return Err(at(format!("{what} at column {}: bank files are ASCII, no control characters but tab and CR", column + 1)));
            }
        }
        let is_blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
        let first = line.iter().position(|b| !is_blank(b));
        let Some(first) = first else { continue };
        let last = line.iter().rposition(|b| !is_blank(b)).unwrap_or(first);
        let content = &line[first..=last];
        if content.len() >= 2 && content[0] == b'/' && content[1] == b'/' {
            continue;
        }
        let value = match content {
            [b'0'] if counter_bits == 1 => 0,
            [b'1'] if counter_bits == 1 => 1,
            _ if counter_bits > 1
                && content.len() == width
                && content.iter().all(u8::is_ascii_hexdigit) =>
            {
                let value = content
                    .iter()
                    .fold(0u32, |v, &d| v * 16 + (d as char).to_digit(16).unwrap_or(0));
                if value > largest {
                    return Err(at(format!(
                        "counter {value} ({:?}) is larger than a {counter_bits}-bit counter holds (at most {largest})",
                        String::from_utf8_lossy(content)
                    )));
                }
                value as u8
            }
            _ => {
                let shown = String::from_utf8_lossy(&content[..content.len().min(40)]).into_owned();
                let reason: String = if content.starts_with(b"/*") {
                    "block comments are not allowed (comments are whole lines starting with //)"
                        .into()
                } else if content[0] == b'@' {
                    "@address directives are not allowed (data lines start at address 0)".into()
                } else if content.windows(2).any(|w| w == b"//") {
                    "a comment after a value is not allowed (comments are whole lines starting with //)".into()
                } else if counter_bits > 1 && content.iter().all(u8::is_ascii_hexdigit) {
                    format!(
                        "a counter's data line is exactly {width} hex digit(s), this one has {}",
                        content.len()
                    )
                } else if content.iter().all(u8::is_ascii_hexdigit) {
                    "a data line is exactly one character, 0 or 1".into()
                } else if counter_bits > 1 {
                    "unexpected character (a counter's data line is hex digits only)".into()
                } else {
                    "unexpected character (a data line is exactly 0 or 1)".into()
                };
                return Err(at(format!("{shown:?}: {reason}")));
            }
        };
        if bits.len() == size {
            return Err(image_error(
                path,
                format!("more than {size} data lines (line {line_number} is one too many)"),
            ));
        }
        bits.push(value);
    }
    if bits.len() != size {
        return Err(image_error(
            path,
            format!("{} data lines, expected exactly {size}", bits.len()),
        ));
    }
    Ok(bits)
}

#[cfg(test)]
mod tests {
    use super::scan_bank;

    fn bank(text: &[u8], size: usize) -> Result<Vec<bool>, String> {
        counters(text, size, 1).map(|v| v.into_iter().map(|b| b == 1).collect())
    }

    fn counters(text: &[u8], size: usize, counter_bits: u32) -> Result<Vec<u8>, String> {
        // One directory per call: the tests run in parallel.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("bloom-hdl-bank-{}-{call}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bank00.hex");
        std::fs::write(&path, text).unwrap();
        let result = scan_bank(&path, size, counter_bits).map_err(|e| e.to_string());
        std::fs::remove_dir_all(&dir).unwrap();
        result
    }

    #[test]
    fn bank_file_rules() {
        assert_eq!(bank(b"// c\n0\n\n 1 \r\n", 2).unwrap(), vec![false, true]);
        assert!(bank(b"0\n1\n0\n", 2).unwrap_err().contains("more than 2"));
        assert!(bank(b"0\n", 2).unwrap_err().contains("1 data lines"));
        assert!(bank(b"0\n2\n", 2).is_err());
        assert!(bank(b"@0\n1\n", 1).unwrap_err().contains("@address"));
        assert!(bank(b"01\n1\n", 2)
            .unwrap_err()
            .contains("exactly one character"));
        assert!(bank(b"1 // x\n1\n", 2)
            .unwrap_err()
            .contains("comment after a value"));
        assert!(bank(b"/* x */\n1\n", 1)
            .unwrap_err()
            .contains("block comments"));
    }

    #[test]
    fn counter_bank_file_rules() {
        assert_eq!(
            counters(b"// c\n0\n3\n 2 \r\n", 3, 2).unwrap(),
            vec![0, 3, 2]
        );
        assert!(counters(b"4\n", 1, 2).unwrap_err().contains("at most 3"));
        assert_eq!(counters(b"ff\nA0\n00\n", 3, 8).unwrap(), vec![255, 160, 0]);
        assert!(counters(b"f\n", 1, 8)
            .unwrap_err()
            .contains("exactly 2 hex digit"));
        assert!(counters(b"0f\n", 1, 4)
            .unwrap_err()
            .contains("exactly 1 hex digit"));
        assert!(counters(b"20\n", 1, 5).unwrap_err().contains("at most 31"));
        assert!(counters(b"g\n", 1, 4)
            .unwrap_err()
            .contains("unexpected character"));
    }
}
