//! Builds Verilator models at run time and caches them.
//!
//! A model is Verilog text plus the name of its top module. Verilator turns it
//! into C++, and its own build (`--build`, with the generated shim as a user
//! source and `-LDFLAGS -shared`) links model, runtime and shim into one shared
//! library, compiled with one set of flags. Nothing here reads the names of the
//! files Verilator generates (they differ between versions): the only names
//! used are those we choose (`--prefix Vtop`, `-o libbloomsim.so`).
//!
//! Cache: `<cache>/<top>-<hash>/` where the hash covers the Verilog text, the
//! top name, the Verilator version, the shim version and every build flag.
//! Each configuration directory has its own lock file, so tests running in
//! parallel (threads or processes) build a configuration once and share it; a
//! build happens in a temporary directory that is renamed into place only when
//! complete, so a crash never leaves a half-built model that looks finished.
//! Builds of different configurations are serialised by one more lock, because
//! two concurrent C++ builds on a small machine are slower than two in a row.
//!
//! Reset and X: models are built with Verilator's defaults `--x-assign fast`
//! (explicit X assignments become constants) and `--x-initial unique`, which
//! leaves initial values to run time: [`crate::Model`] sets them random (seeded)
//! by default, so a register that depends on power-up state rather than on
//! reset shows up as a mismatch instead of being hidden by all-zero state.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use crate::model::ModelLibrary;
use crate::ports::{parse_ports, Port};
use crate::shim::{shim_source, SHIM_VERSION};
use crate::SimError;

/// How to build a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Build with `--trace` so that [`crate::Model::trace_open`] can write a VCD.
    /// A traced build is a separate cached variant (tracing slows every cycle).
    pub trace: bool,
    /// Parallel jobs for the C++ build.
    pub jobs: u32,
    /// Extra Verilator arguments, appended as given (part of the cache key).
    pub extra_args: Vec<String>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions { trace: false, jobs: 2, extra_args: Vec::new() }
    }
}

/// Optimisation of the model (fast paths -O3), of its one-time code and of
/// Verilator's runtime; part of the cache key through `verilator_args`.
const MAKE_FLAGS: [&str; 3] = ["OPT_FAST=-O3", "OPT_SLOW=-O1", "OPT_GLOBAL=-O2"];

const INSTALL_HINT: &str = "install it with `scripts/setup.sh` or `apt-get install verilator` (Verilator 5.006 or newer)";

/// `verilator --version`, run once per process.
pub fn verilator_version() -> Result<String, SimError> {
    static VERSION: OnceLock<Result<String, String>> = OnceLock::new();
    VERSION
        .get_or_init(|| match Command::new(verilator_program()).arg("--version").output() {
            Ok(out) if out.status.success() => Ok(String::from_utf8_lossy(&out.stdout).trim().to_string()),
            Ok(out) => Err(format!(
                "`{} --version` failed ({}): {}; {INSTALL_HINT}",
                verilator_program(),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            )),
            Err(e) => Err(format!("cannot run `{}` ({e}); {INSTALL_HINT}", verilator_program())),
        })
        .clone()
        .map_err(SimError::VerilatorMissing)
}

fn verilator_program() -> String {
    std::env::var("BLOOM_VERILATOR").unwrap_or_else(|_| "verilator".to_string())
}

/// Where built models are kept: `$BLOOM_SIM_CACHE`, else
/// `$CARGO_TARGET_DIR/verilator-cache`, else `verilator-cache` in the `target`
/// directory that holds the running executable (tests and `cargo run`), else
/// `$XDG_CACHE_HOME/bloom/verilator` or `~/.cache/bloom/verilator`.
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("BLOOM_SIM_CACHE") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(d).join("verilator-cache");
    }
    if let Ok(exe) = std::env::current_exe() {
        for dir in exe.ancestors().skip(1) {
            if dir.file_name().is_some_and(|n| n == "target") {
                return dir.join("verilator-cache");
            }
        }
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("bloom").join("verilator");
    }
    if let Some(h) = std::env::var_os("HOME") {
        return PathBuf::from(h).join(".cache").join("bloom").join("verilator");
    }
    std::env::temp_dir().join("bloom-verilator-cache")
}

