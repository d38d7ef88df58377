//! `bloom host`: talk to a filter on a board over its UART bridge, or to the
//! Verilated board top (`--sim`), with the protocol of docs/protocol.md; or
//! serve the Verilated board top on a pseudo-terminal (`--sim serve`) for any
//! serial client, `bloom host --port` included.

use crate::cli::config::{CoreArgs, ScrubArgs};
use anyhow::{bail, Context};
use host::{Client, ClientOptions, SimBoard, Transport};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Serial port of the board (e.g. /dev/ttyUSB1); this or --sim.
    #[arg(long, conflicts_with = "sim")]
    pub port: Option<String>,
    /// Run the board top (bridge + core of --k/--bank-bits/...) in Verilator
    /// instead; it starts empty (or from --preload) on every run, or, with
    /// `serve`, once for as long as it serves.
    #[arg(long)]
    pub sim: bool,
    /// Line rate; must match the bitstream (bloom build --baud). 300 ..= 12000000
    /// (the boards' USB UARTs: FT2232H up to 12 Mbaud, FT231X up to 3 Mbaud).
    #[arg(long, default_value_t = hdl::bridge::DEFAULT_BAUD,
          value_parser = clap::value_parser!(u32).range(hdl::bridge::MIN_BAUD as i64..=hdl::bridge::MAX_BAUD as i64))]
    pub baud: u32,
    /// With --port: refuse a device whose configuration differs from
    /// --k/--bank-bits/--key-bits/--hash/--seed.
    #[arg(long)]
    pub expect_config: bool,
    /// Tries per frame before giving up on the device.
    #[arg(long, default_value_t = 8)]
    pub tries: u32,
    /// With --port: milliseconds each wait for an answer allows beyond its
    /// line time, 1 ..= 60000 (a USB UART delivers in bursts, its latency
    /// timer: 1-16 ms). A longer wait makes a lost frame cost more before
    /// its resend; it never changes what is executed. [default: 20]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub latency_ms: Option<u64>,
    /// The board's truncation timeout in bit times (docs/protocol.md §4).
    #[arg(long, default_value_t = 2000)]
    pub board_timeout_bits: u32,
    /// With --sim: clock cycles per bit of the simulated board, 4 ..= 65535
    /// (what the bridge's divider makes), the clock (--baud times it) at
    /// most 1 GHz. A board's build report gives its own: `bloom build`
    /// prints "N clocks per bit". More cycles per bit simulate more slowly.
    #[arg(long, default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(hdl::bridge::MIN_CLOCKS_PER_BIT as i64..=65535))]
    pub sim_clocks_per_bit: u32,
    /// With --sim: memory image (contract §4) the simulated core starts from.
    #[arg(long)]
    pub preload: Option<PathBuf>,
    /// With --sim: what is simulated: `rtl` (the board top's generated
    /// Verilog), `ice40` / `ecp5` (its netlist after Yosys synth_ice40 /
    /// synth_ecp5, with the family's cell models), `ice40-routed` (placed,
    /// routed and packed by nextpnr and icepack on an HX8K, read back from the
    /// bitstream). Netlists are cached by content.
    #[arg(long, default_value = "rtl", value_parser = |s: &str| s.parse::<sim::NetlistKind>())]
    pub netlist: sim::NetlistKind,
    #[command(flatten)]
    pub core: CoreArgs,
    /// With --sim: the simulated board's scrub (as `bloom build --scrub`).
    #[command(flatten)]
    pub scrub: ScrubArgs,
    /// With --sim --scrub: flip the bit at ADDR of bank BANK of the simulated board
    /// (a counting board: the low bit of the counter) before the command, with no
    /// operation: a soft error, which `scrub` then reports. BANK:ADDR, repeatable.
    #[arg(long, value_name = "BANK:ADDR", value_parser = parse_soft_error)]
    pub soft_error: Vec<(usize, usize)>,
    #[command(subcommand)]
    pub command: HostCommand,
}

/// `BANK:ADDR` of --soft-error (decimal numbers; checked against the board once built).
fn parse_soft_error(text: &str) -> Result<(usize, usize), String> {
    let (bank, addr) = text
        .split_once(':')
        .ok_or_else(|| format!("{text:?} is not BANK:ADDR (e.g. 2:100)"))?;
    let number = |t: &str, what: &str| {
        t.parse::<usize>()
            .map_err(|_| format!("{text:?}: {what} {t:?} is not a decimal number"))
    };
    Ok((number(bank, "bank")?, number(addr, "address")?))
}

