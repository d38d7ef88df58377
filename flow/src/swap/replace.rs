//! Writing the swapped bitstream: the image checked against the bitstream's
//! signature, the banks rewritten and read back, the new bitstream and its manifest
//! put in place through `bloom_files`.

use super::cells::{bank_bits_total, differing_bits, fills, open, read_bitstream, scratch, Open};
use super::manifest::{beside, manifest_path, Beside, Manifest, MANIFEST_LIMIT};
use super::signature::{hex, image_digest, sha256_hex, signature_of, Signature, SIGNATURE_TAG};
use super::{invalid, io};
use crate::bitstream::{self, Asc};
use crate::tools::{self, Progress, Tool};
use crate::FlowError;
use hdl::CoreParams;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// What a swap did.
#[derive(Clone, Debug, Serialize)]
pub struct SwapReport {
    pub bitstream: String,
    pub out: String,
    pub image: String,
    pub family: String,
    pub core: CoreParams,
    pub cells: usize,
    /// Bank bits (counter bits included) written and read back from the new bitstream.
    pub bits_checked: u64,
    pub bits_differing: u64,
    pub fill: Vec<u64>,
    pub manifest: Option<String>,
    /// Warnings (a stale manifest).
    pub warnings: Vec<String>,
    pub seconds: f64,
}

