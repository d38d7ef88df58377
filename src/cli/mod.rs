//! One module per subcommand. Each exposes `Args` (clap) and `run(Args)`.

pub mod build;
pub mod config;
pub mod export;
pub mod fmax;
pub mod fpr;
pub mod fpr_check;
pub mod host;
pub mod image;
pub mod run;
pub mod sim;
pub mod size;
pub mod vectors;
pub mod verilog;

/// Err when something other than a writable regular file is at `target`: an
/// output file option writes only a new file or over a writable regular file
/// (never through a symbolic link, into a FIFO or a device such as
/// /dev/null, over a directory or a read-only file). `option` names the
/// option in the message.
pub fn check_output_file(option: &str, target: &std::path::Path) -> anyhow::Result<()> {
    let Ok(meta) = std::fs::symlink_metadata(target) else {
        return Ok(());
    };
    let t = meta.file_type();
    let what = if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if !t.is_file() {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            "a FIFO"
        } else if t.is_char_device() || t.is_block_device() {
            "a device"
        } else {
            "a socket"
        }
    } else if meta.permissions().readonly() {
        "a read-only file"
    } else {
        return Ok(());
    };
    anyhow::bail!(
        "{option} {}: {} is {what}; an output is written only as a new file or over a writable regular file",
        target.display(),
        target.display()
    )
}