#[derive(clap::Subcommand)]
pub enum HostCommand {
    /// Insert keys (decimal or 0x-hex); prints each key's hit (1 = was already present).
    Insert {
        #[arg(required = true, allow_negative_numbers = true)]
        keys: Vec<String>,
    },
    /// Query keys; prints each key and 1 (maybe present) or 0 (absent).
    Query {
        #[arg(required = true, allow_negative_numbers = true)]
        keys: Vec<String>,
    },
    /// Delete keys from a counting board (--counter-bits 2..=8; contract §7.2); prints
    /// each key and 1 (it was present: its counters went down) or 0 (absent: nothing changed).
    /// A plain board (counter bits 1) cannot delete: refused, nothing sent.
    Delete {
        #[arg(required = true, allow_negative_numbers = true)]
        keys: Vec<String>,
    },
    /// Delete every key of FILE (`-` = stdin) from a counting board, in order, in
    /// batches; prints each key and its answer (1 = was present and deleted).
    DeleteKeys { file: PathBuf },
    /// Clear every bank.
    Clear,
    /// Configuration, counters, fill, estimated items and false-positive rate; a
    /// counting board's saturated counters per bank.
    Stats,
    /// Read the whole memory into an image directory, which must not exist or be
    /// empty: a plain board's bits (contract §4), a counting board's counters
    /// (contract §7.6; `bloom image plain` converts it to the 0-1 projection).
    Dump { dir: PathBuf },
    /// Insert every key of FILE (`-` = stdin; one key per line, decimal or 0x-hex, `#`
    /// comments; docs/contract.md §2.1).
    LoadKeys { file: PathBuf },
    /// Query every key of FILE (`-` = stdin); prints each key and its answer.
    QueryKeys { file: PathBuf },
    /// Replace the device's whole filter by the memory image in DIR (contract §4;
    /// a counting board's: a counting image, §7.6): every bank written, checked by
    /// its fill (and a counting board's saturated counts), then marked complete.
    LoadImage { dir: PathBuf },
    /// Zero the device's counters (operations, frames executed, rejected, replayed).
    ZeroCounters,
    /// Scrub every bank (docs/contract.md §5.2; a board built with --scrub): request a
    /// scrub, wait until it ends, print each bank's result. Exits non-zero when a bank
    /// mismatches: a bit (counter) changed without an operation, so its answers may be wrong.
    Scrub,
    /// With --sim: serve the simulated board on a pseudo-terminal until stopped
    /// (Ctrl-C, SIGTERM), keeping its state between clients; prints the
    /// device to give `bloom host --port`, pyserial, picocom.
    Serve {
        /// Also make a symbolic link here to the pseudo-terminal (it must not
        /// exist; it is removed when the server stops).
        #[arg(long)]
        link: Option<PathBuf>,
    },
}

/// A key argument (docs/contract.md §2.1); its width is checked against the device's.
fn parse_key(text: &str) -> Result<u128, String> {
    golden::keys::parse_key_arg(text, 128)
}

/// A key to send, with where it came from for messages.
struct KeyText {
    key: u128,
    text: String,
    /// `file:line` for keys from a key file.
    place: Option<String>,
}

fn check_width(k: &KeyText, key_bits: u32) -> Result<(), String> {
    if key_bits < 128 && k.key >> key_bits != 0 {
        let place = k
            .place
            .as_ref()
            .map(|p| format!("{p}: "))
            .unwrap_or_default();
        return Err(format!(
            "{place}key {:?} does not fit in {key_bits} bits",
            k.text
        ));
    }
    Ok(())
}