/// FNV-1a, run twice with different offsets for a 128-bit key. Collisions
/// are further ruled out by comparing the stored Verilog on a cache hit.
fn hash128(parts: &[&[u8]]) -> u128 {
    let mut out = 0u128;
    for (lane, offset) in [0xcbf29ce484222325u64, 0x84222325cbf29ce4u64].into_iter().enumerate() {
        let mut h = offset;
        for part in parts {
            for &b in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
                h ^= b as u64;
                h = h.wrapping_mul(0x100000001b3);
            }
        }
        out |= (h as u128) << (64 * lane);
    }
    out
}

fn verilator_args(top: &str, opts: &BuildOptions) -> Vec<String> {
    let mut args: Vec<String> = [
        "--cc",
        "--exe",
        "-Wno-fatal",
        "-Wno-lint",
        "-Wno-style",
        "--prefix",
        "Vtop",
        "-O3",
        "--x-assign",
        "fast",
        "--x-initial",
        "unique",
        "-CFLAGS",
        "-fPIC -fvisibility=hidden",
        "-LDFLAGS",
        "-shared -Wl,-Bsymbolic",
        "-o",
        "libbloomsim.so",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Hash units are trees of parities; with POPCNT each is one instruction
    // (about 25% faster models). Only when this CPU has it: the cache is local.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        args.push("-CFLAGS".into());
        args.push("-mpopcnt".into());
    }
    args.push("--top-module".into());
    args.push(top.into());
    if opts.trace {
        args.push("--trace".into());
    }
    args.extend(opts.extra_args.iter().cloned());
    args
}

fn check_port_names(ports: &[Port], top: &str) -> Result<(), SimError> {
    for p in ports {
        let ok = p.name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && p.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !p.name.starts_with("__");
        if !ok {
            return Err(SimError::Ports(format!(
                "module `{top}`: port name `{}` is not a plain identifier, which the shim cannot address",
                p.name
            )));
        }
    }
    if ports.len() > u32::MAX as usize / 2 {
        return Err(SimError::Ports(format!("module `{top}` has too many ports")));
    }
    Ok(())
}

/// Builds (or finds in the cache) the model of `top` in `verilog`, and loads it.
pub fn build(verilog: &str, top: &str, opts: &BuildOptions) -> Result<Arc<ModelLibrary>, SimError> {
    let ports = parse_ports(verilog, top)?;
    check_port_names(&ports, top)?;
    let version = verilator_version()?;
    let args = verilator_args(top, opts);
    let shim = shim_source(&ports);
    let key = hash128(&[
        &SHIM_VERSION.to_le_bytes(),
        version.as_bytes(),
        top.as_bytes(),
        verilog.as_bytes(),
        args.join("\u{1}").as_bytes(),
        MAKE_FLAGS.join("\u{1}").as_bytes(),
        shim.as_bytes(),
    ]);
    let safe_top: String = top.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').take(40).collect();
    let name = format!("{safe_top}-{key:032x}{}", if opts.trace { "-trace" } else { "" });
    let cache = cache_dir();
    fs::create_dir_all(&cache).map_err(|e| SimError::io(&cache, e))?;
    let dir = cache.join(&name);
    let lib_path = dir.join("libbloomsim.so");

    // Within one process, a Mutex per directory; across processes, a file lock.
    static IN_PROCESS: OnceLock<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>> = OnceLock::new();
    let local = {
        let mut map = IN_PROCESS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        map.entry(dir.clone()).or_default().clone()
    };
    let _local_guard = local.lock().unwrap_or_else(|e| e.into_inner());
    let lock_path = cache.join(format!("{name}.lock"));
    let lock_file = File::create(&lock_path).map_err(|e| SimError::io(&lock_path, e))?;
    lock_file.lock().map_err(|e| SimError::io(&lock_path, e))?;

    let mut build_seconds = None;
    let ready = dir.join("READY");
    let cached_ok = ready.exists()
        && lib_path.exists()
        && fs::read_to_string(dir.join("top.v")).map(|t| t == verilog).unwrap_or(false);
    if !cached_ok {
        if dir.exists() {
            fs::remove_dir_all(&dir).map_err(|e| SimError::io(&dir, e))?;
        }
        let started = Instant::now();
        let global_path = cache.join("build.lock");
        let global = File::create(&global_path).map_err(|e| SimError::io(&global_path, e))?;
        global.lock().map_err(|e| SimError::io(&global_path, e))?;
        let result = build_into(&cache, &name, verilog, &shim, &args, opts, &ports, &version, &dir);
        drop(global);
        result?;
        build_seconds = Some(started.elapsed().as_secs_f64());
    }
    let lib = ModelLibrary::load(&lib_path, ports, opts.trace, build_seconds)?;
    drop(lock_file);
    Ok(lib)
}

