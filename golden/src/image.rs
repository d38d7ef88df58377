//! Memory images (contract §4, and §7.6 for counting filters): a directory of
//! `image.json` plus one `bankPP.hex` per bank.
//!
//! Reading checks every rule of contract §4 before any bit is used; writing
//! builds the whole image in a temporary directory beside the target and
//! renames it into place, into a target that does not exist or is empty.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

use crate::config::{CoreParams, COUNTER_BITS};
use crate::counting::{CounterBits, CountingFilter};
use crate::error::ImageError;
use crate::keys::trim_blanks;
use crate::partitioned::PartitionedFilter;

/// Name of the image header file.
pub const IMAGE_HEADER: &str = "image.json";
/// Value of the header's `format` field.
pub const IMAGE_FORMAT: &str = "bloom-image";
/// Value of the header's `version` field for a plain filter (c = 1).
pub const IMAGE_VERSION: u64 = 1;
/// Value of the header's `version` field for a counting filter (c = 2..=8, contract §7.6).
pub const COUNTER_IMAGE_VERSION: u64 = 2;
/// Largest `image.json` accepted (contract §4.2).
pub const MAX_HEADER_BYTES: u64 = 65_536;
/// Largest `bankPP.hex` accepted (contract §4.3).
pub const MAX_BANK_FILE_BYTES: u64 = 16 << 20;

/// The header's fields: its own around the configuration's (contract §1's
/// table, in order); `counter_bits` is in version 2 headers only.
static HEADER_FIELDS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    ["format", "version"]
        .into_iter()
        .chain(crate::config::PARAMS.iter().map(|p| p.name))
        .chain(["banks"])
        .collect()
});

/// `bankPP.hex`, PP the two-digit decimal bank index.
pub fn bank_file_name(bank: usize) -> String {
    format!("bank{bank:02}.hex")
}

/// The header text of contract §4.2 (§7.6 for c > 1) for `cfg`, fields in the contract's order.
pub fn image_header_json(cfg: &CoreParams) -> String {
    let banks: Vec<String> = (0..cfg.k as usize)
        .map(|p| format!("\"{}\"", bank_file_name(p)))
        .collect();
    let (version, counter_bits) = if cfg.is_counting() {
        (
            COUNTER_IMAGE_VERSION,
            format!(",\"counter_bits\":{}", cfg.counter_bits),
        )
    } else {
        (IMAGE_VERSION, String::new())
    };
    format!(
        "{{\"format\":\"{IMAGE_FORMAT}\",\"version\":{version},\"k\":{},\"bank_bits\":{},\"key_bits\":{},\"hash\":\"{}\",\"seed\":{}{counter_bits},\"banks\":[{}]}}\n",
        cfg.k,
        cfg.bank_bits,
        cfg.key_bits,
        cfg.hash,
        cfg.seed,
        banks.join(",")
    )
}

/// Hex digits of one data line: 1 for a bit (c = 1), ceil(c / 4) for a counter.
pub fn digits_per_value(counter_bits: u32) -> usize {
    counter_bits.div_ceil(4) as usize
}

/// The `$readmemh` text of one bank: comment lines, then one line per
/// address: `0`/`1` for a plain filter, the counter as ceil(c / 4) lowercase
/// hex digits for a counting filter.
pub fn bank_hex_text(cfg: &CoreParams, bank: usize, values: &[u8]) -> String {
    let digits = digits_per_value(cfg.counter_bits);
    let mut text = String::with_capacity(values.len() * (digits + 1) + 256);
    let what = if cfg.is_counting() { "counter" } else { "bit" };
    let _ = write!(
        text,
        "// bloom memory image, bank {bank:02} of {k}: {n} lines, line a = {what} at address a\n\
         // {cfg}\n",
        k = cfg.k,
        n = values.len(),
    );
    for &value in values {
        let _ = writeln!(text, "{value:0digits$x}");
    }
    text
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ImageError + '_ {
    move |error| ImageError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Writes the image of `cfg`'s filter whose bank p holds `bank(p)` into `dir`
/// (the bank files and the header), all or nothing.
fn write_image<'a>(
    cfg: &CoreParams,
    bank: impl Fn(usize) -> Option<&'a [u8]>,
    dir: &Path,
) -> Result<(), ImageError> {
    let mut files: Vec<(String, String)> = (0..cfg.k as usize)
        .map(|p| {
            (
                bank_file_name(p),
                bank_hex_text(cfg, p, bank(p).unwrap_or(&[])),
            )
        })
        .collect();
    files.push((IMAGE_HEADER.to_string(), image_header_json(cfg)));
    write_directory_atomically(dir, &files)
}

