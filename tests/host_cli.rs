//! `bloom host` end to end: the binary drives the Verilated board top over
//! the simulated UART (`--sim`), answers are checked against the golden model.

mod common;

use common::*;

use std::path::{Path, PathBuf};

const CORE: [&str; 8] = [
    "--k",
    "3",
    "--bank-bits",
    "6",
    "--key-bits",
    "32",
    "--seed",
    "11",
];

fn golden_cfg() -> golden::CoreParams {
    golden::CoreParams::new(3, 6, 32, golden::HashFamily::Feistel, 11).unwrap()
}

/// The golden filter with 40 keys inserted, and its image in a scratch directory.
fn preloaded_image(name: &str) -> (golden::PartitionedFilter, std::path::PathBuf) {
    let mut gold = golden::PartitionedFilter::new(golden_cfg());
    for k in (0..40u128).map(|i| i * 7919 + 5) {
        gold.insert(k).unwrap();
    }
    let image = scratch(name);
    gold.export_image(&image).unwrap();
    (gold, image)
}

fn remove_scratch(paths: &[&Path]) {
    for f in paths {
        let _ = if f.is_dir() {
            std::fs::remove_dir_all(f)
        } else {
            std::fs::remove_file(f)
        };
    }
}

/// `bloom BASE.. MORE..`, which must succeed: its standard output and error.
fn run_ok(base: &[&str], more: &[&str]) -> (String, String) {
    text(&ok(bloom(&[base, more].concat())))
}

/// `bloom BASE.. dump DIR` of a plain board into a scratch directory `name`:
/// the image written holds `gold`'s banks. Returns the directory.
fn assert_dump_is(base: &[&str], name: &str, gold: &golden::PartitionedFilter) -> PathBuf {
    let dump = scratch(name);
    run_ok(base, &["dump", dump.to_str().unwrap()]);
    let back = golden::PartitionedFilter::import_image_expecting(&dump, &golden_cfg()).unwrap();
    for p in 0..3 {
        assert_eq!(back.bank(p), gold.bank(p), "bank {p}");
    }
    dump
}

/// `bloom BASE.. stats` of a board with 2-bit counters shows `gold`'s fills and
/// saturated counters. Returns what it printed.
fn assert_counting_stats(base: &[&str], gold: &golden::CountingFilter) -> String {
    let (out, _) = run_ok(base, &["stats"]);
    assert_eq!(
        field(&out, "fill"),
        format!("{:?} non-zero counters of 64 per bank", gold.fill())
    );
    let sat = gold.saturated();
    assert_eq!(
        field(&out, "saturated counters (at 3, never decremented again)"),
        format!("{sat:?} per bank, {} in all", sat.iter().sum::<u32>())
    );
    out
}

#[test]
fn host_sim_insert_prints_golden_hits_k3_b6_w32() {
    let mut args = vec!["host", "--sim"];
    args.extend(CORE);
    args.extend(["insert", "1", "0x2", "3", "3", "4_000_000"]);
    let o = bloom(&args);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let mut gold = golden::PartitionedFilter::new(golden_cfg());
    let expect: String = [
        (1u128, "1"),
        (2, "0x2"),
        (3, "3"),
        (3, "3"),
        (4_000_000, "4_000_000"),
    ]
    .iter()
    .map(|(k, t)| format!("{t} {}\n", gold.insert(*k).unwrap() as u8))
    .collect();
    assert_eq!(out, expect);
}

#[test]
fn host_sim_preload_query_keys_and_dump_equal_golden_k3_b6_w32() {
    let (gold, image) = preloaded_image("preload");
    let keys_file = scratch("keys.txt");
    let probe: Vec<u128> = (0..80u128).map(|i| i * 7919 + 5).collect();
    let mut listing = String::from("# probe keys\n\n");
    for k in &probe {
        listing.push_str(&format!("{k:#x}\n"));
    }
    std::fs::write(&keys_file, listing).unwrap();

    let mut args = vec!["host", "--sim", "--preload", image.to_str().unwrap()];
    args.extend(CORE);
    let (out, _) = run_ok(&args, &["query-keys", keys_file.to_str().unwrap()]);
    let expect: String = probe
        .iter()
        .map(|k| format!("{k:#x} {}\n", gold.query(*k).unwrap() as u8))
        .collect();
    assert_eq!(out, expect);
    // load-image on a simulated board reports the line's time, not the simulation's.
    let mut l = vec!["host", "--sim"];
    l.extend(CORE);
    l.extend(["load-image", image.to_str().unwrap()]);
    let o = bloom(&l);
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).0.contains(" s of line time ("), "{}", text(&o).0);

    let dump = assert_dump_is(&args, "dump", &gold);
    remove_scratch(&[&image, &dump, &keys_file]);
}

