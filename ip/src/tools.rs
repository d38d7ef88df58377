//! The third-party tools the IP package's tests run (Icarus Verilog,
//! Verilator, cocotb, FuseSoC and PeakRDL from the project's Python
//! environment), and a cache of their runs keyed by content.
//!
//! Python tools live in the virtual environment `scripts/setup.sh` creates
//! from scripts/requirements.txt: `$BLOOM_VENV`, else `.venv` at the root of
//! the repository. A missing tool is an error that says how to install it.
//!
//! Cache: a run whose inputs (every file it reads, its command line and the
//! versions of the tools) hash to the key of an earlier successful run is not
//! repeated; its recorded output is returned instead. Only successful runs are
//! recorded, so a failure is always a real run. The cache is
//! `$BLOOM_TOOL_CACHE`, else `target/tool-cache`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root (this crate's parent).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("ip/ is inside the repository")
        .to_path_buf()
}

/// The project's Python environment.
pub fn venv() -> PathBuf {
    std::env::var_os("BLOOM_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join(".venv"))
}

/// A program of the Python environment (`python`, `fusesoc`, `peakrdl`), or
/// an error saying how to install it.
pub fn venv_tool(name: &str) -> Result<PathBuf, String> {
    let path = venv().join("bin").join(name);
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "`{}` is missing: run scripts/setup.sh, which installs the pinned Python tools of scripts/requirements.txt into {}",
            path.display(),
            venv().display()
        ))
    }
}

/// A program on PATH, or an error saying how to install it.
pub fn system_tool(name: &str, install: &str) -> Result<PathBuf, String> {
    std::env::var_os("PATH")
        .and_then(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        })
        .ok_or_else(|| format!("`{name}` is not installed; {install} (or run scripts/setup.sh)"))
}

/// The first line a tool prints for `args` (its version), or an error.
pub fn version_of(program: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    Ok(text.lines().next().unwrap_or("").trim().to_string())
}

/// Where recorded runs are kept.
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("BLOOM_TOOL_CACHE") {
        return PathBuf::from(d);
    }
    repo_root().join("target").join("tool-cache")
}

/// FNV-1a over length-prefixed parts, twice with different offsets: 128 bits.
pub fn content_hash(parts: &[&[u8]]) -> String {
    let mut out = String::new();
    for offset in [0xcbf29ce484222325u64, 0x84222325cbf29ce4u64] {
        let mut h = offset;
        for part in parts {
            for &b in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
                h ^= b as u64;
                h = h.wrapping_mul(0x100000001b3);
            }
        }
        out += &format!("{h:016x}");
    }
    out
}

/// Every regular file under `dir` (sorted, relative paths with their bytes),
/// for a cache key.
pub fn tree_contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let path = e.path();
            if path.is_dir() {
                walk(base, &path, out);
            } else if let Ok(bytes) = std::fs::read(&path) {
                out.push((
                    path.strip_prefix(base)
                        .unwrap_or(&path)
                        .display()
                        .to_string(),
                    bytes,
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out
}

/// A run's outcome: exit status (None: killed by a signal), what it printed,
/// and whether it was replayed from the cache.
#[derive(Clone, Debug)]
pub struct RunOutput {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub cached: bool,
}

impl RunOutput {
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }

    pub fn text(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs `cmd` unless a successful run with the same `key` is recorded under
/// `name`; records it if it succeeds.
pub fn run_cached(name: &str, key: &str, cmd: &mut Command) -> Result<RunOutput, String> {
    let dir = cache_dir().join(format!("{name}-{key}"));
    if let (Ok(stdout), Ok(stderr)) = (
        std::fs::read_to_string(dir.join("stdout")),
        std::fs::read_to_string(dir.join("stderr")),
    ) {
        return Ok(RunOutput {
            code: Some(0),
            stdout,
            stderr,
            cached: true,
        });
    }
    let out = run(cmd)?;
    if out.success() {
        let tmp = cache_dir().join(format!(".{name}-{key}.tmp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        if std::fs::create_dir_all(&tmp).is_ok()
            && std::fs::write(tmp.join("stdout"), &out.stdout).is_ok()
            && std::fs::write(tmp.join("stderr"), &out.stderr).is_ok()
        {
            // Another process may have recorded the same run meanwhile: either copy will do.
            if std::fs::rename(&tmp, &dir).is_err() {
                let _ = std::fs::remove_dir_all(&tmp);
            }
        }
    }
    Ok(out)
}

/// Runs `cmd` and collects its output.
pub fn run(cmd: &mut Command) -> Result<RunOutput, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    Ok(RunOutput {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        cached: false,
    })
}