#[allow(clippy::too_many_arguments)]
fn build_into(
    cache: &Path,
    name: &str,
    verilog: &str,
    shim: &str,
    args: &[String],
    opts: &BuildOptions,
    ports: &[Port],
    version: &str,
    dir: &Path,
) -> Result<(), SimError> {
    let nonce = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let tmp = cache.join(format!("tmp-{name}-{}-{nonce}", std::process::id()));
    fs::create_dir_all(&tmp).map_err(|e| SimError::io(&tmp, e))?;
    let write = |file: &str, text: &str| -> Result<(), SimError> {
        let p = tmp.join(file);
        fs::write(&p, text).map_err(|e| SimError::io(&p, e))
    };
    write("top.v", verilog)?;
    write("shim.cpp", shim)?;
    let runtime = runtime_dir(cache, version, args);
    let log_path = tmp.join("build.log");
    let log = File::create(&log_path).map_err(|e| SimError::io(&log_path, e))?;
    let log_err = log.try_clone().map_err(|e| SimError::io(&log_path, e))?;
    let started = Instant::now();
    // Verilator writes the C++ and its makefile (named by our --prefix); then
    // make links model, runtime and shim into one shared library (named by -o).
    let mut status = Command::new(verilator_program())
        .current_dir(&tmp)
        .args(args)
        .args(["--Mdir", "obj", "top.v", "shim.cpp"])
        .stdout(log.try_clone().map_err(|e| SimError::io(&log_path, e))?)
        .stderr(log_err.try_clone().map_err(|e| SimError::io(&log_path, e))?)
        .status()
        .map_err(|e| SimError::VerilatorMissing(format!("cannot run `{}` ({e}); {INSTALL_HINT}", verilator_program())))?;
    if status.success() {
        reuse_runtime_objects(&runtime, &tmp.join("obj"));
        status = Command::new("make")
            .current_dir(tmp.join("obj"))
            .args(["-f", "Vtop.mk", "-j", &opts.jobs.max(1).to_string()])
            .args(MAKE_FLAGS)
            .arg("libbloomsim.so")
            .stdout(log)
            .stderr(log_err)
            .status()
            .map_err(|e| SimError::Build(format!("cannot run `make` ({e}); install it with `apt-get install make g++`")))?;
    }
    let seconds = started.elapsed().as_secs_f64();
    let built = tmp.join("obj").join("libbloomsim.so");
    if !status.success() || !built.exists() {
        let text = fs::read_to_string(&log_path).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(25).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        // Keep the failed directory for inspection under a recognisable name.
        let failed = cache.join(format!("failed-{name}"));
        let _ = fs::remove_dir_all(&failed);
        let _ = fs::rename(&tmp, &failed);
        return Err(SimError::Build(format!(
            "verilator exited with {status}; log: {}\n{}",
            failed.join("build.log").display(),
            tail.join("\n")
        )));
    }
    fs::rename(&built, tmp.join("libbloomsim.so")).map_err(|e| SimError::io(&built, e))?;
    keep_runtime_objects(&runtime, &tmp.join("obj"));
    // Objects are only needed to link; keep sources and the log for debugging.
    if let Ok(entries) = fs::read_dir(tmp.join("obj")) {
        for e in entries.flatten() {
            let p = e.path();
            if matches!(p.extension().and_then(|x| x.to_str()), Some("o" | "a" | "d")) {
                let _ = fs::remove_file(p);
            }
        }
    }
    let meta = serde_json::json!({
        "verilator": version,
        "shim_version": SHIM_VERSION,
        "args": args,
        "build_seconds": seconds,
        "ports": ports.iter().map(|p| serde_json::json!({"name": p.name, "width": p.width, "direction": format!("{:?}", p.direction)})).collect::<Vec<_>>(),
    });
    write("meta.json", &serde_json::to_string_pretty(&meta).unwrap_or_default())?;
    let ready = tmp.join("READY");
    let mut f = File::create(&ready).map_err(|e| SimError::io(&ready, e))?;
    let _ = f.write_all(b"ok\n");
    let _ = f.sync_all();
    fs::rename(&tmp, dir).map_err(|e| SimError::io(dir, e))?;
    Ok(())
}

