//! The filter configuration options shared by `verilog`, `sim`, `build`, `fmax`.
//! Conversion into the golden model's and the hardware's own configuration types
//! lives next to each user, so that neither crate depends on the other.

use std::path::PathBuf;

use clap::ValueEnum;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HashArg {
    H3,
    Crc,
}

#[derive(clap::Args, Clone, Debug)]
pub struct CoreArgs {
    /// Number of partitions (hash units and banks), 1..=16.
    #[arg(long, default_value_t = 4)]
    pub k: u32,
    /// log2 of the bits per bank, 6..=16 (12 = 4096-bit banks).
    #[arg(long = "bank-bits", default_value_t = 12)]
    pub bank_bits: u32,
    /// Key width in bits: 32, 64 or 128.
    #[arg(long = "key-bits", default_value_t = 64)]
    pub key_bits: u32,
    /// Hash family.
    #[arg(long, value_enum, default_value_t = HashArg::H3)]
    pub hash: HashArg,
    /// Hash seed (see docs/contract.md).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl From<HashArg> for golden::HashFamily {
    fn from(h: HashArg) -> Self {
        match h {
            HashArg::H3 => golden::HashFamily::H3,
            HashArg::Crc => golden::HashFamily::Crc,
        }
    }
}

impl From<HashArg> for hdl::HashKind {
    fn from(h: HashArg) -> Self {
        match h {
            HashArg::H3 => hdl::HashKind::H3,
            HashArg::Crc => hdl::HashKind::Crc,
        }
    }
}

impl CoreArgs {
    /// The golden model's configuration; an invalid option is an error naming it.
    pub fn golden_config(&self) -> anyhow::Result<golden::Config> {
        Ok(golden::Config::new(self.k, self.bank_bits, self.key_bits, self.hash.into(), self.seed)?)
    }

    /// The hardware's configuration, validated, with an optional preload image.
    pub fn hdl_config(&self, preload: Option<PathBuf>) -> anyhow::Result<hdl::CoreConfig> {
        let cfg = hdl::CoreConfig {
            k: self.k as usize,
            bank_bits: self.bank_bits as usize,
            key_bits: self.key_bits as usize,
            hash: self.hash.into(),
            seed: self.seed,
            preload,
            test_switches: Default::default(),
        };
        cfg.validate()?;
        Ok(cfg)
    }
}
