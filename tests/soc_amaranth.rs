//! The filter as an Amaranth component: `bloom export`'s
//! amaranth/bloom_amaranth.py (a `wiring.Component` with `amaranth.lib.stream`
//! signatures around the exported Verilog) in a top with bloom_axis's port
//! names, converted to Verilog by Amaranth, simulated with the package's
//! Verilog in Icarus Verilog by the package's vector testbench, driven by
//! `bloom vectors` (every response and register value against the golden
//! model's). Shown to fail: one expected answer flipped, and vectors of
//! another configuration. Bad input: a parameter set that is not the
//! package's is refused when the component is made, naming the difference.

mod common;

use common::*;

use std::path::Path;
use std::process::{Command, Output};

const CORE: [&str; 8] = [
    "--k",
    "3",
    "--bank-bits",
    "7",
    "--hash",
    "crc",
    "--seed",
    "77",
];

fn amaranth_sim(pkg: &Path, vec: &Path, out: &Path, extra: &[&str]) -> Output {
    let python = ip::tools::venv_tool("python").unwrap_or_else(|e| panic!("{e}"));
    Command::new(python)
        .arg(pkg.join("amaranth/bloom_amaranth_sim.py"))
        .arg("--package")
        .arg(pkg)
        .arg("--vectors")
        .arg(vec)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .expect("python runs")
}

/// A copy of the vector set `src` with the expected answer of response
/// `index` flipped.
fn with_hit_flipped(src: &Path, dst: &Path, index: usize) {
    std::fs::create_dir_all(dst).unwrap();
    for f in ["config.hex", "stim.hex"] {
        std::fs::copy(src.join(f), dst.join(f)).unwrap();
    }
    let expect = std::fs::read_to_string(src.join("expect.hex")).unwrap();
    let lines: Vec<String> = expect
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == index {
                format!("{:08x}", u32::from_str_radix(l, 16).unwrap() ^ 0x100)
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(dst.join("expect.hex"), lines.join("\n") + "\n").unwrap();
}

#[test]
fn amaranths_verilog_of_the_component_passes_the_vectors() {
    let dir = scratch("soc-amaranth");
    std::fs::create_dir_all(&dir).unwrap();
    let (pkg, vec) = (dir.join("pkg"), dir.join("vec"));
    ok(bloom(
        &[&["export", "--out", pkg.to_str().unwrap()][..], &CORE].concat(),
    ));
    ok(bloom(
        &[
            &["vectors", "--ops", "3000", "--out", vec.to_str().unwrap()][..],
            &CORE,
        ]
        .concat(),
    ));

    let work = dir.join("work");
    let o = amaranth_sim(&pkg, &vec, &work, &["--k", "3", "--hash", "crc"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let pass = out
        .lines()
        .find(|l| l.starts_with("PASS: "))
        .unwrap_or_else(|| panic!("no PASS line:\n{out}"));
    assert!(
        pass.contains("3000 requests, 3000 responses") && pass.ends_with(" 0 mismatches"),
        "{pass}"
    );
    println!("Amaranth's Verilog of BloomAxis with bloom_axis.v in Icarus: {pass}");
    let top = std::fs::read_to_string(work.join("bloom_amaranth_top.v")).unwrap();
    assert!(top.contains("module bloom_amaranth_top("), "{top}");
    assert!(top.contains("bloom_axis bloom_axis ("), "{top}");

    // One wrong expected answer fails the run, naming the response.
    let flipped = dir.join("vec-flipped");
    with_hit_flipped(&vec, &flipped, 17);
    let o = amaranth_sim(&pkg, &flipped, &dir.join("work-flipped"), &[]);
    let out = stdout(&o);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("ERROR: response 17: got hit"), "{out}");
    assert!(out.contains("FAIL: "), "{out}");

    // Vectors of another configuration are refused.
    let other = dir.join("vec-other");
    ok(bloom(&[
        "vectors",
        "--ops",
        "100",
        "--out",
        other.to_str().unwrap(),
    ]));
    let o = amaranth_sim(&pkg, &other, &dir.join("work-other"), &[]);
    let out = stdout(&o);
    assert!(!o.status.success(), "{out}");
    assert!(
        out.contains("FAIL: ") && out.contains("configuration"),
        "{out}"
    );

    // A parameter set that is not the package's is refused, naming the difference.
    let o = amaranth_sim(
        &pkg,
        &vec,
        &dir.join("work-wrong"),
        &["--key-bits", "32", "--hash", "h3"],
    );
    let err = stderr(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("error: the parameters do not match the exported core in")
            && err.contains("key_bits = 32 (the package has 64)")
            && err.contains("hash = 'h3' (the package has 'crc')"),
        "{err}"
    );
    assert!(!err.contains("Traceback"), "{err}");
    assert!(!dir.join("work-wrong").exists());
}
