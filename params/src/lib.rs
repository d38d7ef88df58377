//! The filter's configuration parameters (docs/contract.md §1), declared once.
//!
//! [`PARAMS`] is the one table of parameters: each [`Param`] gives the name
//! used in JSON files, image headers and messages, the command-line flag, the
//! help text, the values allowed and the default. Validation, the command
//! line's options and help, and the JSON field names all read it, so a new
//! parameter is one entry there plus its field in [`CoreParams`] (and one arm
//! each in [`CoreParams::get`] and [`CoreParams::set`]).
//!
//! Only the parameters and their ranges live here. How keys are hashed, how
//! images are laid out and what operations mean are in the contract, and the
//! golden model and the hardware implement them each on their own.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The hash family of every partition's hash unit (contract §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HashFamily {
    /// Random GF(2) matrix per partition, rows from SplitMix64 (contract §3.1).
    H3,
    /// One catalogue CRC per partition, 16-bit fields (contract §3.2).
    Crc,
    /// Keyed substitution-permutation network over the key, addresses drawn
    /// from its output blocks (contract §3.3).
    Spn,
    /// Keyed Feistel network over the key (32- and 64-bit keys), addresses
    /// drawn from its output blocks as the SPN's (contract §3.4). The default
    /// for the widths it is defined for.
    #[default]
    Feistel,
}

impl HashFamily {
    /// Every family, in the order the contract lists them (which is the
    /// order of their codes).
    pub const ALL: [HashFamily; 4] = [
        HashFamily::H3,
        HashFamily::Crc,
        HashFamily::Spn,
        HashFamily::Feistel,
    ];

    /// The names of [`HashFamily::ALL`], in order.
    pub const NAMES: [&'static str; 4] = ["h3", "crc", "spn", "feistel"];

    /// The name used on the command line, in JSON and in image headers.
    pub fn name(self) -> &'static str {
        Self::NAMES[self.code() as usize]
    }

    /// The family's number wherever it is encoded as one (contract §3: the
    /// host link's configuration block, the AXI register map, test
    /// vectors): its place in [`HashFamily::ALL`].
    pub fn code(self) -> u8 {
        match self {
            HashFamily::H3 => 0,
            HashFamily::Crc => 1,
            HashFamily::Spn => 2,
            HashFamily::Feistel => 3,
        }
    }

    /// The key widths the family is defined for (contract §3).
    pub fn key_bits_allowed(self) -> &'static [u64] {
        match self {
            HashFamily::Feistel => &FEISTEL_KEY_BITS,
            _ => &KEY_BITS_ALLOWED,
        }
    }

    /// Whether the family is defined for `key_bits`-bit keys: the error names the
    /// widths it is defined for.
    pub fn check_key_bits(self, key_bits: u32) -> Result<(), ParamError> {
        let widths = self.key_bits_allowed();
        if widths.contains(&(key_bits as u64)) {
            return Ok(());
        }
        Err(ParamError::NotAllowed {
            name: KEY_BITS.name,
            value: key_bits.to_string(),
            allowed: format!("{} with hash = {self}", Allowed::OneOf(widths)),
        })
    }

    /// The family a configuration of `key_bits`-bit keys has when none is
    /// named (contract §1): the default family (Feistel, the cheapest
    /// non-linear one) where it is defined (32 and 64 bits), else SPN.
    pub fn default_for(key_bits: u32) -> HashFamily {
        let preferred = HashFamily::default();
        if preferred.check_key_bits(key_bits).is_ok() {
            preferred
        } else {
            HashFamily::Spn
        }
    }

    /// The family numbered `code`, or None for a number no family has.
    pub fn from_code(code: u8) -> Option<HashFamily> {
        HashFamily::ALL.get(code as usize).copied()
    }
}

impl fmt::Display for HashFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HashFamily {
    type Err = ParamError;
    fn from_str(s: &str) -> Result<Self, ParamError> {
        HashFamily::ALL
            .into_iter()
            .find(|h| h.name() == s)
            .ok_or_else(|| HASH.not_allowed(s))
    }
}

