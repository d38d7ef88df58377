//! The structured-key suite (docs/theory.md, "Structured key sets"): does a
//! hash family keep the exact theory's promises on the keys people insert?
//!
//! A **case** is one key set of one shape at one load, put into a filter of
//! one configuration and seed, then probed with queries of one shape that
//! are not in the set. Its false positives are compared with the exact rate
//! of the partitioned layout, (1 - (1 - 2^-b)^n)^k, through an exact
//! (Clopper-Pearson) interval; its bank fills and its item estimate
//! (contract §6) are compared with their expected values and spreads for
//! random hashing.
//!
//! Sets: consecutive integers (1, 2, ...), a subnet (10.0.0.0 + i),
//! multiples of 4096, keys of low Hamming weight (a few bits apart: every
//! key of weight 1, then 2, ...), and random keys. Queries: the next keys of
//! the set's pattern, random keys, and one-bit neighbours of inserted keys.
//! Loads: half and all of the design load n_design = ln(1/2) / ln(1 - 2^-b).
//!
//! The suite takes any address function ([`Addresser`]), so that candidate
//! hashes are measured exactly as the contract's families are.

use std::collections::HashSet;
use std::fmt;

use crate::config::{max_key, CoreParams};
use crate::rng::SplitMix64;
use crate::theory::images::{design_items, estimate_items, fill_moments};

/// Computes the k addresses of a key (k = `out.len()`).
pub trait Addresser: Sync {
    fn addresses_into(&self, key: u128, out: &mut [u32]);
}

impl Addresser for crate::PartitionedFilter {
    fn addresses_into(&self, key: u128, out: &mut [u32]) {
        crate::PartitionedFilter::addresses_into(self, key, out)
            .expect("the suite's keys fit the key width");
    }
}

/// The shape of an inserted key set; key i of the pattern (i = 0, 1, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetShape {
    /// 1, 2, 3, ...
    Sequential,
    /// 10.0.0.0 + i as a 32-bit integer (0x0A000000 + i).
    Subnet,
    /// 4096, 8192, ...: multiples of 2^12.
    Strided,
    /// Every key of Hamming weight 1, then every key of weight 2, ... (each
    /// weight in increasing order): keys a few bits apart.
    LowWeight,
    /// Uniformly random distinct keys.
    Random,
    /// The keys of a file the user gives ([`GivenKeys`]): no pattern to continue.
    File,
}

impl SetShape {
    pub const ALL: [SetShape; 5] = [
        SetShape::Sequential,
        SetShape::Subnet,
        SetShape::Strided,
        SetShape::LowWeight,
        SetShape::Random,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SetShape::Sequential => "sequential",
            SetShape::Subnet => "subnet",
            SetShape::Strided => "strided",
            SetShape::LowWeight => "low-weight",
            SetShape::Random => "random",
            SetShape::File => "file",
        }
    }
}

/// The shape of the queries of a case (none of them is in the set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueryShape {
    /// The keys that follow the set in its pattern (for a random set: more random keys).
    Next,
    /// Uniformly random keys.
    Random,
    /// An inserted key with one bit flipped (key and bit drawn at random,
    /// each neighbour asked once).
    Neighbours,
    /// The query keys of a file the user gives ([`GivenKeys`]), members of the set skipped.
    File,
}

impl QueryShape {
    pub const ALL: [QueryShape; 3] = [QueryShape::Next, QueryShape::Random, QueryShape::Neighbours];

    pub fn name(self) -> &'static str {
        match self {
            QueryShape::Next => "next",
            QueryShape::Random => "random",
            QueryShape::Neighbours => "neighbours",
            QueryShape::File => "file",
        }
    }
}

/// A generator of a set shape's keys, in pattern order.
struct Pattern {
    shape: SetShape,
    key_bits: u32,
    index: u128,
    rng: SplitMix64,
    /// Low-weight pattern: the current value and its weight.
    weight: u32,
    current: u128,
}

impl Pattern {
    fn new(shape: SetShape, key_bits: u32, rng_seed: u64) -> Self {
        Pattern {
            shape,
            key_bits,
            index: 0,
            rng: SplitMix64::new(rng_seed),
            weight: 0,
            current: 0,
        }
    }

