//! `bloom fpr` and `bloom size` through the built binary: values, JSON shape,
//! plots, and every bad argument giving a clear error and a non-zero exit.

mod common;

use common::*;

fn json(args: &[&str]) -> serde_json::Value {
    let o = bloom(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(stdout(&o).trim()).expect("one JSON object")
}

#[test]
fn fpr_json_m4_n1_k2_has_exact_keys_and_13_64() {
    let v = json(&["fpr", "--m", "4", "--n", "1", "--k", "2", "--json"]);
    let obj = v.as_object().unwrap();
    let mut keys: Vec<&str> = obj.keys().map(|s| s.as_str()).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "bloom1970",
            "classic",
            "classic_exp",
            "k",
            "m",
            "n",
            "partitioned_exact",
            "standard_exact"
        ]
    );
    assert_eq!(v["m"], 4);
    assert_eq!(v["n"], 1);
    assert_eq!(v["k"], 2);
    assert!((v["standard_exact"].as_f64().unwrap() - 13.0 / 64.0).abs() < 1e-15);
    assert!((v["classic"].as_f64().unwrap() - 49.0 / 256.0).abs() < 1e-15);
    assert!((v["partitioned_exact"].as_f64().unwrap() - 0.25).abs() < 1e-15);
    assert_eq!(v["bloom1970"], v["partitioned_exact"]);
}

#[test]
fn fpr_json_m8_n2_values() {
    let v = json(&["fpr", "--m", "8", "--n", "2", "--k", "2", "--json"]);
    assert!((v["standard_exact"].as_f64().unwrap() - 5825.0 / 32768.0).abs() < 1e-15);
    let v = json(&["fpr", "--m", "8", "--n", "2", "--k", "4", "--json"]);
    assert!((v["partitioned_exact"].as_f64().unwrap() - 81.0 / 256.0).abs() < 1e-15);
}

