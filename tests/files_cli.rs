//! Nothing lost, nothing overwritten, nothing silently wrong: every command's
//! output files go through `bloom_files` (a fresh temporary beside the target,
//! renamed into place; removed on errors, on a full disk and on SIGINT/SIGTERM),
//! inputs are regular files read up to a bound, standard output never panics, and
//! the estimates, the build's clock and the counting images refuse what cannot
//! be. One test per finding, each naming it. (The swap's own are in
//! tests/image_swap.rs, the served link's in tests/host_cli.rs.)

mod common;

use common::*;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::time::{Duration, Instant};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn keys_file(path: &Path, keys: impl IntoIterator<Item = u64>) {
    let text: String = keys.into_iter().map(|k| format!("{k}\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// What an output may not replace, for an output file: a FIFO (which would block
/// or be turned into a file), a symbolic link (replaced, or followed), a device, a
/// read-only file; each refused, and left exactly as it was.
#[test]
fn output_files_refuse_fifos_links_devices_and_read_only_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("targets");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.svg");
    mkfifo(&fifo);
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let link = dir.join("link.svg");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let read_only = dir.join("ro.svg");
    std::fs::write(&read_only, "mine").unwrap();
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    for (target, what) in [
        (&fifo, "is a FIFO"),
        (&link, "is a symbolic link"),
        (&read_only, "is a read-only file"),
    ] {
        let o = bloom(&["fpr", "plot", "--out", s(target)]);
        assert_failed_cleanly(&o, what);
    }
    // A device (as root, `--out /dev/null` would have replaced the real one).
    assert_failed_cleanly(
        &bloom(&["sim", "--ops", "10", "--trace", "/dev/null"]),
        "is a device",
    );
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo_like());
    assert_eq!(std::fs::read_link(&link).unwrap(), victim);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert_eq!(std::fs::read_to_string(&read_only).unwrap(), "mine");
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    let _ = std::fs::remove_dir_all(&dir);
}

trait FifoLike {
    fn is_fifo_like(&self) -> bool;
}

impl FifoLike for std::fs::FileType {
    fn is_fifo_like(&self) -> bool {
        std::os::unix::fs::FileTypeExt::is_fifo(self)
    }
}

/// A full disk (here: a file-size limit, which fails writes as ENOSPC would) leaves
/// nothing: `fpr plot` left `plot.svg` and image writers their temporaries.
#[test]
fn a_full_disk_leaves_no_partial_output() {
    let dir = scratch("full-disk");
    std::fs::create_dir_all(&dir).unwrap();
    let o = bloom_with_file_limit(&["fpr", "plot", "--out", s(&dir.join("plot.svg"))], 4096);
    assert_failed_cleanly(&o, "File too large");
    let keys = dir.join("keys.txt");
    keys_file(&keys, 1..=300);
    let o = bloom_with_file_limit(
        &[
            "image",
            "build",
            "--keys",
            s(&keys),
            "--out",
            s(&dir.join("img")),
        ],
        1024,
    );
    assert_failed_cleanly(&o, "File too large");
    let o = bloom_with_file_limit(
        &[
            "export",
            "--k",
            "2",
            "--bank-bits",
            "6",
            "--key-bits",
            "32",
            "--ops",
            "10",
            "--out",
            s(&dir.join("pkg")),
        ],
        8192,
    );
    assert_failed_cleanly(&o, "File too large");
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["keys.txt"], "a write that failed left files");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sim --trace` interrupted by SIGINT, and by SIGTERM: its temporary (which it
/// writes for the whole run) is removed, the target is not written, and the
/// process ends by the signal (status 130 / 143 in a shell).
#[test]
fn interrupted_trace_leaves_nothing() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = scratch(&format!("interrupt-{signal}"));
        std::fs::create_dir_all(&dir).unwrap();
        let trace = dir.join("run.vcd");
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bloom"))
            .args([
                "sim",
                "--k",
                "2",
                "--bank-bits",
                "6",
                "--key-bits",
                "32",
                "--ops",
                "200000",
                "--shards",
                "1",
                "--fpr-queries",
                "0",
                "--trace",
                s(&trace),
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        // The temporary appears once the model is built and the run starts.
        while leftovers(&dir).is_empty() {
            assert!(
                start.elapsed() < Duration::from_secs(300),
                "no temporary appeared"
            );
            assert!(
                child.try_wait().unwrap().is_none(),
                "sim ended before it was interrupted"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(200));
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(child.id() as i32, signal) };
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(signal), "{status}");
        assert!(leftovers(&dir).is_empty(), "left {:?}", leftovers(&dir));
        assert!(!trace.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Standard output on /dev/full: a clear error and status 1, never a panic (verilog,
/// export, vectors, sim, host and `--help` panicked or exited 0).
#[test]
fn stdout_errors_are_clear_errors() {
    let dir = scratch("dev-full");
    std::fs::create_dir_all(&dir).unwrap();
    let small = ["--k", "2", "--bank-bits", "6", "--key-bits", "32"];
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let cases: Vec<Vec<String>> = vec![
        vec!["--help".into()],
        vec!["verilog".into(), "--out".into(), out("v")],
        vec![
            "export".into(),
            "--ops".into(),
            "10".into(),
            "--out".into(),
            out("e"),
        ],
        vec![
            "vectors".into(),
            "--ops".into(),
            "10".into(),
            "--out".into(),
            out("x"),
        ],
        vec![
            "sim".into(),
            "--ops".into(),
            "2000".into(),
            "--shards".into(),
            "1".into(),
            "--fpr-queries".into(),
            "0".into(),
        ],
        vec!["host".into(), "--sim".into(), "stats".into()],
        vec![
            "size".into(),
            "--n".into(),
            "1000".into(),
            "--p".into(),
            "0.01".into(),
        ],
    ];
    for case in &cases {
        let mut args: Vec<&str> = case.iter().map(String::as_str).collect();
        match args[0] {
            "--help" | "size" => {}
            // The core options go before the host's subcommand.
            "host" => {
                let stats = args.pop().unwrap();
                args.extend(small);
                args.push(stats);
            }
            _ => args.extend(small),
        }
        let o = bloom_to_full(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to standard output") && err.contains("No space left"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A closed pipe (`bloom sim ... | head -1`) ends the command quietly with status
/// 141, as a Unix tool killed by SIGPIPE reports it; it panicked with status 101.
#[test]
fn a_closed_pipe_ends_quietly() {
    let (status, err) = bloom_head_1(&[
        "sim",
        "--k",
        "2",
        "--bank-bits",
        "6",
        "--key-bits",
        "32",
        "--ops",
        "20000",
        "--shards",
        "1",
    ]);
    assert_eq!(status.code(), Some(141), "{status}: {err}");
    assert!(!err.contains("panicked") && !err.contains("error"), "{err}");
}

/// Inputs are regular files: a FIFO as a key file or a bitstream is an error at
/// once (`image readback` of a FIFO blocked for ever), a device too.
#[test]
fn fifos_and_devices_as_inputs_are_errors_not_hangs() {
    let dir = scratch("fifo-inputs");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let keys = dir.join("keys.txt");
    keys_file(&keys, 1..=10);
    let img = dir.join("img");
    ok(bloom(&[
        "image",
        "build",
        "--keys",
        s(&keys),
        "--out",
        s(&img),
    ]));
    let x = dir.join("x");
    let cases: [(&[&str], &str); 4] = [
        (&["image", "readback", s(&fifo)], "the bitstream is a FIFO"),
        (
            &["image", "build", "--keys", s(&fifo), "--out", s(&x)],
            "the key file is a FIFO",
        ),
        (
            &["image", "query", s(&img), "--keys", s(&fifo)],
            "the key file is a FIFO",
        ),
        (
            &["image", "query", s(&img), "--keys", "/dev/zero"],
            "the key file is a device",
        ),
    ];
    for (args, needle) in cases {
        let start = Instant::now();
        let o = bloom(args);
        assert_failed_cleanly(&o, needle);
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{args:?} took {:?}",
            start.elapsed()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `image query` streams: 2 million keys peak far below what holding them takes
/// (it held every key: 10 million peaked at 1 GB, 2 million at about 200 MB).
#[test]
fn image_query_memory_is_bounded() {
    let dir = scratch("query-memory");
    std::fs::create_dir_all(&dir).unwrap();
    let keys = dir.join("keys.txt");
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    keys_file(
        &keys,
        (0..2_000_000).map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }),
    );
    let img = dir.join("img");
    ok(bloom(&[
        "image",
        "build",
        "--keys",
        s(&keys),
        "--out",
        s(&img),
    ]));
    for json in [false, true] {
        let mut args = vec!["image", "query", s(&img), "--keys", s(&keys)];
        if json {
            args.push("--json");
        }
        // Reaped by wait4 below, which also gives its resource usage.
        #[allow(clippy::zombie_processes)]
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_bloom"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut status = 0;
        // SAFETY: waits for our own child and reads its resource usage.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
        assert_eq!(pid, child.id() as i32);
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "status {status}"
        );
        let peak_mb = usage.ru_maxrss as f64 / 1024.0;
        eprintln!("image query of 2 M keys (json {json}): peak {peak_mb:.1} MB");
        assert!(peak_mb < 48.0, "peak {peak_mb:.1} MB");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sizes that cannot be true of their images are refused (0 on non-empty images,
/// 2^64 - 1, below the largest fill); with a full bank of A AND B the estimate from
/// sizes is unknown, as the one from fills is (it printed 10.0 +- 0.0).
#[test]
fn intersect_refuses_impossible_sizes_and_says_unknown_on_a_full_bank() {
    let dir = scratch("sizes");
    std::fs::create_dir_all(&dir).unwrap();
    let (ka, kb) = (dir.join("a.txt"), dir.join("b.txt"));
    keys_file(&ka, 1..=50);
    keys_file(&kb, 30..=80);
    let (a, b) = (dir.join("a"), dir.join("b"));
    ok(bloom(&["image", "build", "--keys", s(&ka), "--out", s(&a)]));
    ok(bloom(&["image", "build", "--keys", s(&kb), "--out", s(&b)]));
    let intersect = |sa: &str, sb: &str| {
        bloom(&[
            "image",
            "intersect",
            s(&a),
            s(&b),
            "--size-a",
            sa,
            "--size-b",
            sb,
        ])
    };
    assert_failed_cleanly(
        &intersect("0", "0"),
        "size of A = 0 is out of range (allowed: at least 50",
    );
    assert_failed_cleanly(
        &intersect("50", "10"),
        "size of B = 10 is out of range (allowed: at least 51",
    );
    assert_failed_cleanly(
        &intersect("18446744073709551615", "51"),
        "zero bits with probability below",
    );
    let o = ok(intersect("50", "51"));
    assert!(
        stdout(&o).contains("with |A| = 50 and |B| = 51 given: 2"),
        "{}",
        stdout(&o)
    );
    // Full banks: 64-bit banks after 2000 keys.
    let (kf, full) = (dir.join("f.txt"), dir.join("full"));
    keys_file(&kf, 1..=2000);
    ok(bloom(&[
        "image",
        "build",
        "--keys",
        s(&kf),
        "--bank-bits",
        "6",
        "--out",
        s(&full),
    ]));
    let o = ok(bloom(&[
        "image",
        "intersect",
        s(&full),
        s(&full),
        "--size-a",
        "2000",
        "--size-b",
        "2000",
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(
        v["estimated_intersection"].is_null() && v["estimated_intersection_given_sizes"].is_null(),
        "{v}"
    );
    let o = ok(bloom(&[
        "image",
        "intersect",
        s(&full),
        s(&full),
        "--size-a",
        "2000",
        "--size-b",
        "2000",
    ]));
    assert!(
        stdout(&o).contains("given: unknown (a bank of A AND B is full)"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `bloom build --freq 1e9` is refused before any tool runs (it started Yosys).
#[test]
fn build_refuses_a_clock_no_pll_makes_before_any_tool() {
    let out = scratch("freq");
    for (board, freq, max) in [
        ("icebreaker", "1e9", "16..=275 MHz"),
        ("ulx3s", "401", "3.125..=400 MHz"),
    ] {
        let o = bloom(&["build", "--board", board, "--freq", freq, "--out", s(&out)]);
        assert_failed_cleanly(&o, max);
        assert!(stderr(&o).contains("No tool was run"), "{}", stderr(&o));
        assert!(!out.exists(), "{board}: the output directory was made");
    }
}

/// Counting images in software: `image delete` follows the board's delete (absent
/// keys and saturated counters counted, never a false negative for a key inserted
/// more often than deleted) and `image union` adds counters, saturating.
#[test]
fn counting_image_delete_and_union() {
    let dir = scratch("counting-ops");
    std::fs::create_dir_all(&dir).unwrap();
    let keys = dir.join("k.txt");
    // 1..=20 once, 1..=5 a second time: counters of 2 bits.
    std::fs::write(
        &keys,
        (1..=20)
            .chain(1..=5)
            .map(|k| format!("{k}\n"))
            .collect::<String>(),
    )
    .unwrap();
    let (img, plain) = (dir.join("img"), dir.join("plain"));
    ok(bloom(&[
        "image",
        "build",
        "--keys",
        s(&keys),
        "--counter-bits",
        "2",
        "--out",
        s(&img),
    ]));
    ok(bloom(&[
        "image",
        "build",
        "--keys",
        s(&keys),
        "--out",
        s(&plain),
    ]));
    // Delete 1 twice (inserted twice), 6 once, and 999999 (never inserted).
    let o = ok(bloom_stdin(
        &[
            "image",
            "delete",
            s(&img),
            "--keys",
            "-",
            "--out",
            s(&dir.join("d")),
        ],
        b"1\n1\n6\n999999\n",
    ));
    assert_eq!(stdout(&o), "1 1\n1 1\n6 1\n999999 0\n");
    assert!(
        stderr(&o).contains("deleted 3 of 4 keys (1 absent: nothing changed)"),
        "{}",
        stderr(&o)
    );
    // 1 and 6 are gone (unless a false positive), the others are all still there.
    let o = ok(bloom(&[
        "image",
        "query",
        s(&dir.join("d")),
        "2",
        "3",
        "4",
        "5",
        "7",
        "20",
    ]));
    assert_eq!(stdout(&o), "2 1\n3 1\n4 1\n5 1\n7 1\n20 1\n");
    let v: serde_json::Value = serde_json::from_str(&stdout(&ok(bloom(&[
        "image",
        "delete",
        s(&img),
        "2",
        "--out",
        s(&dir.join("d2")),
        "--json",
    ]))))
    .unwrap();
    assert_eq!(
        (v["deleted"].as_u64(), v["absent"].as_u64()),
        (Some(1), Some(0)),
        "{v}"
    );
    // A plain image cannot delete; the source image is never changed; a bad key
    // writes nothing.
    assert_failed_cleanly(
        &bloom(&[
            "image",
            "delete",
            s(&plain),
            "1",
            "--out",
            s(&dir.join("p")),
        ]),
        "cannot delete a key",
    );
    assert_failed_cleanly(
        &bloom(&[
            "image",
            "delete",
            s(&img),
            "1",
            "0xZZ",
            "--out",
            s(&dir.join("bad")),
        ]),
        "0xZZ",
    );
    assert!(!dir.join("p").exists() && !dir.join("bad").exists());
    // Union: counters add, saturating at 3; a plain and a counting image do not mix.
    let u = dir.join("u");
    ok(bloom(&["image", "union", s(&img), s(&img), "--out", s(&u)]));
    let f = golden::CountingFilter::import_image(&img).unwrap();
    let g = golden::CountingFilter::import_image(&u).unwrap();
    for p in 0..f.config().k as usize {
        for (x, y) in f.bank(p).unwrap().iter().zip(g.bank(p).unwrap()) {
            assert_eq!(*y, (2 * x).min(3));
        }
    }
    assert_failed_cleanly(
        &bloom(&["image", "union", s(&img), s(&plain)]),
        "a union is of two plain images or of two counting images",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
