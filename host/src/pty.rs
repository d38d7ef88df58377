//! A simulated board on a pseudo-terminal: the Verilated board top of
//! [`SimBoard`] behind a PTY, so that any serial client (`bloom host --port`,
//! pyserial, picocom) talks to it through the kernel's tty layer exactly as it
//! would to a board's USB UART. The board keeps running, and keeps its state,
//! while clients come and go: the server holds the PTY's other side open
//! itself, so a client closing it is no hang-up.
//!
//! Time: bytes from the client are put on the simulated line back to back at
//! the nominal baud rate, as a UART would send them; the board's answers go
//! to the client as they come off the line. While nothing is on the line, the
//! simulation runs on until the board has certainly finished whatever it was
//! doing (`idle_bits`), but never ahead of the wall clock, so a frame a client
//! abandons halfway times out on the board no sooner than on real hardware.
//! A board simulated at a real board's clocks per bit may run slower than the
//! line would: its answers then come later than a board's, never differently.

use crate::sim_board::SimBoard;
use crate::transport::Transport;
use crate::HostError;
use std::ffi::CStr;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A pseudo-terminal pair: the master side the server reads and writes, the
/// path of the slave side a client opens.
pub struct Pty {
    master: OwnedFd,
    /// The slave side, kept open so that the master never sees a hang-up
    /// between two clients.
    _slave: OwnedFd,
    path: PathBuf,
}

fn os_error(what: &str) -> HostError {
    HostError::Setup(format!("{what}: {}", std::io::Error::last_os_error()))
}

impl Pty {
    /// Opens a new pseudo-terminal in raw mode (no echo, no line editing, no
    /// character translation: 8-bit bytes pass unchanged).
    pub fn open() -> Result<Pty, HostError> {
        // SAFETY: plain libc calls on descriptors this function owns; every
        // returned descriptor is checked and wrapped in an OwnedFd at once.
        unsafe {
            let m = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
            if m < 0 {
                return Err(os_error("cannot open a pseudo-terminal (posix_openpt)"));
            }
            let master = OwnedFd::from_raw_fd(m);
            if libc::grantpt(m) != 0 || libc::unlockpt(m) != 0 {
                return Err(os_error("cannot unlock the pseudo-terminal"));
            }
            let mut name = [0 as libc::c_char; 128];
            if libc::ptsname_r(m, name.as_mut_ptr(), name.len()) != 0 {
                return Err(os_error("cannot name the pseudo-terminal"));
            }
            let path = PathBuf::from(CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned());
            let s = libc::open(
                name.as_ptr(),
                libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
            );
            if s < 0 {
                return Err(os_error(&format!("cannot open {}", path.display())));
            }
            let slave = OwnedFd::from_raw_fd(s);
            let mut t: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(s, &mut t) != 0 {
                return Err(os_error("tcgetattr"));
            }
            libc::cfmakeraw(&mut t);
            if libc::tcsetattr(s, libc::TCSANOW, &t) != 0 {
                return Err(os_error("tcsetattr"));
            }
            let flags = libc::fcntl(m, libc::F_GETFL);
            if flags < 0 || libc::fcntl(m, libc::F_SETFL, flags | libc::O_NONBLOCK) != 0 {
                return Err(os_error("cannot make the pseudo-terminal non-blocking"));
            }
            Ok(Pty {
                master,
                _slave: slave,
                path,
            })
        }
    }

