//! `bloom vectors`: portable test vectors of the AXI wrapper `bloom_axis` from
//! the golden model, with the self-checking plain-Verilog testbench that runs
//! them in any simulator (ip/src/vectors.rs, ip/verilog/tb_bloom_axis.v); with
//! `--lanes L`, of the lanes' AXI4-Stream face `bloom_lanes_axis`, L keys per
//! beat (ip/src/lane_vectors.rs, ip/verilog/tb_bloom_lanes_axis.v).

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
    #[arg(long, conflicts_with = "lanes")]
    pub scrub: bool,
    /// With --scrub: the core's scrub period (bloom export --scrub-every N), 2..=16777216.
    #[arg(long, requires = "scrub", value_parser = clap::value_parser!(u32).range(2..=hdl::MAX_SCRUB_EVERY as i64))]
    pub scrub_every: Option<u32>,
    /// Vectors of bloom_lanes_axis with L keys per beat (docs/contract.md section 8), 2..=128, of a plain or a counting
    /// filter; --ops then counts the operations in the beats.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=hdl::lanes::MAX_LANES as i64))]
    pub lanes: Option<u32>,
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

/// A vector set's files: its three hex files, `vectors.json`, its testbench and README.
fn vector_set_files(
    hex: [String; 3],
    summary: serde_json::Value,
    testbench: (&str, String),
    readme: String,
) -> Vec<ip::package::PackageFile> {
    use ip::package::text;
    let [config, stim, expect] = hex;
    vec![
        text("config.hex", config),
        text("stim.hex", stim),
        text("expect.hex", expect),
        text(
            "vectors.json",
            serde_json::to_string_pretty(&summary).unwrap() + "\n",
        ),
        text(testbench.0, testbench.1),
        text("README.md", readme),
    ]
}

/// The files `bloom vectors` writes, with paths relative to its directory.
pub fn files(v: &ip::vectors::Vectors) -> Vec<ip::package::PackageFile> {
    vector_set_files(
        [v.config_hex(), v.stim_hex(), v.expect_hex()],
        v.summary_json(),
        (
            ip::testbench::TB_FILE,
            ip::testbench::testbench(v.params.key_bits, v),
        ),
        readme(v),
    )
}

/// The lanes' vector set of `args`, checked (the configuration as
/// `bloom verilog --lanes` takes it).
pub fn generate_lanes(
    params: &hdl::CoreParams,
    lanes: usize,
    preload: Option<&std::path::Path>,
    ops: u64,
    seed: u64,
) -> anyhow::Result<ip::lane_vectors::LaneVectors> {
    hdl::lanes::check_lanes(params, lanes)?;
    let filter = starting_filter(params, preload)?;
    Ok(ip::lane_vectors::generate_lanes(
        params, lanes, filter, ops, seed,
    )?)
}

fn lanes_readme(v: &ip::lane_vectors::LaneVectors) -> String {
    let s = &v.stats;
    format!(
        "# Test vectors for bloom_lanes_axis ({params}, L = {lanes})

Written by `bloom vectors --lanes {lanes}` from the golden model (docs/contract.md section 8): {beats} beats
({read} read beats, {write} write beats: {inserts} inserts, {op3}, {clears} clears; {refused} beats that
break the rule of section 8.2, refused; {empty} beats with no operation, taken and dropped), {ops} operations,
{queries} queries of which {hits} hit, {hazards} queries of a key written by one of the {recent} beats before,
traffic seed {seed}.

Run them with the RTL of the same configuration (`bloom export --lanes {lanes}` writes it, `rtl/`; or
`bloom verilog --lanes {lanes}`, which writes `bloom_lanes_axis.v`):

```sh
iverilog -g2005 -o tb tb_bloom_lanes_axis.v bloom_lanes_axis.v && vvp -n tb
verilator --binary --top-module tb_bloom_lanes_axis tb_bloom_lanes_axis.v bloom_lanes_axis.v && obj_dir/Vtb_bloom_lanes_axis
```

from this directory (or give `+config=`, `+stim=`, `+expect=` paths). The testbench prints `PASS: ...` and
ends with `$finish`, or prints `FAIL: ...` and ends with `$fatal` (a non-zero exit status). The testbench drives
the streams only: it was generated for this configuration and refuses vectors of another.

Files (format {format}; one hex word a line, `$readmemh`):

- `config.hex`: 32-bit words: magic 0x{magic:08X}, format, L, k, bank_bits, key_bits, hash code, seed bits
  31:0, seed bits 63:32, stim lines, expect lines, beats, response beats, counter_bits.
- `stim.hex`: 160-bit lines, bits 159:156 the kind. A beat is a header (kind 0: 155:148 idle cycles of
  s_axis_tvalid before it) and L slot lines (kind 1: 140 the slot holds an operation, 137:136 op, 135:128 tag,
  127:0 key); kind 15 ends the file.
- `expect.hex`: 32-bit lines. A response beat is a header (kind 0: 23:16 cycles the sink holds m_axis_tready
  low before taking it, 0 the refused flag, m_axis_tuser) and L slot lines (kind 1: 9 tkeep, 8 hit (tdata bit
  0), 7:0 tid; an empty slot reads 0, 0, 0); then the end mark 0xF0000000.
- `vectors.json`: the counts above, for people.
",
        params = v.params,
        lanes = v.lanes,
        beats = s.beats,
        read = s.read_beats,
        write = s.write_beats,
        inserts = s.inserts,
        op3 = if v.params.counter_bits > 1 {
            format!(
                "{} deletes ({} carried out)",
                s.deletes, s.deletes_carried_out
            )
        } else {
            format!("{} of op 3", s.reserved_op3)
        },
        clears = s.clears,
        refused = s.refused_beats,
        empty = s.empty_beats,
        ops = s.operations,
        queries = s.queries,
        hits = s.query_hits,
        hazards = s.hazards,
        recent = ip::lane_vectors::RECENT_BEATS,
        seed = v.seed,
        format = ip::lane_vectors::LANES_FORMAT,
        magic = ip::lane_vectors::LANES_MAGIC,
    )
}

/// The files `bloom vectors --lanes L` writes, with paths relative to its directory.
pub fn lanes_files(v: &ip::lane_vectors::LaneVectors) -> Vec<ip::package::PackageFile> {
    vector_set_files(
        [v.config_hex(), v.stim_hex(), v.expect_hex()],
        v.summary_json(),
        (
            ip::lane_testbench::LANES_TB_FILE,
            ip::lane_testbench::lanes_testbench(v),
        ),
        lanes_readme(v),
    )
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.ops == 0 || args.ops > ip::vectors::MAX_OPS {
        anyhow::bail!("--ops {}: must be 1..={}", args.ops, ip::vectors::MAX_OPS);
    }
    let params = args.core.params;
    if let Some(lanes) = args.lanes {
        let v = generate_lanes(
            &params,
            lanes as usize,
            args.preload.as_deref(),
            args.ops,
            args.traffic_seed,
        )?;
        ip::package::write_tree(&args.out, &lanes_files(&v)).map_err(anyhow::Error::msg)?;
        let s = &v.stats;
        outln!(
            "wrote {}: {} beats of {lanes} slots ({} read, {} write, {} refused, {} empty), {} operations ({} queries, {} inserts, {} clears, {} hazards) for {params}",
            args.out.display(),
            s.beats,
            s.read_beats,
            s.write_beats,
            s.refused_beats,
            s.empty_beats,
            s.operations,
            s.queries,
            s.inserts,
            s.clears,
            s.hazards
        );
        return Ok(());
    }
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