    /// The next key, or None when the pattern leaves the key width.
    fn next_key(&mut self) -> Option<u128> {
        let i = self.index;
        self.index += 1;
        let key = match self.shape {
            SetShape::Sequential => 1 + i,
            SetShape::Subnet => 0x0A00_0000 + i,
            SetShape::Strided => (1 + i) << 12,
            SetShape::Random => self.rng.key(self.key_bits),
            SetShape::File => return None,
            SetShape::LowWeight => {
                // Gosper's hack: the next value of the same weight, else the
                // smallest of the next weight.
                let max = max_key(self.key_bits);
                let c = self.current;
                let next = if c == 0 {
                    None
                } else {
                    let low = c & c.wrapping_neg();
                    c.checked_add(low).map(|r| (((r ^ c) >> 2) / low) | r)
                };
                self.current = match next {
                    Some(v) if v <= max && v != 0 => v,
                    _ => {
                        self.weight += 1;
                        if self.weight > self.key_bits {
                            return None;
                        }
                        max_key(self.weight)
                    }
                };
                self.current
            }
        };
        (key <= max_key(self.key_bits)).then_some(key)
    }
}

/// The filter of one case: banks of bits and their fills.
struct Banks {
    bank_bits: u32,
    bits: Vec<Vec<u64>>,
    fill: Vec<u64>,
}

impl Banks {
    fn new(k: u32, bank_bits: u32) -> Self {
        let words = ((1usize << bank_bits) / 64).max(1);
        Banks {
            bank_bits,
            bits: vec![vec![0; words]; k as usize],
            fill: vec![0; k as usize],
        }
    }

    fn insert(&mut self, addresses: &[u32]) {
        for (p, &a) in addresses.iter().enumerate() {
            let (word, bit) = (a as usize / 64, a % 64);
            if self.bits[p][word] >> bit & 1 == 0 {
                self.bits[p][word] |= 1 << bit;
                self.fill[p] += 1;
            }
        }
    }

    fn query(&self, addresses: &[u32]) -> bool {
        addresses
            .iter()
            .enumerate()
            .all(|(p, &a)| self.bits[p][a as usize / 64] >> (a % 64) & 1 == 1)
    }

    fn bank_size(&self) -> u64 {
        1 << self.bank_bits
    }
}

/// What one suite run measures.
#[derive(Clone, Debug)]
pub struct SuiteOptions {
    /// Configuration (its hash family and seed are the caller's business: the
    /// addresser is made per seed).
    pub k: u32,
    pub bank_bits: u32,
    pub key_bits: u32,
    /// Seeds 0 .. seeds.
    pub seeds: u64,
    /// Queries per case.
    pub queries: usize,
    pub sets: Vec<SetShape>,
    pub query_shapes: Vec<QueryShape>,
    /// Loads as fractions of the design load.
    pub loads: Vec<f64>,
    /// Two-sided confidence of the Clopper-Pearson intervals.
    pub confidence: f64,
    /// Worker threads.
    pub threads: usize,
    /// A key set of the user's in place of the built-in shapes (then `sets`
    /// and `loads` are not used, and the query shapes are random keys,
    /// neighbours and the given queries, if any).
    pub given: Option<std::sync::Arc<GivenKeys>>,
}

/// A user's own keys: the set to insert, and queries to make of it.
#[derive(Clone, Debug, Default)]
pub struct GivenKeys {
    /// Distinct keys, in the order given.
    pub keys: Vec<u128>,
    /// Keys to query (members of `keys` among them are skipped).
    pub queries: Vec<u128>,
}

impl GivenKeys {
    /// The set of `keys` (repeats dropped) and the queries.
    pub fn new(keys: impl IntoIterator<Item = u128>, queries: Vec<u128>) -> GivenKeys {
        let mut seen = HashSet::new();
        let keys = keys.into_iter().filter(|k| seen.insert(*k)).collect();
        GivenKeys { keys, queries }
    }

