//! `bloom fpr check`: does a hash family keep the exact false-positive rate
//! on structured keys? The structured-key suite of `golden::structured`
//! (docs/theory.md, "Structured key sets") for every family (or those named),
//! on the built-in key shapes or on a key file of the user's.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use bloom_params::{HashFamily, Param, BANK_BITS, K, KEY_BITS};
use golden::structured::{
    run_family, Case, GivenKeys, QueryShape, SetShape, SuiteOptions, Summary,
};

/// A family keeps the theory when no case is significantly above this
/// factor of the exact rate ...
pub const VERDICT_FACTOR: f64 = 1.5;
/// ... no group's mean ratio over seeds is significantly further than this
/// from 1 (its pooled interval lies wholly outside 1 +- this) ...
pub const VERDICT_GROUP_TOLERANCE: f64 = 0.05;
/// ... and no bank fill or item estimate is further than this many standard
/// deviations from its expected value for random hashing.
pub const VERDICT_DEPARTURE: f64 = 5.0;

#[derive(clap::Args)]
pub struct Args {
    /// Number of partitions (hash units and banks): 1..=16.
    #[arg(long, default_value = "4", value_parser = param_parser(&K))]
    k: u64,
    /// log2 of the bits per bank: 6..=16.
    #[arg(long, default_value = "12", value_parser = param_parser(&BANK_BITS))]
    bank_bits: u64,
    /// Key width in bits: 32, 64, 128.
    #[arg(long, default_value = "64", value_parser = param_parser(&KEY_BITS))]
    key_bits: u64,
    /// Hash families to measure, comma-separated (default: every family).
    #[arg(long, value_delimiter = ',')]
    hash: Vec<HashFamily>,
    /// Seeds 0..N per case: 1..=1024.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=1024))]
    seeds: u64,
    /// Queries per case: 100..=10000000.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(100..=10_000_000))]
    queries: u64,
    /// Key sets, comma-separated: sequential (1, 2, ...), subnet (10.0.0.0 + i),
    /// strided (multiples of 4096), low-weight (keys of 1, 2, ... set bits), random.
    #[arg(long, value_delimiter = ',', value_parser = parse_set)]
    sets: Vec<SetShape>,
    /// Query shapes, comma-separated: next (the keys after the set in its
    /// pattern), random, neighbours (an inserted key with one bit flipped).
    #[arg(long, value_delimiter = ',', value_parser = parse_query)]
    query_shapes: Vec<QueryShape>,
    /// Loads, comma-separated fractions of the design load ln(1/2)/ln(1 - 2^-b), each in (0, 4].
    #[arg(long, value_delimiter = ',', value_parser = parse_load)]
    loads: Vec<f64>,
    /// Your own key set (contract §2.1 key file, `-` for standard input) in
    /// place of the built-in shapes; measured with random and neighbour queries.
    #[arg(long)]
    keys: Option<PathBuf>,
    /// Your own queries for --keys (keys of the set among them are skipped).
    #[arg(long, requires = "keys")]
    query_keys: Option<PathBuf>,
    /// Two-sided confidence of the Clopper-Pearson intervals, in (0.5, 1).
    #[arg(long, default_value_t = 0.99, value_parser = parse_confidence)]
    confidence: f64,
    /// Print every case, not only the summary.
    #[arg(long)]
    cases: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

fn param_parser(p: &'static Param) -> impl Fn(&str) -> Result<u64, String> + Clone {
    move |text| match p.parse(text) {
        Ok(bloom_params::Value::Number(n)) => Ok(n),
        Ok(other) => Err(format!("{other} is not a number")),
        Err(e) => Err(e.to_string()),
    }
}

/// The shape named `text` among `shapes`, or an error naming every one.
fn parse_shape<T: Copy>(
    text: &str,
    what: &str,
    shapes: &[T],
    name: fn(T) -> &'static str,
) -> Result<T, String> {
    shapes
        .iter()
        .copied()
        .find(|&s| name(s) == text)
        .ok_or_else(|| {
            let names: Vec<&str> = shapes.iter().map(|&s| name(s)).collect();
            format!("unknown {what} `{text}` (allowed: {})", names.join(", "))
        })
}

fn parse_set(text: &str) -> Result<SetShape, String> {
    parse_shape(text, "key set", &SetShape::ALL, SetShape::name)
}

fn parse_query(text: &str) -> Result<QueryShape, String> {
    parse_shape(text, "query shape", &QueryShape::ALL, QueryShape::name)
}

fn parse_load(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 4.0 => Ok(v),
        _ => Err(format!(
            "load `{text}` is not allowed (a fraction of the design load in (0, 4], e.g. 0.5 or 1)"
        )),
    }
}

fn parse_confidence(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v > 0.5 && v < 1.0 => Ok(v),
        _ => Err(format!(
            "confidence `{text}` is not allowed (in (0.5, 1), e.g. 0.99)"
        )),
    }
}