/// Verilator's runtime (verilated*.cpp) is the same for every model built with
/// the same Verilator and flags; its objects are kept in `runtime-<hash>/` and
/// copied into a new build's object directory, where make finds them newer than
/// their sources and skips them. Purely an optimisation: if the files are
/// missing or named differently by another Verilator version, make compiles
/// the runtime as usual.
fn runtime_dir(cache: &Path, version: &str, args: &[String]) -> PathBuf {
    let mut flags: Vec<&str> = Vec::new();
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
        } else if a == "--top-module" {
            skip = true;
        } else {
            flags.push(a);
        }
    }
    let key = hash128(&[
        &SHIM_VERSION.to_le_bytes(),
        version.as_bytes(),
        flags.join("\u{1}").as_bytes(),
        MAKE_FLAGS.join("\u{1}").as_bytes(),
    ]);
    cache.join(format!("runtime-{key:032x}"))
}

fn runtime_objects(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else { return Vec::new() };
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("verilated") && name.ends_with(".o")
        })
        .collect()
}

fn reuse_runtime_objects(runtime: &Path, obj: &Path) {
    if !runtime.join("READY").exists() || fs::create_dir_all(obj).is_err() {
        return;
    }
    for src in runtime_objects(runtime) {
        if let Some(name) = src.file_name() {
            // A copy gets a fresh modification time, newer than the sources.
            let _ = fs::copy(&src, obj.join(name));
        }
    }
}

fn keep_runtime_objects(runtime: &Path, obj: &Path) {
    if runtime.join("READY").exists() {
        return;
    }
    let objects = runtime_objects(obj);
    if objects.is_empty() {
        return;
    }
    let tmp = runtime.with_extension(format!("tmp{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    if fs::create_dir_all(&tmp).is_err() {
        return;
    }
    let copied = objects.iter().all(|src| src.file_name().is_some_and(|n| fs::copy(src, tmp.join(n)).is_ok()));
    if copied && fs::write(tmp.join("READY"), b"ok\n").is_ok() && fs::rename(&tmp, runtime).is_ok() {
        return;
    }
    let _ = fs::remove_dir_all(&tmp);
}

/// Seconds the last build of this cached directory took (from its metadata).
pub fn recorded_build_seconds(lib: &ModelLibrary) -> Option<f64> {
    let meta = lib.path().parent()?.join("meta.json");
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(meta).ok()?).ok()?;
    v["build_seconds"].as_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_depends_on_every_part_and_on_boundaries() {
        let a = hash128(&[b"ab", b"c"]);
        assert_ne!(a, hash128(&[b"a", b"bc"]));
        assert_ne!(a, hash128(&[b"ab", b"d"]));
        assert_eq!(a, hash128(&[b"ab", b"c"]));
    }
}