#[test]
fn host_rejects_bad_input_before_touching_a_device() {
    assert_fails(
        &["host", "--sim", "insert", "0xZZ"],
        "unexpected character 'Z'",
    );
    assert_fails(
        &["host", "--sim", "insert", "--", "-5"],
        "has a sign; keys are unsigned",
    );
    assert_fails(
        &["host", "--sim", "insert", "-5"],
        "has a sign; keys are unsigned",
    );
    assert_fails(
        &["host", "--sim", "query", "+5"],
        "has a sign; keys are unsigned",
    );
    assert_fails(
        &["host", "--sim", "--key-bits", "32", "query", "0x100000000"],
        "does not fit in 32 bits",
    );
    assert_fails(
        &["host", "--sim", "load-keys", "/nonexistent/keys.txt"],
        "cannot open key file",
    );
    assert_fails(&["host", "--sim", "load-keys", "/tmp"], "is a directory");
    assert_fails(
        &["host", "--sim", "load-keys", "/dev/zero"],
        "the key file is a device; it must be a regular file",
    );
    let wide = scratch("wide-keys.txt");
    std::fs::write(&wide, "\u{feff}1\n# two\n0xFFFFFFFF\n0x1_0000_0000\n").unwrap();
    assert_fails(
        &[
            "host",
            "--sim",
            "--key-bits",
            "32",
            "load-keys",
            wide.to_str().unwrap(),
        ],
        "wide-keys.txt:4: key \"0x1_0000_0000\" does not fit in 32 bits",
    );
    let _ = std::fs::remove_file(&wide);
    // A dump never mixes with what a directory holds already.
    let full = scratch("full-dir");
    std::fs::create_dir_all(&full).unwrap();
    std::fs::write(full.join("bank07.hex"), "0\n").unwrap();
    assert_fails(
        &["host", "--sim", "dump", full.to_str().unwrap()],
        "not empty",
    );
    assert_eq!(std::fs::read_dir(&full).unwrap().count(), 1);
    let _ = std::fs::remove_dir_all(&full);
    assert_fails(
        &["host", "--port", "/dev/nonexistent-bloom-port", "stats"],
        "does not exist",
    );
    assert_fails(
        &["host", "--port", "/dev/null", "--sim", "stats"],
        "cannot be used with",
    );
    assert_fails(&["host", "stats"], "--port");
    assert_fails(&["host", "--sim", "--k", "17", "stats"], "17");
    assert_fails(&["host", "--sim", "--tries", "0", "stats"], "--tries");
    assert_fails(
        &["host", "--port", "/dev/null", "--preload", "/tmp", "stats"],
        "--preload only applies to --sim",
    );
    let bad = scratch("bad-keys.txt");
    std::fs::write(&bad, "1\n2\nthree\n").unwrap();
    assert_fails(
        &["host", "--sim", "load-keys", bad.to_str().unwrap()],
        ":3:",
    );
    let _ = std::fs::remove_file(&bad);
    assert!(!Path::new("/dev/nonexistent-bloom-port").exists());
}

