//! Input files: regular files only, opened without blocking, read up to a bound.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use crate::{describe, Error};

/// Opens `path` for reading if it is a regular file (a link to one is followed).
/// A FIFO, a device, a socket or a directory is an error naming what it is; the
/// open never blocks (O_NONBLOCK, which a regular file ignores). `what` names the
/// input in messages ("key file", "bitstream").
pub fn open_input(path: &Path, what: &str) -> Result<File, Error> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| Error::io(&format!("cannot open {what}"), path, e))?;
    let meta = file
        .metadata()
        .map_err(|e| Error::io("cannot inspect", path, e))?;
    if !meta.file_type().is_file() {
        return Err(Error::Input {
            path: path.to_path_buf(),
            reason: format!(
                "the {what} is {}; it must be a regular file{}",
                describe(&meta),
                if meta.is_dir() {
                    ""
                } else {
                    " (a pipe is read from standard input where a command takes `-`)"
                }
            ),
        });
    }
    Ok(file)
}

/// The whole of the regular file `path`, which may hold at most `limit` bytes.
pub fn read_file(path: &Path, what: &str, limit: u64) -> Result<Vec<u8>, Error> {
    let file = open_input(path, what)?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let too_large = || Error::Input {
        path: path.to_path_buf(),
        reason: format!("the {what} is larger than the {limit} bytes allowed for it"),
    };
    if size > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io("cannot read", path, e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// [`read_file`] as UTF-8 text.
pub fn read_to_string(path: &Path, what: &str, limit: u64) -> Result<String, Error> {
    String::from_utf8(read_file(path, what, limit)?).map_err(|_| Error::Input {
        path: path.to_path_buf(),
        reason: format!("the {what} is not UTF-8 text"),
    })
}
