//! The IP package end to end, through the `bloom` binary and third-party
//! tools: `bloom vectors` run by the plain-Verilog testbench in Icarus Verilog
//! and in Verilator `--binary`; the same kind of vectors run by the cocotb +
//! cocotbext-axi testbench in Icarus; `bloom export`'s package with its
//! FuseSoC targets run by `fusesoc` (lint, sim, an iCEBreaker bitstream); and
//! bad input: vectors of another configuration refused by every testbench with
//! a message, exports and vector sets refused without writing anything. The
//! same for the lanes' face (`--lanes L`): its vectors in Icarus, Verilator,
//! FuseSoC and cocotb, and lanes whose replicas are not written caught.
//!
//! Expensive tool runs (the Verilator build, cocotb, the FuseSoC targets) are
//! recorded by content (ip::tools): a run whose inputs are the same as an
//! earlier successful one's is not repeated.

mod common;

use common::*;

use std::path::{Path, PathBuf};
use std::process::Command;

use ip::tools::{
    content_hash, run, run_cached, system_tool, tree_contents, venv_tool, version_of, RunOutput,
};

fn need(tool: &str, install: &str) -> PathBuf {
    system_tool(tool, install).unwrap_or_else(|e| panic!("{e}"))
}

fn python_tool(name: &str) -> PathBuf {
    venv_tool(name).unwrap_or_else(|e| panic!("{e}"))
}

fn export(dir: &Path, core: &[&str]) {
    ok(bloom(
        &[&["export", "--out", dir.to_str().unwrap()][..], core].concat(),
    ));
}

fn vectors(dir: &Path, ops: &str, core: &[&str]) {
    ok(bloom(
        &[
            &["vectors", "--ops", ops, "--out", dir.to_str().unwrap()][..],
            core,
        ]
        .concat(),
    ));
}

/// `(requests, cycles)` of a testbench's PASS line.
fn pass_line(out: &str) -> (u64, u64) {
    let line = out
        .lines()
        .find(|l| l.starts_with("PASS: "))
        .unwrap_or_else(|| panic!("no PASS line:\n{out}"));
    let num = |after: &str| -> u64 {
        let w: Vec<&str> = line.split_whitespace().collect();
        let i = w
            .iter()
            .position(|x| x.trim_end_matches(',') == after)
            .unwrap();
        w[i - 1].parse().unwrap()
    };
    (num("requests"), num("cycles"))
}

/// Compiles the vector testbench with the package's RTL in Icarus and runs it
/// in `vectors` (plusargs may point elsewhere).
fn icarus(pkg: &Path, tb_dir: &Path, vectors: &Path, plusargs: &[String]) -> RunOutput {
    let iverilog = need("iverilog", "apt-get install iverilog");
    let exe = vectors.join("tb.vvp");
    let o = run(Command::new(iverilog)
        .args(["-g2005", "-o"])
        .arg(&exe)
        .arg(tb_dir.join("tb_bloom_axis.v"))
        .arg(pkg.join("rtl/bloom_axis.v"))
        .arg(pkg.join("rtl/bloom_core.v")))
    .unwrap();
    assert!(o.success(), "iverilog failed:\n{}", o.text());
    let o = run(Command::new(need("vvp", "apt-get install iverilog"))
        .arg("-n")
        .arg(&exe)
        .args(plusargs)
        .current_dir(vectors))
    .unwrap();
    let _ = std::fs::remove_file(&exe);
    o
}

/// The testbench built by Verilator --binary, cached by the content of its sources.
fn verilator_binary(pkg: &Path, tb_dir: &Path) -> PathBuf {
    verilator_tb_binary(
        "tb_bloom_axis",
        &[
            tb_dir.join("tb_bloom_axis.v"),
            pkg.join("rtl/bloom_axis.v"),
            pkg.join("rtl/bloom_core.v"),
        ],
    )
}

/// The testbench `top` of `sources` built by Verilator --binary, cached by their content.
fn verilator_tb_binary(top: &str, sources: &[PathBuf]) -> PathBuf {
    let verilator = need("verilator", "apt-get install verilator");
    let version = version_of(&verilator, &["--version"]).unwrap();
    let texts: Vec<Vec<u8>> = sources.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let mut parts: Vec<&[u8]> = texts.iter().map(|t| t.as_slice()).collect();
    parts.push(version.as_bytes());
    let hash = content_hash(&parts);
    let dir = ip::tools::cache_dir().join(format!("verilator-tb-{hash}"));
    let exe = dir.join(format!("V{top}"));
    if exe.is_file() {
        return exe;
    }
    // Per process and per testbench: two tests of this binary may build theirs at once.
    let tmp =
        ip::tools::cache_dir().join(format!(".verilator-tb.tmp-{}-{hash}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let o = run(Command::new(verilator)
        .args(["--binary", "-j", "2", "--top-module", top, "--Mdir"])
        .arg(&tmp)
        .args(sources))
    .unwrap();
    assert!(o.success(), "verilator --binary failed:\n{}", o.text());
    if std::fs::rename(&tmp, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&tmp); // built by another test meanwhile
    }
    exe
}

fn root_docs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/wavedrom")
}

