//! `bloom fpr check` (the structured-key suite) and the fill-departure warning of
//! `bloom image build` / `info`, through the built binary: JSON shape, the verdicts on
//! keys whose outcome is known, the user's own key file, and bad arguments refused.

mod common;

use common::*;

fn json(args: &[&str]) -> serde_json::Value {
    let o = bloom(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(stdout(&o).trim()).expect("one JSON object")
}

#[test]
fn check_measures_every_named_family_on_the_named_shapes() {
    let v = json(&[
        "fpr",
        "check",
        "--hash",
        "crc,spn",
        "--seeds",
        "4",
        "--queries",
        "5000",
        "--sets",
        "sequential,random",
        "--query-shapes",
        "next,random",
        "--loads",
        "1",
        "--json",
    ]);
    assert_eq!(v["k"], 4);
    assert_eq!(v["design_load"], 2839);
    let families = v["families"].as_array().unwrap();
    assert_eq!(
        families
            .iter()
            .map(|f| f["hash"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["crc", "spn"]
    );
    for f in families {
        // 4 seeds x 2 sets x 2 query shapes x 1 load.
        assert_eq!(f["cases"], 16);
        assert_eq!(f["groups"].as_array().unwrap().len(), 4);
    }
    // Consecutive keys then the next ones: CRC answers none of them positive, whatever
    // the seed (docs/theory.md), SPN as the theory says (about 6 % at the design load).
    let group = |f: &serde_json::Value, set: &str, query: &str| {
        f["groups"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["set"] == set && g["query"] == query)
            .unwrap()["mean_ratio"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(group(&families[0], "sequential", "next"), 0.0);
    let spn = group(&families[1], "sequential", "next");
    assert!((0.85..1.15).contains(&spn), "{spn}");
    assert_eq!(families[0]["keeps_theory"], false);
    assert_eq!(families[1]["keeps_theory"], true, "{}", families[1]);
}

#[test]
fn check_reads_the_users_keys_and_queries() {
    let dir = scratch("fpr-check-keys");
    std::fs::create_dir_all(&dir).unwrap();
    let keys = dir.join("keys.txt");
    let queries = dir.join("queries.txt");
    let text: String = (1..=2000).map(|i| format!("{i}\n")).collect();
    std::fs::write(&keys, text).unwrap();
    let text: String = (2001..=4000).map(|i| format!("{i:#x}\n")).collect();
    std::fs::write(&queries, text).unwrap();
    let v = json(&[
        "fpr",
        "check",
        "--keys",
        keys.to_str().unwrap(),
        "--query-keys",
        queries.to_str().unwrap(),
        "--seeds",
        "3",
        "--queries",
        "2000",
        "--json",
    ]);
    assert!(v["measured"]
        .as_str()
        .unwrap()
        .contains("2000 distinct keys"));
    for f in v["families"].as_array().unwrap() {
        // 3 seeds x (random, neighbours, the file's queries).
        assert_eq!(f["cases"], 9, "{f}");
        let file = f["groups"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["query"] == "file")
            .unwrap()
            .clone();
        assert_eq!(file["set"], "file");
        if f["hash"] == "spn" || f["hash"] == "feistel" {
            assert!(f["worst_fill_z"].as_f64().unwrap() < 5.0, "{f}");
        } else {
            // Consecutive keys: the linear families' fills depart.
            assert!(f["worst_fill_z"].as_f64().unwrap() > 5.0, "{f}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_refuses_bad_arguments() {
    assert_fails(&["fpr", "check", "--hash", "md5"], "md5");
    assert_fails(
        &["fpr", "check", "--sets", "primes"],
        "unknown key set `primes`",
    );
    assert_fails(
        &["fpr", "check", "--query-shapes", "all"],
        "unknown query shape `all`",
    );
    assert_fails(&["fpr", "check", "--loads", "0"], "load `0` is not allowed");
    assert_fails(
        &["fpr", "check", "--loads", "nan"],
        "load `nan` is not allowed",
    );
    assert_fails(&["fpr", "check", "--seeds", "0"], "--seeds");
    assert_fails(
        &["fpr", "check", "--hash", "h3,crc,h3"],
        "--hash names `h3` twice",
    );
    assert_fails(
        &["fpr", "check", "--sets", "subnet,subnet"],
        "--sets names `subnet` twice",
    );
    assert_fails(
        &["fpr", "check", "--query-shapes", "random,next,random"],
        "--query-shapes names `random` twice",
    );
    assert_fails(
        &["fpr", "check", "--loads", "0.5,1,0.5"],
        "--loads names `0.5` twice",
    );
    assert_fails(&["fpr", "check", "--k", "17"], "k = 17 is not allowed");
    assert_fails(&["fpr", "check", "--key-bits", "48"], "key_bits = 48");
    assert_fails(&["fpr", "check", "--confidence", "1"], "confidence `1`");
    assert_fails(&["fpr", "check", "--query-keys", "q.txt"], "--keys");
    assert_fails(
        &["fpr", "check", "--keys", "/nonexistent/keys.txt"],
        "cannot open key file",
    );
    let dir = scratch("fpr-check-bad-keys");
    std::fs::create_dir_all(&dir).unwrap();
    let keys = dir.join("keys.txt");
    std::fs::write(&keys, "1\n2\n-3\n").unwrap();
    assert_fails(
        &["fpr", "check", "--keys", keys.to_str().unwrap()],
        "keys.txt:3",
    );
    std::fs::write(&keys, "# nothing\n").unwrap();
    assert_fails(
        &["fpr", "check", "--keys", keys.to_str().unwrap()],
        "holds no key",
    );
    let queries = dir.join("queries.txt");
    std::fs::write(&keys, "1\n2\n3\n").unwrap();
    std::fs::write(&queries, "# nothing\n\n").unwrap();
    assert_fails(
        &[
            "fpr",
            "check",
            "--keys",
            keys.to_str().unwrap(),
            "--query-keys",
            queries.to_str().unwrap(),
            "--seeds",
            "1",
            "--queries",
            "100",
        ],
        "--query-keys: key file",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Consecutive keys into a linear hash: `image build` and `image info` say that a
/// bank's fill departs; the same keys into SPN or Feistel do not.
#[test]
fn image_build_and_info_warn_of_a_departing_fill() {
    let keys: String = (1..=2000).map(|i| format!("{i}\n")).collect();
    for (hash, warned) in [
        ("h3", true),
        ("crc", true),
        ("spn", false),
        ("feistel", false),
    ] {
        let out = scratch(&format!("fill-warning-{hash}"));
        let o = bloom_stdin(
            &[
                "image",
                "build",
                "--keys",
                "-",
                "--hash",
                hash,
                "--out",
                out.to_str().unwrap(),
            ],
            keys.as_bytes(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            stdout(&o).contains("warning: bank"),
            warned,
            "{hash}: {}",
            stdout(&o)
        );
        let info = json(&["image", "info", out.to_str().unwrap(), "--json"]);
        assert_eq!(info["fill_warning"].is_string(), warned, "{hash}: {info}");
        assert_eq!(info["fill_departures"].as_array().unwrap().len(), 4);
        let _ = std::fs::remove_dir_all(&out);
    }
}
