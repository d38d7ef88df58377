//! The non-linear families (contract §3.3 SPN, §3.4 Feistel) through the built binary:
//! the software commands take them (an image builds, reads back and answers its keys),
//! every command that generates hardware generates their cores, and a configuration a
//! family is not defined for is refused before anything is written.

mod common;

use common::*;

#[test]
fn images_of_the_non_linear_families_build_read_back_and_answer_their_keys() {
    for family in ["spn", "feistel"] {
        image_builds_reads_back_and_answers_its_keys(family);
    }
}

fn image_builds_reads_back_and_answers_its_keys(family: &str) {
    let out = scratch(&format!("{family}-image"));
    let keys: String = (1..=500).map(|i| format!("{i}\n")).collect();
    let o = bloom_stdin(
        &[
            "image",
            "build",
            "--keys",
            "-",
            "--hash",
            family,
            "--seed",
            "9",
            "--out",
            out.to_str().unwrap(),
        ],
        keys.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let header = std::fs::read_to_string(out.join("image.json")).unwrap();
    assert!(
        header.contains(&format!("\"hash\":\"{family}\"")),
        "{header}"
    );
    let info = bloom(&["image", "info", out.to_str().unwrap(), "--json"]);
    assert!(info.status.success(), "{}", stderr(&info));
    let v: serde_json::Value = serde_json::from_str(stdout(&info).trim()).unwrap();
    assert_eq!(v["config"]["hash"], family);
    let items = v["estimated_items"].as_f64().unwrap();
    assert!((items - 500.0).abs() < 5.0 * v["estimated_items_std_error"].as_f64().unwrap());
    let o = bloom_stdin(
        &["image", "query", out.to_str().unwrap(), "--keys", "-"],
        b"1\n250\n500\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Every key inserted answers 1 ("maybe present").
    assert_eq!(stdout(&o), "1 1\n250 1\n500 1\n", "{family}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn hardware_commands_generate_spn_and_feistel_cores() {
    for (args, out) in [
        (&["verilog", "--hash", "spn"][..], "spn-verilog"),
        (&["vectors", "--hash", "spn"][..], "spn-vectors"),
        (&["export", "--hash", "spn"][..], "spn-export"),
        (&["verilog", "--hash", "feistel"][..], "feistel-verilog"),
        (
            &["verilog", "--hash", "feistel", "--lanes", "3"][..],
            "feistel-lanes",
        ),
        (
            &["verilog", "--hash", "feistel", "--counter-bits", "4"][..],
            "feistel-counting",
        ),
        (&["vectors", "--hash", "feistel"][..], "feistel-vectors"),
        (&["export", "--hash", "feistel"][..], "feistel-export"),
    ] {
        let dir = std::env::temp_dir().join(format!("bloom-{out}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut all: Vec<&str> = args.to_vec();
        let d = dir.to_str().unwrap().to_string();
        all.extend(["--out", d.as_str()]);
        let o = bloom(&all);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Feistel is defined for 32- and 64-bit keys: 128 is refused by every command, naming
/// the widths it takes, before anything is written.
#[test]
fn feistel_with_128_bit_keys_is_refused_naming_the_widths() {
    let dir = std::env::temp_dir().join(format!("bloom-feistel-128-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap().to_string();
    for args in [
        &[
            "verilog",
            "--hash",
            "feistel",
            "--key-bits",
            "128",
            "--out",
            d.as_str(),
        ][..],
        &[
            "image",
            "build",
            "--hash",
            "feistel",
            "--key-bits",
            "128",
            "--keys",
            "-",
            "--out",
            d.as_str(),
        ][..],
        &["fpr", "check", "--hash", "feistel", "--key-bits", "128"][..],
    ] {
        let o = bloom_stdin(args, b"1\n");
        assert!(!o.status.success(), "{args:?} succeeded");
        let err = stderr(&o);
        assert!(
            err.contains("key_bits = 128 is not allowed (allowed: 32, 64 with hash = feistel)"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert!(!dir.exists(), "{args:?} wrote {}", dir.display());
    }
}
