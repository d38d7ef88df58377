//! `bloom fpr`: false-positive rates by every formula of golden::theory for one
//! point (`--m --n --k [--json]`), the tables of the Summary Cache page
//! regenerated beside the exact values (`fpr table`), and the plots (`fpr plot`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};

use super::emit;
use golden::theory::{
    self, bloom1970, classic, classic_exp, optimal::conventional_k, partitioned_exact,
    standard_exact, FAST_MAX_K, FAST_MAX_M,
};

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<FprCommand>,
    /// Bits in the filter (any; the partitioned layout's rate needs a multiple of k).
    #[arg(long)]
    m: Option<u64>,
    /// Items inserted.
    #[arg(long)]
    n: Option<u64>,
    /// Hash functions (probes), 1..=64.
    #[arg(long)]
    k: Option<u32>,
    /// Counter width c (2..=8) of a counting filter of these m counters in k banks: adds
    /// the probability that some counter saturates while it holds n items (exact binomial
    /// tail per counter, union bound; docs/theory.md, counting filters).
    #[arg(long)]
    counter_bits: Option<golden::CounterBits>,
    /// Print one JSON object (keys m, n, k, classic, classic_exp, bloom1970,
    /// standard_exact, partitioned_exact; the last null when m is not a multiple
    /// of k; counting with --counter-bits) instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Subcommand)]
enum FprCommand {
    /// The false-positive table of the Summary Cache page (m/n = 2..32,
    /// k = 1..24, classic formula), each row beside the exact standard-layout
    /// rate of a filter of --m bits.
    Table {
        /// Filter size for the exact rows (n = m / (m/n), rounded).
        #[arg(long, default_value_t = 1024)]
        m: u64,
    },
    /// Write the plots: FILE (CRJ Fig. 2, relative error of the classic
    /// formula at the optimal k) and FILE-rates (classic vs exact vs
    /// partitioned), each as .svg and .png.
    Plot {
        /// Output path; a .svg or .png extension is replaced by both.
        #[arg(long)]
        out: PathBuf,
    },
    /// The structured-key suite: false positives, fills and item estimates of
    /// every hash family (or --hash) on structured key sets (consecutive,
    /// subnet, strided, low-weight, random) or on your own --keys, against the
    /// exact theory, over many seeds (docs/theory.md, "Structured key sets").
    Check(crate::cli::fpr_check::Args),
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Some(FprCommand::Table { m }) => table(m),
        Some(FprCommand::Plot { out }) => plot(&out),
        Some(FprCommand::Check(args)) => crate::cli::fpr_check::run(args),
        None => {
            let (Some(m), Some(n), Some(k)) = (args.m, args.n, args.k) else {
                bail!("`bloom fpr` needs --m, --n and --k (or a subcommand: `table`, `plot`)");
            };
            if let Some(c) = args.counter_bits {
                validate_point(m, n, k)?;
                if !c.is_counting() {
                    bail!("--counter-bits 1 is the plain filter: it has no counters to saturate (give 2..=8)");
                }
                if let Some(why) = partitioned_not_applicable(m, k) {
                    bail!("--counter-bits sizes the counters of the partitioned layout: {why}");
                }
            }
            point(m, n, k, args.counter_bits, args.json)
        }
    }
}

fn validate_point(m: u64, n: u64, k: u32) -> Result<()> {
    if k == 0 || k > FAST_MAX_K {
        bail!("--k {k} is out of range: the number of hash functions must be 1..={FAST_MAX_K}");
    }
    if n == 0 {
        bail!("--n 0 is out of range: at least one item must be inserted (with no items the rate is 0)");
    }
    if m == 0 || m > FAST_MAX_M {
        bail!("--m {m} is out of range: the filter must have 1..=2^50 bits");
    }
    if k as u64 > m {
        bail!("--k {k} is more than --m {m}: each hash function needs a bit of its own in the Bloom 1970 and partitioned layouts");
    }
    Ok(())
}

