//! Files in and out of every `bloom` command, one way each.
//!
//! Writing ([`OutputFile`], [`OutputDir`], [`write_file`], [`write_dir`]): the output
//! is made under a fresh, unpredictable name in the target's own directory, created
//! with `O_CREAT | O_EXCL | O_NOFOLLOW` (a directory with `mkdir`, which never follows
//! a link either), written, synced, and renamed onto the target; the directory is
//! synced after the rename. The target may be absent, or a writable regular file (an
//! output file, whose permission bits the new file keeps), or an empty directory (an
//! output directory); anything else there (a symbolic link, a FIFO, a device, a
//! socket, a directory where a file goes, a read-only file, a non-empty directory) is
//! refused before anything is written, and checked again just before the rename. The
//! temporary is removed on every error (a full disk, a file-size limit), when the
//! writer is dropped uncommitted, and on SIGINT, SIGTERM and SIGHUP once
//! [`interrupt::install`] runs. Nothing else next to the target is read or removed.
//!
//! Reading ([`read_file`], [`open_input`]): regular files only (a link to one is
//! followed), opened without blocking (a FIFO gives an error, not a hang) and read up
//! to a bound that fits the format (a link to /dev/zero gives an error, not an
//! exhausted memory).
//!
//! Standard output ([`stdout`]): a closed pipe ends the command quietly with status
//! 141, as a Unix tool killed by SIGPIPE reports it in a shell; any other write error
//! (a full disk, /dev/full) is an error with status 1. Temporaries are removed first.

use std::fmt;
use std::path::{Path, PathBuf};

pub mod input;
pub mod interrupt;
pub mod output;
pub mod stdout;

pub use input::{open_input, read_file, read_to_string};
pub use output::{
    check_dir_target, check_file_target, write_dir, write_file, DirEntry, OutputDir, OutputFile,
    ScratchDir,
};

/// Why a file could not be written or read. The message names the path and the
/// problem; for a refused target, what would have been accepted.
#[derive(Debug)]
pub enum Error {
    /// The output target holds something an output may not replace.
    Target { path: PathBuf, reason: String },
    /// An input that is not a regular file, or is larger than its format allows.
    Input { path: PathBuf, reason: String },
    /// The operating system refused an operation.
    Io {
        what: String,
        path: PathBuf,
        error: std::io::Error,
    },
}

impl Error {
    pub(crate) fn io(what: &str, path: &Path, error: std::io::Error) -> Error {
        Error::Io {
            what: what.to_string(),
            path: path.to_path_buf(),
            error,
        }
    }

    /// The path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            Error::Target { path, .. } | Error::Input { path, .. } | Error::Io { path, .. } => path,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Target { path, reason } | Error::Input { path, reason } => {
                write!(f, "{}: {reason}", path.display())
            }
            Error::Io { what, path, error } => write!(f, "{what} {}: {error}", path.display()),
        }
    }
}

impl std::error::Error for Error {}

impl From<Error> for std::io::Error {
    fn from(e: Error) -> std::io::Error {
        let kind = match &e {
            Error::Io { error, .. } => error.kind(),
            _ => std::io::ErrorKind::InvalidInput,
        };
        std::io::Error::new(kind, e.to_string())
    }
}

/// What kind of thing is at a path, in words (`a FIFO`, `a symbolic link`, ...).
pub fn describe(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_file() {
        "a regular file"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}