/// Every key of a key file (`-` = standard input), checked line by line
/// (docs/contract.md §2.1; `key_bits` when the width is already known), before
/// anything is sent to the device.
fn read_keys(file: &Path, key_bits: u32) -> anyhow::Result<Vec<KeyText>> {
    let name = if file.as_os_str() == "-" {
        "stdin".to_string()
    } else {
        file.display().to_string()
    };
    let mut keys = vec![];
    let mut push = |key: u128, text: &[u8], line: u64| {
        keys.push(KeyText {
            key,
            text: String::from_utf8_lossy(text).into_owned(),
            place: Some(format!("{name}:{line}")),
        })
    };
    if file.as_os_str() == "-" {
        golden::keys::read_keys_with_text(std::io::stdin().lock(), "stdin", key_bits, &mut push)?;
    } else {
        let input = bloom_files::open_input(file, "key file")?;
        golden::keys::read_keys_with_text(input, &file.display().to_string(), key_bits, &mut push)?;
    }
    Ok(keys)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.tries == 0 || args.tries > 1000 {
        bail!("--tries {} is not allowed (1 ..= 1000)", args.tries);
    }
    if !(20..=1_000_000).contains(&args.board_timeout_bits) {
        bail!(
            "--board-timeout-bits {} is not allowed (20 ..= 1000000)",
            args.board_timeout_bits
        );
    }
    let expected = args.core.params;
    // Validate every key (syntax, and width when the configuration is known)
    // before touching the device.
    let width = if args.sim || args.expect_config {
        Some(expected.key_bits)
    } else {
        None
    };
    let keys: Vec<KeyText> = match &args.command {
        HostCommand::Insert { keys }
        | HostCommand::Query { keys }
        | HostCommand::Delete { keys } => keys
            .iter()
            .map(|t| {
                parse_key(t).map(|key| KeyText {
                    key,
                    text: t.clone(),
                    place: None,
                })
            })
            .collect::<Result<_, _>>()
            .map_err(anyhow::Error::msg)?,
        HostCommand::LoadKeys { file }
        | HostCommand::QueryKeys { file }
        | HostCommand::DeleteKeys { file } => read_keys(file, width.unwrap_or(128))?,
        _ => vec![],
    };
    if let Some(w) = width {
        for k in &keys {
            check_width(k, w).map_err(anyhow::Error::msg)?;
        }
    }
    // What the board's kind cannot do is refused before it is touched, when its
    // configuration is known (a --port board's is checked once connected).
    if args.sim || args.expect_config {
        let deleting = matches!(
            args.command,
            HostCommand::Delete { .. } | HostCommand::DeleteKeys { .. }
        );
        if deleting && !expected.is_counting() {
            bail!(
                "delete: the board is a plain filter (counter bits 1), which cannot delete a key; \
                 give --counter-bits 2..=8 for a counting filter"
            );
        }
    }
    if let HostCommand::Dump { dir } = &args.command {
        // The image is written only into a new or empty directory (contract §4.4).
        golden::image::check_image_target(dir).context("dump target")?;
    }
    // The whole image is read and checked before the device is touched; its
    // configuration must be the device's (checked once connected).
    let image = match &args.command {
        HostCommand::LoadImage { dir } => Some(
            // Either kind (a plain image reads as counters of 1 bit).
            golden::CountingFilter::import_image(dir)
                .with_context(|| format!("cannot load image {}", dir.display()))?,
        ),
        _ => None,
    };
    if let Some(img) = &image {
        if (args.sim || args.expect_config) && img.config() != &expected {
            bail!(
                "image {} is {}, the device is to be {} ({})",
                match &args.command {
                    HostCommand::LoadImage { dir } => dir.display().to_string(),
                    _ => unreachable!(),
                },
                img.config(),
                expected,
                img.config().differences(&expected)
            );
        }
    }
    if !args.sim && args.port.is_none() && !matches!(args.command, HostCommand::Serve { .. }) {
        bail!("give the board's serial port (--port DEV, e.g. /dev/ttyUSB1) or --sim (the board top in Verilator)");
    }
    if args.preload.is_some() && !args.sim {
        bail!("--preload only applies to --sim");
    }
    if args.latency_ms.is_some() && args.sim {
        bail!("--latency-ms only applies to --port (the simulated board of --sim runs in simulated time)");
    }
    if args.netlist != sim::NetlistKind::Rtl && !args.sim {
        bail!("--netlist only applies to --sim");
    }
    if args.scrub.scrub && !args.sim {
        bail!("--scrub only applies to --sim (a board's scrub is built in: bloom build --scrub)");
    }
    if !args.soft_error.is_empty() {
        if !args.sim || !args.scrub.scrub || args.netlist != sim::NetlistKind::Rtl {
            bail!(
                "--soft-error needs --sim --scrub (and --netlist rtl): the simulated board's banks"
            );
        }
        for &(bank, addr) in &args.soft_error {
            if bank >= expected.k as usize || addr >= expected.bank_size() as usize {
                bail!(
                    "--soft-error {bank}:{addr}: the board has {} banks of {} addresses",
                    expected.k,
                    expected.bank_size()
                );
            }
        }
        if matches!(args.command, HostCommand::Serve { .. }) {
            bail!("--soft-error applies to one command, not to serve");
        }
    }
    if args.sim && !args.scrub.scrub && matches!(args.command, HostCommand::Scrub) {
        bail!(
            "scrub: the simulated board is built without the scrub; give --scrub (as a board's \
             bitstream needs bloom build --scrub)"
        );
    }
    if let HostCommand::Serve { link } = &args.command {
        if !args.sim {
            bail!("serve serves a simulated board: give --sim (and the core options of the board to simulate)");
        }
        if let Some(l) = link {
            if std::fs::symlink_metadata(l).is_ok() {
                bail!(
                    "--link {}: something already exists there; it is never replaced",
                    l.display()
                );
            }
        }
    }
    let opts = ClientOptions {
        max_tries: args.tries,
        board_timeout_bits: args.board_timeout_bits as u64,
        ..ClientOptions::default()
    };
    if args.sim {
        let clock_hz = args.baud as u64 * args.sim_clocks_per_bit as u64;
        if clock_hz > 1_000_000_000 {
            bail!(
                "--sim-clocks-per-bit {} at --baud {} is a {:.1} GHz clock: at most 1 GHz ({} clocks per bit at this baud rate)",
                args.sim_clocks_per_bit,
                args.baud,
                clock_hz as f64 / 1e9,
                1_000_000_000 / args.baud as u64
            );
        }
        if args.sim_clocks_per_bit as u64 * args.board_timeout_bits as u64 > u32::MAX as u64 {
            bail!(
                "--board-timeout-bits {} at {} clocks per bit is more clock cycles than the board's 32-bit timeout counter holds",
                args.board_timeout_bits,
                args.sim_clocks_per_bit
            );
        }
        let core = args.scrub.apply(hdl::CoreConfig {
            preload: args.preload.clone(),
            ..expected.into()
        });
        let board = SimBoard::with_netlist(
            core,
            args.baud,
            args.sim_clocks_per_bit,
            args.board_timeout_bits,
            args.netlist,
        )?;
        if let HostCommand::Serve { link } = &args.command {
            return serve(board, &expected, &args, link.as_deref());
        }
        let mut client = Client::connect(board, opts, Some(&expected))?;
        for &(bank, addr) in &args.soft_error {
            client.transport_mut().soft_error(bank, addr)?;
            eprintln!("soft error: flipped bank {bank} address {addr}");
        }
        execute(client, &args.command, &keys, image.as_ref())
    } else {
        let port = args
            .port
            .as_deref()
            .expect("checked above: --port without --sim");
        let mut line = host::serial::SerialPort::open(port, args.baud)?;
        if let Some(ms) = args.latency_ms {
            line.set_latency(std::time::Duration::from_millis(ms));
        }
        let client = Client::connect(
            line,
            opts,
            if args.expect_config {
                Some(&expected)
            } else {
                None
            },
        )?;
        execute(client, &args.command, &keys, image.as_ref())
    }
}

