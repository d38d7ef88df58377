//! Contract §7.6's rules for a counting filter's image, one table of cases run against
//! both readers: the golden model's (`CountingFilter::import_image`) and the hardware
//! generator's (`hdl::image::read_counter_image`). As in `image_rules.rs` (§4's rules,
//! which apply unchanged), each case starts from a hand-written valid image, changes one
//! thing, and says whether both readers accept it (then both return exactly the written
//! counters) or both refuse it (then both messages name what the case names). The cases
//! run for c = 3 (one hex digit per counter) and c = 6 (two digits); the `bloom image
//! plain` conversion and the refusals of the other kind of image are tested at the end.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use golden::{CoreParams, CounterBits, CountingFilter, HashFamily, PartitionedFilter};

const K: usize = 3;
const BANK_BITS: u32 = 6;
const SIZE: usize = 1 << BANK_BITS;
const SEED: u64 = 7;

/// One image under test: its counter width.
#[derive(Clone, Copy)]
struct Width(u32);

impl Width {
    fn digits(self) -> usize {
        (self.0 as usize).div_ceil(4)
    }
    fn largest(self) -> u32 {
        (1 << self.0) - 1
    }
    fn header(self) -> String {
        format!(
            r#"{{"format":"bloom-image","version":2,"k":3,"bank_bits":6,"key_bits":64,"hash":"h3","seed":7,"counter_bits":{},"banks":["bank00.hex","bank01.hex","bank02.hex"]}}"#,
            self.0
        ) + "\n"
    }
    /// The counters of the base image: every value 0..=S appears, S included.
    fn counter(self, bank: usize, addr: usize) -> u32 {
        ((addr * (bank + 5) + 3 * bank) % (self.largest() as usize + 1)) as u32
    }
    fn bank_lines(self, bank: usize) -> Vec<String> {
        let mut lines = vec![
            format!("// bank {bank:02}"),
            "// written by hand".to_string(),
        ];
        lines.extend(
            (0..SIZE).map(|a| format!("{:0w$x}", self.counter(bank, a), w = self.digits())),
        );
        lines
    }
    fn expected(self) -> Vec<Vec<u8>> {
        (0..K)
            .map(|p| (0..SIZE).map(|a| self.counter(p, a) as u8).collect())
            .collect()
    }
    fn golden_config(self) -> CoreParams {
        CoreParams::new(K as u32, BANK_BITS, 64, HashFamily::H3, SEED)
            .unwrap()
            .with_counter_bits(self.0)
            .unwrap()
    }
    fn hdl_params(self) -> hdl::CoreParams {
        hdl::CoreParams::new(K as u32, BANK_BITS, 64, hdl::HashFamily::H3, SEED)
            .unwrap()
            .with_counter_bits(self.0)
            .unwrap()
    }
}

fn write_lines(path: &Path, lines: &[String]) {
    fs::write(path, lines.join("\n") + "\n").unwrap();
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "bloom-counter-image-rules-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn base_image(dir: &Path, w: Width) {
    fs::write(dir.join("image.json"), w.header()).unwrap();
    for p in 0..K {
        write_lines(&dir.join(format!("bank{p:02}.hex")), &w.bank_lines(p));
    }
}

/// Line number (1-based, in the file) of data line `n`.
fn data_line_number(n: usize) -> usize {
    n + 3
}

fn set_data_line(dir: &Path, w: Width, bank: usize, n: usize, text: &str) {
    let mut lines = w.bank_lines(bank);
    lines[data_line_number(n) - 1] = text.to_string();
    write_lines(&dir.join(format!("bank{bank:02}.hex")), &lines);
}

fn replace_in_header(dir: &Path, w: Width, from: &str, to: &str) {
    let text = w.header();
    assert!(text.contains(from), "{from}");
    fs::write(dir.join("image.json"), text.replacen(from, to, 1)).unwrap();
}

/// The header with its `"counter_bits":C` field made `to`.
fn replace_counter_bits(dir: &Path, w: Width, to: &str) {
    replace_in_header(dir, w, &format!("\"counter_bits\":{}", w.0), to);
}

