//! Contract §4's image rules, one table of cases run against both readers: the golden
//! model's (`PartitionedFilter::import_image`) and the hardware generator's
//! (`hdl::image::read_image`, behind `bloom verilog --preload` and `bloom host --sim
//! --preload`). Each case starts from a hand-written valid image (not one written by
//! either implementation), changes one thing, and says whether both must accept it
//! (then both must return exactly the written bits) or both must refuse it (then both
//! messages must name what the case names).

use std::fs;
use std::path::{Path, PathBuf};

use golden::{CoreParams, HashFamily, PartitionedFilter};

const K: usize = 3;
const BANK_BITS: u32 = 6;
const SIZE: usize = 1 << BANK_BITS;
const SEED: u64 = 7;

fn header() -> String {
    r#"{"format":"bloom-image","version":1,"k":3,"bank_bits":6,"key_bits":64,"hash":"h3","seed":7,"banks":["bank00.hex","bank01.hex","bank02.hex"]}"#.to_string() + "\n"
}

/// The bits of the base image: a pattern that differs per bank.
fn base_bit(bank: usize, addr: usize) -> bool {
    (addr * (bank + 3) + bank) % 5 < 2
}

fn bank_lines(bank: usize) -> Vec<String> {
    let mut lines = vec![
        format!("// bank {bank:02}"),
        "// written by hand".to_string(),
    ];
    lines.extend((0..SIZE).map(|a| if base_bit(bank, a) { "1" } else { "0" }.to_string()));
    lines
}