/// Why the partitioned layout has no rate at (m, k), if it has none.
fn partitioned_not_applicable(m: u64, k: u32) -> Option<String> {
    (!m.is_multiple_of(k as u64)).then(|| {
        format!(
            "not applicable: the partitioned layout splits the m bits into k equal banks, and {m} is not a multiple of {k} \
             (--m {} is)",
            (m / k as u64 + 1) * k as u64
        )
    })
}

/// Every formula at one point.
pub struct Point {
    pub m: u64,
    pub n: u64,
    pub k: u32,
    pub classic: f64,
    pub classic_exp: f64,
    pub bloom1970: f64,
    pub standard_exact: f64,
    /// None when m is not a multiple of k.
    pub partitioned_exact: Option<f64>,
}

fn evaluate(m: u64, n: u64, k: u32) -> Result<Point> {
    validate_point(m, n, k)?;
    let p = Point {
        m,
        n,
        k,
        classic: classic(m, n, k)?,
        classic_exp: classic_exp(m, n, k)?,
        bloom1970: bloom1970(m, n, k)?,
        standard_exact: standard_exact(m, n, k)?,
        partitioned_exact: if partitioned_not_applicable(m, k).is_none() {
            Some(partitioned_exact(m, n, k)?)
        } else {
            None
        },
    };
    for (name, v) in [
        ("classic", p.classic),
        ("classic_exp", p.classic_exp),
        ("bloom1970", p.bloom1970),
        ("standard_exact", p.standard_exact),
        ("partitioned_exact", p.partitioned_exact.unwrap_or(0.0)),
    ] {
        if !v.is_finite() {
            bail!("internal error: {name} is not finite for m={m} n={n} k={k}");
        }
    }
    Ok(p)
}

