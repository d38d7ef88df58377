//! Malformed memory images (contract §4) are rejected with a clear error and
//! never half-loaded.

mod common;

use std::fs;
use std::path::Path;

use common::{config, keys, scratch_dir};
use golden::{CoreParams, HashFamily, ImageError, PartitionedFilter};
use proptest::prelude::*;

fn sample_filter(cfg: CoreParams, n: u128) -> PartitionedFilter {
    let mut filter = PartitionedFilter::new(cfg);
    for key in 0..n {
        filter.insert(key * 0x9E37_79B9 % (1 << 32)).unwrap();
    }
    filter
}

/// Exports `source`, corrupts the image, then checks that every import path
/// fails with a message containing `needle` and that a filter loading it is
/// left untouched.
fn assert_rejected(cfg: CoreParams, corrupt: impl FnOnce(&Path), needle: &str) -> String {
    let dir = scratch_dir("bad");
    sample_filter(cfg, 40).export_image(&dir).unwrap();
    corrupt(&dir);
    let err = PartitionedFilter::import_image(&dir)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(needle),
        "error {err:?} should mention {needle:?}"
    );
    assert!(PartitionedFilter::import_image_expecting(&dir, &cfg).is_err());
    let mut target = sample_filter(cfg, 7);
    let before = target.clone();
    assert!(target.load_image(&dir).is_err());
    assert_eq!(
        target, before,
        "a failed load must leave the filter unchanged"
    );
    assert_eq!(target.fill(), before.fill());
    fs::remove_dir_all(&dir).unwrap();
    err
}

fn edit_lines(path: &Path, edit: impl FnOnce(&mut Vec<String>)) {
    let mut lines: Vec<String> = fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    edit(&mut lines);
    fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// Index (in the file's lines) of data line `n` (0-based).
fn data_line(lines: &[String], n: usize) -> usize {
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.starts_with("//"))
        .nth(n)
        .unwrap()
        .0
}

fn default_cfg() -> CoreParams {
    CoreParams::new(4, 8, 64, HashFamily::H3, 3).unwrap()
}

#[test]
fn bank_with_a_missing_line_is_rejected() {
    let err = assert_rejected(
        default_cfg(),
        |dir| {
            edit_lines(&dir.join("bank02.hex"), |l| {
                drop(l.remove(data_line(l, 100)))
            })
        },
        "255 data lines",
    );
    assert!(
        err.contains("bank02.hex") && err.contains("exactly 256"),
        "{err}"
    );
}

#[test]
fn bank_with_an_extra_line_is_rejected() {
    assert_rejected(
        default_cfg(),
        |dir| edit_lines(&dir.join("bank03.hex"), |l| l.push("0".into())),
        "257 data lines",
    );
}

#[test]
fn value_2_is_rejected() {
    let err = assert_rejected(
        default_cfg(),
        |dir| {
            edit_lines(&dir.join("bank01.hex"), |l| {
                let i = data_line(l, 5);
                l[i] = "2".into()
            })
        },
        "value \"2\" is not allowed",
    );
    assert!(
        err.contains("bank01.hex:8:"),
        "line number of the bad line (2 comment lines + 6th data line): {err}"
    );
}

#[test]
fn bad_characters_are_rejected() {
    for bad in ["x", "0x1", "1 0", "1,", "-1"] {
        let err = assert_rejected(
            default_cfg(),
            |dir| {
                edit_lines(&dir.join("bank00.hex"), |l| {
                    let i = data_line(l, 0);
                    l[i] = bad.into()
                })
            },
            "bank00.hex:3:",
        );
        assert!(err.contains("unexpected character"), "{bad}: {err}");
    }
    assert_rejected(
        default_cfg(),
        |dir| {
            edit_lines(&dir.join("bank00.hex"), |l| {
                let i = data_line(l, 0);
                l[i] = "@10".into()
            })
        },
        "address directive",
    );
    assert_rejected(
        default_cfg(),
        |dir| fs::write(dir.join("bank00.hex"), [0xFFu8, 0xFE, b'\n']).unwrap(),
        "byte 0xFF at column 1",
    );
}

#[test]
fn missing_bank_file_is_rejected() {
    let err = assert_rejected(
        default_cfg(),
        |dir| fs::remove_file(dir.join("bank03.hex")).unwrap(),
        "bank03.hex",
    );
    assert!(err.to_lowercase().contains("no such file"), "{err}");
}