#[test]
fn fpr_text_m32_n4_shows_conventional_6_and_exact_5() {
    let o = bloom(&["fpr", "--m", "32", "--n", "4", "--k", "4"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("conventional 6"), "{out}");
    assert!(out.contains("standard layout, exact minimiser 5"), "{out}");
}

#[test]
fn fpr_bad_arguments() {
    assert_fails(&["fpr", "--m", "64", "--n", "8", "--k", "0"], "--k 0");
    assert_fails(&["fpr", "--m", "64", "--n", "0", "--k", "4"], "--n 0");
    assert_fails(&["fpr", "--m", "0", "--n", "1", "--k", "1"], "--m 0");
    assert_fails(
        &["fpr", "--m", "3", "--n", "1", "--k", "6"],
        "--k 6 is more than --m 3",
    );
    assert_fails(&["fpr", "--m", "640", "--n", "1", "--k", "65"], "--k 65");
    assert_fails(&["fpr", "--m", "64", "--n", "8"], "--k");
    assert_fails(&["fpr", "--m", "nan", "--n", "8", "--k", "4"], "nan");
    assert_fails(
        &["fpr", "--m", "-64", "--n", "8", "--k", "4"],
        "unexpected argument",
    );
    assert_fails(&["fpr", "table", "--m", "8"], "--m 8");
}

#[test]
fn fpr_table_regenerates_the_summary_cache_values() {
    let o = bloom(&["fpr", "table", "--m", "320"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // m/n = 10 row, k = 4 and 5 of file 002: 0.0118 and 0.00943.
    let row = out
        .lines()
        .find(|l| l.trim_start().starts_with("10 |"))
        .expect("row m/n = 10");
    assert!(
        row.contains("1.181e-2") && row.contains("9.431e-3"),
        "{row}"
    );
    assert!(out.contains("exact n=32"), "exact rows for m = 320");
    assert_eq!(
        out.lines().filter(|l| l.contains("| classic")).count(),
        31 * 3
    );
}

#[test]
fn fpr_plot_writes_svg_and_png() {
    let dir = std::env::temp_dir().join(format!("bloom-theory-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("fig.svg");
    let o = bloom(&["fpr", "plot", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    for name in ["fig.svg", "fig.png", "fig-rates.svg", "fig-rates.png"] {
        let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        if name.ends_with(".png") {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{name} is not a PNG");
        } else {
            let text = String::from_utf8(bytes).unwrap();
            assert!(
                text.contains("<svg") && text.contains("m/n = 8") || name.contains("rates"),
                "{name}"
            );
            assert!(
                text.contains("<polyline") || text.contains("<path"),
                "{name} has no curves"
            );
        }
    }
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        4,
        "no temporary files left behind"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert_fails(
        &["fpr", "plot", "--out", "/nonexistent-dir-bloom/x.svg"],
        "does not exist",
    );
    // A symbolic link where one of the four files would go is refused, and
    // nothing is written at all.
    let dir = std::env::temp_dir().join(format!("bloom-theory-plot-link-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("mine.txt"), "mine").unwrap();
    std::os::unix::fs::symlink(dir.join("mine.txt"), dir.join("fig-rates.png")).unwrap();
    assert_fails(
        &[
            "fpr",
            "plot",
            "--out",
            dir.join("fig.svg").to_str().unwrap(),
        ],
        "is a symbolic link",
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    assert_eq!(
        std::fs::read_to_string(dir.join("mine.txt")).unwrap(),
        "mine"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn size_partitioned_meets_target() {
    let v = json(&["size", "--n", "1000", "--p", "0.01", "--json"]);
    let (m, k, b) = (
        v["m"].as_u64().unwrap(),
        v["k"].as_u64().unwrap(),
        v["bank_bits"].as_u64().unwrap(),
    );
    assert_eq!(m, k << b);
    assert!(v["rate"].as_f64().unwrap() <= 0.01);
    // Check it against `bloom fpr` at the recommended point.
    let f = json(&[
        "fpr",
        "--m",
        &m.to_string(),
        "--n",
        "1000",
        "--k",
        &k.to_string(),
        "--json",
    ]);
    assert_eq!(f["partitioned_exact"], v["rate"]);
}

#[test]
fn size_on_devices_reports_fit() {
    let v = json(&[
        "size", "--n", "2000", "--p", "0.01", "--device", "hx8k", "--json",
    ]);
    assert_eq!(v["fits"], true);
    assert!(v["blocks_used"].as_u64().unwrap() <= 32);
    let v = json(&[
        "size", "--n", "20000", "--p", "0.01", "--device", "up5k", "--json",
    ]);
    assert_eq!(v["fits"], false);
    let v = json(&[
        "size", "--n", "20000", "--p", "0.01", "--device", "ecp5-85f", "--json",
    ]);
    assert_eq!(v["fits"], true);
    let v = json(&[
        "size", "--n", "500", "--p", "0.001", "--layout", "standard", "--json",
    ]);
    assert!(v["rate"].as_f64().unwrap() <= 0.001);
    assert_eq!(v["layout"], "standard");
}

#[test]
fn size_bad_arguments() {
    assert_fails(&["size", "--n", "0", "--p", "0.01"], "--n 0");
    for p in ["0", "1", "1.5", "-0.1", "nan", "NaN", "inf"] {
        assert_fails(&["size", "--n", "100", "--p", p], "--p");
    }
    assert_fails(
        &["size", "--n", "100", "--p", "0.01", "--device", "xc7a35t"],
        "unknown",
    );
    assert_fails(
        &["size", "--n", "100", "--p", "0.01", "--layout", "blocked"],
        "unknown",
    );
    assert_fails(
        &["size", "--n", "100000000", "--p", "0.01"],
        "no partitioned configuration",
    );
}

/// The paper's own example: m = 32 is not a multiple of k = 6. Every
/// standard-layout rate is defined and printed; the partitioned one is not
/// applicable (text) or null (JSON), never an error.
#[test]
fn fpr_m32_n4_k6_standard_rates_partitioned_not_applicable() {
    let o = bloom(&["fpr", "--m", "32", "--n", "4", "--k", "6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let exact = golden::theory::standard_exact(32, 4, 6).unwrap();
    let rate = |label: &str| -> f64 {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("no {label} in {out}"));
        line.split_whitespace()
            .rev()
            .nth(1)
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(
        (rate("standard layout, exact") / exact - 1.0).abs() < 1e-12,
        "{out}"
    );
    assert!(
        (rate("Bloom 1970") / golden::theory::bloom1970(32, 4, 6).unwrap() - 1.0).abs() < 1e-12,
        "{out}"
    );
    assert!(
        out.contains("not applicable") && out.contains("--m 36 is"),
        "{out}"
    );
    let o = bloom(&["fpr", "--m", "32", "--n", "4", "--k", "6", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["partitioned_exact"].is_null(), "{v}");
    assert!(
        (v["standard_exact"].as_f64().unwrap() / exact - 1.0).abs() < 1e-12,
        "{v}"
    );
    assert!(
        (v["classic"].as_f64().unwrap() / golden::theory::classic(32, 4, 6).unwrap() - 1.0).abs()
            < 1e-12,
        "{v}"
    );
}

/// `bloom size --overflow Q`: the narrowest counter width of the recommended filter
/// whose union bound on "some counter saturates" is at most Q; a narrower one is not.
#[test]
fn size_overflow_n10000_p001_picks_the_narrowest_counter_width() {
    for (q, c) in [(1e-9, 4u64), (1e-12, 5)] {
        let v = json(&[
            "size",
            "--n",
            "10000",
            "--p",
            "0.01",
            "--overflow",
            &q.to_string(),
            "--json",
        ]);
        let (m, k) = (v["m"].as_u64().unwrap(), v["k"].as_u64().unwrap() as u32);
        assert_eq!(v["counting"]["counter_bits"], c, "{v}");
        assert_eq!(v["counting"]["memory_bits"], m * c);
        let bound = v["counting"]["overflow_upper"].as_f64().unwrap();
        assert!(bound <= q, "{v}");
        let narrower = golden::CounterBits::new(c as u32 - 1).unwrap();
        let row = golden::theory::counting::counter_overflow(m, 10000, k, narrower).unwrap();
        assert!(
            row.overflow_upper > q,
            "c = {} would do: {}",
            c - 1,
            row.overflow_upper
        );
    }
    let text = stdout(&bloom(&[
        "size",
        "--n",
        "10000",
        "--p",
        "0.01",
        "--overflow",
        "1e-9",
    ]));
    assert!(text.contains("counting filter: --counter-bits 4"), "{text}");
    assert_fails(
        &["size", "--n", "10000", "--p", "0.01", "--overflow", "0"],
        "--overflow 0 is out of range",
    );
    assert_fails(
        &[
            "size",
            "--n",
            "10000",
            "--p",
            "0.01",
            "--overflow",
            "1e-9",
            "--layout",
            "standard",
        ],
        "partitioned layout",
    );
}

/// `bloom fpr --counter-bits C`: the overflow figures of docs/theory.md's table for the
/// default core (m = 16384 counters in k = 4 banks, n = 2839), and its refusals.
#[test]
fn fpr_counter_bits_m16384_n2839_k4_gives_the_overflow_table_rows() {
    for (c, expected) in [
        ("2", 545.4),
        ("3", 0.1358),
        ("4", 2.591e-11),
        ("5", 1.011e-35),
    ] {
        let v = json(&[
            "fpr",
            "--m",
            "16384",
            "--n",
            "2839",
            "--k",
            "4",
            "--counter-bits",
            c,
            "--json",
        ]);
        let got = v["counting"]["expected_saturated"].as_f64().unwrap();
        assert!(
            (got / expected - 1.0).abs() < 1e-3,
            "c = {c}: {got} vs {expected}"
        );
        assert_eq!(v["counting"]["counter_bits"], c.parse::<u64>().unwrap());
        assert!(v["counting"]["overflow_upper"].as_f64().unwrap() <= 1.0);
    }
    let text = stdout(&bloom(&[
        "fpr",
        "--m",
        "16384",
        "--n",
        "2839",
        "--k",
        "4",
        "--counter-bits",
        "4",
    ]));
    assert!(
        text.contains("counting filter, 4-bit counters (saturated at 15)"),
        "{text}"
    );
    assert_fails(
        &[
            "fpr",
            "--m",
            "16384",
            "--n",
            "2839",
            "--k",
            "4",
            "--counter-bits",
            "9",
        ],
        "counter_bits = 9 is not allowed (allowed: 1..=8)",
    );
    assert_fails(
        &[
            "fpr",
            "--m",
            "16384",
            "--n",
            "2839",
            "--k",
            "4",
            "--counter-bits",
            "1",
        ],
        "plain filter",
    );
    assert_fails(
        &[
            "fpr",
            "--m",
            "16385",
            "--n",
            "2839",
            "--k",
            "4",
            "--counter-bits",
            "4",
        ],
        "partitioned layout",
    );
}
