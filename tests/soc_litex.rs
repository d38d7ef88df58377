//! The filter in a LiteX SoC, driven by firmware on a soft CPU: the package
//! `bloom export` writes, its LiteX front (litex/bloom_litex.py) in the example
//! SoC (litex/bloom_soc.py) on LiteX's simulator (Verilator), a VexRiscv
//! running the package's C firmware (litex/firmware) built by Debian's RISC-V
//! GCC. The firmware inserts a key set, queries members and non-members, reads
//! the fills, the counters and the configuration, clears (by register and by
//! a request), and prints every answer on the simulated UART.
//!
//! Every line the firmware prints is compared with the line the golden model
//! gives for the same keys (the cycle counts excepted, which only have to be
//! there): one wrong bit fails. Shown to fail: a transcript with one answer
//! flipped, and (in the full profile: it builds a second SoC) the firmware run
//! on a broken wrapper (its answer to one tag inverted). Bad input: firmware built for another configuration refuses to
//! run, naming the register that differs; a SoC script asking for another
//! filter than the package's fails at elaboration.
//!
//! The Verilated SoC is kept in the build's scratch directory and rebuilt
//! only when its Verilog changes (bloom_soc.py); the firmware is rebuilt on
//! every run.

mod common;

use common::*;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use bloom_params::{CoreParams, HashFamily};
use golden::rng::SplitMix64;
use golden::PartitionedFilter;
use hdl::axi::regmap as map;

/// The SoC's filter: 512-bit banks, so that 300 keys fill them to about 44%
/// and some non-members hit (false positives the hardware must reproduce).
const CORE: [&str; 4] = ["--bank-bits", "9", "--seed", "24301"];
const KEYS: usize = 300;
const PROBES: usize = 300;
/// The firmware reinserts this many keys after the register clear.
const REINSERT: usize = 8;
/// The broken wrapper inverts the answer of responses with this tag.
const BROKEN_TAG: usize = 200;

fn params() -> CoreParams {
    CoreParams::new(4, 9, 64, HashFamily::Feistel, 24301).unwrap()
}

/// The keys the firmware inserts, and its probes: every other one a key of
/// the set, the others fresh.
fn key_sets() -> (Vec<u64>, Vec<u64>) {
    let mut rng = SplitMix64::new(0x50c);
    let keys: Vec<u64> = (0..KEYS).map(|_| rng.next_u64()).collect();
    let probes = (0..PROBES)
        .map(|j| {
            if j % 2 == 0 {
                keys[(j * 7) % KEYS]
            } else {
                rng.next_u64()
            }
        })
        .collect();
    (keys, probes)
}