    /// The query shapes a given set is measured with.
    pub fn query_shapes(&self) -> Vec<QueryShape> {
        let mut shapes = vec![QueryShape::Random, QueryShape::Neighbours];
        if !self.queries.is_empty() {
            shapes.push(QueryShape::File);
        }
        shapes
    }
}

impl SuiteOptions {
    /// Every set, query shape, half and full design load, 32 seeds, 100,000
    /// queries per case, 99 % intervals.
    pub fn full(k: u32, bank_bits: u32, key_bits: u32) -> Self {
        SuiteOptions {
            k,
            bank_bits,
            key_bits,
            seeds: 32,
            queries: 100_000,
            sets: SetShape::ALL.to_vec(),
            query_shapes: QueryShape::ALL.to_vec(),
            loads: vec![0.5, 1.0],
            confidence: 0.99,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            given: None,
        }
    }

    /// The keys inserted at `load` (a fraction of the design load).
    pub fn keys_at(&self, load: f64) -> u64 {
        let design = design_items(1 << self.bank_bits).expect("b is at least 6");
        (design * load).round().max(1.0) as u64
    }
}

/// One case's figures.
#[derive(Clone, Debug)]
pub struct Case {
    pub set: SetShape,
    pub query: QueryShape,
    pub load: f64,
    pub seed: u64,
    /// Keys inserted.
    pub n: u64,
    pub queries: u64,
    pub false_positives: u64,
    /// The exact rate for random hashing.
    pub exact: f64,
    /// Clopper-Pearson interval of the measured rate.
    pub low: f64,
    pub high: f64,
    /// The bank fills, and the largest |fill - expected| / sd over banks.
    pub fills: Vec<u64>,
    pub fill_z: f64,
    /// The item estimate (contract §6) and (estimate - n) / its standard error.
    pub items: f64,
    pub items_z: f64,
}

impl Case {
    pub fn rate(&self) -> f64 {
        self.false_positives as f64 / self.queries as f64
    }
    pub fn ratio(&self) -> f64 {
        self.rate() / self.exact
    }
    /// The whole interval lies above `factor` times the exact rate.
    pub fn significantly_above(&self, factor: f64) -> bool {
        self.low > factor * self.exact
    }
}

/// The largest |fill - expected| / sd over the banks of a filter holding n keys.
pub fn worst_fill_departure(bank_size: u64, n: u64, fills: &[u64]) -> f64 {
    let (mean, sd) = fill_moments(bank_size, n as f64);
    fills
        .iter()
        .map(|&x| (x as f64 - mean).abs() / sd.max(f64::MIN_POSITIVE))
        .fold(0.0, f64::max)
}

