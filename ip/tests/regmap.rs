//! The register map is written once, in ip/rdl/bloom_axis.rdl (SystemRDL).
//! Everything else is generated from it by ip/rdl/regmap.py (systemrdl-compiler
//! and PeakRDL, from the project's Python environment): the Rust definitions
//! the Rust-HDL register block is built from (hdl/src/axi/regmap.rs), the C
//! header, the Markdown page and the IP-XACT file. This test regenerates them
//! and fails when a committed one differs (BLOOM_UPDATE_SNAPSHOTS=1 rewrites
//! them); the hardware's behaviour at every address is checked by the vector
//! tests, whose expected values come from these definitions.

use std::path::PathBuf;
use std::process::Command;

use hdl::axi::regmap as map;
use hdl::axi::regs::Access;
use ip::tools::{repo_root, venv_tool};

fn generate(rdl: &std::path::Path, out: &std::path::Path) -> std::process::Output {
    let python = venv_tool("python").unwrap_or_else(|e| panic!("{e}"));
    Command::new(python)
        .arg(repo_root().join("ip/rdl/regmap.py"))
        .arg(rdl)
        .arg(out)
        .output()
        .expect("python runs")
}

/// `source` as the workspace's rustfmt settings format it (the tree is kept formatted,
/// generated Rust included).
fn rustfmt(root: &std::path::Path, source: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new("rustfmt")
        .args(["--edition", "2021", "--config-path"])
        .arg(root.join("rustfmt.toml"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("rustfmt runs (rustup component add rustfmt)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(source.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "rustfmt refused the generated Rust");
    String::from_utf8(o.stdout).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("regmap-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn generated_files_are_what_the_rdl_gives() {
    let root = repo_root();
    let out = scratch("gen");
    let o = generate(&root.join("ip/rdl/bloom_axis.rdl"), &out);
    assert!(
        o.status.success(),
        "regmap.py failed:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let update = std::env::var("BLOOM_UPDATE_SNAPSHOTS").as_deref() == Ok("1");
    for (generated, committed) in [
        ("regmap.rs", "hdl/src/axi/regmap.rs"),
        ("bloom_axis_regs.h", "ip/rdl/bloom_axis_regs.h"),
        ("bloom_axis_regs.md", "ip/rdl/bloom_axis_regs.md"),
        ("bloom_axis_regs.xml", "ip/rdl/bloom_axis_regs.xml"),
    ] {
        let mut new = std::fs::read_to_string(out.join(generated)).unwrap();
        if generated.ends_with(".rs") {
            new = rustfmt(&root, &new);
        }
        if update {
            std::fs::write(root.join(committed), &new).unwrap();
        } else {
            let old = std::fs::read_to_string(root.join(committed)).unwrap_or_default();
            assert!(
                old == new,
                "{committed} differs from what ip/rdl/bloom_axis.rdl gives; regenerate with BLOOM_UPDATE_SNAPSHOTS=1 cargo test -p ip --test regmap"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_broken_rdl_is_refused_with_the_compilers_message() {
    let dir = scratch("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let rdl = dir.join("bad.rdl");
    // A singlepulse field needs a reset value: the compiler checks the semantics.
    std::fs::write(
        &rdl,
        "addrmap bad { reg { field { sw = w; hw = r; singlepulse; } go[0:0]; } CMD @ 0x0; };\n",
    )
    .unwrap();
    let o = generate(&rdl, &dir.join("out"));
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{text}");
    assert!(
        text.contains("singlepulse") && text.contains("bad.rdl"),
        "{text}"
    );
    assert!(
        !dir.join("out").exists(),
        "nothing is written for a broken map"
    );
}

#[test]
fn c_header_compiles_and_gives_the_offsets() {
    let gcc =
        ip::tools::system_tool("gcc", "apt-get install gcc").unwrap_or_else(|e| panic!("{e}"));
    let dir = scratch("c");
    std::fs::create_dir_all(&dir).unwrap();
    let mut checks = String::new();
    for r in map::REGISTERS {
        let member = match r.name.split_once('_') {
            Some(("COUNTERS", reg)) => format!("COUNTERS.{reg}"),
            _ => r.name.to_string(),
        };
        checks += &format!(
            "    if (offsetof(bloom_axis_regs_t, {member}) != {}) return 1;\n",
            r.offset
        );
    }
    let src = format!(
        "#include <stddef.h>\n#include \"bloom_axis_regs.h\"\nint main(void) {{\n{checks}    return BLOOM_AXIS_REGS__COMMAND__CLEAR_bm == 0x{:x} ? 0 : 2;\n}}\n",
        map::COMMAND_CLEAR.mask()
    );
    std::fs::write(dir.join("t.c"), src).unwrap();
    let o = Command::new(gcc)
        .args(["-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I"])
        .arg(repo_root().join("ip/rdl"))
        .arg(dir.join("t.c"))
        .arg("-o")
        .arg(dir.join("t"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run = Command::new(dir.join("t")).status().unwrap();
    assert!(
        run.success(),
        "the header's offsets differ from the map's: exit {run}"
    );
}

#[test]
fn map_is_consistent() {
    let mut end = 0;
    for r in map::REGISTERS {
        assert!(
            r.offset >= end,
            "{} overlaps the register before it",
            r.name
        );
        assert_eq!(r.offset % 4, 0, "{} is word aligned", r.name);
        end = r.offset + r.count * r.stride;
        let mut used = 0u32;
        for f in r.fields {
            assert!(f.lsb + f.width <= 32, "{}.{} fits the word", r.name, f.name);
            assert_eq!(used & f.mask(), 0, "{}.{} overlaps", r.name, f.name);
            used |= f.mask();
            assert!(!f.desc.is_empty(), "{}.{} says what it is", r.name, f.name);
            if f.singlepulse {
                assert_eq!(
                    (f.sw, f.reset),
                    (Access::W, Some(0)),
                    "{}.{}",
                    r.name,
                    f.name
                );
            }
        }
    }
    assert!(end <= map::MAP_BYTES);
    const {
        assert!(
            map::MAP_BYTES <= 1 << hdl::axi::AXIL_ADDR_BITS,
            "the AXI4-Lite address reaches every register"
        )
    };
}

/// CONFIG's hash field encodes every family by the code the parameters give it
/// (bloom_params::HashFamily::code), and every code fits the field.
#[test]
fn hash_field_encodes_every_family_by_its_params_code() {
    let encode = map::CONFIG_HASH.encode.unwrap();
    for family in bloom_params::HashFamily::ALL {
        let code = encode
            .iter()
            .find(|(n, _)| *n == family.name())
            .map(|e| e.1);
        assert_eq!(code, Some(family.code() as u64), "{}", family.name());
        assert!(u32::from(family.code()) < 1 << map::CONFIG_HASH.width);
    }
    assert_eq!(encode.len(), bloom_params::HashFamily::ALL.len());
}