fn point(
    m: u64,
    n: u64,
    k: u32,
    counter_bits: Option<golden::CounterBits>,
    json: bool,
) -> Result<()> {
    let p = evaluate(m, n, k)?;
    let overflow = match counter_bits {
        Some(c) => Some(golden::theory::counting::counter_overflow(m, n, k, c)?),
        None => None,
    };
    if json {
        let mut v = serde_json::json!({
            "m": p.m, "n": p.n, "k": p.k,
            "classic": p.classic, "classic_exp": p.classic_exp, "bloom1970": p.bloom1970,
            "standard_exact": p.standard_exact, "partitioned_exact": p.partitioned_exact,
        });
        if let Some(o) = &overflow {
            v["counting"] = serde_json::json!({
                "counter_bits": o.counter_bits.get(),
                "saturation": o.saturation,
                "counter_tail": o.counter_tail,
                "expected_saturated": o.expected_saturated,
                "overflow_upper": o.overflow_upper,
                "overflow_lower": o.overflow_lower,
                "survey_bound": o.survey_bound,
            });
        }
        return emit(&format!("{v}\n"));
    }
    let excess = |v: f64| {
        if p.classic > 0.0 {
            format!("{:+.3}%", (v / p.classic - 1.0) * 100.0)
        } else {
            "-".into()
        }
    };
    let mut s = String::new();
    writeln!(
        s,
        "m = {m} bits, n = {n} items, k = {k} hash functions ({:.3} bits per item)",
        m as f64 / n as f64
    )?;
    writeln!(
        s,
        "  {:<46} {:>22}  vs classic",
        "formula", "false-positive rate"
    )?;
    let rows = [
        ("classic, CRJ Eq. 1: (1-(1-1/m)^kn)^k", Some(p.classic)),
        (
            "classic, exponential form: (1-e^(-kn/m))^k",
            Some(p.classic_exp),
        ),
        ("Bloom 1970, CRJ Eq. 19: (1-(1-k/m)^n)^k", Some(p.bloom1970)),
        (
            "standard layout, exact (CRJ Eq. 17/18/20)",
            Some(p.standard_exact),
        ),
        ("partitioned layout, exact (= Eq. 19)", p.partitioned_exact),
    ];
    for (name, v) in rows {
        match v {
            Some(v) => writeln!(s, "  {name:<46} {v:>22.15e}  {}", excess(v))?,
            None => writeln!(
                s,
                "  {name:<46} {}",
                partitioned_not_applicable(m, k).unwrap_or_default()
            )?,
        }
    }
    if theory::table_cost(m, n, k) <= 20_000_000 {
        let t = theory::standard_exact_table(m, n, k)?;
        writeln!(
            s,
            "  {:<46} {t:>22.15e}  (relative difference {:.1e})",
            "  cross-check: CRJ Fig. 1 table algorithm",
            theory::rel_diff(t, p.standard_exact)
        )?;
    }
    let conv = conventional_k(m, n)?;
    let std_opt =
        theory::optimal::exact_optimal_k(theory::optimal::Layout::Standard, m, n, FAST_MAX_K)?;
    let part_opt =
        theory::optimal::exact_optimal_k(theory::optimal::Layout::Partitioned, m, n, FAST_MAX_K)?;
    writeln!(
        s,
        "optimal k: conventional {conv} (of the integers nearest (m/n) ln 2 = {:.3})",
        m as f64 / n as f64 * std::f64::consts::LN_2
    )?;
    if let Some((k, r)) = std_opt {
        writeln!(
            s,
            "           standard layout, exact minimiser {k} (rate {r:.6e})"
        )?;
    }
    if let Some((k, r)) = part_opt {
        writeln!(
            s,
            "           partitioned layout, exact minimiser among divisors of m: {k} (rate {r:.6e})"
        )?;
    }
    if let Some(o) = &overflow {
        writeln!(
            s,
            "  counting filter, {}-bit counters (saturated at {}): P(a counter reaches {}) = {:.4e}; expected saturated \
             counters {:.4e}; P(some counter saturates) between {:.4e} and {:.4e} (union bound){}",
            o.counter_bits.get(),
            o.saturation,
            o.saturation,
            o.counter_tail,
            o.expected_saturated,
            o.overflow_lower,
            o.overflow_upper,
            o.survey_bound.map(|b| format!("; the survey's m (e ln2/S)^S form: {b:.4e}")).unwrap_or_default()
        )?;
    }
    emit(&s)
}

/// Rounded n for a bits-per-item ratio at m bits (at least 1).
fn items_for_ratio(m: u64, ratio: u64) -> u64 {
    ((m as f64 / ratio as f64).round() as u64).max(1)
}

fn table(m: u64) -> Result<()> {
    if !(32..=FAST_MAX_M).contains(&m) {
        bail!("--m {m} is out of range: the exact rows need 32..=2^50 bits (m/n goes up to 32)");
    }
    let mut s = String::new();
    writeln!(
        s,
        "False-positive rates (the Summary Cache table: classic formula (1-e^(-kn/m))^k),"
    )?;
    writeln!(
        s,
        "each row followed by the exact standard-layout rate of a filter of m = {m} bits"
    )?;
    writeln!(
        s,
        "with n = m/(m/n) rounded; '*' marks the smallest value of each row.\n"
    )?;
    for block in 0..3u32 {
        let ks: Vec<u32> = (block * 8 + 1..=block * 8 + 8).collect();
        write!(s, "{:>5} | {:>5} | {:<16}|", "m/n", "k_opt", "")?;
        for k in &ks {
            write!(s, " {:>10}", format!("k={k}"))?;
        }
        writeln!(s)?;
        for ratio in 2..=32u64 {
            let n_exact = items_for_ratio(m, ratio);
            let classic_row: Vec<f64> = (1..=24)
                .map(|k| classic_exp(ratio, 1, k))
                .collect::<Result<_, _>>()?;
            let exact_row: Vec<f64> = (1..=24)
                .map(|k| standard_exact(m, n_exact, k))
                .collect::<Result<_, _>>()?;
            let argmin = |row: &[f64]| {
                (0..row.len())
                    .min_by(|&a, &b| row[a].total_cmp(&row[b]))
                    .unwrap()
            };
            let (cmin, emin) = (argmin(&classic_row), argmin(&exact_row));
            write!(
                s,
                "{ratio:>5} | {:>5.2} | {:<16}|",
                ratio as f64 * std::f64::consts::LN_2,
                "classic"
            )?;
            for k in &ks {
                let i = *k as usize - 1;
                write!(
                    s,
                    " {:>9.3e}{}",
                    classic_row[i],
                    if i == cmin { '*' } else { ' ' }
                )?;
            }
            writeln!(s)?;
            write!(
                s,
                "{:>5} | {:>5} | {:<16}|",
                "",
                "",
                format!("exact n={n_exact}")
            )?;
            for k in &ks {
                let i = *k as usize - 1;
                write!(
                    s,
                    " {:>9.3e}{}",
                    exact_row[i],
                    if i == emin { '*' } else { ' ' }
                )?;
            }
            writeln!(s)?;
        }
        writeln!(s)?;
    }
    emit(&s)
}