fn run_set(
    options: &SuiteOptions,
    hasher: &dyn Addresser,
    set: SetShape,
    load: f64,
    seed: u64,
) -> Result<Vec<Case>, String> {
    let k = options.k as usize;
    let given = options.given.as_deref().filter(|_| set == SetShape::File);
    let n = match given {
        Some(given) => given.keys.len() as u64,
        None => options.keys_at(load),
    };
    let mut banks = Banks::new(options.k, options.bank_bits);
    // The set's random stream depends on the seed, so random sets differ per case.
    let stream = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ set as u64;
    let mut pattern = Pattern::new(set, options.key_bits, stream);
    let mut members = HashSet::with_capacity(n as usize);
    let mut inserted = Vec::with_capacity(n as usize);
    let mut addresses = vec![0u32; k];
    for &key in given.map_or(&[][..], |g| &g.keys[..]) {
        if members.insert(key) {
            inserted.push(key);
            hasher.addresses_into(key, &mut addresses);
            banks.insert(&addresses);
        }
    }
    while (members.len() as u64) < n {
        let key = pattern.next_key().ok_or_else(|| {
            format!(
                "the {} pattern leaves {}-bit keys before {n} keys",
                set.name(),
                options.key_bits
            )
        })?;
        if members.insert(key) {
            inserted.push(key);
            hasher.addresses_into(key, &mut addresses);
            banks.insert(&addresses);
        }
    }
    let m = banks.bank_size();
    let exact = (1.0 - (1.0 - 1.0 / m as f64).powf(n as f64)).powi(options.k as i32);
    let fill_z = worst_fill_departure(m, n, &banks.fill);
    let estimate = estimate_items(m, &banks.fill).map_err(|e| e.to_string())?;
    let items_z = (estimate.items - n as f64) / estimate.std_error;
    let mut cases = Vec::new();
    let shapes = match given {
        Some(given) => given.query_shapes(),
        None => options.query_shapes.clone(),
    };
    for shape in shapes {
        let mut rng = SplitMix64::new(stream ^ 0xABCD ^ (shape as u64) << 32);
        // The pattern continues where the set stopped.
        let mut next = match given {
            Some(_) => Pattern::new(SetShape::File, options.key_bits, stream),
            None => pattern_clone_after(set, options.key_bits, stream, &inserted)?,
        };
        let mut file_queries = given.map_or(&[][..], |g| &g.queries[..]).iter();
        // Neighbours are drawn without replacement: a small set has few of
        // them, and a repeated query is not a new trial.
        let mut asked = HashSet::new();
        let (mut queries, mut false_positives, mut attempts) = (0u64, 0u64, 0u64);
        while queries < options.queries as u64 && attempts < 20 * options.queries as u64 {
            attempts += 1;
            let key = match shape {
                QueryShape::Next => match next.next_key() {
                    Some(key) => key,
                    None => break,
                },
                QueryShape::Random => rng.key(options.key_bits),
                QueryShape::File => match file_queries.next() {
                    Some(&key) => key,
                    None => break,
                },
                QueryShape::Neighbours => {
                    let base = inserted[rng.below(inserted.len() as u64) as usize];
                    base ^ 1u128 << rng.below(options.key_bits as u64)
                }
            };
            if members.contains(&key) || (shape == QueryShape::Neighbours && !asked.insert(key)) {
                continue;
            }
            queries += 1;
            hasher.addresses_into(key, &mut addresses);
            false_positives += banks.query(&addresses) as u64;
        }
        if queries == 0 {
            return Err(format!(
                "no {} query of the {} set lies outside it",
                shape.name(),
                set.name()
            ));
        }
        let (low, high) = clopper_pearson(false_positives, queries, options.confidence);
        cases.push(Case {
            set,
            query: shape,
            load,
            seed,
            n,
            queries,
            false_positives,
            exact,
            low,
            high,
            fills: banks.fill.clone(),
            fill_z,
            items: estimate.items,
            items_z,
        });
    }
    Ok(cases)
}

/// A pattern positioned just after the keys of `inserted` (which it made).
fn pattern_clone_after(
    set: SetShape,
    key_bits: u32,
    stream: u64,
    inserted: &[u128],
) -> Result<Pattern, String> {
    let mut pattern = Pattern::new(set, key_bits, stream);
    let mut seen = HashSet::with_capacity(inserted.len());
    while seen.len() < inserted.len() {
        let key = pattern
            .next_key()
            .ok_or_else(|| format!("the {} pattern ended", set.name()))?;
        seen.insert(key);
    }
    Ok(pattern)
}

/// One worker's cases, each with the index of its job.
type WorkerResult = Result<Vec<(usize, Vec<Case>)>, String>;

