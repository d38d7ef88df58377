//! Temporaries removed on SIGINT, SIGTERM and SIGHUP.
//!
//! [`install`], called first thing in `main` before any thread starts, blocks the three
//! signals in every thread and waits for them on a thread of its own (`sigwait`), where
//! ordinary code may run: it removes every registered temporary (files, and directories
//! with what they hold), then ends the process by the same signal with its default
//! action, so a shell sees the conventional status (130 for SIGINT, 143 for SIGTERM).
//! Child processes start with the signals unblocked (the standard library resets the
//! mask in every child). SIGXFSZ is ignored, so a write past a file-size limit fails
//! with an error (and its temporary is removed) instead of killing the process.
//!
//! A command that stops by itself on a signal (a server) asks for it with
//! [`stop_gracefully`] and polls [`stop_requested`]; a second signal then ends the
//! process as above.
//!
//! Registration and the rename that commits a temporary take one lock, so a signal
//! never removes a temporary half-way through its commit.
//!
//! A tool this process runs ([`WatchedChild`]) is killed (SIGKILL) and reaped before
//! the temporaries are removed: a signal sent to this process alone (`kill PID`, a
//! supervisor) reaches no child, and a tool still writing into a scratch directory
//! would refill it while it is removed and leave it behind.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

pub(crate) struct Entry {
    id: u64,
    path: PathBuf,
    directory: bool,
}

static REGISTRY: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
/// The process ids of the running [`WatchedChild`]ren, none of them reaped yet.
static CHILDREN: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(1);
static GRACEFUL: AtomicBool = AtomicBool::new(false);
static STOP: AtomicBool = AtomicBool::new(false);
static INSTALLED: AtomicBool = AtomicBool::new(false);

pub(crate) fn registry() -> MutexGuard<'static, Vec<Entry>> {
    REGISTRY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A registered temporary: removed by a signal until [`Registration::release`] (or drop).
pub struct Registration(u64);

/// Registers `path` (a file, or a directory removed with its contents) for removal on a signal.
pub fn register(path: &Path, directory: bool) -> Registration {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    registry().push(Entry {
        id,
        path: path.to_path_buf(),
        directory,
    });
    Registration(id)
}

impl Registration {
    /// Forgets the path while the caller holds the registry lock (the commit's rename).
    pub(crate) fn release_locked(&self, entries: &mut Vec<Entry>) {
        entries.retain(|e| e.id != self.0);
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.release_locked(&mut registry());
    }
}

fn children() -> MutexGuard<'static, Vec<libc::pid_t>> {
    CHILDREN
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A child process that a signal (or [`exit`]) kills and reaps before the
/// temporaries are removed. Its id stays registered until it is reaped, and
/// [`WatchedChild::try_wait`] reaps it under the lock the signal's kill takes,
/// so a signal never kills a process id that has been reused.
pub struct WatchedChild {
    child: std::process::Child,
    reaped: bool,
}

impl WatchedChild {
    /// Watches a child just spawned.
    pub fn new(child: std::process::Child) -> WatchedChild {
        children().push(child.id() as libc::pid_t);
        WatchedChild {
            child,
            reaped: false,
        }
    }

    /// The child, for its pipes.
    pub fn child_mut(&mut self) -> &mut std::process::Child {
        &mut self.child
    }

    /// [`std::process::Child::try_wait`]; once the child has ended it is no
    /// longer watched.
    pub fn try_wait(&mut self) -> std::io::Result<Option<std::process::ExitStatus>> {
        let mut pids = children();
        let status = self.child.try_wait()?;
        if status.is_some() {
            self.forget_locked(&mut pids);
        }
        Ok(status)
    }

    fn forget_locked(&mut self, pids: &mut Vec<libc::pid_t>) {
        let pid = self.child.id() as libc::pid_t;
        pids.retain(|&p| p != pid);
        self.reaped = true;
    }
}