/// The four m/n values of the Fig. 2 reproduction.
pub const FIG2_RATIOS: [u64; 4] = [4, 8, 16, 32];

fn plot(out: &Path) -> Result<()> {
    let stem = out.with_extension("");
    let name = stem
        .file_name()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .with_context(|| format!("--out {}: needs a file name", out.display()))?
        .to_string();
    let dir = match stem.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        bail!(
            "--out {}: directory {} does not exist",
            out.display(),
            dir.display()
        );
    }
    let targets: Vec<PathBuf> = ["", "-rates"]
        .iter()
        .flat_map(|suffix| ["svg", "png"].map(|ext| dir.join(format!("{name}{suffix}.{ext}"))))
        .collect();
    for t in &targets {
        crate::cli::check_output_file("--out", t)?;
    }
    plots::register_font()?;
    let fig2 = plots::fig2_data()?;
    let rates = plots::rates_data()?;
    // plotters writes each file by name: into a fresh temporary beside its target
    // (bloom_files::OutputFile); the four are renamed into place only once all are
    // drawn, so a failure (a full disk) leaves none of them.
    let mut drawn = Vec::new();
    for (suffix, draw) in [("", 0usize), ("-rates", 1)] {
        for ext in ["svg", "png"] {
            let target = dir.join(format!("{name}{suffix}.{ext}"));
            let out = bloom_files::OutputFile::create(&target).map_err(|e| anyhow!("--out {e}"))?;
            let result = match draw {
                0 => plots::draw_fig2(out.temp_path(), ext, &fig2),
                _ => plots::draw_rates(out.temp_path(), ext, &rates),
            };
            result.with_context(|| format!("drawing {}", target.display()))?;
            drawn.push(out);
        }
    }
    let mut written = Vec::new();
    for out in drawn {
        written.push(out.target().to_path_buf());
        out.commit().map_err(|e| anyhow!("--out {e}"))?;
    }
    let mut s = String::new();
    for w in written {
        writeln!(s, "wrote {}", w.display())?;
    }
    emit(&s)
}

pub(crate) mod plots {
    use std::path::Path;

    use anyhow::{anyhow, bail, Result};
    use golden::theory::{classic, optimal::conventional_k, partitioned_exact, standard_exact};
    use plotters::coord::Shift;
    use plotters::prelude::*;

    use super::{items_for_ratio, FIG2_RATIOS};

