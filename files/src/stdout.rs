//! Standard output that never panics: a closed pipe (EPIPE) ends the process quietly
//! with status 141, as a shell reports a tool killed by SIGPIPE (`bloom sim | head -1`
//! behaves as `yes | head -1`); any other write error (a full disk, /dev/full) prints
//! `error: cannot write to standard output: ...` on standard error and ends the
//! process with status 1. Registered temporaries are removed first in both cases.

use std::io::Write;

/// Status of a process whose standard output was closed by its reader.
pub const CLOSED_PIPE_STATUS: i32 = 141;

/// Handles a failed write to standard output as the module doc says; never returns.
pub fn fail(error: std::io::Error) -> ! {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        crate::interrupt::exit(CLOSED_PIPE_STATUS);
    }
    let _ = writeln!(
        std::io::stderr(),
        "error: cannot write to standard output: {error}"
    );
    crate::interrupt::exit(1)
}

/// Writes `bytes` to standard output and flushes it.
pub fn write_bytes(bytes: &[u8]) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(bytes).and_then(|()| out.flush()) {
        fail(e)
    }
}

/// Writes formatted text to standard output and flushes it (the `print!` of every
/// command: see the module doc for errors).
pub fn write_fmt(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        fail(e)
    }
}