    /// The device a client opens (`/dev/pts/N`).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Waits up to `timeout` for bytes from the client; what arrived.
    fn read(&self, timeout: Duration, buf: &mut [u8]) -> Result<usize, HostError> {
        let mut pfd = libc::pollfd {
            fd: self.master.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd; the buffer is ours and its length is passed.
        unsafe {
            let r = libc::poll(&mut pfd, 1, timeout.as_millis().min(1000) as libc::c_int);
            if r < 0 {
                let e = std::io::Error::last_os_error();
                return if e.kind() == std::io::ErrorKind::Interrupted {
                    Ok(0)
                } else {
                    Err(HostError::Transport(format!("poll: {e}")))
                };
            }
            if r == 0 || pfd.revents & libc::POLLIN == 0 {
                return Ok(0);
            }
            let n = libc::read(self.master.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len());
            if n < 0 {
                let e = std::io::Error::last_os_error();
                return match e.kind() {
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted => Ok(0),
                    _ => Err(HostError::Transport(format!(
                        "{}: {e}",
                        self.path.display()
                    ))),
                };
            }
            Ok(n as usize)
        }
    }

    /// Hands bytes to the client side; returns how many the tty could not
    /// take (its buffer full: nobody is reading, as with an unread UART).
    fn write(&self, mut bytes: &[u8]) -> Result<usize, HostError> {
        while !bytes.is_empty() {
            // SAFETY: the slice is valid for its length.
            let n =
                unsafe { libc::write(self.master.as_raw_fd(), bytes.as_ptr().cast(), bytes.len()) };
            if n < 0 {
                let e = std::io::Error::last_os_error();
                return match e.kind() {
                    std::io::ErrorKind::WouldBlock => Ok(bytes.len()),
                    std::io::ErrorKind::Interrupted => continue,
                    _ => Err(HostError::Transport(format!(
                        "{}: {e}",
                        self.path.display()
                    ))),
                };
            }
            bytes = &bytes[n as usize..];
        }
        Ok(0)
    }
}

/// What a server did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServeStats {
    pub bytes_in: u64,
    pub bytes_out: u64,
    /// Board->client bytes the tty had no room for.
    pub bytes_dropped: u64,
    /// Bit times simulated.
    pub bit_times: u64,
}

/// Bit times after the last activity on the line in which a board of `core`
/// at `clocks_per_bit` has certainly finished a frame and gone back to
/// hunting: its truncation timeout, the longest execution (a clear of a whole
/// bank, a write of a whole chunk) and the response after it.
pub fn settle_bits(core: &hdl::CoreParams, clocks_per_bit: u32, timeout_bits: u32) -> u64 {
    let exec_cycles = hdl::Timing::of(core).clear_cycles as u64 + 8192;
    timeout_bits as u64 + exec_cycles.div_ceil(clocks_per_bit as u64) + 1000
}

/// Serves `board` on `pty` until `stop` is set.
pub fn serve(
    board: &Mutex<SimBoard>,
    pty: &Pty,
    settle: u64,
    stop: &AtomicBool,
) -> Result<ServeStats, HostError> {
    let baud = board
        .lock()
        .map_err(|_| HostError::Setup("board lock poisoned".into()))?
        .nominal_baud() as f64;
    let start = Instant::now();
    let mut stats = ServeStats::default();
    let mut quiet = settle;
    let mut buf = vec![0u8; 4096];
    while !stop.load(Ordering::Relaxed) {
        let lock = || {
            board
                .lock()
                .map_err(|_| HostError::Setup("board lock poisoned".into()))
        };
        let active = lock()?.line_busy() || quiet < settle;
        let n = pty.read(
            if active {
                Duration::ZERO
            } else {
                Duration::from_millis(20)
            },
            &mut buf,
        )?;
        let mut b = lock()?;
        if n > 0 {
            b.write(&buf[..n])?;
            stats.bytes_in += n as u64;
            quiet = 0;
        }
        if !(b.line_busy() || quiet < settle) {
            continue;
        }
        let chunk = if b.line_busy() {
            64
        } else {
            // Nothing on the line: simulated time may not run ahead of the wall clock.
            let wall = (start.elapsed().as_secs_f64() * baud) as u64;
            if stats.bit_times >= wall {
                drop(b);
                std::thread::sleep(Duration::from_millis(1));
                continue;
            }
            (wall - stats.bit_times).min(256).min(settle - quiet)
        };
        let out = b.run_bits(chunk)?;
        stats.bit_times += chunk;
        if out.is_empty() && !b.line_busy() {
            quiet += chunk;
        } else {
            quiet = 0;
        }
        drop(b);
        if !out.is_empty() {
            stats.bytes_out += out.len() as u64;
            stats.bytes_dropped += pty.write(&out)? as u64;
        }
    }
    Ok(stats)
}
