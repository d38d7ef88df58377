//! `NAME.swap.json`, the manifest beside a bloom bitstream: what its build recorded,
//! at more length than the signature, for people and reports.

use super::invalid;
use crate::bram::Mapping;
use crate::FlowError;
use hdl::CoreParams;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const MANIFEST_FORMAT: &str = "bloom-swap-manifest";

/// The manifest beside a bitstream: `bloom.bin` -> `bloom.bin.swap.json`.
pub fn manifest_path(bitstream: &Path) -> PathBuf {
    let mut name = bitstream
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".swap.json");
    bitstream.with_file_name(name)
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ManifestCell {
    /// Yosys's name of the cell (`...parts$0.ram.mem.0.0`).
    pub name: String,
    /// iCE40 RAM tile `x,y` / ECP5 EBR number.
    pub site: String,
}

/// `NAME.swap.json`: what the build recorded, for people and reports. The signature in
/// the bitstream is what a swap trusts; this file says the same at more length.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    /// The bitstream's signature line.
    pub signature: String,
    pub family: String,
    pub part: String,
    pub board: String,
    pub mapping: Mapping,
    pub core: CoreParams,
    /// Per bank, its cells in cell order.
    pub banks: Vec<Vec<ManifestCell>>,
    /// How the build proved the mapping on its netlist.
    pub mapping_check: String,
    /// Where the banks' current contents came from (an image directory; None: empty filter).
    pub image: Option<String>,
    pub image_sha256: String,
    /// 1 bits (a counting core: non-zero counters) per bank of the current contents.
    pub fill: Vec<u64>,
    pub bitstream: String,
    pub bitstream_sha256: String,
    pub tools: BTreeMap<String, String>,
}

impl Manifest {
    /// Writes the manifest at `path` through `bloom_files` (a new file, or over a
    /// writable regular file).
    pub fn write(&self, path: &Path) -> Result<(), FlowError> {
        let text = serde_json::to_string_pretty(self).expect("manifest serialises") + "\n";
        bloom_files::write_file(path, text.as_bytes()).map_err(|e| FlowError::Io(e.to_string()))
    }

    /// Reads a manifest: a regular file of at most [`MANIFEST_LIMIT`] bytes holding a
    /// version 1 manifest.
    pub fn read(path: &Path) -> Result<Manifest, FlowError> {
        let text = bloom_files::read_to_string(path, "swap manifest", MANIFEST_LIMIT)
            .map_err(|e| invalid(e.to_string()))?;
        Self::parse(path, &text)
    }

    pub(super) fn parse(path: &Path, text: &str) -> Result<Manifest, FlowError> {
        let m: Manifest = serde_json::from_str(text)
            .map_err(|e| invalid(format!("{}: not a swap manifest: {e}", path.display())))?;
        if m.format != MANIFEST_FORMAT || m.version != 1 {
            return Err(invalid(format!(
                "{}: not a version 1 {MANIFEST_FORMAT}",
                path.display()
            )));
        }
        Ok(m)
    }
}

/// Largest manifest read (one of the largest configurations' is under 64 KiB).
pub const MANIFEST_LIMIT: u64 = 1 << 20;

/// What is at the manifest path beside a bitstream.
pub(super) enum Beside {
    /// Nothing.
    Nothing,
    /// A swap manifest (written by `bloom build` or `bloom image swap`).
    Manifest,
    /// Something else (a user's file, a link, a FIFO, ...): never read further,
    /// replaced or removed.
    Other(String),
}

/// Looks at the manifest path beside `bitstream` without blocking or reading more
/// than [`MANIFEST_LIMIT`] bytes: a FIFO, a device or a link to one is `Other`, as
/// is a regular file that is not a manifest.
pub(super) fn beside(bitstream: &Path) -> Beside {
    let path = manifest_path(bitstream);
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Beside::Nothing,
        Err(e) => Beside::Other(format!("{}: {e}", path.display())),
        Ok(meta) if !meta.file_type().is_file() => Beside::Other(format!(
            "{} is {}, not a swap manifest",
            path.display(),
            bloom_files::describe(&meta)
        )),
        Ok(_) => match Manifest::read(&path) {
            Ok(_) => Beside::Manifest,
            Err(e) => Beside::Other(e.to_string()),
        },
    }
}