/// The link `serve --link` made: removed when the server stops (and by a second
/// signal), and only if it is still the link to this server's terminal. The link is
/// made only where nothing is (symlink(2) never replaces), so nothing a user put
/// there is ever removed.
struct LinkGuard {
    link: PathBuf,
    to: PathBuf,
    _registration: bloom_files::interrupt::Registration,
}

impl Drop for LinkGuard {
    fn drop(&mut self) {
        if std::fs::read_link(&self.link).is_ok_and(|to| to == self.to) {
            let _ = std::fs::remove_file(&self.link);
        }
    }
}

fn serve(
    board: SimBoard,
    cfg: &golden::CoreParams,
    args: &Args,
    link: Option<&Path>,
) -> anyhow::Result<()> {
    use std::io::Write;
    let pty = host::pty::Pty::open()?;
    // SIGINT, SIGTERM or SIGHUP stops the server (a second one ends it at once).
    bloom_files::interrupt::stop_gracefully();
    let guard = match link {
        Some(l) => {
            if let Ok(meta) = std::fs::symlink_metadata(l) {
                bail!(
                    "--link {}: {} is there; the link is made only where nothing is",
                    l.display(),
                    bloom_files::describe(&meta)
                );
            }
            let registration = bloom_files::interrupt::register(l, false);
            std::os::unix::fs::symlink(pty.path(), l)
                .with_context(|| format!("cannot make the link {}", l.display()))?;
            Some(LinkGuard {
                link: l.to_path_buf(),
                to: pty.path().to_path_buf(),
                _registration: registration,
            })
        }
        None => None,
    };
    let shown = link.map_or_else(
        || pty.path().display().to_string(),
        |l| l.display().to_string(),
    );
    outln!("serving {} on {}", board.describe(), pty.path().display());
    outln!("core: {cfg}");
    outln!(
        "connect with: bloom host --port {shown} --baud {} --expect-config [core options] stats",
        args.baud
    );
    outln!("stop with Ctrl-C");
    std::io::stdout().flush()?;
    let settle = host::pty::settle_bits(cfg, args.sim_clocks_per_bit, args.board_timeout_bits);
    let board = std::sync::Mutex::new(board);
    let stats = host::pty::serve(&board, &pty, settle, bloom_files::interrupt::stop_flag())?;
    eprintln!(
        "stopped: {} bytes in, {} out ({} not taken by any client), {} bit times simulated",
        stats.bytes_in, stats.bytes_out, stats.bytes_dropped, stats.bit_times
    );
    drop(guard);
    Ok(())
}