/// The keys of the key file `path` given to `option`, refused when it holds none.
fn read_key_file(option: &str, path: &PathBuf, key_bits: u32) -> Result<Vec<u128>> {
    let name = path.display().to_string();
    let mut keys = Vec::new();
    let mut push = |key| keys.push(key);
    if name == "-" {
        golden::keys::read_keys(std::io::stdin().lock(), "stdin", key_bits, &mut push)?;
    } else {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot open key file {name}"))?;
        if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
            bail!("key file {name} is a directory");
        }
        golden::keys::read_keys(file, &name, key_bits, &mut push)?;
    }
    if keys.is_empty() {
        bail!("{option}: key file {name} holds no key");
    }
    Ok(keys)
}

/// One family's verdict, with the reasons it fails.
fn verdict(s: &Summary, confidence: f64) -> (bool, Vec<String>) {
    let mut why = Vec::new();
    if s.above_1_5 > 0 {
        why.push(format!(
            "{} of {} cases significantly above {VERDICT_FACTOR}x",
            s.above_1_5, s.cases
        ));
    }
    for g in &s.groups {
        let (low, high) = g.pooled_interval(confidence);
        if low > 1.0 + VERDICT_GROUP_TOLERANCE || high < 1.0 - VERDICT_GROUP_TOLERANCE {
            why.push(format!(
                "{} set, {} queries, load {}: mean {:.3}x (pooled interval {low:.3}..{high:.3})",
                g.set.name(),
                g.query.name(),
                g.load_label(),
                g.mean_ratio
            ));
        }
    }
    if s.worst_fill_z > VERDICT_DEPARTURE {
        why.push(format!(
            "a bank fill {:.1} standard deviations from its expected value",
            s.worst_fill_z
        ));
    }
    if s.worst_items_z > VERDICT_DEPARTURE {
        why.push(format!(
            "an item estimate {:.1} standard errors from the keys inserted",
            s.worst_items_z
        ));
    }
    (why.is_empty(), why)
}

fn case_json(c: &Case) -> serde_json::Value {
    serde_json::json!({
        "set": c.set.name(), "query": c.query.name(), "load": c.load, "seed": c.seed,
        "keys": c.n, "queries": c.queries, "false_positives": c.false_positives,
        "rate": c.rate(), "exact": c.exact, "ratio": c.ratio(), "interval": [c.low, c.high],
        "fills": c.fills, "worst_fill_z": c.fill_z, "items": c.items, "items_z": c.items_z,
    })
}

/// A list option naming one value twice would measure (and print) its cases twice.
fn refuse_repeats<T: PartialEq>(
    flag: &str,
    values: &[T],
    name: impl Fn(&T) -> String,
) -> Result<()> {
    for (i, v) in values.iter().enumerate() {
        if values[..i].contains(v) {
            bail!("{flag} names `{}` twice; give each value once", name(v));
        }
    }
    Ok(())
}

