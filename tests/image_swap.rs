//! Filters inside bitstreams, end to end: `bloom build --preload`, `bloom image swap`
//! and `bloom image readback` on one real bitstream per family (iCE40 UP5K: k = 2
//! banks of 2^13 bits, two SB_RAM40_4K cells each, UART bridge top, whose frame
//! buffer is a block RAM the swap must leave alone; ECP5 25F: k = 2 banks of 2^15
//! bits, two DP16KD cells each, test-pattern top), and one counting filter's per
//! family (iCE40: k = 2 banks of 2^12 counters of 2 bits, two cells each; ECP5:
//! k = 2 banks of 2^13 counters of 4 bits, two cells each, in the 8192 x 2 mode Yosys picks), with
//! images of random counters. All are built once and cached by
//! content under the target directory (the board design's Verilog, constraints, tool
//! versions and the recording code form the key), so only the first run pays for
//! place and route. Every readback goes through the family's unpacker (iceunpack,
//! ecpunpack) and checks every bank bit; the refusals of the swap (and of
//! `build --preload`) are checked to write nothing.
//!
//! The same proof over three configurations per family is `scripts/swap_proof.sh`.

mod common;

use common::*;

use flow::board::{self, Board, Family};
use golden::rng::SplitMix64;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// An image of `params` holding `n` random keys (seeded), written into `dir`; of a
/// counting configuration, random counters instead (every counter bit 0 in some
/// counters and 1 in others, so the build proves every bit's place).
fn random_image(params: hdl::CoreParams, n: usize, seed: u64, dir: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    if params.is_counting() {
        let mut rng = SplitMix64::new(seed);
        let mut files = vec![(
            "image.json".to_string(),
            golden::image::image_header_json(&params),
        )];
        for p in 0..params.k as usize {
            let values: Vec<u8> = (0..params.bank_size())
                .map(|_| (rng.next_u64() % (1 << params.counter_bits)) as u8)
                .collect();
            files.push((
                golden::image::bank_file_name(p),
                golden::image::bank_hex_text(&params, p, &values),
            ));
        }
        golden::image::write_directory_atomically(dir, &files).unwrap();
        return dir.to_path_buf();
    }
    let mut f = golden::PartitionedFilter::new(params);
    let mut rng = SplitMix64::new(seed);
    let mask = if params.key_bits >= 64 {
        u64::MAX
    } else {
        (1u64 << params.key_bits) - 1
    };
    for _ in 0..n {
        f.insert(u128::from(rng.next_u64() & mask)).unwrap();
    }
    f.export_image(dir).unwrap();
    dir.to_path_buf()
}

struct Built {
    dir: PathBuf,
    bitstream: PathBuf,
    params: hdl::CoreParams,
    /// Images of the bitstream's configuration: A is built in; B and C for swaps.
    images: [PathBuf; 3],
    family: Family,
}

/// Every file under `dir` (its path below `dir` and its bytes), sorted; empty when
/// `dir` does not exist.
fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                files.push((path.strip_prefix(dir).unwrap().to_path_buf(), bytes));
            }
        }
    }
    files.sort();
    files
}

fn cache_root() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bitstream-cache")
}