impl PartitionedFilter {
    /// Writes the image of contract §4 into `dir`, which must not exist or be
    /// an empty directory (its missing parents are created).
    ///
    /// The files are written into a new temporary directory beside `dir`,
    /// which is then renamed onto `dir`: `dir` ends up holding the complete
    /// image, or, on any error, what it held before.
    pub fn export_image(&self, dir: &Path) -> Result<(), ImageError> {
        write_image(self.config(), |p| self.bank(p), dir)
    }

    /// Reads a plain image (version 1), taking the configuration from its
    /// header; a counting image is refused.
    pub fn import_image(dir: &Path) -> Result<Self, ImageError> {
        let cfg = read_header(dir)?;
        if cfg.is_counting() {
            return Err(ImageError::KindMismatch {
                path: dir.join(IMAGE_HEADER),
                message: format!(
                    "a counting image (counter_bits = {}) cannot be loaded into a plain filter (counter_bits = 1); \
                     `bloom image plain` converts it to the plain image of its 0-1 projection",
                    cfg.counter_bits
                ),
            });
        }
        let banks = read_banks(dir, &cfg)?;
        PartitionedFilter::from_banks(cfg, &banks).map_err(|err| ImageError::Header {
            path: dir.join(IMAGE_HEADER),
            message: err.to_string(),
        })
    }

    /// Reads an image whose header must describe exactly `cfg`.
    pub fn import_image_expecting(dir: &Path, cfg: &CoreParams) -> Result<Self, ImageError> {
        expect_config(dir, cfg)?;
        Self::import_image(dir)
    }

    /// Replaces this filter's contents with the image in `dir`, whose header
    /// must match this filter's configuration. On any error the filter is
    /// left exactly as it was.
    pub fn load_image(&mut self, dir: &Path) -> Result<(), ImageError> {
        *self = Self::import_image_expecting(dir, self.config())?;
        Ok(())
    }
}

impl CountingFilter {
    /// Writes the image of contract §7.6 (§4 for c = 1) into `dir`, which must
    /// not exist or be an empty directory; all or nothing, like
    /// [`PartitionedFilter::export_image`].
    pub fn export_image(&self, dir: &Path) -> Result<(), ImageError> {
        write_image(self.config(), |p| self.bank(p), dir)
    }

    /// Reads an image of either kind, taking the configuration (the counter
    /// width included: 1 for a version 1 image) from its header.
    pub fn import_image(dir: &Path) -> Result<Self, ImageError> {
        let cfg = read_header(dir)?;
        let banks = read_banks(dir, &cfg)?;
        let header_error = |err: crate::error::ConfigError| ImageError::Header {
            path: dir.join(IMAGE_HEADER),
            message: err.to_string(),
        };
        let counter_bits = CounterBits::new(cfg.counter_bits).map_err(header_error)?;
        CountingFilter::from_counters(cfg, counter_bits, &banks).map_err(header_error)
    }

    /// Reads an image whose header must describe exactly `cfg`, its counter
    /// width included (a plain image into a counting filter is refused, and
    /// the reverse).
    pub fn import_image_expecting(dir: &Path, cfg: &CoreParams) -> Result<Self, ImageError> {
        expect_config(dir, cfg)?;
        Self::import_image(dir)
    }

    /// Replaces this filter's contents with the image in `dir`, whose header
    /// must match this filter's configuration and counter width. On any
    /// error the filter is left exactly as it was.
    pub fn load_image(&mut self, dir: &Path) -> Result<(), ImageError> {
        *self = Self::import_image_expecting(dir, self.config())?;
        Ok(())
    }
}

/// The header of `dir` must describe exactly `cfg`.
fn expect_config(dir: &Path, cfg: &CoreParams) -> Result<(), ImageError> {
    let found = read_header(dir)?;
    if found == *cfg {
        return Ok(());
    }
    let kind = |c: &CoreParams| {
        if c.is_counting() {
            format!("a counting filter (counter_bits = {})", c.counter_bits)
        } else {
            "a plain filter (counter_bits = 1)".to_string()
        }
    };
    if found.is_counting() != cfg.is_counting() {
        return Err(ImageError::KindMismatch {
            path: dir.join(IMAGE_HEADER),
            message: format!(
                "the image is of {} but the filter is {} (image vs expected: {})",
                kind(&found),
                kind(cfg),
                found.differences(cfg)
            ),
        });
    }
    Err(ImageError::ConfigMismatch {
        path: dir.join(IMAGE_HEADER),
        differences: format!("image vs expected: {}", found.differences(cfg)),
    })
}