pub fn run(args: Args) -> Result<()> {
    refuse_repeats("--hash", &args.hash, |h| h.to_string())?;
    refuse_repeats("--sets", &args.sets, |s| s.name().to_string())?;
    refuse_repeats("--query-shapes", &args.query_shapes, |q| {
        q.name().to_string()
    })?;
    refuse_repeats("--loads", &args.loads, |l| l.to_string())?;
    let (k, bank_bits, key_bits) = (args.k as u32, args.bank_bits as u32, args.key_bits as u32);
    let families = if args.hash.is_empty() {
        // Every family defined for this key width.
        HashFamily::ALL
            .into_iter()
            .filter(|h| h.key_bits_allowed().contains(&(key_bits as u64)))
            .collect()
    } else {
        args.hash.clone()
    };
    let given = match &args.keys {
        Some(path) => {
            let keys = read_key_file("--keys", path, key_bits)?;
            let queries = match &args.query_keys {
                Some(q) => read_key_file("--query-keys", q, key_bits)?,
                None => Vec::new(),
            };
            let given = GivenKeys::new(keys, queries);
            if !args.sets.is_empty() || !args.loads.is_empty() {
                bail!("--keys replaces the built-in key sets: give --sets and --loads without it");
            }
            Some(Arc::new(given))
        }
        None => None,
    };
    let mut options = SuiteOptions::full(k, bank_bits, key_bits);
    options.seeds = args.seeds;
    options.queries = args.queries as usize;
    options.confidence = args.confidence;
    if !args.sets.is_empty() {
        options.sets = args.sets.clone();
    }
    if !args.query_shapes.is_empty() {
        options.query_shapes = args.query_shapes.clone();
    }
    if !args.loads.is_empty() {
        options.loads = args.loads.clone();
    }
    options.given = given.clone();
    let design = options.keys_at(1.0);
    let mut results = Vec::new();
    for family in &families {
        let cfg = golden::CoreParams::new(k, bank_bits, key_bits, *family, 0)?;
        let cases = run_family(&options, &cfg).map_err(anyhow::Error::msg)?;
        let summary = Summary::of(&cases).context("no case was run")?;
        results.push((*family, cases, summary));
    }
    let what = match &args.keys {
        Some(path) => format!(
            "the {} distinct keys of {}",
            given.as_ref().map_or(0, |g| g.keys.len()),
            path.display()
        ),
        None => format!(
            "sets {} at loads {} of the design load ({design} keys); queries {}",
            options
                .sets
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(", "),
            options
                .loads
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            options
                .query_shapes
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    if args.json {
        let families: Vec<_> = results
            .iter()
            .map(|(family, cases, s)| {
                let (keeps, why) = verdict(s, args.confidence);
                let mut v = serde_json::json!({
                    "hash": family.name(), "cases": s.cases,
                    "above_1_5": s.above_1_5, "above_2": s.above_2,
                    "worst": case_json(&s.worst),
                    "groups": s.groups.iter().map(|g| serde_json::json!({
                        "set": g.set.name(), "query": g.query.name(), "load": g.load,
                        "cases": g.cases, "mean_ratio": g.mean_ratio,
                        "pooled_interval": g.pooled_interval(args.confidence)})).collect::<Vec<_>>(),
                    "worst_fill_z": s.worst_fill_z, "worst_items_z": s.worst_items_z,
                    "keeps_theory": keeps, "departures": why,
                });
                if args.cases {
                    v["all_cases"] = cases.iter().map(case_json).collect();
                }
                v
            })
            .collect();
        let v = serde_json::json!({
            "k": k, "bank_bits": bank_bits, "key_bits": key_bits, "seeds": args.seeds,
            "queries": args.queries, "confidence": args.confidence, "design_load": design,
            "measured": what, "families": families,
        });
        outln!("{v}");
        return Ok(());
    }
    let mut out = String::new();
    writeln!(
        out,
        "k={k} bank_bits={bank_bits} key_bits={key_bits}: {what}; seeds 0..{}, up to {} queries per case, {}% Clopper-Pearson intervals against the exact rate",
        args.seeds,
        args.queries,
        args.confidence * 100.0
    )?;
    writeln!(
        out,
        "\n{:<7} {:>6} {:>9} {:>9}  {:>8}  {:>15}  {:>8} {:>8}  worst case",
        "hash", "cases", ">1.5x", ">2x", "worst", "group means", "fill z", "items z"
    )?;
    for (family, _, s) in &results {
        let (lo, hi) = s
            .groups
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), g| {
                (lo.min(g.mean_ratio), hi.max(g.mean_ratio))
            });
        writeln!(
            out,
            "{:<7} {:>6} {:>9} {:>9}  {:>7.2}x  {:>6.3}..{:<6.3}  {:>8.1} {:>8.1}  {}",
            family.name(),
            s.cases,
            format!("{:.1}%", 100.0 * s.above_1_5 as f64 / s.cases as f64),
            format!("{:.1}%", 100.0 * s.above_2 as f64 / s.cases as f64),
            s.worst.ratio(),
            lo,
            hi,
            s.worst_fill_z,
            s.worst_items_z,
            s.worst
        )?;
    }
    writeln!(
        out,
        "\n(>1.5x, >2x: cases whose whole interval lies above that multiple of the exact rate; group means: measured / exact rate averaged over seeds, per set, query shape and load; fill z, items z: the largest departure of a bank fill and of the item estimate from their expected values, in standard deviations for random hashing)"
    )?;
    writeln!(out, "\nmean measured / exact rate over seeds:")?;
    write!(out, "{:<11} {:<10} {:>5}", "set", "queries", "load")?;
    for (family, _, _) in &results {
        write!(out, " {:>7}", family.name())?;
    }
    writeln!(out)?;
    if let Some((_, _, first)) = results.first() {
        for (i, g) in first.groups.iter().enumerate() {
            write!(
                out,
                "{:<11} {:<10} {:>5}",
                g.set.name(),
                g.query.name(),
                g.load_label()
            )?;
            for (_, _, s) in &results {
                write!(out, " {:>7.3}", s.groups[i].mean_ratio)?;
            }
            writeln!(out)?;
        }
    }
    writeln!(out)?;
    for (family, cases, s) in &results {
        let (keeps, why) = verdict(s, args.confidence);
        if keeps {
            writeln!(out, "{}: keeps the theory on these keys (no case significantly above {VERDICT_FACTOR}x, no group mean significantly beyond {}%, fills and estimates within {VERDICT_DEPARTURE} standard deviations)", family.name(), VERDICT_GROUP_TOLERANCE * 100.0)?;
        } else {
            writeln!(
                out,
                "{}: departs from the theory on these keys: {}",
                family.name(),
                why.join("; ")
            )?;
        }
        if args.cases {
            for c in cases {
                writeln!(out, "  {c}")?;
            }
        }
    }
    out!("{out}");
    Ok(())
}