/// Runs every case of `options`, the hash of each seed made by `make`.
pub fn run_suite<A: Addresser>(
    options: &SuiteOptions,
    make: &(dyn Fn(u64) -> A + Sync),
) -> Result<Vec<Case>, String> {
    let jobs: Vec<(u64, SetShape, f64)> = match &options.given {
        Some(given) => {
            let design = design_items(1 << options.bank_bits).map_err(|e| e.to_string())?;
            let load = given.keys.len() as f64 / design;
            (0..options.seeds)
                .map(|seed| (seed, SetShape::File, load))
                .collect()
        }
        None => (0..options.seeds)
            .flat_map(|seed| {
                options
                    .sets
                    .iter()
                    .flat_map(move |&set| options.loads.iter().map(move |&load| (seed, set, load)))
            })
            .collect(),
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = options.threads.max(1);
    let results: Vec<WorkerResult> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let (jobs, next) = (&jobs, &next);
                scope.spawn(move || {
                    let mut done = Vec::new();
                    let mut hasher: Option<(u64, A)> = None;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&(seed, set, load)) = jobs.get(i) else {
                            break;
                        };
                        if hasher.as_ref().map(|(s, _)| *s) != Some(seed) {
                            hasher = Some((seed, make(seed)));
                        }
                        let (_, h) = hasher.as_ref().expect("made above");
                        done.push((i, run_set(options, h, set, load, seed)?));
                    }
                    Ok(done)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut all = Vec::new();
    for result in results {
        all.extend(result?);
    }
    all.sort_by_key(|(i, _)| *i);
    Ok(all.into_iter().flat_map(|(_, cases)| cases).collect())
}

/// The suite for a configuration's own family, seeds 0 .. options.seeds.
pub fn run_family(options: &SuiteOptions, cfg: &CoreParams) -> Result<Vec<Case>, String> {
    let make = |seed: u64| {
        crate::PartitionedFilter::try_new(CoreParams { seed, ..*cfg })
            .expect("the configuration was validated")
    };
    run_suite(options, &make)
}

/// The mean over seeds of measured / exact rate of one (set, query, load) group.
#[derive(Clone, Debug)]
pub struct GroupMean {
    pub set: SetShape,
    pub query: QueryShape,
    pub load: f64,
    pub cases: usize,
    pub mean_ratio: f64,
    /// The group's cases pooled: false positives, queries and the sum of
    /// their exact expected false positives.
    pub false_positives: u64,
    pub queries: u64,
    pub expected: f64,
}

impl GroupMean {
    /// The pooled measured / exact rate's Clopper-Pearson interval (the
    /// binomial noise of the group's queries; the fills' own spread from
    /// seed to seed is not in it).
    pub fn pooled_interval(&self, confidence: f64) -> (f64, f64) {
        let (low, high) = clopper_pearson(self.false_positives, self.queries, confidence);
        let exact = self.expected / self.queries as f64;
        (low / exact, high / exact)
    }

    /// The load as printed: the fraction of the design load, to three places.
    pub fn load_label(&self) -> String {
        let rounded = (self.load * 1000.0).round() / 1000.0;
        rounded.to_string()
    }
}

/// A family's results, summed up.
#[derive(Clone, Debug)]
pub struct Summary {
    pub cases: usize,
    /// The case with the largest measured / exact rate.
    pub worst: Case,
    pub above_1_5: usize,
    pub above_2: usize,
    pub groups: Vec<GroupMean>,
    /// The group whose mean ratio is furthest from 1.
    pub worst_group: GroupMean,
    pub worst_fill_z: f64,
    pub worst_items_z: f64,
}

impl Summary {
    pub fn of(cases: &[Case]) -> Option<Summary> {
        let worst = cases
            .iter()
            .max_by(|a, b| a.ratio().total_cmp(&b.ratio()))?
            .clone();
        let mut groups: Vec<GroupMean> = Vec::new();
        for case in cases {
            match groups
                .iter_mut()
                .find(|g| g.set == case.set && g.query == case.query && g.load == case.load)
            {
                Some(g) => {
                    g.cases += 1;
                    g.mean_ratio += case.ratio();
                    g.false_positives += case.false_positives;
                    g.queries += case.queries;
                    g.expected += case.exact * case.queries as f64;
                }
                None => groups.push(GroupMean {
                    set: case.set,
                    query: case.query,
                    load: case.load,
                    cases: 1,
                    mean_ratio: case.ratio(),
                    false_positives: case.false_positives,
                    queries: case.queries,
                    expected: case.exact * case.queries as f64,
                }),
            }
        }
        for g in &mut groups {
            g.mean_ratio /= g.cases as f64;
        }
        let worst_group = groups
            .iter()
            .max_by(|a, b| {
                (a.mean_ratio - 1.0)
                    .abs()
                    .total_cmp(&(b.mean_ratio - 1.0).abs())
            })?
            .clone();
        // Every case of a set shared its filter with the other query shapes:
        // fills and estimates count once per filter, but the maxima are the same.
        Some(Summary {
            cases: cases.len(),
            above_1_5: cases.iter().filter(|c| c.significantly_above(1.5)).count(),
            above_2: cases.iter().filter(|c| c.significantly_above(2.0)).count(),
            worst,
            groups,
            worst_group,
            worst_fill_z: cases.iter().map(|c| c.fill_z).fold(0.0, f64::max),
            worst_items_z: cases.iter().map(|c| c.items_z.abs()).fold(0.0, f64::max),
        })
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} set, {} queries, load {}, seed {}: {:.5} [{:.5}, {:.5}] against {:.5} ({:.2}x)",
            self.set.name(),
            self.query.name(),
            self.load,
            self.seed,
            self.rate(),
            self.low,
            self.high,
            self.exact,
            self.ratio()
        )
    }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms; about 1e-15 relative).
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..10_000 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// The regularised incomplete beta function I_x(a, b).
pub fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_fraction(a, b, x) / a
    } else {
        1.0 - ln_front.exp() * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// The p with I_p(a, b) = target, by bisection.
fn beta_quantile(target: f64, a: f64, b: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if incomplete_beta(a, b, mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-15 * hi.max(1e-300) {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// The exact (Clopper-Pearson) two-sided interval of a binomial proportion:
/// `successes` of `trials` at the given confidence (0.99 = 99 %).
pub fn clopper_pearson(successes: u64, trials: u64, confidence: f64) -> (f64, f64) {
    let alpha = 1.0 - confidence;
    let (x, n) = (successes as f64, trials as f64);
    let low = if successes == 0 {
        0.0
    } else {
        beta_quantile(alpha / 2.0, x, n - x + 1.0)
    };
    let high = if successes >= trials {
        1.0
    } else {
        beta_quantile(1.0 - alpha / 2.0, x + 1.0, n - x)
    };
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clopper_pearson_matches_known_values() {
        // 7 of 100 at 95 %: the p where P(X >= 7) = 0.025 and where P(X <= 7) =
        // 0.025, solved by bisection on the exact binomial sums (8 terms each).
        let (lo, hi) = clopper_pearson(7, 100, 0.95);
        assert!((lo - 0.028_605_288_9).abs() < 1e-9, "{lo}");
        assert!((hi - 0.138_919_728_5).abs() < 1e-9, "{hi}");
        // 0 of n: upper = 1 - (alpha/2)^(1/n).
        let (lo, hi) = clopper_pearson(0, 1000, 0.99);
        assert_eq!(lo, 0.0);
        assert!((hi - (1.0 - 0.005f64.powf(1.0 / 1000.0))).abs() < 1e-10);
        let (lo, hi) = clopper_pearson(50, 50, 0.99);
        assert!((lo - 0.005f64.powf(1.0 / 50.0)).abs() < 1e-10);
        assert_eq!(hi, 1.0);
    }

    #[test]
    fn low_weight_pattern_enumerates_weights_in_order() {
        let mut p = Pattern::new(SetShape::LowWeight, 32, 0);
        let keys: Vec<u128> = (0..32 + 496 + 1).map(|_| p.next_key().unwrap()).collect();
        assert_eq!(keys[0], 1);
        assert_eq!(keys[31], 1 << 31);
        assert_eq!(keys[32], 3);
        assert_eq!(keys[32 + 495], 3 << 30);
        assert_eq!(keys[32 + 496], 7);
        assert!(keys[..32].iter().all(|k| k.count_ones() == 1));
        assert!(keys[32..528].iter().all(|k| k.count_ones() == 2));
        assert_eq!(keys.iter().collect::<HashSet<_>>().len(), keys.len());
    }

    #[test]
    fn fill_moments_match_a_small_exact_case() {
        // m = 2, n = 2: fill 1 with probability 1/2, 2 with 1/2.
        let (mean, sd) = fill_moments(2, 2.0);
        assert!((mean - 1.5).abs() < 1e-12);
        assert!((sd - 0.5).abs() < 1e-12);
    }
}