/// Every bank of the image in `dir` whose header says `cfg` (the directory
/// checked first): `banks[p][a]` is the bit or counter at address a.
fn read_banks(dir: &Path, cfg: &CoreParams) -> Result<Vec<Vec<u8>>, ImageError> {
    check_entries(dir, cfg)?;
    (0..cfg.k as usize)
        .map(|p| read_bank(&dir.join(bank_file_name(p)), cfg))
        .collect()
}

/// Creates `dir` holding exactly `files` (name, contents), all or nothing:
/// `dir` must not exist or be empty; the files go into a fresh temporary
/// directory beside it that is renamed onto it (`bloom_files::OutputDir`).
pub fn write_directory_atomically(
    dir: &Path,
    files: &[(String, String)],
) -> Result<(), ImageError> {
    check_image_target(dir)?;
    let entries: Vec<bloom_files::DirEntry> = files
        .iter()
        .map(|(name, text)| bloom_files::DirEntry {
            path: Path::new(name),
            contents: text.as_bytes(),
            executable: false,
        })
        .collect();
    bloom_files::write_dir(dir, &entries).map_err(|error| match error {
        bloom_files::Error::Target { .. } if dir.is_dir() => ImageError::TargetNotEmpty {
            path: dir.to_path_buf(),
            entry: "entries created while the image was being written".into(),
        },
        other => ImageError::File(other),
    })
}

/// A target for a new image must not exist, or be an empty directory
/// (checked again when the image is written; call it to fail early).
pub fn check_image_target(dir: &Path) -> Result<(), ImageError> {
    match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(ImageError::Io {
            path: dir.to_path_buf(),
            error: e,
        }),
        Ok(meta) if !meta.is_dir() => Err(ImageError::TargetNotDirectory {
            path: dir.to_path_buf(),
        }),
        Ok(_) => {
            let mut entries = fs::read_dir(dir).map_err(io_error(dir))?;
            match entries.next() {
                None => Ok(()),
                Some(entry) => {
                    let entry = entry.map_err(io_error(dir))?;
                    Err(ImageError::TargetNotEmpty {
                        path: dir.to_path_buf(),
                        entry: entry.file_name().to_string_lossy().into_owned(),
                    })
                }
            }
        }
    }
}

/// Reads at most `limit` bytes of a regular file; larger files are refused.
fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, ImageError> {
    let meta = fs::metadata(path).map_err(io_error(path))?;
    if !meta.is_file() {
        return Err(ImageError::NotRegularFile {
            path: path.to_path_buf(),
        });
    }
    bloom_files::read_file(path, "image file", limit).map_err(|error| match error {
        bloom_files::Error::Input { .. } if fs::metadata(path).is_ok_and(|m| m.is_file()) => {
            ImageError::TooLarge {
                path: path.to_path_buf(),
                limit,
            }
        }
        bloom_files::Error::Input { .. } => ImageError::NotRegularFile {
            path: path.to_path_buf(),
        },
        other => ImageError::File(other),
    })
}

/// The header's fields in file order; a name given twice is an error
/// (serde_json alone would keep the last value silently).
struct HeaderFields(Vec<(String, serde_json::Value)>);

impl<'de> Deserialize<'de> for HeaderFields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldsVisitor;
        impl<'de> Visitor<'de> for FieldsVisitor {
            type Value = HeaderFields;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<HeaderFields, A::Error> {
                let mut fields: Vec<(String, serde_json::Value)> = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    if fields.iter().any(|(seen, _)| *seen == name) {
                        return Err(serde::de::Error::custom(format!(
                            "field \"{name}\" is given twice; each field appears exactly once"
                        )));
                    }
                    let value = map.next_value::<serde_json::Value>()?;
                    fields.push((name, value));
                }
                Ok(HeaderFields(fields))
            }
        }
        deserializer.deserialize_map(FieldsVisitor)
    }
}