/// Replaces the filter in `input` by the image in `image_dir`, writing `out` (which may
/// be `input`) and its manifest; see the module doc for what is refused.
pub fn swap(input: &Path, image_dir: &Path, out: &Path) -> Result<SwapReport, FlowError> {
    let start = Instant::now();
    let mut warnings = Vec::new();
    // The output is checked before any work: a swap writes only a new file or over a
    // writable regular file.
    bloom_files::check_file_target(out).map_err(|e| invalid(format!("--out {e}")))?;
    let bytes = read_bitstream(input)?;
    let (header, sig) =
        signature_of(&bytes).map_err(|e| invalid(format!("{}: {e}", input.display())))?;
    let (image_params, image) =
        hdl::image::read_image_values(image_dir).map_err(|e| invalid(e.to_string()))?;
    if image_params.is_counting() != sig.params.is_counting() {
        let kind = |p: &CoreParams| {
            if p.is_counting() {
                format!("a counting filter's (counter_bits = {})", p.counter_bits)
            } else {
                "a plain filter's".to_string()
            }
        };
        return Err(invalid(format!(
            "the image {} is {} but the bitstream {} holds {}: a swap cannot change the kind of filter{}",
            image_dir.display(),
            if image_params.is_counting() { "a counting image" } else { "a plain image" },
            input.display(),
            kind(&sig.params),
            if image_params.is_counting() { "; `bloom image plain` gives a counting image's 0-1 projection" } else { "" }
        )));
    }
    if image_params != sig.params {
        return Err(invalid(format!(
            "the image {} is of another configuration than the bitstream {} (image vs bitstream: {}); \
             a swap cannot change the configuration: build a bitstream for it with bloom build --preload",
            image_dir.display(),
            input.display(),
            image_params.differences(&sig.params)
        )));
    }
    let work = scratch("swap")?;
    let mut opened = open(&bytes, &header, &sig, work.path())
        .map_err(|e| invalid(format!("{}: {e}", input.display())))?;
    let current = opened.banks(&sig);
    if image_digest(sig.params.counter_bits, &current) != sig.image_sha256 {
        return Err(invalid(format!(
            "{}: its banks do not hold the filter its signature describes (SHA-256 differs): the bitstream was \
             changed by another tool, or its block RAMs are not where the signature says. Nothing was written",
            input.display()
        )));
    }
    // The input's manifest is read only if it is a regular file (through a link too)
    // of at most MANIFEST_LIMIT bytes: anything else there is an error, not a hang.
    let input_manifest = manifest_path(input);
    let old_manifest = if std::fs::symlink_metadata(&input_manifest).is_ok() {
        let text = bloom_files::read_to_string(&input_manifest, "swap manifest", MANIFEST_LIMIT)
            .map_err(|e| invalid(format!("the bitstream's manifest {e}")))?;
        match Manifest::parse(&input_manifest, &text) {
            Ok(m) if m.bitstream_sha256 == sha256_hex(&bytes) && m.signature == sig.line() => {
                Some(m)
            }
            Ok(_) => {
                warnings.push(format!(
                    "{} describes another bitstream (stale); the bitstream's own signature was used",
                    input_manifest.display()
                ));
                None
            }
            Err(_) => None,
        }
    } else {
        None
    };
    // What is beside the output now: only a swap manifest is replaced or removed.
    let out_manifest = manifest_path(out);
    let out_beside = beside(out);
    let new_sig = Signature {
        image_sha256: image_digest(sig.params.counter_bits, &image),
        ..sig.clone()
    };
    opened.write_banks(&new_sig, &image);
    // The new bitstream, and its banks read back before it replaces anything: ECP5
    // from the patched bytes; iCE40 from the design text icepack packed (a second
    // iceunpack would double the swap's time; `bloom image readback` and the tests
    // unpack swapped bitstreams with iceunpack).
    let (new_bytes, back) = match &mut opened {
        Open::Ecp5 { bytes, .. } => {
            let h = bitstream::read_header(bytes)?;
            let comments = with_signature(&h.comments, &new_sig);
            let new_bytes = bitstream::with_comments(bytes, &h, &comments);
            let h2 = bitstream::read_header(&new_bytes)?;
            let back = open(&new_bytes, &h2, &new_sig, work.path())?.banks(&new_sig);
            (new_bytes, back)
        }
        Open::Ice40 { asc } => {
            let comments = with_signature(&asc.comments(), &new_sig);
            asc.set_comments(&comments);
            let text = asc.text();
            let path = work.path().join("out.asc");
            std::fs::write(&path, &text).map_err(|e| io("writing", &path, e))?;
            tools::run(
                Tool::Icepack,
                &["out.asc".into(), "out.bin".into()],
                work.path(),
                &work.path().join("icepack.log"),
                &Progress::quiet(),
            )?;
            let new_bytes = read_bitstream(&work.path().join("out.bin"))?;
            let back = Open::Ice40 {
                asc: Asc::parse(&text)?,
            }
            .banks(&new_sig);
            (new_bytes, back)
        }
    };
    let (_, sig2) = signature_of(&new_bytes)?;
    if sig2 != new_sig {
        return Err(FlowError::Io(
            "the swapped bitstream does not carry the new signature".into(),
        ));
    }
    let differing: u64 = differing_bits(&back, &image).iter().sum();
    if differing != 0 {
        return Err(FlowError::Io(format!(
            "the swapped bitstream reads back {differing} bank bits wrong; nothing was written"
        )));
    }
    let manifest = old_manifest.map(|m| Manifest {
        signature: new_sig.line(),
        image: Some(image_dir.display().to_string()),
        image_sha256: hex(&new_sig.image_sha256),
        fill: fills(&image),
        bitstream: out
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default(),
        bitstream_sha256: sha256_hex(&new_bytes),
        ..m
    });
    bloom_files::write_file(out, &new_bytes).map_err(|e| FlowError::Io(e.to_string()))?;
    let written = match (&manifest, out_beside) {
        (_, Beside::Other(what)) => {
            warnings.push(format!(
                "{what}: left alone{}",
                if manifest.is_some() {
                    ", so no manifest was written for the new bitstream"
                } else {
                    ""
                }
            ));
            None
        }
        (Some(m), _) => {
            m.write(&out_manifest)?;
            Some(out_manifest.display().to_string())
        }
        // A manifest of other contents must not stay beside the new bitstream; it
        // is removed only if it is still a regular file.
        (None, Beside::Manifest) => {
            if std::fs::symlink_metadata(&out_manifest).is_ok_and(|m| m.file_type().is_file()) {
                let _ = std::fs::remove_file(&out_manifest);
            }
            None
        }
        (None, Beside::Nothing) => None,
    };
    let bits = bank_bits_total(&sig.params);
    Ok(SwapReport {
        bitstream: input.display().to_string(),
        out: out.display().to_string(),
        image: image_dir.display().to_string(),
        family: sig.mapping.family().to_string(),
        core: sig.params,
        cells: sig.banks.iter().map(Vec::len).sum(),
        bits_checked: bits,
        bits_differing: differing,
        fill: fills(&image),
        manifest: written,
        warnings,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// A bitstream's comments with the signature's line replaced by `sig`'s.
fn with_signature(comments: &[String], sig: &Signature) -> Vec<String> {
    comments
        .iter()
        .map(|c| {
            if c.starts_with(SIGNATURE_TAG) {
                sig.line()
            } else {
                c.clone()
            }
        })
        .collect()
}
