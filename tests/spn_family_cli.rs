//! The SPN family (contract §3.3) through the built binary: the software commands take
//! it (an image of it builds, reads back and answers its keys), and every command that
//! generates hardware refuses it with a message that says the core does not implement it
//! yet, writing nothing and panicking nowhere.

mod common;

use common::*;

#[test]
fn an_spn_image_builds_reads_back_and_answers_its_keys() {
    let out = scratch("spn-image");
    let keys: String = (1..=500).map(|i| format!("{i}\n")).collect();
    let o = bloom_stdin(
        &[
            "image",
            "build",
            "--keys",
            "-",
            "--hash",
            "spn",
            "--seed",
            "9",
            "--out",
            out.to_str().unwrap(),
        ],
        keys.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let header = std::fs::read_to_string(out.join("image.json")).unwrap();
    assert!(header.contains("\"hash\":\"spn\""), "{header}");
    let info = bloom(&["image", "info", out.to_str().unwrap(), "--json"]);
    assert!(info.status.success(), "{}", stderr(&info));
    let v: serde_json::Value = serde_json::from_str(stdout(&info).trim()).unwrap();
    assert_eq!(v["config"]["hash"], "spn");
    let items = v["estimated_items"].as_f64().unwrap();
    assert!((items - 500.0).abs() < 5.0 * v["estimated_items_std_error"].as_f64().unwrap());
    let o = bloom_stdin(
        &["image", "query", out.to_str().unwrap(), "--keys", "-"],
        b"1\n250\n500\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn hardware_commands_generate_spn_cores() {
    for (args, out) in [
        (&["verilog", "--hash", "spn"][..], "spn-verilog"),
        (&["vectors", "--hash", "spn"][..], "spn-vectors"),
        (&["export", "--hash", "spn"][..], "spn-export"),
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