impl Drop for WatchedChild {
    /// A child given up on (its caller returned an error while it ran) is killed
    /// and reaped, not left running.
    fn drop(&mut self) {
        if !self.reaped {
            let mut pids = children();
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.forget_locked(&mut pids);
        }
    }
}

/// Kills and reaps every watched child, and keeps their lock: no child is
/// started or reaped from now on (a process that is about to end).
fn stop_children() {
    let pids = children();
    for &pid in pids.iter() {
        // SAFETY: plain libc calls on a child of this process that has not been
        // reaped (its id cannot have been reused).
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
    }
    std::mem::forget(pids);
}

/// Kills the watched children, then removes every registered temporary (a
/// process that is about to exit).
pub fn remove_temporaries() {
    stop_children();
    let mut entries = registry();
    for e in entries.drain(..) {
        let _ = if e.directory {
            std::fs::remove_dir_all(&e.path)
        } else {
            std::fs::remove_file(&e.path)
        };
    }
    // Keep the lock: no commit may rename a temporary that is gone.
    std::mem::forget(entries);
}

/// Removes the temporaries and exits with `status`.
pub fn exit(status: i32) -> ! {
    remove_temporaries();
    std::process::exit(status)
}

/// Installs the handling described in the module doc; call it once, in `main`,
/// before any other thread starts. Later calls do nothing.
pub fn install() {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    // SAFETY: plain libc calls on a local signal set; SIG_IGN for SIGXFSZ.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in SIGNALS {
            libc::sigaddset(&mut set, s);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        let handled = set;
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || loop {
                let mut signal: libc::c_int = 0;
                if libc::sigwait(&handled, &mut signal) != 0 {
                    continue;
                }
                if GRACEFUL.load(Ordering::SeqCst) && !STOP.swap(true, Ordering::SeqCst) {
                    continue;
                }
                die_by(signal);
            })
            .expect("the signal thread starts");
    }
}

/// Removes the temporaries and ends the process by `signal`'s default action.
fn die_by(signal: libc::c_int) -> ! {
    remove_temporaries();
    // SAFETY: restores the default action and unblocks the signal in this thread
    // only, then raises it at this thread: the process ends as killed by it.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        let mut one: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut one);
        libc::sigaddset(&mut one, signal);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &one, std::ptr::null_mut());
        libc::raise(signal);
    }
    std::process::exit(128 + signal)
}

/// From now on the first signal sets [`stop_requested`] instead of ending the process.
pub fn stop_gracefully() {
    GRACEFUL.store(true, Ordering::SeqCst);
}

/// Whether a signal asked a graceful command to stop.
pub fn stop_requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// The flag [`stop_requested`] reads, for a loop that takes an `&AtomicBool`.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A watched child is registered until reaped; one given up on is killed and
    /// reaped by the drop, not left running.
    #[test]
    fn watched_children_are_forgotten_when_reaped_and_killed_when_given_up() {
        let spawn = |args: &[&str]| {
            WatchedChild::new(
                std::process::Command::new(args[0])
                    .args(&args[1..])
                    .spawn()
                    .unwrap(),
            )
        };
        let mut quick = spawn(&["true"]);
        let quick_pid = quick.child_mut().id() as libc::pid_t;
        assert!(children().contains(&quick_pid));
        let status = loop {
            if let Some(s) = quick.try_wait().unwrap() {
                break s;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        assert!(status.success());
        assert!(!children().contains(&quick_pid));
        drop(quick);

        let slow = spawn(&["sleep", "30"]);
        let slow_pid = slow.child.id() as libc::pid_t;
        assert!(children().contains(&slow_pid));
        let start = std::time::Instant::now();
        drop(slow);
        assert!(start.elapsed() < std::time::Duration::from_secs(10));
        assert!(!children().contains(&slow_pid));
        // SAFETY: signal 0 only asks whether the process exists.
        let alive = unsafe { libc::kill(slow_pid, 0) } == 0;
        assert!(!alive, "the abandoned child still runs");
    }
}
