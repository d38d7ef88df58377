//! End-to-end tests of `bloom verilog`.

mod common;

use common::*;

/// The `bloom_core.json` that `bloom verilog` wrote into `dir`.
fn core_json(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("bloom_core.json")).unwrap()).unwrap()
}

#[test]
fn default_config_writes_verilog_and_json() {
    let dir = scratch("default");
    ok(bloom(&["verilog", "--out", dir.to_str().unwrap()]));
    let v = std::fs::read_to_string(dir.join("bloom_core.v")).unwrap();
    assert!(v.contains("module bloom_core(clock,reset,req_valid,req_ready,req_op,req_key,req_tag,"));
    assert!(v.contains("input wire  [63:0] req_key;"));
    let json = core_json(&dir);
    assert_eq!(json["k"], 4);
    assert_eq!(json["bank_bits"], 12);
    assert_eq!(json["key_bits"], 64);
    assert_eq!(json["hash"], "feistel");
    assert_eq!(json["seed"], 0);
    assert_eq!(json["top"], "bloom_core");
    // The Feistel family's network takes two cycles more than H3's units
    // (docs/core.md, "Feistel family: two cycles more").
    assert_eq!(json["latency"], hdl::LATENCY + 2);
    assert_eq!(json["clear_cycles"], hdl::clear_cycles(12) + 2);
    assert_eq!(json["scrub"], false);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_default_family_follows_the_key_width() {
    for (width, family) in [("32", "feistel"), ("64", "feistel"), ("128", "spn")] {
        let dir = scratch(&format!("default-w{width}"));
        ok(bloom(&[
            "verilog",
            "--key-bits",
            width,
            "--out",
            dir.to_str().unwrap(),
        ]));
        let json = core_json(&dir);
        assert_eq!(json["hash"], family, "--key-bits {width}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // Named, Feistel is refused at 128 bits, naming the widths it has.
    let refused = scratch("w128-feistel");
    assert_fails(
        &[
            "verilog",
            "--key-bits",
            "128",
            "--hash",
            "feistel",
            "--out",
            refused.to_str().unwrap(),
        ],
        "allowed: 32, 64 with hash = feistel",
    );
    assert!(!refused.exists());
}

#[test]
fn options_reach_the_generated_core() {
    let dir = scratch("options");
    ok(bloom(&[
        "verilog",
        "--k",
        "2",
        "--bank-bits",
        "6",
        "--key-bits",
        "128",
        "--hash",
        "crc",
        "--seed",
        "18446744073709551615",
        "--out",
        dir.to_str().unwrap(),
    ]));
    let v = std::fs::read_to_string(dir.join("bloom_core.v")).unwrap();
    assert!(v.contains("input wire  [127:0] req_key;"));
    assert!(v.contains("module bloom_core_parts_1("));
    assert!(!v.contains("module bloom_core_parts_2("));
    let json = core_json(&dir);
    assert_eq!(json["hash"], "crc");
    assert_eq!(json["seed"], u64::MAX);
    assert_eq!(json["clear_cycles"], hdl::clear_cycles(6));
    assert_eq!(json["latency"], hdl::LATENCY);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn invalid_values_fail_cleanly_and_write_nothing() {
    for (flag, value, names) in [
        ("--k", "17", "k = 17"),
        ("--k", "0", "k = 0"),
        ("--bank-bits", "5", "bank_bits = 5"),
        ("--bank-bits", "17", "bank_bits = 17"),
        ("--key-bits", "48", "key_bits = 48"),
    ] {
        let dir = scratch("invalid");
        let out = bloom(&["verilog", flag, value, "--out", dir.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flag} {value} accepted");
        assert!(
            stderr.contains(names) && stderr.contains("allowed"),
            "{flag} {value}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!dir.exists(), "{flag} {value} created output");
    }
}

#[test]
fn bad_preload_image_fails_cleanly_and_writes_nothing() {
    let dir = scratch("preload-out");
    let image = scratch("preload-image");
    std::fs::create_dir_all(&image).unwrap();
    std::fs::write(image.join("image.json"), "{\"format\":\"bloom-image\",\"version\":1,\"k\":3,\"bank_bits\":12,\"key_bits\":64,\"hash\":\"h3\",\"seed\":0,\"banks\":[\"bank00.hex\",\"bank01.hex\",\"bank02.hex\"]}").unwrap();
    let out = bloom(&[
        "verilog",
        "--preload",
        image.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("image vs core: k: 3 vs 4"), "{stderr}");
    assert!(!dir.exists());
    std::fs::remove_dir_all(&image).unwrap();
}

#[test]
fn out_must_be_a_directory() {
    let file = scratch("plainfile");
    std::fs::write(&file, "x").unwrap();
    let out = bloom(&["verilog", "--out", file.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a directory"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn preloaded_image_becomes_initial_contents() {
    let image = scratch("good-image");
    let dir = scratch("good-image-out");
    let mut g = golden::PartitionedFilter::new(
        golden::CoreParams::new(2, 6, 32, golden::HashFamily::Crc, 4).unwrap(),
    );
    for key in [1u128, 2, 3, 0xdead_beef] {
        g.insert(key).unwrap();
    }
    g.export_image(&image).unwrap();
    ok(bloom(&[
        "verilog",
        "--k",
        "2",
        "--bank-bits",
        "6",
        "--key-bits",
        "32",
        "--hash",
        "crc",
        "--seed",
        "4",
        "--preload",
        image.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]));
    let v = std::fs::read_to_string(dir.join("bloom_core.v")).unwrap();
    let ones: u32 = g.fill().iter().sum();
    assert_eq!(v.matches("] = 1'b1;").count() as u32, ones);
    let json = core_json(&dir);
    assert_eq!(json["preload"], image.display().to_string());
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&image).unwrap();
}

#[test]
fn lanes_4_writes_bloom_lanes_and_its_axis_face_beside_the_core_and_bad_lanes_write_nothing() {
    let dir = scratch("lanes");
    ok(bloom(&[
        "verilog",
        "--lanes",
        "4",
        "--k",
        "2",
        "--bank-bits",
        "6",
        "--out",
        dir.to_str().unwrap(),
    ]));
    let top = std::fs::read_to_string(dir.join("bloom_lanes.v")).unwrap();
    assert!(top.contains("module bloom_lanes ("), "{top}");
    assert!(top.contains("input  wire [255:0] req_key,"), "{top}");
    // Lane 0, a core of its own (bloom_lanes_core), and three query lanes.
    assert_eq!(top.matches("bloom_lanes_core lane0").count(), 1);
    assert_eq!(top.matches("bloom_lanes_query lane").count(), 3);
    assert!(
        !top.contains("module bloom_core(") && !top.contains("bloom_core lane"),
        "bloom_lanes.v does not hold or instantiate bloom_core"
    );
    let axis = std::fs::read_to_string(dir.join("bloom_lanes_axis.v")).unwrap();
    assert!(axis.contains("module bloom_lanes_axis ("), "{axis}");
    assert!(
        axis.contains("input  wire [255:0] s_axis_tdata,")
            && axis.contains("input  wire [11:0] s_axis_tuser,"),
        "{axis}"
    );
    assert!(
        axis.contains("output wire [31:0] m_axis_tdata,")
            && axis.contains("output wire [3:0] m_axis_tkeep,"),
        "{axis}"
    );
    assert!(
        !axis.contains("module bloom_lanes ("),
        "bloom_lanes_axis.v holds its top alone"
    );
    let core = std::fs::read_to_string(dir.join("bloom_core.v")).unwrap();
    assert!(core.contains("module bloom_core("));
    std::fs::remove_dir_all(&dir).unwrap();
    for (args, says) in [
        (vec!["--lanes", "0"], "0 is not in 1..=128"),
        (vec!["--lanes", "129"], "129 is not in 1..=128"),
    ] {
        let dir = scratch("lanes-bad");
        let mut all = vec!["verilog"];
        all.extend(&args);
        all.extend(["--out", dir.to_str().unwrap()]);
        let out = bloom(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} accepted");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!dir.exists(), "{args:?} created output");
    }
}

/// A counting filter's lanes: lane 0 the counting core with its counter access, a 1-bit
/// replica of each bank per query lane.
#[test]
fn lanes_of_a_counting_filter_are_written_with_their_replicas_and_counter_ports() {
    let dir = scratch("lanes-counting");
    let out = bloom(&[
        "verilog",
        "--lanes",
        "3",
        "--counter-bits",
        "4",
        "--k",
        "2",
        "--bank-bits",
        "6",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let top = std::fs::read_to_string(dir.join("bloom_lanes.v")).unwrap();
    assert!(
        top.contains("output wire [7:0] counter_rdata"),
        "no counter access"
    );
    assert_eq!(top.matches("bloom_lanes_query lane").count(), 2);
    for p in 0..2 {
        assert!(
            top.contains(&format!("module bloom_lanes_replica_{p}(")),
            "no replica module of bank {p}"
        );
    }
    assert!(!top.contains("module bloom_lanes_replica_2("));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scrub_builds_the_scrub_and_is_refused_with_lanes() {
    let dir = scratch("scrub");
    let out = bloom(&["verilog", "--scrub", "--out", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = std::fs::read_to_string(dir.join("bloom_core.v")).unwrap();
    assert!(v.contains("input wire  scrub_req;"));
    assert!(v.contains("localparam  built = 1'b1;"));
    assert!(!v.contains("scrub_built = 1'b0;"));
    let json = core_json(&dir);
    assert_eq!(json["scrub"], true);
    std::fs::remove_dir_all(&dir).unwrap();
    // The lanes request no scrub: refused by the command line, nothing written.
    let dir = scratch("scrub-lanes");
    let out = bloom(&[
        "verilog",
        "--scrub",
        "--lanes",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--scrub") && err.contains("--lanes"), "{err}");
    assert!(!dir.exists());
    // A period needs the scrub and a value in 2..=2^24.
    for bad in [
        vec!["--scrub-every", "100"],
        vec!["--scrub", "--scrub-every", "1"],
        vec!["--scrub", "--scrub-every", "16777217"],
    ] {
        let dir = scratch("scrub-every-bad");
        let mut args = vec!["verilog"];
        args.extend(bad.iter().copied());
        args.extend(["--out", dir.to_str().unwrap()]);
        let out = bloom(&args);
        assert!(!out.status.success(), "{bad:?} accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--scrub"), "{bad:?}: {err}");
        assert!(!dir.exists(), "{bad:?} wrote {}", dir.display());
    }
    let dir = scratch("scrub-every");
    let out = bloom(&[
        "verilog",
        "--scrub",
        "--scrub-every",
        "100000",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = core_json(&dir);
    assert_eq!(json["scrub_every"], 100000);
    std::fs::remove_dir_all(&dir).unwrap();
}
