//! Reads a memory image (contract §4) so that a core can be generated with it as the
//! banks' initial contents. Written from the contract, independently of the golden model.
//! An image is accepted completely or not at all.

use std::path::Path;

use serde_json::Value;

use crate::config::CoreConfig;
use crate::HdlError;

/// Bits of every bank, `banks[p][a]`, checked against `cfg`.
pub fn read_image(dir: &Path, cfg: &CoreConfig) -> Result<Vec<Vec<bool>>, HdlError> {
    let err = |msg: String| HdlError::Image(format!("{}: {msg}", dir.display()));
    let header_path = dir.join("image.json");
    let text = std::fs::read_to_string(&header_path)
        .map_err(|e| err(format!("cannot read image.json: {e}")))?;
    let header: Value =
        serde_json::from_str(&text).map_err(|e| err(format!("image.json is not valid JSON: {e}")))?;
    let field = |name: &str| header.get(name).ok_or_else(|| err(format!("image.json has no `{name}`")));
    if field("format")?.as_str() != Some("bloom-image") {
        return Err(err("image.json: `format` is not \"bloom-image\"".into()));
    }
    if field("version")?.as_u64() != Some(1) {
        return Err(err(format!("image.json: unsupported version {} (supported: 1)", field("version")?)));
    }
    let expect_u64 = |name: &str, want: u64| -> Result<(), HdlError> {
        match field(name)?.as_u64() {
            Some(v) if v == want => Ok(()),
            Some(v) => Err(err(format!("image {name} = {v} differs from the core's {name} = {want}"))),
            None => Err(err(format!("image.json: `{name}` is not an unsigned integer"))),
        }
    };
    expect_u64("k", cfg.k as u64)?;
    expect_u64("bank_bits", cfg.bank_bits as u64)?;
    expect_u64("key_bits", cfg.key_bits as u64)?;
    expect_u64("seed", cfg.seed)?;
    match field("hash")?.as_str() {
        Some(h) if h == cfg.hash.to_string() => {}
        Some(h) => return Err(err(format!("image hash = {h} differs from the core's hash = {}", cfg.hash))),
        None => return Err(err("image.json: `hash` is not a string".into())),
    }
    let banks = field("banks")?
        .as_array()
        .ok_or_else(|| err("image.json: `banks` is not an array".into()))?;
    if banks.len() != cfg.k {
        return Err(err(format!("image.json lists {} banks, k = {}", banks.len(), cfg.k)));
    }
    let mut out = Vec::with_capacity(cfg.k);
    for (p, name) in banks.iter().enumerate() {
        let name = name.as_str().ok_or_else(|| err(format!("image.json: banks[{p}] is not a string")))?;
        let expected = format!("bank{p:02}.hex");
        if name != expected {
            return Err(err(format!("image.json: banks[{p}] = {name:?}, expected {expected:?}")));
        }
        let text = std::fs::read_to_string(dir.join(name))
            .map_err(|e| err(format!("cannot read {name}: {e}")))?;
        out.push(parse_bank(&text, cfg.bank_size()).map_err(|m| err(format!("{name}: {m}")))?);
    }
    Ok(out)
}

/// One `bankPP.hex` file: `$readmemh` with exactly `size` data lines of `0` or `1`.
fn parse_bank(text: &str, size: usize) -> Result<Vec<bool>, String> {
    let mut bits = Vec::with_capacity(size);
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let bit = match line {
            "0" => false,
            "1" => true,
            other => return Err(format!("line {}: {other:?} is not 0 or 1", n + 1)),
        };
        if bits.len() == size {
            return Err(format!("more than {size} data lines"));
        }
        bits.push(bit);
    }
    if bits.len() != size {
        return Err(format!("{} data lines, expected {size}", bits.len()));
    }
    Ok(bits)
}

#[cfg(test)]
mod tests {
    use super::parse_bank;

    #[test]
    fn bank_file_rules() {
        assert_eq!(parse_bank("// c\n0\n\n1\n", 2).unwrap(), vec![false, true]);
        assert!(parse_bank("0\n1\n0\n", 2).is_err());
        assert!(parse_bank("0\n", 2).is_err());
        assert!(parse_bank("0\n2\n", 2).is_err());
        assert!(parse_bank("@0\n1\n", 1).is_err());
    }
}