/// The build of `params` with image A preloaded, from the cache when its inputs are unchanged.
fn cached_build(
    name: &str,
    board: &'static Board,
    params: hdl::CoreParams,
    freq: f64,
    bridge: bool,
    fill_keys: usize,
) -> Built {
    let family = board.device.family;
    // Tests of this file may run in processes of their own (cargo nextest): one builds,
    // the others wait here and take its build from the cache.
    std::fs::create_dir_all(cache_root()).unwrap();
    let lock_path = cache_root().join(format!("{name}.lock"));
    let lock = std::fs::File::create(&lock_path).unwrap();
    lock.lock().unwrap();
    // The images are written into a directory of this process's own, and take the
    // cache's place only when they differ from what is there: a test of another
    // process may be reading the cached ones (the lock is held while building only).
    let images_dir = cache_root().join(format!("images-{name}"));
    let fresh = cache_root().join(format!("images-{name}.{}", std::process::id()));
    for i in 0..3u64 {
        random_image(
            params,
            fill_keys,
            0x5EED_0000 + i,
            &fresh.join(format!("img{i}")),
        );
    }
    if files_under(&fresh) == files_under(&images_dir) {
        std::fs::remove_dir_all(&fresh).unwrap();
    } else {
        let _ = std::fs::remove_dir_all(&images_dir);
        std::fs::rename(&fresh, &images_dir).unwrap();
    }
    let images = [0u64, 1, 2].map(|i| images_dir.join(format!("img{i}")));
    let cfg = hdl::CoreConfig {
        preload: Some(images[0].clone()),
        ..params.into()
    };
    let core = flow::generate_core(&cfg).unwrap();
    let logic: Box<dyn flow::top::BoardLogic> = if bridge {
        Box::new(flow::bridge::UartBridge::new(params, 115_200))
    } else {
        Box::new(flow::top::TestPattern::ONE_LANE)
    };
    for t in flow::build::toolchain(family) {
        if let Err(e) = t.locate() {
            panic!("{e}");
        }
    }
    let plan = flow::top::ClockPlan::fastest_up_to(board, freq).unwrap();
    let design = flow::top::board_design(board, &plan, logic.as_ref(), &core).unwrap();
    let mut key = Sha256::new();
    key.update(design.as_bytes());
    key.update(flow::constraints::checked_in(board).as_bytes());
    // The build's report names the preload image's path, which the tests compare: a cache
    // entry made in another checkout must not be taken for this one's.
    key.update(images[0].to_string_lossy().as_bytes());
    key.update(
        format!(
            "{:?}",
            flow::build::tool_versions(&flow::build::toolchain(family)).unwrap()
        )
        .as_bytes(),
    );
    for code in [
        include_str!("../flow/src/swap/record.rs"),
        include_str!("../flow/src/swap/signature.rs"),
        include_str!("../flow/src/swap/manifest.rs"),
        include_str!("../flow/src/bram.rs"),
        include_str!("../flow/src/bitstream.rs"),
        include_str!("../flow/src/build.rs"),
        include_str!("../flow/src/steps.rs"),
    ] {
        key.update(code.as_bytes());
    }
    let key: String = key
        .finalize()
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect();
    let dir = cache_root().join(format!("{name}-{key}"));
    let bitstream = dir.join(flow::build::bitstream_name(family));
    if !bitstream.exists() {
        let partial = cache_root().join(format!("{name}-{key}.partial"));
        let _ = std::fs::remove_dir_all(&partial);
        let opts = flow::build::BuildOptions {
            board,
            out_dir: partial.clone(),
            pnr_seed: 1,
            freq_mhz: Some(freq),
            logic: logic.as_ref(),
            progress: flow::tools::Progress::quiet(),
        };
        flow::build::build(&core, &opts).unwrap_or_else(|e| panic!("build {name} failed: {e}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::rename(&partial, &dir).unwrap();
        // The report names the directory it was built in.
    }
    Built {
        dir,
        bitstream,
        params,
        images,
        family,
    }
}

fn ice40() -> &'static Built {
    static B: OnceLock<Built> = OnceLock::new();
    B.get_or_init(|| {
        let params = hdl::CoreParams::new(2, 13, 32, hdl::HashFamily::H3, 5).unwrap();
        cached_build(
            "icebreaker-k2-b13",
            board::board("icebreaker").unwrap(),
            params,
            20.0,
            true,
            5000,
        )
    })
}

fn ecp5() -> &'static Built {
    static B: OnceLock<Built> = OnceLock::new();
    B.get_or_init(|| {
        let params = hdl::CoreParams::new(2, 15, 32, hdl::HashFamily::Crc, 9).unwrap();
        cached_build(
            "ulx3s25-k2-b15",
            board::board("ulx3s-25f").unwrap(),
            params,
            40.0,
            false,
            4000,
        )
    })
}

fn ice40_counting() -> &'static Built {
    static B: OnceLock<Built> = OnceLock::new();
    B.get_or_init(|| {
        let params = hdl::CoreParams::new(2, 12, 32, hdl::HashFamily::Crc, 3)
            .unwrap()
            .with_counter_bits(2)
            .unwrap();
        cached_build(
            "icebreaker-k2-b12-c2",
            board::board("icebreaker").unwrap(),
            params,
            20.0,
            true,
            0,
        )
    })
}