fn scratch_dir(name: &str) -> PathBuf {
    let d = scratch(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const VEC_CORE: [&str; 10] = [
    "--k",
    "3",
    "--bank-bits",
    "7",
    "--key-bits",
    "64",
    "--hash",
    "crc",
    "--seed",
    "77",
];

/// Plusargs pointing a testbench at the vector set in `d`.
fn plusargs(d: &Path) -> Vec<String> {
    ["config", "stim", "expect"]
        .iter()
        .map(|f| format!("+{f}={}", d.join(format!("{f}.hex")).display()))
        .collect()
}

/// The package's RTL runs the vectors in `vec` to PASS in Icarus and in
/// Verilator `--binary`, both to the same cycle: the Verilator testbench and
/// that cycle count.
fn passes_in_icarus_and_verilator(pkg: &Path, vec: &Path, requests: u64) -> (PathBuf, u64) {
    let ica = icarus(pkg, vec, vec, &[]);
    assert!(ica.success(), "Icarus:\n{}", ica.text());
    let (passed, cycles) = pass_line(&ica.stdout);
    assert_eq!(passed, requests);
    let exe = verilator_binary(pkg, vec);
    let ver = run(Command::new(&exe).current_dir(vec)).unwrap();
    assert!(ver.success(), "Verilator:\n{}", ver.text());
    // Both simulators run the clocked testbench the same way, to the cycle.
    assert_eq!(
        pass_line(&ver.stdout),
        (passed, cycles),
        "Icarus:\n{}\nVerilator:\n{}",
        ica.stdout,
        ver.stdout
    );
    (exe, cycles)
}

/// `vec`'s vector set copied into `dst` with expected response `index`'s hit flipped.
fn with_hit_flipped(vec: &Path, dst: &Path, index: usize) {
    std::fs::create_dir_all(dst).unwrap();
    for f in ["config.hex", "stim.hex"] {
        std::fs::copy(vec.join(f), dst.join(f)).unwrap();
    }
    let expect = std::fs::read_to_string(vec.join("expect.hex")).unwrap();
    let mut lines: Vec<String> = expect.lines().map(String::from).collect();
    let flipped = u32::from_str_radix(&lines[index], 16).unwrap() ^ 0x100;
    lines[index] = format!("{flipped:08x}");
    std::fs::write(dst.join("expect.hex"), lines.join("\n") + "\n").unwrap();
}

/// The `stats` of a vector set's vectors.json.
fn vector_stats(vec: &Path) -> serde_json::Value {
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(vec.join("vectors.json")).unwrap()).unwrap();
    summary["stats"].clone()
}

#[test]
fn vectors_crc_k3_b7_w64_pass_in_icarus_and_verilator() {
    let root = scratch_dir("vec");
    let (pkg, vec) = (root.join("pkg"), root.join("vec"));
    export(&pkg, &VEC_CORE);
    vectors(&vec, "3000", &VEC_CORE);
    let (exe, _) = passes_in_icarus_and_verilator(&pkg, &vec, 3000);

    // Another configuration's vectors: refused by both, with a message, not a wrong pass.
    let other = root.join("other");
    vectors(
        &other,
        "50",
        &[
            "--k",
            "3",
            "--bank-bits",
            "7",
            "--key-bits",
            "64",
            "--hash",
            "crc",
            "--seed",
            "78",
        ],
    );
    for o in [
        icarus(&pkg, &vec, &vec, &plusargs(&other)),
        run(Command::new(&exe).args(plusargs(&other)).current_dir(&vec)).unwrap(),
    ] {
        assert!(!o.success(), "{}", o.text());
        assert!(
            o.text()
                .contains("FAIL: the vectors do not match the core's configuration"),
            "{}",
            o.text()
        );
        assert!(
            o.text().contains("seed=0x000000000000004e"),
            "the message names the vectors' configuration:\n{}",
            o.text()
        );
    }
    // Vectors for another key width: this testbench refuses them before the core is touched.
    let narrow = root.join("narrow");
    vectors(
        &narrow,
        "50",
        &[
            "--k",
            "3",
            "--bank-bits",
            "7",
            "--key-bits",
            "32",
            "--hash",
            "crc",
            "--seed",
            "77",
        ],
    );
    let o = run(Command::new(&exe).args(plusargs(&narrow)).current_dir(&vec)).unwrap();
    assert!(
        !o.success()
            && o.text()
                .contains("vectors for key_bits=32; this testbench drives KEY_BITS=64"),
        "{}",
        o.text()
    );
    // A cut stimulus file and a wrong expected response.
    let cut = root.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    for f in ["config.hex", "expect.hex"] {
        std::fs::copy(vec.join(f), cut.join(f)).unwrap();
    }
    let stim = std::fs::read_to_string(vec.join("stim.hex")).unwrap();
    let half: String = stim
        .lines()
        .take(stim.lines().count() / 2)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(cut.join("stim.hex"), half).unwrap();
    let o = run(Command::new(&exe).args(plusargs(&cut)).current_dir(&vec)).unwrap();
    assert!(
        !o.success()
            && o.text()
                .contains("the stimulus file's length does not match the config"),
        "{}",
        o.text()
    );
    let wrong = root.join("wrong");
    with_hit_flipped(&vec, &wrong, 1000);
    for o in [
        icarus(&pkg, &vec, &vec, &plusargs(&wrong)),
        run(Command::new(&exe).args(plusargs(&wrong)).current_dir(&vec)).unwrap(),
    ] {
        assert!(!o.success(), "{}", o.text());
        assert!(
            o.text().contains("ERROR: response 1000:")
                && o.text().contains("FAIL: the core's answers differ"),
            "{}",
            o.text()
        );
    }
}

const VEC_COUNTING_CORE: [&str; 10] = [
    "--k",
    "3",
    "--bank-bits",
    "6",
    "--key-bits",
    "32",
    "--hash",
    "crc",
    "--counter-bits",
    "2",
];

/// The counting core behind bloom_axis in the plain-Verilog testbench: 2-bit
/// counters in 64-counter banks, so that saturation, deletes carried out and
/// deletes of absent keys are frequent.
#[test]
fn vectors_counting_crc_k3_b6_w32_c2_pass_in_icarus_and_verilator() {
    let root = scratch_dir("vec-counting");
    let (pkg, vec) = (root.join("pkg"), root.join("vec"));
    export(&pkg, &VEC_COUNTING_CORE);
    vectors(&vec, "3000", &VEC_COUNTING_CORE);
    let st = &vector_stats(&vec);
    let deletes = st["deletes"].as_u64().unwrap();
    let carried = st["deletes_carried_out"].as_u64().unwrap();
    assert!(
        carried > 100
            && deletes - carried > 50
            && st["inserts_at_saturation"].as_u64().unwrap() > 50,
        "{st}"
    );
    let (exe, cycles) = passes_in_icarus_and_verilator(&pkg, &vec, 3000);
    println!("counting vectors: {} cycles, {st}", cycles);

    // The plain core's vectors and another counter width's: refused (CONFIG.counter_bits differs).
    for (name, c) in [("plain", "1"), ("c3", "3")] {
        let other = root.join(name);
        vectors(
            &other,
            "50",
            &[&VEC_COUNTING_CORE[..8], &["--counter-bits", c][..]].concat(),
        );
        let o = run(Command::new(&exe).args(plusargs(&other)).current_dir(&vec)).unwrap();
        assert!(
            !o.success()
                && o.text()
                    .contains("FAIL: the vectors do not match the core's configuration"),
            "{}",
            o.text()
        );
    }
    // A delete answered otherwise than the golden model says is caught.
    let stim: Vec<String> = std::fs::read_to_string(vec.join("stim.hex"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    // The n-th request step whose op (bits 137:136, hex digit 9 from the left's low two bits) is 3.
    let requests: Vec<&String> = stim.iter().filter(|l| l.starts_with('0')).collect();
    let delete_at = requests
        .iter()
        .position(|l| u8::from_str_radix(&l[9..10], 16).unwrap() & 3 == 3)
        .expect("a delete");
    let wrong = root.join("wrong");
    with_hit_flipped(&vec, &wrong, delete_at);
    let o = run(Command::new(&exe).args(plusargs(&wrong)).current_dir(&vec)).unwrap();
    assert!(
        !o.success() && o.text().contains(&format!("ERROR: response {delete_at}:")),
        "{}",
        o.text()
    );
}

const COCOTB_CORE: [&str; 10] = [
    "--k",
    "4",
    "--bank-bits",
    "9",
    "--key-bits",
    "128",
    "--hash",
    "h3",
    "--seed",
    "81985529216486895",
];

/// The cocotb testbench (ip/cocotb) on package `pkg` with the vectors in `vec`, unrecorded.
fn cocotb_on(python: &Path, pkg: &Path, vec: &Path, build: &Path) -> RunOutput {
    let runner = ip::tools::repo_root().join("ip/cocotb/run.py");
    run(Command::new(python)
        .arg(runner)
        .arg(pkg)
        .arg(vec)
        .arg(build)
        .env("BLOOM_TESTCASE", "vectors_through_axi")
        .current_dir(build.parent().unwrap()))
    .unwrap()
}

/// The cocotb + cocotbext-axi testbench (ip/cocotb) on the package of `core`
/// with `ops` stream requests of `bloom vectors`, in Icarus; its RESULT line.
fn cocotb_run(name: &str, core: &[&str], ops: &str) -> (PathBuf, PathBuf, PathBuf) {
    let python = python_tool("python");
    need("iverilog", "apt-get install iverilog");
    let root = scratch_dir(name);
    let (pkg, vec) = (root.join("pkg"), root.join("vec"));
    export(&pkg, core);
    vectors(&vec, ops, core);
    let runner = ip::tools::repo_root().join("ip/cocotb");
    let mut key: Vec<(String, Vec<u8>)> = tree_contents(&runner)
        .into_iter()
        .filter(|(n, _)| n.ends_with(".py"))
        .collect();
    for d in [&pkg.join("rtl"), &pkg.join("regs"), &vec] {
        key.extend(tree_contents(d));
    }
    let versions = format!(
        "{} {}",
        version_of(&python, &["-m", "pip", "freeze"]).unwrap_or_default(),
        version_of(&need("iverilog", ""), &["-V"]).unwrap()
    );
    let mut parts: Vec<&[u8]> = key
        .iter()
        .flat_map(|(n, b)| [n.as_bytes(), b.as_slice()])
        .collect();
    let freeze = std::fs::read(ip::tools::venv().join(".requirements.sha256")).unwrap_or_default();
    parts.push(versions.as_bytes());
    parts.push(&freeze);
    let o = run_cached(
        "cocotb",
        &content_hash(&parts),
        Command::new(&python)
            .arg(runner.join("run.py"))
            .arg(&pkg)
            .arg(&vec)
            .arg(root.join("build"))
            .current_dir(&root),
    )
    .unwrap();
    let t = o.text();
    assert!(o.success(), "cocotb run failed:\n{t}");
    // The three tests of the module: the vectors, reset with operations in flight, the scrub.
    assert!(t.contains("3 passed, 0 failed, 0 skipped"), "{t}");
    let scrub = t
        .lines()
        .find(|l| l.starts_with("SCRUB "))
        .unwrap_or_else(|| panic!("no SCRUB line:\n{t}"));
    // With the scrub: one scrub without a soft change, then in a plain core one bit of
    // each bank flipped and flipped back, each followed by a scrub; without it, none.
    let k: u32 = core[core.iter().position(|a| *a == "--k").unwrap() + 1]
        .parse()
        .unwrap();
    let counting = core.contains(&"--counter-bits");
    let expected = match (core.contains(&"--scrub"), counting) {
        (false, _) => "SCRUB scrubs=0 flips=0 failures=0".to_string(),
        (true, true) => "SCRUB scrubs=1 flips=0 failures=0".to_string(),
        (true, false) => format!("SCRUB scrubs={} flips={} failures=0", 1 + 2 * k, 2 * k),
    };
    assert_eq!(scrub, expected, "{t}");
    println!("cocotb {name}, scrub: {scrub}");
    let reset = t
        .lines()
        .find(|l| l.starts_with("RESET "))
        .unwrap_or_else(|| panic!("no RESET line:\n{t}"));
    assert!(
        reset.contains("rounds=16")
            && reset.contains("bit_accesses_in_flight=8")
            && reset.ends_with("failures=0"),
        "{reset}"
    );
    println!("cocotb {name}, reset in flight: {reset}");
    let result = t
        .lines()
        .find(|l| l.starts_with("RESULT "))
        .unwrap_or_else(|| panic!("no RESULT line:\n{t}"));
    assert!(
        result.contains(&format!("requests={ops} responses={ops}"))
            && result.contains("mismatches=0"),
        "{result}"
    );
    assert!(
        result.contains("simulator=Icarus_Verilog:11") && result.contains("cocotb=2.1.0"),
        "{result}"
    );
    println!(
        "cocotb {name}{}: {result}",
        if o.cached { " (recorded run)" } else { "" }
    );
    (root, pkg, python)
}

#[test]
fn cocotb_cocotbext_axi_h3_k4_b9_w128_icarus() {
    let (root, pkg, python) = cocotb_run("cocotb", &COCOTB_CORE, "4000");
    // Vectors of another configuration are refused with a message.
    let other = root.join("other");
    vectors(
        &other,
        "20",
        &[
            "--k",
            "5",
            "--bank-bits",
            "9",
            "--key-bits",
            "128",
            "--seed",
            "81985529216486895",
        ],
    );
    let o = cocotb_on(&python, &pkg, &other, &root.join("build2"));
    assert!(!o.success(), "{}", o.text());
    assert!(
        o.text()
            .contains("the vectors do not match the core's configuration: vectors for k=5"),
        "{}",
        o.text()
    );
    assert!(o.text().contains("0 passed, 1 failed"), "{}", o.text());
}

/// The scrub through the register map (COMMAND.scrub, STATUS.scrub_busy,
/// SCRUB_MISMATCH, CONFIG.scrub, SCRUB_EVERY) of a wrapper exported with `--scrub`:
/// the vectors (whose CONFIG has the scrub bit), reset in flight, and a bit flipped in
/// each bank's memory array reported on that bank's SCRUB_MISMATCH bit alone.
///
/// The core is of the Feistel family: its request line (latency 9, 10 responses
/// outstanding, bloom_axis's drop ring as deep) under the vectors' pauses on both
/// streams and reset in flight; the package's plain-Verilog testbench runs the same
/// vectors to PASS in Icarus.
#[test]
fn cocotb_scrub_through_axi_feistel_k2_b6_w32_icarus() {
    let (root, pkg, _) = cocotb_run(
        "cocotb-scrub",
        &[
            "--k",
            "2",
            "--bank-bits",
            "6",
            "--key-bits",
            "32",
            "--hash",
            "feistel",
            "--scrub",
        ],
        "1500",
    );
    let vec = root.join("vec");
    let o = icarus(&pkg, &vec, &vec, &[]);
    assert!(o.success(), "Icarus:\n{}", o.text());
    assert_eq!(pass_line(&o.stdout).0, 1500, "{}", o.stdout);
}

const COCOTB_COUNTING_CORE: [&str; 10] = [
    "--k",
    "3",
    "--bank-bits",
    "7",
    "--key-bits",
    "64",
    "--hash",
    "h3",
    "--counter-bits",
    "3",
];

/// A counting core behind bloom_axis, driven by cocotb: deletes on s_axis,
/// counter writes through BIT_COUNT, counter readbacks and SATURATED reads,
/// every answer from the golden counting filter.
#[test]
fn cocotb_cocotbext_axi_counting_h3_k3_b7_w64_c3_icarus() {
    let (root, pkg, python) = cocotb_run("cocotb-counting", &COCOTB_COUNTING_CORE, "4000");
    let st = &vector_stats(&root.join("vec"));
    assert!(
        st["deletes_carried_out"].as_u64().unwrap() > 100
            && st["inserts_at_saturation"].as_u64().unwrap() > 10,
        "{st}"
    );
    println!("cocotb counting traffic: {st}");
    // A plain core's vectors of the same k, b, W are refused by the counting core.
    let plain = root.join("plain");
    vectors(&plain, "20", &COCOTB_COUNTING_CORE[..8]);
    let o = cocotb_on(&python, &pkg, &plain, &root.join("build2"));
    assert!(!o.success(), "{}", o.text());
    assert!(
        o.text()
            .contains("the vectors do not match the core's configuration"),
        "{}",
        o.text()
    );
}

/// The reset-in-flight test has teeth: `bloom_axis` made wrong in three ways a wrapper
/// could be (its Verilog edited), each caught by the check that names it. A pending
/// bit access kept across aresetn; the response path reset only at power-up (stale
/// responses after a reset); a read's response kept across aresetn.
#[test]
fn cocotb_reset_in_flight_catches_a_wrapper_that_keeps_accesses_across_reset() {
    let python = python_tool("python");
    need("iverilog", "apt-get install iverilog");
    let core = ["--k", "2", "--bank-bits", "6", "--key-bits", "32"];
    let root = scratch_dir("cocotb-reset-teeth");
    let (pkg, vec) = (root.join("pkg"), root.join("vec"));
    export(&pkg, &core);
    vectors(&vec, "20", &core);
    let verilog = std::fs::read_to_string(pkg.join("rtl/bloom_axis.v")).unwrap();
    // The response path (its FIFO and its descriptors) reset only until the first cycle
    // out of reset.
    let powered = "    wire  resets$streams;\n    reg powered = 1'b0;\n    always @(posedge aclk) if (aresetn) powered <= 1'b1;\n";
    // (what is wrong, the edits that make it so, the check that must catch it)
    type Mutation<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a str);
    let mutations: [Mutation; 3] = [
        (
            "pending bit access kept",
            vec![("            rb_armed$d = 1'b0;\n", "")],
            "a bit access in flight survived the reset",
        ),
        (
            "response FIFO kept",
            vec![
                ("    wire  resets$streams;\n", powered),
                (
                    "        responses$reset = resets$streams;\n",
                    "        responses$reset = resets$streams & ~powered;\n",
                ),
            ],
            "after the reset of requests sent before it",
        ),
        (
            "read response kept",
            vec![("            rvalid$d = 1'b0;\n        end", "        end")],
            "a response of a read in flight survived the reset",
        ),
    ];
    for (n, (what, edits, caught)) in mutations.iter().enumerate() {
        let mut text = verilog.clone();
        for (from, to) in edits {
            assert_eq!(
                text.matches(from).count(),
                1,
                "{what}: `{from}` is not in bloom_axis.v once"
            );
            text = text.replacen(from, to, 1);
        }
        let wrong = root.join(format!("wrong{n}"));
        std::fs::create_dir_all(wrong.join("rtl")).unwrap();
        std::fs::write(wrong.join("rtl/bloom_axis.v"), &text).unwrap();
        std::fs::copy(pkg.join("rtl/bloom_core.v"), wrong.join("rtl/bloom_core.v")).unwrap();
        std::fs::create_dir_all(wrong.join("regs")).unwrap();
        std::fs::copy(
            pkg.join("regs/bloom_axis_regs.xml"),
            wrong.join("regs/bloom_axis_regs.xml"),
        )
        .unwrap();
        let o = run(Command::new(&python)
            .arg(ip::tools::repo_root().join("ip/cocotb/run.py"))
            .arg(&wrong)
            .arg(&vec)
            .arg(root.join(format!("build{n}")))
            .env("BLOOM_TESTCASE", "reset_in_flight")
            .env("BLOOM_RESET_ROUNDS", "8")
            .current_dir(&root))
        .unwrap();
        let t = o.text();
        assert!(
            !o.success() && t.contains("0 passed, 1 failed"),
            "{what}: not caught:\n{t}"
        );
        assert!(
            t.contains(caught),
            "{what}: caught, but not by `{caught}`:\n{t}"
        );
        println!("{what}: caught ({caught})");
    }
}

const FUSESOC_CORE: [&str; 6] = ["--k", "2", "--bank-bits", "8", "--key-bits", "32"];

/// `fusesoc --cores-root PKG run --target TARGET CORE [ARGS]` in `work`, recorded by content.
fn fusesoc(pkg: &Path, work: &Path, target: &str, extra: &[String], cached: bool) -> RunOutput {
    fusesoc_of(&small_params(), pkg, work, target, extra, cached)
}

/// [`fusesoc`] on the package of a core with `params`.
fn fusesoc_of(
    params: &hdl::CoreParams,
    pkg: &Path,
    work: &Path,
    target: &str,
    extra: &[String],
    cached: bool,
) -> RunOutput {
    let core =
        ip::package::core_name(&hdl::axi::generate_axi(&hdl::CoreConfig::from(*params)).unwrap());
    fusesoc_core(&core, pkg, work, target, extra, cached)
}

/// `fusesoc --cores-root PKG run --target TARGET CORE [ARGS]` in `work`, recorded by content when `cached`.
fn fusesoc_core(
    core: &str,
    pkg: &Path,
    work: &Path,
    target: &str,
    extra: &[String],
    cached: bool,
) -> RunOutput {
    let fusesoc = python_tool("fusesoc");
    let mut versions = String::new();
    for (tool, arg) in [
        ("verilator", "--version"),
        ("iverilog", "-V"),
        ("yosys", "-V"),
        ("nextpnr-ice40", "--version"),
        ("icepack", "-h"),
    ] {
        versions += &version_of(&need(tool, "run scripts/setup.sh"), &[arg]).unwrap_or_default();
    }
    versions += &version_of(&fusesoc, &["--version"]).unwrap();
    let files = tree_contents(pkg);
    let mut parts: Vec<&[u8]> = files
        .iter()
        .flat_map(|(n, b)| [n.as_bytes(), b.as_slice()])
        .collect();
    parts.push(versions.as_bytes());
    parts.push(target.as_bytes());
    let extra_joined = extra.join(" ");
    parts.push(extra_joined.as_bytes());
    let mut cmd = Command::new(&fusesoc);
    cmd.arg("--cores-root")
        .arg(pkg)
        .args(["run", "--target", target, core])
        .args(extra)
        .current_dir(work);
    // FuseSoC and Edalize run the tools by name: the environment's bin first.
    let path = format!(
        "{}:{}",
        ip::tools::venv().join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    cmd.env("PATH", path);
    if cached {
        run_cached(
            &format!("fusesoc-{target}"),
            &content_hash(&parts),
            &mut cmd,
        )
        .unwrap()
    } else {
        run(&mut cmd).unwrap()
    }
}

fn small_params() -> hdl::CoreParams {
    hdl::CoreParams::new(2, 8, 32, hdl::HashFamily::Feistel, 0).unwrap()
}

#[test]
fn fusesoc_runs_the_packages_lint_sim_and_icebreaker_targets() {
    let root = scratch_dir("fusesoc");
    let pkg = root.join("pkg");
    export(&pkg, &FUSESOC_CORE);
    let work = root.join("work");
    std::fs::create_dir_all(&work).unwrap();

    let lint = fusesoc(&pkg, &work, "lint", &[], true);
    assert!(lint.success(), "lint:\n{}", lint.text());
    assert!(lint.text().contains("verilator"), "{}", lint.text());

    let sim = fusesoc(&pkg, &work, "sim", &[], true);
    assert!(sim.success(), "sim:\n{}", sim.text());
    let (requests, _) = pass_line(&sim.stdout);
    assert_eq!(requests, 2000, "the package's vector set");

    let ice = fusesoc(&pkg, &work, "icebreaker", &[], true);
    let routed = icebreaker_bitstream(&ice, &work);
    println!(
        "fusesoc lint{} / sim{} / icebreaker{}: {routed}",
        rec(&lint),
        rec(&sim),
        rec(&ice)
    );

    // The sim target refuses vectors of another configuration (through FuseSoC's plusargs).
    let other = root.join("other");
    vectors(
        &other,
        "30",
        &["--k", "2", "--bank-bits", "9", "--key-bits", "32"],
    );
    let args: Vec<String> = ["config", "stim", "expect"]
        .iter()
        .map(|f| format!("--{f}={}", other.join(format!("{f}.hex")).display()))
        .collect();
    let o = fusesoc(&pkg, &work, "sim", &args, false);
    assert!(!o.success(), "{}", o.text());
    assert!(
        o.text()
            .contains("FAIL: the vectors do not match the core's configuration"),
        "{}",
        o.text()
    );

    // The lint target has teeth: a signal nobody reads fails it.
    let bad = root.join("bad");
    export(&bad, &FUSESOC_CORE);
    let rtl = bad.join("rtl/bloom_axis.v");
    let text = std::fs::read_to_string(&rtl).unwrap().replacen(
        "endmodule // bloom_axis\n",
        "    wire stray = aresetn;\nendmodule // bloom_axis\n",
        1,
    );
    std::fs::write(&rtl, text).unwrap();
    let o = fusesoc(&bad, &work, "lint", &[], false);
    assert!(!o.success(), "{}", o.text());
    assert!(o.text().contains("UNUSED"), "{}", o.text());
}

/// A counting core's package: FuseSoC's lint, its vector testbench (deletes,
/// counter writes and readbacks, saturated counts) and an iCEBreaker bitstream.
#[test]
fn fusesoc_runs_a_counting_packages_lint_sim_and_icebreaker_targets() {
    let params = hdl::CoreParams {
        counter_bits: 4,
        ..small_params()
    };
    let root = scratch_dir("fusesoc-counting");
    let pkg = root.join("pkg");
    export(
        &pkg,
        &[&FUSESOC_CORE[..], &["--counter-bits", "4"][..]].concat(),
    );
    let work = root.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let lint = fusesoc_of(&params, &pkg, &work, "lint", &[], true);
    assert!(
        lint.success() && lint.text().contains("verilator"),
        "lint:\n{}",
        lint.text()
    );
    let sim = fusesoc_of(&params, &pkg, &work, "sim", &[], true);
    assert!(sim.success(), "sim:\n{}", sim.text());
    assert_eq!(pass_line(&sim.stdout).0, 2000, "the package's vector set");
    let ice = fusesoc_of(&params, &pkg, &work, "icebreaker", &[], true);
    let routed = icebreaker_bitstream(&ice, &work);
    let readme = std::fs::read_to_string(pkg.join("README.md")).unwrap();
    assert!(
        readme.contains("3 delete (carried out only if all k counters are non-zero)")
            && readme.contains("SATURATED[i]"),
        "{readme}"
    );
    println!(
        "fusesoc counting lint{} / sim{} / icebreaker{}: {routed}",
        rec(&lint),
        rec(&sim),
        rec(&ice)
    );
}

/// FuseSoC's iCEBreaker target ran in `work`: it packed a bitstream routed at the
/// board's 12 MHz (one `.bin` in `work` when the run was not replayed); nextpnr's
/// last Fmax line.
fn icebreaker_bitstream(o: &RunOutput, work: &Path) -> String {
    assert!(o.success(), "icebreaker:\n{}", o.text());
    let t = o.text();
    assert!(t.contains("icepack"), "{t}");
    let routed = t
        .lines()
        .rfind(|l| l.contains("Max frequency for clock"))
        .unwrap_or_else(|| panic!("no Fmax line:\n{t}"));
    assert!(routed.contains("PASS at 12.00 MHz"), "{routed}");
    if !o.cached {
        let bins: Vec<_> = walk(work)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "bin"))
            .collect();
        assert_eq!(bins.len(), 1, "one bitstream: {bins:?}");
    }
    routed.to_string()
}

fn rec(o: &RunOutput) -> &'static str {
    if o.cached {
        " (recorded)"
    } else {
        ""
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn export_writes_a_self_contained_package() {
    let root = scratch_dir("pkg");
    let pkg = root.join("pkg");
    let o = ok(bloom(
        &[&["export", "--out", pkg.to_str().unwrap()][..], &VEC_CORE].concat(),
    ));
    assert!(
        stdout(&o).contains("bloom:ip:bloom_axis_crc_k3_b7_w64_s77:"),
        "{}",
        stdout(&o)
    );
    for f in [
        "bloom_axis.core",
        "bloom_axis.json",
        "README.md",
        "rtl/bloom_core.v",
        "rtl/bloom_axis.v",
        "regs/bloom_axis.rdl",
        "regs/bloom_axis_regs.h",
        "regs/bloom_axis_regs.md",
        "regs/bloom_axis_regs.xml",
        "tb/tb_bloom_axis.v",
        "tb/vectors/config.hex",
        "tb/vectors/stim.hex",
        "tb/vectors/expect.hex",
        "board/bloom_axis_selftest.v",
        "board/bloom_axis_icebreaker.v",
        "board/icebreaker.pcf",
        "board/ulx3s_85f.lpf",
        "board/yowasp-launcher",
        "doc/request_response.svg",
        "doc/axil_read_write.svg",
        "doc/axil_clear.svg",
        "doc/axil_bit_readback.svg",
    ] {
        assert!(pkg.join(f).is_file(), "{f} is missing");
    }
    // The core is exactly what `bloom verilog` writes for the same options.
    let v = root.join("v");
    ok(bloom(
        &[&["verilog", "--out", v.to_str().unwrap()][..], &VEC_CORE].concat(),
    ));
    assert_eq!(
        std::fs::read(pkg.join("rtl/bloom_core.v")).unwrap(),
        std::fs::read(v.join("bloom_core.v")).unwrap()
    );
    let readme = std::fs::read_to_string(pkg.join("README.md")).unwrap();
    let params = hdl::CoreParams::new(3, 7, 64, hdl::HashFamily::Crc, 77).unwrap();
    assert!(
        readme.contains(&hdl::ports::markdown_table_of(&hdl::axi::axi_ports(
            &params
        ))),
        "the README's port table is the wrapper's"
    );
    assert!(readme.contains(&ip::package::register_table()));
    assert!(readme.contains("| `k` | 3 |"));
    // The wrapper's own timing (the core's and its register stages), and the AXI4-Lite diagrams.
    let st = hdl::axi::stream_timing(&params);
    assert_eq!(st.latency, hdl::Timing::of(&params).latency + 2);
    assert!(
        readme.contains(&format!(
            "presented on m_axis in cycle t+{} when",
            st.latency
        )),
        "the README gives the wrapper's latency"
    );
    assert!(readme.contains(&format!(
        "at most {} requests taken and not yet answered",
        st.outstanding
    )));
    for svg in ["axil_read_write", "axil_clear", "axil_bit_readback"] {
        assert!(
            readme.contains(&format!("](doc/{svg}.svg)")),
            "the README shows {svg}"
        );
        assert_eq!(
            std::fs::read(pkg.join(format!("doc/{svg}.svg"))).unwrap(),
            std::fs::read(root_docs().join(format!("{svg}.svg"))).unwrap()
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(pkg.join("bloom_axis.json")).unwrap())
            .unwrap();
    assert_eq!(
        (json["core"]["k"].as_u64(), json["core"]["hash"].as_str()),
        (Some(3), Some("crc"))
    );
    assert_eq!(
        json["ports"].as_array().unwrap().len(),
        hdl::axi::axi_ports(&params).len()
    );
    let core = std::fs::read_to_string(pkg.join("bloom_axis.core")).unwrap();
    for t in [
        "lint:",
        "sim:",
        "sim_verilator:",
        "icebreaker:",
        "hx8k:",
        "ulx3s_85f:",
    ] {
        assert!(
            core.contains(&format!("\n  {t}\n")),
            "target {t} missing:\n{core}"
        );
    }
    // The ECP5 target synthesises as `bloom build` does (no LUT5..LUT7), the iCE40
    // targets with the hand-instantiated banks.
    let target_text = |t: &str| {
        let targets = &core[core.find("\ntargets:\n").unwrap()..];
        let start = targets.find(&format!("\n  {t}:\n")).unwrap();
        // The target's lines: up to the next line indented less than its fields.
        targets[start + 1..]
            .lines()
            .enumerate()
            .take_while(|(i, line)| *i == 0 || line.starts_with("    "))
            .map(|(_, line)| format!("{line}\n"))
            .collect::<String>()
    };
    let ulx3s = target_text("ulx3s_85f");
    assert!(
        ulx3s.contains("yosys_synth_options: [-nowidelut]"),
        "{ulx3s}"
    );
    for t in ["icebreaker", "hx8k"] {
        let text = target_text(t);
        assert!(!text.contains("nowidelut"), "{text}");
        assert!(text.contains("parameters: [BLOOM_ICE40_BANK]"), "{text}");
    }
    use std::os::unix::fs::PermissionsExt;
    assert_ne!(
        std::fs::metadata(pkg.join("board/yowasp-launcher"))
            .unwrap()
            .permissions()
            .mode()
            & 0o111,
        0
    );
}

#[test]
fn export_with_a_preloaded_image_carries_it_and_its_vectors_start_from_it() {
    let root = scratch_dir("preload");
    let keys = root.join("keys.txt");
    std::fs::write(
        &keys,
        (0..300u32)
            .map(|i| format!("{}\n", i * 7919))
            .collect::<String>(),
    )
    .unwrap();
    let image = root.join("img");
    ok(bloom(
        &[
            &[
                "image",
                "build",
                "--keys",
                keys.to_str().unwrap(),
                "--out",
                image.to_str().unwrap(),
            ][..],
            &FUSESOC_CORE,
        ]
        .concat(),
    ));
    let pkg = root.join("pkg");
    let o = ok(bloom(
        &[
            &[
                "export",
                "--preload",
                image.to_str().unwrap(),
                "--ops",
                "300",
                "--out",
                pkg.to_str().unwrap(),
            ][..],
            &FUSESOC_CORE,
        ]
        .concat(),
    ));
    assert!(stdout(&o).contains("_preloaded:"), "{}", stdout(&o));
    assert_eq!(
        std::fs::read(pkg.join("image/image.json")).unwrap(),
        std::fs::read(image.join("image.json")).unwrap()
    );
    assert!(pkg.join("image/bank01.hex").is_file());
    // The opening reads of FILL expect the image's fills: the preloaded core passes, an empty one would not.
    let o = icarus(&pkg, &pkg.join("tb"), &pkg.join("tb/vectors"), &[]);
    assert!(o.success(), "{}", o.text());
    assert_eq!(pass_line(&o.stdout).0, 300);
    let plain = root.join("plain");
    export(&plain, &FUSESOC_CORE);
    let o = icarus(&plain, &pkg.join("tb"), &pkg.join("tb/vectors"), &[]);
    assert!(
        !o.success() && o.text().contains("FAIL"),
        "vectors from the image must fail on an empty core:\n{}",
        o.text()
    );
}

/// A counting image (keys inserted more than once, so that counters exceed 1
/// and some saturate) preloaded into a counting package: its vectors read the
/// image's fills and saturated counts first.
#[test]
fn export_counting_c2_with_a_preloaded_counting_image() {
    let root = scratch_dir("preload-counting");
    let core = [&FUSESOC_CORE[..], &["--counter-bits", "2"][..]].concat();
    let keys = root.join("keys.txt");
    std::fs::write(
        &keys,
        (0..600u32)
            .map(|i| format!("{}\n", (i % 200) * 7919))
            .collect::<String>(),
    )
    .unwrap();
    let image = root.join("img");
    ok(bloom(
        &[
            &[
                "image",
                "build",
                "--keys",
                keys.to_str().unwrap(),
                "--out",
                image.to_str().unwrap(),
            ][..],
            &core,
        ]
        .concat(),
    ));
    let pkg = root.join("pkg");
    ok(bloom(
        &[
            &[
                "export",
                "--preload",
                image.to_str().unwrap(),
                "--ops",
                "300",
                "--out",
                pkg.to_str().unwrap(),
            ][..],
            &core,
        ]
        .concat(),
    ));
    let o = icarus(&pkg, &pkg.join("tb"), &pkg.join("tb/vectors"), &[]);
    assert!(o.success(), "{}", o.text());
    assert_eq!(pass_line(&o.stdout).0, 300);
    let empty = root.join("empty");
    export(&empty, &core);
    let o = icarus(&empty, &pkg.join("tb"), &pkg.join("tb/vectors"), &[]);
    assert!(
        !o.success() && o.text().contains("FAIL"),
        "vectors from the image must fail on an empty core:\n{}",
        o.text()
    );
}

#[test]
fn export_and_vectors_refuse_bad_input_and_write_nothing() {
    let root = scratch_dir("bad");
    let out = root.join("out");
    // An invalid configuration: refused by the command line itself.
    for cmd in ["export", "vectors"] {
        let o = bloom(&[cmd, "--k", "17", "--out", out.to_str().unwrap()]);
        assert_failed_cleanly(&o, "k = 17 is not allowed");
        assert!(
            !out.exists(),
            "{cmd}: nothing is written for a bad configuration"
        );
        let o = bloom(&[cmd, "--ops", "0", "--out", out.to_str().unwrap()]);
        assert_failed_cleanly(&o, "--ops 0: must be 1..=2000000");
        assert!(!out.exists());
    }
    // A directory that cannot be written: under a regular file, and in /proc.
    let file = root.join("a-file");
    std::fs::write(&file, "x").unwrap();
    for target in [file.join("pkg"), PathBuf::from("/proc/bloom-export-test")] {
        let o = bloom(&[
            "export",
            "--k",
            "1",
            "--bank-bits",
            "6",
            "--key-bits",
            "32",
            "--out",
            target.to_str().unwrap(),
        ]);
        assert_failed_cleanly(&o, "cannot");
        assert!(!target.exists());
    }
    assert_eq!(
        std::fs::read_dir(&root).unwrap().count(),
        1,
        "no temporary directory is left behind"
    );
    // A target that is a file, or a directory that is not empty: refused and untouched.
    let o = bloom(&["export", "--out", file.to_str().unwrap()]);
    assert_failed_cleanly(&o, "is a regular file; an output directory is written only");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
    let full = root.join("full");
    std::fs::create_dir_all(&full).unwrap();
    std::fs::write(full.join("mine.v"), "keep").unwrap();
    for cmd in ["export", "vectors"] {
        let o = bloom(&[
            cmd,
            "--k",
            "1",
            "--bank-bits",
            "6",
            "--key-bits",
            "32",
            "--out",
            full.to_str().unwrap(),
        ]);
        assert_failed_cleanly(&o, "is not empty (it holds mine.v)");
        assert_eq!(std::fs::read_dir(&full).unwrap().count(), 1);
    }
    // A preload image of another configuration.
    let keys = root.join("keys.txt");
    std::fs::write(&keys, "1\n2\n3\n").unwrap();
    let image = root.join("img");
    ok(bloom(&[
        "image",
        "build",
        "--keys",
        keys.to_str().unwrap(),
        "--k",
        "2",
        "--bank-bits",
        "6",
        "--key-bits",
        "32",
        "--out",
        image.to_str().unwrap(),
    ]));
    for cmd in ["export", "vectors"] {
        let o = bloom(&[
            cmd,
            "--k",
            "3",
            "--bank-bits",
            "6",
            "--key-bits",
            "32",
            "--preload",
            image.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_failed_cleanly(&o, "k");
        assert!(all_text(&o).contains("differ"), "{}", all_text(&o));
        assert!(!out.exists());
    }
    // Counter bits out of range; a plain image for a counting core and the other way round.
    let counting_image = root.join("img-c4");
    ok(bloom(&[
        "image",
        "build",
        "--keys",
        keys.to_str().unwrap(),
        "--k",
        "2",
        "--bank-bits",
        "6",
        "--key-bits",
        "32",
        "--counter-bits",
        "4",
        "--out",
        counting_image.to_str().unwrap(),
    ]));
    for cmd in ["export", "vectors"] {
        let o = bloom(&[
            cmd,
            "--k",
            "2",
            "--bank-bits",
            "6",
            "--key-bits",
            "32",
            "--counter-bits",
            "9",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_failed_cleanly(&o, "counter");
        assert!(!out.exists(), "{cmd} --counter-bits 9: nothing is written");
        let o = bloom(&[
            cmd,
            "--k",
            "2",
            "--bank-bits",
            "6",
            "--key-bits",
            "32",
            "--counter-bits",
            "4",
            "--preload",
            image.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_failed_cleanly(
            &o,
            "the image is of a plain filter (counter_bits = 1) but the",
        );
        assert!(
            !out.exists(),
            "{cmd}: a plain image for a counting core: nothing is written"
        );
        let o = bloom(&[
            cmd,
            "--k",
            "2",
            "--bank-bits",
            "6",
            "--key-bits",
            "32",
            "--preload",
            counting_image.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_failed_cleanly(
            &o,
            "the image is of a counting filter (counter_bits = 4) but the",
        );
        assert!(
            !out.exists(),
            "{cmd}: a counting image for a plain core: nothing is written"
        );
    }
    // An empty directory is a good target.
    std::fs::create_dir_all(&out).unwrap();
    ok(bloom(&[
        "vectors",
        "--k",
        "1",
        "--bank-bits",
        "6",
        "--key-bits",
        "32",
        "--ops",
        "10",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert!(out.join("tb_bloom_axis.v").is_file() && out.join("README.md").is_file());
}

// ---------------------------------------------------------------------------
// Lanes: `bloom export --lanes L` and `bloom vectors --lanes L` (bloom_lanes_axis).

const LANES_CORE: [&str; 8] = [
    "--k",
    "3",
    "--bank-bits",
    "7",
    "--key-bits",
    "32",
    "--seed",
    "5",
];

/// `(beats, response beats, cycles)` of the lanes testbench's PASS line.
fn lanes_pass_line(out: &str) -> (u64, u64, u64) {
    let line = out
        .lines()
        .find(|l| l.starts_with("PASS: "))
        .unwrap_or_else(|| panic!("no PASS line:\n{out}"));
    let w: Vec<&str> = line.split_whitespace().collect();
    let before = |word: &str| -> u64 {
        let i = w
            .iter()
            .position(|x| x.trim_end_matches(',') == word)
            .unwrap_or_else(|| panic!("no {word} in {line}"));
        w[i - 1].parse().unwrap()
    };
    (before("beats"), before("response"), before("cycles"))
}

/// The lanes testbench of `tb` with the RTL in `rtl`, in Icarus, run in `vec`.
fn icarus_lanes(tb: &Path, rtl: &Path, vec: &Path) -> RunOutput {
    let exe = vec.join("tb.vvp");
    let o = run(Command::new(need("iverilog", "apt-get install iverilog"))
        .args(["-g2005", "-o"])
        .arg(&exe)
        .arg(tb)
        .arg(rtl.join("bloom_lanes_axis.v"))
        .arg(rtl.join("bloom_lanes.v")))
    .unwrap();
    assert!(o.success(), "iverilog failed:\n{}", o.text());
    let o = run(Command::new(need("vvp", "apt-get install iverilog"))
        .arg("-n")
        .arg(&exe)
        .current_dir(vec))
    .unwrap();
    let _ = std::fs::remove_file(&exe);
    o
}

fn lanes_summary(vec: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(vec.join("vectors.json")).unwrap()).unwrap()
}

/// The lanes package `pkg`'s testbench passes the vectors `vec` (`beats` beats,
/// `responses` response beats) in Icarus and in Verilator --binary, to the same
/// cycle: Icarus's PASS line and the cycles.
fn lanes_pass_in_icarus_and_verilator(
    pkg: &Path,
    vec: &Path,
    beats: u64,
    responses: u64,
) -> (String, u64) {
    let tb = pkg.join("tb/tb_bloom_lanes_axis.v");
    let rtl = pkg.join("rtl");
    let ica = icarus_lanes(&tb, &rtl, vec);
    assert!(ica.success(), "Icarus:\n{}", ica.text());
    let (b, r, cycles) = lanes_pass_line(&ica.stdout);
    assert_eq!((b, r), (beats, responses), "{}", ica.stdout);
    let exe = verilator_tb_binary(
        "tb_bloom_lanes_axis",
        &[
            tb.clone(),
            rtl.join("bloom_lanes_axis.v"),
            rtl.join("bloom_lanes.v"),
        ],
    );
    let ver = run(Command::new(&exe).current_dir(vec)).unwrap();
    assert!(ver.success(), "Verilator:\n{}", ver.text());
    assert_eq!(
        lanes_pass_line(&ver.stdout),
        (b, r, cycles),
        "{}",
        ver.stdout
    );
    (ica.stdout.trim().to_string(), cycles)
}

#[test]
fn lanes_package_passes_its_vectors_in_icarus_verilator_fusesoc_and_cocotb() {
    let root = scratch_dir("lanes-pkg");
    let pkg = root.join("pkg");
    let _ = std::fs::remove_dir_all(&pkg);
    let out = ok(bloom(
        &[
            &["export", "--lanes", "3", "--ops", "1500"][..],
            &["--out", pkg.to_str().unwrap()],
            &LANES_CORE,
        ]
        .concat(),
    ));
    let core = stdout(&out)
        .split_whitespace()
        .find(|w| w.starts_with("bloom:ip:bloom_lanes_axis_"))
        .expect("the core's name")
        .trim_end_matches(',')
        .to_string();
    assert_eq!(
        core,
        "bloom:ip:bloom_lanes_axis_feistel_k3_b7_w32_s5_l3:0.1.0"
    );
    let vec = pkg.join("tb/vectors");
    let summary = lanes_summary(&vec);
    let stats = &summary["stats"];
    for kind in [
        "read_beats",
        "write_beats",
        "refused_beats",
        "empty_beats",
        "clears",
        "hazards",
        "query_hits",
        "stalled_responses",
    ] {
        assert!(stats[kind].as_u64().unwrap() > 0, "no {kind}: {stats}");
    }
    let beats = summary["beats"].as_u64().unwrap();
    let responses = summary["response_beats"].as_u64().unwrap();
    assert_eq!(
        responses,
        beats - stats["empty_beats"].as_u64().unwrap(),
        "one response beat per beat with an operation"
    );

    // The same vector set from `bloom vectors --lanes`, byte for byte.
    let vec2 = root.join("vec");
    let _ = std::fs::remove_dir_all(&vec2);
    ok(bloom(
        &[
            &["vectors", "--lanes", "3", "--ops", "1500"][..],
            &["--out", vec2.to_str().unwrap()],
            &LANES_CORE,
        ]
        .concat(),
    ));
    for f in ["config.hex", "stim.hex", "expect.hex"] {
        assert_eq!(
            std::fs::read(vec.join(f)).unwrap(),
            std::fs::read(vec2.join(f)).unwrap(),
            "{f}"
        );
    }

    // Icarus and Verilator --binary, to the same cycle.
    let tb = pkg.join("tb/tb_bloom_lanes_axis.v");
    let rtl = pkg.join("rtl");
    let (passed, cycles) = lanes_pass_in_icarus_and_verilator(&pkg, &vec, beats, responses);
    let (b, r) = (beats, responses);
    println!("lanes vectors, L = 3: {passed}");

    // The testbench can fail: one hit flipped.
    let bad = root.join("flipped");
    let expect = std::fs::read_to_string(vec.join("expect.hex")).unwrap();
    let index = expect
        .lines()
        .position(|l| l.starts_with('1') && u32::from_str_radix(l, 16).unwrap() & 0x100 != 0)
        .expect("a slot line that hits");
    with_hit_flipped(&vec, &bad, index);
    let o = icarus_lanes(&tb, &rtl, &bad);
    assert!(!o.success(), "a flipped hit passed:\n{}", o.text());
    assert!(
        o.stdout
            .contains("FAIL: the lanes' answers differ from the expected vectors"),
        "{}",
        o.text()
    );
    // Vectors of another configuration are refused by name.
    let other = root.join("other");
    let _ = std::fs::remove_dir_all(&other);
    ok(bloom(&[
        "vectors",
        "--lanes",
        "3",
        "--ops",
        "50",
        "--k",
        "3",
        "--bank-bits",
        "7",
        "--key-bits",
        "32",
        "--seed",
        "6",
        "--out",
        other.to_str().unwrap(),
    ]));
    let o = icarus_lanes(&tb, &rtl, &other);
    assert!(!o.success());
    assert!(
        o.stdout
            .contains("FAIL: the vectors do not match the configuration"),
        "{}",
        o.text()
    );

    // FuseSoC: lint and sim targets, and the iCEBreaker's self-test bitstream.
    for target in ["lint", "sim", "icebreaker"] {
        let work = root.join(format!("fusesoc-{target}"));
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).unwrap();
        let o = fusesoc_core(&core, &pkg, &work, target, &[], true);
        assert!(o.success(), "fusesoc {target}:\n{}", o.text());
        if target == "sim" {
            assert_eq!(lanes_pass_line(&o.stdout), (b, r, cycles), "{}", o.stdout);
        }
        if target == "icebreaker" {
            let routed = icebreaker_bitstream(&o, &work);
            println!("fusesoc lanes icebreaker{}: {routed}", rec(&o));
        }
    }

    // cocotb + cocotbext-axi, random pauses on both streams.
    let result = cocotb_lanes(&root, &pkg, &vec);
    assert!(
        result.contains(&format!(
            "beats={beats} response_beats={responses} mismatches=0"
        )),
        "{result}"
    );
    println!("cocotb lanes, L = 3: {result}");
}

/// The lanes package has a self-test target for each board the lanes fit, and names
/// the others with what they lack: 8 lanes of 128-bit keys (k = 4) need 32 block RAMs
/// (more than the iCEBreaker's UP5K has) and more logic cells than the HX8K's, as
/// estimated before synthesis.
#[test]
fn lanes_package_has_board_targets_where_the_lanes_fit() {
    let root = scratch_dir("lanes-boards");
    let targets_of = |pkg: &Path| -> Vec<String> {
        let json: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(pkg.join("bloom_lanes_axis.json")).unwrap(),
        )
        .unwrap();
        json["board_targets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect()
    };
    let small = root.join("l3");
    let _ = std::fs::remove_dir_all(&small);
    ok(bloom(
        &[
            &["export", "--lanes", "3", "--ops", "50"][..],
            &["--out", small.to_str().unwrap()],
            &LANES_CORE,
        ]
        .concat(),
    ));
    assert_eq!(targets_of(&small), ["icebreaker", "hx8k", "ulx3s_85f"]);
    let big = root.join("l8");
    let _ = std::fs::remove_dir_all(&big);
    ok(bloom(&[
        "export",
        "--lanes",
        "8",
        "--key-bits",
        "128",
        "--ops",
        "50",
        "--out",
        big.to_str().unwrap(),
    ]));
    assert_eq!(targets_of(&big), ["ulx3s_85f"]);
    let core = std::fs::read_to_string(big.join("bloom_lanes_axis.core")).unwrap();
    assert!(core.contains("\n  ulx3s_85f:\n    description:"), "{core}");
    for gone in ["icebreaker", "hx8k"] {
        assert!(
            !core.contains(&format!("\n  {gone}:")),
            "{gone} in:\n{core}"
        );
        assert!(
            !big.join(format!("board/bloom_lanes_axis_{gone}.v"))
                .exists(),
            "{gone}'s top"
        );
    }
    let readme = std::fs::read_to_string(big.join("README.md")).unwrap();
    assert!(
        readme.contains("- `icebreaker`: needs 32 block RAMs, the iCE40UP5K has 30"),
        "{readme}"
    );
    assert!(
        readme.contains("- `hx8k`: the design does not fit the iCE40HX8K: lanes = 8 of this filter need at least"),
        "{readme}"
    );
    let top = std::fs::read_to_string(big.join("board/bloom_lanes_axis_ulx3s_85f.v")).unwrap();
    assert!(top.contains("module bloom_lanes_axis_board ("), "{top}");
    let harness = std::fs::read_to_string(big.join("board/bloom_lanes_axis_selftest.v")).unwrap();
    assert!(
        harness.contains("bloom_lanes_axis lanes_axis ("),
        "{harness}"
    );

    // Two query lanes per replica: a design of its own (its core name says so), for a
    // true dual-port block RAM only; its vectors pass (the answers come a cycle later).
    let two = root.join("l5p2");
    let _ = std::fs::remove_dir_all(&two);
    let out = ok(bloom(
        &[
            &[
                "export",
                "--lanes",
                "5",
                "--replica-ports",
                "2",
                "--ops",
                "600",
            ][..],
            &["--out", two.to_str().unwrap()],
            &LANES_CORE,
        ]
        .concat(),
    ));
    assert!(
        stdout(&out).contains("bloom:ip:bloom_lanes_axis_feistel_k3_b7_w32_s5_l5_p2:0.1.0"),
        "{}",
        stdout(&out)
    );
    assert_eq!(targets_of(&two), ["ulx3s_85f"]);
    let readme = std::fs::read_to_string(two.join("README.md")).unwrap();
    assert!(
        readme.contains("- `hx8k`: two query lanes per replica need a true dual-port block RAM"),
        "{readme}"
    );
    let o = icarus_lanes(
        &two.join("tb/tb_bloom_lanes_axis.v"),
        &two.join("rtl"),
        &two.join("tb/vectors"),
    );
    assert!(o.success(), "{}", o.text());
    assert!(
        o.stdout.contains("PASS: ") && o.stdout.contains(" 0 mismatches"),
        "{}",
        o.stdout
    );
}

#[test]
fn lanes_vectors_catch_lanes_whose_replicas_are_not_written() {
    lanes_vectors_catch_broken_lanes(
        "lanes-broken",
        &LANES_CORE,
        lanes_params(),
        2,
        hdl::lanes::LaneSwitches {
            no_write_broadcast: true,
            ..Default::default()
        },
    );
}

/// A counting filter's query lanes that read their replicas in c3, as a plain
/// filter's do (before the writes of the three beats ahead are in them), fail
/// the counting lanes' vectors.
#[test]
fn counting_lanes_vectors_catch_query_lanes_that_read_early() {
    lanes_vectors_catch_broken_lanes(
        "counting-lanes-broken",
        &COUNTING_LANES_CORE,
        counting_lanes_params(),
        3,
        hdl::lanes::LaneSwitches {
            early_replica_read: true,
            ..Default::default()
        },
    );
}

/// `bloom vectors --lanes L` of `core` pass the sound lanes of `params` in Icarus and
/// fail the lanes broken by `broken`, on the lanes' answers.
fn lanes_vectors_catch_broken_lanes(
    name: &str,
    core: &[&str],
    params: hdl::CoreParams,
    lanes: usize,
    broken: hdl::lanes::LaneSwitches,
) {
    let root = scratch_dir(name);
    let vec = root.join("vec");
    let _ = std::fs::remove_dir_all(&vec);
    let l = lanes.to_string();
    ok(bloom(
        &[
            &["vectors", "--lanes", &l, "--ops", "800"][..],
            &["--out", vec.to_str().unwrap()],
            core,
        ]
        .concat(),
    ));
    for (name, switches) in [
        ("sound", hdl::lanes::LaneSwitches::default()),
        ("broken", broken),
    ] {
        let lanes = hdl::lanes::generate_lanes(&params.into(), lanes, switches).unwrap();
        let axis = hdl::axi::lanes::axis_around(&lanes).unwrap();
        let rtl = root.join(name);
        std::fs::create_dir_all(&rtl).unwrap();
        std::fs::write(rtl.join("bloom_lanes.v"), &lanes.top_module).unwrap();
        std::fs::write(rtl.join("bloom_lanes_axis.v"), &axis.top_module).unwrap();
        let o = icarus_lanes(&vec.join("tb_bloom_lanes_axis.v"), &rtl, &vec);
        if name == "sound" {
            assert!(o.success(), "{}", o.text());
        } else {
            assert!(!o.success(), "broken lanes passed:\n{}", o.text());
            assert!(
                o.stdout.contains("FAIL: the lanes' answers differ"),
                "{}",
                o.text()
            );
        }
    }
}

/// A counting filter's lanes package: its vectors (deletes, carried out or not)
/// pass in Icarus, Verilator and cocotb + cocotbext-axi; the plain filter's
/// testbench of the same k, b, W refuses them.
#[test]
fn counting_lanes_package_passes_its_vectors_in_icarus_verilator_and_cocotb() {
    let root = scratch_dir("counting-lanes-pkg");
    let pkg = root.join("pkg");
    let _ = std::fs::remove_dir_all(&pkg);
    ok(bloom(
        &[
            &["export", "--lanes", "3", "--ops", "1500"][..],
            &["--out", pkg.to_str().unwrap()],
            &COUNTING_LANES_CORE,
        ]
        .concat(),
    ));
    let vec = pkg.join("tb/vectors");
    let summary = lanes_summary(&vec);
    let stats = &summary["stats"];
    let deletes = stats["deletes"].as_u64().unwrap();
    let carried_out = stats["deletes_carried_out"].as_u64().unwrap();
    assert!(
        deletes > 40 && carried_out > 0 && carried_out < deletes,
        "{stats}"
    );
    assert_eq!(stats["reserved_op3"].as_u64().unwrap(), 0);
    let beats = summary["beats"].as_u64().unwrap();
    let responses = summary["response_beats"].as_u64().unwrap();

    let (passed, _) = lanes_pass_in_icarus_and_verilator(&pkg, &vec, beats, responses);
    println!("counting lanes vectors, L = 3: {passed}");

    // The plain filter's lanes of the same k, b, W and seed refuse them.
    let plain = root.join("plain");
    let _ = std::fs::remove_dir_all(&plain);
    let plain_core: Vec<&str> = COUNTING_LANES_CORE[..COUNTING_LANES_CORE.len() - 2].to_vec();
    ok(bloom(
        &[
            &["export", "--lanes", "3", "--ops", "50"][..],
            &["--out", plain.to_str().unwrap()],
            &plain_core,
        ]
        .concat(),
    ));
    let o = icarus_lanes(
        &plain.join("tb/tb_bloom_lanes_axis.v"),
        &plain.join("rtl"),
        &vec,
    );
    assert!(!o.success());
    assert!(
        o.stdout
            .contains("FAIL: the vectors do not match the configuration"),
        "{}",
        o.text()
    );

    let result = cocotb_lanes(&root, &pkg, &vec);
    assert!(
        result.contains(&format!(
            "beats={beats} response_beats={responses} mismatches=0"
        )),
        "{result}"
    );
    println!("cocotb counting lanes, L = 3: {result}");
}

/// ip/cocotb/run.py on the lanes package `pkg` with the vectors `vec`: its RESULT line.
fn cocotb_lanes(root: &Path, pkg: &Path, vec: &Path) -> String {
    let python = python_tool("python");
    let build = root.join("cocotb");
    let o = run(Command::new(&python)
        .arg(ip::tools::repo_root().join("ip/cocotb/run.py"))
        .arg(pkg)
        .arg(vec)
        .arg(&build)
        .current_dir(root))
    .unwrap();
    let t = o.text();
    assert!(o.success(), "cocotb:\n{t}");
    assert!(t.contains("1 passed, 0 failed, 0 skipped"), "{t}");
    t.lines()
        .find(|l| l.starts_with("RESULT "))
        .unwrap_or_else(|| panic!("no RESULT line:\n{t}"))
        .to_string()
}

/// A counting filter's lanes: CRC, k = 3, 2^6 counters of 2 bits, 32-bit keys.
const COUNTING_LANES_CORE: [&str; 12] = [
    "--k",
    "3",
    "--bank-bits",
    "6",
    "--key-bits",
    "32",
    "--hash",
    "crc",
    "--seed",
    "5",
    "--counter-bits",
    "2",
];

/// The configuration of [`COUNTING_LANES_CORE`].
fn counting_lanes_params() -> hdl::CoreParams {
    hdl::CoreParams::new(3, 6, 32, bloom_params::HashFamily::Crc, 5)
        .unwrap()
        .with_counter_bits(2)
        .unwrap()
}

/// The configuration of [`LANES_CORE`].
fn lanes_params() -> hdl::CoreParams {
    hdl::CoreParams::new(3, 7, 32, bloom_params::HashFamily::Feistel, 5).unwrap()
}

#[test]
fn lanes_and_scrub_options_of_export_and_vectors_refuse_bad_values_writing_nothing() {
    for command in ["export", "vectors"] {
        assert_refused_writing_nothing(
            &[command],
            &format!("lanes-bad-{command}"),
            &[
                (&["--lanes", "1"], "--lanes"),
                (&["--lanes", "129"], "--lanes"),
                (&["--lanes", "0"], "--lanes"),
                (&["--lanes", "2", "--counter-bits", "9"], "counter_bits = 9"),
                (&["--lanes", "2", "--ops", "0"], "--ops 0"),
                (
                    &["--lanes", "2", "--scrub"],
                    "cannot be used with '--scrub'",
                ),
                (&["--scrub-every", "100"], "--scrub"),
                (&["--scrub", "--scrub-every", "1"], "2..=16777216"),
            ],
        );
    }
    // How the query lanes read their replicas: 1 or 2, and only with --lanes.
    assert_refused_writing_nothing(
        &["export"],
        "replica-ports-bad-export",
        &[
            (
                &["--lanes", "2", "--replica-ports", "3"],
                "3 is not in 1..=2",
            ),
            (
                &["--lanes", "2", "--replica-ports", "0"],
                "0 is not in 1..=2",
            ),
            (&["--replica-ports", "2"], "--lanes <LANES>"),
        ],
    );
}