/// The values a parameter may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// An integer in `min..=max`.
    Range { min: u64, max: u64 },
    /// One of these integers.
    OneOf(&'static [u64]),
    /// Any 64-bit unsigned integer.
    AnyU64,
    /// One of these names.
    Names(&'static [&'static str]),
}

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Allowed::Range { min, max } => write!(f, "{min}..={max}"),
            Allowed::OneOf(values) => f.write_str(
                &values
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            Allowed::AnyU64 => f.write_str(&format!("0..={}", u64::MAX)),
            Allowed::Names(names) => f.write_str(&names.join(", ")),
        }
    }
}

/// A parameter's value: a number or one of its names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Number(u64),
    Name(&'static str),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(n) => write!(f, "{n}"),
            Value::Name(s) => f.write_str(s),
        }
    }
}

impl Value {
    pub fn to_json(self) -> serde_json::Value {
        match self {
            Value::Number(n) => serde_json::Value::from(n),
            Value::Name(s) => serde_json::Value::from(s),
        }
    }
}

/// One configuration parameter.
#[derive(Debug, PartialEq, Eq)]
pub struct Param {
    /// The name in JSON files, image headers and messages (`bank_bits`).
    pub name: &'static str,
    /// The command-line option, without its dashes (`bank-bits`).
    pub flag: &'static str,
    /// One line of help: what the parameter is.
    pub help: &'static str,
    pub allowed: Allowed,
    /// The default, as it would be typed.
    pub default: &'static str,
    /// Where the default depends on another parameter, how (empty otherwise):
    /// printed after the default in help and tables.
    pub default_note: &'static str,
    /// True for a parameter added after files holding configurations were
    /// first written: a JSON object without its field means the default, and
    /// at the default it is left out of JSON, `Display` and labels, so a
    /// configuration at the default reads and prints exactly as before.
    pub omitted_at_default: bool,
}

impl Param {
    /// The error for `value`, naming this parameter and what it allows.
    pub fn not_allowed(&self, value: impl fmt::Display) -> ParamError {
        ParamError::NotAllowed {
            name: self.name,
            value: value.to_string(),
            allowed: self.allowed.to_string(),
        }
    }

    /// Checks a number against the allowed values.
    pub fn check(&self, value: u64) -> Result<u64, ParamError> {
        let ok = match self.allowed {
            Allowed::Range { min, max } => (min..=max).contains(&value),
            Allowed::OneOf(values) => values.contains(&value),
            Allowed::AnyU64 => true,
            Allowed::Names(_) => false,
        };
        if ok {
            Ok(value)
        } else {
            Err(self.not_allowed(value))
        }
    }

