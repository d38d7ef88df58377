//! `bloom image`: filter images (docs/contract.md §4) in software. `build` makes one from a
//! key file with the golden model; `info` says what one holds; `query` asks it about keys;
//! `union` and `intersect` combine two of one configuration and estimate the size of the
//! union or intersection of the key sets behind them (docs/theory.md); `plain` turns a
//! counting filter's image (§7.6) into the plain image of its 0-1 projection.
//!
//! Every command reads and checks all its input before it writes anything; an image is
//! written into a new or empty directory, complete or not at all.

use std::fmt::Write as _;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::bail;

use super::emit;
use golden::theory::images::{
    design_items, estimate_intersection, estimate_intersection_given_sizes, estimate_items,
};
use golden::PartitionedFilter;
use serde_json::json;

use crate::cli::config::CoreArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: ImageCommand,
}

#[derive(clap::Subcommand)]
pub enum ImageCommand {
    /// Build an image from a key file (one key per line, decimal or 0x-hex, `#` comments;
    /// docs/contract.md §2.1) with the golden model; with --counter-bits 2..=8, a counting
    /// filter's image (§7.6).
    Build(BuildArgs),
    /// Configuration, each bank's fill, estimated items, false-positive rate, design fill
    /// (of a counting image: its counter width, saturated counters, and its 0-1 projection's figures).
    Info {
        /// Image directory.
        dir: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Ask an image (plain or counting) about keys: prints each key and 1 (maybe present) or 0 (absent).
    Query(QueryArgs),
    /// Bitwise OR of two images of one configuration: the image of the union of their
    /// key sets; estimates the union's size. Two counting images of one counter width
    /// unite as counters: each the saturating sum (docs/contract.md §7.5.1).
    Union(CombineArgs),
    /// Delete keys from a counting image (--counter-bits 2..=8) and write the result as a
    /// new image: each key's delete follows the board's rule (docs/contract.md §7.2,
    /// §7.5.1): a present key's counters below saturation go down by one, an absent key
    /// changes nothing. Prints each key and 1 (deleted) or 0 (absent); the summary
    /// counts keys deleted and absent and the saturated counters met. Keys from a file
    /// are all checked before any delete; from stdin (`--keys -`) a bad line is an error
    /// after the answers before it, and no image is written.
    Delete(DeleteArgs),
    /// Bitwise AND of two images of one configuration, and the estimated size of the
    /// intersection of their key sets.
    Intersect(IntersectArgs),
    /// Replace the filter inside a bitstream made by `bloom build` with an image of the
    /// same configuration: no synthesis, no place and route (well under 2 seconds).
    Swap(SwapArgs),
    /// Read the filter out of a bitstream made by `bloom build` (with the family's
    /// unpacker: iceunpack, ecpunpack), and compare it with an image or save it as one.
    Readback(ReadbackArgs),
    /// Convert a counting filter's image (counter_bits 2..=8, docs/contract.md §7.6) into
    /// the plain image of its 0-1 projection: bit = 1 where the counter is non-zero, same
    /// k, bank_bits, key_bits, hash and seed (what a Summary Cache proxy sends its peers).
    Plain(PlainArgs),
}

#[derive(clap::Args)]
pub struct PlainArgs {
    /// Image directory of a counting filter (a plain image is copied as it reads).
    pub dir: PathBuf,
    /// Directory to write the plain image into; it must not exist or be empty.
    #[arg(long)]
    pub out: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct SwapArgs {
    /// Bitstream written by `bloom build` (iCE40 .bin or ECP5 .bit), or by an earlier swap.
    #[arg(long)]
    pub bitstream: PathBuf,
    /// Image directory (docs/contract.md §4) of the bitstream's configuration: of a
    /// counting filter's bitstream, a counting image (§7.6) of its counter width.
    #[arg(long)]
    pub image: PathBuf,
    /// Bitstream file to write (may be the input: it is replaced in one rename). Its
    /// manifest is written beside it as FILE.swap.json.
    #[arg(long)]
    pub out: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct ReadbackArgs {
    /// Bitstream written by `bloom build` or `bloom image swap`.
    pub bitstream: PathBuf,
    /// Compare every bank bit with this image; exit non-zero if any differs.
    #[arg(long)]
    pub against: Option<PathBuf>,
    /// Write what was read as an image into this new or empty directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct BuildArgs {
    /// Key file, or `-` for standard input.
    #[arg(long)]
    pub keys: String,
    #[command(flatten)]
    pub core: CoreArgs,
    /// Directory to write the image into; it must not exist or be empty.
    #[arg(long)]
    pub out: PathBuf,
    /// Threads that parse and insert keys (default: one per available core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct QueryArgs {
    /// Image directory.
    pub dir: PathBuf,
    /// Keys (decimal or 0x-hex).
    #[arg(allow_negative_numbers = true, required_unless_present = "keys")]
    pub key: Vec<String>,
    /// Key file to query, or `-` for standard input (instead of KEY arguments).
    #[arg(long, conflicts_with = "key")]
    pub keys: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct DeleteArgs {
    /// Image directory of a counting filter (it is not changed).
    pub dir: PathBuf,
    /// Keys to delete (decimal or 0x-hex).
    #[arg(allow_negative_numbers = true, required_unless_present = "keys")]
    pub key: Vec<String>,
    /// Key file to delete, or `-` for standard input (instead of KEY arguments): each
    /// line is one delete.
    #[arg(long, conflicts_with = "key")]
    pub keys: Option<String>,
    /// Directory to write the new image into; it must not exist or be empty.
    #[arg(long)]
    pub out: PathBuf,
    /// Print JSON instead of text (the counts, not each key).
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct CombineArgs {
    /// First image directory.
    pub a: PathBuf,
    /// Second image directory, of the same configuration.
    pub b: PathBuf,
    /// Directory to write the combined image into; it must not exist or be empty.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct IntersectArgs {
    #[command(flatten)]
    pub images: CombineArgs,
    /// The exact number of keys behind A, if known (with --size-b): the estimate then
    /// uses it instead of estimating it from A's fill.
    #[arg(long, requires = "size_b")]
    pub size_a: Option<u64>,
    /// The exact number of keys behind B, if known (with --size-a).
    #[arg(long, requires = "size_a")]
    pub size_b: Option<u64>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        ImageCommand::Build(a) => build(a),
        ImageCommand::Info { dir, json } => info(&dir, json),
        ImageCommand::Query(a) => query(a),
        ImageCommand::Union(a) => union(a),
        ImageCommand::Delete(a) => delete(a),
        ImageCommand::Intersect(a) => intersect(a),
        ImageCommand::Swap(a) => swap(a),
        ImageCommand::Readback(a) => readback(a),
        ImageCommand::Plain(a) => plain(a),
    }
}

fn read_image(dir: &Path) -> anyhow::Result<PartitionedFilter> {
    Ok(PartitionedFilter::import_image(dir)?)
}

/// A plain image's filter, or a counting image's 0-1 projection (which answers every
/// query as the counting filter does, contract §7.5) with the counting filter itself.
fn read_image_or_projection(
    dir: &Path,
) -> anyhow::Result<(PartitionedFilter, Option<golden::CountingFilter>)> {
    match PartitionedFilter::import_image(dir) {
        Ok(plain) => Ok((plain, None)),
        Err(golden::error::ImageError::KindMismatch { .. }) => {
            let counting = golden::CountingFilter::import_image(dir)?;
            Ok((counting.to_plain(), Some(counting)))
        }
        Err(e) => Err(e.into()),
    }
}

/// Opens a key file argument: `-` is standard input, anything else a regular file
/// (a FIFO or a device is refused: pipe it into `--keys -`). Also returns its size
/// when known.
pub(crate) fn open_keys(name: &str) -> anyhow::Result<(Box<dyn Read>, Option<u64>)> {
    if name == "-" {
        return Ok((Box::new(std::io::stdin().lock()), None));
    }
    let file = bloom_files::open_input(Path::new(name), "key file")?;
    let size = file.metadata().ok().map(|m| m.len());
    Ok((Box::new(file), size))
}

/// Appends a line to a report (writing to a String cannot fail).
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

fn print_json(value: &serde_json::Value) -> anyhow::Result<()> {
    emit(&(serde_json::to_string_pretty(value)? + "\n"))
}

/// A progress line on stderr while a long build runs, only when stderr is a terminal:
/// it appears after one second and is redrawn at most five times a second.
struct ProgressLine {
    enabled: bool,
    start: Instant,
    last: Option<Instant>,
    total: Option<u64>,
}

impl ProgressLine {
    fn new(total: Option<u64>) -> Self {
        ProgressLine {
            enabled: std::io::stderr().is_terminal(),
            start: Instant::now(),
            last: None,
            total,
        }
    }

    fn update(&mut self, p: golden::build::BuildProgress) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        if now - self.start < Duration::from_secs(1)
            || self
                .last
                .is_some_and(|t| now - t < Duration::from_millis(200))
        {
            return;
        }
        self.last = Some(now);
        let seconds = (now - self.start).as_secs_f64();
        let done = match self.total {
            Some(total) if total > 0 => format!(
                "{:.1} of {:.1} MB ({:.0}%)",
                p.bytes as f64 / 1e6,
                total as f64 / 1e6,
                100.0 * p.bytes as f64 / total as f64
            ),
            _ => format!("{:.1} MB", p.bytes as f64 / 1e6),
        };
        eprint!(
            "\r\x1b[2Kreading keys: {done}, {:.1} M lines, {:.1} M lines/s",
            p.lines as f64 / 1e6,
            p.lines as f64 / 1e6 / seconds
        );
        let _ = std::io::stderr().flush();
    }

    fn finish(&self) {
        if self.last.is_some() {
            eprint!("\r\x1b[2K");
        }
    }
}

fn build(args: BuildArgs) -> anyhow::Result<()> {
    let cfg = args.core.params;
    let threads = match args.threads {
        Some(0) => bail!("--threads 0 is not allowed (1 or more)"),
        Some(n) if n > 256 => bail!("--threads {n} is not allowed (at most 256)"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    // Fail before reading a long input if the output could not be written anyway.
    golden::image::check_image_target(&args.out)?;
    let (input, size) = open_keys(&args.keys)?;
    let name = if args.keys == "-" {
        "stdin"
    } else {
        args.keys.as_str()
    };
    let mut progress = ProgressLine::new(size);
    let start = Instant::now();
    // A counting filter (counter_bits > 1) is built with counters and written as a
    // version 2 image; its figures are its 0-1 projection's, as `info` shows them.
    let (filter, counting, stats) = if cfg.is_counting() {
        let result =
            golden::build::build_counting_filter(cfg, input, name, threads, |p| progress.update(p));
        progress.finish();
        let (counting, stats) = result?;
        (counting.to_plain(), Some(counting), stats)
    } else {
        let result = golden::build::build_filter(cfg, input, name, threads, |p| progress.update(p));
        progress.finish();
        let (filter, stats) = result?;
        (filter, None, stats)
    };
    let seconds = start.elapsed().as_secs_f64();
    match &counting {
        Some(counting) => counting.export_image(&args.out)?,
        None => filter.export_image(&args.out)?,
    }
    let rate = stats.keys as f64 / seconds.max(1e-9);
    let mut summary = summarise(&filter)?;
    if let Some(counting) = &counting {
        summary["config"] = counting.config().to_json();
        summary["counter_bits"] = json!(counting.counter_bits().get());
        summary["saturated"] = json!(counting.saturated());
    }
    if args.json {
        return print_json(&json!({
            "out": args.out.display().to_string(),
            "keys": stats.keys,
            "lines": stats.lines,
            "bytes": stats.bytes,
            "seconds": seconds,
            "keys_per_second": rate,
            "threads": threads,
            "image": summary,
        }));
    }
    let mut text = String::new();
    say!(text,
        "built {} from {} keys ({} lines, {:.1} MB) in {seconds:.2} s: {:.2} M keys/s with {threads} thread{}",
        args.out.display(),
        stats.keys,
        stats.lines,
        stats.bytes as f64 / 1e6,
        rate / 1e6,
        if threads == 1 { "" } else { "s" }
    );
    if let Some(counting) = &counting {
        say!(
            text,
            "counting filter: counters of {} bits; saturated counters per bank: {:?}",
            counting.counter_bits(),
            counting.saturated()
        );
    }
    print_summary(&mut text, &summary);
    emit(&text)
}

/// What `info` says about a filter, as JSON (also the source of the text form).
fn summarise(filter: &PartitionedFilter) -> anyhow::Result<serde_json::Value> {
    let cfg = filter.config();
    let bank = cfg.bank_size() as u64;
    let fills: Vec<u64> = filter.fill().iter().map(|&f| f as u64).collect();
    let estimate = estimate_items(bank, &fills)?;
    let design = design_items(bank)?;
    let m = cfg.total_bits();
    let (items, std_error, fpr_exact) = if estimate.items.is_finite() {
        let n = estimate.items.round() as u64;
        (
            json!(estimate.items),
            json!(estimate.std_error),
            json!(golden::theory::partitioned_exact(m, n, cfg.k)?),
        )
    } else {
        (serde_json::Value::Null, serde_json::Value::Null, json!(1.0))
    };
    let design_n = design.floor() as u64;
    Ok(json!({
        "config": cfg.to_json(),
        "total_bits": m,
        "bank_size": bank,
        "fills": fills,
        "estimated_items": items,
        "estimated_items_std_error": std_error,
        "fpr_exact_at_estimated_items": fpr_exact,
        "fpr_from_fill": filter.fpr_estimate(),
        "design_items": design,
        "fpr_exact_at_design_items": golden::theory::partitioned_exact(m, design_n, cfg.k)?,
        "over_design_fill": estimate.items > design,
        "banks_over_half_full": fills.iter().enumerate().filter(|(_, &f)| 2 * f > bank).map(|(p, _)| p).collect::<Vec<_>>(),
        "fill_departures": golden::theory::images::fill_departures(bank, &fills)?,
        "fill_warning": fill_departure_warning(bank, &fills)?,
    }))
}

/// A bank whose fill lies further than this many standard deviations from
/// the fill expected for the estimated items is reported.
const FILL_DEPARTURE_LIMIT: f64 = 5.0;

/// The warning `build` and `info` give when a bank's fill departs from its
/// expected value by more than [`FILL_DEPARTURE_LIMIT`] standard deviations,
/// or None.
fn fill_departure_warning(bank: u64, fills: &[u64]) -> anyhow::Result<Option<String>> {
    let Some(z) = golden::theory::images::fill_departures(bank, fills)? else {
        return Ok(None);
    };
    let Some((p, worst)) = z
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
        .filter(|(_, z)| z.abs() > FILL_DEPARTURE_LIMIT)
    else {
        return Ok(None);
    };
    Ok(Some(format!(
        "bank {p}'s fill {} is {worst:+.1} standard deviations from the fill random hashing gives for the items the banks estimate: \
         the keys have a structure the hash family does not mix (h3 and crc are linear; see docs/theory.md, \"Structured key sets\"), \
         so the false-positive rate and the estimates above do not hold for them; `bloom fpr check --keys FILE` measures it, --hash spn avoids it",
        fills[p]
    )))
}

fn print_summary(text: &mut String, s: &serde_json::Value) {
    let bank = s["bank_size"].as_u64().unwrap_or(0);
    let cfg = &s["config"];
    say!(text,
        "configuration: k={} bank_bits={} key_bits={} hash={} seed={} ({} bits in {} banks of {bank})",
        cfg["k"], cfg["bank_bits"], cfg["key_bits"], cfg["hash"].as_str().unwrap_or("?"), cfg["seed"], s["total_bits"], cfg["k"]
    );
    let fills: Vec<u64> = s["fills"]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_u64()).collect())
        .unwrap_or_default();
    let fractions: Vec<String> = fills
        .iter()
        .map(|&f| format!("{f} ({:.1}%)", 100.0 * f as f64 / bank as f64))
        .collect();
    say!(text, "fill per bank: {}", fractions.join(", "));
    match s["estimated_items"].as_f64() {
        Some(n) => {
            say!(text,
                "estimated items: {n:.1} ± {:.1} (Swamidass-Baldi per bank, mean over banks; ± one standard error)",
                s["estimated_items_std_error"].as_f64().unwrap_or(f64::NAN)
            );
            say!(text,
                "false-positive rate at {} items: {:.4e} exact (partitioned layout); {:.4e} from the fill",
                n.round(),
                s["fpr_exact_at_estimated_items"].as_f64().unwrap_or(f64::NAN),
                s["fpr_from_fill"].as_f64().unwrap_or(f64::NAN)
            );
        }
        None => say!(
            text,
            "estimated items: unbounded (a bank is full: every key answers maybe present)"
        ),
    }
    let design = s["design_items"].as_f64().unwrap_or(f64::NAN);
    say!(
        text,
        "design load: {design:.0} items (each bank half full; false-positive rate {:.4e} there)",
        s["fpr_exact_at_design_items"].as_f64().unwrap_or(f64::NAN)
    );
    if let Some(warning) = s["fill_warning"].as_str() {
        say!(text, "warning: {warning}");
    }
    let over = s["over_design_fill"].as_bool().unwrap_or(true);
    let load = s["estimated_items"]
        .as_f64()
        .map(|n| format!(" ({:.0}% of the design load)", 100.0 * n / design))
        .unwrap_or_default();
    say!(
        text,
        "over design fill: {}{load}",
        if over { "YES" } else { "no" }
    );
}

fn info(dir: &Path, json_out: bool) -> anyhow::Result<()> {
    let (filter, counting) = read_image_or_projection(dir)?;
    let mut summary = summarise(&filter)?;
    if let Some(counting) = &counting {
        summary["config"] = counting.config().to_json();
        summary["counter_bits"] = json!(counting.counter_bits().get());
        summary["saturated"] = json!(counting.saturated());
    }
    if json_out {
        summary["image"] = json!(dir.display().to_string());
        return print_json(&summary);
    }
    let mut text = String::new();
    say!(text, "image: {}", dir.display());
    if let Some(counting) = &counting {
        say!(
            text,
            "counting filter: counters of {} bits (saturated at {}); fills count non-zero counters, and every figure below is its 0-1 projection's",
            counting.counter_bits(),
            counting.saturation()
        );
        say!(
            text,
            "saturated counters per bank: {:?}",
            counting.saturated()
        );
    }
    print_summary(&mut text, &summary);
    emit(&text)
}

fn query(args: QueryArgs) -> anyhow::Result<()> {
    let (filter, _) = read_image_or_projection(&args.dir)?;
    let key_bits = filter.config().key_bits;
    // The keys were checked against key_bits as they were read: a query cannot fail.
    for_each_key(
        &args.key,
        args.keys.as_deref(),
        key_bits,
        || QueryOutput::new(&args),
        |out, key, text| out.answer(text, filter.query(key).unwrap_or(false)),
    )?
    .finish();
    Ok(())
}

/// Calls `each` with every key given and its text, in order: the KEY arguments
/// (all parsed before the first call), a key file (read twice, streaming both
/// times: every line is checked before the first call, and memory does not grow
/// with the file), or with `-` standard input (read once: calls stream as keys
/// come in, and a bad line ends with an error after the calls before it).
/// `begin` makes the state every call gets, once, after those checks and before
/// the first call; it is returned at the end.
fn for_each_key<S>(
    key_args: &[String],
    key_file: Option<&str>,
    key_bits: u32,
    begin: impl FnOnce() -> S,
    mut each: impl FnMut(&mut S, u128, &[u8]),
) -> anyhow::Result<S> {
    match key_file {
        Some(name) if name != "-" => {
            let (input, _) = open_keys(name)?;
            golden::keys::read_keys_with_text(input, name, key_bits, |_, _, _| {})?;
            let (input, _) = open_keys(name)?;
            let mut state = begin();
            golden::keys::read_keys_with_text(input, name, key_bits, |key, text, _| {
                each(&mut state, key, text)
            })?;
            Ok(state)
        }
        Some(_) => {
            let mut state = begin();
            golden::keys::read_keys_with_text(
                std::io::stdin().lock(),
                "stdin",
                key_bits,
                |key, text, _| each(&mut state, key, text),
            )?;
            Ok(state)
        }
        None => {
            let keys = key_args
                .iter()
                .map(|text| golden::keys::parse_key_arg(text, key_bits).map_err(anyhow::Error::msg))
                .collect::<anyhow::Result<Vec<u128>>>()?;
            let mut state = begin();
            for (key, text) in keys.iter().zip(key_args) {
                each(&mut state, *key, text.as_bytes());
            }
            Ok(state)
        }
    }
}

/// `image query`'s answers, written as they come through a buffer (memory bounded
/// whatever the number of keys); as text, `KEY 0|1` lines, as JSON one document whose
/// counts follow the results.
struct QueryOutput {
    writer: std::io::BufWriter<std::io::StdoutLock<'static>>,
    json: bool,
    maybe: u64,
    absent: u64,
}

impl QueryOutput {
    fn new(args: &QueryArgs) -> QueryOutput {
        let mut out = QueryOutput {
            writer: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
            json: args.json,
            maybe: 0,
            absent: 0,
        };
        if args.json {
            let image = serde_json::to_string(&args.dir.display().to_string()).unwrap_or_default();
            out.put(format_args!("{{\n  \"image\": {image},\n  \"results\": ["));
        }
        out
    }

    fn put(&mut self, args: std::fmt::Arguments) {
        if let Err(e) = self.writer.write_fmt(args) {
            bloom_files::stdout::fail(e)
        }
    }

    fn answer(&mut self, key: &[u8], hit: bool) {
        let first = self.maybe + self.absent == 0;
        if hit {
            self.maybe += 1;
        } else {
            self.absent += 1;
        }
        let key = String::from_utf8_lossy(key);
        if self.json {
            let key = serde_json::to_string(&key).unwrap_or_default();
            let sep = if first { "" } else { "," };
            self.put(format_args!(
                "{sep}\n    {{\"key\": {key}, \"hit\": {hit}}}"
            ));
        } else {
            self.put(format_args!("{key} {}\n", hit as u8));
        }
    }

    fn finish(mut self) {
        if self.json {
            let (maybe, absent) = (self.maybe, self.absent);
            let close = if maybe + absent == 0 { "]" } else { "\n  ]" };
            self.put(format_args!(
                "{close},\n  \"maybe_present\": {maybe},\n  \"absent\": {absent}\n}}\n"
            ));
        }
        if let Err(e) = self.writer.flush() {
            bloom_files::stdout::fail(e)
        }
        if !self.json {
            eprintln!(
                "queried {} keys: {} maybe present, {} absent",
                self.maybe + self.absent,
                self.maybe,
                self.absent
            );
        }
    }
}

/// Reads both images (they must share one configuration) and checks the output target.
fn read_pair(args: &CombineArgs) -> anyhow::Result<(PartitionedFilter, PartitionedFilter)> {
    let a = read_image(&args.a)?;
    let b = read_image(&args.b)?;
    if a.config() != b.config() {
        bail!(
            "{} and {} have different configurations ({}); both images must have the same k, bank_bits, key_bits, hash and seed",
            args.a.display(),
            args.b.display(),
            a.config().differences(b.config())
        );
    }
    if let Some(out) = &args.out {
        golden::image::check_image_target(out)?;
    }
    Ok((a, b))
}

fn fills_of(filter: &PartitionedFilter) -> Vec<u64> {
    filter.fill().iter().map(|&f| f as u64).collect()
}

fn union(args: CombineArgs) -> anyhow::Result<()> {
    // Two counting images unite as counters (the saturating sum, contract §7.5.1);
    // the figures below are their 0-1 projections', as `info` shows them.
    let (a, counting_a) = read_image_or_projection(&args.a)?;
    let (b, counting_b) = read_image_or_projection(&args.b)?;
    let counting = match (&counting_a, &counting_b) {
        (Some(ca), Some(cb)) => Some(ca.union(cb).map_err(|e| {
            anyhow::anyhow!("{} and {}: {e}", args.a.display(), args.b.display())
        })?),
        (None, None) => None,
        (ca, _) => bail!(
            "{} is {} and {} is {}: a union is of two plain images or of two counting images of one counter width \
             (`bloom image plain` gives a counting image's 0-1 projection)",
            args.a.display(),
            if ca.is_some() { "a counting image" } else { "a plain image" },
            args.b.display(),
            if ca.is_some() { "a plain image" } else { "a counting image" },
        ),
    };
    if a.config() != b.config() {
        bail!(
            "{} and {} have different configurations ({}); both images must have the same k, bank_bits, key_bits, hash and seed",
            args.a.display(),
            args.b.display(),
            a.config().differences(b.config())
        );
    }
    if let Some(out) = &args.out {
        golden::image::check_image_target(out)?;
    }
    let united = match &counting {
        Some(c) => c.to_plain(),
        None => a.union(&b)?,
    };
    if let Some(out) = &args.out {
        match &counting {
            Some(c) => c.export_image(out)?,
            None => united.export_image(out)?,
        }
    }
    let bank = a.config().bank_size() as u64;
    let (ea, eb, eu) = (
        estimate_items(bank, &fills_of(&a))?,
        estimate_items(bank, &fills_of(&b))?,
        estimate_items(bank, &fills_of(&united))?,
    );
    let finite = |x: f64| {
        if x.is_finite() {
            json!(x)
        } else {
            serde_json::Value::Null
        }
    };
    let report = json!({
        "a": args.a.display().to_string(),
        "b": args.b.display().to_string(),
        "out": args.out.as_ref().map(|p| p.display().to_string()),
        "estimated_items_a": finite(ea.items),
        "estimated_items_b": finite(eb.items),
        "estimated_union": finite(eu.items),
        "estimated_union_std_error": finite(eu.std_error),
        "union": summarise(&united)?,
        "counter_bits": counting.as_ref().map(|c| c.counter_bits().get()),
        "saturated": counting.as_ref().map(|c| c.saturated()),
    });
    if args.json {
        return print_json(&report);
    }
    let mut text = String::new();
    if let Some(out) = &args.out {
        say!(
            text,
            "wrote the union ({}) of {} and {} to {}",
            if counting.is_some() {
                "counters added, saturating"
            } else {
                "bitwise OR"
            },
            args.a.display(),
            args.b.display(),
            out.display()
        );
    }
    say!(
        text,
        "estimated |A ∪ B|: {} (|A| ≈ {}, |B| ≈ {})",
        shown_estimate(eu.items, eu.std_error),
        shown_estimate(ea.items, ea.std_error),
        shown_estimate(eb.items, eb.std_error)
    );
    if let Some(c) = &counting {
        say!(
            text,
            "counting images: counters of {} bits added, saturating at {}; saturated counters per bank: {:?}",
            c.counter_bits(),
            c.saturation(),
            c.saturated()
        );
    }
    say!(text, "-- the union image:");
    print_summary(&mut text, &report["union"]);
    emit(&text)
}

fn delete(args: DeleteArgs) -> anyhow::Result<()> {
    let mut filter = golden::CountingFilter::import_image(&args.dir)?;
    if !filter.config().is_counting() {
        bail!(
            "{} is a plain image (counter bits 1), which cannot delete a key; deletes need a counting image \
             (bloom image build --counter-bits 2..=8)",
            args.dir.display()
        );
    }
    golden::image::check_image_target(&args.out)?;
    let key_bits = filter.config().key_bits;
    let mut writer = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let (mut deleted, mut absent, mut saturated_met) = (0u64, 0u64, 0u64);
    let mut each = |key: u128, text: &[u8]| {
        let outcome = filter.delete_counted(key).unwrap_or(golden::Deleted {
            hit: false,
            saturated: 0,
        });
        if outcome.hit {
            deleted += 1;
        } else {
            absent += 1;
        }
        saturated_met += u64::from(outcome.saturated);
        if !args.json {
            let line = writer
                .write_all(text)
                .and_then(|()| writeln!(writer, " {}", outcome.hit as u8));
            if let Err(e) = line {
                bloom_files::stdout::fail(e)
            }
        }
    };
    for_each_key(
        &args.key,
        args.keys.as_deref(),
        key_bits,
        || (),
        |_, key, text| each(key, text),
    )?;
    if let Err(e) = writer.flush() {
        bloom_files::stdout::fail(e)
    }
    drop(writer);
    filter.export_image(&args.out)?;
    let report = json!({
        "image": args.dir.display().to_string(),
        "out": args.out.display().to_string(),
        "keys": deleted + absent,
        "deleted": deleted,
        "absent": absent,
        "saturated_counters_met": saturated_met,
        "counter_bits": filter.counter_bits().get(),
        "fills": filter.fill(),
        "saturated": filter.saturated(),
    });
    if args.json {
        return print_json(&report);
    }
    eprintln!(
        "deleted {deleted} of {} keys ({absent} absent: nothing changed); {saturated_met} saturated counters met (left at {}); wrote {}",
        deleted + absent,
        filter.saturation(),
        args.out.display()
    );
    eprintln!(
        "fill per bank: {:?}; saturated counters per bank: {:?}",
        filter.fill(),
        filter.saturated()
    );
    Ok(())
}

fn shown_estimate(items: f64, std_error: f64) -> String {
    if items.is_finite() {
        format!("{items:.1} ± {std_error:.1}")
    } else {
        "unbounded (a bank is full)".to_string()
    }
}

fn intersect(args: IntersectArgs) -> anyhow::Result<()> {
    let (a, b) = read_pair(&args.images)?;
    let both = a.intersection(&b)?;
    let united = a.union(&b)?;
    let bank = a.config().bank_size() as u64;
    let estimate = estimate_intersection(bank, &fills_of(&a), &fills_of(&b), &fills_of(&united))?;
    // Sizes that cannot be true of their images are refused (contract §6).
    let given = match (args.size_a, args.size_b) {
        (Some(size_a), Some(size_b)) => Some(
            estimate_intersection_given_sizes(
                bank,
                golden::theory::images::GivenSizes {
                    key_bits: a.config().key_bits,
                    size_a,
                    fills_a: &fills_of(&a),
                    size_b,
                    fills_b: &fills_of(&b),
                },
                &fills_of(&both),
            )
            .map_err(|e| anyhow::anyhow!("--size-a / --size-b: {e}"))?,
        ),
        _ => None,
    };
    if let Some(out) = &args.images.out {
        both.export_image(out)?;
    }
    let as_json = |e: Option<golden::theory::images::IntersectionEstimate>| match e {
        Some(e) => {
            json!({"items": e.items, "std_error": e.std_error, "unclamped": if e.raw.is_finite() { json!(e.raw) } else { serde_json::Value::Null }})
        }
        None => serde_json::Value::Null,
    };
    let report = json!({
        "a": args.images.a.display().to_string(),
        "b": args.images.b.display().to_string(),
        "out": args.images.out.as_ref().map(|p| p.display().to_string()),
        "estimated_intersection": as_json(estimate),
        "estimated_intersection_given_sizes": as_json(given.flatten()),
        "size_a": args.size_a,
        "size_b": args.size_b,
        "intersection": summarise(&both)?,
    });
    if args.images.json {
        return print_json(&report);
    }
    let mut text = String::new();
    if let Some(out) = &args.images.out {
        say!(
            text,
            "wrote the intersection (bitwise AND) of {} and {} to {}",
            args.images.a.display(),
            args.images.b.display(),
            out.display()
        );
    }
    match estimate {
        Some(e) => say!(
            text,
            "estimated |A ∩ B|: {:.1} ± {:.1} (sizes estimated from the fills; docs/theory.md)",
            e.items,
            e.std_error
        ),
        None => say!(
            text,
            "estimated |A ∩ B|: unknown (a bank of A OR B is full)"
        ),
    }
    match given {
        Some(Some(e)) => say!(
            text,
            "estimated |A ∩ B| with |A| = {} and |B| = {} given: {:.1} ± {:.1}",
            args.size_a.unwrap_or(0),
            args.size_b.unwrap_or(0),
            e.items,
            e.std_error
        ),
        Some(None) => say!(
            text,
            "estimated |A ∩ B| with |A| = {} and |B| = {} given: unknown (a bank of A AND B is full)",
            args.size_a.unwrap_or(0),
            args.size_b.unwrap_or(0)
        ),
        None => {}
    }
    say!(text, "-- the intersection image (it holds every key of both sets, and possibly more; its item estimate is not |A ∩ B|):");
    print_summary(&mut text, &report["intersection"]);
    emit(&text)
}

fn swap(args: SwapArgs) -> anyhow::Result<()> {
    let r = flow::swap::swap(&args.bitstream, &args.image, &args.out)?;
    if args.json {
        return print_json(&serde_json::to_value(&r)?);
    }
    let mut text = String::new();
    say!(
        text,
        "swapped {} into {} ({}, {}): {} bank bits in {} block RAM{} written and read back, {} differ; {:.3} s",
        r.image,
        r.out,
        r.family,
        r.core,
        r.bits_checked,
        r.cells,
        if r.cells == 1 { "" } else { "s" },
        r.bits_differing,
        r.seconds
    );
    say!(
        text,
        "fill per bank: {}",
        r.fill
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    );
    match &r.manifest {
        Some(m) => say!(text, "manifest: {m}"),
        None => say!(text, "manifest: none (the input had no current one)"),
    }
    for w in &r.warnings {
        say!(text, "warning: {w}");
    }
    emit(&text)
}

fn readback(args: ReadbackArgs) -> anyhow::Result<()> {
    // Everything is checked before anything is written.
    let against = match &args.against {
        Some(dir) => Some(hdl::image::read_image_values(dir)?),
        None => None,
    };
    if let Some(out) = &args.out {
        golden::image::check_image_target(out)?;
    }
    let start = Instant::now();
    let (sig, banks) = flow::swap::read_back(&args.bitstream)?;
    let seconds = start.elapsed().as_secs_f64();
    let fills = flow::swap::fills(&banks);
    let mut differing: Option<Vec<u64>> = None;
    if let (Some((params, image)), Some(dir)) = (&against, &args.against) {
        if *params != sig.params {
            bail!(
                "the image {} is of another configuration than the bitstream (image vs bitstream: {})",
                dir.display(),
                params.differences(&sig.params)
            );
        }
        differing = Some(flow::swap::differing_bits(&banks, image));
    }
    if let Some(out) = &args.out {
        let cfg = sig.params;
        let mut files = vec![(
            "image.json".to_string(),
            golden::image::image_header_json(&cfg),
        )];
        for (p, bank) in banks.iter().enumerate() {
            files.push((
                golden::image::bank_file_name(p),
                golden::image::bank_hex_text(&cfg, p, bank),
            ));
        }
        golden::image::write_directory_atomically(out, &files)?;
    }
    let total_differing: u64 = differing.iter().flatten().sum();
    let reader = match sig.mapping.family() {
        flow::board::Family::Ice40 => "iceunpack",
        flow::board::Family::Ecp5 => "ecpunpack",
    };
    if args.json {
        print_json(&json!({
            "bitstream": args.bitstream.display().to_string(),
            "family": sig.mapping.family().to_string(),
            "mapping": sig.mapping.name(),
            "core": sig.params,
            "reader": reader,
            "cells": sig.banks.iter().map(|b| b.iter().map(|s| s.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "fill": fills,
            "bits_checked": differing.as_ref().map(|_| flow::swap::bank_bits_total(&sig.params)),
            "bits_differing": differing,
            "seconds": seconds,
            "out": args.out.as_ref().map(|o| o.display().to_string()),
        }))?;
    } else {
        let mut text = String::new();
        say!(
            text,
            "{} ({}, {}), read with {reader} in {seconds:.2} s",
            args.bitstream.display(),
            sig.mapping.family(),
            sig.params
        );
        for (p, bank) in sig.banks.iter().enumerate() {
            let d = differing
                .as_ref()
                .map(|d| format!(", {} bits differ from the image", d[p]))
                .unwrap_or_default();
            say!(
                text,
                "bank {p}: block RAM{} {}: {} of {} {}{d}",
                if bank.len() == 1 { "" } else { "s" },
                bank.iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" + "),
                fills[p],
                sig.params.bank_size(),
                if sig.params.is_counting() {
                    "counters non-zero"
                } else {
                    "bits set"
                }
            );
        }
        if let (Some(_), Some(dir)) = (&differing, &args.against) {
            say!(
                text,
                "{} bank bits checked against {}: {total_differing} differ",
                flow::swap::bank_bits_total(&sig.params),
                dir.display()
            );
        }
        if let Some(out) = &args.out {
            say!(text, "wrote the image {}", out.display());
        }
        emit(&text)?;
    }
    if total_differing > 0 {
        bail!(
            "{total_differing} bank bits of {} differ from the image",
            args.bitstream.display()
        );
    }
    Ok(())
}

fn plain(args: PlainArgs) -> anyhow::Result<()> {
    golden::image::check_image_target(&args.out)?;
    let counting = golden::CountingFilter::import_image(&args.dir)?;
    let projection = counting.to_plain();
    projection.export_image(&args.out)?;
    let cfg = *counting.config();
    let report = json!({
        "from": args.dir.display().to_string(),
        "out": args.out.display().to_string(),
        "counter_bits": cfg.counter_bits,
        "config": projection.config().to_json(),
        "fills": projection.fill(),
        "saturated": counting.saturated(),
    });
    if args.json {
        return print_json(&report);
    }
    let mut text = String::new();
    say!(
        text,
        "{}: {} ({})",
        args.dir.display(),
        cfg,
        if cfg.is_counting() {
            "counting filter"
        } else {
            "plain filter, copied"
        }
    );
    say!(
        text,
        "wrote the plain image of its 0-1 projection to {}: {}",
        args.out.display(),
        projection.config()
    );
    say!(
        text,
        "fill per bank (non-zero counters = 1 bits): {:?}",
        projection.fill()
    );
    if cfg.is_counting() {
        say!(
            text,
            "saturated counters per bank (at {}): {:?}",
            counting.saturation(),
            counting.saturated()
        );
    }
    emit(&text)
}
