//! Plumbing shared by the `bloom` command's end-to-end tests: run the binary,
//! read what it printed, scratch directories, and the checks every failure
//! must pass (non-zero exit, a message naming the problem, no panic).
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `bloom ARGS`.
pub fn bloom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bloom"))
        .args(args)
        .output()
        .expect("bloom runs")
}

/// Runs `bloom ARGS` with `input` on its standard input.
pub fn bloom_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bloom"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bloom runs");
    // A command that refuses its arguments exits without reading its input: the pipe
    // it closed is then no error of the test's.
    match child.stdin.take().unwrap().write_all(input) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
    child.wait_with_output().unwrap()
}

/// `o` succeeded (else the test fails with its standard error).
pub fn ok(o: Output) -> Output {
    assert!(o.status.success(), "bloom failed:\n{}", stderr(&o));
    o
}

/// Runs `bloom ARGS` with `PATH` set to `path` (to hide installed tools).
pub fn bloom_with_path(args: &[&str], path: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bloom"))
        .args(args)
        .env("PATH", path)
        .output()
        .expect("bloom runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output and standard error.
pub fn text(o: &Output) -> (String, String) {
    (stdout(o), stderr(o))
}

/// Standard output followed by standard error.
pub fn all_text(o: &Output) -> String {
    stdout(o) + &stderr(o)
}

/// The value after `label: ` on its line of `out`.
pub fn field<'a>(out: &'a str, label: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(label).and_then(|r| r.strip_prefix(": ")))
        .unwrap_or_else(|| panic!("no `{label}:` line in\n{out}"))
}

/// A path for a test's files in the build's scratch directory, removed if it
/// exists, not created.
pub fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bloom-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_file(&d);
    d
}

/// `o` failed as a user error should: exit status 1 (an error of the command)
/// or 2 (refused by the command line), `needle` in what it printed, no panic.
pub fn assert_failed_cleanly(o: &Output, needle: &str) {
    let t = all_text(o);
    assert!(!o.status.success(), "expected failure, got success:\n{t}");
    assert!(
        matches!(o.status.code(), Some(1) | Some(2)),
        "expected exit 1 or 2:\n{t}"
    );
    assert!(t.contains(needle), "message lacks `{needle}`:\n{t}");
    assert!(!t.contains("panicked"), "panic:\n{t}");
}

/// For each case (ARGS, needle): `bloom COMMAND --out DIR ARGS` fails cleanly
/// saying `needle`, and DIR (a scratch path named `name`) is not written.
pub fn assert_refused_writing_nothing(command: &[&str], name: &str, cases: &[(&[&str], &str)]) {
    let out = scratch(name);
    for (args, needle) in cases {
        let _ = std::fs::remove_dir_all(&out);
        let o = bloom(&[command, &["--out", out.to_str().unwrap()], args].concat());
        assert_failed_cleanly(&o, needle);
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

/// `bloom ARGS` fails cleanly, saying `needle` on standard error, and prints no NaN.
pub fn assert_fails(args: &[&str], needle: &str) -> Output {
    let o = bloom(args);
    assert_failed_cleanly(&o, needle);
    assert!(
        stderr(&o).contains(needle),
        "{args:?}: stderr lacks {needle:?}: {}",
        stderr(&o)
    );
    assert!(
        !stdout(&o).to_lowercase().contains("nan"),
        "{args:?} printed NaN"
    );
    o
}

/// `tool` is on PATH, or the test fails saying how to install it.
pub fn require(tool: &str, hint: &str) {
    let found = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
        .unwrap_or(false);
    assert!(
        found,
        "`{tool}` is not installed; {hint} (or run scripts/setup.sh)"
    );
}

/// Makes a FIFO at `path`.
pub fn mkfifo(path: &std::path::Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(
        unsafe { libc::mkfifo(c.as_ptr(), 0o644) },
        0,
        "mkfifo {}",
        path.display()
    );
}

/// Runs `bloom ARGS` with its file-size limit (RLIMIT_FSIZE) at `bytes`: a write
/// past it fails as a full disk would (EFBIG), in a process of its own.
pub fn bloom_with_file_limit(args: &[&str], bytes: u64) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_bloom"));
    command.args(args);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.output().expect("bloom runs")
}

/// Entries of `dir` a writer leaves behind: hidden names (every temporary of
/// `bloom_files` is `.NAME.RANDOM.tmp[.EXT]`) and `*.partial`.
pub fn leftovers(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with('.') || n.ends_with(".partial") || n.ends_with(".tmp"))
                .collect()
        })
        .unwrap_or_default()
}

/// Runs `bloom ARGS` with standard output on `/dev/full`.
pub fn bloom_to_full(args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    Command::new(env!("CARGO_BIN_EXE_bloom"))
        .args(args)
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .expect("bloom runs")
}

/// Runs `bloom ARGS`, reads one line of its standard output and closes the pipe
/// (`bloom ... | head -1`); its exit status and standard error.
pub fn bloom_head_1(args: &[&str]) -> (std::process::ExitStatus, String) {
    use std::io::{BufRead, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_bloom"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bloom runs");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let mut err = String::new();
    let status = child.wait().unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status, err)
}
