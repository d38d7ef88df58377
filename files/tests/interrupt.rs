//! SIGINT and SIGTERM remove every registered temporary, an output directory (what
//! `image build`, `export`, `vectors` and `host dump` write through) and an output
//! file alike, and end the process by the signal; nothing else in the directory is
//! touched. The test runs this very program as the child it interrupts: with the
//! argument `child DIR`, it installs the handling, opens an `OutputDir` and an
//! `OutputFile` in DIR, says `ready` and waits.

use std::io::{BufRead, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};

fn child(dir: &Path) -> ! {
    bloom_files::interrupt::install();
    let out = bloom_files::OutputDir::create(&dir.join("image")).unwrap();
    out.write(&bloom_files::DirEntry {
        path: Path::new("bank00.hex"),
        contents: b"0\n1\n",
        executable: false,
    })
    .unwrap();
    let mut file = bloom_files::OutputFile::create(&dir.join("plot.svg")).unwrap();
    file.write_all(b"<svg/>").unwrap();
    println!("ready");
    std::io::stdout().flush().unwrap();
    std::thread::sleep(std::time::Duration::from_secs(120));
    unreachable!("the test kills this process")
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // cargo-nextest lists a test binary's tests with `--list --format terse` (and again
    // with `--ignored`), then runs each by its name: this binary is the one test
    // `interrupt`, run by any other arguments.
    if args.iter().any(|a| a == "--list") {
        if !args.iter().any(|a| a == "--ignored") {
            println!("interrupt: test");
        }
        return;
    }
    if args.len() == 3 && args[1] == "child" {
        child(Path::new(&args[2]));
    }
    let base = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("files-interrupt-{}", std::process::id()));
    let mut passed = 0;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let dir = base.join(signal.to_string());
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("mine.txt"), "a user's file").unwrap();
        let mut c = Command::new(std::env::current_exe().unwrap())
            .args(["child", dir.to_str().unwrap()])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(c.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready");
        let during = names(&dir);
        assert_eq!(
            during.len(),
            3,
            "the two temporaries and the user's file: {during:?}"
        );
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(c.id() as i32, signal) };
        let status = c.wait().unwrap();
        assert_eq!(status.signal(), Some(signal), "signal {signal}: {status}");
        assert_eq!(
            names(&dir),
            ["mine.txt"],
            "signal {signal}: temporaries left"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("mine.txt")).unwrap(),
            "a user's file"
        );
        println!("test interrupt by signal {signal} ... ok (temporaries {during:?} removed)");
        passed += 1;
    }
    let _ = std::fs::remove_dir_all(&base);
    println!("{passed} passed, 0 failed");
}