enum Expect {
    Accept,
    /// Refused by both; each message contains every one of these.
    Refuse(Vec<String>),
}
use Expect::*;

fn refuse(needles: &[&str]) -> Expect {
    Refuse(needles.iter().map(|s| s.to_string()).collect())
}

struct Case {
    name: String,
    change: Box<dyn Fn(&Path)>,
    expect: Expect,
}

fn case(name: impl Into<String>, change: impl Fn(&Path) + 'static, expect: Expect) -> Case {
    Case {
        name: name.into(),
        change: Box::new(change),
        expect,
    }
}

/// Every case for counters of `w`'s width, in the order they run.
fn cases(w: Width) -> Vec<Case> {
    [accepted_cases(w), data_line_cases(w), header_cases(w)]
        .into_iter()
        .flatten()
        .collect()
}

/// Spellings both readers accept.
fn accepted_cases(w: Width) -> Vec<Case> {
    let c = w.0;
    vec![
        case("as written", |_| {}, Accept),
        case(
            "uppercase digits, blanks around values, CRLF line ends",
            move |dir| {
                let lines: Vec<String> = w
                    .bank_lines(1)
                    .iter()
                    .map(|l| {
                        if l.starts_with("//") {
                            l.clone()
                        } else {
                            format!(" \t{}\t ", l.to_uppercase())
                        }
                    })
                    .collect();
                fs::write(dir.join("bank01.hex"), lines.join("\r\n") + "\r\n").unwrap();
            },
            Accept,
        ),
        case(
            "header fields in another order",
            move |dir| {
                fs::write(
                    dir.join("image.json"),
                    format!(r#"{{"counter_bits":{c},"banks":["bank00.hex","bank01.hex","bank02.hex"],"seed":7,"hash":"h3","key_bits":64,"bank_bits":6,"k":3,"version":2,"format":"bloom-image"}}"#),
                )
                .unwrap()
            },
            Accept,
        ),
    ]
}

/// Data lines: the counters' values and digits.
fn data_line_cases(w: Width) -> Vec<Case> {
    let d = w.digits();
    let largest = w.largest();
    let mut v = vec![
        case(
            format!("the largest value {largest:x}"),
            move |dir| set_data_line(dir, w, 0, 0, &format!("{largest:0d$x}")),
            Accept,
        ),
        case(
            format!("value {} above the largest", largest + 1),
            move |dir| set_data_line(dir, w, 2, 4, &format!("{:0d$x}", largest + 1)),
            refuse(&["bank02.hex:7:", &format!("{}", largest + 1)]),
        ),
        case(
            "one digit too many",
            move |dir| set_data_line(dir, w, 1, 3, &format!("0{:0d$x}", 1)),
            refuse(&["bank01.hex:6:", "digit"]),
        ),
        case(
            "value 0x1",
            move |dir| set_data_line(dir, w, 0, 0, "0x1"),
            refuse(&["bank00.hex:3:"]),
        ),
        case(
            "value x",
            move |dir| set_data_line(dir, w, 0, 0, &"x".repeat(d)),
            refuse(&["bank00.hex:3:"]),
        ),
        case(
            "value g",
            move |dir| set_data_line(dir, w, 0, 0, &"g".repeat(d)),
            refuse(&["bank00.hex:3:"]),
        ),
        case(
            "negative value",
            move |dir| set_data_line(dir, w, 0, 0, "-1"),
            refuse(&["bank00.hex:3:"]),
        ),
        case(
            "two values on a line",
            move |dir| set_data_line(dir, w, 0, 9, &format!("{0} {0}", "1".repeat(d))),
            refuse(&["bank00.hex:12:"]),
        ),
        case(
            "comment after a value",
            move |dir| set_data_line(dir, w, 2, 5, &format!("{} // x", "1".repeat(d))),
            refuse(&["bank02.hex:8:", "comment after a value"]),
        ),
        case(
            "@address directive",
            move |dir| set_data_line(dir, w, 0, 0, "@0"),
            refuse(&["bank00.hex:3:", "@"]),
        ),
        case(
            "one data line missing",
            move |dir| {
                let mut lines = w.bank_lines(2);
                lines.remove(data_line_number(30) - 1);
                write_lines(&dir.join("bank02.hex"), &lines);
            },
            refuse(&["bank02.hex", "63 data lines"]),
        ),
    ];
    if d == 2 {
        v.push(case(
            "one digit too few",
            move |dir| set_data_line(dir, w, 1, 3, "1"),
            refuse(&["bank01.hex:6:", "digit"]),
        ));
    } else {
        // A plain image's 0/1 lines are valid one-digit counters; 00 is not.
        v.push(case(
            "two digits for a one-digit counter",
            move |dir| set_data_line(dir, w, 1, 3, "00"),
            refuse(&["bank01.hex:6:", "digit"]),
        ));
    }
    v
}

/// The header, and the directory it names.
fn header_cases(w: Width) -> Vec<Case> {
    let c = w.0;
    vec![
        case(
            "counter_bits missing",
            move |dir| replace_in_header(dir, w, &format!(",\"counter_bits\":{c}"), ""),
            refuse(&["image.json", "counter_bits"]),
        ),
        case(
            "counter_bits 1 in version 2",
            move |dir| replace_counter_bits(dir, w, "\"counter_bits\":1"),
            refuse(&["image.json", "counter_bits", "version 1"]),
        ),
        case(
            "counter_bits 9",
            move |dir| replace_counter_bits(dir, w, "\"counter_bits\":9"),
            refuse(&["image.json", "counter_bits", "9"]),
        ),
        case(
            "counter_bits 0",
            move |dir| replace_counter_bits(dir, w, "\"counter_bits\":0"),
            refuse(&["image.json", "counter_bits"]),
        ),
        case(
            "counter_bits null",
            move |dir| replace_counter_bits(dir, w, "\"counter_bits\":null"),
            refuse(&["image.json"]),
        ),
        case(
            "counter_bits as a string",
            move |dir| replace_counter_bits(dir, w, &format!("\"counter_bits\":\"{c}\"")),
            refuse(&["image.json"]),
        ),
        case(
            "counter_bits given twice",
            move |dir| {
                replace_counter_bits(
                    dir,
                    w,
                    &format!("\"counter_bits\":{c},\"counter_bits\":{c}"),
                )
            },
            refuse(&["image.json", "counter_bits"]),
        ),
        case(
            "counter_bits in version 1",
            move |dir| replace_in_header(dir, w, "\"version\":2", "\"version\":1"),
            refuse(&["image.json", "counter_bits", "version 2"]),
        ),
        case(
            "version 3",
            move |dir| replace_in_header(dir, w, "\"version\":2", "\"version\":3"),
            refuse(&["image.json", "version"]),
        ),
        case(
            "a stray bank03.hex",
            move |dir| write_lines(&dir.join("bank03.hex"), &w.bank_lines(0)),
            refuse(&["bank03.hex", "stray"]),
        ),
    ]
}

fn golden_read(dir: &Path, w: Width) -> Result<Vec<Vec<u8>>, String> {
    let filter = CountingFilter::import_image(dir).map_err(|e| e.to_string())?;
    assert_eq!(*filter.config(), w.golden_config());
    Ok((0..K).map(|p| filter.bank(p).unwrap().to_vec()).collect())
}

fn hdl_read(dir: &Path, w: Width) -> Result<Vec<Vec<u8>>, String> {
    hdl::image::read_counter_image(dir, &w.hdl_params()).map_err(|e| e.to_string())
}

#[test]
fn both_readers_follow_every_rule_of_contract_section_7_6_for_c3_and_c6() {
    let mut failures = Vec::new();
    for w in [Width(3), Width(6)] {
        for (i, case) in cases(w).iter().enumerate() {
            let dir = scratch(&format!("c{}-case{i}", w.0));
            base_image(&dir, w);
            (case.change)(&dir);
            let mut expected = w.expected();
            if case.name.starts_with("the largest value") {
                expected[0][0] = w.largest() as u8;
            }
            for (reader, result) in [("golden", golden_read(&dir, w)), ("hdl", hdl_read(&dir, w))] {
                let name = format!("c = {}: {}", w.0, case.name);
                match (&case.expect, result) {
                    (Accept, Ok(values)) if values == expected => {}
                    (Accept, Ok(_)) => {
                        failures.push(format!("{name}: {reader} read other counters"))
                    }
                    (Accept, Err(e)) => failures.push(format!("{name}: {reader} refused: {e}")),
                    (Refuse(_), Ok(_)) => failures.push(format!("{name}: {reader} accepted it")),
                    (Refuse(needles), Err(e)) => {
                        if std::env::var_os("BLOOM_SHOW_MESSAGES").is_some() {
                            eprintln!("{name:<50} {reader:>6}: {e}");
                        }
                        for needle in needles {
                            if !e.contains(needle.as_str()) {
                                failures.push(format!(
                                    "{name}: {reader}'s message lacks {needle:?}: {e}"
                                ));
                            }
                        }
                    }
                }
            }
            let _ = fs::remove_dir_all(&dir);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A counting image into a plain filter, a plain image into a counting filter, and an
/// image of another counter width: refused by both readers, naming the kinds; the
/// filter being loaded keeps its contents.
#[test]
fn both_readers_refuse_the_other_kind_of_image_and_another_counter_width() {
    let w = Width(3);
    let dir = scratch("kinds");
    base_image(&dir, w);
    let plain_cfg = w.golden_config().plain();

    let err = PartitionedFilter::import_image(&dir)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("counting image (counter_bits = 3)") && err.contains("bloom image plain"),
        "{err}"
    );
    let mut plain = PartitionedFilter::new(plain_cfg);
    plain.insert(5).unwrap();
    let before = plain.clone();
    let err = plain.load_image(&dir).unwrap_err().to_string();
    assert!(
        err.contains("counting filter (counter_bits = 3)")
            && err.contains("plain filter (counter_bits = 1)"),
        "{err}"
    );
    assert_eq!(plain, before);
    let err = hdl::image::read_image(&dir, &hdl::CoreConfig::from(w.hdl_params().plain()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("counting filter (counter_bits = 3)")
            && err.contains("plain filter (counter_bits = 1)"),
        "{err}"
    );
    let err = hdl::image::read_image_any(&dir).unwrap_err().to_string();
    assert!(err.contains("counting image (counter_bits = 3)"), "{err}");

    // Another counter width.
    let mut c4 = CountingFilter::new(plain_cfg, CounterBits::FOUR);
    c4.insert(9).unwrap();
    let before = c4.clone();
    let err = c4.load_image(&dir).unwrap_err().to_string();
    assert!(err.contains("counter_bits: 3 vs 4"), "{err}");
    assert_eq!(c4, before);
    let err = hdl::image::read_counter_image(&dir, &w.hdl_params().with_counter_bits(4).unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("counter_bits: 3 vs 4"), "{err}");

    // A plain image into a counting filter.
    let plain_dir = scratch("kinds-plain").join("image");
    before_plain_export(&plain_dir, plain_cfg);
    let err = c4.load_image(&plain_dir).unwrap_err().to_string();
    assert!(
        err.contains("plain filter (counter_bits = 1)")
            && err.contains("counting filter (counter_bits = 4)"),
        "{err}"
    );
    assert_eq!(c4, before);
    let err = hdl::image::read_counter_image(&plain_dir, &w.hdl_params())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("plain filter (counter_bits = 1)")
            && err.contains("counting filter (counter_bits = 3)"),
        "{err}"
    );
    // Read as counting filters of c = 1, a plain image is its bits.
    let as_counters = CountingFilter::import_image(&plain_dir).unwrap();
    assert_eq!(as_counters.counter_bits(), CounterBits::PLAIN);
    assert_eq!(
        as_counters.to_plain(),
        PartitionedFilter::import_image(&plain_dir).unwrap()
    );
    fs::remove_dir_all(&dir).unwrap();
    fs::remove_dir_all(plain_dir.parent().unwrap()).unwrap();
}

fn before_plain_export(dir: &Path, cfg: CoreParams) {
    let mut f = PartitionedFilter::new(cfg);
    for key in 0..20u128 {
        f.insert(key * 0x9E37_79B9).unwrap();
    }
    f.export_image(dir).unwrap();
}

/// What the golden writer writes for every c in 2..=8, both readers read back unchanged.
#[test]
fn golden_export_reads_back_identically_in_both_readers_for_every_counter_width() {
    for c in 2..=8u32 {
        let w = Width(c);
        let mut filter = CountingFilter::new(w.golden_config(), CounterBits::new(c).unwrap());
        // Few keys over and over: some counters saturate (c = 2, 3), some deletes go through.
        for round in 0..12u128 {
            for key in 0..40u128 {
                filter
                    .insert(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) & u64::MAX as u128)
                    .unwrap();
            }
            if round % 3 == 2 {
                for key in 0..10u128 {
                    filter
                        .delete(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) & u64::MAX as u128)
                        .unwrap();
                }
            }
        }
        assert!(
            filter.saturated().iter().sum::<u32>() > 0 || c > 3,
            "c = {c}: no counter saturated"
        );
        let dir = scratch(&format!("export-c{c}")).join("image");
        filter.export_image(&dir).unwrap();
        let header = fs::read_to_string(dir.join("image.json")).unwrap();
        assert!(
            header.contains("\"version\":2") && header.contains(&format!("\"counter_bits\":{c}")),
            "{header}"
        );
        let want: Vec<Vec<u8>> = (0..K).map(|p| filter.bank(p).unwrap().to_vec()).collect();
        assert_eq!(hdl_read(&dir, w).unwrap(), want, "c = {c}");
        assert_eq!(
            CountingFilter::import_image(&dir).unwrap(),
            filter,
            "c = {c}"
        );
        fs::remove_dir_all(dir.parent().unwrap()).unwrap();
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `bloom image plain`: the plain image of the 0-1 projection, read back by both readers;
/// bad input refused with nothing written.
#[test]
fn bloom_image_plain_writes_the_0_1_projection() {
    let w = Width(6);
    let dir = scratch("cli");
    let image = dir.join("counting");
    fs::create_dir_all(&image).unwrap();
    base_image(&image, w);
    let out = dir.join("plain");
    let o = common::ok(common::bloom(&[
        "image",
        "plain",
        s(&image),
        "--out",
        s(&out),
    ]));
    let text = common::stdout(&o);
    assert!(
        text.contains("counting filter") && text.contains("saturated counters per bank (at 63)"),
        "{text}"
    );
    let plain = PartitionedFilter::import_image(&out).unwrap();
    assert_eq!(*plain.config(), w.golden_config().plain());
    let want: Vec<Vec<bool>> = w
        .expected()
        .iter()
        .map(|b| b.iter().map(|&v| v != 0).collect())
        .collect();
    let got: Vec<Vec<bool>> = (0..K)
        .map(|p| plain.bank(p).unwrap().iter().map(|&b| b == 1).collect())
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        hdl::image::read_image(&out, &hdl::CoreConfig::from(w.hdl_params().plain())).unwrap(),
        want
    );
    assert!(fs::read_to_string(out.join("image.json"))
        .unwrap()
        .contains("\"version\":1"));

    // JSON report, and a plain image converts to itself.
    let again = dir.join("again");
    let o = common::ok(common::bloom(&[
        "image",
        "plain",
        s(&out),
        "--out",
        s(&again),
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&common::stdout(&o)).unwrap();
    assert_eq!(report["counter_bits"], 1);
    assert_eq!(PartitionedFilter::import_image(&again).unwrap(), plain);

    // Refusals: a non-empty target, a broken input; nothing written.
    common::assert_fails(
        &["image", "plain", s(&image), "--out", s(&out)],
        "not empty",
    );
    set_data_line(&image, w, 0, 0, "zz");
    let target = dir.join("never");
    common::assert_fails(
        &["image", "plain", s(&image), "--out", s(&target)],
        "bank00.hex:3:",
    );
    assert!(!target.exists());
    // info and query read a counting image through its 0-1 projection; union and
    // intersect take plain images and name the conversion.
    base_image(&image, w);
    let o = common::ok(common::bloom(&["image", "info", s(&image), "--json"]));
    let info: serde_json::Value = serde_json::from_str(&common::stdout(&o)).unwrap();
    assert_eq!(info["counter_bits"], 6);
    assert_eq!(info["config"]["counter_bits"], 6);
    let counting = CountingFilter::import_image(&image).unwrap();
    assert_eq!(info["saturated"], serde_json::json!(counting.saturated()));
    assert_eq!(info["fills"], serde_json::json!(counting.fill()));
    let keys: Vec<String> = (0..200u64)
        .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 1).to_string())
        .collect();
    let mut args = vec!["image", "query", s(&image)];
    args.extend(keys.iter().map(String::as_str));
    let answers = common::stdout(&common::ok(common::bloom(&args)));
    let want: String = keys
        .iter()
        .map(|k| {
            format!(
                "{k} {}\n",
                counting.query(k.parse().unwrap()).unwrap() as u8
            )
        })
        .collect();
    assert_eq!(answers, want);
    assert!(
        want.contains(" 1\n") && want.contains(" 0\n"),
        "the keys should give both answers"
    );
    common::assert_fails(&["image", "union", s(&image), s(&out)], "bloom image plain");
    // Counter bits out of range are refused; a counting core is generated, with its counter ports.
    common::assert_fails(
        &[
            "image",
            "build",
            "--keys",
            "-",
            "--counter-bits",
            "9",
            "--out",
            s(&target),
        ],
        "counter_bits = 9 is not allowed (allowed: 1..=8)",
    );
    assert!(!target.exists());
    common::ok(common::bloom(&[
        "verilog",
        "--counter-bits",
        "4",
        "--out",
        s(&dir.join("core.v")),
    ]));
    let verilog = fs::read_to_string(dir.join("core.v/bloom_core.v")).unwrap();
    assert!(
        verilog.contains("counter_saturated")
            && verilog.contains("counter_wdata")
            && verilog.contains("counter_rdata")
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// `bloom image build --counter-bits C`: the counting filter of the key file, as the
/// golden model builds it key by key, written as a version 2 image; with repeated keys
/// and c = 2 some counters saturate.
#[test]
fn bloom_image_build_counter_bits_2_and_4_writes_the_counting_filter() {
    let dir = scratch("build");
    let keys: Vec<u64> = (0..3000u64)
        .map(|i| (i % 700).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .collect();
    let text: String = keys.iter().map(|k| format!("{k}\n")).collect();
    let path = dir.join("keys.txt");
    fs::write(&path, &text).unwrap();
    for c in ["2", "4"] {
        let out = dir.join(format!("c{c}"));
        let o = common::ok(common::bloom(&[
            "image",
            "build",
            "--keys",
            s(&path),
            "--k",
            "3",
            "--bank-bits",
            "8",
            "--counter-bits",
            c,
            "--threads",
            "3",
            "--out",
            s(&out),
            "--json",
        ]));
        let report: serde_json::Value = serde_json::from_str(&common::stdout(&o)).unwrap();
        let cfg = CoreParams::new(3, 8, 64, HashFamily::Feistel, 0)
            .unwrap()
            .with_counter_bits(c.parse().unwrap())
            .unwrap();
        let mut want = CountingFilter::new(cfg, CounterBits::new(cfg.counter_bits).unwrap());
        for &k in &keys {
            want.insert(k as u128).unwrap();
        }
        let built = CountingFilter::import_image(&out).unwrap();
        assert_eq!(built, want, "c = {c}");
        assert_eq!(
            report["image"]["saturated"],
            serde_json::json!(want.saturated())
        );
        assert_eq!(report["image"]["counter_bits"], cfg.counter_bits);
        if c == "2" {
            assert!(
                want.saturated().iter().sum::<u32>() > 0,
                "c = 2 should saturate some counters"
            );
        }
        assert!(fs::read_to_string(out.join("image.json"))
            .unwrap()
            .contains("\"version\":2"));
    }
    fs::remove_dir_all(&dir).unwrap();
}