fn read_header(dir: &Path) -> Result<CoreParams, ImageError> {
    let path = dir.join(IMAGE_HEADER);
    let bytes = read_limited(&path, MAX_HEADER_BYTES)?;
    let header_error = |message: String| ImageError::Header {
        path: path.clone(),
        message,
    };
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(header_error(
            "starts with a UTF-8 byte-order mark; image.json is UTF-8 without one".into(),
        ));
    }
    let text = std::str::from_utf8(&bytes)
        .map_err(|err| header_error(format!("not valid UTF-8 ({err})")))?;
    let HeaderFields(fields) = serde_json::from_str(text)
        .map_err(|err| header_error(format!("not a valid header object ({err})")))?;
    if let Some((unknown, _)) = fields
        .iter()
        .find(|(name, _)| !HEADER_FIELDS.contains(&name.as_str()))
    {
        return Err(header_error(format!(
            "unknown field \"{unknown}\"; the fields are exactly: {}",
            HEADER_FIELDS.join(", ")
        )));
    }
    let get = |field: &str| -> Result<&serde_json::Value, ImageError> {
        fields
            .iter()
            .find(|(name, _)| name == field)
            .map(|(_, value)| value)
            .ok_or_else(|| header_error(format!("missing field \"{field}\"")))
    };
    for field in HEADER_FIELDS.iter().filter(|f| **f != COUNTER_BITS.name) {
        get(field)?;
    }
    if *get("format")? != serde_json::json!(IMAGE_FORMAT) {
        return Err(header_error(format!(
            "\"format\" is {}, must be \"{IMAGE_FORMAT}\"",
            get("format")?
        )));
    }
    let version = get("version")?;
    let counting = match version.as_u64() {
        Some(IMAGE_VERSION) if version.is_u64() => false,
        Some(COUNTER_IMAGE_VERSION) if version.is_u64() => true,
        _ => {
            return Err(header_error(format!(
                "\"version\" is {version}; the versions are {IMAGE_VERSION} (a plain filter) and {COUNTER_IMAGE_VERSION} (a counting filter)"
            )))
        }
    };
    let has_counter_bits = fields.iter().any(|(name, _)| name == COUNTER_BITS.name);
    match (counting, has_counter_bits) {
        (false, true) => {
            return Err(header_error(format!(
                "a version {IMAGE_VERSION} image (a plain filter) has no \"counter_bits\" field; a counting filter's image is version {COUNTER_IMAGE_VERSION}"
            )))
        }
        (true, false) => {
            return Err(header_error(format!(
                "missing field \"counter_bits\"; a version {COUNTER_IMAGE_VERSION} image (a counting filter) gives its counter width"
            )))
        }
        _ => {}
    }
    let mut cfg_fields = serde_json::Map::new();
    for p in crate::config::PARAMS {
        let field = p.name;
        if field == COUNTER_BITS.name && !counting {
            continue;
        }
        let value = get(field)?;
        // serde_json reads 4.0 and 4e0 as floats, which CoreParams::from_json
        // refuses; say why here in the header's terms.
        if !matches!(p.allowed, bloom_params::Allowed::Names(_)) && !value.is_u64() {
            return Err(header_error(format!(
                "\"{field}\" is {value}; it must be an unsigned JSON integer below 2^64, without sign, fraction, exponent or quotes"
            )));
        }
        cfg_fields.insert(field.to_string(), value.clone());
    }
    let cfg = CoreParams::from_json(&serde_json::Value::Object(cfg_fields))
        .map_err(|err| header_error(err.to_string()))?;
    if counting && !cfg.is_counting() {
        return Err(header_error(format!(
            "\"counter_bits\" is 1 in a version {COUNTER_IMAGE_VERSION} image; a plain filter's image is version {IMAGE_VERSION}, without the field (allowed in version {COUNTER_IMAGE_VERSION}: 2..=8)"
        )));
    }
    let expected: Vec<serde_json::Value> = (0..cfg.k as usize)
        .map(|p| serde_json::Value::String(bank_file_name(p)))
        .collect();
    if *get("banks")? != serde_json::Value::Array(expected) {
        return Err(header_error(format!(
            "\"banks\" is {}, must list exactly bank00.hex..bank{:02}.hex in order for k = {}",
            get("banks")?,
            cfg.k - 1,
            cfg.k
        )));
    }
    Ok(cfg)
}

/// The directory holds exactly image.json and the k bank files (contract §4.1).
fn check_entries(dir: &Path, cfg: &CoreParams) -> Result<(), ImageError> {
    let allowed =
        |name: &str| name == IMAGE_HEADER || (0..cfg.k as usize).any(|p| name == bank_file_name(p));
    let mut strays: Vec<PathBuf> = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_error(dir))? {
        let entry = entry.map_err(io_error(dir))?;
        let name = entry.file_name();
        let path = dir.join(&name);
        match name.to_str() {
            Some(name) if allowed(name) => {
                if !fs::metadata(&path).map_err(io_error(&path))?.is_file() {
                    return Err(ImageError::NotRegularFile { path });
                }
            }
            _ => strays.push(path),
        }
    }
    // The first in name order, so the message does not depend on the file system.
    strays.sort();
    match strays.into_iter().next() {
        Some(path) => Err(ImageError::StrayEntry { path, k: cfg.k }),
        None => Ok(()),
    }
}