fn ecp5_counting() -> &'static Built {
    static B: OnceLock<Built> = OnceLock::new();
    B.get_or_init(|| {
        let params = hdl::CoreParams::new(2, 13, 32, hdl::HashFamily::H3, 4)
            .unwrap()
            .with_counter_bits(4)
            .unwrap();
        cached_build(
            "ulx3s25-k2-b13-c4",
            board::board("ulx3s-25f").unwrap(),
            params,
            30.0,
            false,
            0,
        )
    })
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `bloom image readback BIT --against IMG --json`: (bits checked, bits differing).
fn readback(bit: &Path, img: &Path) -> (u64, u64, serde_json::Value) {
    let o = bloom(&["image", "readback", s(bit), "--against", s(img), "--json"]);
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{e}: {}", all_text(&o)));
    let differing: u64 = v["bits_differing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap())
        .sum();
    assert_eq!(o.status.success(), differing == 0, "{}", all_text(&o));
    (v["bits_checked"].as_u64().unwrap(), differing, v)
}

fn swap_ok(bit: &Path, img: &Path, out: &Path) -> serde_json::Value {
    let o = ok(bloom(&[
        "image",
        "swap",
        "--bitstream",
        s(bit),
        "--image",
        s(img),
        "--out",
        s(out),
        "--json",
    ]));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// The whole cycle on one family: the build holds image A, swaps to B and on to C
/// (a swapped bitstream swaps again) hold B and C, bit for bit, and each swap changes
/// nothing but the banks' RAMs and the signature.
fn preload_swap_readback(b: &Built, other_rams_untouched: impl Fn(&Path, &Path)) {
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(b.dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["swap"]["swappable"], true, "{}", report["swap"]);
    assert!(
        report["swap"]["detail"]
            .as_str()
            .unwrap()
            .contains("every bank bit found"),
        "{}",
        report["swap"]
    );
    assert_eq!(report["core"]["preload"].as_str().unwrap(), s(&b.images[0]));
    let manifest = flow::swap::Manifest::read(&flow::swap::manifest_path(&b.bitstream)).unwrap();
    assert_eq!(manifest.core, b.params);
    assert_eq!(
        manifest.bitstream_sha256,
        flow::swap::sha256_hex(&std::fs::read(&b.bitstream).unwrap())
    );
    let cells: usize = manifest.banks.iter().map(Vec::len).sum();
    assert_eq!(cells, 4, "two cells per bank: {:?}", manifest.banks);
    for (p, bank) in manifest.banks.iter().enumerate() {
        for (c, cell) in bank.iter().enumerate() {
            assert!(
                cell.name.ends_with(&format!("parts${p}.ram.mem.0.{c}")),
                "{}",
                cell.name
            );
        }
    }

    // The map of the mode Yosys chose (ECP5 counters: 8192 x 2 for 2^13 x 4).
    assert!(
        manifest.mapping.family() == b.family
            && manifest
                .mapping
                .counter_bits()
                .contains(&b.params.counter_bits),
        "{:?}",
        manifest.mapping
    );
    assert!(
        report["swap"]["detail"]
            .as_str()
            .unwrap()
            .contains(manifest.mapping.name()),
        "{}",
        report["swap"]
    );
    let bank_bits = flow::swap::bank_bits_total(&b.params);

    // The build's bitstream holds A, read by the unpacker.
    let (checked, differing, v) = readback(&b.bitstream, &b.images[0]);
    assert_eq!((checked, differing), (bank_bits, 0));
    assert_eq!(
        v["reader"],
        if b.family == Family::Ice40 {
            "iceunpack"
        } else {
            "ecpunpack"
        }
    );

    let work = scratch(&format!("swap-{}-c{}", b.family, b.params.counter_bits));
    std::fs::create_dir_all(&work).unwrap();
    // Read back into an image: the same configuration and values (counters of a counting filter).
    let saved = scratch(&format!("saved-{}-c{}", b.family, b.params.counter_bits));
    ok(bloom(&[
        "image",
        "readback",
        s(&b.bitstream),
        "--out",
        s(&saved),
    ]));
    assert_eq!(
        hdl::image::read_image_values(&saved).unwrap(),
        hdl::image::read_image_values(&b.images[0]).unwrap()
    );
    let _ = std::fs::remove_dir_all(&saved);
    let to_b = work.join("b.bit");
    let r = swap_ok(&b.bitstream, &b.images[1], &to_b);
    assert_eq!(
        (r["bits_checked"].as_u64(), r["bits_differing"].as_u64()),
        (Some(bank_bits), Some(0))
    );
    assert!(r["seconds"].as_f64().unwrap() > 0.0);
    assert_eq!(readback(&to_b, &b.images[1]).1, 0);
    let (_, wrong, _) = readback(&to_b, &b.images[0]);
    assert!(wrong > 1000, "B read back as A: only {wrong} bits differ");
    other_rams_untouched(&b.bitstream, &to_b);
    // The manifest follows the bitstream.
    let m = flow::swap::Manifest::read(&flow::swap::manifest_path(&to_b)).unwrap();
    assert_eq!(
        m.bitstream_sha256,
        flow::swap::sha256_hex(&std::fs::read(&to_b).unwrap())
    );
    assert_eq!(m.image.as_deref(), Some(s(&b.images[1])));
    assert_ne!(m.signature, manifest.signature);

    // Chained, in place: B -> C in the same file.
    let before = std::fs::read(&to_b).unwrap();
    swap_ok(&to_b, &b.images[2], &to_b);
    assert_ne!(std::fs::read(&to_b).unwrap(), before);
    assert_eq!(readback(&to_b, &b.images[2]).1, 0);
    let leftovers: Vec<_> = std::fs::read_dir(&work)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        2,
        "bitstream and manifest only: {leftovers:?}"
    );

    // Text output names the time and the check.
    let o = ok(bloom(&[
        "image",
        "swap",
        "--bitstream",
        s(&to_b),
        "--image",
        s(&b.images[0]),
        "--out",
        s(&work.join("a.bit")),
    ]));
    let t = stdout(&o);
    assert!(
        t.contains(&format!(
            "{bank_bits} bank bits in 4 block RAMs written and read back, 0 differ"
        )),
        "{t}"
    );
    assert!(t.contains(" s\n") && t.contains("manifest: "), "{t}");
}

/// Unpacked, two iCE40 bitstreams differ only in the bank tiles' `.ram_data` lines and
/// the signature, and the design has a RAM besides the banks' (the UART bridge's).
fn ice40_only_bank_rams_changed(old: &Path, new: &Path) {
    {
        let asc = |p: &Path| {
            // Named by the whole path: tests of other builds unpack files of the same name.
            let d = scratch(&format!(
                "asc-{}",
                flow::swap::sha256_hex(p.to_string_lossy().as_bytes())
            ));
            std::fs::create_dir_all(&d).unwrap();
            let out = d.join("x.asc");
            assert!(std::process::Command::new("iceunpack")
                .arg(p)
                .arg(&out)
                .output()
                .unwrap()
                .status
                .success());
            std::fs::read_to_string(out)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        let (a, n) = (asc(old), asc(new));
        assert_eq!(a.len(), n.len());
        let sig = flow::swap::signature_of(&std::fs::read(old).unwrap())
            .unwrap()
            .1;
        let bank_tiles: Vec<String> = sig
            .banks
            .iter()
            .flatten()
            .map(|t| format!(".ram_data {}", t.to_string().replace(',', " ")))
            .collect();
        let mut block = String::new();
        let mut changed_rams = std::collections::BTreeSet::new();
        for (x, y) in a.iter().zip(&n) {
            if x.starts_with('.') {
                block = x.clone();
            }
            if x != y {
                let signature = x.starts_with(flow::swap::SIGNATURE_TAG);
                assert!(
                    signature || bank_tiles.contains(&block),
                    "line changed outside the bank RAMs, in {block}: {x} -> {y}"
                );
                if !signature {
                    changed_rams.insert(block.clone());
                }
            }
        }
        assert_eq!(changed_rams.len(), 4, "{changed_rams:?}");
        // The UART bridge's frame buffer RAM is one of the design's RAMs, not a bank's.
        let rams = a.iter().filter(|l| l.starts_with(".ram_data")).count();
        assert!(rams > 4);
    }
}

#[test]
fn ice40_icebreaker_k2_b13_w32_preload_swap_readback() {
    preload_swap_readback(ice40(), ice40_only_bank_rams_changed);
}

#[test]
fn ice40_icebreaker_counting_c2_k2_b12_w32_crc_preload_swap_readback() {
    preload_swap_readback(ice40_counting(), ice40_only_bank_rams_changed);
}

/// Two ECP5 bitstreams differ only in the bank EBRs' blocks (data and CRC) and the header.
fn ecp5_only_bank_blocks_changed(old: &Path, new: &Path) {
    {
        let (a, n) = (std::fs::read(old).unwrap(), std::fs::read(new).unwrap());
        let (ha, sig) = flow::swap::signature_of(&a).unwrap();
        let hn = flow::bitstream::read_header(&n).unwrap();
        assert_eq!(
            a.len() - ha.end,
            n.len() - hn.end,
            "only the header's length may change"
        );
        // Bytes that differ: inside the bank EBRs' blocks (data and CRC) only.
        let blocks: Vec<usize> = sig
            .banks
            .iter()
            .flatten()
            .map(|s| match s {
                flow::swap::Site::Ecp5Ebr { wid } => {
                    flow::bitstream::ebr_block(&a, ha.end, *wid).unwrap() - ha.end
                }
                _ => unreachable!(),
            })
            .collect();
        let diffs: Vec<usize> = a[ha.end..]
            .iter()
            .zip(&n[hn.end..])
            .enumerate()
            .filter(|(_, (x, y))| x != y)
            .map(|(i, _)| i)
            .collect();
        assert!(!diffs.is_empty());
        for d in diffs {
            assert!(
                blocks.iter().any(|&b| d >= b + 12 && d < b + 12 + 2304 + 2),
                "byte {d} changed outside the bank EBR blocks"
            );
        }
    }
}

#[test]
fn ecp5_ulx3s25_k2_b15_w32_crc_preload_swap_readback() {
    ecp5_round_trip(ecp5(), "ecp5-roundtrip");
}

#[test]
fn ecp5_ulx3s25_counting_c4_k2_b13_w32_preload_swap_readback() {
    ecp5_round_trip(ecp5_counting(), "ecp5-counting-roundtrip");
}

fn ecp5_round_trip(b: &Built, scratch_name: &str) {
    preload_swap_readback(b, ecp5_only_bank_blocks_changed);
    // A -> B -> A gives the build's own bitstream back, byte for byte.
    let work = scratch(scratch_name);
    std::fs::create_dir_all(&work).unwrap();
    swap_ok(&b.bitstream, &b.images[1], &work.join("b.bit"));
    swap_ok(&work.join("b.bit"), &b.images[0], &work.join("a.bit"));
    assert!(
        std::fs::read(work.join("a.bit")).unwrap() == std::fs::read(&b.bitstream).unwrap(),
        "A -> B -> A differs from A"
    );
}

/// Every refusal writes nothing: no output file, no manifest, no temporary.
fn refused(args: &[&str], out: &Path, needle: &str) {
    let o = bloom(args);
    assert_failed_cleanly(&o, needle);
    assert!(
        !out.exists() && !flow::swap::manifest_path(out).exists(),
        "{args:?} wrote {}",
        out.display()
    );
    let dir = out.parent().unwrap();
    assert!(leftovers(dir).is_empty(), "{:?}", leftovers(dir));
}

#[test]
fn swap_refuses_what_is_not_ours_or_not_of_the_images_configuration() {
    let b = ecp5();
    let work = scratch("swap-refusals");
    std::fs::create_dir_all(&work).unwrap();
    let out = work.join("out.bit");
    let bit = s(&b.bitstream);
    let swap = |input: &str, img: &str| -> Vec<String> {
        [
            "image",
            "swap",
            "--bitstream",
            input,
            "--image",
            img,
            "--out",
            s(&out),
        ]
        .iter()
        .map(|x| x.to_string())
        .collect()
    };
    let run = |args: Vec<String>, needle: &str| {
        refused(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            &out,
            needle,
        )
    };

    // An image of another configuration: each differing parameter is named.
    let other = random_image(
        hdl::CoreParams::new(3, 15, 32, hdl::HashFamily::Crc, 9).unwrap(),
        100,
        1,
        &work.join("k3"),
    );
    run(
        swap(bit, s(&other)),
        "another configuration than the bitstream",
    );
    run(swap(bit, s(&other)), "k: 3 vs 2");
    let seed = random_image(
        hdl::CoreParams::new(2, 15, 32, hdl::HashFamily::Crc, 10).unwrap(),
        100,
        1,
        &work.join("seed"),
    );
    run(swap(bit, s(&seed)), "seed: 10 vs 9");
    // A malformed image.
    let broken = work.join("broken");
    let _ = std::fs::remove_dir_all(&broken);
    std::fs::create_dir_all(&broken).unwrap();
    for e in std::fs::read_dir(&b.images[1]).unwrap().flatten() {
        std::fs::copy(e.path(), broken.join(e.file_name())).unwrap();
    }
    std::fs::write(broken.join("bank01.hex"), "not hex\n").unwrap();
    run(swap(bit, s(&broken)), "bank01.hex");

    // Not a bitstream; a bitstream not ours (no signature); another family's signature.
    let text = work.join("notes.bit");
    std::fs::write(&text, "hello, not a bitstream\n").unwrap();
    run(
        swap(s(&text), s(&b.images[1])),
        "not an iCE40 or ECP5 bitstream",
    );
    let bytes = std::fs::read(&b.bitstream).unwrap();
    let (h, sig) = flow::swap::signature_of(&bytes).unwrap();
    let unsigned = work.join("unsigned.bit");
    let plain: Vec<String> = h
        .comments
        .iter()
        .filter(|c| !c.starts_with(flow::swap::SIGNATURE_TAG))
        .cloned()
        .collect();
    std::fs::write(
        &unsigned,
        flow::bitstream::with_comments(&bytes, &h, &plain),
    )
    .unwrap();
    run(swap(s(&unsigned), s(&b.images[1])), "not a bloom bitstream");
    let ice_sig = flow::swap::Signature {
        mapping: flow::bram::Mapping::Ice40Ram40,
        banks: vec![
            vec![
                flow::swap::Site::Ice40Tile { x: 6, y: 1 };
                flow::bram::Mapping::Ice40Ram40.cells_per_bank(15, 1)
            ];
            2
        ],
        ..sig.clone()
    };
    let wrong_family = work.join("wrong-family.bit");
    std::fs::write(
        &wrong_family,
        flow::bitstream::with_comments(&bytes, &h, &[ice_sig.line()]),
    )
    .unwrap();
    run(
        swap(s(&wrong_family), s(&b.images[1])),
        "describes iCE40 block RAM",
    );
    let damaged_sig = work.join("damaged-sig.bit");
    std::fs::write(
        &damaged_sig,
        flow::bitstream::with_comments(&bytes, &h, &[sig.line().replace(" k=2", " k=x")]),
    )
    .unwrap();
    run(
        swap(s(&damaged_sig), s(&b.images[1])),
        "signature is damaged",
    );

    // The banks changed behind the signature's back (CRC renewed), or damaged (CRC not).
    let flow::swap::Site::Ecp5Ebr { wid } = sig.banks[1][1] else {
        unreachable!()
    };
    let at = flow::bitstream::ebr_block(&bytes, h.end, wid).unwrap();
    let mut bits = flow::bitstream::ebr_bits(&bytes, at);
    bits[9 * 100 + 3] = !bits[9 * 100 + 3];
    let mut tampered = bytes.clone();
    flow::bitstream::set_ebr_bits(&mut tampered, at, &bits);
    let t = work.join("tampered.bit");
    std::fs::write(&t, &tampered).unwrap();
    run(
        swap(s(&t), s(&b.images[1])),
        "do not hold the filter its signature describes",
    );
    let mut damaged = bytes.clone();
    damaged[at + 500] ^= 0x10;
    std::fs::write(&t, &damaged).unwrap();
    run(swap(s(&t), s(&b.images[1])), "fail their CRC");
    // A signature pointing at block RAMs that are not in the bitstream.
    let moved = flow::swap::Signature {
        banks: sig
            .banks
            .iter()
            .map(|b| {
                b.iter()
                    .map(|_| flow::swap::Site::Ecp5Ebr { wid: 4000 })
                    .collect()
            })
            .collect(),
        ..sig.clone()
    };
    std::fs::write(
        &t,
        flow::bitstream::with_comments(&bytes, &h, &[moved.line()]),
    )
    .unwrap();
    run(
        swap(s(&t), s(&b.images[1])),
        "no initial contents for block RAM 4000",
    );

    // --out a directory; a missing bitstream.
    let o = bloom(&[
        "image",
        "swap",
        "--bitstream",
        bit,
        "--image",
        s(&b.images[1]),
        "--out",
        s(&work),
    ]);
    assert_failed_cleanly(&o, "is a directory");
    run(
        swap(s(&work.join("missing.bit")), s(&b.images[1])),
        "missing.bit",
    );

    // readback refuses an image of another configuration, and a target that is not empty.
    assert_failed_cleanly(
        &bloom(&["image", "readback", bit, "--against", s(&other)]),
        "k: 3 vs 2",
    );
    assert_failed_cleanly(
        &bloom(&["image", "readback", bit, "--out", s(&b.images[1])]),
        "not empty",
    );
    // ... and saves what it read as an image that is the one built in.
    let saved = work.join("saved");
    ok(bloom(&["image", "readback", bit, "--out", s(&saved)]));
    let read = hdl::image::read_image_any(&saved).unwrap();
    assert_eq!(read, hdl::image::read_image_any(&b.images[0]).unwrap());
}

#[test]
fn build_preload_refuses_a_bad_image_before_any_tool_runs() {
    let work = scratch("preload-refusals");
    std::fs::create_dir_all(&work).unwrap();
    let img = random_image(
        hdl::CoreParams::new(2, 12, 64, hdl::HashFamily::H3, 0).unwrap(),
        50,
        3,
        &work.join("img"),
    );
    let out = work.join("build");
    // No tools on PATH: the image is checked first.
    let empty = work.join("no-tools");
    std::fs::create_dir_all(&empty).unwrap();
    for (extra, needle) in [
        (&["--k", "4", "--bank-bits", "12"][..], "k: 2 vs 4"),
        (
            &["--k", "2", "--bank-bits", "11"][..],
            "bank_bits: 12 vs 11",
        ),
    ] {
        let args = [
            &[
                "build",
                "--board",
                "icebreaker",
                "--preload",
                s(&img),
                "--out",
                s(&out),
            ][..],
            extra,
        ]
        .concat();
        let o = bloom_with_path(&args, s(&empty));
        assert_failed_cleanly(&o, needle);
        assert!(!out.exists(), "nothing is written for a bad preload image");
    }
    let o = bloom_with_path(
        &[
            "build",
            "--board",
            "icebreaker",
            "--preload",
            s(&work.join("nope")),
            "--out",
            s(&out),
        ],
        s(&empty),
    );
    assert_failed_cleanly(&o, "nope");
    assert!(!out.exists());
}

/// The build's check of the map, on a real counting build's own files (netlist,
/// placed netlist, routed design): they pass as they are; a netlist whose first bank
/// cell is in another mode, or one of whose INIT bits is flipped, is refused, naming
/// the cell and what differs, so such a build records no signature.
#[test]
fn counting_map_check_refuses_a_netlist_that_does_not_fit() {
    let b = ice40_counting();
    let pass = std::fs::read_dir(&b.dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("board.json").exists())
        .expect("the build's pass directory");
    let image = hdl::image::read_counter_image(&b.images[0], &b.params).unwrap();
    let mapping = flow::swap::mapping_for(
        Family::Ice40,
        b.params.counter_bits,
        &pass.join("board.json"),
    );
    assert_eq!(mapping, flow::bram::Mapping::Ice40Ram40Counters);
    let record = |netlist: &Path| {
        flow::swap::record(
            mapping,
            &b.params,
            &image,
            netlist,
            &pass.join("board-placed.json"),
            &pass.join("board.asc"),
        )
    };
    let r = record(&pass.join("board.json")).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        r.mapping_check.starts_with("every bank bit found"),
        "{}",
        r.mapping_check
    );
    assert_eq!(r.signature.banks.iter().map(Vec::len).sum::<usize>(), 4);

    let work = scratch("map-check");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let netlist: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(pass.join("board.json")).unwrap()).unwrap();
    let edited = |edit: &dyn Fn(&mut serde_json::Map<String, serde_json::Value>), name: &str| {
        let mut n = netlist.clone();
        let mut done = false;
        for m in n["modules"].as_object_mut().unwrap().values_mut() {
            for (cell_name, cell) in m["cells"].as_object_mut().unwrap().iter_mut() {
                if cell_name.ends_with("parts$0.ram.mem.0.0") {
                    edit(cell["parameters"].as_object_mut().unwrap());
                    done = true;
                }
            }
        }
        assert!(done, "bank 0's first cell is in the netlist");
        let path = work.join(name);
        std::fs::write(&path, serde_json::to_string(&n).unwrap()).unwrap();
        path
    };
    let other_mode = edited(
        &|p| {
            p.insert(
                "READ_MODE".into(),
                serde_json::json!("00000000000000000000000000000010"),
            );
        },
        "mode.json",
    );
    let e = record(&other_mode).unwrap_err();
    assert!(
        e.contains("parts$0.ram.mem.0.0 has READ_MODE 2")
            && e.contains("ice40-sb_ram40_4k-r2048x2-counters"),
        "{e}"
    );
    // The build takes the map of the mode it finds: READ_MODE 2 has one, the 1024 x 4 map.
    assert_eq!(
        flow::swap::mapping_for(Family::Ice40, b.params.counter_bits, &other_mode),
        flow::bram::Mapping::Ice40Ram40X4Counters
    );
    let flipped = edited(
        &|p| {
            let v = p["INIT_3"].as_str().unwrap().to_string();
            let flip = if v.ends_with('1') { "0" } else { "1" };
            p.insert(
                "INIT_3".into(),
                serde_json::json!(format!("{}{flip}", &v[..v.len() - 1])),
            );
        },
        "flipped.json",
    );
    let e = record(&flipped).unwrap_err();
    assert!(e.contains("parts$0.ram.mem.0.0: 1 of its init bits differ from the image placed by the ice40-sb_ram40_4k-r2048x2-counters formula"), "{e}");
}

