//! Filter configuration (contract §1) and its validation.

use std::fmt;
use std::str::FromStr;

use crate::error::ConfigError;

/// Allowed number of partitions (contract §1).
pub const K_RANGE: std::ops::RangeInclusive<u32> = 1..=16;
/// Allowed bank size exponents b, a bank holding 2^b bits (contract §1).
pub const BANK_BITS_RANGE: std::ops::RangeInclusive<u32> = 6..=16;
/// Allowed key widths W in bits (contract §1).
pub const KEY_BITS_ALLOWED: [u32; 3] = [32, 64, 128];

/// The hash family of every partition's hash unit (contract §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum HashFamily {
    /// Random GF(2) matrix per partition, rows from SplitMix64 (contract §3.1).
    #[default]
    H3,
    /// One catalogue CRC per partition, 16-bit fields (contract §3.2).
    Crc,
}

impl HashFamily {
    /// The name used on the command line and in image headers.
    pub fn name(self) -> &'static str {
        match self {
            HashFamily::H3 => "h3",
            HashFamily::Crc => "crc",
        }
    }
}

impl fmt::Display for HashFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HashFamily {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "h3" => Ok(HashFamily::H3),
            "crc" => Ok(HashFamily::Crc),
            other => Err(ConfigError::UnknownHash(other.to_string())),
        }
    }
}

/// A complete, validated description of a partitioned filter.
///
/// The fields are public for reading; build values with [`Config::new`] (or
/// check hand-built ones with [`Config::validate`]) so that every value is
/// within the ranges of contract §1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            k: 4,
            bank_bits: 12,
            key_bits: 64,
            hash: HashFamily::H3,
            seed: 0,
        }
    }
}

impl Config {
    /// Builds a configuration, rejecting any value outside contract §1 with an
    /// error naming the parameter, the value given and the values allowed.
    pub fn new(
        k: u32,
        bank_bits: u32,
        key_bits: u32,
        hash: HashFamily,
        seed: u64,
    ) -> Result<Config, ConfigError> {
        let cfg = Config {
            k,
            bank_bits,
            key_bits,
            hash,
            seed,
        };
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks every field against contract §1.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !K_RANGE.contains(&self.k) {
            return Err(ConfigError::OutOfRange {
                parameter: "k (partitions)",
                value: self.k as u64,
                allowed: "1..=16",
            });
        }
        if !BANK_BITS_RANGE.contains(&self.bank_bits) {
            return Err(ConfigError::OutOfRange {
                parameter: "bank_bits (log2 of bits per bank)",
                value: self.bank_bits as u64,
                allowed: "6..=16",
            });
        }
        check_key_bits(self.key_bits)
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

    /// `{"k":..,"bank_bits":..,"key_bits":..,"hash":"h3"|"crc","seed":..}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "k": self.k,
            "bank_bits": self.bank_bits,
            "key_bits": self.key_bits,
            "hash": self.hash.name(),
            "seed": self.seed,
        })
    }

    /// Reads the object written by [`Config::to_json`]; every field is
    /// required, unknown fields are rejected, and the values are validated.
    pub fn from_json(value: &serde_json::Value) -> Result<Config, ConfigError> {
        let obj = value
            .as_object()
            .ok_or_else(|| ConfigError::Json(format!("expected a JSON object, found {value}")))?;
        const FIELDS: [&str; 5] = ["k", "bank_bits", "key_bits", "hash", "seed"];
        if let Some(unknown) = obj.keys().find(|key| !FIELDS.contains(&key.as_str())) {
            return Err(ConfigError::Json(format!(
                "unknown field \"{unknown}\"; allowed fields: k, bank_bits, key_bits, hash, seed"
            )));
        }
        let k = json_u32(obj, "k")?;
        let bank_bits = json_u32(obj, "bank_bits")?;
        let key_bits = json_u32(obj, "key_bits")?;
        let hash = match obj.get("hash") {
            Some(serde_json::Value::String(name)) => name.parse()?,
            Some(other) => {
                return Err(ConfigError::Json(format!(
                    "field \"hash\" must be the string \"h3\" or \"crc\", found {other}"
                )))
            }
            None => return Err(ConfigError::Json("missing field \"hash\"".into())),
        };
        let seed = json_u64(obj, "seed")?;
        Config::new(k, bank_bits, key_bits, hash, seed)
    }

    /// Names every field in which `self` and `other` differ, e.g.
    /// `k: 4 vs 8, seed: 0 vs 1`; empty when they are equal.
    pub fn differences(&self, other: &Config) -> String {
        let mut out = Vec::new();
        if self.k != other.k {
            out.push(format!("k: {} vs {}", self.k, other.k));
        }
        if self.bank_bits != other.bank_bits {
            out.push(format!(
                "bank_bits: {} vs {}",
                self.bank_bits, other.bank_bits
            ));
        }
        if self.key_bits != other.key_bits {
            out.push(format!("key_bits: {} vs {}", self.key_bits, other.key_bits));
        }
        if self.hash != other.hash {
            out.push(format!("hash: {} vs {}", self.hash, other.hash));
        }
        if self.seed != other.seed {
            out.push(format!("seed: {} vs {}", self.seed, other.seed));
        }
        out.join(", ")
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "k={} bank_bits={} key_bits={} hash={} seed={}",
            self.k, self.bank_bits, self.key_bits, self.hash, self.seed
        )
    }
}

