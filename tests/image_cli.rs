//! `bloom image` end to end: build, info, query, union and intersect through the binary,
//! each answer checked against the golden model built directly, and every bad input
//! refused with a message and a non-zero exit, writing nothing.

mod common;

use common::*;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use golden::{CoreParams, HashFamily, PartitionedFilter};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Entries of a directory, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

/// Deterministic distinct 64-bit keys (SplitMix64 is a bijection of its counter).
fn keys(seed: u64, n: usize) -> Vec<u64> {
    let mut rng = golden::rng::SplitMix64::new(seed);
    (0..n).map(|_| rng.next_u64()).collect()
}

/// A fresh scratch directory (it exists, empty) for one test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn golden_of(cfg: CoreParams, keys: &[u64]) -> PartitionedFilter {
    let mut f = PartitionedFilter::new(cfg);
    for &k in keys {
        f.insert(k as u128).unwrap();
    }
    f
}

fn write_keys(path: &Path, keys: &[u64]) {
    let text: String = keys.iter().map(|k| format!("{k}\n")).collect();
    std::fs::write(path, text).unwrap();
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

#[test]
fn build_from_a_file_with_every_spelling_equals_the_golden_filter_k3_b8_w64_crc() {
    let dir = scratch_dir("build");
    let ks = keys(1, 500);
    // Every accepted spelling of contract §2.1, CRLF ends and a byte-order mark.
    let mut text = String::from("\u{feff}# keys\r\n\r\n");
    for (i, k) in ks.iter().enumerate() {
        text.push_str(&match i % 5 {
            0 => format!("{k}\r\n"),
            1 => format!("{k:#x}\n"),
            2 => format!("  0X{k:X}  # upper\n"),
            3 => format!(
                "{}\n",
                k.to_string()
                    .as_bytes()
                    .rchunks(3)
                    .rev()
                    .map(|c| std::str::from_utf8(c).unwrap())
                    .collect::<Vec<_>>()
                    .join("_")
            ),
            _ => format!("000{k}\t\n"),
        });
    }
    let file = dir.join("keys.txt");
    std::fs::write(&file, text).unwrap();
    let cfg = CoreParams::new(3, 8, 64, HashFamily::Crc, 9).unwrap();
    let out = dir.join("image");
    let core = [
        "--k",
        "3",
        "--bank-bits",
        "8",
        "--hash",
        "crc",
        "--seed",
        "9",
    ];
    let mut args = vec!["image", "build", "--keys", s(&file), "--out", s(&out)];
    args.extend(core);
    let o = ok(bloom(&args));
    assert!(
        stdout(&o).contains("from 500 keys") && stdout(&o).contains("M keys/s"),
        "{}",
        stdout(&o)
    );
    assert!(
        !stderr(&o).contains('\r'),
        "no progress line when stderr is not a terminal"
    );
    let want = golden_of(cfg, &ks);
    assert_eq!(PartitionedFilter::import_image(&out).unwrap(), want);
    assert_eq!(
        entries(&dir),
        ["image", "keys.txt"],
        "no temporary directory left"
    );

    // The same from standard input, with one thread, as JSON.
    let out2 = dir.join("image2");
    let mut args = vec![
        "image",
        "build",
        "--keys",
        "-",
        "--out",
        s(&out2),
        "--threads",
        "1",
        "--json",
    ];
    args.extend(core);
    let o = ok(bloom_stdin(&args, &std::fs::read(&file).unwrap()));
    let j = json(&o);
    assert_eq!(j["keys"], 500);
    assert_eq!(j["image"]["fills"], serde_json::json!(want.fill()));
    assert_eq!(PartitionedFilter::import_image(&out2).unwrap(), want);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `bloom image build` with bad input: an error naming the problem, exit 1, nothing written.
#[test]
fn build_refuses_bad_input_and_writes_nothing() {
    let dir = scratch_dir("build-bad");
    let out = dir.join("image");
    let file = |name: &str, text: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec![
                "--keys".into(),
                s(&file("wide.txt", b"1\n2\n4294967296\n")).into(),
                "--key-bits".into(),
                "32".into(),
            ],
            "wide.txt:3: key \"4294967296\" does not fit in 32 bits".into(),
        ),
        (
            vec![
                "--keys".into(),
                s(&file("bad.txt", b"1\n# x\n\nfive\n")).into(),
            ],
            "bad.txt:4: unexpected character 'f'".into(),
        ),
        (
            vec!["--keys".into(), s(&file("plus.txt", b"+1\n")).into()],
            "plus.txt:1: key \"+1\" has a sign".into(),
        ),
        (
            vec![
                "--keys".into(),
                s(&file("bom2.txt", b"1\n\xEF\xBB\xBF2\n")).into(),
            ],
            "bom2.txt:2: a byte-order mark".into(),
        ),
        (
            vec!["--keys".into(), "/dev/zero".into()],
            "/dev/zero: the key file is a device; it must be a regular file".into(),
        ),
        (
            vec!["--keys".into(), s(&dir.join("missing.txt")).into()],
            "cannot open key file".into(),
        ),
        (
            vec!["--keys".into(), s(&dir).into()],
            "is a directory".into(),
        ),
        (
            vec![
                "--keys".into(),
                s(&file("ok.txt", b"1\n")).into(),
                "--k".into(),
                "17".into(),
            ],
            "k = 17 is not allowed".into(),
        ),
        (
            vec![
                "--keys".into(),
                s(&dir.join("ok.txt")).into(),
                "--threads".into(),
                "0".into(),
            ],
            "--threads 0".into(),
        ),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["image", "build", "--out", s(&out)];
        args.extend(extra.iter().map(String::as_str));
        let o = bloom(&args);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(
            stderr(&o).contains(&needle),
            "{args:?}: expected {needle:?} in {}",
            stderr(&o)
        );
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
        assert!(
            !entries(&dir).iter().any(|e| e.starts_with('.')),
            "temporary files left: {:?}",
            entries(&dir)
        );
    }
    // A non-empty target is refused before the keys are read, and left as it was.
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("bank09.hex"), "old").unwrap();
    let o = bloom(&["image", "build", "--keys", "/dev/zero", "--out", s(&out)]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not empty"), "{}", stderr(&o));
    assert_eq!(entries(&out), ["bank09.hex"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn info_reports_fill_estimate_rate_and_design_fill_k4_b10() {
    let dir = scratch_dir("info");
    let cfg = CoreParams::new(4, 10, 64, HashFamily::Feistel, 2).unwrap();
    let design = golden::theory::images::design_items(1024).unwrap();
    for (name, n, over) in [("light", 300usize, false), ("heavy", 1200, true)] {
        let file = dir.join(format!("{name}.txt"));
        let ks = keys(7, n);
        write_keys(&file, &ks);
        let image = dir.join(name);
        ok(bloom(&[
            "image",
            "build",
            "--keys",
            s(&file),
            "--out",
            s(&image),
            "--k",
            "4",
            "--bank-bits",
            "10",
            "--seed",
            "2",
        ]));
        let j = json(&ok(bloom(&["image", "info", s(&image), "--json"])));
        let want = golden_of(cfg, &ks);
        assert_eq!(j["fills"], serde_json::json!(want.fill()));
        assert_eq!(j["config"], cfg.to_json());
        let items = j["estimated_items"].as_f64().unwrap();
        let se = j["estimated_items_std_error"].as_f64().unwrap();
        assert!(
            (items - n as f64).abs() < 5.0 * se,
            "{name}: {items} ± {se} for {n}"
        );
        let exact = golden::theory::partitioned_exact(4096, items.round() as u64, 4).unwrap();
        assert_eq!(j["fpr_exact_at_estimated_items"].as_f64().unwrap(), exact);
        assert!((j["design_items"].as_f64().unwrap() - design).abs() < 1e-9);
        assert_eq!(j["over_design_fill"], over, "{name}");
        let text = stdout(&ok(bloom(&["image", "info", s(&image)])));
        assert!(
            text.contains(if over {
                "over design fill: YES"
            } else {
                "over design fill: no"
            }),
            "{text}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn query_answers_like_the_golden_filter_and_checks_every_key_first() {
    let dir = scratch_dir("query");
    let ks = keys(3, 300);
    let file = dir.join("keys.txt");
    write_keys(&file, &ks);
    let image = dir.join("image");
    ok(bloom(&[
        "image",
        "build",
        "--keys",
        s(&file),
        "--out",
        s(&image),
        "--key-bits",
        "64",
    ]));
    let gold = golden_of(CoreParams::default(), &ks);
    let probes: Vec<u64> = ks.iter().take(20).copied().chain(keys(99, 200)).collect();
    let probe_file = dir.join("probes.txt");
    let probe_text: String = probes.iter().map(|k| format!("{k:#x} # probe\n")).collect();
    std::fs::write(&probe_file, probe_text).unwrap();
    let want: String = probes
        .iter()
        .map(|&k| format!("{k:#x} {}\n", gold.query(k as u128).unwrap() as u8))
        .collect();
    assert_eq!(
        stdout(&ok(bloom(&[
            "image",
            "query",
            s(&image),
            "--keys",
            s(&probe_file)
        ]))),
        want
    );
    let piped = ok(bloom_stdin(
        &["image", "query", s(&image), "--keys", "-"],
        &std::fs::read(&probe_file).unwrap(),
    ));
    assert_eq!(stdout(&piped), want);
    let first = format!("{}", ks[0]);
    let o = ok(bloom(&[
        "image",
        "query",
        s(&image),
        &first,
        "0x5",
        "--json",
    ]));
    let j = json(&o);
    assert_eq!(
        j["results"][0],
        serde_json::json!({"key": first, "hit": true})
    );
    assert_eq!(j["results"][1]["hit"], gold.query(5).unwrap());
    // A bad key anywhere: nothing answered.
    for (args, needle) in [
        (
            vec!["image", "query", s(&image), "1", "-2"],
            "\"-2\" has a sign",
        ),
        (
            vec!["image", "query", s(&image), "0x1_0000_0000_0000_0000"],
            "does not fit in 64 bits",
        ),
        (
            vec!["image", "query", s(&image), "12ab"],
            "unexpected character 'a'",
        ),
    ] {
        let o = bloom(&args);
        assert!(!o.status.success() && stdout(&o).is_empty(), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    std::fs::write(&probe_file, "1\n2\nx\n").unwrap();
    let o = bloom(&["image", "query", s(&image), "--keys", s(&probe_file)]);
    assert!(!o.status.success() && stdout(&o).is_empty());
    assert!(stderr(&o).contains("probes.txt:3:"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn union_is_lossless_and_intersect_estimates_the_overlap_h3_k4_b12() {
    let dir = scratch_dir("combine");
    let all = keys(11, 2600);
    // A = all[0..1600], B = all[1000..2600]: |A ∩ B| = 600.
    let (a_keys, b_keys) = (&all[..1600], &all[1000..]);
    let (fa, fb, fu) = (dir.join("a.txt"), dir.join("b.txt"), dir.join("u.txt"));
    write_keys(&fa, a_keys);
    write_keys(&fb, b_keys);
    write_keys(&fu, &all);
    for (f, name) in [(&fa, "A"), (&fb, "B"), (&fu, "U")] {
        ok(bloom(&[
            "image",
            "build",
            "--keys",
            s(f),
            "--out",
            s(&dir.join(name)),
        ]));
    }
    let (a, b, c) = (dir.join("A"), dir.join("B"), dir.join("C"));
    let j = json(&ok(bloom(&[
        "image",
        "union",
        s(&a),
        s(&b),
        "--out",
        s(&c),
        "--json",
    ])));
    // Union by OR is the filter of the union of the key sets, bit for bit.
    assert_eq!(
        PartitionedFilter::import_image(&c).unwrap(),
        PartitionedFilter::import_image(&dir.join("U")).unwrap()
    );
    let (u, se) = (
        j["estimated_union"].as_f64().unwrap(),
        j["estimated_union_std_error"].as_f64().unwrap(),
    );
    assert!((u - 2600.0).abs() < 5.0 * se, "union {u} ± {se}");

    let d = dir.join("D");
    let j = json(&ok(bloom(&[
        "image",
        "intersect",
        s(&a),
        s(&b),
        "--out",
        s(&d),
        "--size-a",
        "1600",
        "--size-b",
        "1600",
        "--json",
    ])));
    let gold = golden_of(CoreParams::default(), a_keys)
        .intersection(&golden_of(CoreParams::default(), b_keys))
        .unwrap();
    assert_eq!(PartitionedFilter::import_image(&d).unwrap(), gold);
    for field in [
        "estimated_intersection",
        "estimated_intersection_given_sizes",
    ] {
        let (n, se) = (
            j[field]["items"].as_f64().unwrap(),
            j[field]["std_error"].as_f64().unwrap(),
        );
        assert!(
            se > 0.0 && (n - 600.0).abs() < 5.0 * se,
            "{field}: {n} ± {se}"
        );
    }
    let text = stdout(&ok(bloom(&["image", "intersect", s(&a), s(&b)])));
    assert!(text.contains("estimated |A ∩ B|: "), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn combining_refuses_other_configurations_bad_images_and_full_targets_writing_nothing() {
    let dir = scratch_dir("combine-bad");
    let file = dir.join("k.txt");
    write_keys(&file, &keys(5, 50));
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    ok(bloom(&[
        "image",
        "build",
        "--keys",
        s(&file),
        "--out",
        s(&a),
    ]));
    ok(bloom(&[
        "image",
        "build",
        "--keys",
        s(&file),
        "--out",
        s(&b),
        "--seed",
        "1",
        "--k",
        "5",
    ]));
    for op in ["union", "intersect"] {
        let o = bloom(&["image", op, s(&a), s(&b), "--out", s(&c)]);
        assert!(!o.status.success());
        assert!(
            stderr(&o).contains("different configurations (k: 4 vs 5, seed: 0 vs 1)"),
            "{}",
            stderr(&o)
        );
        assert!(!c.exists());
        // Into a non-empty directory (here: A itself).
        let o = bloom(&["image", op, s(&a), s(&a), "--out", s(&a)]);
        assert!(
            !o.status.success() && stderr(&o).contains("not empty"),
            "{}",
            stderr(&o)
        );
    }
    // A stray bank file makes an image unreadable for every command, golden's or hdl's.
    std::fs::copy(a.join("bank00.hex"), a.join("bank16.hex")).unwrap();
    let out = dir.join("v");
    for args in [
        vec!["image", "info", s(&a)],
        vec!["image", "query", s(&a), "1"],
        vec!["image", "union", s(&a), s(&a)],
        vec!["verilog", "--preload", s(&a), "--out", s(&out)],
    ] {
        let o = bloom(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(
            stderr(&o).contains("bank16.hex") && stderr(&o).contains("stray"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The progress line appears on a terminal (here a pseudo-terminal from util-linux's
/// `script`) for an input that takes more than a second, and not for a short one.
#[test]
fn build_shows_progress_on_a_terminal_for_long_inputs_only() {
    let dir = scratch_dir("progress");
    let bin = env!("CARGO_BIN_EXE_bloom");
    let run = |input: &str, out: &Path| {
        let command = format!("({input}) | {bin} image build --keys - --out {}", s(out));
        let o = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .output()
            .unwrap_or_else(|e| {
                panic!("cannot run `script` ({e}); it is part of Debian's util-linux (bsdutils)")
            });
        assert!(o.status.success(), "{}", stdout(&o));
        assert!(PartitionedFilter::import_image(out).is_ok());
        stdout(&o)
    };
    let slow = run(
        "seq 1 200000; sleep 1.5; seq 200001 300000",
        &dir.join("slow"),
    );
    assert!(
        slow.contains("reading keys: ") && slow.contains("\x1b[2K"),
        "{slow:?}"
    );
    let fast = run("seq 1 1000", &dir.join("fast"));
    assert!(!fast.contains("reading keys"), "{fast:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