#[test]
fn stray_bank_file_is_rejected() {
    assert_rejected(
        default_cfg(),
        |dir| {
            fs::copy(dir.join("bank00.hex"), dir.join("bank04.hex"))
                .map(drop)
                .unwrap()
        },
        "stray entry",
    );
}

#[test]
fn header_that_does_not_match_the_banks_is_rejected() {
    // bank_bits 9 in the header: every bank then has the wrong line count.
    assert_rejected(
        default_cfg(),
        |dir| {
            let text = fs::read_to_string(dir.join("image.json")).unwrap();
            fs::write(
                dir.join("image.json"),
                text.replace("\"bank_bits\":8", "\"bank_bits\":9"),
            )
            .unwrap();
        },
        "needs exactly 512",
    );
    // k 5 in the header but four bank names listed.
    assert_rejected(
        default_cfg(),
        |dir| {
            let text = fs::read_to_string(dir.join("image.json")).unwrap();
            fs::write(dir.join("image.json"), text.replace("\"k\":4", "\"k\":5")).unwrap();
        },
        "must list exactly bank00.hex..bank04.hex",
    );
}

#[test]
fn image_for_another_configuration_is_rejected_when_a_config_is_expected() {
    let dir = scratch_dir("mismatch");
    let cfg = default_cfg();
    sample_filter(cfg, 40).export_image(&dir).unwrap();
    for other in [
        CoreParams { seed: 4, ..cfg },
        CoreParams {
            hash: HashFamily::Crc,
            ..cfg
        },
        CoreParams { k: 5, ..cfg },
        CoreParams {
            key_bits: 128,
            ..cfg
        },
        CoreParams {
            bank_bits: 9,
            ..cfg
        },
    ] {
        let err = PartitionedFilter::import_image_expecting(&dir, &other).unwrap_err();
        assert!(matches!(err, ImageError::ConfigMismatch { .. }), "{err}");
        assert!(err.to_string().contains(&cfg.differences(&other)), "{err}");
        let mut target = sample_filter(other, 9);
        let before = target.clone();
        assert!(target.load_image(&dir).is_err());
        assert_eq!(target, before);
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_headers_are_rejected() {
    let cases: [(&str, &str); 11] = [
        ("{\"format\":\"bloom-image\",\"format\":\"bloom-image\",\"version\":1,\"k\":4,\"bank_bits\":8,\"key_bits\":64,\"hash\":\"h3\",\"seed\":3,\"banks\":[\"bank00.hex\",\"bank01.hex\",\"bank02.hex\",\"bank03.hex\"]}", "field \"format\" is given twice"),
        ("{\"format\":\"bloom-image\",", "not a valid header object"),
        ("[]", "expected a JSON object"),
        ("{\"format\":\"bloom-image\",\"version\":1,\"k\":4,\"bank_bits\":8,\"key_bits\":64,\"hash\":\"h3\",\"seed\":3}", "missing field \"banks\""),
        ("{\"format\":\"bloom-imagex\",\"version\":1,\"k\":4,\"bank_bits\":8,\"key_bits\":64,\"hash\":\"h3\",\"seed\":3,\"banks\":[\"bank00.hex\",\"bank01.hex\",\"bank02.hex\",\"bank03.hex\"]}", "\"format\""),
        ("{\"format\":\"bloom-image\",\"version\":3,\"k\":4,\"bank_bits\":8,\"key_bits\":64,\"hash\":\"h3\",\"seed\":3,\"banks\":[\"bank00.hex\",\"bank01.hex\",\"bank02.hex\",\"bank03.hex\"]}", "the versions are 1 (a plain filter) and 2 (a counting filter)"),
        ("{\"format\":\"bloom-image\",\"version\":1,\"k\":4,\"bank_bits\":8,\"key_bits\":64,\"hash\":\"md5\",\"seed\":3,\"banks\":[\"bank00.hex\",\"bank01.hex\",\"bank02.hex\",\"bank03.hex\"]}", "hash = md5 is not allowed"),
        ("{\"format\":\"bloom-image\",\"version\":1,\"k\":4,\"bank_bits\":8,\"key_bits\":48,\"hash\":\"h3\",\"seed\":3,\"banks\":[\"bank00.hex\",\"bank01.hex\",\"bank02.hex\",\"bank03.hex\"]}", "key_bits = 48 is not allowed"),
        ("{\"format\":\"bloom-image\",\"version\":1,\"k\":4,\"bank_bits\":8,\"key_bits\":64,\"hash\":\"h3\",\"seed\":-3,\"banks\":[\"bank00.hex\",\"bank01.hex\",\"bank02.hex\",\"bank03.hex\"]}", "\"seed\" is -3; it must be an unsigned JSON integer"),
        ("{\"format\":\"bloom-image\",\"version\":1,\"k\":4,\"bank_bits\":8,\"key_bits\":64,\"hash\":\"h3\",\"seed\":3,\"banks\":[\"bank00.hex\",\"bank01.hex\",\"bank03.hex\",\"bank02.hex\"]}", "\"banks\""),
        ("{\"format\":\"bloom-image\",\"version\":1,\"k\":4,\"bank_bits\":8,\"key_bits\":64,\"hash\":\"h3\",\"seed\":3,\"banks\":[\"bank00.hex\",\"bank01.hex\",\"bank02.hex\",\"bank03.hex\"],\"extra\":0}", "unknown field \"extra\""),
    ];
    for (header, needle) in cases {
        let err = assert_rejected(
            default_cfg(),
            |dir| fs::write(dir.join("image.json"), header).unwrap(),
            needle,
        );
        assert!(err.contains("image.json"), "{err}");
    }
    assert_rejected(
        default_cfg(),
        |dir| fs::remove_file(dir.join("image.json")).unwrap(),
        "image.json",
    );
}

#[test]
fn comments_blank_lines_and_crlf_are_accepted() {
    let cfg = CoreParams::new(2, 6, 32, HashFamily::Crc, 0).unwrap();
    let filter = sample_filter(cfg, 20);
    let dir = scratch_dir("lenient");
    filter.export_image(&dir).unwrap();
    edit_lines(&dir.join("bank01.hex"), |lines| {
        let mut out = vec!["// a comment".to_string(), String::new()];
        for line in lines.iter() {
            out.push(format!("{line}\r"));
            out.push("   ".into());
            out.push("//x".into());
        }
        *lines = out;
    });
    assert_eq!(PartitionedFilter::import_image(&dir).unwrap(), filter);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exported_image_matches_the_contract_text_exactly() {
    let cfg = CoreParams::new(2, 6, 32, HashFamily::Crc, 18_446_744_073_709_551_615).unwrap();
    let mut filter = PartitionedFilter::new(cfg);
    filter.insert(0xDEAD_BEEF).unwrap();
    let dir = scratch_dir("exact");
    filter.export_image(&dir).unwrap();
    let header = fs::read_to_string(dir.join("image.json")).unwrap();
    assert_eq!(
        header.trim_end(),
        r#"{"format":"bloom-image","version":1,"k":2,"bank_bits":6,"key_bits":32,"hash":"crc","seed":18446744073709551615,"banks":["bank00.hex","bank01.hex"]}"#
    );
    let addrs = filter.addresses(0xDEAD_BEEF).unwrap();
    for (p, &address) in addrs.iter().enumerate() {
        let text = fs::read_to_string(dir.join(format!("bank{p:02}.hex"))).unwrap();
        let data: Vec<&str> = text.lines().filter(|l| !l.starts_with("//")).collect();
        assert_eq!(data.len(), 64);
        for (a, line) in data.iter().enumerate() {
            assert_eq!(
                *line,
                if a as u32 == address { "1" } else { "0" },
                "bank {p} line {a}"
            );
        }
    }
    let names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "no temporary files left: {names:?}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn export_into_an_unwritable_place_fails_cleanly() {
    let dir = scratch_dir("blocked");
    let file = dir.join("not-a-dir");
    fs::write(&file, "x").unwrap();
    let err = sample_filter(default_cfg(), 3)
        .export_image(&file.join("image"))
        .unwrap_err();
    assert!(matches!(err, ImageError::Io { .. }), "{err}");
    assert!(err.to_string().contains("not-a-dir"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}

#[derive(Debug, Clone)]
enum Corruption {
    DropLine,
    AddLine,
    SetValue(&'static str),
    RemoveBank,
    TruncateHeader(usize),
}

fn corruption() -> impl Strategy<Value = Corruption> {
    prop_oneof![
        Just(Corruption::DropLine),
        Just(Corruption::AddLine),
        prop::sample::select(vec!["2", "9", "f", "x", "", "00", "11", "0 1", "z1"])
            .prop_map(Corruption::SetValue),
        Just(Corruption::RemoveBank),
        (1usize..120).prop_map(Corruption::TruncateHeader),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever single bank or header is damaged, nothing is loaded.
    #[test]
    fn any_single_corruption_is_rejected_and_never_half_loaded(
        (cfg, keys, bank_pick, line_pick, damage) in config(9).prop_flat_map(|cfg| {
            (Just(cfg), keys(&cfg, 100), any::<prop::sample::Index>(), any::<prop::sample::Index>(), corruption())
        })
    ) {
        let mut filter = PartitionedFilter::new(cfg);
        for &key in &keys {
            filter.insert(key).unwrap();
        }
        let dir = scratch_dir("prop-bad");
        filter.export_image(&dir).unwrap();
        let bank = dir.join(golden::bank_file_name(bank_pick.index(cfg.k as usize)));
        let line = line_pick.index(cfg.bank_size() as usize);
        match &damage {
            Corruption::DropLine => edit_lines(&bank, |l| drop(l.remove(data_line(l, line)))),
            Corruption::AddLine => edit_lines(&bank, |l| l.insert(data_line(l, line), "1".into())),
            // A blank line is legal: it is ignored, so the line count drops.
            Corruption::SetValue(v) => edit_lines(&bank, |l| { let i = data_line(l, line); l[i] = v.to_string() }),
            Corruption::RemoveBank => fs::remove_file(&bank).unwrap(),
            Corruption::TruncateHeader(n) => {
                let header = dir.join("image.json");
                let text = fs::read_to_string(&header).unwrap();
                let keep = text.trim_end().len().saturating_sub(*n);
                fs::write(&header, &text[..keep]).unwrap();
            }
        }
        let mut target = PartitionedFilter::new(cfg);
        target.insert(common::mask_key(0x1234_5678_9ABC, cfg.key_bits)).unwrap();
        let before = target.clone();
        let result = target.load_image(&dir);
        prop_assert!(result.is_err(), "damaged image {:?} was accepted", damage);
        prop_assert_eq!(&target, &before);
        prop_assert!(PartitionedFilter::import_image(&dir).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// Names in a directory, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn export_refuses_a_non_empty_target_and_leaves_it_as_it_was() {
    let root = scratch_dir("target");
    let target = root.join("image");
    // An older, larger image: a new smaller one must never be mixed with it.
    let old = sample_filter(CoreParams::new(6, 8, 64, HashFamily::H3, 3).unwrap(), 30);
    old.export_image(&target).unwrap();
    let before = entries(&target);
    assert_eq!(before.len(), 7);
    let err = sample_filter(default_cfg(), 10)
        .export_image(&target)
        .unwrap_err();
    assert!(matches!(err, ImageError::TargetNotEmpty { .. }), "{err}");
    assert!(err.to_string().contains("not empty"), "{err}");
    assert_eq!(entries(&target), before, "the old image is untouched");
    assert_eq!(PartitionedFilter::import_image(&target).unwrap(), old);
    assert_eq!(
        entries(&root),
        vec!["image".to_string()],
        "no temporary directory left"
    );

    // A file in the way is refused too.
    fs::write(root.join("file"), "x").unwrap();
    let err = old.export_image(&root.join("file")).unwrap_err();
    assert!(
        matches!(err, ImageError::TargetNotDirectory { .. }),
        "{err}"
    );
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn export_into_an_empty_or_missing_directory_writes_exactly_the_image() {
    let root = scratch_dir("fresh");
    let filter = sample_filter(default_cfg(), 25);
    fs::create_dir(root.join("empty")).unwrap();
    filter.export_image(&root.join("empty")).unwrap();
    filter.export_image(&root.join("a/b/new")).unwrap();
    for dir in [root.join("empty"), root.join("a/b/new")] {
        assert_eq!(
            entries(&dir),
            [
                "bank00.hex",
                "bank01.hex",
                "bank02.hex",
                "bank03.hex",
                "image.json"
            ]
        );
        assert_eq!(PartitionedFilter::import_image(&dir).unwrap(), filter);
    }
    assert_eq!(
        entries(&root),
        ["a", "empty"],
        "no temporary directory left"
    );
    assert_eq!(entries(&root.join("a/b")), ["new"]);
    fs::remove_dir_all(&root).unwrap();
}