fn key_file(path: &Path, keys: &[u64]) {
    let text: String = keys.iter().map(|k| format!("0x{k:016x}\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// One line the firmware must print: exactly this, or (cycle counts) this
/// prefix and a number.
#[derive(Debug)]
enum Line {
    Exact(String),
    Cycles(String),
}

/// What the firmware must print for `keys` and `probes`, from the golden
/// model and the register map.
fn expected(p: &CoreParams, package_name: &str, keys: &[u64], probes: &[u64]) -> Vec<Line> {
    let mut out = Vec::new();
    let mut say = |s: String| out.push(Line::Exact(s));
    let mut g = PartitionedFilter::new(*p);
    let hash_code = map::CONFIG_HASH
        .encode
        .unwrap()
        .iter()
        .find(|(n, _)| *n == p.hash.name())
        .unwrap()
        .1;
    let config = map::CONFIG_K.place(p.k as u64)
        | map::CONFIG_BANK_BITS.place(p.bank_bits as u64)
        | map::CONFIG_KEY_BITS.place(p.key_bits as u64)
        | map::CONFIG_HASH.place(hash_code)
        | map::CONFIG_COUNTER_BITS.place(p.counter_bits as u64);
    let t = hdl::axi::stream_timing(p);
    let timing = map::TIMING_LATENCY.place(t.latency as u64)
        | map::TIMING_READBACK_LATENCY.place(t.readback_latency as u64)
        | map::TIMING_RESPONSE_FIFO_DEPTH.place(t.outstanding as u64);
    say(format!("bloom firmware for {package_name}"));
    say(format!(
        "config ID 0x{:08x} VERSION 0x{:08x} CONFIG 0x{config:08x} SEED_LO 0x{:08x} SEED_HI 0x{:08x} TIMING 0x{timing:08x}",
        map::ID.reset_value().unwrap(),
        map::VERSION.reset_value().unwrap(),
        p.seed as u32,
        (p.seed >> 32) as u32,
    ));
    let line = |what: &str, i: usize, key: u64, hit: bool| {
        format!("{what} {i} 0x{key:016x} {}", hit as u8)
    };
    for (i, &k) in keys.iter().enumerate() {
        say(line("insert", i, k, g.insert(k as u128).unwrap()));
    }
    let answers: Vec<bool> = probes
        .iter()
        .map(|&k| g.query(k as u128).unwrap())
        .collect();
    for (j, &k) in probes.iter().enumerate() {
        say(line("query", j, k, answers[j]));
    }
    for (b, n) in g.fill().iter().enumerate() {
        say(format!("fill {b} {n}"));
    }
    let hits = answers.iter().filter(|&&h| h).count();
    say(format!(
        "counters ops {} inserts {} hits {hits}",
        keys.len() + probes.len(),
        keys.len()
    ));
    for what in ["round-trip", "streamed"] {
        for (w, chunk) in answers.chunks(32).enumerate() {
            let word = chunk
                .iter()
                .enumerate()
                .fold(0u32, |acc, (i, &h)| acc | (h as u32) << i);
            say(format!("answers {what} {w} 0x{word:08x}"));
        }
    }
    out.push(Line::Cycles(format!("cycles round-trip {} ", probes.len())));
    out.push(Line::Cycles(format!("cycles streamed {} ", probes.len())));
    let mut say = |s: String| out.push(Line::Exact(s));
    g.clear();
    say("clear".into());
    for (j, &k) in probes.iter().enumerate() {
        say(line("query-cleared", j, k, g.query(k as u128).unwrap()));
    }
    for (b, n) in g.fill().iter().enumerate() {
        say(format!("fill-cleared {b} {n}"));
    }
    let again = keys.len().min(REINSERT);
    for (i, &k) in keys[..again].iter().enumerate() {
        say(line("reinsert", i, k, g.insert(k as u128).unwrap()));
    }
    g.clear();
    say("clear-op 0".into());
    for (i, &k) in keys[..again].iter().enumerate() {
        say(line(
            "query-stream-cleared",
            i,
            k,
            g.query(k as u128).unwrap(),
        ));
    }
    say("done".into());
    out
}

/// The firmware's lines in `transcript` (from its first line to `done`).
fn firmware_lines(transcript: &str) -> Vec<&str> {
    let lines: Vec<&str> = transcript.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("bloom firmware for "))
        .unwrap_or_else(|| panic!("no firmware output in:\n{transcript}"));
    let end = lines[start..]
        .iter()
        .position(|l| *l == "done")
        .map(|e| start + e + 1)
        .unwrap_or(lines.len());
    lines[start..end].to_vec()
}

/// Every line of the firmware that differs from the golden model's, and the
/// cycle counts.
fn compare(expected: &[Line], got: &[&str]) -> (Vec<String>, Vec<(String, u64)>) {
    let mut wrong = Vec::new();
    let mut cycles = Vec::new();
    for (i, want) in expected.iter().enumerate() {
        let have = got.get(i).copied();
        match (want, have) {
            (Line::Exact(w), Some(h)) if w == h => {}
            (Line::Cycles(prefix), Some(h)) if h.starts_with(prefix.as_str()) => {
                match h[prefix.len()..].parse::<u64>() {
                    Ok(n) => cycles.push((prefix.trim().to_string(), n)),
                    Err(_) => wrong.push(format!("line {i}: {h:?} is not `{prefix}CYCLES`")),
                }
            }
            (Line::Exact(w), h) => wrong.push(format!("line {i}: firmware {h:?}, golden {w:?}")),
            (Line::Cycles(prefix), h) => {
                wrong.push(format!("line {i}: firmware {h:?}, golden `{prefix}CYCLES`"))
            }
        }
    }
    if got.len() > expected.len() {
        wrong.push(format!(
            "{} lines more than the golden model's, from {:?}",
            got.len() - expected.len(),
            got[expected.len()]
        ));
    }
    (wrong, cycles)
}

fn python() -> PathBuf {
    ip::tools::venv_tool("python").unwrap_or_else(|e| panic!("{e}"))
}

/// A directory under the build's scratch space that stays between runs
/// (the Verilated SoC is rebuilt only when its Verilog changes).
fn build_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("soc-litex-{name}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `litex/bloom_soc.py sim` of package `pkg`, from the package itself.
fn soc_sim(pkg: &Path, keys: &Path, probes: &Path, out: &Path, extra: &[&str]) -> Output {
    Command::new(python())
        .arg(pkg.join("litex/bloom_soc.py"))
        .args(["sim", "--package"])
        .arg(pkg)
        .arg("--keys")
        .arg(keys)
        .arg("--probes")
        .arg(probes)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .expect("python runs")
}

fn package_name(pkg: &Path) -> String {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(pkg.join("bloom_axis.json")).unwrap())
            .unwrap();
    json["name"].as_str().unwrap().to_string()
}

struct Setup {
    dir: PathBuf,
    pkg: PathBuf,
    keys: PathBuf,
    probes: PathBuf,
    expected: Vec<Line>,
}

fn setup(name: &str) -> Setup {
    let dir = scratch(name);
    std::fs::create_dir_all(&dir).unwrap();
    let pkg = dir.join("pkg");
    ok(bloom(
        &[&["export", "--out", pkg.to_str().unwrap()][..], &CORE].concat(),
    ));
    let (keys, probes) = key_sets();
    let (kf, pf) = (dir.join("keys.txt"), dir.join("probes.txt"));
    key_file(&kf, &keys);
    key_file(&pf, &probes);
    let expected = expected(&params(), &package_name(&pkg), &keys, &probes);
    Setup {
        dir,
        pkg,
        keys: kf,
        probes: pf,
        expected,
    }
}

#[test]
fn firmware_on_a_vexriscv_answers_as_the_golden_model() {
    let s = setup("soc-litex");
    let (keys, probes) = key_sets();
    let mut g = PartitionedFilter::new(params());
    keys.iter().for_each(|&k| {
        g.insert(k as u128).unwrap();
    });
    let false_positives = probes
        .iter()
        .filter(|&&k| !keys.contains(&k) && g.query(k as u128).unwrap())
        .count();
    assert!(
        false_positives > 0,
        "the probes should include false positives, for the hardware to reproduce"
    );

    let o = soc_sim(
        &s.pkg,
        &s.keys,
        &s.probes,
        &build_dir("good"),
        &["--k", "4", "--bank-bits", "9", "--key-bits", "64"],
    );
    let transcript = stdout(&o);
    assert!(
        o.status.success(),
        "the SoC simulation failed:\n{transcript}\n{}",
        stderr(&o)
    );
    let got = firmware_lines(&transcript);
    let (wrong, cycles) = compare(&s.expected, &got);
    assert!(
        wrong.is_empty(),
        "{} lines of the firmware differ from the golden model:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert_eq!(cycles.len(), 2);
    println!(
        "firmware: {} lines, every one as the golden model's ({} inserts, {} queries of which {} members and {} false positives, fills, counters, clears)",
        got.len(),
        keys.len(),
        3 * probes.len() + 2 * REINSERT,
        probes.iter().filter(|k| keys.contains(k)).count(),
        false_positives
    );
    for (what, n) in &cycles {
        println!(
            "{what}: {n} cycles, {:.1} cycles per query",
            *n as f64 / PROBES as f64
        );
        assert!(*n > 0);
    }

    // One wrong bit fails: the same transcript with one answer flipped.
    let flipped: Vec<String> = got
        .iter()
        .map(|l| {
            if *l == got[2 + KEYS + 5] {
                let hit = l.ends_with(" 1");
                format!("{}{}", &l[..l.len() - 1], if hit { "0" } else { "1" })
            } else {
                l.to_string()
            }
        })
        .collect();
    let flipped: Vec<&str> = flipped.iter().map(String::as_str).collect();
    let (wrong, _) = compare(&s.expected, &flipped);
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(wrong[0].contains("query 5 "), "{wrong:?}");

    // Firmware built for another configuration (another seed) refuses to run.
    let other = s.dir.join("other");
    ok(bloom(&[
        "export",
        "--out",
        other.to_str().unwrap(),
        "--bank-bits",
        "9",
        "--seed",
        "24302",
    ]));
    let o = soc_sim(
        &s.pkg,
        &s.keys,
        &s.probes,
        &build_dir("good"),
        &["--firmware-package", other.to_str().unwrap()],
    );
    let (out, err) = text(&o);
    assert!(!o.status.success(), "{out}");
    assert!(
        out.contains(&format!(
            "ERROR: SEED_LO reads 0x{:08x}, this firmware was built for 0x{:08x} ({})",
            24301,
            24302,
            package_name(&other)
        )),
        "{out}"
    );
    assert!(!out.contains("\ninsert "), "{out}");
    assert!(
        err.contains("error: the firmware reported: ERROR: SEED_LO"),
        "{err}"
    );

    // A SoC script asking for another filter fails at elaboration, naming it.
    let o = soc_sim(
        &s.pkg,
        &s.keys,
        &s.probes,
        &s.dir.join("wrong-params"),
        &["--key-bits", "32", "--k", "4"],
    );
    let err = stderr(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("error: the parameters do not match the exported core in")
            && err.contains("key_bits = 32 (the package has 64)")
            && !err.contains("k = 4"),
        "{err}"
    );
    assert!(!err.contains("Traceback"), "{err}");
}

/// The package's wrapper with the answer of every response tagged `tag` inverted.
fn break_wrapper(pkg: &Path, tag: usize) {
    let path = pkg.join("rtl/bloom_axis.v");
    let v = std::fs::read_to_string(&path).unwrap();
    let good = "        if (resp_hit$value_out) begin\n            m_axis_tdata = one_8;";
    assert_eq!(v.matches(good).count(), 1, "the wrapper's hit output moved");
    let broken = format!(
        "        if (resp_hit$value_out ^ (resp_tag$value_out == 8'd{tag})) begin\n            m_axis_tdata = one_8;"
    );
    std::fs::write(&path, v.replace(good, &broken)).unwrap();
}

#[test]
fn a_broken_wrapper_fails_the_comparison() {
    let s = setup("soc-litex-broken");
    break_wrapper(&s.pkg, BROKEN_TAG);
    let o = soc_sim(&s.pkg, &s.keys, &s.probes, &build_dir("broken"), &[]);
    let transcript = stdout(&o);
    assert!(o.status.success(), "{transcript}\n{}", stderr(&o));
    let (wrong, _) = compare(&s.expected, &firmware_lines(&transcript));
    // The firmware tags its timed queries with their index: probe 200's
    // answer, bit 8 of word 6, is wrong in both timed runs, and nothing else.
    println!("the broken wrapper's transcript differs from the golden model in:");
    for w in &wrong {
        println!("  {w}");
    }
    assert_eq!(wrong.len(), 2, "{wrong:?}");
    assert!(wrong[0].contains("answers round-trip 6 "), "{wrong:?}");
    assert!(wrong[1].contains("answers streamed 6 "), "{wrong:?}");
}