/// Images of the other kind of filter, or of other counters, are refused for a
/// bitstream, naming the difference, and nothing is written: a plain image for a
/// counting bitstream, a counting image for a plain one, counters of 4 bits for a
/// bitstream of 2-bit counters; readback against them too.
#[test]
fn swap_and_readback_refuse_images_of_the_other_kind_of_filter() {
    let (counting, plain) = (ice40_counting(), ecp5());
    let work = scratch("kinds");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let plain_for_counting = random_image(
        counting.params.plain(),
        100,
        21,
        &work.join("plain-of-counting"),
    );
    let counting_for_plain = random_image(
        plain.params.with_counter_bits(2).unwrap(),
        0,
        22,
        &work.join("counting-of-plain"),
    );
    let wider = random_image(
        counting.params.with_counter_bits(4).unwrap(),
        0,
        23,
        &work.join("wider"),
    );
    let out = work.join("out.bit");
    let cases = [
        (
            &counting.bitstream,
            &plain_for_counting,
            "is a plain image but the bitstream",
        ),
        (
            &plain.bitstream,
            &counting_for_plain,
            "is a counting image but the bitstream",
        ),
        (&counting.bitstream, &wider, "counter_bits: 4 vs 2"),
    ];
    for (bit, img, needle) in cases {
        refused(
            &[
                "image",
                "swap",
                "--bitstream",
                s(bit),
                "--image",
                s(img),
                "--out",
                s(&out),
            ],
            &out,
            needle,
        );
        let o = bloom(&["image", "readback", s(bit), "--against", s(img)]);
        assert_failed_cleanly(&o, "another configuration");
    }
}