fn write_lines(path: &Path, lines: &[String]) {
    fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// Line number (1-based, in the file) of data line `n` of bank file lines.
fn data_line_number(n: usize) -> usize {
    n + 3
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bloom-image-rules-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn base_image(dir: &Path) {
    fs::write(dir.join("image.json"), header()).unwrap();
    for p in 0..K {
        write_lines(&dir.join(format!("bank{p:02}.hex")), &bank_lines(p));
    }
}

fn golden_config() -> CoreParams {
    CoreParams::new(K as u32, BANK_BITS, 64, HashFamily::H3, SEED).unwrap()
}

fn hdl_config() -> hdl::CoreConfig {
    hdl::CoreConfig::from(
        hdl::CoreParams::new(K as u32, BANK_BITS, 64, hdl::HashFamily::H3, SEED).unwrap(),
    )
}

enum Expect {
    Accept,
    /// Refused by both; each message contains every one of these.
    Refuse(&'static [&'static str]),
}
use Expect::*;

struct Case {
    name: &'static str,
    change: fn(&Path),
    expect: Expect,
}

fn edit_bank(dir: &Path, bank: usize, edit: impl FnOnce(&mut Vec<String>)) {
    let mut lines = bank_lines(bank);
    edit(&mut lines);
    write_lines(&dir.join(format!("bank{bank:02}.hex")), &lines);
}

fn set_data_line(dir: &Path, bank: usize, n: usize, text: &str) {
    edit_bank(dir, bank, |l| l[data_line_number(n) - 1] = text.to_string());
}

fn set_header(dir: &Path, text: &str) {
    fs::write(dir.join("image.json"), text).unwrap();
}

fn replace_in_header(dir: &Path, from: &str, to: &str) {
    let text = header();
    assert!(text.contains(from), "{from}");
    set_header(dir, &text.replacen(from, to, 1));
}

/// Every case, in the order they run.
fn cases() -> Vec<Case> {
    [
        accepted_cases(),
        bank_line_cases(),
        directory_cases(),
        header_cases(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Spellings both readers accept.
fn accepted_cases() -> Vec<Case> {
    vec![
        Case {
            name: "as written",
            change: |_| {},
            expect: Accept,
        },
        Case {
            name: "CRLF line ends in banks and header",
            change: |d| {
                for p in 0..K {
                    fs::write(
                        d.join(format!("bank{p:02}.hex")),
                        bank_lines(p).join("\r\n") + "\r\n",
                    )
                    .unwrap();
                }
                set_header(d, &header().replace('\n', "\r\n"));
            },
            expect: Accept,
        },
        Case {
            name: "blank lines, blanks around values, indented comments, no final LF",
            change: |d| {
                let mut out = vec![
                    "".to_string(),
                    "   ".to_string(),
                    "\t// indented comment".to_string(),
                ];
                for line in bank_lines(1) {
                    out.push(format!(" \t{line}\t "));
                    out.push(String::new());
                    out.push("//".to_string());
                }
                fs::write(d.join("bank01.hex"), out.join("\n")).unwrap();
            },
            expect: Accept,
        },
        Case {
            name: "header fields in another order, with whitespace",
            change: |d| {
                set_header(d, "\n { \"banks\" : [\"bank00.hex\", \"bank01.hex\",\"bank02.hex\"],\n \"seed\":7, \"hash\":\"h3\",\"key_bits\":64,\"bank_bits\":6,\"k\":3,\"version\":1,\"format\":\"bloom-image\" }\n\n")
            },
            expect: Accept,
        },
        Case {
            name: "a bank file that is a symbolic link to a regular file",
            change: |d| {
                let target = d.with_extension("linked-bank");
                fs::rename(d.join("bank02.hex"), &target).unwrap();
                std::os::unix::fs::symlink(&target, d.join("bank02.hex")).unwrap();
            },
            expect: Accept,
        },
    ]
}

/// Bank lines (§4.3).
fn bank_line_cases() -> Vec<Case> {
    vec![
        Case {
            name: "value 00",
            change: |d| set_data_line(d, 1, 4, "00"),
            expect: Refuse(&["bank01.hex:7:", "00"]),
        },
        Case {
            name: "value 01",
            change: |d| set_data_line(d, 1, 4, "01"),
            expect: Refuse(&["bank01.hex:7:", "01"]),
        },
        Case {
            name: "value 2",
            change: |d| set_data_line(d, 0, 0, "2"),
            expect: Refuse(&["bank00.hex:3:"]),
        },
        Case {
            name: "value f",
            change: |d| set_data_line(d, 0, 0, "f"),
            expect: Refuse(&["bank00.hex:3:"]),
        },
        Case {
            name: "value x",
            change: |d| set_data_line(d, 0, 0, "x"),
            expect: Refuse(&["bank00.hex:3:"]),
        },
        Case {
            name: "value 0x1",
            change: |d| set_data_line(d, 0, 0, "0x1"),
            expect: Refuse(&["bank00.hex:3:"]),
        },
        Case {
            name: "two values on a line",
            change: |d| set_data_line(d, 0, 9, "1 0"),
            expect: Refuse(&["bank00.hex:12:"]),
        },
        Case {
            name: "comment after a value",
            change: |d| set_data_line(d, 2, 5, "1 // set"),
            expect: Refuse(&["bank02.hex:8:", "comment after a value"]),
        },
        Case {
            name: "comment right after a value",
            change: |d| set_data_line(d, 2, 5, "0//x"),
            expect: Refuse(&["bank02.hex:8:", "comment after a value"]),
        },
        Case {
            name: "block comment on one line",
            change: |d| edit_bank(d, 0, |l| l.insert(0, "/* a block comment */".into())),
            expect: Refuse(&["bank00.hex:1:", "block comment"]),
        },
        Case {
            name: "block comment over lines",
            change: |d| {
                edit_bank(d, 0, |l| {
                    l.splice(2..2, ["/*".to_string(), "1".to_string(), "*/".to_string()])
                        .for_each(drop)
                })
            },
            expect: Refuse(&["bank00.hex:3:", "block comment"]),
        },
        Case {
            name: "@address directive",
            change: |d| set_data_line(d, 0, 0, "@0"),
            expect: Refuse(&["bank00.hex:3:", "@"]),
        },
        Case {
            name: "one data line missing",
            change: |d| edit_bank(d, 2, |l| drop(l.remove(data_line_number(30) - 1))),
            expect: Refuse(&["bank02.hex", "63 data lines"]),
        },
        Case {
            name: "one data line too many",
            change: |d| edit_bank(d, 2, |l| l.push("0".into())),
            expect: Refuse(&["bank02.hex"]),
        },
        Case {
            name: "empty bank file",
            change: |d| fs::write(d.join("bank01.hex"), "").unwrap(),
            expect: Refuse(&["bank01.hex", "0 data lines"]),
        },
        Case {
            name: "non-ASCII byte in a comment",
            change: |d| edit_bank(d, 1, |l| l[1] = "// café".into()),
            expect: Refuse(&["bank01.hex:2:", "0xC3"]),
        },
        Case {
            name: "UTF-8 byte-order mark in a bank file",
            change: |d| edit_bank(d, 1, |l| l[0] = format!("\u{feff}{}", l[0])),
            expect: Refuse(&["bank01.hex:1:", "byte-order mark"]),
        },
        Case {
            name: "NUL byte",
            change: |d| set_data_line(d, 0, 3, "1\0"),
            expect: Refuse(&["bank00.hex:6:", "0x00"]),
        },
        Case {
            name: "form feed",
            change: |d| set_data_line(d, 0, 3, "\x0c1"),
            expect: Refuse(&["bank00.hex:6:", "0x0C"]),
        },
        Case {
            name: "full-width digit",
            change: |d| set_data_line(d, 0, 3, "１"),
            expect: Refuse(&["bank00.hex:6:"]),
        },
        Case {
            name: "bank file larger than 16 MiB",
            change: |d| {
                let mut text = String::from("// padding ");
                text.push_str(&"x".repeat(16 << 20));
                text.push('\n');
                text.push_str(&bank_lines(0).join("\n"));
                fs::write(d.join("bank00.hex"), text).unwrap();
            },
            expect: Refuse(&["bank00.hex", "16777216"]),
        },
    ]
}

/// The directory (§4.1).
fn directory_cases() -> Vec<Case> {
    vec![
        Case {
            name: "missing bank file",
            change: |d| fs::remove_file(d.join("bank01.hex")).unwrap(),
            expect: Refuse(&["bank01.hex"]),
        },
        Case {
            name: "bank file is a directory",
            change: |d| {
                fs::remove_file(d.join("bank01.hex")).unwrap();
                fs::create_dir(d.join("bank01.hex")).unwrap();
            },
            expect: Refuse(&["bank01.hex", "regular file"]),
        },
        Case {
            name: "stray bank03.hex",
            change: |d| write_lines(&d.join("bank03.hex"), &bank_lines(0)),
            expect: Refuse(&["bank03.hex", "stray"]),
        },
        Case {
            name: "stray bank16.hex",
            change: |d| write_lines(&d.join("bank16.hex"), &bank_lines(0)),
            expect: Refuse(&["bank16.hex", "stray"]),
        },
        Case {
            name: "stray bank99.hex",
            change: |d| write_lines(&d.join("bank99.hex"), &bank_lines(0)),
            expect: Refuse(&["bank99.hex", "stray"]),
        },
        Case {
            name: "stray bank4.hex",
            change: |d| write_lines(&d.join("bank4.hex"), &bank_lines(0)),
            expect: Refuse(&["bank4.hex", "stray"]),
        },
        Case {
            name: "stray bank001.hex",
            change: |d| write_lines(&d.join("bank001.hex"), &bank_lines(0)),
            expect: Refuse(&["bank001.hex", "stray"]),
        },
        Case {
            name: "stray BANK00.HEX",
            change: |d| write_lines(&d.join("BANK00.HEX"), &bank_lines(0)),
            expect: Refuse(&["BANK00.HEX", "stray"]),
        },
        Case {
            name: "stray README",
            change: |d| fs::write(d.join("README"), "notes").unwrap(),
            expect: Refuse(&["README", "stray"]),
        },
        Case {
            name: "stray hidden file",
            change: |d| fs::write(d.join(".bank00.hex.tmp"), "").unwrap(),
            expect: Refuse(&[".bank00.hex.tmp", "stray"]),
        },
        Case {
            name: "stray subdirectory",
            change: |d| fs::create_dir(d.join("old")).unwrap(),
            expect: Refuse(&["old", "stray"]),
        },
    ]
}

/// The header (§4.2).
fn header_cases() -> Vec<Case> {
    vec![
        Case {
            name: "missing header",
            change: |d| fs::remove_file(d.join("image.json")).unwrap(),
            expect: Refuse(&["image.json"]),
        },
        Case {
            name: "duplicate field with the same value",
            change: |d| replace_in_header(d, "\"k\":3,", "\"k\":3,\"k\":3,"),
            expect: Refuse(&["image.json", "k"]),
        },
        Case {
            name: "duplicate field with another value",
            change: |d| replace_in_header(d, "\"seed\":7,", "\"seed\":7,\"seed\":8,"),
            expect: Refuse(&["image.json", "seed"]),
        },
        Case {
            name: "unknown field",
            change: |d| replace_in_header(d, "\"seed\":7,", "\"seed\":7,\"comment\":\"x\","),
            expect: Refuse(&["image.json", "comment"]),
        },
        Case {
            name: "missing field",
            change: |d| replace_in_header(d, "\"seed\":7,", ""),
            expect: Refuse(&["image.json", "seed"]),
        },
        Case {
            name: "k as 3.0",
            change: |d| replace_in_header(d, "\"k\":3", "\"k\":3.0"),
            expect: Refuse(&["image.json"]),
        },
        Case {
            name: "k as 3e0",
            change: |d| replace_in_header(d, "\"k\":3", "\"k\":3e0"),
            expect: Refuse(&["image.json"]),
        },
        Case {
            name: "k as a string",
            change: |d| replace_in_header(d, "\"k\":3", "\"k\":\"3\""),
            expect: Refuse(&["image.json"]),
        },
        Case {
            name: "negative seed",
            change: |d| replace_in_header(d, "\"seed\":7", "\"seed\":-7"),
            expect: Refuse(&["image.json"]),
        },
        Case {
            name: "seed of 2^64",
            change: |d| replace_in_header(d, "\"seed\":7", "\"seed\":18446744073709551616"),
            expect: Refuse(&["image.json"]),
        },
        Case {
            name: "version 2",
            change: |d| replace_in_header(d, "\"version\":1", "\"version\":2"),
            expect: Refuse(&["image.json", "version"]),
        },
        Case {
            name: "version 1.0",
            change: |d| replace_in_header(d, "\"version\":1", "\"version\":1.0"),
            expect: Refuse(&["image.json"]),
        },
        Case {
            name: "another format",
            change: |d| replace_in_header(d, "bloom-image", "bloom-imagex"),
            expect: Refuse(&["image.json", "format"]),
        },
        Case {
            name: "unknown hash family",
            change: |d| replace_in_header(d, "\"h3\"", "\"md5\""),
            expect: Refuse(&["image.json", "md5"]),
        },
        Case {
            name: "k out of range",
            change: |d| replace_in_header(d, "\"k\":3", "\"k\":17"),
            expect: Refuse(&["image.json", "17"]),
        },
        Case {
            name: "key_bits 48",
            change: |d| replace_in_header(d, "\"key_bits\":64", "\"key_bits\":48"),
            expect: Refuse(&["image.json", "48"]),
        },
        Case {
            name: "banks out of order",
            change: |d| {
                replace_in_header(
                    d,
                    "\"bank00.hex\",\"bank01.hex\"",
                    "\"bank01.hex\",\"bank00.hex\"",
                )
            },
            expect: Refuse(&["image.json", "banks"]),
        },
        Case {
            name: "banks list short",
            change: |d| replace_in_header(d, ",\"bank02.hex\"", ""),
            expect: Refuse(&["image.json", "banks"]),
        },
        Case {
            name: "header with a byte-order mark",
            change: |d| set_header(d, &format!("\u{feff}{}", header())),
            expect: Refuse(&["image.json", "byte-order mark"]),
        },
        Case {
            name: "text after the object",
            change: |d| set_header(d, &format!("{} x", header())),
            expect: Refuse(&["image.json"]),
        },
        Case {
            name: "two objects",
            change: |d| set_header(d, &format!("{}{}", header(), header())),
            expect: Refuse(&["image.json"]),
        },
        Case {
            name: "an array instead of an object",
            change: |d| set_header(d, "[1,2]"),
            expect: Refuse(&["image.json"]),
        },
        Case {
            name: "the fields as an array, in order",
            change: |d| {
                set_header(
                    d,
                    r#"["bloom-image",1,3,6,64,"h3",7,["bank00.hex","bank01.hex","bank02.hex"]]"#,
                )
            },
            expect: Refuse(&["image.json", "object"]),
        },
        Case {
            name: "header truncated",
            change: |d| set_header(d, &header()[..60]),
            expect: Refuse(&["image.json"]),
        },
        Case {
            name: "header larger than 64 KiB",
            change: |d| set_header(d, &format!("{}{}", " ".repeat(65_536), header())),
            expect: Refuse(&["image.json", "65536"]),
        },
        Case {
            name: "header is a directory",
            change: |d| {
                fs::remove_file(d.join("image.json")).unwrap();
                fs::create_dir(d.join("image.json")).unwrap()
            },
            expect: Refuse(&["image.json", "regular file"]),
        },
    ]
}

fn golden_read(dir: &Path) -> Result<Vec<Vec<bool>>, String> {
    let filter = PartitionedFilter::import_image(dir).map_err(|e| e.to_string())?;
    assert_eq!(*filter.config(), golden_config());
    Ok((0..K)
        .map(|p| filter.bank(p).unwrap().iter().map(|&b| b == 1).collect())
        .collect())
}

fn hdl_read(dir: &Path) -> Result<Vec<Vec<bool>>, String> {
    hdl::image::read_image(dir, &hdl_config()).map_err(|e| e.to_string())
}

#[test]
fn both_readers_follow_every_rule_of_contract_section_4() {
    let expected: Vec<Vec<bool>> = (0..K)
        .map(|p| (0..SIZE).map(|a| base_bit(p, a)).collect())
        .collect();
    let mut failures = Vec::new();
    for (i, case) in cases().iter().enumerate() {
        let dir = scratch(&format!("case{i}"));
        base_image(&dir);
        (case.change)(&dir);
        for (reader, result) in [("golden", golden_read(&dir)), ("hdl", hdl_read(&dir))] {
            match (&case.expect, result) {
                (Accept, Ok(bits)) if bits == expected => {}
                (Accept, Ok(_)) => {
                    failures.push(format!("{}: {reader} read other bits", case.name))
                }
                (Accept, Err(e)) => failures.push(format!("{}: {reader} refused: {e}", case.name)),
                (Refuse(_), Ok(_)) => failures.push(format!("{}: {reader} accepted it", case.name)),
                (Refuse(needles), Err(e)) => {
                    if std::env::var_os("BLOOM_SHOW_MESSAGES").is_some() {
                        eprintln!("{:<45} {reader:>6}: {e}", case.name);
                    }
                    for needle in *needles {
                        if !e.contains(needle) {
                            failures.push(format!(
                                "{}: {reader}'s message lacks {needle:?}: {e}",
                                case.name
                            ));
                        }
                    }
                }
            }
        }
        let _ = fs::remove_dir_all(&dir);
        let _ = fs::remove_file(dir.with_extension("linked-bank"));
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn both_readers_refuse_an_image_of_another_configuration_naming_the_difference() {
    let dir = scratch("mismatch");
    base_image(&dir);
    let other = CoreParams {
        seed: 8,
        ..golden_config()
    };
    let err = PartitionedFilter::import_image_expecting(&dir, &other)
        .unwrap_err()
        .to_string();
    assert!(err.contains("seed: 7 vs 8"), "{err}");
    let with = |params: hdl::CoreParams| hdl::CoreConfig::from(params);
    let base = hdl_config().params;
    let err = hdl::image::read_image(&dir, &with(hdl::CoreParams { seed: 8, ..base }))
        .unwrap_err()
        .to_string();
    assert!(err.contains("image vs core: seed: 7 vs 8"), "{err}");
    let err = hdl::image::read_image(
        &dir,
        &with(hdl::CoreParams {
            k: 4,
            bank_bits: 7,
            ..base
        }),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("image vs core: k: 3 vs 4, bank_bits: 6 vs 7"),
        "{err}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// What the golden writer writes, both readers read back unchanged.
#[test]
fn golden_export_reads_back_identically_in_both_readers() {
    let cfg = golden_config();
    let mut filter = PartitionedFilter::new(cfg);
    for key in 0..40u128 {
        filter
            .insert((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as u128)
            .unwrap();
    }
    let dir = scratch("export").join("image");
    filter.export_image(&dir).unwrap();
    let bits = hdl_read(&dir).unwrap();
    let want: Vec<Vec<bool>> = (0..K)
        .map(|p| filter.bank(p).unwrap().iter().map(|&b| b == 1).collect())
        .collect();
    assert_eq!(bits, want);
    assert_eq!(PartitionedFilter::import_image(&dir).unwrap(), filter);
    fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}
