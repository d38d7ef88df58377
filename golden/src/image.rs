//! Memory images (contract §4): `bankPP.hex` per bank plus `image.json`.

use std::fs;
use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::error::ImageError;
use crate::partitioned::{PartitionedFilter, MAX_PARTITIONS};

/// Name of the image header file.
pub const IMAGE_HEADER: &str = "image.json";
/// Value of the header's `format` field.
pub const IMAGE_FORMAT: &str = "bloom-image";
/// Value of the header's `version` field.
pub const IMAGE_VERSION: u64 = 1;

/// Largest bank file accepted: 2^16 data lines plus generous room for comments.
const MAX_BANK_FILE_BYTES: u64 = 16 << 20;
const MAX_HEADER_BYTES: u64 = 64 << 10;

/// `bankPP.hex`, PP the two-digit decimal bank index.
pub fn bank_file_name(bank: usize) -> String {
    format!("bank{bank:02}.hex")
}

/// The header text of contract §4 for `cfg`, fields in the contract's order.
pub fn image_header_json(cfg: &Config) -> String {
    let banks: Vec<String> = (0..cfg.k as usize)
        .map(|p| format!("\"{}\"", bank_file_name(p)))
        .collect();
    format!(
        "{{\"format\":\"{IMAGE_FORMAT}\",\"version\":{IMAGE_VERSION},\"k\":{},\"bank_bits\":{},\"key_bits\":{},\"hash\":\"{}\",\"seed\":{},\"banks\":[{}]}}\n",
        cfg.k,
        cfg.bank_bits,
        cfg.key_bits,
        cfg.hash,
        cfg.seed,
        banks.join(",")
    )
}