    /// Parses a value as it would be typed (decimal, or one of the names).
    pub fn parse(&self, text: &str) -> Result<Value, ParamError> {
        match self.allowed {
            Allowed::Names(names) => names
                .iter()
                .find(|n| **n == text)
                .map(|n| Value::Name(n))
                .ok_or_else(|| self.not_allowed(text)),
            _ => {
                let n = text
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| self.not_allowed(text))?;
                self.check(n).map(Value::Number)
            }
        }
    }

    /// The default as help and tables print it: the value, and how it
    /// depends on another parameter where it does.
    pub fn default_text(&self) -> String {
        if self.default_note.is_empty() {
            self.default.to_string()
        } else {
            format!("{} ({})", self.default, self.default_note)
        }
    }

    /// The default's value.
    pub fn default_value(&self) -> Value {
        self.parse(self.default)
            .expect("the table's defaults are allowed values")
    }

    /// Whether `value` is left out of JSON, `Display` and labels.
    pub fn omitted(&self, value: Value) -> bool {
        self.omitted_at_default && value == self.default_value()
    }

    /// Reads a value from JSON: a string for named values, an unsigned integer otherwise.
    pub fn from_json(&self, value: &serde_json::Value) -> Result<Value, ParamError> {
        match (self.allowed, value) {
            (Allowed::Names(_), serde_json::Value::String(s)) => self.parse(s),
            (Allowed::Names(names), other) => Err(ParamError::Json(format!(
                "field \"{}\" must be one of the strings {}, found {other}",
                self.name,
                names
                    .iter()
                    .map(|n| format!("\"{n}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
            (_, other) => match other.as_u64() {
                Some(n) => self.check(n).map(Value::Number),
                None => Err(ParamError::Json(format!(
                    "field \"{}\" must be an unsigned integer below 2^64, found {other}",
                    self.name
                ))),
            },
        }
    }
}

/// Allowed numbers of partitions k.
pub const K_RANGE: std::ops::RangeInclusive<u32> = 1..=16;
/// Allowed bank size exponents b.
pub const BANK_BITS_RANGE: std::ops::RangeInclusive<u32> = 6..=16;
/// Allowed key widths W.
pub const KEY_BITS_ALLOWED: [u64; 3] = [32, 64, 128];

/// The key widths of the Feistel family (contract §3.4): its halves' taps are
/// defined for 16- and 32-bit halves.
pub const FEISTEL_KEY_BITS: [u64; 2] = [32, 64];
/// Allowed counter widths c: 1 is the plain filter, 2..=8 a counting filter.
pub const COUNTER_BITS_RANGE: std::ops::RangeInclusive<u32> = 1..=8;

/// Number of partitions k: hash units and banks.
pub const K: Param = Param {
    name: "k",
    flag: "k",
    help: "Number of partitions (hash units and banks)",
    allowed: Allowed::Range {
        min: *K_RANGE.start() as u64,
        max: *K_RANGE.end() as u64,
    },
    default: "4",
    default_note: "",
    omitted_at_default: false,
};

/// Bank size exponent b: each bank holds 2^b bits.
pub const BANK_BITS: Param = Param {
    name: "bank_bits",
    flag: "bank-bits",
    help: "log2 of the bits per bank (12 = 4096-bit banks)",
    allowed: Allowed::Range {
        min: *BANK_BITS_RANGE.start() as u64,
        max: *BANK_BITS_RANGE.end() as u64,
    },
    default: "12",
    default_note: "",
    omitted_at_default: false,
};

/// Key width W in bits.
pub const KEY_BITS: Param = Param {
    name: "key_bits",
    flag: "key-bits",
    help: "Key width in bits",
    allowed: Allowed::OneOf(&KEY_BITS_ALLOWED),
    default: "64",
    default_note: "",
    omitted_at_default: false,
};

/// Hash family.
pub const HASH: Param = Param {
    name: "hash",
    flag: "hash",
    help: "Hash family (docs/contract.md section 3)",
    allowed: Allowed::Names(&HashFamily::NAMES),
    default: "feistel",
    default_note: "spn with key_bits = 128, where feistel is not defined",
    omitted_at_default: false,
};

/// Hash seed s.
pub const SEED: Param = Param {
    name: "seed",
    flag: "seed",
    help: "Hash seed (docs/contract.md section 3)",
    allowed: Allowed::AnyU64,
    default: "0",
    default_note: "",
    omitted_at_default: false,
};

/// Counter width c in bits (contract §7): each address of a bank holds a
/// saturating counter of c bits; 1 is the plain filter of one bit per address.
pub const COUNTER_BITS: Param = Param {
    name: "counter_bits",
    flag: "counter-bits",
    help: "Bits per counter (1 = plain filter; 2..=8 = counting filter with delete, docs/contract.md section 7)",
    allowed: Allowed::Range { min: *COUNTER_BITS_RANGE.start() as u64, max: *COUNTER_BITS_RANGE.end() as u64 },
    default: "1",
    default_note: "",
    omitted_at_default: true,
};

/// Every parameter, in the contract's order (the order of JSON fields and of `Display`).
pub const PARAMS: [&Param; 6] = [&K, &BANK_BITS, &KEY_BITS, &HASH, &SEED, &COUNTER_BITS];

/// docs/core.md's parameter table: one row per parameter, from [`PARAMS`].
pub fn markdown_table() -> String {
    let mut t = String::from(
        "| parameter | option | allowed | default | meaning |\n|---|---|---|---|---|\n",
    );
    for p in PARAMS {
        t += &format!(
            "| `{}` | `--{}` | {} | {} | {} |\n",
            p.name,
            p.flag,
            p.allowed,
            p.default_text(),
            p.help
        );
    }
    t
}

/// A parameter value that is not allowed, or a configuration JSON object that is malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("{name} = {value} is not allowed (allowed: {allowed})")]
    NotAllowed {
        name: &'static str,
        value: String,
        allowed: String,
    },
    #[error("invalid configuration JSON: {0}")]
    Json(String),
}

/// A filter's configuration (contract §1).
///
/// Build values with [`CoreParams::new`] (or [`CoreParams::from_json`],
/// [`CoreParams::from_lookup`]) so that every value is within the ranges of
/// [`PARAMS`]; the fields are public for reading, and [`CoreParams::validate`]
/// checks a value built by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "serde_json::Value", into = "serde_json::Value")]
pub struct CoreParams {
    /// Number of partitions k (hash units and banks), 1..=16.
    pub k: u32,
    /// Bank size exponent b: each bank holds 2^b bits, 6..=16.
    pub bank_bits: u32,
    /// Key width W in bits: 32, 64 or 128.
    pub key_bits: u32,
    /// Hash family.
    pub hash: HashFamily,
    /// Hash seed s, any 64-bit value.
    pub seed: u64,
    /// Counter width c in bits, 1..=8: 1 is the plain filter, 2..=8 a
    /// counting filter (contract §7).
    pub counter_bits: u32,
}

impl Default for CoreParams {
    fn default() -> Self {
        CoreParams::from_lookup(|_| None).expect("the table's defaults are allowed values")
    }
}

impl CoreParams {
    /// Builds a plain filter's configuration (c = 1), rejecting any value
    /// outside [`PARAMS`] with an error naming the parameter, the value given
    /// and the values allowed.
    pub fn new(
        k: u32,
        bank_bits: u32,
        key_bits: u32,
        hash: HashFamily,
        seed: u64,
    ) -> Result<CoreParams, ParamError> {
        let p = CoreParams {
            k,
            bank_bits,
            key_bits,
            hash,
            seed,
            counter_bits: 1,
        };
        p.validate()?;
        Ok(p)
    }

    /// This configuration with counter width `counter_bits` (checked like [`CoreParams::new`]).
    pub fn with_counter_bits(self, counter_bits: u32) -> Result<CoreParams, ParamError> {
        COUNTER_BITS.check(counter_bits as u64)?;
        Ok(CoreParams {
            counter_bits,
            ..self
        })
    }

    /// True for c > 1: a counting filter (contract §7).
    pub fn is_counting(&self) -> bool {
        self.counter_bits > 1
    }

    /// This configuration with c = 1: the plain filter its 0-1 projection is (contract §7.5).
    pub fn plain(&self) -> CoreParams {
        CoreParams {
            counter_bits: 1,
            ..*self
        }
    }

    /// Checks every field against [`PARAMS`].
    pub fn validate(&self) -> Result<(), ParamError> {
        for p in PARAMS {
            if let Value::Number(n) = self.get(p) {
                p.check(n)?;
            }
        }
        self.check_combination()
    }

    /// The checks across parameters: the key width must be one the hash
    /// family is defined for.
    fn check_combination(&self) -> Result<(), ParamError> {
        self.hash.check_key_bits(self.key_bits)
    }

    /// The value of parameter `p`.
    pub fn get(&self, p: &Param) -> Value {
        match p.name {
            "k" => Value::Number(self.k as u64),
            "bank_bits" => Value::Number(self.bank_bits as u64),
            "key_bits" => Value::Number(self.key_bits as u64),
            "hash" => Value::Name(self.hash.name()),
            "seed" => Value::Number(self.seed),
            "counter_bits" => Value::Number(self.counter_bits as u64),
            other => unreachable!("parameter `{other}` is not in the table"),
        }
    }

    /// Sets parameter `p` to `value` (already checked against `p`).
    fn set(&mut self, p: &Param, value: Value) -> Result<(), ParamError> {
        let number = |v: Value| match v {
            Value::Number(n) => Ok(n),
            Value::Name(s) => Err(p.not_allowed(s)),
        };
        match p.name {
            "k" => self.k = number(value)? as u32,
            "bank_bits" => self.bank_bits = number(value)? as u32,
            "key_bits" => self.key_bits = number(value)? as u32,
            "hash" => self.hash = value.to_string().parse()?,
            "seed" => self.seed = number(value)?,
            "counter_bits" => self.counter_bits = number(value)? as u32,
            other => unreachable!("parameter `{other}` is not in the table"),
        }
        Ok(())
    }

    /// Builds a configuration from typed-in values: `lookup(p)` gives the
    /// text for parameter `p`, or None for its default. The first value that
    /// is not allowed is the error.
    pub fn from_lookup(
        mut lookup: impl FnMut(&'static Param) -> Option<String>,
    ) -> Result<CoreParams, ParamError> {
        let mut cfg = CoreParams {
            k: 0,
            bank_bits: 0,
            key_bits: 0,
            hash: HashFamily::H3,
            seed: 0,
            counter_bits: 0,
        };
        for p in PARAMS {
            let value = match lookup(p) {
                Some(text) => p.parse(&text)?,
                // KEY_BITS comes before HASH in PARAMS.
                None if *p == HASH => Value::Name(HashFamily::default_for(cfg.key_bits).name()),
                None => p.default_value(),
            };
            cfg.set(p, value)?;
        }
        cfg.check_combination()?;
        Ok(cfg)
    }

    /// `{"k":..,"bank_bits":..,"key_bits":..,"hash":"h3"|"crc","seed":..,"counter_bits":..}`,
    /// `counter_bits` only when it is not 1.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Object(self.json_fields())
    }

    /// The fields of [`CoreParams::to_json`], to merge into a larger object.
    pub fn json_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        PARAMS
            .iter()
            .filter(|p| !p.omitted(self.get(p)))
            .map(|p| (p.name.to_string(), self.get(p).to_json()))
            .collect()
    }

    /// Reads the object written by [`CoreParams::to_json`]: every field is
    /// required except those [`Param::omitted_at_default`] (absent means the
    /// default), unknown fields are rejected, and the values are validated.
    pub fn from_json(value: &serde_json::Value) -> Result<CoreParams, ParamError> {
        let obj = value
            .as_object()
            .ok_or_else(|| ParamError::Json(format!("expected a JSON object, found {value}")))?;
        if let Some(unknown) = obj
            .keys()
            .find(|key| !PARAMS.iter().any(|p| p.name == key.as_str()))
        {
            return Err(ParamError::Json(format!(
                "unknown field \"{unknown}\"; allowed fields: {}",
                PARAMS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
            )));
        }
        Self::from_json_fields(obj)
    }

    /// Reads the parameters' fields out of a larger JSON object (an image
    /// header): every parameter's field is required except those
    /// [`Param::omitted_at_default`]; other fields are the caller's to check.
    pub fn from_json_fields(
        obj: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<CoreParams, ParamError> {
        let mut cfg = CoreParams::default();
        for p in PARAMS {
            let value = match obj.get(p.name) {
                Some(field) => p.from_json(field)?,
                None if p.omitted_at_default => p.default_value(),
                None => return Err(ParamError::Json(format!("missing field \"{}\"", p.name))),
            };
            cfg.set(p, value)?;
        }
        cfg.check_combination()?;
        Ok(cfg)
    }

    /// Bits per bank, 2^b.
    pub fn bank_size(&self) -> u32 {
        1u32 << self.bank_bits
    }

    /// Total filter bits m = k * 2^b.
    pub fn total_bits(&self) -> u64 {
        self.k as u64 * self.bank_size() as u64
    }

    /// The largest key accepted, 2^W - 1.
    pub fn max_key(&self) -> u128 {
        max_key(self.key_bits)
    }

    /// Names every parameter in which `self` and `other` differ, e.g.
    /// `k: 4 vs 8, seed: 0 vs 1`; empty when they are equal.
    pub fn differences(&self, other: &CoreParams) -> String {
        PARAMS
            .iter()
            .filter(|p| self.get(p) != other.get(p))
            .map(|p| format!("{}: {} vs {}", p.name, self.get(p), other.get(p)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A short label for file and test names: `h3_k4_b12_w64_s0`, `_c4` appended for c = 4.
    pub fn label(&self) -> String {
        let mut label = format!(
            "{}_k{}_b{}_w{}_s{}",
            self.hash, self.k, self.bank_bits, self.key_bits, self.seed
        );
        if !COUNTER_BITS.omitted(self.get(&COUNTER_BITS)) {
            label += &format!("_c{}", self.counter_bits);
        }
        label
    }
}

/// The largest key of a `key_bits`-bit key width, 2^W - 1.
pub fn max_key(key_bits: u32) -> u128 {
    if key_bits >= 128 {
        u128::MAX
    } else {
        (1u128 << key_bits) - 1
    }
}

impl fmt::Display for CoreParams {
    /// `k=4 bank_bits=12 key_bits=64 hash=h3 seed=0`, ` counter_bits=4` appended for c = 4.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = PARAMS
            .iter()
            .filter(|p| !p.omitted(self.get(p)))
            .map(|p| format!("{}={}", p.name, self.get(p)))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

impl TryFrom<serde_json::Value> for CoreParams {
    type Error = ParamError;
    fn try_from(value: serde_json::Value) -> Result<Self, ParamError> {
        CoreParams::from_json(&value)
    }
}

impl From<CoreParams> for serde_json::Value {
    fn from(p: CoreParams) -> serde_json::Value {
        p.to_json()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_outside_the_table_is_rejected_with_its_name_and_range() {
        let err = CoreParams::new(0, 12, 64, HashFamily::H3, 0)
            .unwrap_err()
            .to_string();
        assert_eq!(err, "k = 0 is not allowed (allowed: 1..=16)");
        assert!(CoreParams::new(17, 12, 64, HashFamily::H3, 0)
            .unwrap_err()
            .to_string()
            .contains("k = 17"));
        for b in [0, 5, 17, 40] {
            let err = CoreParams::new(4, b, 64, HashFamily::H3, 0)
                .unwrap_err()
                .to_string();
            assert_eq!(
                err,
                format!("bank_bits = {b} is not allowed (allowed: 6..=16)")
            );
        }
        for w in [0, 8, 16, 48, 96, 256] {
            let err = CoreParams::new(4, 12, w, HashFamily::Crc, 0)
                .unwrap_err()
                .to_string();
            assert_eq!(
                err,
                format!("key_bits = {w} is not allowed (allowed: 32, 64, 128)")
            );
        }
        for k in 1..=16 {
            for b in 6..=16 {
                for w in [32, 64, 128] {
                    assert!(CoreParams::new(k, b, w, HashFamily::Crc, u64::MAX).is_ok());
                }
            }
        }
    }

    #[test]
    fn hash_family_names_round_trip_and_unknown_names_are_rejected() {
        for family in HashFamily::ALL {
            assert_eq!(family.to_string().parse::<HashFamily>().unwrap(), family);
            let json = serde_json::to_string(&family).unwrap();
            assert_eq!(json, format!("\"{family}\""));
            assert_eq!(serde_json::from_str::<HashFamily>(&json).unwrap(), family);
        }
        assert_eq!(
            "md5".parse::<HashFamily>().unwrap_err().to_string(),
            "hash = md5 is not allowed (allowed: h3, crc, spn, feistel)"
        );
        assert_eq!(
            HASH.allowed,
            Allowed::Names(&["h3", "crc", "spn", "feistel"])
        );
        assert_eq!(
            HashFamily::ALL.map(|h| h.name()),
            ["h3", "crc", "spn", "feistel"]
        );
        for (i, family) in HashFamily::ALL.into_iter().enumerate() {
            assert_eq!(family.code() as usize, i);
            assert_eq!(HashFamily::from_code(i as u8), Some(family));
        }
        assert_eq!(HashFamily::from_code(4), None);
        assert_eq!(HashFamily::from_code(255), None);
    }

    #[test]
    fn default_is_the_tables_defaults_k4_b12_w64_feistel_seed0() {
        assert_eq!(
            CoreParams::default(),
            CoreParams::new(4, 12, 64, HashFamily::Feistel, 0).unwrap()
        );
        assert_eq!(
            CoreParams::default().to_string(),
            "k=4 bank_bits=12 key_bits=64 hash=feistel seed=0"
        );
        assert_eq!(CoreParams::default().label(), "feistel_k4_b12_w64_s0");
        // The table's default is the enum's.
        assert_eq!(HASH.default, HashFamily::default().name());
    }

    #[test]
    fn the_default_family_is_feistel_where_it_is_defined_else_spn() {
        let with_width =
            |w: &'static str| move |p: &Param| (p.name == "key_bits").then(|| w.to_string());
        for (w, family) in [
            ("32", HashFamily::Feistel),
            ("64", HashFamily::Feistel),
            ("128", HashFamily::Spn),
        ] {
            let cfg = CoreParams::from_lookup(with_width(w)).unwrap();
            assert_eq!(cfg.hash, family, "key_bits = {w}");
            assert_eq!(HashFamily::default_for(cfg.key_bits), family);
        }
        // A family named is taken as named, and checked against the width.
        let named = |p: &Param| match p.name {
            "key_bits" => Some("128".to_string()),
            "hash" => Some("h3".to_string()),
            _ => None,
        };
        assert_eq!(CoreParams::from_lookup(named).unwrap().hash, HashFamily::H3);
        let feistel_128 = |p: &Param| match p.name {
            "key_bits" => Some("128".to_string()),
            "hash" => Some("feistel".to_string()),
            _ => None,
        };
        assert!(CoreParams::from_lookup(feistel_128).is_err());
        // The table says so.
        assert!(markdown_table().contains("| feistel (spn with key_bits = 128"));
    }

    #[test]
    fn lookup_parses_typed_values_and_names_the_bad_one() {
        let text = |p: &Param| match p.name {
            "k" => Some("7".to_string()),
            "hash" => Some("crc".to_string()),
            "seed" => Some(u64::MAX.to_string()),
            _ => None,
        };
        assert_eq!(
            CoreParams::from_lookup(text).unwrap(),
            CoreParams::new(7, 12, 64, HashFamily::Crc, u64::MAX).unwrap()
        );
        let err = CoreParams::from_lookup(|p| (p.name == "key_bits").then(|| "48".to_string()))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "key_bits = 48 is not allowed (allowed: 32, 64, 128)"
        );
        let err =
            CoreParams::from_lookup(|p| (p.name == "seed").then(|| "-1".to_string())).unwrap_err();
        assert!(
            err.to_string().starts_with("seed = -1 is not allowed"),
            "{err}"
        );
    }

    #[test]
    fn json_round_trips_and_rejects_bad_objects() {
        let cfg = CoreParams::new(7, 9, 128, HashFamily::Crc, u64::MAX).unwrap();
        assert_eq!(CoreParams::from_json(&cfg.to_json()).unwrap(), cfg);
        let text = serde_json::to_string(&cfg).unwrap();
        assert_eq!(
            text,
            format!(
                r#"{{"bank_bits":9,"hash":"crc","k":7,"key_bits":128,"seed":{}}}"#,
                u64::MAX
            )
        );
        assert_eq!(serde_json::from_str::<CoreParams>(&text).unwrap(), cfg);
        let bad = [
            r#"[1,2]"#,
            r#"{"k":4,"bank_bits":12,"key_bits":64,"hash":"h3"}"#,
            r#"{"k":4,"bank_bits":12,"key_bits":64,"hash":"h3","seed":-1}"#,
            r#"{"k":4,"bank_bits":12,"key_bits":64,"hash":3,"seed":0}"#,
            r#"{"k":4,"bank_bits":12,"key_bits":64,"hash":"sha","seed":0}"#,
            r#"{"k":4,"bank_bits":99,"key_bits":64,"hash":"h3","seed":0}"#,
            r#"{"k":4,"bank_bits":12,"key_bits":64,"hash":"h3","seed":0,"extra":1}"#,
            r#"{"k":4.5,"bank_bits":12,"key_bits":64,"hash":"h3","seed":0}"#,
            r#"{"k":4294967297,"bank_bits":12,"key_bits":64,"hash":"h3","seed":0}"#,
        ];
        for text in bad {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            assert!(
                CoreParams::from_json(&value).is_err(),
                "{text} was accepted"
            );
            assert!(
                serde_json::from_str::<CoreParams>(text).is_err(),
                "{text} was accepted by serde"
            );
        }
    }

    #[test]
    fn differences_name_each_differing_parameter() {
        let a = CoreParams::default();
        let b = CoreParams { k: 8, seed: 3, ..a };
        assert_eq!(a.differences(&a), "");
        assert_eq!(a.differences(&b), "k: 4 vs 8, seed: 0 vs 3");
    }

    #[test]
    fn counter_bits_defaults_to_1_is_left_out_at_1_and_checked_against_1_to_8() {
        let plain = CoreParams::default();
        assert_eq!(plain.counter_bits, 1);
        assert!(!plain.is_counting());
        let c4 = plain.with_counter_bits(4).unwrap();
        assert!(c4.is_counting());
        assert_eq!(c4.plain(), plain);
        for c in [0, 9, 16, 255] {
            assert_eq!(
                plain.with_counter_bits(c).unwrap_err().to_string(),
                format!("counter_bits = {c} is not allowed (allowed: 1..=8)")
            );
        }
        for c in 1..=8 {
            assert!(plain.with_counter_bits(c).is_ok());
        }
        // c = 1 prints, labels and serialises exactly as before the parameter existed.
        assert_eq!(
            plain.to_string(),
            "k=4 bank_bits=12 key_bits=64 hash=feistel seed=0"
        );
        assert_eq!(plain.label(), "feistel_k4_b12_w64_s0");
        assert!(!plain
            .to_json()
            .as_object()
            .unwrap()
            .contains_key("counter_bits"));
        assert_eq!(
            c4.to_string(),
            "k=4 bank_bits=12 key_bits=64 hash=feistel seed=0 counter_bits=4"
        );
        assert_eq!(c4.label(), "feistel_k4_b12_w64_s0_c4");
        assert_eq!(c4.to_json()["counter_bits"], 4);
        assert_eq!(CoreParams::from_json(&c4.to_json()).unwrap(), c4);
        assert_eq!(CoreParams::from_json(&plain.to_json()).unwrap(), plain);
        let one = serde_json::json!({"k":4,"bank_bits":12,"key_bits":64,"hash":"feistel","seed":0,"counter_bits":1});
        assert_eq!(CoreParams::from_json(&one).unwrap(), plain);
        let bad = serde_json::json!({"k":4,"bank_bits":12,"key_bits":64,"hash":"h3","seed":0,"counter_bits":9});
        assert!(CoreParams::from_json(&bad)
            .unwrap_err()
            .to_string()
            .contains("counter_bits = 9"));
        let err = CoreParams::from_lookup(|p| (p.name == "counter_bits").then(|| "0".to_string()))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "counter_bits = 0 is not allowed (allowed: 1..=8)"
        );
        assert_eq!(plain.differences(&c4), "counter_bits: 1 vs 4");
    }

    #[test]
    fn table_names_flags_and_defaults_are_consistent() {
        for p in PARAMS {
            assert_eq!(p.flag.replace('-', "_"), p.name);
            assert!(
                p.parse(p.default).is_ok(),
                "{} default {}",
                p.name,
                p.default
            );
            assert!(!p.help.is_empty());
        }
    }

    #[test]
    fn feistel_takes_32_and_64_bit_keys_only() {
        for w in [32, 64] {
            CoreParams::new(4, 12, w, HashFamily::Feistel, 0).unwrap();
        }
        let expected = "key_bits = 128 is not allowed (allowed: 32, 64 with hash = feistel)";
        let err = CoreParams::new(4, 12, 128, HashFamily::Feistel, 0).unwrap_err();
        assert_eq!(err.to_string(), expected);
        let json =
            serde_json::json!({"k":4,"bank_bits":12,"key_bits":128,"hash":"feistel","seed":0});
        assert_eq!(
            CoreParams::from_json(&json).unwrap_err().to_string(),
            expected
        );
        let lookup = CoreParams::from_lookup(|p| match p.name {
            "hash" => Some("feistel".to_string()),
            "key_bits" => Some("128".to_string()),
            _ => None,
        });
        assert_eq!(lookup.unwrap_err().to_string(), expected);
        assert_eq!(HashFamily::from_code(3), Some(HashFamily::Feistel));
        assert_eq!(HashFamily::from_code(4), None);
    }
}
