//! Builds Verilator models at run time and caches them.
//!
//! A model is Verilog text (the design, plus any cell libraries a netlist
//! needs) and the name of its top module. Verilator turns it into C++
//! (`--cc`); the C++ is compiled with the `cc` crate, which finds the C++
//! compiler and its flags (`CXX`, `CXXFLAGS` as usual), as two translation
//! units compiled side by side (the fast-path classes with the shim, and the
//! slow-path classes); the objects, Verilator's runtime and the
//! generated shim are linked into one shared library. Which files make the
//! model is read from the `PREFIX_classes.mk` list Verilator writes (fast-path
//! classes, slow-path classes, the runtime's global classes), so nothing here
//! depends on the names of the files a Verilator version generates; the
//! compile follows `verilated.mk`'s rules (fast classes and the shim at the
//! fast optimisation level, slow classes at the slow one, the runtime at the
//! global one, the same defines and warning switches).
//!
//! Cache: `<cache>/<top>-<hash>/` where the hash covers every source text, the
//! top name, the Verilator version, the shim version, every Verilator
//! argument, the compiler and its flags. Each configuration directory has its
//! own lock file, so tests running in parallel (threads or processes) build a
//! configuration once and share it; a build happens in a temporary directory
//! that is renamed into place only when complete, so a crash never leaves a
//! half-built model that looks finished. Builds of different configurations
//! take one of as many build slots (lock files) as the machine has cores: a
//! build is two compiles, of unequal length, so two builds side by side keep
//! both cores of a small machine busy where one alone leaves one idle for the
//! end of its longer compile. Verilator's runtime is compiled
//! once per Verilator version, compiler and flags, and kept in
//! `<cache>/runtime-<hash>/`; with GCC, `verilated.h` is precompiled once per
//! Verilator, compiler, optimisation level and tracing (`<cache>/pch-<hash>/`),
//! and every unit takes it instead of parsing the header (18 RTL models of
//! the co-simulation tests: 69 and 73 build-seconds with it, 83 without).
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

/// C++ optimisation levels, as `verilated.mk` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CppOpt {
    /// The model's fast-path classes and the shim.
    pub fast: &'static str,
    /// The model's slow-path classes (construction, initial blocks).
    pub slow: &'static str,
    /// Verilator's runtime.
    pub global: &'static str,
}

impl CppOpt {
    /// For RTL models and synthesized netlists: the per-cycle code at -O1.
    /// RTL models mostly run a test's few thousand cycles, where compiling at
    /// -O3 cost more than it saved, and on long runs the two were not told
    /// apart (the default core streamed by the `verilator_raw` bench, seven
    /// runs each, interleaved: the -O3 model's median time 1.08 times the -O1
    /// model's, the runs ranging 0.69 to 1.48 on a shared 2-core machine);
    /// `sim`'s co-simulation and lanes tests on an empty cache took 119.8 s at
    /// -O3, 82.5 s at -O1 (219 and 151 CPU seconds). A synthesized netlist is
    /// two big files of flat code, where -O1 runs as fast as -O3 and compiles
    /// in 30% less time (the iCE40 netlist of the default core: 876k against
    /// 849k cycles/s, 13.2 against 18.8 CPU seconds).
    pub const DEFAULT: CppOpt = CppOpt {
        fast: "1",
        slow: "1",
        global: "2",
    };
    /// For the routed iCE40 netlist, whose per-cycle code -O3 does speed up
    /// ([`crate::NetlistKind::cpp_opt`]).
    pub const ROUTED: CppOpt = CppOpt {
        fast: "3",
        slow: "1",
        global: "2",
    };
}

/// How to build a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelOptions {
    /// Build with `--trace` so that [`crate::Model::trace_open`] can write a VCD.
    /// A traced build is a separate cached variant (tracing slows every cycle).
    pub trace: bool,
    /// Extra Verilator arguments, appended as given (part of the cache key).
    pub extra_args: Vec<String>,
    /// More Verilog files compiled with the design (a netlist's cell
    /// libraries): (file name, text), part of the cache key.
    pub extra_sources: Vec<(String, String)>,
    pub opt: CppOpt,
}

impl Default for ModelOptions {
    fn default() -> Self {
        ModelOptions {
            trace: false,
            extra_args: Vec::new(),
            extra_sources: Vec::new(),
            opt: CppOpt::DEFAULT,
        }
    }
}

const INSTALL_HINT: &str =
    "install it with `scripts/setup.sh` or `apt-get install verilator` (Verilator 5.006 or newer)";