/// The `$readmemh` text of one bank: comment lines, then one `0`/`1` line per
/// address.
pub fn bank_hex_text(cfg: &Config, bank: usize, bits: &[u8]) -> String {
    let mut text = String::with_capacity(bits.len() * 2 + 256);
    text.push_str(&format!(
        "// bloom memory image, bank {bank:02} of {k}: {n} lines, line a = bit at address a\n\
         // {cfg}\n",
        k = cfg.k,
        n = bits.len(),
    ));
    for &bit in bits {
        text.push(if bit == 1 { '1' } else { '0' });
        text.push('\n');
    }
    text
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ImageError + '_ {
    move |source| ImageError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn temp_name(name: &str) -> String {
    format!(".{name}.tmp")
}

impl PartitionedFilter {
    /// Writes the image of contract §4 into `dir` (created if missing).
    ///
    /// Every file is first written under a temporary name and renamed into
    /// place only once all were written, so a failure leaves no partial
    /// image behind. Bank files of an earlier, larger image in `dir`
    /// (`bankPP.hex` with PP >= k) are removed so the directory holds one
    /// consistent image.
    pub fn export_image(&self, dir: &Path) -> Result<(), ImageError> {
        let cfg = *self.config();
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        let mut files: Vec<(String, String)> = (0..cfg.k as usize)
            .map(|p| {
                (
                    bank_file_name(p),
                    bank_hex_text(&cfg, p, self.bank(p).unwrap_or(&[])),
                )
            })
            .collect();
        files.push((IMAGE_HEADER.to_string(), image_header_json(&cfg)));

        let mut written: Vec<PathBuf> = Vec::new();
        for (name, text) in &files {
            let temp = dir.join(temp_name(name));
            if let Err(source) = fs::write(&temp, text) {
                for path in &written {
                    let _ = fs::remove_file(path);
                }
                let _ = fs::remove_file(&temp);
                return Err(ImageError::Io { path: temp, source });
            }
            written.push(temp);
        }
        for p in cfg.k as usize..MAX_PARTITIONS {
            let stale = dir.join(bank_file_name(p));
            if stale.exists() {
                fs::remove_file(&stale).map_err(io_error(&stale))?;
            }
        }
        // The header goes last: an image is complete once image.json names it.
        for (name, _) in &files {
            let target = dir.join(name);
            fs::rename(dir.join(temp_name(name)), &target).map_err(io_error(&target))?;
        }
        Ok(())
    }

    /// Reads an image, taking the configuration from its header.
    pub fn import_image(dir: &Path) -> Result<Self, ImageError> {
        let cfg = read_header(dir)?;
        let banks = read_banks(dir, &cfg)?;
        PartitionedFilter::from_banks(cfg, &banks).map_err(|err| ImageError::Header {
            path: dir.join(IMAGE_HEADER),
            message: err.to_string(),
        })
    }

    /// Reads an image whose header must describe exactly `cfg`.
    pub fn import_image_expecting(dir: &Path, cfg: &Config) -> Result<Self, ImageError> {
        let found = read_header(dir)?;
        if found != *cfg {
            return Err(ImageError::ConfigMismatch {
                path: dir.join(IMAGE_HEADER),
                differences: format!("image vs expected: {}", found.differences(cfg)),
            });
        }
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

fn read_limited(path: &Path, limit: u64) -> Result<String, ImageError> {
    let size = fs::metadata(path).map_err(io_error(path))?.len();
    if size > limit {
        return Err(ImageError::TooLarge {
            path: path.to_path_buf(),
            size,
            limit,
        });
    }
    let bytes = fs::read(path).map_err(io_error(path))?;
    String::from_utf8(bytes).map_err(|_| ImageError::NotText {
        path: path.to_path_buf(),
    })
}

fn read_header(dir: &Path) -> Result<Config, ImageError> {
    let path = dir.join(IMAGE_HEADER);
    let text = read_limited(&path, MAX_HEADER_BYTES)?;
    let header_error = |message: String| ImageError::Header {
        path: path.clone(),
        message,
    };
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|err| header_error(format!("not valid JSON ({err})")))?;
    let obj = value
        .as_object()
        .ok_or_else(|| header_error(format!("expected a JSON object, found {value}")))?;
    const FIELDS: [&str; 8] = [
        "format",
        "version",
        "k",
        "bank_bits",
        "key_bits",
        "hash",
        "seed",
        "banks",
    ];
    if let Some(unknown) = obj.keys().find(|key| !FIELDS.contains(&key.as_str())) {
        return Err(header_error(format!(
            "unknown field \"{unknown}\"; allowed fields: {}",
            FIELDS.join(", ")
        )));
    }
    for field in FIELDS {
        if !obj.contains_key(field) {
            return Err(header_error(format!("missing field \"{field}\"")));
        }
    }
    if obj["format"] != serde_json::json!(IMAGE_FORMAT) {
        return Err(header_error(format!(
            "\"format\" is {}, must be \"{IMAGE_FORMAT}\"",
            obj["format"]
        )));
    }
    if obj["version"].as_u64() != Some(IMAGE_VERSION) {
        return Err(header_error(format!(
            "\"version\" is {}, the only version supported is {IMAGE_VERSION}",
            obj["version"]
        )));
    }
    let cfg_fields: serde_json::Map<String, serde_json::Value> =
        ["k", "bank_bits", "key_bits", "hash", "seed"]
            .iter()
            .map(|&field| (field.to_string(), obj[field].clone()))
            .collect();
    let cfg = Config::from_json(&serde_json::Value::Object(cfg_fields))
        .map_err(|err| header_error(err.to_string()))?;
    let expected: Vec<serde_json::Value> = (0..cfg.k as usize)
        .map(|p| serde_json::Value::String(bank_file_name(p)))
        .collect();
    if obj["banks"] != serde_json::Value::Array(expected) {
        return Err(header_error(format!(
            "\"banks\" is {}, must list exactly bank00.hex..bank{:02}.hex in order for k = {}",
            obj["banks"],
            cfg.k - 1,
            cfg.k
        )));
    }
    Ok(cfg)
}

fn read_banks(dir: &Path, cfg: &Config) -> Result<Vec<Vec<u8>>, ImageError> {
    for p in cfg.k as usize..MAX_PARTITIONS {
        let stray = dir.join(bank_file_name(p));
        if stray.exists() {
            return Err(ImageError::StrayBank {
                path: stray,
                k: cfg.k,
            });
        }
    }
    (0..cfg.k as usize)
        .map(|p| read_bank(&dir.join(bank_file_name(p)), cfg))
        .collect()
}

/// Parses one bank file: data lines `0`/`1` (surrounding whitespace, a CR
/// included, is ignored), `//` comment lines and blank lines.
fn read_bank(path: &Path, cfg: &Config) -> Result<Vec<u8>, ImageError> {
    let text = read_limited(path, MAX_BANK_FILE_BYTES)?;
    let expected = cfg.bank_size();
    let mut bits = Vec::with_capacity(expected as usize);
    for (index, raw) in text.split('\n').enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let bit = match line {
            "0" => 0,
            "1" => 1,
            _ => {
                let message = if line.starts_with('@') {
                    format!("address directive \"{line}\" is not allowed; data lines run from address 0 in order")
                } else if line.chars().all(|c| c.is_ascii_hexdigit()) {
                    format!("value \"{line}\" is not allowed; each data line holds one bit, 0 or 1")
                } else {
                    let bad = line.chars().find(|c| !c.is_ascii_hexdigit()).unwrap_or(' ');
                    format!(
                        "unexpected character {bad:?} in \"{}\"; a data line is 0 or 1, a comment line starts with //",
                        line.chars().take(40).collect::<String>()
                    )
                };
                return Err(ImageError::Line {
                    path: path.to_path_buf(),
                    line: index + 1,
                    message,
                });
            }
        };
        bits.push(bit);
    }
    if bits.len() != expected as usize {
        return Err(ImageError::LineCount {
            path: path.to_path_buf(),
            found: bits.len(),
            expected,
            bank_bits: cfg.bank_bits,
        });
    }
    Ok(bits)
}