/// `image swap --out PATH` writes only through `bloom_files`: a FIFO, a symbolic
/// link, a device or a read-only file at PATH is refused and left as it was (the
/// swap replaced each); a link planted at the old temporary name `PATH.partial`
/// is never followed (its target was overwritten); a user's `PATH.swap.json` that
/// is not a manifest is left alone (it was deleted); the input's manifest is read
/// only if it is a regular file of a bounded size (a FIFO blocked the swap for
/// ever, a link to /dev/zero ate all memory); a full disk leaves nothing.
#[test]
fn swap_writes_nothing_it_may_not_and_reads_the_manifest_safely() {
    use std::os::unix::fs::PermissionsExt;
    let b = ecp5();
    let work = scratch("swap-safety");
    std::fs::create_dir_all(&work).unwrap();
    let img = s(&b.images[1]);
    let swap = |input: &Path, out: &Path| {
        bloom(&[
            "image",
            "swap",
            "--bitstream",
            s(input),
            "--image",
            img,
            "--out",
            s(out),
        ])
    };
    // Targets an output may not replace.
    let victim = work.join("victim");
    std::fs::write(&victim, "keep me").unwrap();
    let fifo = work.join("fifo.bit");
    mkfifo(&fifo);
    let link = work.join("link.bit");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let read_only = work.join("ro.bit");
    std::fs::write(&read_only, "mine").unwrap();
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    for (out, what) in [
        (&fifo, "is a FIFO"),
        (&link, "is a symbolic link"),
        (&read_only, "is a read-only file"),
        (&std::path::PathBuf::from("/dev/null"), "is a device"),
    ] {
        assert_failed_cleanly(&swap(&b.bitstream, out), what);
    }
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(
        &std::fs::symlink_metadata(&fifo).unwrap().file_type()
    ));
    assert_eq!(std::fs::read_link(&link).unwrap(), victim);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert_eq!(std::fs::read_to_string(&read_only).unwrap(), "mine");
    // A copy of the bitstream without its manifest, and a link planted where the
    // old temporary went.
    let input = work.join("in.bit");
    std::fs::copy(&b.bitstream, &input).unwrap();
    let out = work.join("out.bit");
    std::os::unix::fs::symlink(&victim, work.join("out.bit.partial")).unwrap();
    // A user's file where the manifest of the output would go.
    let users = flow::swap::manifest_path(&out);
    std::fs::write(&users, "my notes, not a manifest").unwrap();
    let o = ok(swap(&input, &out));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert_eq!(
        std::fs::read_to_string(&users).unwrap(),
        "my notes, not a manifest"
    );
    assert!(out.is_file());
    let _ = o;
    // With the input's own manifest (stale against the copy's path is fine: it is
    // checked by content), a user's file beside the output stays and is named.
    std::fs::copy(
        flow::swap::manifest_path(&b.bitstream),
        flow::swap::manifest_path(&input),
    )
    .unwrap();
    let o = ok(swap(&input, &out));
    assert!(
        stdout(&o).contains("left alone, so no manifest was written"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&users).unwrap(),
        "my notes, not a manifest"
    );
    // The input's manifest as a FIFO, and as a link to /dev/zero: errors, at once.
    let input_manifest = flow::swap::manifest_path(&input);
    std::fs::remove_file(&input_manifest).unwrap();
    mkfifo(&input_manifest);
    let start = std::time::Instant::now();
    assert_failed_cleanly(&swap(&input, &work.join("o2.bit")), "is a FIFO");
    std::fs::remove_file(&input_manifest).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &input_manifest).unwrap();
    assert_failed_cleanly(&swap(&input, &work.join("o2.bit")), "is a device");
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
    std::fs::remove_file(&input_manifest).unwrap();
    assert!(!work.join("o2.bit").exists());
    // A full disk (a file-size limit below the bitstream's size).
    let size = std::fs::metadata(&input).unwrap().len();
    let o = bloom_with_file_limit(
        &[
            "image",
            "swap",
            "--bitstream",
            s(&input),
            "--image",
            img,
            "--out",
            s(&work.join("o3.bit")),
        ],
        size / 2,
    );
    assert_failed_cleanly(&o, "File too large");
    assert!(!work.join("o3.bit").exists());
    // The planted link is the planter's: left where it was, still pointing away.
    assert_eq!(
        std::fs::read_link(work.join("out.bit.partial")).unwrap(),
        victim
    );
    std::fs::remove_file(work.join("out.bit.partial")).unwrap();
    assert!(leftovers(&work).is_empty(), "{:?}", leftovers(&work));
    let _ = std::fs::remove_dir_all(&work);
}

/// An iCE40 swap interrupted by SIGINT while its unpacker runs leaves no scratch
/// directory (it left `bloom-swap-PID-0` in the temporary directory) and no output.
#[test]
fn interrupted_swap_leaves_no_scratch_directory() {
    let b = ice40();
    let work = scratch("swap-interrupt");
    let tmp = work.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let out = work.join("out.bin");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bloom"))
        .args([
            "image",
            "swap",
            "--bitstream",
            s(&b.bitstream),
            "--image",
            s(&b.images[1]),
            "--out",
            s(&out),
        ])
        .env("TMPDIR", &tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while std::fs::read_dir(&tmp).unwrap().next().is_none() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "no scratch directory appeared"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the swap ended before it was interrupted"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(libc::SIGINT),
        "{status}"
    );
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
    assert!(!out.exists() && leftovers(&work).is_empty());
    let _ = std::fs::remove_dir_all(&work);
}
