//! `bloom vectors`: portable test vectors of the AXI wrapper `bloom_axis` from
//! the golden model, with the self-checking plain-Verilog testbench that runs
//! them in any simulator (ip/src/vectors.rs, ip/verilog/tb_bloom_axis.v).

use std::path::PathBuf;

use anyhow::Context;

use crate::cli::config::CoreArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub core: CoreArgs,
    /// Stream requests (operations) to generate, 1..=2000000; register accesses come between bursts.
    #[arg(long, default_value_t = 10_000)]
    pub ops: u64,
    /// Directory to write into; it must not exist or be empty.
    #[arg(long)]
    pub out: PathBuf,
    /// Seed of the traffic (keys, op mix, idle cycles, stalls).
    #[arg(long = "traffic-seed", default_value_t = 1)]
    pub traffic_seed: u64,
    /// Memory image the core is preloaded with (its banks' initial contents): the golden model starts from it.
    #[arg(long)]
    pub preload: Option<PathBuf>,
    /// The core is generated with the scrub (bloom export --scrub): the vectors expect CONFIG.scrub = 1.
    #[arg(long)]
    pub scrub: bool,
    /// With --scrub: the core's scrub period (bloom export --scrub-every N), 2..=16777216.
    #[arg(long, requires = "scrub", value_parser = clap::value_parser!(u32).range(2..=hdl::MAX_SCRUB_EVERY as i64))]
    pub scrub_every: Option<u32>,
}

/// The golden model a core with this configuration (and preload) starts as.
pub fn starting_filter(
    params: &hdl::CoreParams,
    preload: Option<&std::path::Path>,
) -> anyhow::Result<ip::vectors::Golden> {
    use ip::vectors::Golden;
    Ok(match preload {
        Some(dir) if params.counter_bits > 1 => Golden::Counting(
            golden::CountingFilter::import_image_expecting(dir, params)
                .with_context(|| format!("--preload {}", dir.display()))?,
        ),
        Some(dir) => Golden::Plain(
            golden::PartitionedFilter::import_image_expecting(dir, params)
                .with_context(|| format!("--preload {}", dir.display()))?,
        ),
        None => ip::vectors::empty_filter(params)?,
    })
}

/// The vector set of `args`, checked.
pub fn generate(
    params: &hdl::CoreParams,
    preload: Option<&std::path::Path>,
    ops: u64,
    seed: u64,
    scrub: (bool, Option<u32>),
) -> anyhow::Result<ip::vectors::Vectors> {
    let filter = starting_filter(params, preload)?;
    Ok(ip::vectors::generate(
        params,
        filter,
        &ip::vectors::VectorOptions {
            scrub: scrub.0,
            scrub_every: scrub.1,
            ..ip::vectors::VectorOptions::new(ops, seed)
        },
    )?)
}

fn readme(v: &ip::vectors::Vectors) -> String {
    format!(
        "# Test vectors for bloom_axis ({params})

Written by `bloom vectors` from the golden model: {requests} stream requests ({queries} queries, {inserts}
inserts, {clears} clears, {op3} of the reserved op 3, {hazards} hazards on a key of one of the four requests
before), {reads} register reads and {writes} register writes ({readbacks} bit readbacks, {bit_writes} bit writes, {errors}
accesses that must answer SLVERR), traffic seed {seed}.

Run them with the RTL of the same configuration (`bloom export` writes it, `rtl/`):

```sh
iverilog -g2005 -o tb tb_bloom_axis.v bloom_axis.v bloom_core.v && vvp -n tb
verilator --binary --top-module tb_bloom_axis tb_bloom_axis.v bloom_axis.v bloom_core.v && obj_dir/Vtb_bloom_axis
```

from this directory (or give `+config=`, `+stim=`, `+expect=` paths). The testbench prints `PASS: ...` and
ends with `$finish`, or prints `FAIL: ...` and ends with `$fatal` (a non-zero exit status). It first reads the
core's CONFIG, SEED_LO and SEED_HI registers and refuses vectors made for another configuration.

Files (format {format}; one hex word a line, `$readmemh`):

- `config.hex`: 32-bit words: magic 0x{magic:08X}, format, k, bank_bits, key_bits, hash code, seed bits 31:0,
  seed bits 63:32, steps, responses, and the CONFIG, SEED_LO and SEED_HI words the core must read.
- `stim.hex`: 176-bit steps. Bits 175:172 the kind: 0 a request (171:164 idle cycles of s_axis_tvalid before
  it, 137:136 op, 135:128 tag, 127:0 key), 1 a register write (171:168 byte strobes, 165:164 expected bresp,
  159:152 address, 127:96 data), 2 a register read (165:164 expected rresp, 159:152 address, 127:96 expected
  data, 95:64 mask of the bits compared, 63:32 poll mask, 31:0 poll limit: the read repeats, at most that
  many times, until the bits under the poll mask are as expected), 15 the end. A register step runs when
  every request before it has been answered.
- `expect.hex`: the responses in order: 23:16 cycles the sink holds m_axis_tready low before taking it,
  8 hit, 7:0 tag; then the end mark 0xF0000000.
- `vectors.json`: the counts above, for people.
",
        params = v.params,
        requests = v.stats.requests,
        queries = v.stats.queries,
        inserts = v.stats.inserts,
        clears = v.stats.stream_clears,
        op3 = v.stats.reserved_op3,
        hazards = v.stats.hazards,
        reads = v.stats.register_reads,
        writes = v.stats.register_writes,
        readbacks = v.stats.readbacks,
        bit_writes = v.stats.bit_writes,
        errors = v.stats.error_responses,
        seed = v.seed,
        format = ip::vectors::FORMAT,
        magic = ip::vectors::MAGIC,
    )
}

/// The files `bloom vectors` writes, with paths relative to its directory.
pub fn files(v: &ip::vectors::Vectors) -> Vec<ip::package::PackageFile> {
    let text = |path: &str, s: String| ip::package::PackageFile {
        path: path.into(),
        contents: s.into_bytes(),
        executable: false,
    };
    vec![
        text("config.hex", v.config_hex()),
        text("stim.hex", v.stim_hex()),
        text("expect.hex", v.expect_hex()),
        text(
            "vectors.json",
            serde_json::to_string_pretty(&v.summary_json()).unwrap() + "\n",
        ),
        text(
            ip::testbench::TB_FILE,
            ip::testbench::testbench(v.params.key_bits, v),
        ),
        text("README.md", readme(v)),
    ]
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.ops == 0 || args.ops > ip::vectors::MAX_OPS {
        anyhow::bail!("--ops {}: must be 1..={}", args.ops, ip::vectors::MAX_OPS);
    }
    let params = args.core.params;
    let v = generate(
        &params,
        args.preload.as_deref(),
        args.ops,
        args.traffic_seed,
        (args.scrub, args.scrub_every),
    )?;
    ip::package::write_tree(&args.out, &files(&v)).map_err(anyhow::Error::msg)?;
    let s = &v.stats;
    outln!(
        "wrote {}: {} requests ({} queries, {} inserts, {} clears, {} hazards), {} register reads, {} register writes ({} readbacks, {} bit writes) for {params}",
        args.out.display(),
        s.requests,
        s.queries,
        s.inserts,
        s.stream_clears,
        s.hazards,
        s.register_reads,
        s.register_writes,
        s.readbacks,
        s.bit_writes
    );
    Ok(())
}
