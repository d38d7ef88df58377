//! `bloom sim --lanes L`: `bloom_lanes` (hdl/src/lanes/mod.rs) in Verilator, its
//! RTL or a netlist of it, against the golden model's beats (contract §8), with
//! the checker the lanes' tests use (sim/src/lanes.rs): every cycle, which beat is
//! taken and when its response beat may come; every response beat slot by slot
//! (which slots answer, hit, tag, refused). Stress traffic is run in two parts:
//! every kind of beat with idle cycles and backpressure, then resets in flight
//! (the checker needs no backpressure to know what a reset cancels); clears and
//! resets are rarer in larger banks, which they hold busy for 2^b cycles each
//! (`LaneTraffic::for_bank_bits`). Saturating
//! traffic (every slot of every beat a query, nothing holding them) must give L
//! operations per cycle to within 1%. A counting filter's lanes (contract §8.3) are
//! checked against the golden counting filter, with deletes in two of five write beats.

use anyhow::bail;
use hdl::lanes::{generate_lanes, generate_lanes_with, LaneSwitches};
use sim::lanes::{run_lanes_on, Face, LaneTraffic, LanesReport};
use sim::netlist::NetlistKind;

use super::{Job, Summary, TrafficArg};

/// One part of a run: what it is called, its traffic and its beats.
struct Part {
    name: &'static str,
    traffic: LaneTraffic,
    beats: u64,
}

/// The parts `job`'s traffic is run in, `beats` beats in all, over banks of
/// 2^`bank_bits` bits (clears and resets are made rarer for larger banks); a counting
/// filter's write beats delete two times in five.
fn parts(traffic: TrafficArg, beats: u64, bank_bits: u32, counting: bool) -> Vec<Part> {
    let (mixed, resets) = if counting {
        (
            LaneTraffic::COUNTING,
            LaneTraffic {
                delete: LaneTraffic::COUNTING.delete,
                ..LaneTraffic::RESETS
            },
        )
    } else {
        (LaneTraffic::MIXED, LaneTraffic::RESETS)
    };
    match traffic {
        TrafficArg::Stress => {
            let with_resets = beats / 2;
            [
                Part {
                    name: "every kind of beat, idle cycles, backpressure",
                    traffic: mixed.for_bank_bits(bank_bits),
                    beats: beats - with_resets,
                },
                Part {
                    name: "resets in flight",
                    traffic: resets.for_bank_bits(bank_bits),
                    beats: with_resets,
                },
            ]
            .into_iter()
            .filter(|p| p.beats > 0)
            .collect()
        }
        TrafficArg::Saturating => vec![Part {
            name: "every slot a query, nothing held (after 2048 inserts, not counted in the rate)",
            traffic: LaneTraffic::SATURATING_AFTER_INSERTS,
            beats,
        }],
    }
}

