//! `bloom host` end to end: the binary drives the Verilated board top over
//! the simulated UART (`--sim`), answers are checked against the golden model.

mod common;

use common::*;

use std::path::Path;

const CORE: [&str; 8] = ["--k", "3", "--bank-bits", "6", "--key-bits", "32", "--seed", "11"];

fn golden_cfg() -> golden::Config {
    golden::Config::new(3, 6, 32, golden::HashFamily::H3, 11).unwrap()
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
    let expect: String = [(1u128, "1"), (2, "0x2"), (3, "3"), (3, "3"), (4_000_000, "4_000_000")]
        .iter()
        .map(|(k, t)| format!("{t} {}\n", gold.insert(*k).unwrap() as u8))
        .collect();
    assert_eq!(out, expect);
}

#[test]
fn host_sim_preload_query_keys_and_dump_equal_golden_k3_b6_w32() {
    let mut gold = golden::PartitionedFilter::new(golden_cfg());
    for k in (0..40u128).map(|i| i * 7919 + 5) {
        gold.insert(k).unwrap();
    }
    let image = scratch("preload");
    gold.export_image(&image).unwrap();
    let keys_file = scratch("keys.txt");
    let probe: Vec<u128> = (0..80u128).map(|i| i * 7919 + 5).collect();
    let mut listing = String::from("# probe keys\n\n");
    for k in &probe {
        listing.push_str(&format!("{k:#x}\n"));
    }
    std::fs::write(&keys_file, listing).unwrap();

    let mut args = vec!["host", "--sim", "--preload", image.to_str().unwrap()];
    args.extend(CORE);
    let mut q = args.clone();
    q.extend(["query-keys", keys_file.to_str().unwrap()]);
    let o = bloom(&q);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let expect: String = probe.iter().map(|k| format!("{k:#x} {}\n", gold.query(*k).unwrap() as u8)).collect();
    assert_eq!(out, expect);

    let dump = scratch("dump");
    let mut d = args.clone();
    d.extend(["dump", dump.to_str().unwrap()]);
    let o = bloom(&d);
    assert!(o.status.success(), "{}", text(&o).1);
    let back = golden::PartitionedFilter::import_image_expecting(&dump, &golden_cfg()).unwrap();
    for p in 0..3 {
        assert_eq!(back.bank(p), gold.bank(p), "bank {p}");
    }
    for f in [image.as_path(), dump.as_path(), keys_file.as_path()] {
        let _ = if f.is_dir() { std::fs::remove_dir_all(f) } else { std::fs::remove_file(f) };
    }
}

#[test]
fn host_rejects_bad_input_before_touching_a_device() {
    assert_fails(&["host", "--sim", "insert", "0xZZ"], "unexpected character 'Z'");
    assert_fails(&["host", "--sim", "insert", "--", "-5"], "has a sign; keys are unsigned");
    assert_fails(&["host", "--sim", "insert", "-5"], "has a sign; keys are unsigned");
    assert_fails(&["host", "--sim", "query", "+5"], "has a sign; keys are unsigned");
    assert_fails(&["host", "--sim", "--key-bits", "32", "query", "0x100000000"], "does not fit in 32 bits");
    assert_fails(&["host", "--sim", "load-keys", "/nonexistent/keys.txt"], "cannot open key file");
    assert_fails(&["host", "--sim", "load-keys", "/tmp"], "is a directory");
    assert_fails(&["host", "--sim", "load-keys", "/dev/zero"], "/dev/zero:1: line is longer than 1024 bytes");
    let wide = scratch("wide-keys.txt");
    std::fs::write(&wide, "\u{feff}1\n# two\n0xFFFFFFFF\n0x1_0000_0000\n").unwrap();
    assert_fails(&["host", "--sim", "--key-bits", "32", "load-keys", wide.to_str().unwrap()], "wide-keys.txt:4: key \"0x1_0000_0000\" does not fit in 32 bits");
    let _ = std::fs::remove_file(&wide);
    // A dump never mixes with what a directory holds already.
    let full = scratch("full-dir");
    std::fs::create_dir_all(&full).unwrap();
    std::fs::write(full.join("bank07.hex"), "0\n").unwrap();
    assert_fails(&["host", "--sim", "dump", full.to_str().unwrap()], "not empty");
    assert_eq!(std::fs::read_dir(&full).unwrap().count(), 1);
    let _ = std::fs::remove_dir_all(&full);
    assert_fails(&["host", "--port", "/dev/nonexistent-bloom-port", "stats"], "does not exist");
    assert_fails(&["host", "--port", "/dev/null", "--sim", "stats"], "cannot be used with");
    assert_fails(&["host", "stats"], "--port");
    assert_fails(&["host", "--sim", "--k", "17", "stats"], "17");
    assert_fails(&["host", "--sim", "--tries", "0", "stats"], "--tries");
    assert_fails(&["host", "--port", "/dev/null", "--preload", "/tmp", "stats"], "--preload only applies to --sim");
    let bad = scratch("bad-keys.txt");
    std::fs::write(&bad, "1\n2\nthree\n").unwrap();
    assert_fails(&["host", "--sim", "load-keys", bad.to_str().unwrap()], ":3:");
    let _ = std::fs::remove_file(&bad);
    assert!(!Path::new("/dev/nonexistent-bloom-port").exists());
}