/// `bloom host --sim serve` on a pseudo-terminal, stopped by SIGTERM when dropped.
struct Server {
    child: std::process::Child,
    device: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        use std::io::BufRead;
        let mut args = vec!["host", "--sim"];
        args.extend(CORE);
        args.extend(extra);
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bloom"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut first)
            .unwrap();
        let device = first
            .trim()
            .rsplit(" on ")
            .next()
            .unwrap_or_default()
            .to_string();
        assert!(device.starts_with("/dev/pts/"), "serve printed {first:?}");
        Server { child, device }
    }

    /// Stops it as Ctrl-C would; its exit status and standard error.
    fn stop(mut self) -> (std::process::ExitStatus, String) {
        // SAFETY: a signal to our own child process.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let status = self.child.wait().unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(self.child.stderr.as_mut().unwrap(), &mut err).unwrap();
        (status, err)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The simulated board served on a PTY, driven by separate `bloom host --port`
/// runs (the real serial-port code; the board keeps its state between them),
/// load-image and dump, zero-counters, and a pyserial client; stopped cleanly.
#[test]
fn host_serve_pty_bloom_host_port_load_image_and_pyserial_k3_b6_w32() {
    let link = scratch("board-link");
    let server = Server::start(&["serve", "--link", link.to_str().unwrap()]);
    assert_eq!(
        std::fs::read_link(&link).unwrap().to_str().unwrap(),
        server.device
    );
    let port = |cmd: &[&str]| {
        // A long wait for answers: the served board keeps pace with the wall
        // clock only when the machine gives it the time, and the counters
        // below must see no resend.
        let mut a = vec![
            "host",
            "--port",
            link.to_str().unwrap(),
            "--latency-ms",
            "2000",
            "--expect-config",
        ];
        a.extend(CORE);
        a.extend(cmd);
        let o = bloom(&a);
        assert!(o.status.success(), "{cmd:?}: {}", text(&o).1);
        text(&o).0
    };
    let mut gold = golden::PartitionedFilter::new(golden_cfg());
    let out = port(&["insert", "1", "2", "0x30"]);
    let expect: String = [(1u128, "1"), (2, "2"), (0x30, "0x30")]
        .iter()
        .map(|(k, t)| format!("{t} {}\n", gold.insert(*k).unwrap() as u8))
        .collect();
    assert_eq!(out, expect);
    // A second connection sees the first one's inserts.
    let out = port(&["query", "1", "2", "0x30", "77"]);
    let expect: String = [(1u128, "1"), (2, "2"), (0x30, "0x30"), (77, "77")]
        .iter()
        .map(|(k, t)| format!("{t} {}\n", gold.query(*k).unwrap() as u8))
        .collect();
    assert_eq!(out, expect);
    // A plain board cannot delete: refused once the host knows the board's kind
    // (no delete frame sent), and nothing changed.
    let o = bloom(&[
        "host",
        "--port",
        link.to_str().unwrap(),
        "--latency-ms",
        "2000",
        "delete",
        "1",
        "2",
    ]);
    assert_failed_cleanly(&o, "plain filter (counter bits 1), which cannot delete");
    assert_eq!(stdout(&o), "");
    let out = port(&["query", "1", "2", "0x30", "77"]);
    assert_eq!(out, expect);
    // A whole image over the link, and back.
    let mut image = golden::PartitionedFilter::new(golden_cfg());
    for k in (0..25u128).map(|i| i * 104_729 + 3) {
        image.insert(k).unwrap();
    }
    let dir = scratch("load-image");
    image.export_image(&dir).unwrap();
    let out = port(&["load-image", dir.to_str().unwrap()]);
    assert!(
        out.contains("loaded image") && out.contains("bytes sent"),
        "{out}"
    );
    let dump = scratch("after-load");
    port(&["dump", dump.to_str().unwrap()]);
    assert_eq!(
        golden::PartitionedFilter::import_image_expecting(&dump, &golden_cfg()).unwrap(),
        image
    );
    let out = port(&["stats"]);
    assert!(!out.contains("image load incomplete"), "{out}");
    assert_eq!(
        field(&out, "fill"),
        format!("{:?} of 64 bits per bank", image.fill())
    );
    port(&["zero-counters"]);
    // The new connection's config frame is the one frame counted since.
    let out = port(&["stats"]);
    assert!(
        out.contains("ops served: 0, frames executed: 1, rejected: 0, replayed: 0"),
        "{out}"
    );
    // Any serial client: pyserial, from the protocol page alone.
    let py = std::process::Command::new("python3")
        .args([
            "tests/clients/pyserial_session.py",
            link.to_str().unwrap(),
            "115200",
            "0x5eed",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let (pout, perr) = (
        String::from_utf8_lossy(&py.stdout),
        String::from_utf8_lossy(&py.stderr),
    );
    assert!(
        py.status.success(),
        "pyserial client failed (scripts/setup.sh installs pyserial==3.5): {perr}"
    );
    let v: serde_json::Value = serde_json::from_str(pout.trim()).unwrap();
    let before = image.query(0x5eed).unwrap() as u64;
    let inserted = image.insert(0x5eed).unwrap() as u64;
    assert_eq!(
        (
            v["version"].as_u64(),
            v["k"].as_u64(),
            v["bank_bits"].as_u64(),
            v["key_bits"].as_u64(),
            v["seed"].as_u64()
        ),
        (Some(4), Some(3), Some(6), Some(32), Some(11))
    );
    assert_eq!(
        (v["counter_bits"].as_u64(), v["saturated"].clone()),
        (Some(1), serde_json::json!([]))
    );
    assert_eq!(
        (v["scrub"].as_u64(), v["scrub_mismatch"].as_u64()),
        (Some(0), Some(0)),
        "a board without the scrub"
    );
    assert_eq!(v["answers"]["query_before"].as_u64(), Some(before));
    assert_eq!(v["answers"]["insert"].as_u64(), Some(inserted));
    assert_eq!(v["answers"]["query_after"].as_u64(), Some(1));
    assert_eq!(v["fill"], serde_json::json!(image.fill()));
    assert_eq!(v["ops_served"].as_u64(), Some(3));
    let (status, err) = server.stop();
    assert!(status.success(), "serve exited with {status}: {err}");
    assert!(err.contains("stopped:"), "{err}");
    assert!(
        std::fs::symlink_metadata(&link).is_err(),
        "the link is removed when the server stops"
    );
    for d in [&dir, &dump] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// `serve --link L` removes only its own link when it stops: a regular file a user
/// put at L meanwhile is left alone (it was deleted), and SIGTERM still stops the
/// server cleanly.
#[test]
fn host_serve_link_replaced_by_a_user_file_is_not_removed() {
    let link = scratch("user-link");
    let server = Server::start(&["serve", "--link", link.to_str().unwrap()]);
    assert_eq!(
        std::fs::read_link(&link).unwrap().to_str().unwrap(),
        server.device
    );
    std::fs::remove_file(&link).unwrap();
    std::fs::write(&link, "a user's file").unwrap();
    let (status, err) = server.stop();
    assert!(status.success(), "serve exited with {status}: {err}");
    assert_eq!(std::fs::read_to_string(&link).unwrap(), "a user's file");
    let _ = std::fs::remove_file(&link);
}

#[test]
fn host_baud_serve_and_load_image_bad_input() {
    assert_fails(
        &["host", "--port", "/dev/null", "--baud", "0", "stats"],
        "300..=12000000",
    );
    assert_fails(
        &["host", "--port", "/dev/null", "--baud", "1", "stats"],
        "300..=12000000",
    );
    assert_fails(
        &["host", "--sim", "--baud", "12000001", "stats"],
        "300..=12000000",
    );
    assert_fails(&["host", "--port", "/dev/null", "serve"], "give --sim");
    let taken = scratch("taken-link");
    std::fs::write(&taken, "mine").unwrap();
    assert_fails(
        &["host", "--sim", "serve", "--link", taken.to_str().unwrap()],
        "never replaced",
    );
    assert_eq!(std::fs::read_to_string(&taken).unwrap(), "mine");
    let _ = std::fs::remove_file(&taken);
    let o = assert_fails(
        &["host", "--sim", "load-image", "/nonexistent/image"],
        "cannot load image /nonexistent/image",
    );
    assert_eq!(
        stderr(&o).matches("No such file").count(),
        1,
        "the cause once: {}",
        stderr(&o)
    );
    // Neither a port nor --sim: say what is needed.
    assert_fails(
        &["host", "stats"],
        "give the board's serial port (--port DEV",
    );
    assert_fails(&["host", "serve"], "give --sim");
    // The simulated board's clocks per bit: what the bridge's divider makes,
    // and a clock (baud x clocks per bit) of at most 1 GHz.
    assert_fails(
        &["host", "--port", "/dev/null", "--latency-ms", "0", "stats"],
        "1..=60000",
    );
    assert_fails(
        &["host", "--sim", "--latency-ms", "100", "stats"],
        "--latency-ms only applies to --port",
    );
    assert_fails(
        &["host", "--sim", "--sim-clocks-per-bit", "3", "stats"],
        "4..=65535",
    );
    assert_fails(
        &["host", "--sim", "--sim-clocks-per-bit", "65536", "stats"],
        "4..=65535",
    );
    assert_fails(
        &["host", "--sim", "--sim-clocks-per-bit", "60000", "stats"],
        "at most 1 GHz (8680 clocks per bit",
    );
    assert_fails(
        &[
            "host",
            "--sim",
            "--baud",
            "300",
            "--sim-clocks-per-bit",
            "60000",
            "--board-timeout-bits",
            "1000000",
            "stats",
        ],
        "32-bit timeout counter",
    );
    // An image of another configuration is refused before the board is touched.
    let other = scratch("other-image");
    golden::PartitionedFilter::new(
        golden::CoreParams::new(3, 6, 32, golden::HashFamily::Feistel, 12).unwrap(),
    )
    .export_image(&other)
    .unwrap();
    let mut a = vec!["host", "--sim"];
    a.extend(CORE);
    a.extend(["load-image", other.to_str().unwrap()]);
    assert_fails(&a, "seed");
    let _ = std::fs::remove_dir_all(&other);
}

/// The board top (bridge and core) as Yosys synthesises it for iCE40, simulated
/// with the cell models: a preloaded image answers from the first frame, inserts
/// answer as the golden model does, and a dump reads back the preloaded banks.
#[test]
fn host_sim_netlist_ice40_board_top_preload_query_insert_dump_k3_b6_w32() {
    let (gold, image) = preloaded_image("netlist-preload");
    let keys_file = scratch("netlist-keys.txt");
    let probe: Vec<u128> = (0..60u128).map(|i| i * 7919 + 5).collect();
    std::fs::write(
        &keys_file,
        probe.iter().map(|k| format!("{k}\n")).collect::<String>(),
    )
    .unwrap();

    let mut base = vec![
        "host",
        "--sim",
        "--netlist",
        "ice40",
        "--preload",
        image.to_str().unwrap(),
    ];
    base.extend(CORE);

    let (out, _) = run_ok(&base, &["query-keys", keys_file.to_str().unwrap()]);
    let expect: String = probe
        .iter()
        .map(|k| format!("{k} {}\n", gold.query(*k).unwrap() as u8))
        .collect();
    assert_eq!(out, expect);

    let (out, _) = run_ok(&base, &["insert", "1", "5", "7924", "99999"]);
    let mut after = gold.clone();
    let expect: String = [1u128, 5, 7924, 99999]
        .iter()
        .map(|k| format!("{k} {}\n", after.insert(*k).unwrap() as u8))
        .collect();
    assert_eq!(out, expect);

    let dump = assert_dump_is(&base, "netlist-dump", &gold);
    remove_scratch(&[&image, &dump, &keys_file]);
}

/// Counting configurations of the CLI tests: CORE with counters of `c` bits.
fn counting_cfg(c: u32) -> golden::CoreParams {
    golden_cfg().with_counter_bits(c).unwrap()
}

/// A counting filter of c = 2 (saturation at 3) in which keys were inserted
/// 1, 2, 3 and 4 times, so that some counters saturate; and its image.
fn saturated_counting_image(name: &str) -> (golden::CountingFilter, Vec<u128>, std::path::PathBuf) {
    let mut gold = golden::CountingFilter::from_config(counting_cfg(2)).unwrap();
    let keys: Vec<u128> = (0..24u128).map(|i| i * 104_729 + 17).collect();
    for (i, k) in keys.iter().enumerate() {
        for _ in 0..=(i % 4) {
            gold.insert(*k).unwrap();
        }
    }
    assert!(
        gold.saturated().iter().sum::<u32>() > 0,
        "the image has saturated counters"
    );
    let image = scratch(name);
    gold.export_image(&image).unwrap();
    (gold, keys, image)
}

/// `bloom host --sim --counter-bits 2` starting from a counting image with
/// saturated counters: delete and delete-keys answer as the golden counting
/// filter (present keys, a key deleted until absent, keys never inserted,
/// keys at saturation), stats shows the saturated counters, dump writes the
/// counting image, counter for counter.
#[test]
fn host_sim_counting_c2_preload_delete_delete_keys_stats_dump_k3_b6_w32() {
    let (gold, keys, image) = saturated_counting_image("counting-preload");
    let mut base = vec![
        "host",
        "--sim",
        "--counter-bits",
        "2",
        "--preload",
        image.to_str().unwrap(),
    ];
    base.extend(CORE);

    // One key three times (inserted once; its counters are shared, so it may
    // stay present a while, contract §7.4), a key at saturation twice, a key
    // never inserted.
    let mut after = gold.clone();
    let picks: Vec<(u128, String)> = [keys[0], keys[0], keys[0], keys[3], keys[3], 5]
        .iter()
        .map(|k| (*k, k.to_string()))
        .collect();
    let deletes: Vec<&str> = picks.iter().map(|(_, t)| t.as_str()).collect();
    let (out, err) = run_ok(&base, &[&["delete"][..], &deletes].concat());
    let expect: String = picks
        .iter()
        .map(|(k, t)| format!("{t} {}\n", after.delete(*k).unwrap() as u8))
        .collect();
    assert_eq!(out, expect);
    assert!(
        expect.contains(" 1\n") && expect.contains(" 0\n"),
        "deletes carried out and deletes of absent keys: {expect}"
    );
    assert!(
        err.contains("deleted") && err.contains("absent: nothing changed"),
        "{err}"
    );

    // delete-keys: every key of the pool once, and again (each run starts from the image).
    let file = scratch("counting-delete-keys.txt");
    let listing: String = keys
        .iter()
        .chain(&keys)
        .map(|k| format!("{k:#x}\n"))
        .collect();
    std::fs::write(&file, &listing).unwrap();
    let (out, _) = run_ok(&base, &["delete-keys", file.to_str().unwrap()]);
    let mut after = gold.clone();
    let expect: String = keys
        .iter()
        .chain(&keys)
        .map(|k| format!("{k:#x} {}\n", after.delete(*k).unwrap() as u8))
        .collect();
    assert_eq!(out, expect);

    let out = assert_counting_stats(&base, &gold);
    assert!(field(&out, "config").contains("counter_bits=2"), "{out}");

    let dump = scratch("counting-dump");
    let (out, _) = run_ok(&base, &["dump", dump.to_str().unwrap()]);
    assert!(
        out.contains("wrote counting image (counters of 2 bits)"),
        "{out}"
    );
    let back = golden::CountingFilter::import_image_expecting(&dump, &counting_cfg(2)).unwrap();
    assert_eq!(back, gold, "the dump is the preloaded counters");
    remove_scratch(&[&image, &file, &dump]);
}

/// A served counting board (c = 4) keeps its counters between `bloom host
/// --port` runs: inserts, deletes and queries answer as the golden counting
/// filter across connections; a counting image loaded over the link dumps back
/// counter for counter.
#[test]
fn host_serve_pty_counting_c4_insert_delete_query_across_connections_k3_b6_w32() {
    let server = Server::start(&["--counter-bits", "4", "serve"]);
    let port = |cmd: &[&str]| {
        let mut a = vec![
            "host",
            "--port",
            server.device.as_str(),
            "--latency-ms",
            "2000",
            "--expect-config",
            "--counter-bits",
            "4",
        ];
        a.extend(CORE);
        a.extend(cmd);
        let o = bloom(&a);
        assert!(o.status.success(), "{cmd:?}: {}", text(&o).1);
        text(&o).0
    };
    let mut gold = golden::CountingFilter::from_config(counting_cfg(4)).unwrap();
    let line = |gold: &mut golden::CountingFilter, op: &str, keys: &[u128]| -> String {
        keys.iter()
            .map(|k| {
                let hit = match op {
                    "insert" => gold.insert(*k),
                    "delete" => gold.delete(*k),
                    _ => gold.query(*k),
                };
                format!("{k} {}\n", hit.unwrap() as u8)
            })
            .collect()
    };
    let ks: Vec<u128> = vec![11, 22, 33, 11];
    let texts = |ks: &[u128]| ks.iter().map(|k| k.to_string()).collect::<Vec<_>>();
    for (op, set) in [
        ("insert", ks.clone()),
        ("delete", vec![11, 22, 44]),
        ("query", vec![11, 22, 33, 44]),
        ("delete", vec![11, 11, 33]),
    ] {
        let t = texts(&set);
        let mut cmd = vec![op];
        cmd.extend(t.iter().map(|s| s.as_str()));
        assert_eq!(port(&cmd), line(&mut gold, op, &set), "{op} {set:?}");
    }
    let out = port(&["stats"]);
    assert_eq!(
        field(&out, "fill"),
        format!("{:?} non-zero counters of 64 per bank", gold.fill())
    );
    assert!(out.contains("saturated counters (at 15"), "{out}");
    // A counting image over the link (write counters), and back (dump counters).
    let mut image = golden::CountingFilter::from_config(counting_cfg(4)).unwrap();
    for k in (0..30u128).map(|i| i % 20 * 104_729 + 3) {
        image.insert(k).unwrap();
    }
    image.write_counter(1, 7, 15).unwrap();
    let dir = scratch("counting-load-image");
    image.export_image(&dir).unwrap();
    let out = port(&["load-image", dir.to_str().unwrap()]);
    assert!(out.contains("loaded image"), "{out}");
    let dump = scratch("counting-after-load");
    port(&["dump", dump.to_str().unwrap()]);
    assert_eq!(
        golden::CountingFilter::import_image_expecting(&dump, &counting_cfg(4)).unwrap(),
        image
    );
    let out = port(&["stats"]);
    assert!(!out.contains("image load incomplete"), "{out}");
    assert!(
        field(&out, "saturated counters (at 15, never decremented again)")
            .starts_with(&format!("{:?}", image.saturated())),
        "{out}"
    );
    remove_scratch(&[&dir, &dump]);
    let (status, err) = server.stop();
    assert!(status.success(), "serve exited with {status}: {err}");
}

#[test]
fn host_counting_bad_input_refused_before_touching_a_board() {
    // Deleting from a plain board, known to be plain: refused before the board is built.
    let mut a = vec!["host", "--sim"];
    a.extend(CORE);
    a.extend(["delete", "1"]);
    let o = assert_fails(&a, "plain filter (counter bits 1), which cannot delete");
    assert_eq!(stdout(&o), "");
    assert_fails(
        &["host", "--sim", "delete-keys", "-"],
        "which cannot delete",
    );
    // Counter bits out of range.
    assert_fails(&["host", "--sim", "--counter-bits", "9", "stats"], "1..=8");
    assert_fails(
        &["host", "--sim", "--counter-bits", "0", "delete", "1"],
        "1..=8",
    );
    // An image of the other kind is refused before the board is touched.
    let (_, _, image) = saturated_counting_image("counting-load");
    let mut l = vec!["host", "--sim", "--counter-bits", "4"];
    l.extend(CORE);
    l.extend(["load-image", image.to_str().unwrap()]);
    assert_fails(&l, "counter_bits");
    let mut l = vec!["host", "--sim"];
    l.extend(CORE);
    l.extend(["load-image", image.to_str().unwrap()]);
    assert_fails(&l, "counter_bits");
    // A counting image preloaded into a plain board, and the other way round.
    let mut p = vec!["host", "--sim", "--preload", image.to_str().unwrap()];
    p.extend(CORE);
    p.push("stats");
    let o = bloom(&p);
    assert_failed_cleanly(&o, "counting");
    let (_, plain) = preloaded_image("plain-into-counting");
    let mut p = vec![
        "host",
        "--sim",
        "--counter-bits",
        "4",
        "--preload",
        plain.to_str().unwrap(),
    ];
    p.extend(CORE);
    p.push("stats");
    let o = bloom(&p);
    assert_failed_cleanly(&o, "plain");
    remove_scratch(&[&image, &plain]);
}

/// The counting board top (bridge and a c = 2 core) as Yosys synthesises it
/// for iCE40, simulated with the cell models, from a counting image with
/// saturated counters: deletes answer as the golden counting filter and the
/// stats show its fills and saturated counts.
#[test]
fn host_sim_netlist_ice40_counting_c2_board_top_preload_delete_keys_stats_k3_b6_w32() {
    let (gold, keys, image) = saturated_counting_image("netlist-counting-preload");
    let file = scratch("netlist-counting-keys.txt");
    let listing: String = keys
        .iter()
        .chain(&keys)
        .chain(&[5, 6, 7])
        .map(|k| format!("{k}\n"))
        .collect();
    std::fs::write(&file, &listing).unwrap();
    let mut base = vec![
        "host",
        "--sim",
        "--netlist",
        "ice40",
        "--counter-bits",
        "2",
        "--preload",
        image.to_str().unwrap(),
    ];
    base.extend(CORE);

    let (out, _) = run_ok(&base, &["delete-keys", file.to_str().unwrap()]);
    let mut after = gold.clone();
    let expect: String = keys
        .iter()
        .chain(&keys)
        .chain(&[5, 6, 7])
        .map(|k| format!("{k} {}\n", after.delete(*k).unwrap() as u8))
        .collect();
    assert_eq!(out, expect);

    assert_counting_stats(&base, &gold);
    remove_scratch(&[&image, &file]);
}

/// The scrub board of `bloom host --sim --scrub` (the configuration of
/// host/tests/bridge_e2e.rs's scrub test: one Verilator model for both).
const SCRUB_CORE: [&str; 9] = [
    "--k",
    "3",
    "--bank-bits",
    "11",
    "--key-bits",
    "32",
    "--seed",
    "11",
    "--scrub",
];

/// What `bloom host scrub` prints for the mismatch bits `bits` of a 3-bank board.
fn scrub_lines(bits: u16) -> String {
    (0..3)
        .map(|p| {
            if (bits >> p) & 1 == 1 {
                format!("bank {p}: mismatch (its bits changed without an operation)\n")
            } else {
                format!("bank {p}: ok\n")
            }
        })
        .collect()
}

/// `bloom host --sim --scrub scrub` on a fresh board reports every bank
/// matching, exit 0; with bits flipped in two banks by `--soft-error` (with no
/// operation: the fill counters do not see them) it reports the banks the
/// golden scrub model says, names them, and exits non-zero. `stats` says the
/// board has the scrub and shows the power-up check's result. A board built
/// without the scrub, and bad options, are refused with a clear error before
/// any board is built.
#[test]
fn host_sim_scrub_reports_soft_errors_per_bank_k3_b11_w32() {
    let base: Vec<&str> = [&["host", "--sim"][..], &SCRUB_CORE].concat();
    // The golden scrub model of a fresh, empty board: no soft change, nothing reported.
    let mut model = golden::scrub::ScrubModel::new(3, 2048);
    model.start();
    while !model.slot() {}
    let (out, _) = run_ok(&base, &["scrub"]);
    assert_eq!(
        out,
        scrub_lines(model.finish()) + "scrub: every bank matches its fill counter\n"
    );

    // Soft errors on the empty board: each turns a 0 into a 1.
    let flips = [(1usize, 17u32), (2, 5), (2, 9)];
    let mut model = golden::scrub::ScrubModel::new(3, 2048);
    for (bank, addr) in flips {
        model.soft_change(bank, addr, golden::scrub::soft_delta(0, 1));
    }
    model.start();
    while !model.slot() {}
    let want = model.finish();
    let mut args = base.clone();
    let flags: Vec<String> = flips.iter().map(|(b, a)| format!("{b}:{a}")).collect();
    for f in &flags {
        args.extend(["--soft-error", f.as_str()]);
    }
    args.push("scrub");
    let o = assert_fails(&args, "scrub: banks 1, 2 mismatch");
    assert_eq!(want, 0b110, "the golden model reports banks 1 and 2");
    assert_eq!(stdout(&o), scrub_lines(want));

    let (out, _) = run_ok(&base, &["stats"]);
    assert!(
        out.contains("scrub: built, on request (bloom host scrub), with the power-up check"),
        "{out}"
    );
    // The power-up check of an empty bitstream image (golden power_up_report).
    assert_eq!(golden::scrub::power_up_report(&[0, 0, 0], &[0, 0, 0]), 0);
    assert!(out.contains("power-up check: no bank differs"), "{out}");
    let (out, _) = run_ok(&["host", "--sim"], &[&CORE[..], &["stats"]].concat());
    assert!(
        out.contains("scrub: not built (bloom build --scrub)"),
        "{out}"
    );

    // Refused before a board is built.
    let no_scrub: Vec<&str> = [&["host", "--sim"][..], &CORE, &["scrub"]].concat();
    assert_fails(&no_scrub, "give --scrub");
    assert_fails(
        &[
            &["host", "--sim"][..],
            &CORE,
            &["--soft-error", "1:1", "scrub"],
        ]
        .concat(),
        "--soft-error needs --sim --scrub",
    );
    assert_fails(
        &[&base[..], &["--soft-error", "3:1", "scrub"]].concat(),
        "--soft-error 3:1: the board has 3 banks of 2048 addresses",
    );
    assert_fails(
        &[&base[..], &["--soft-error", "1:2048", "scrub"]].concat(),
        "the board has 3 banks of 2048 addresses",
    );
    assert_fails(
        &[&base[..], &["--soft-error", "1-5", "scrub"]].concat(),
        "is not BANK:ADDR",
    );
    assert_fails(
        &["host", "--port", "/dev/null", "--scrub", "stats"],
        "--scrub only applies to --sim",
    );
    assert_fails(
        &["host", "--sim", "--scrub-every", "100", "stats"],
        "--scrub",
    );
    assert_fails(
        &[
            "build",
            "--board",
            "icebreaker",
            "--scrub",
            "--top",
            "test-pattern",
        ],
        "--scrub applies to --top uart-bridge only",
    );
}