fn execute<T: Transport>(
    mut c: Client<T>,
    command: &HostCommand,
    keys: &[KeyText],
    image: Option<&golden::CountingFilter>,
) -> anyhow::Result<()> {
    let w = c.config().key_bits;
    for k in keys {
        check_width(k, w).map_err(|e| anyhow::anyhow!("{e} (the device's key width)"))?;
    }
    let only_keys: Vec<u128> = keys.iter().map(|k| k.key).collect();
    match command {
        HostCommand::Insert { .. } | HostCommand::LoadKeys { .. } => {
            let hits = c.insert_batch(&only_keys)?;
            if matches!(command, HostCommand::Insert { .. }) {
                for (k, h) in keys.iter().zip(&hits) {
                    outln!("{} {}", k.text, *h as u8);
                }
            }
            let already = hits.iter().filter(|h| **h).count();
            eprintln!(
                "inserted {} keys ({} were already present)",
                hits.len(),
                already
            );
        }
        HostCommand::Delete { .. } | HostCommand::DeleteKeys { .. } => {
            let hits = c.delete_batch(&only_keys)?;
            for (k, h) in keys.iter().zip(&hits) {
                outln!("{} {}", k.text, *h as u8);
            }
            let deleted = hits.iter().filter(|h| **h).count();
            eprintln!(
                "deleted {deleted} of {} keys ({} absent: nothing changed)",
                hits.len(),
                hits.len() - deleted
            );
        }
        HostCommand::Query { .. } | HostCommand::QueryKeys { .. } => {
            let hits = c.query_batch(&only_keys)?;
            for (k, h) in keys.iter().zip(&hits) {
                outln!("{} {}", k.text, *h as u8);
            }
            eprintln!(
                "queried {} keys: {} maybe present",
                hits.len(),
                hits.iter().filter(|h| **h).count()
            );
        }
        HostCommand::Clear => {
            c.clear()?;
            outln!("cleared");
        }
        HostCommand::Stats => {
            let s = c.stats()?;
            let bank_size = c.config().bank_size();
            // + 0.0: an empty filter's estimate prints as 0, not -0.
            let items = golden::partitioned::estimated_items_from_fill(&s.fill, bank_size) + 0.0;
            let fpr = golden::partitioned::fpr_estimate_from_fill(&s.fill, bank_size);
            outln!("device: {}", c.transport().describe());
            outln!(
                "config: {}, max batch {} keys",
                c.config(),
                s.config.max_batch
            );
            outln!(
                "ops served: {}, frames executed: {}, rejected: {}, replayed: {}",
                s.ops_served,
                s.frames_executed,
                s.frames_rejected,
                s.frames_replayed
            );
            if s.config.counter_bits > 1 {
                let saturation = (1u32 << s.config.counter_bits) - 1;
                outln!(
                    "fill: {:?} non-zero counters of {} per bank",
                    s.fill,
                    c.config().bank_size()
                );
                outln!(
                    "saturated counters (at {saturation}, never decremented again): {:?} per bank, {} in all",
                    s.saturated,
                    s.saturated.iter().sum::<u32>()
                );
            } else {
                outln!(
                    "fill: {:?} of {} bits per bank",
                    s.fill,
                    c.config().bank_size()
                );
            }
            outln!("estimated items: {items:.1}, false-positive estimate: {fpr:.3e}");
            for line in scrub_lines(&s) {
                outln!("{line}");
            }
            if s.image_incomplete {
                outln!(
                    "image load incomplete: bits were written since the last complete load or clear \
                     (a load-image did not finish); run load-image again or clear"
                );
            }
        }
        HostCommand::LoadImage { dir } => {
            let image = image.expect("read before connecting");
            let start = std::time::Instant::now();
            let (bytes0, line0) = (c.link.bytes_sent, c.transport().simulated_seconds());
            if image.counter_bits().is_counting() {
                c.load_counting_image(image)?;
            } else {
                c.load_image(&image.to_plain())?;
            }
            // A simulated board's time is its line's (what a board at that
            // clock and baud rate takes), not the simulation's wall time.
            let took = match (line0, c.transport().simulated_seconds()) {
                (Some(t0), Some(t1)) => format!(
                    "{:.3} s of line time ({:.3} s simulating)",
                    t1 - t0,
                    start.elapsed().as_secs_f64()
                ),
                _ => format!("{:.3} s", start.elapsed().as_secs_f64()),
            };
            outln!(
                "loaded image {} ({}, fill {:?}) in {took}, {} bytes sent",
                dir.display(),
                c.config(),
                image.fill(),
                c.link.bytes_sent - bytes0
            );
        }
        HostCommand::ZeroCounters => {
            c.zero_counters()?;
            outln!("counters zeroed");
        }
        HostCommand::Scrub => {
            let s = c.scrub()?;
            for p in 0..s.config.k as usize {
                let bad = (s.scrub_mismatch >> p) & 1 == 1;
                outln!(
                    "bank {p}: {}",
                    if bad {
                        "mismatch (its bits changed without an operation)"
                    } else {
                        "ok"
                    }
                );
            }
            let bad = mismatched_banks(s.scrub_mismatch);
            if !bad.is_empty() {
                let l = &c.link;
                eprintln!(
                    "link: {} frames sent ({} resends, {} timeouts, {} error frames)",
                    l.frames_sent, l.resends, l.timeouts, l.error_frames
                );
                bail!(
                    "scrub: bank{} {} mismatch{}: a bit changed without an operation (a soft error), so \
                     queries may answer wrongly; reload the filter (load-image) or clear it and insert again",
                    if bad.len() > 1 { "s" } else { "" },
                    bad.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", "),
                    if bad.len() > 1 { "" } else { "es" },
                );
            }
            outln!("scrub: every bank matches its fill counter");
        }
        HostCommand::Serve { .. } => unreachable!("served before connecting"),
        HostCommand::Dump { dir } => {
            c.dump_image(dir)?;
            if c.config().is_counting() {
                outln!(
                    "wrote counting image (counters of {} bits) of {} to {}",
                    c.config().counter_bits,
                    c.config(),
                    dir.display()
                );
            } else {
                outln!("wrote image of {} to {}", c.config(), dir.display());
            }
        }
    }
    let l = &c.link;
    eprintln!(
        "link: {} frames sent ({} resends, {} timeouts, {} error frames)",
        l.frames_sent, l.resends, l.timeouts, l.error_frames
    );
    Ok(())
}