/// Runs `job` on `bloom_lanes` with `lanes` lanes, printing one report per part;
/// an error on any mismatch, or when saturating traffic does not give `lanes`
/// operations per cycle.
pub fn execute(job: &Job, lanes: usize) -> anyhow::Result<Summary> {
    let generated = generate_lanes_with(
        &hdl::CoreConfig::from(job.params),
        lanes,
        job.replica_ports,
        LaneSwitches::default(),
    )?;
    if job.netlist == NetlistKind::Ice40Routed {
        check_routed_pins(job, lanes, &generated)?;
    }
    outln!(
        "configuration: {}; {lanes} lanes; {} traffic (seed {})",
        job.params,
        job.traffic.name(),
        job.traffic_seed
    );
    outln!("netlist: {} ({})", job.netlist, job.netlist.describe());
    outln!(
        "timing: latency {} cycles (the core's, the input stage{}), clear {} cycles",
        generated.timing.latency,
        match hdl::lanes::replica_delay(&job.params, job.replica_ports) {
            0 => String::new(),
            d => format!(" and {d} of the query lanes' later read"),
        },
        generated.timing.clear_cycles
    );
    let face = match job.netlist {
        NetlistKind::Rtl => Face::Native,
        kind => Face::Netlist(kind),
    };
    let beats = job.ops.div_ceil(lanes as u64);
    let mut ops = 0u64;
    let mut seconds = 0.0f64;
    let mut mismatches = Vec::new();
    let counting = job.params.counter_bits > 1;
    for (i, part) in parts(job.traffic, beats, job.params.bank_bits, counting)
        .iter()
        .enumerate()
    {
        let seed = job.traffic_seed.wrapping_add(i as u64);
        let r = run_lanes_on(face, &generated, &part.traffic, seed, part.beats)?;
        print_part(part, &r, counting);
        ops += r.ops;
        seconds += r.seconds;
        if job.traffic == TrafficArg::Saturating && r.mismatches.is_empty() {
            let per_cycle = r.ops_per_cycle();
            if (per_cycle - lanes as f64).abs() > 0.01 * lanes as f64 {
                bail!(
                    "saturating traffic gave {per_cycle:.4} operations per cycle, not {lanes} (within 1%)"
                );
            }
        }
        mismatches.extend(
            r.mismatches
                .into_iter()
                .map(|m| format!("{}: {m}", part.name)),
        );
    }
    outln!("operations: {ops}");
    outln!("mismatches: {}", mismatches.len());
    outln!(
        "simulation speed: {:.0} operations/s ({seconds:.2} s, golden model and checks included)",
        ops as f64 / seconds.max(1e-9)
    );
    if !mismatches.is_empty() {
        for m in mismatches.iter().take(10) {
            eprintln!("mismatch: {m}");
        }
        bail!(
            "{} mismatches between the Verilated lanes ({}) and the golden model",
            mismatches.len(),
            job.netlist
        );
    }
    Ok(Summary {
        ops,
        ops_per_second: ops as f64 / seconds.max(1e-9),
    })
}

/// The routed kind places every port bit of `bloom_lanes` on a pin: refused
/// before any tool runs when they do not fit, naming the most lanes that do.
fn check_routed_pins(
    job: &Job,
    lanes: usize,
    generated: &hdl::lanes::GeneratedLanes,
) -> anyhow::Result<()> {
    let fits = |g: &hdl::lanes::GeneratedLanes| -> anyhow::Result<bool> {
        let ports = sim::ports::parse_ports(&g.verilog, &g.top)?;
        Ok(sim::netlist::check_routed_pins(&ports).is_ok())
    };
    if fits(generated)? {
        return Ok(());
    }
    let ports = sim::ports::parse_ports(&generated.verilog, &generated.top)?;
    let why = sim::netlist::check_routed_pins(&ports).unwrap_err();
    let cfg = hdl::CoreConfig::from(job.params);
    let mut most = None;
    for l in (1..lanes).rev() {
        if fits(&generate_lanes(&cfg, l, LaneSwitches::default())?)? {
            most = Some(l);
            break;
        }
    }
    match most {
        Some(l) => bail!("--lanes {lanes} with --netlist ice40-routed: {why}; at most {l} lanes of this filter fit (or use --netlist ice40 or ecp5, which have no pins)"),
        None => bail!("--lanes {lanes} with --netlist ice40-routed: {why}"),
    }
}

/// A part's report: what it ran, what its traffic held, and the speed.
fn print_part(part: &Part, r: &LanesReport, counting: bool) {
    outln!("{}:", part.name);
    outln!(
        "  beats: {} ({} write beats, {} clears, {} refused)",
        r.beats,
        r.write_beats,
        r.clears,
        r.refused_beats
    );
    outln!("  operations: {}", r.ops);
    outln!("  cycles: {}", r.cycles);
    if part.traffic.fill > 0 {
        outln!(
            "  operations per cycle: {:.4} ({} operations in {} cycles after the inserts)",
            r.ops_per_cycle(),
            r.measured_ops,
            r.measured_cycles
        );
    } else {
        outln!("  operations per cycle: {:.4}", r.ops_per_cycle());
    }
    outln!(
        "  hits: {} ({} reads of a key inserted within the forwarding window)",
        r.hits,
        r.reads_after_recent_insert
    );
    if counting {
        outln!(
            "  deletes carried out: {}; counters at saturation at the end: {}",
            r.deletes,
            r.saturated
        );
    }
    if part.traffic.reset > 0 {
        outln!(
            "  resets: {} ({} beats cancelled, {} response beats dropped, {} clears cut short)",
            r.resets,
            r.beats_cancelled,
            r.responses_dropped,
            r.clears_cut_short
        );
    }
    outln!("  mismatches: {}", r.mismatches.len());
}