    const FONT_PATHS: [&str; 4] = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    ];

    /// Plotters measures and renders text with a font registered at run time
    /// (no system font lookup); any of these TrueType files will do.
    pub fn register_font() -> Result<()> {
        let path = FONT_PATHS.iter().find(|p| Path::new(p).is_file()).ok_or_else(|| {
            anyhow!(
                "no TrueType font for the plots: looked for {}; install one with `apt-get install fonts-dejavu-core`",
                FONT_PATHS.join(", ")
            )
        })?;
        let bytes: &'static [u8] = Box::leak(std::fs::read(path)?.into_boxed_slice());
        plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
            .map_err(|_| anyhow!("{path} is not a usable TrueType font"))?;
        Ok(())
    }

    /// One curve per m/n: (m/n, points (m, relative error in percent)).
    pub type Fig2 = Vec<(u64, Vec<(f64, f64)>)>;

    /// Per m/n: points (m, relative error of the classic formula in percent).
    pub fn fig2_data() -> Result<Fig2> {
        let mut series = Vec::new();
        for ratio in FIG2_RATIOS {
            let mut pts = Vec::new();
            // m from 32 to 2^16 in quarter-octave steps, multiples of 32 so that n = m / (m/n) exactly.
            for step in 0..=44 {
                let m = ((2f64.powf(step as f64 / 4.0)).round() as u64) * 32;
                let n = items_for_ratio(m, ratio);
                let k = conventional_k(m, n)?;
                let exact = standard_exact(m, n, k)?;
                let cl = classic(m, n, k)?;
                pts.push((m as f64, (exact - cl) / exact * 100.0));
            }
            series.push((ratio, pts));
        }
        Ok(series)
    }

    pub struct Rates {
        pub m: u64,
        pub k: u32,
        /// (n, classic, standard exact, partitioned exact)
        pub rows: Vec<(f64, f64, f64, f64)>,
    }

    pub fn rates_data() -> Result<Rates> {
        let (m, k) = (256u64, 4u32);
        let mut rows = Vec::new();
        for n in (4..=160u64).step_by(4) {
            rows.push((
                n as f64,
                classic(m, n, k)?,
                standard_exact(m, n, k)?,
                partitioned_exact(m, n, k)?,
            ));
        }
        Ok(Rates { m, k, rows })
    }

    macro_rules! render {
        ($path:expr, $ext:expr, $size:expr, $body:ident, $data:expr) => {{
            match $ext {
                "svg" => {
                    let root = SVGBackend::new($path, $size).into_drawing_area();
                    $body(&root, $data)?;
                    root.present().map_err(|e| anyhow!("{e}"))?;
                }
                "png" => {
                    let root = BitMapBackend::new($path, $size).into_drawing_area();
                    $body(&root, $data)?;
                    root.present().map_err(|e| anyhow!("{e}"))?;
                }
                other => bail!("unknown image format {other}"),
            }
            Ok(())
        }};
    }

    pub fn draw_fig2(path: &Path, ext: &str, data: &[(u64, Vec<(f64, f64)>)]) -> Result<()> {
        render!(path, ext, (960, 640), fig2_body, data)
    }

    pub fn draw_rates(path: &Path, ext: &str, data: &Rates) -> Result<()> {
        render!(path, ext, (1200, 560), rates_body, data)
    }

    const COLORS: [RGBColor; 4] = [
        RGBColor(0, 90, 181),
        RGBColor(220, 50, 32),
        RGBColor(0, 140, 60),
        RGBColor(150, 60, 170),
    ];

    fn fig2_body<DB: DrawingBackend>(
        root: &DrawingArea<DB, Shift>,
        data: &[(u64, Vec<(f64, f64)>)],
    ) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
        let ymax = data
            .iter()
            .flat_map(|(_, p)| p.iter().map(|q| q.1))
            .fold(0.0f64, f64::max);
        let ymin = data
            .iter()
            .flat_map(|(_, p)| p.iter().map(|q| q.1))
            .filter(|v| *v > 0.0)
            .fold(f64::INFINITY, f64::min);
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Relative error of the classic formula (CRJ Fig. 2), optimal k",
                ("sans-serif", 26),
            )
            .margin(16)
            .x_label_area_size(52)
            .y_label_area_size(80)
            .build_cartesian_2d(
                (24f64..90_000f64).log_scale(),
                (ymin * 0.5..ymax * 2.0).log_scale(),
            )
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .configure_mesh()
            .x_desc("m (bits in the filter)")
            .y_desc("(exact - classic) / exact  [%]")
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 18))
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| {
                let decimals = (-v.log10().floor()).max(0.0) as usize;
                format!("{v:.decimals$}")
            })
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        for (i, (ratio, pts)) in data.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(3)))
                .map_err(|e| anyhow!("{e}"))?
                .label(format!("m/n = {ratio}"))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font(("sans-serif", 18))
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        Ok(())
    }

    fn rates_body<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, data: &Rates) -> Result<()>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
        let (left, right) = root.split_horizontally(600);
        let xmax = data.rows.last().map(|r| r.0).unwrap_or(1.0);
        let ymin = data
            .rows
            .iter()
            .map(|r| r.1.min(r.2).min(r.3))
            .fold(f64::INFINITY, f64::min);
        let mut chart = ChartBuilder::on(&left)
            .caption(
                format!("False-positive rate, m = {} bits, k = {}", data.m, data.k),
                ("sans-serif", 22),
            )
            .margin(14)
            .x_label_area_size(48)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..xmax, (ymin * 0.5..1.0f64).log_scale())
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .configure_mesh()
            .x_desc("n (items)")
            .y_desc("rate")
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        type Column = Box<dyn Fn(&(f64, f64, f64, f64)) -> f64>;
        let series: [(&str, Column); 3] = [
            ("classic (Eq. 1)", Box::new(|r| r.1)),
            ("standard layout, exact", Box::new(|r| r.2)),
            ("partitioned layout, exact (= Eq. 19)", Box::new(|r| r.3)),
        ];
        for (i, (label, f)) in series.iter().enumerate() {
            let color = COLORS[i];
            chart
                .draw_series(LineSeries::new(
                    data.rows.iter().map(|r| (r.0, f(r))),
                    color.stroke_width(3),
                ))
                .map_err(|e| anyhow!("{e}"))?
                .label(*label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .label_font(("sans-serif", 16))
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(|e| anyhow!("{e}"))?;

        let ratios: Vec<(f64, f64, f64)> = data
            .rows
            .iter()
            .map(|r| (r.0, r.2 / r.1, r.3 / r.1))
            .collect();
        let rmax = ratios.iter().map(|r| r.1.max(r.2)).fold(1.0f64, f64::max);
        let mut chart = ChartBuilder::on(&right)
            .caption("Rate divided by the classic formula", ("sans-serif", 22))
            .margin(14)
            .x_label_area_size(48)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..xmax, 0.99f64..(rmax + (rmax - 1.0) * 0.1))
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .configure_mesh()
            .x_desc("n (items)")
            .y_desc("rate / classic")
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .y_label_formatter(&|v| format!("{v:.3}"))
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        for (i, (label, pick)) in [("standard, exact", 0usize), ("partitioned, exact", 1)]
            .into_iter()
            .enumerate()
        {
            let color = COLORS[i + 1];
            chart
                .draw_series(LineSeries::new(
                    ratios
                        .iter()
                        .map(move |r| (r.0, if pick == 0 { r.1 } else { r.2 })),
                    color.stroke_width(3),
                ))
                .map_err(|e| anyhow!("{e}"))?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
                });
        }
        chart
            .draw_series(LineSeries::new(
                vec![(0.0, 1.0), (xmax, 1.0)],
                COLORS[0].stroke_width(2),
            ))
            .map_err(|e| anyhow!("{e}"))?
            .label("classic")
            .legend(|(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], COLORS[0].stroke_width(2))
            });
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font(("sans-serif", 16))
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        Ok(())
    }
}
