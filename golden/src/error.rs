//! Error types. Every message names what is wrong and what is allowed.

use std::path::PathBuf;

use thiserror::Error;

/// An invalid configuration value.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// A parameter of contract §1 outside its range, or a malformed configuration object.
    #[error(transparent)]
    Param(#[from] bloom_params::ParamError),
    /// A value of the standard filter's own configuration outside its range.
    #[error("{parameter} = {value} is not allowed (allowed: {allowed})")]
    OutOfRange {
        parameter: &'static str,
        value: u64,
        allowed: &'static str,
    },
    #[error("{0}")]
    Unsupported(String),
}

/// A key that does not fit in the configured key width (contract §2: keys are
/// never truncated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("key {key:#x} does not fit in {key_bits} bits; allowed keys: 0..={max:#x}", max = bloom_params::max_key(*key_bits))]
pub struct KeyError {
    pub key: u128,
    pub key_bits: u32,
}

/// Union or intersection of filters whose configurations differ.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot {operation} filters with different configurations ({differences}); both must have the same k, bank_bits, key_bits, hash and seed")]
pub struct IncompatibleError {
    pub operation: &'static str,
    pub differences: String,
}

/// A memory image (contract §4) that cannot be written or read.
#[derive(Debug, Error)]
pub enum ImageError {
    // Not a `source` field: the message already holds it, and an error
    // chain printed whole would repeat it.
    #[error("{path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path}: file is larger than the {limit} bytes allowed for this file (contract §4)")]
    TooLarge { path: PathBuf, limit: u64 },
    #[error("{path}: invalid image header: {message}")]
    Header { path: PathBuf, message: String },
    #[error("{path}: image configuration differs from the expected one ({differences})")]
    ConfigMismatch { path: PathBuf, differences: String },
    #[error("{path}: {message}")]
    KindMismatch { path: PathBuf, message: String },
    #[error("{path}:{line}: {message}")]
    Line {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error(
        "{path}: {found} data lines, but a bank of 2^{bank_bits} addresses needs exactly {expected}"
    )]
    LineCount {
        path: PathBuf,
        found: usize,
        expected: u32,
        bank_bits: u32,
    },
    #[error("{path}: stray entry in the image directory; an image of k = {k} holds only image.json and bank00.hex..bank{last:02}.hex", last = k - 1)]
    StrayEntry { path: PathBuf, k: u32 },
    #[error("{path}: not a regular file")]
    NotRegularFile { path: PathBuf },
    #[error("{path}: the target directory is not empty (it holds {entry}); an image is written only into a new or empty directory")]
    TargetNotEmpty { path: PathBuf, entry: String },
    #[error("{path}: the target exists and is not a directory")]
    TargetNotDirectory { path: PathBuf },
    /// Writing or reading through `bloom_files` failed (its message names the path).
    #[error("{0}")]
    File(bloom_files::Error),
}

/// Any error of this crate.
#[derive(Debug, Error)]
pub enum Error {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Key(#[from] KeyError),
    #[error(transparent)]
    Incompatible(#[from] IncompatibleError),
    #[error(transparent)]
    Image(#[from] ImageError),
}