/// The banks whose bit is set in a mismatch word.
fn mismatched_banks(bits: u16) -> Vec<usize> {
    (0..16).filter(|p| (bits >> p) & 1 == 1).collect()
}

/// What the stats say of the scrub (docs/protocol.md §5).
fn scrub_lines(s: &host::DeviceStats) -> Vec<String> {
    let c = &s.config;
    if !c.scrub {
        return vec!["scrub: not built (bloom build --scrub)".into()];
    }
    let banks = |bits: u16| format!("{:?}", mismatched_banks(bits));
    let mut lines = vec![format!(
        "scrub: built, {}{}",
        match c.scrub_every {
            Some(n) => format!("on request and every {n} cycles"),
            None => "on request (bloom host scrub)".into(),
        },
        if c.power_up_check {
            ", with the power-up check"
        } else {
            ""
        }
    )];
    if s.scrub_busy {
        lines.push("scrub: running".into());
    }
    if s.scrub_result {
        lines.push(format!(
            "last scrub ({} ended since the last reset): {}",
            s.scrubs_ended,
            if s.scrub_mismatch == 0 {
                "every bank matches".to_string()
            } else {
                format!("banks {} mismatch", banks(s.scrub_mismatch))
            }
        ));
    } else if c.power_up_check && s.scrub_mismatch != 0 {
        lines.push(format!(
            "power-up check: banks {} differ from the bitstream's image (bits changed between configuration and the first reset)",
            banks(s.scrub_mismatch)
        ));
    } else if c.power_up_check {
        lines.push(
            "power-up check: no bank differs (or no check since the last reset); no scrub has ended since the last reset"
                .into(),
        );
    } else {
        lines.push("no scrub has ended since the last reset".into());
    }
    lines
}