/// Parses one bank file (contract §4.3; §7.6 for c > 1).
fn read_bank(path: &Path, cfg: &CoreParams) -> Result<Vec<u8>, ImageError> {
    let bytes = read_limited(path, MAX_BANK_FILE_BYTES)?;
    let expected = cfg.bank_size() as usize;
    let mut bits = Vec::with_capacity(expected);
    let digits = digits_per_value(cfg.counter_bits);
    let saturation = (1u32 << cfg.counter_bits) - 1;
    let line_error = |line: usize, message: String| ImageError::Line {
        path: path.to_path_buf(),
        line,
        message,
    };
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        if let Some(column) = raw
            .iter()
            .position(|&b| b > 0x7F || (b < 0x20 && b != b'\t' && b != b'\r') || b == 0x7F)
        {
            let what = if index == 0 && raw.starts_with(&[0xEF, 0xBB, 0xBF]) {
                "a UTF-8 byte-order mark".to_string()
            } else {
                format!("byte 0x{:02X}", raw[column])
            };
            return Err(line_error(
                number,
                format!(
                    "{what} at column {}; a bank file is ASCII text without control characters other than tab and CR",
                    column + 1
                ),
            ));
        }
        let line = trim_blanks(raw);
        if line.is_empty() || line.starts_with(b"//") {
            continue;
        }
        if !cfg.is_counting() {
            match line {
                b"0" => bits.push(0),
                b"1" => bits.push(1),
                _ => return Err(line_error(number, bad_data_line(line, None))),
            }
            continue;
        }
        match parse_counter(line, digits) {
            Some(value) if value <= saturation => bits.push(value as u8),
            Some(value) => {
                return Err(line_error(
                    number,
                    format!(
                        "counter {value} (\"{}\") is above the largest value of a {}-bit counter, {saturation}",
                        String::from_utf8_lossy(line),
                        cfg.counter_bits
                    ),
                ))
            }
            None => return Err(line_error(number, bad_data_line(line, Some(digits)))),
        }
    }
    if bits.len() != expected {
        return Err(ImageError::LineCount {
            path: path.to_path_buf(),
            found: bits.len(),
            expected: expected as u32,
            bank_bits: cfg.bank_bits,
        });
    }
    Ok(bits)
}

/// A counter's data line: exactly `digits` hex digits (either case).
fn parse_counter(line: &[u8], digits: usize) -> Option<u32> {
    if line.len() != digits || !line.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u32::from_str_radix(std::str::from_utf8(line).ok()?, 16).ok()
}

/// Why a trimmed, non-empty, non-comment line is not a data line: a bank's bit
/// line, or with `counter_digits` a counter's line of that many hex digits.
fn bad_data_line(line: &[u8], counter_digits: Option<usize>) -> String {
    let text = String::from_utf8_lossy(&line[..line.len().min(40)]).into_owned();
    let value_end = line
        .iter()
        .position(|b| !b.is_ascii_hexdigit())
        .unwrap_or(line.len());
    if line.starts_with(b"/*") {
        format!(
            "block comment \"{text}\" is not allowed; a comment is a whole line starting with //"
        )
    } else if line.starts_with(b"@") {
        format!(
            "address directive \"{text}\" is not allowed; data lines run from address 0 in order"
        )
    } else if value_end > 0 && trim_blanks(&line[value_end..]).starts_with(b"//") {
        format!("comment after a value in \"{text}\" is not allowed; a comment is a whole line starting with //")
    } else if let Some(digits) = counter_digits {
        if value_end == line.len() {
            format!("value \"{text}\" has {} digits; a counter's data line is exactly {digits} hex digit(s)", line.len())
        } else {
            let bad = line[value_end] as char;
            format!(
                "unexpected character {bad:?} in \"{text}\"; a counter's data line is exactly {digits} hex digit(s), a comment line starts with //"
            )
        }
    } else if value_end == line.len() && line.len() > 1 {
        format!(
            "value \"{text}\" has {} digits; a data line is exactly one character, 0 or 1",
            line.len()
        )
    } else if value_end == line.len() {
        format!("value \"{text}\" is not allowed; each data line holds one bit, 0 or 1")
    } else {
        let bad = line[value_end] as char;
        format!(
            "unexpected character {bad:?} in \"{text}\"; a data line is exactly 0 or 1, a comment line starts with //"
        )
    }
}