/// `verilator --version`, run once per process.
pub fn verilator_version() -> Result<String, SimError> {
    static VERSION: OnceLock<Result<String, String>> = OnceLock::new();
    VERSION
        .get_or_init(
            || match Command::new(verilator_program()).arg("--version").output() {
                Ok(out) if out.status.success() => {
                    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
                }
                Ok(out) => Err(format!(
                    "`{} --version` failed ({}): {}; {INSTALL_HINT}",
                    verilator_program(),
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                )),
                Err(e) => Err(format!(
                    "cannot run `{}` ({e}); {INSTALL_HINT}",
                    verilator_program()
                )),
            },
        )
        .clone()
        .map_err(SimError::VerilatorMissing)
}

/// Verilator's include directory (its runtime sources and headers), from
/// `verilator --getenv VERILATOR_ROOT`.
fn verilator_include() -> Result<PathBuf, SimError> {
    static ROOT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    ROOT.get_or_init(|| {
        let out = Command::new(verilator_program())
            .args(["--getenv", "VERILATOR_ROOT"])
            .output()
            .map_err(|e| format!("cannot run `{}` ({e}); {INSTALL_HINT}", verilator_program()))?;
        let root = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        let include = root.join("include");
        if out.status.success() && include.join("verilated.cpp").is_file() {
            Ok(include)
        } else {
            Err(format!("Verilator's runtime sources are not in {} (from `verilator --getenv VERILATOR_ROOT`); {INSTALL_HINT}", include.display()))
        }
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
        return PathBuf::from(h)
            .join(".cache")
            .join("bloom")
            .join("verilator");
    }
    std::env::temp_dir().join("bloom-verilator-cache")
}

/// FNV-1a, run twice with different offsets for a 128-bit key. Collisions
/// are further ruled out by comparing the stored Verilog on a cache hit.
pub fn hash128(parts: &[&[u8]]) -> u128 {
    let mut out = 0u128;
    for (lane, offset) in [0xcbf29ce484222325u64, 0x84222325cbf29ce4u64]
        .into_iter()
        .enumerate()
    {
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

fn verilator_args(top: &str, opts: &ModelOptions) -> Vec<String> {
    let mut args: Vec<String> = [
        "--cc",
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
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push("--top-module".into());
    args.push(top.into());
    if opts.trace {
        args.push("--trace".into());
    }
    args.extend(opts.extra_args.iter().cloned());
    args
}

/// The target this crate was built for (sim's build script), which is the
/// machine the model runs on.
const TARGET: &str = env!("BLOOM_SIM_TARGET");

/// A `cc` build of C++ sources into objects, with `verilated.mk`'s flags.
/// `pch`: a directory searched before Verilator's own, holding
/// `verilated.h` and its precompiled form ([`Job::precompiled_header`]).
fn cc_build(
    opt: &str,
    include: &Path,
    mdir: &Path,
    out_dir: &Path,
    trace: bool,
    pch: Option<&Path>,
) -> cc::Build {
    let mut b = cc::Build::new();
    if let Some(dir) = pch {
        b.include(dir);
    }
    b.cpp(true)
        .pic(true)
        .target(TARGET)
        .host(TARGET)
        .opt_level_str(opt)
        .debug(false)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .cargo_output(false)
        .emit_rerun_if_env_changed(false)
        .warnings(false)
        .out_dir(out_dir)
        .include(mdir)
        .include(include)
        .include(include.join("vltstd"))
        .flag("-std=gnu++17")
        // The shim's entry points are the only exports; the model's and the
        // runtime's symbols stay inside the library.
        .flag("-fvisibility=hidden");
    for (name, value) in [
        ("VM_COVERAGE", "0"),
        ("VM_SC", "0"),
        ("VM_TRACE", if trace { "1" } else { "0" }),
        ("VM_TRACE_FST", "0"),
        ("VM_TRACE_VCD", if trace { "1" } else { "0" }),
    ] {
        b.define(name, value);
    }
    for f in [
        "-faligned-new",
        "-fcf-protection=none",
        "-Wno-bool-operation",
        "-Wno-sign-compare",
        "-Wno-uninitialized",
        "-Wno-unused-but-set-variable",
        "-Wno-unused-parameter",
        "-Wno-unused-variable",
        "-Wno-shadow",
    ] {
        b.flag(f);
    }
    // Hash units are trees of parities; with POPCNT each is one instruction
    // (about 25% faster models). Only when this CPU has it: the cache is local.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        b.flag("-mpopcnt");
    }
    b
}

/// The compiler `cc` chose and its flags, for the cache key and the log.
fn compiler_identity(include: &Path) -> Result<String, SimError> {
    static ID: OnceLock<Result<String, String>> = OnceLock::new();
    ID.get_or_init(|| {
        let tmp = std::env::temp_dir();
        let tool = cc_build("1", include, &tmp, &tmp, false, None)
            .try_get_compiler()
            .map_err(|e| format!("no C++ compiler: {e}; install one with `apt-get install g++` (scripts/setup.sh does)"))?;
        let version = Command::new(tool.path())
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").to_string())
            .unwrap_or_default();
        Ok(format!("{} {:?} ({version})", tool.path().display(), tool.args()))
    })
    .clone()
    .map_err(SimError::Build)
}

fn check_port_names(ports: &[Port], top: &str) -> Result<(), SimError> {
    for p in ports {
        let ok = p
            .name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && p.name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !p.name.starts_with("__");
        if !ok {
            return Err(SimError::Ports(format!(
                "module `{top}`: port name `{}` is not a plain identifier, which the shim cannot address",
                p.name
            )));
        }
    }
    if ports.len() > u32::MAX as usize / 2 {
        return Err(SimError::Ports(format!(
            "module `{top}` has too many ports"
        )));
    }
    Ok(())
}

/// Builds (or finds in the cache) the model of `top` in `verilog` (and
/// `opts.extra_sources`), and loads it.
pub fn build(verilog: &str, top: &str, opts: &ModelOptions) -> Result<Arc<ModelLibrary>, SimError> {
    let ports = parse_ports(verilog, top)?;
    check_port_names(&ports, top)?;
    let version = verilator_version()?;
    let include = verilator_include()?;
    let compiler = compiler_identity(&include)?;
    let args = verilator_args(top, opts);
    let shim = shim_source(&ports);
    let opt = format!("{:?}", opts.opt);
    let mut parts: Vec<&[u8]> = vec![
        &[SHIM_VERSION as u8, (SHIM_VERSION >> 8) as u8],
        version.as_bytes(),
        compiler.as_bytes(),
        top.as_bytes(),
        verilog.as_bytes(),
        opt.as_bytes(),
        shim.as_bytes(),
    ];
    let joined = args.join("\u{1}");
    parts.push(joined.as_bytes());
    for (name, text) in &opts.extra_sources {
        parts.push(name.as_bytes());
        parts.push(text.as_bytes());
    }
    let key = hash128(&parts);
    let safe_top: String = top
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(40)
        .collect();
    let name = format!(
        "{safe_top}-{key:032x}{}",
        if opts.trace { "-trace" } else { "" }
    );
    let cache = cache_dir();
    fs::create_dir_all(&cache).map_err(|e| SimError::io(&cache, e))?;
    let dir = cache.join(&name);
    let lib_path = dir.join("libbloomsim.so");

    // Within one process, a Mutex per directory; across processes, a file lock.
    static IN_PROCESS: OnceLock<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>> = OnceLock::new();
    let local = {
        let mut map = IN_PROCESS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
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
        && fs::read_to_string(dir.join("top.v"))
            .map(|t| t == verilog)
            .unwrap_or(false);
    if !cached_ok {
        if dir.exists() {
            fs::remove_dir_all(&dir).map_err(|e| SimError::io(&dir, e))?;
        }
        let started = Instant::now();
        remove_abandoned(&cache);
        let slot = build_slot(&cache)?;
        let job = Job {
            cache: &cache,
            name: &name,
            verilog,
            shim: &shim,
            args: &args,
            opts,
            ports: &ports,
            version: &version,
            compiler: &compiler,
            include: &include,
        };
        let result = job.build_into(&dir);
        drop(slot);
        result?;
        build_seconds = Some(started.elapsed().as_secs_f64());
    }
    let lib = ModelLibrary::load(&lib_path, ports, opts.trace, build_seconds)?;
    drop(lock_file);
    Ok(lib)
}

/// Removes the temporary directories of builds whose process no longer runs:
/// a build stopped by a signal (Ctrl-C), or by its process's exit while it ran
/// in another thread, leaves `tmp-NAME-PID-NONCE` (a model),
/// `runtime-HASH.tmpPID-N` or `pch-HASH.tmpPID-N` behind, which no later build
/// would use or remove. A failed build's `failed-NAME` is kept for inspection.
fn remove_abandoned(cache: &Path) {
    let Ok(entries) = fs::read_dir(cache) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temporary_owner) else {
            continue;
        };
        if pid != std::process::id() && !process_runs(pid) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// The process that owns the build directory `name`, if it is a temporary one.
fn temporary_owner(name: &str) -> Option<u32> {
    if let Some(rest) = name.strip_prefix("tmp-") {
        let mut parts = rest.rsplitn(3, '-');
        let (_nonce, pid, _name) = (parts.next()?, parts.next()?, parts.next()?);
        return pid.parse().ok();
    }
    if name.starts_with("runtime-") || name.starts_with("pch-") {
        let (_, owner) = name.rsplit_once(".tmp")?;
        let (pid, _count) = owner.split_once('-')?;
        return pid.parse().ok();
    }
    None
}

/// Whether process `pid` exists (signal 0 checks without sending; a process
/// of another user answers EPERM, and runs).
fn process_runs(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: kill with signal 0 sends nothing; it only checks the process.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// A directory of the cache made once and shared by every build: `dir` as it
/// is once it is marked READY; otherwise `fill` fills a temporary beside it
/// (`DIR.tmpPID-N`: two builds, in two processes or two threads of one, may
/// fill at once, each its own; [`remove_abandoned`] knows the name), which is
/// marked READY and renamed into place, or dropped if another build got there
/// first. `fill` returns false to keep nothing; the temporary of a failed or
/// empty fill is removed. True when `dir` is ready.
fn shared_dir(
    dir: &Path,
    fill: impl FnOnce(&Path) -> Result<bool, SimError>,
) -> Result<bool, SimError> {
    if dir.join("READY").exists() {
        return Ok(true);
    }
    static FILLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = FILLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.with_extension(format!("tmp{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).map_err(|e| SimError::io(&tmp, e))?;
    match fill(&tmp) {
        Ok(true) => {
            fs::write(tmp.join("READY"), b"ok\n").map_err(|e| SimError::io(&tmp, e))?;
            if fs::rename(&tmp, dir).is_err() {
                // Another build got there first: use its directory.
                let _ = fs::remove_dir_all(&tmp);
            }
            Ok(true)
        }
        other => {
            let _ = fs::remove_dir_all(&tmp);
            other
        }
    }
}

/// Takes one of the build slots (`<cache>/build-N.lock`, one per core), waiting
/// for one to be free; the slot is held until the returned file is dropped.
fn build_slot(cache: &Path) -> Result<File, SimError> {
    let slots = std::thread::available_parallelism().map_or(1, |n| n.get());
    let paths: Vec<PathBuf> = (0..slots)
        .map(|i| cache.join(format!("build-{i}.lock")))
        .collect();
    let mut files = paths
        .iter()
        .map(|path| File::create(path).map_err(|e| SimError::io(path, e)))
        .collect::<Result<Vec<File>, SimError>>()?;
    loop {
        for (i, file) in files.iter().enumerate() {
            match file.try_lock() {
                Ok(()) => return Ok(files.swap_remove(i)),
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(e)) => return Err(SimError::io(&paths[i], e)),
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// One model build.
struct Job<'a> {
    cache: &'a Path,
    name: &'a str,
    verilog: &'a str,
    shim: &'a str,
    args: &'a [String],
    opts: &'a ModelOptions,
    ports: &'a [Port],
    version: &'a str,
    compiler: &'a str,
    include: &'a Path,
}

/// A model's C++ sources: (fast path, slow path, runtime files).
type ClassLists = (Vec<PathBuf>, Vec<PathBuf>, Vec<String>);

/// The model's sources from `Vtop_classes.mk`: (fast path, slow path, runtime).
fn class_lists(obj: &Path) -> Result<ClassLists, SimError> {
    let mk = obj.join("Vtop_classes.mk");
    let text = fs::read_to_string(&mk).map_err(|e| SimError::io(&mk, e))?;
    let (mut fast, mut slow, mut global) = (Vec::new(), Vec::new(), Vec::new());
    let mut list: Option<u8> = None;
    for line in text.lines() {
        let t = line.trim();
        let head = t.split_whitespace().next().unwrap_or("");
        match head {
            "VM_CLASSES_FAST" | "VM_SUPPORT_FAST" => list = Some(0),
            "VM_CLASSES_SLOW" | "VM_SUPPORT_SLOW" => list = Some(1),
            "VM_GLOBAL_FAST" | "VM_GLOBAL_SLOW" => list = Some(2),
            _ if t.is_empty() || t.starts_with('#') || head.starts_with("VM_") => list = None,
            _ => {
                let file = t.trim_end_matches('\\').trim();
                if file.is_empty() {
                    continue;
                }
                match list {
                    Some(0) => fast.push(obj.join(format!("{file}.cpp"))),
                    Some(1) => slow.push(obj.join(format!("{file}.cpp"))),
                    Some(2) => global.push(file.to_string()),
                    _ => {}
                }
            }
        }
    }
    if fast.is_empty() || global.is_empty() {
        return Err(SimError::Build(format!(
            "{} lists no model or runtime sources",
            mk.display()
        )));
    }
    Ok((fast, slow, global))
}

/// Writes `obj/name`, a file that includes `files` (and `extra`) in order, and
/// returns it as the one file to compile; nothing when there is nothing to include.
fn unity(
    obj: &Path,
    name: &str,
    files: &[PathBuf],
    extra: Option<&Path>,
) -> Result<Vec<PathBuf>, SimError> {
    let all: Vec<&Path> = files.iter().map(PathBuf::as_path).chain(extra).collect();
    if all.is_empty() {
        return Ok(Vec::new());
    }
    // verilated.h first, so that its precompiled form can stand for it
    // (a precompiled header is used only before the unit's first token).
    let mut text = String::from("#include \"verilated.h\"\n");
    for f in all {
        text.push_str(&format!("#include \"{}\"\n", f.display()));
    }
    let path = obj.join(name);
    fs::write(&path, text).map_err(|e| SimError::io(&path, e))?;
    Ok(vec![path])
}

/// Collects what `cc` reports (commands and compiler messages) for the build log.
struct LogSink(Mutex<Vec<String>>);

impl cc::BuildMessageLogger for LogSink {
    fn log(
        &self,
        kind: cc::BuildMessageKind,
        msg: cc::BuildMessage<'_>,
        extra: &dyn std::any::Any,
    ) {
        let mut line = format!("{kind:?}: {msg}");
        if let Some(cmd) = extra.downcast_ref::<Command>() {
            line += &format!(
                " [{} {}]",
                cmd.get_program().to_string_lossy(),
                cmd.get_args()
                    .map(|a| a.to_string_lossy())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(line);
    }
}

impl Job<'_> {
    fn build_into(&self, dir: &Path) -> Result<(), SimError> {
        let nonce = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let tmp = self
            .cache
            .join(format!("tmp-{}-{}-{nonce}", self.name, std::process::id()));
        fs::create_dir_all(&tmp).map_err(|e| SimError::io(&tmp, e))?;
        let write = |file: &str, text: &str| -> Result<(), SimError> {
            let p = tmp.join(file);
            fs::write(&p, text).map_err(|e| SimError::io(&p, e))
        };
        write("top.v", self.verilog)?;
        write("shim.cpp", self.shim)?;
        for (name, text) in &self.opts.extra_sources {
            write(name, text)?;
        }
        let log_path = tmp.join("build.log");
        let mut log = File::create(&log_path).map_err(|e| SimError::io(&log_path, e))?;
        let started = Instant::now();
        let result = self.compile(&tmp, &mut log);
        let seconds = started.elapsed().as_secs_f64();
        let _ = writeln!(log, "# total {seconds:.1} s");
        drop(log);
        let (verilate_seconds, cpp_seconds) = match result {
            Ok(t) => t,
            Err(e) => {
                let text = fs::read_to_string(&log_path).unwrap_or_default();
                let tail: Vec<&str> = text.lines().rev().take(25).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                // Keep the failed directory for inspection under a recognisable name.
                let failed = self.cache.join(format!("failed-{}", self.name));
                let _ = fs::remove_dir_all(&failed);
                let _ = fs::rename(&tmp, &failed);
                return Err(SimError::Build(format!(
                    "{e}; log: {}\n{}",
                    failed.join("build.log").display(),
                    tail.join("\n")
                )));
            }
        };
        // Objects are only needed to link; keep sources and the log for debugging.
        let _ = fs::remove_dir_all(tmp.join("objects"));
        let meta = serde_json::json!({
            "verilator": self.version,
            "compiler": self.compiler,
            "shim_version": SHIM_VERSION,
            "args": self.args,
            "opt": format!("{:?}", self.opts.opt),
            "sources": std::iter::once("top.v".to_string()).chain(self.opts.extra_sources.iter().map(|(n, _)| n.clone())).collect::<Vec<_>>(),
            "build_seconds": seconds,
            "verilate_seconds": verilate_seconds,
            "cpp_seconds": cpp_seconds,
            "ports": self.ports.iter().map(|p| serde_json::json!({"name": p.name, "width": p.width, "direction": format!("{:?}", p.direction)})).collect::<Vec<_>>(),
        });
        write(
            "meta.json",
            &serde_json::to_string_pretty(&meta).unwrap_or_default(),
        )?;
        let ready = tmp.join("READY");
        let mut f = File::create(&ready).map_err(|e| SimError::io(&ready, e))?;
        let _ = f.write_all(b"ok\n");
        let _ = f.sync_all();
        fs::rename(&tmp, dir).map_err(|e| SimError::io(dir, e))?;
        Ok(())
    }

    /// Verilator, then the C++ (model, shim, runtime) and the link. Returns
    /// the seconds of both halves.
    fn compile(&self, tmp: &Path, log: &mut File) -> Result<(f64, f64), SimError> {
        let t0 = Instant::now();
        let mut sources = vec!["top.v".to_string()];
        sources.extend(self.opts.extra_sources.iter().map(|(n, _)| n.clone()));
        let _ = writeln!(
            log,
            "# {} {} --Mdir obj {}",
            verilator_program(),
            self.args.join(" "),
            sources.join(" ")
        );
        let _ = log.flush();
        let status = Command::new(verilator_program())
            .current_dir(tmp)
            .args(self.args)
            .args(["--Mdir", "obj"])
            .args(&sources)
            .stdout(log.try_clone().map_err(|e| SimError::io(tmp, e))?)
            .stderr(log.try_clone().map_err(|e| SimError::io(tmp, e))?)
            .status()
            .map_err(|e| {
                SimError::VerilatorMissing(format!(
                    "cannot run `{}` ({e}); {INSTALL_HINT}",
                    verilator_program()
                ))
            })?;
        if !status.success() {
            return Err(SimError::Build(format!("verilator exited with {status}")));
        }
        let verilate = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        let obj = tmp.join("obj");
        let (fast, slow, global) = class_lists(&obj)?;
        let runtime = self.runtime(&global, log)?;
        let sink = Arc::new(LogSink(Mutex::new(Vec::new())));
        let objects = tmp.join("objects");
        let build = |opt: &str, sub: &str, files: Vec<PathBuf>| -> Result<Vec<PathBuf>, SimError> {
            if files.is_empty() {
                return Ok(Vec::new());
            }
            let out = objects.join(sub);
            fs::create_dir_all(&out).map_err(|e| SimError::io(&out, e))?;
            // Without it the unit parses verilated.h itself: slower, the same object.
            let pch = match self.precompiled_header(opt) {
                Ok(p) => p,
                Err(e) => {
                    let mut lines = sink.0.lock().unwrap_or_else(|e| e.into_inner());
                    lines.push(format!("# precompiled header not used: {e}"));
                    None
                }
            };
            let mut b = cc_build(
                opt,
                self.include,
                &obj,
                &out,
                self.opts.trace,
                pch.as_deref(),
            );
            b.message_logger(Some(sink.clone() as Arc<dyn cc::BuildMessageLogger>));
            b.files(files);
            b.try_compile_intermediates()
                .map_err(|e| SimError::Build(format!("C++ compile failed: {e}")))
        };
        // One translation unit per optimisation level, as Verilator's own
        // make does with VM_PARALLEL_BUILDS=0 (its `__ALL.cpp`): every file
        // parses verilated.h again, and for the small models of most tests that
        // parse is most of the compile (measured: 3.2 CPU seconds for the two
        // units of a k = 4, b = 12 core against 7.8 for its eight files).
        let fast_files = unity(
            &obj,
            "bloom_fast_all.cpp",
            &fast,
            Some(&tmp.join("shim.cpp")),
        )?;
        let slow = unity(&obj, "bloom_slow_all.cpp", &slow, None)?;
        // The two units side by side.
        let (fast_objs, slow_objs) = std::thread::scope(|s| {
            let f = s.spawn(|| build(self.opts.opt.fast, "fast", fast_files));
            let sl = build(self.opts.opt.slow, "slow", slow);
            (
                f.join().unwrap_or_else(|_| {
                    Err(SimError::Build("the C++ compile thread panicked".into()))
                }),
                sl,
            )
        });
        for line in sink.0.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let _ = writeln!(log, "{line}");
        }
        let mut all = fast_objs?;
        all.extend(slow_objs?);
        all.extend(runtime);
        let lib = tmp.join("libbloomsim.so");
        self.link(&all, &lib, &obj, log)?;
        Ok((verilate, t1.elapsed().as_secs_f64()))
    }

    fn link(
        &self,
        objects: &[PathBuf],
        lib: &Path,
        obj: &Path,
        log: &mut File,
    ) -> Result<(), SimError> {
        let tool = cc_build("1", self.include, obj, obj, self.opts.trace, None)
            .try_get_compiler()
            .map_err(|e| SimError::Build(format!("no C++ compiler: {e}")))?;
        let mut cmd = tool.to_command();
        cmd.arg("-shared")
            .arg("-Wl,-Bsymbolic")
            .args(objects)
            .arg("-o")
            .arg(lib)
            .args(["-pthread", "-lpthread", "-latomic"]);
        let _ = writeln!(log, "# link: {:?}", cmd);
        let out = cmd.output().map_err(|e| {
            SimError::Build(format!(
                "cannot run the linker {}: {e}",
                tool.path().display()
            ))
        })?;
        let _ = log.write_all(&out.stdout);
        let _ = log.write_all(&out.stderr);
        if !out.status.success() || !lib.exists() {
            return Err(SimError::Build(format!(
                "linking {} failed ({})",
                lib.display(),
                out.status
            )));
        }
        Ok(())
    }

    /// `verilated.h` precompiled at the optimisation level `opt`: the directory
    /// holding a copy of the header and its precompiled form
    /// (`verilated.h.gch`), built once per Verilator, compiler, level and
    /// tracing in `<cache>/pch-<hash>/`. Searched before Verilator's own
    /// directory, GCC takes the precompiled form for the unit's first include
    /// (the flags are the units' own, so it is valid for them), and the copy
    /// for every later one (where the include guard stops it). Every unit
    /// parses verilated.h, and for a small model that parse is most of its
    /// compile: the fast unit of a k = 4, b = 12 core compiled in 2.2 s
    /// without and 1.35 s with it. `Ok(None)` for a compiler other than GCC,
    /// whose units then parse the header as before.
    fn precompiled_header(&self, opt: &str) -> Result<Option<PathBuf>, SimError> {
        let trace = self.opts.trace;
        let key = hash128(&[
            self.version.as_bytes(),
            self.compiler.as_bytes(),
            opt.as_bytes(),
            &[trace as u8],
        ]);
        let dir = self.cache.join(format!("pch-{key:032x}"));
        let ready = shared_dir(&dir, |tmp| {
            let tool = cc_build(opt, self.include, tmp, tmp, trace, None)
                .try_get_compiler()
                .map_err(|e| SimError::Build(format!("no C++ compiler: {e}")))?;
            if !tool.is_like_gnu() || tool.is_like_clang() {
                return Ok(false);
            }
            let header = tmp.join("verilated.h");
            fs::copy(self.include.join("verilated.h"), &header)
                .map_err(|e| SimError::io(&header, e))?;
            let out = tool
                .to_command()
                .args(["-x", "c++-header"])
                .arg(&header)
                .arg("-o")
                .arg(tmp.join("verilated.h.gch"))
                .output()
                .map_err(|e| {
                    SimError::Build(format!("cannot run {}: {e}", tool.path().display()))
                })?;
            if !out.status.success() {
                return Err(SimError::Build(format!(
                    "precompiling verilated.h failed ({}): {}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                )));
            }
            Ok(true)
        })?;
        Ok(ready.then_some(dir))
    }

    /// Verilator's runtime objects (verilated.cpp, verilated_threads.cpp, and
    /// the VCD writer when tracing), compiled once per Verilator, compiler,
    /// flags and file list, and kept in `<cache>/runtime-<hash>/`.
    fn runtime(&self, files: &[String], log: &mut File) -> Result<Vec<PathBuf>, SimError> {
        let list = files.join(",");
        let opt = self.opts.opt.global;
        let key = hash128(&[
            self.version.as_bytes(),
            self.compiler.as_bytes(),
            list.as_bytes(),
            opt.as_bytes(),
            &[self.opts.trace as u8],
        ]);
        let dir = self.cache.join(format!("runtime-{key:032x}"));
        let objects = |d: &Path| -> Vec<PathBuf> {
            let mut v: Vec<PathBuf> = fs::read_dir(d)
                .map(|r| {
                    r.flatten()
                        .map(|e| e.path())
                        .filter(|p| p.extension().is_some_and(|x| x == "o"))
                        .collect()
                })
                .unwrap_or_default();
            v.sort();
            v
        };
        let mut compiled_now = false;
        shared_dir(&dir, |tmp| {
            let t = Instant::now();
            let sources: Vec<PathBuf> = files
                .iter()
                .map(|f| self.include.join(format!("{f}.cpp")))
                .collect();
            let compiled = cc_build(opt, self.include, tmp, tmp, self.opts.trace, None)
                .files(&sources)
                .try_compile_intermediates()
                .map_err(|e| {
                    SimError::Build(format!("compiling Verilator's runtime failed: {e}"))
                })?;
            let _ = writeln!(
                log,
                "# runtime: {} compiled in {:.1} s",
                list,
                t.elapsed().as_secs_f64()
            );
            // cc names objects after a hash of their path: keep them flat in the directory.
            for o in &compiled {
                if o.parent() != Some(tmp) {
                    if let Some(n) = o.file_name() {
                        fs::rename(o, tmp.join(n)).map_err(|e| SimError::io(o, e))?;
                    }
                }
            }
            compiled_now = true;
            Ok(true)
        })?;
        if !compiled_now {
            let _ = writeln!(log, "# runtime: cached {}", dir.display());
        }
        let found = objects(&dir);
        if found.len() != files.len() {
            return Err(SimError::Build(format!(
                "{} holds {} runtime objects, expected {}",
                dir.display(),
                found.len(),
                files.len()
            )));
        }
        Ok(found)
    }
}

/// The build times recorded in this cached model's metadata: (total,
/// Verilator, C++ and link) seconds.
pub fn recorded_build_seconds(lib: &ModelLibrary) -> Option<(f64, f64, f64)> {
    let meta = lib.path().parent()?.join("meta.json");
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(meta).ok()?).ok()?;
    Some((
        v["build_seconds"].as_f64()?,
        v["verilate_seconds"].as_f64()?,
        v["cpp_seconds"].as_f64()?,
    ))
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

    #[test]
    fn class_lists_read_verilators_make_include() {
        let dir = std::env::temp_dir().join(format!("bloom-classes-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("Vtop_classes.mk"),
            "VM_PARALLEL_BUILDS = 0\nVM_CLASSES_FAST += \\\n\tVtop \\\n\tVtop___024root__DepSet_h1__0 \\\n\n\
             VM_CLASSES_SLOW += \\\n\tVtop___024root__Slow \\\n\nVM_SUPPORT_FAST += \\\n\n\
             VM_SUPPORT_SLOW += \\\n\tVtop__Syms \\\n\nVM_GLOBAL_FAST += \\\n\tverilated \\\n\tverilated_threads \\\n\nVM_GLOBAL_SLOW += \\\n\n",
        )
        .unwrap();
        let (fast, slow, global) = class_lists(&dir).unwrap();
        let names = |v: &[PathBuf]| {
            v.iter()
                .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(&fast),
            ["Vtop.cpp", "Vtop___024root__DepSet_h1__0.cpp"]
        );
        assert_eq!(names(&slow), ["Vtop___024root__Slow.cpp", "Vtop__Syms.cpp"]);
        assert_eq!(global, ["verilated", "verilated_threads"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporary_owners_are_read_from_the_names_builds_give() {
        assert_eq!(
            temporary_owner("tmp-bloom_core-0123abcd-trace-20308-1795965489667911491"),
            Some(20308)
        );
        assert_eq!(temporary_owner("tmp-tiny_counter-ff-77-12"), Some(77));
        assert_eq!(temporary_owner("runtime-00ff.tmp4242-3"), Some(4242));
        assert_eq!(temporary_owner("pch-00ff.tmp9-0"), Some(9));
        for kept in [
            "bloom_core-0123abcd",
            "bloom_core-0123abcd.lock",
            "failed-bloom_core-0123abcd",
            "runtime-00ff",
            "pch-00ff",
            "build-0.lock",
            "tmp-x",
        ] {
            assert_eq!(temporary_owner(kept), None, "{kept}");
        }
    }

    /// A build's temporary whose process has ended is removed; one of a
    /// running process (this one, a child still running) and finished models
    /// are kept.
    #[test]
    fn abandoned_temporaries_are_removed_and_live_ones_kept() {
        let cache = std::env::temp_dir().join(format!("bloom-abandoned-{}", std::process::id()));
        let _ = fs::remove_dir_all(&cache);
        fs::create_dir_all(&cache).unwrap();
        let mut ended = Command::new("true").spawn().unwrap();
        let ended_pid = ended.id();
        ended.wait().unwrap();
        let mut running = Command::new("sleep").arg("30").spawn().unwrap();
        let dirs = [
            (format!("tmp-bloom_core-00-trace-{ended_pid}-1"), false),
            (format!("runtime-00.tmp{ended_pid}-0"), false),
            (format!("pch-00.tmp{ended_pid}-0"), false),
            (format!("tmp-bloom_core-00-{}-1", std::process::id()), true),
            (format!("tmp-bloom_core-00-{}-1", running.id()), true),
            ("bloom_core-00".to_string(), true),
            ("failed-bloom_core-00".to_string(), true),
        ];
        for (d, _) in &dirs {
            fs::create_dir_all(cache.join(d)).unwrap();
        }
        remove_abandoned(&cache);
        let _ = running.kill();
        let _ = running.wait();
        for (d, kept) in &dirs {
            assert_eq!(cache.join(d).exists(), *kept, "{d}");
        }
        fs::remove_dir_all(&cache).unwrap();
    }

    /// The precompiled verilated.h is built, and GCC takes it for a unit
    /// compiled with the model units' flags (`-H` marks a valid one `!`, a
    /// rejected one `x`), at both levels a model uses and with tracing.
    #[test]
    fn precompiled_header_is_valid_for_the_units_flags() {
        let include = verilator_include().unwrap();
        let version = verilator_version().unwrap();
        let compiler = compiler_identity(&include).unwrap();
        let cache = std::env::temp_dir().join(format!("bloom-pch-{}", std::process::id()));
        let _ = fs::remove_dir_all(&cache);
        fs::create_dir_all(&cache).unwrap();
        let unit = cache.join("unit.cpp");
        fs::write(
            &unit,
            "#include \"verilated.h\"\nint unit_marker() { return 1; }\n",
        )
        .unwrap();
        for (opt, trace) in [("3", false), ("1", false), ("1", true)] {
            let opts = ModelOptions {
                trace,
                ..ModelOptions::default()
            };
            let job = Job {
                cache: &cache,
                name: "pch-test",
                verilog: "",
                shim: "",
                args: &[],
                opts: &opts,
                ports: &[],
                version: &version,
                compiler: &compiler,
                include: &include,
            };
            let dir = job
                .precompiled_header(opt)
                .unwrap()
                .expect("GCC, as scripts/setup.sh installs it");
            let gch = dir.join("verilated.h.gch");
            assert!(gch.exists(), "{}", gch.display());
            let tool = cc_build(opt, &include, &cache, &cache, trace, Some(&dir))
                .try_get_compiler()
                .unwrap();
            let out = tool
                .to_command()
                .arg("-H")
                .arg("-c")
                .arg(&unit)
                .arg("-o")
                .arg(cache.join("unit.o"))
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{stderr}");
            let first = stderr.lines().next().unwrap_or("");
            assert_eq!(
                first,
                format!("! {}", gch.display()),
                "-O{opt}, trace {trace}: the unit did not take the precompiled header:\n{stderr}"
            );
        }
        fs::remove_dir_all(&cache).unwrap();
    }
}