pub(crate) fn check_key_bits(key_bits: u32) -> Result<(), ConfigError> {
    if KEY_BITS_ALLOWED.contains(&key_bits) {
        Ok(())
    } else {
        Err(ConfigError::OutOfRange {
            parameter: "key_bits (key width)",
            value: key_bits as u64,
            allowed: "32, 64 or 128",
        })
    }
}

pub(crate) fn max_key(key_bits: u32) -> u128 {
    if key_bits >= 128 {
        u128::MAX
    } else {
        (1u128 << key_bits) - 1
    }
}

fn json_u64(
    obj: &serde_json::Map<String, serde_json::Value>,
    name: &str,
) -> Result<u64, ConfigError> {
    match obj.get(name) {
        Some(value) => value.as_u64().ok_or_else(|| {
            ConfigError::Json(format!(
                "field \"{name}\" must be an unsigned integer below 2^64, found {value}"
            ))
        }),
        None => Err(ConfigError::Json(format!("missing field \"{name}\""))),
    }
}

fn json_u32(
    obj: &serde_json::Map<String, serde_json::Value>,
    name: &str,
) -> Result<u32, ConfigError> {
    let value = json_u64(obj, name)?;
    u32::try_from(value).map_err(|_| {
        ConfigError::Json(format!(
            "field \"{name}\" is {value}, far outside its allowed range"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_out_of_range_value_is_rejected_with_its_name_and_range() {
        let err = Config::new(0, 12, 64, HashFamily::H3, 0)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("k (partitions)") && err.contains("1..=16") && err.contains(" 0"),
            "{err}"
        );
        let err = Config::new(17, 12, 64, HashFamily::H3, 0)
            .unwrap_err()
            .to_string();
        assert!(err.contains("17"), "{err}");
        for b in [0, 5, 17, 40] {
            let err = Config::new(4, b, 64, HashFamily::H3, 0)
                .unwrap_err()
                .to_string();
            assert!(err.contains("bank_bits") && err.contains("6..=16"), "{err}");
        }
        for w in [0, 8, 16, 48, 96, 256] {
            let err = Config::new(4, 12, w, HashFamily::Crc, 0)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("key_bits") && err.contains("32, 64 or 128"),
                "{err}"
            );
        }
        for k in 1..=16 {
            for b in 6..=16 {
                for w in KEY_BITS_ALLOWED {
                    assert!(Config::new(k, b, w, HashFamily::Crc, u64::MAX).is_ok());
                }
            }
        }
    }

    #[test]
    fn hash_family_names_round_trip_and_unknown_names_are_rejected() {
        for family in [HashFamily::H3, HashFamily::Crc] {
            assert_eq!(family.to_string().parse::<HashFamily>().unwrap(), family);
        }
        let err = "md5".parse::<HashFamily>().unwrap_err().to_string();
        assert!(
            err.contains("md5") && err.contains("h3") && err.contains("crc"),
            "{err}"
        );
    }

    #[test]
    fn default_is_k4_b12_w64_h3_seed0() {
        assert_eq!(
            Config::default(),
            Config::new(4, 12, 64, HashFamily::H3, 0).unwrap()
        );
    }

    #[test]
    fn json_round_trips_and_rejects_bad_objects() {
        let cfg = Config::new(7, 9, 128, HashFamily::Crc, u64::MAX).unwrap();
        assert_eq!(Config::from_json(&cfg.to_json()).unwrap(), cfg);
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
            assert!(Config::from_json(&value).is_err(), "{text} was accepted");
        }
    }

    #[test]
    fn differences_name_each_differing_field() {
        let a = Config::default();
        let b = Config { k: 8, seed: 3, ..a };
        assert_eq!(a.differences(&a), "");
        assert_eq!(a.differences(&b), "k: 4 vs 8, seed: 0 vs 3");
    }
}
