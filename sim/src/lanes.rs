//! Co-simulation of `bloom_lanes` (hdl/src/lanes/mod.rs) against the golden
//! model's beats (contract §8): Verilator runs the generated Verilog cycle by
//! cycle; every beat the hardware takes is applied to the golden model at once
//! (`PartitionedFilter::apply_beat`), and every response beat it gives is
//! compared slot by slot (which slots answer, hit, tag, refused) with the
//! golden model's answer for the oldest beat not yet answered.
//!
//! Timing, checked every cycle: a beat is taken exactly when a slot is valid
//! and `req_ready` is high; its response beat is given no earlier than
//! `latency` cycles after it was taken. Without backpressure the check is
//! exact: a beat enters the replicas from the input stage in the first cycle
//! after it was taken, and after the beat ahead of it, in which `busy` is low
//! (a clear's sweep holds it), and its response beat is given `latency - 1`
//! cycles after that, one per cycle; `resp_valid` never rises with no beat
//! taken.
//!
//! Traffic: beats over a small pool of keys, so that queries hit keys inserted
//! one, two, ... beats before (the forwarding window of every replica); write
//! beats (inserts, now and then a delete code or a clear), read beats with
//! every slot, some or one slot valid, beats that break the rule of §8.2,
//! cycles with no beat, and `resp_ready` low at random. A beat offered and not
//! taken is offered again unchanged (valid/ready).

use std::collections::VecDeque;
use std::time::Instant;

use golden::lanes::{BeatError, BeatOutcome};
use golden::{CountingFilter, Op, PartitionedFilter};

use crate::model::{Model, PortId};
use crate::traffic::Rng;
use crate::verilator::{build, ModelOptions};
use crate::{InitialState, SimError};

/// The shape of the traffic: chances per million, per beat or per cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneTraffic {
    /// A beat is a write beat (slot 0: an insert, a delete code (`delete` per
    /// million of write beats) or a clear (`clear` per million of them)).
    pub write: u32,
    pub clear: u32,
    pub delete: u32,
    /// A beat breaks the rule (a write beside queries, or a write above slot 0).
    pub refused: u32,
    /// A slot of a read beat is valid (every slot independently; a beat with
    /// none valid gets slot 0).
    pub slot: u32,
    /// A cycle offers no beat.
    pub idle: u32,
    /// `resp_ready` is low in a cycle.
    pub backpressure: u32,
    /// Keys in the pool.
    pub pool: usize,
    /// A cycle starts a reset of 1..=4 cycles, with beats, responses and a clear's
    /// sweep in flight (contract §5.1, §8.3); needs `backpressure` 0 (the cycle each
    /// beat enters the replicas, which decides what a reset cancels, is then known).
    pub reset: u32,
    /// Beats before the traffic proper that insert the pool's keys in turn (slot 0
    /// only), so that the queries after them hit; operations per cycle
    /// ([`LanesReport::ops_per_cycle`]) are measured from the first beat after them.
    pub fill: u32,
}

impl LaneTraffic {
    /// Every kind of beat, backpressure and idle cycles.
    pub const MIXED: LaneTraffic = LaneTraffic {
        write: 250_000,
        clear: 25_000,
        delete: 25_000,
        refused: 60_000,
        slot: 700_000,
        idle: 100_000,
        backpressure: 200_000,
        pool: 24,
        reset: 0,
        fill: 0,
    };
    /// [`LaneTraffic::MIXED`] without backpressure, with resets at random
    /// (about one every 143 cycles) while beats, responses and clears are in flight.
    pub const RESETS: LaneTraffic = LaneTraffic {
        write: 250_000,
        clear: 25_000,
        delete: 25_000,
        refused: 60_000,
        slot: 700_000,
        idle: 100_000,
        backpressure: 0,
        pool: 24,
        reset: 7_000,
        fill: 0,
    };
    /// [`LaneTraffic::MIXED`] for a counting filter: of the write beats, two in five
    /// delete, so that counters go up and down (and, in a small pool, saturate).
    pub const COUNTING: LaneTraffic = LaneTraffic {
        delete: 400_000,
        ..LaneTraffic::MIXED
    };
    /// Read beats with every slot valid, no idle cycle, no backpressure.
    pub const SATURATING: LaneTraffic = LaneTraffic {
        write: 0,
        clear: 0,
        delete: 0,
        refused: 0,
        slot: 1_000_000,
        idle: 0,
        backpressure: 0,
        pool: 4096,
        reset: 0,
        fill: 0,
    };
    /// [`LaneTraffic::SATURATING`] after half the pool's keys were inserted, so
    /// that about half of the queries hit.
    pub const SATURATING_AFTER_INSERTS: LaneTraffic = LaneTraffic {
        fill: 2048,
        ..LaneTraffic::SATURATING
    };

    /// This traffic with its clears and resets made rarer for banks of
    /// 2^`bank_bits` bits, so that they hold the lanes busy about as large a share
    /// of the cycles as at 2^6 (every clear sweeps the banks, every reset recounts
    /// them: 2^b cycles each), at most as often as given.
    pub fn for_bank_bits(self, bank_bits: u32) -> LaneTraffic {
        let scaled = |per_million: u32| -> u32 {
            let at_64 = per_million as u64 * 64;
            (at_64 >> bank_bits).clamp(1.min(per_million as u64), per_million as u64) as u32
        };
        LaneTraffic {
            clear: scaled(self.clear),
            reset: scaled(self.reset),
            ..self
        }
    }
}

/// What a run did and found.
#[derive(Clone, Debug, Default)]
pub struct LanesReport {
    pub lanes: usize,
    pub cycles: u64,
    /// Beats taken, and the operations in them (refused beats' included).
    pub beats: u64,
    pub ops: u64,
    pub write_beats: u64,
    pub refused_beats: u64,
    /// Read beats in which some slot queried a key first inserted (absent
    /// before) in one of the previous `latency` beats: inside every replica's
    /// forwarding window, where only forwarding answers 1.
    pub reads_after_recent_insert: u64,
    pub clears: u64,
    pub hits: u64,
    /// Deletes answered 1 (carried out: contract §7.2).
    pub deletes: u64,
    /// A counting filter's counters at saturation, at the end of the run (golden).
    pub saturated: u64,
    /// Resets asserted after the first, the beats they cancelled (taken, not
    /// committed), the response beats they dropped, and the clears they cut short.
    pub resets: u64,
    pub beats_cancelled: u64,
    pub responses_dropped: u64,
    pub clears_cut_short: u64,
    pub mismatches: Vec<String>,
    /// Wall seconds of the cycle loop (the model was built before).
    pub seconds: f64,
    /// Beats and cycles from the first beat after the traffic's `fill` beats to the
    /// last response (all of them without a fill), and the operations in those beats.
    pub measured_ops: u64,
    pub measured_cycles: u64,
}

impl LanesReport {
    /// Operations per cycle, from the first beat taken after the fill to the last
    /// response.
    pub fn ops_per_cycle(&self) -> f64 {
        self.measured_ops as f64 / self.measured_cycles.max(1) as f64
    }
}

struct Expected {
    /// Its place among the beats taken since the last reset.
    index: usize,
    taken: u64,
    /// The cycle it entered the replicas (followed without backpressure only).
    entered: Option<u64>,
    slot_valid: u128,
    hits: u128,
    tags: Vec<u8>,
    refused: bool,
}

/// True with probability `p` per million.
fn chance(rng: &mut Rng, p: u32) -> bool {
    rng.below(1_000_000) < p as u64
}

/// One slot of a beat as driven: (op code, key, tag), or empty.
type Slot = Option<(u8, u128, u8)>;

fn next_beat(
    rng: &mut Rng,
    t: &LaneTraffic,
    lanes: usize,
    pool: &[u128],
    tag: &mut u8,
) -> Vec<Slot> {
    let mut slot = |code: u8, rng: &mut Rng| {
        *tag = tag.wrapping_add(1);
        Some((code, pool[rng.below(pool.len() as u64) as usize], *tag))
    };
    let mut beat: Vec<Slot> = vec![None; lanes];
    if lanes > 1 && chance(rng, t.refused) {
        if chance(rng, 500_000) {
            beat[0] = slot(1, rng);
            let j = 1 + rng.below(lanes as u64 - 1) as usize;
            beat[j] = slot(0, rng);
        } else {
            let j = 1 + rng.below(lanes as u64 - 1) as usize;
            beat[j] = slot(1 + rng.below(3) as u8, rng);
            if chance(rng, 500_000) {
                beat[0] = slot(0, rng);
            }
        }
    } else if chance(rng, t.write) {
        let code = if chance(rng, t.clear) {
            2
        } else if chance(rng, t.delete) {
            3
        } else {
            1
        };
        beat[0] = slot(code, rng);
    } else {
        for s in beat.iter_mut() {
            if chance(rng, t.slot) {
                *s = slot(0, rng);
            }
        }
        if beat.iter().all(Option::is_none) {
            beat[0] = slot(0, rng);
        }
    }
    beat
}

/// Which ports the co-simulation drives: `bloom_lanes`'s own, its AXI4-Stream
/// face `bloom_lanes_axis` (hdl/src/axi/lanes.rs), or `bloom_lanes`'s own on a
/// netlist of it (crate::netlist: synthesised, or placed and routed), checked the
/// same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    Native,
    Axis,
    Netlist(crate::netlist::NetlistKind),
}

/// The ports of one face, resolved once, and the packing of its beats.
struct Io {
    face: Face,
    lanes: usize,
    reset: PortId,
    req_valid: PortId,
    req_ready: PortId,
    /// Native: req_op; AXI: s_axis_tuser (slot valid bits, then the op codes).
    req_op: PortId,
    req_key: PortId,
    req_tag: PortId,
    resp_valid: PortId,
    resp_ready: PortId,
    resp_slot_valid: PortId,
    resp_hit: PortId,
    resp_tag: PortId,
    resp_refused: PortId,
    /// AXI: m_axis_tlast, always 1.
    last: Option<PortId>,
    busy: PortId,
}

impl Io {
    fn new(lib: &crate::model::ModelLibrary, face: Face, lanes: usize) -> Result<Io, SimError> {
        let port = |name: &str| lib.port(name);
        let names: [&str; 12] = match face {
            Face::Native | Face::Netlist(_) => [
                "reset",
                "req_valid",
                "req_ready",
                "req_op",
                "req_key",
                "req_tag",
                "resp_valid",
                "resp_ready",
                "resp_slot_valid",
                "resp_hit",
                "resp_tag",
                "resp_refused",
            ],
            Face::Axis => [
                "aresetn",
                "s_axis_tvalid",
                "s_axis_tready",
                "s_axis_tuser",
                "s_axis_tdata",
                "s_axis_tid",
                "m_axis_tvalid",
                "m_axis_tready",
                "m_axis_tkeep",
                "m_axis_tdata",
                "m_axis_tid",
                "m_axis_tuser",
            ],
        };
        Ok(Io {
            face,
            lanes,
            reset: port(names[0])?,
            req_valid: port(names[1])?,
            req_ready: port(names[2])?,
            req_op: port(names[3])?,
            req_key: port(names[4])?,
            req_tag: port(names[5])?,
            resp_valid: port(names[6])?,
            resp_ready: port(names[7])?,
            resp_slot_valid: port(names[8])?,
            resp_hit: port(names[9])?,
            resp_tag: port(names[10])?,
            resp_refused: port(names[11])?,
            last: if face == Face::Axis {
                Some(port("m_axis_tlast")?)
            } else {
                None
            },
            busy: port("busy")?,
        })
    }

    fn clock(face: Face) -> &'static str {
        match face {
            Face::Native | Face::Netlist(_) => "clock",
            Face::Axis => "aclk",
        }
    }

    fn set_reset(&self, m: &mut Model, on: bool) -> Result<(), SimError> {
        m.set(self.reset, (on != (self.face == Face::Axis)) as u128)
    }

    /// Offers a beat: slot valid bits, op codes (2 bits per slot), keys and tags, packed.
    fn set_request(
        &self,
        m: &mut Model,
        valid: u128,
        ops: &[u32],
        keys: &[u32],
        tags: &[u32],
    ) -> Result<(), SimError> {
        let l = self.lanes;
        match self.face {
            Face::Native | Face::Netlist(_) => {
                m.set(self.req_valid, valid)?;
                m.set_words(self.req_op, ops)?;
            }
            Face::Axis => {
                m.set(self.req_valid, (valid != 0) as u128)?;
                let mut user = vec![0u32; (3 * l).div_ceil(32)];
                set_field(&mut user, 0, l, valid);
                set_field(&mut user, l, 2 * l, get_field(ops, 0, 2 * l));
                m.set_words(self.req_op, &user)?;
            }
        }
        m.set_words(self.req_key, keys)?;
        m.set_words(self.req_tag, tags)
    }

    /// Offers `beat` (None: no beat), its slots packed into the request
    /// words; returns its slot valid bits.
    fn offer(
        &self,
        m: &mut Model,
        beat: Option<&Vec<Slot>>,
        key_bits: usize,
    ) -> Result<u128, SimError> {
        let (l, w) = (self.lanes, key_bits);
        let mut valid = 0u128;
        let mut ops = vec![0u32; (2 * l).div_ceil(32)];
        let mut keys = vec![0u32; (w * l).div_ceil(32)];
        let mut tags = vec![0u32; (8 * l).div_ceil(32)];
        for (j, s) in beat.into_iter().flatten().enumerate() {
            if let Some((code, key, t)) = s {
                valid |= 1 << j;
                set_field(&mut ops, 2 * j, 2, *code as u128);
                set_field(&mut keys, w * j, w, *key);
                set_field(&mut tags, 8 * j, 8, *t as u128);
            }
        }
        self.set_request(m, valid, &ops, &keys, &tags)?;
        Ok(valid)
    }

    /// The response beat presented: (slots answering, hits, tags, refused), and
    /// what breaks the face's own rules (AXI: tlast 1, the bits above a byte's hit 0).
    fn response(&self, m: &Model) -> (u128, u128, Vec<u32>, bool, Vec<String>) {
        let mut wrong = Vec::new();
        let hits = match self.face {
            Face::Native | Face::Netlist(_) => m.get(self.resp_hit),
            Face::Axis => {
                let data = m.get_words(self.resp_hit);
                let mut hits = 0u128;
                for j in 0..self.lanes {
                    let byte = get_field(&data, 8 * j, 8);
                    hits |= (byte & 1) << j;
                    if byte >> 1 != 0 {
                        wrong.push(format!(
                            "m_axis_tdata byte {j} is {byte:#x}: bits 7:1 must be 0"
                        ));
                    }
                }
                if self.last.is_some_and(|p| m.get(p) != 1) {
                    wrong.push("m_axis_tlast is 0".into());
                }
                hits
            }
        };
        (
            m.get(self.resp_slot_valid),
            hits,
            m.get_words(self.resp_tag),
            m.get(self.resp_refused) == 1,
            wrong,
        )
    }
}

/// Runs `beats` beats of `traffic` (seed `seed`) through `bloom_lanes` as
/// generated in `lanes`, checking every cycle; the golden model starts empty,
/// as the hardware does (no preload).
pub fn run_lanes(
    lanes: &hdl::lanes::GeneratedLanes,
    traffic: &LaneTraffic,
    seed: u64,
    beats: u64,
) -> Result<LanesReport, SimError> {
    run_lanes_on(Face::Native, lanes, traffic, seed, beats)
}

/// [`run_lanes`] through `face`.
pub fn run_lanes_on(
    face: Face,
    lanes: &hdl::lanes::GeneratedLanes,
    traffic: &LaneTraffic,
    seed: u64,
    beats: u64,
) -> Result<LanesReport, SimError> {
    let mut rng = Rng::new(seed);
    let pool: Vec<u128> = (0..traffic.pool)
        .map(|_| rng.key(lanes.core.config.params.key_bits))
        .collect();
    let mut tag = 0u8;
    let l = lanes.lanes;
    let t = *traffic;
    if t.reset > 0 && t.backpressure > 0 {
        return Err(SimError::Value(
            "traffic with resets has no backpressure: what a reset cancels depends on the cycle each beat entered"
                .into(),
        ));
    }
    let mut filled = 0usize;
    run_driven(
        face,
        lanes,
        seed,
        beats + t.fill as u64,
        t.fill as u64,
        traffic.backpressure == 0,
        0,
        t.reset,
        move |may_offer| {
            if may_offer && filled < t.fill as usize {
                tag = tag.wrapping_add(1);
                let mut beat: Vec<Slot> = vec![None; l];
                beat[0] = Some((1, pool[filled % pool.len()], tag));
                filled += 1;
                return (Some(beat), !chance(&mut rng, t.backpressure));
            }
            let beat = (may_offer && !chance(&mut rng, t.idle))
                .then(|| next_beat(&mut rng, &t, l, &pool, &mut tag));
            (beat, !chance(&mut rng, t.backpressure))
        },
    )
}

/// One beat of a script: per slot, empty or (op code 0..=3, index into the key pool).
pub type ScriptedBeat = Vec<Option<(u8, usize)>>;

/// A script for [`run_lane_script`]: beats offered in order (each held until
/// taken), cycles offering none before each, and `resp_ready` per cycle.
#[derive(Clone, Debug)]
pub struct LaneScript {
    /// Keys the beats name by index (drawn from `seed` for the key width).
    pub pool: usize,
    /// (idle cycles before the beat, the beat); a beat with no slot is an idle cycle.
    pub beats: Vec<(u8, ScriptedBeat)>,
    /// `resp_ready` in cycle c is `ready[c % len]` (empty: always high, and the
    /// response timing is then checked exactly).
    pub ready: Vec<bool>,
}

/// Runs `script` through `bloom_lanes`, checked as [`run_lanes`] checks; slot
/// j's tag is a running count of the operations offered.
pub fn run_lane_script(
    lanes: &hdl::lanes::GeneratedLanes,
    script: &LaneScript,
    seed: u64,
) -> Result<LanesReport, SimError> {
    run_lane_script_on(Face::Native, lanes, script, seed)
}

/// [`run_lane_script`] through `face`.
pub fn run_lane_script_on(
    face: Face,
    lanes: &hdl::lanes::GeneratedLanes,
    script: &LaneScript,
    seed: u64,
) -> Result<LanesReport, SimError> {
    let l = lanes.lanes;
    let mut rng = Rng::new(seed);
    let pool: Vec<u128> = (0..script.pool.max(1))
        .map(|_| rng.key(lanes.core.config.params.key_bits))
        .collect();
    if let Some((_, b)) = script
        .beats
        .iter()
        .find(|(_, b)| b.len() != l || b.iter().flatten().any(|(c, _)| *c > 3))
    {
        return Err(SimError::Value(format!(
            "a scripted beat of {} slots (ops 0..=3) for {l} lanes: {b:?}",
            b.len()
        )));
    }
    if !script.ready.is_empty() && !script.ready.contains(&true) {
        return Err(SimError::Value(
            "a resp_ready pattern that is never high takes no response beat".into(),
        ));
    }
    let beats: Vec<(u8, ScriptedBeat)> = script
        .beats
        .iter()
        .filter(|(_, b)| b.iter().any(Option::is_some))
        .cloned()
        .collect();
    let total = beats.len() as u64;
    let (mut next, mut idle_left, mut cycle, mut tag) = (0usize, None::<u8>, 0usize, 0u8);
    let ready = script.ready.clone();
    let idle: u64 = beats.iter().map(|(i, _)| *i as u64).sum();
    run_driven(
        face,
        lanes,
        seed,
        total,
        0,
        ready.iter().all(|r| *r),
        idle,
        0,
        move |may_offer| {
            let mut beat = None;
            if may_offer && next < beats.len() {
                let idle = idle_left.get_or_insert(beats[next].0);
                if *idle == 0 {
                    beat = Some(
                        beats[next]
                            .1
                            .iter()
                            .map(|s| {
                                s.map(|(code, i)| {
                                    tag = tag.wrapping_add(1);
                                    (code, pool[i % pool.len()], tag)
                                })
                            })
                            .collect(),
                    );
                    next += 1;
                    idle_left = None;
                } else {
                    *idle -= 1;
                }
            }
            let r = ready.is_empty() || ready[cycle % ready.len()];
            cycle += 1;
            (beat, r)
        },
    )
}

/// The checking loop. `drive(may_offer)` gives each cycle's inputs: a new beat
/// to offer (looked at only when `may_offer`: no beat is held and fewer than
/// `beats` were taken) and `resp_ready`. `exact`: `resp_ready` is always high,
/// so every response beat's cycle is known. `idle`: cycles the driver will
/// offer nothing although it may (beyond those `run_driven` allows for).
/// `resets`: per million of cycles that start a reset of 1..=4 cycles (`exact`
/// only), during which no beat is offered.
///
/// What a reset whose first cycle is t does (contract §5.1 with §8.3): a beat
/// that entered the replicas in cycle e is committed iff t >= e + c (c: the core's
/// commit latency, 4 for a plain core, 7 for a counting one, with a request line's cycles), and a
/// committed clear's sweep is cut short (addresses n <= t - e - c cleared); the
/// beats after the committed ones are cancelled (no effect, no response); the
/// response beat of cycle t is delivered, every later one of a beat taken
/// before t is dropped. The golden model is rebuilt from its state at the
/// previous reset and the committed beats.
#[allow(clippy::too_many_arguments)]
fn run_driven(
    face: Face,
    lanes: &hdl::lanes::GeneratedLanes,
    seed: u64,
    beats: u64,
    fill: u64,
    exact: bool,
    idle: u64,
    resets: u32,
    mut drive: impl FnMut(bool) -> (Option<Vec<Slot>>, bool),
) -> Result<LanesReport, SimError> {
    let (mut m, io) = open_model(face, lanes, seed)?;
    let key_bits = lanes.core.config.params.key_bits as usize;
    let bank_cycles = 1u64 << lanes.core.config.params.bank_bits;
    // Every clear keeps the replicas busy for its sweep.
    let mut check = LaneCheck::new(lanes, exact, beats * 8 + 10_000 + idle)?;
    check.fill = fill;
    let mut schedule = ResetSchedule::new(seed, resets);
    let mut offered: Option<Vec<Slot>> = None;
    let start = Instant::now();
    let mut cycle = 0u64;
    while (check.report.beats < beats || !check.expected.is_empty()) && cycle < check.limit {
        // A reset now and then (never while the first beat is still to come).
        let reset = schedule.next(check.first_take.is_some() && check.report.beats < beats);
        if reset.scheduled {
            check.limit += bank_cycles + 32;
        }
        io.set_reset(&mut m, reset.active)?;
        // Inputs of this cycle (no beat offered during a reset: none is taken then).
        let may_offer = offered.is_none() && check.report.beats < beats && !reset.active;
        let (new_beat, ready) = drive(may_offer);
        if offered.is_none() {
            offered = new_beat;
        }
        let shown = if reset.active { None } else { offered.as_ref() };
        let valid = io.offer(&mut m, shown, key_bits)?;
        m.set(io.resp_ready, ready as u128)?;
        m.eval();
        if exact && !reset.active && m.get(io.busy) == 0 {
            check.enter_replicas(cycle);
        }
        if valid != 0 && m.get(io.req_ready) == 1 {
            let beat = offered.take().expect("a valid beat was offered");
            check.take(&beat, valid, cycle)?;
        }
        check.respond(&io, &m, cycle, ready);
        if reset.starts {
            // The response beat of this cycle was delivered (above); everything else
            // in flight is settled by the rules of the function's doc.
            check.reset(cycle)?;
        }
        m.step(1)?;
        cycle += 1;
    }
    let mut report = check.finish(beats, cycle);
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Builds (or loads from the cache) the Verilated model of `lanes` behind
/// `face`, resolves its ports, and resets it: returns once the reset's recount
/// is over and `busy` has fallen, with no beat offered and `resp_ready` high.
fn open_model(
    face: Face,
    lanes: &hdl::lanes::GeneratedLanes,
    seed: u64,
) -> Result<(Model, Io), SimError> {
    let lib = match face {
        Face::Native => build(&lanes.verilog, &lanes.top, &ModelOptions::default())?,
        Face::Axis => {
            let g =
                hdl::axi::lanes::axis_around(lanes).map_err(|e| SimError::Build(e.to_string()))?;
            build(&g.verilog, &g.top, &ModelOptions::default())?
        }
        Face::Netlist(kind) => {
            let progress = flow::tools::Progress::quiet();
            let n = crate::netlist::make(&lanes.verilog, &lanes.top, kind, &progress)?;
            build(&n.verilog, &n.top, &n.build_options(false))?
        }
    };
    let mut m = lib.instantiate(Some(Io::clock(face)), InitialState::Random(seed as u32))?;
    let io = Io::new(&lib, face, lanes.lanes)?;
    // Inputs beside the streams, held idle: the face's AXI4-Lite slave, or bloom_lanes's
    // bank access, fill counter select and counter access.
    if matches!(face, Face::Axis) {
        for p in hdl::axi::lanes::lanes_axis_ports(&lanes.core.config.params, lanes.lanes) {
            if p.name.starts_with("s_axil_") && p.direction == hdl::ports::Direction::Input {
                m.set(lib.port(&p.name)?, 0)?;
            }
        }
    } else {
        for p in [
            "rb_req",
            "rb_bank",
            "rb_addr",
            "rb_write",
            "rb_wdata",
            "fill_bank",
        ] {
            m.set(lib.port(p)?, 0)?;
        }
        if lanes.core.config.params.counter_bits > 1 {
            m.set(lib.port("counter_wdata")?, 0)?;
        }
    }
    m.set(io.req_valid, 0)?;
    m.set(io.resp_ready, 1)?;
    io.set_reset(&mut m, true)?;
    m.step(2)?;
    io.set_reset(&mut m, false)?;
    let most = (1u64 << lanes.core.config.params.bank_bits) + 64;
    let mut waited = 0;
    loop {
        m.eval();
        if m.get(io.busy) == 0 {
            return Ok((m, io));
        }
        m.step(1)?;
        waited += 1;
        if waited > most {
            return Err(SimError::Value(
                "busy did not fall after the reset's recount".into(),
            ));
        }
    }
}

/// Resets at random: `per_million` of the cycles in which one may start start
/// one of 1..=4 cycles, drawn from their own generator (the traffic's draws do
/// not move when resets are asked for).
struct ResetSchedule {
    rng: Rng,
    per_million: u32,
    /// Cycles of the current reset still to come, this one included.
    left: u32,
    /// The previous cycle was in a reset.
    before: bool,
}

/// A cycle as the reset schedule has it.
struct ResetCycle {
    /// The reset is asserted in this cycle.
    active: bool,
    /// ... and was not in the previous one.
    starts: bool,
    /// A reset was drawn in this cycle (it may continue one that just ended).
    scheduled: bool,
}

impl ResetSchedule {
    fn new(seed: u64, per_million: u32) -> ResetSchedule {
        ResetSchedule {
            rng: Rng::new(seed ^ 0x7E5E_7000_0000_0001),
            per_million,
            left: 0,
            before: false,
        }
    }

    /// The next cycle; a reset is drawn only when none is on and `may_start`.
    fn next(&mut self, may_start: bool) -> ResetCycle {
        let scheduled = self.left == 0
            && self.per_million > 0
            && may_start
            && chance(&mut self.rng, self.per_million);
        if scheduled {
            self.left = 1 + self.rng.below(4) as u32;
        }
        let active = self.left > 0;
        let starts = active && !self.before;
        self.before = active;
        self.left = self.left.saturating_sub(1);
        ResetCycle {
            active,
            starts,
            scheduled,
        }
    }
}

/// A beat taken since the last reset: its operations, and the cycle it
/// entered the replicas (None while it waits in the input stage).
type LoggedBeat = (Vec<Option<Op>>, Option<u64>);

/// At most this many mismatches are described (the first say the most).
const MISMATCHES_KEPT: usize = 20;

/// The golden model of the lanes' filter: the plain filter (contract §5), or the
/// counting filter (§7) of a counting core's lanes.
#[derive(Clone)]
enum Golden {
    Plain(PartitionedFilter),
    Counting(CountingFilter),
}

impl Golden {
    /// An empty filter of `params` (its counter width says which).
    fn new(params: hdl::CoreParams) -> Result<Golden, SimError> {
        Ok(if params.counter_bits > 1 {
            Golden::Counting(
                CountingFilter::from_config(params).map_err(|e| SimError::Value(e.to_string()))?,
            )
        } else {
            Golden::Plain(PartitionedFilter::new(params))
        })
    }

    fn apply_beat(&mut self, ops: &[Option<Op>]) -> Result<BeatOutcome, BeatError> {
        match self {
            Golden::Plain(f) => f.apply_beat(ops),
            Golden::Counting(f) => f.apply_beat(ops),
        }
    }

    /// This filter with addresses 0 ..= `last` of every bank cleared: a clear whose
    /// sweep a reset cut short (contract §5.1).
    fn swept_to(&self, last: usize) -> Result<Golden, SimError> {
        let value = |e: golden::ConfigError| SimError::Value(e.to_string());
        // Bank p with addresses 0 ..= last at 0 (bits or counters alike).
        let swept = |k: u32, bank: &dyn Fn(usize) -> Vec<u8>| -> Vec<Vec<u8>> {
            (0..k as usize)
                .map(|p| {
                    let mut b = bank(p);
                    b.iter_mut().take(last + 1).for_each(|v| *v = 0);
                    b
                })
                .collect()
        };
        Ok(match self {
            Golden::Plain(f) => {
                let banks = swept(f.config().k, &|p| f.bank(p).expect("k banks").to_vec());
                Golden::Plain(PartitionedFilter::from_banks(*f.config(), &banks).map_err(value)?)
            }
            Golden::Counting(f) => {
                let banks = swept(f.config().k, &|p| f.bank(p).expect("k banks").to_vec());
                Golden::Counting(
                    CountingFilter::from_counters(*f.config(), f.counter_bits(), &banks)
                        .map_err(value)?,
                )
            }
        })
    }
}

/// What the checking loop carries from cycle to cycle: the golden model, the
/// beats taken since the last reset, the response beats owed, and the report.
struct LaneCheck {
    lanes: usize,
    params: hdl::CoreParams,
    /// The fewest cycles from taking a beat to giving its response beat.
    latency: u64,
    /// From entering the replicas to the response: the core's.
    core_latency: u64,
    /// `resp_ready` is always high: every response beat's cycle is known.
    exact: bool,
    /// Cycles from a beat entering lane 0 to its effect in the banks (contract §5.1).
    commit: u64,
    golden: Golden,
    /// The committed state at the last reset.
    base: Golden,
    log: Vec<LoggedBeat>,
    expected: VecDeque<Expected>,
    /// (beat number, key) of the keys first inserted in the last `latency` beats.
    recent_inserts: VecDeque<(u64, u128)>,
    first_take: Option<u64>,
    /// Beats of the fill (`LaneTraffic::fill`), and the cycle the first beat after
    /// them was taken with the operations taken before it.
    fill: u64,
    measured_from: Option<(u64, u64)>,
    last_response: u64,
    /// The cycle the run gives up at; every clear and reset moves it on.
    limit: u64,
    report: LanesReport,
}

impl LaneCheck {
    fn new(
        lanes: &hdl::lanes::GeneratedLanes,
        exact: bool,
        limit: u64,
    ) -> Result<LaneCheck, SimError> {
        let params = lanes.core.config.params;
        let golden = Golden::new(params)?;
        Ok(LaneCheck {
            lanes: lanes.lanes,
            params,
            latency: lanes.timing.latency as u64,
            // Without the input stage.
            core_latency: lanes.timing.latency as u64 - 1,
            exact,
            commit: lanes.core.timing.commit_latency as u64,
            base: golden.clone(),
            golden,
            log: Vec::new(),
            expected: VecDeque::new(),
            recent_inserts: VecDeque::new(),
            first_take: None,
            fill: 0,
            measured_from: None,
            last_response: 0,
            limit,
            report: LanesReport {
                lanes: lanes.lanes,
                ..LanesReport::default()
            },
        })
    }

    /// The cycle a response beat of a beat that entered the replicas in
    /// `entered` is due (`exact` only): the core's latency later, and after
    /// the response beat ahead of it.
    fn due(&self, entered: u64) -> u64 {
        (entered + self.core_latency).max(self.last_response + 1)
    }

    /// The replicas are not busy in `cycle` (`exact` only): the oldest beat
    /// waiting in the input stage, taken in an earlier cycle, enters them now.
    fn enter_replicas(&mut self, cycle: u64) {
        if let Some(e) = self.expected.iter_mut().find(|e| e.entered.is_none()) {
            if e.taken < cycle {
                e.entered = Some(cycle);
                self.log[e.index].1 = Some(cycle);
            }
        }
    }

    /// A beat taken in `cycle` (slots `valid`): applied to the golden model at
    /// once, its response beat owed.
    fn take(&mut self, beat: &[Slot], valid: u128, cycle: u64) -> Result<(), SimError> {
        let ops: Vec<Option<Op>> = beat
            .iter()
            .map(|s| s.map(|(code, key, _)| Op::decode(code, key)))
            .collect();
        let outcome = self
            .golden
            .apply_beat(&ops)
            .map_err(|e| SimError::Value(e.to_string()))?;
        self.first_take.get_or_insert(cycle);
        if self.report.beats == self.fill {
            self.measured_from = Some((cycle, self.report.ops));
        }
        self.report.beats += 1;
        self.report.ops += beat.iter().flatten().count() as u64;
        self.log.push((ops, None));
        let mut e = Expected {
            index: self.log.len() - 1,
            taken: cycle,
            entered: None,
            slot_valid: valid,
            hits: 0,
            tags: vec![0; self.lanes],
            refused: false,
        };
        for (j, s) in beat.iter().enumerate() {
            if let Some((_, _, t)) = s {
                e.tags[j] = *t;
            }
        }
        match outcome {
            BeatOutcome::Refused { .. } => {
                e.refused = true;
                self.report.refused_beats += 1;
            }
            BeatOutcome::Taken(hits) => {
                for (j, h) in hits.iter().enumerate() {
                    if *h == Some(true) {
                        e.hits |= 1 << j;
                        self.report.hits += 1;
                    }
                }
                self.count_taken(beat, &hits);
            }
            BeatOutcome::NoBeat => unreachable!("a beat with a valid slot"),
        }
        self.expected.push_back(e);
        Ok(())
    }

    /// The report's counts of a beat the golden model took (`hits`: its
    /// answers): writes, clears, and reads of keys inserted inside the
    /// forwarding window.
    fn count_taken(&mut self, beat: &[Slot], hits: &[Option<bool>]) {
        if beat[0].is_some_and(|(code, _, _)| code != 0) {
            self.report.write_beats += 1;
        }
        while self
            .recent_inserts
            .front()
            .is_some_and(|(b, _)| b + self.latency < self.report.beats)
        {
            self.recent_inserts.pop_front();
        }
        if matches!(beat[0], Some((3, _, _))) && hits[0] == Some(true) {
            self.report.deletes += 1;
        }
        match beat[0] {
            Some((1, key, _)) if hits[0] == Some(false) => {
                self.recent_inserts.push_back((self.report.beats, key))
            }
            Some((2, _, _)) => {
                self.recent_inserts.clear();
                self.report.clears += 1;
                self.limit += (1u64 << self.params.bank_bits) + 16;
            }
            _ => {}
        }
        if beat
            .iter()
            .flatten()
            .any(|(code, key, _)| *code == 0 && self.recent_inserts.iter().any(|(_, k)| k == key))
        {
            self.report.reads_after_recent_insert += 1;
        }
    }

    /// The response side of `cycle` (`ready`: `resp_ready` was high): a
    /// response beat given is compared with the one owed for the oldest beat;
    /// with exact timing, one due and not given is a mismatch too.
    fn respond(&mut self, io: &Io, m: &Model, cycle: u64, ready: bool) {
        let given = m.get(io.resp_valid) == 1;
        if given && ready {
            match self.expected.pop_front() {
                None => self
                    .report
                    .mismatches
                    .push(format!("cycle {cycle}: a response beat with no beat taken")),
                Some(e) => {
                    let wrong = self.compare_response(&e, io.response(m), cycle);
                    if !wrong.is_empty() && self.report.mismatches.len() < MISMATCHES_KEPT {
                        self.report.mismatches.push(format!(
                            "beat taken in cycle {}: {}",
                            e.taken,
                            wrong.join("; ")
                        ));
                    }
                    self.last_response = cycle;
                }
            }
        } else if let (false, true, Some(e)) = (given, self.exact, self.expected.front()) {
            if e.entered.is_some_and(|en| cycle >= self.due(en))
                && self.report.mismatches.len() < MISMATCHES_KEPT
            {
                self.report.mismatches.push(format!(
                    "beat taken in cycle {}: no response beat in cycle {cycle}, when it was due",
                    e.taken
                ));
            }
        }
    }

    /// What is wrong with the response beat `got` (as [`Io::response`] reads
    /// it) given in `cycle` for the beat `e`: its timing and every field.
    fn compare_response(
        &self,
        e: &Expected,
        got: (u128, u128, Vec<u32>, bool, Vec<String>),
        cycle: u64,
    ) -> Vec<String> {
        let (got_valid, got_hits, got_tags, got_refused, mut wrong) = got;
        let latency = self.latency;
        if cycle < e.taken + latency {
            wrong.push(format!(
                "given in cycle {cycle}, taken in {}: earlier than latency {latency}",
                e.taken
            ));
        }
        if self.exact {
            match e.entered {
                Some(en) if cycle == self.due(en) => {}
                Some(en) => wrong.push(format!(
                    "given in cycle {cycle}, taken in {}, entered the replicas in {en}, due in {}",
                    e.taken,
                    self.due(en)
                )),
                None => wrong.push(format!(
                    "given in cycle {cycle}, taken in {}, before it entered the replicas",
                    e.taken
                )),
            }
        }
        if got_valid != e.slot_valid {
            wrong.push(format!(
                "resp_slot_valid {got_valid:#x}, expected {:#x}",
                e.slot_valid
            ));
        }
        if got_refused != e.refused {
            wrong.push(format!(
                "resp_refused {got_refused}, expected {}",
                e.refused
            ));
        }
        if got_hits != e.hits {
            wrong.push(format!("resp_hit {got_hits:#x}, expected {:#x}", e.hits));
        }
        for (j, t) in e.tags.iter().enumerate() {
            let got = get_field(&got_tags, 8 * j, 8) as u8;
            if got != *t {
                wrong.push(format!("slot {j} tag {got}, expected {t}"));
            }
        }
        wrong
    }

    /// A reset whose first cycle is `t`, by the rules of [`run_driven`]'s doc:
    /// the golden model rebuilt from the committed beats, the rest cancelled,
    /// the response beats still owed dropped.
    fn reset(&mut self, t: u64) -> Result<(), SimError> {
        let params = self.params;
        let commit = self.commit;
        let committed = self
            .log
            .iter()
            .take_while(|(_, en)| en.is_some_and(|e| t >= e + commit))
            .count();
        let mut rebuilt = self.base.clone();
        for (ops, en) in &self.log[..committed] {
            let e = en.expect("committed beats entered");
            let sweep_end = e + commit + (1u64 << params.bank_bits) - 1;
            let is_clear = matches!(ops.first(), Some(Some(Op::Clear)));
            if is_clear && t < sweep_end {
                rebuilt = rebuilt.swept_to((t - e - commit) as usize)?;
                self.report.clears_cut_short += 1;
            } else {
                rebuilt
                    .apply_beat(ops)
                    .map_err(|e| SimError::Value(e.to_string()))?;
            }
        }
        self.report.resets += 1;
        self.report.beats_cancelled += (self.log.len() - committed) as u64;
        self.report.responses_dropped += self.expected.len() as u64;
        self.golden = rebuilt;
        self.base = self.golden.clone();
        self.log.clear();
        self.expected.clear();
        self.recent_inserts.clear();
        Ok(())
    }

    /// The report after `cycles` cycles of a run of `beats` beats: a run that
    /// stopped with beats not taken or not answered is a mismatch.
    fn finish(mut self, beats: u64, cycles: u64) -> LanesReport {
        if self.report.beats < beats || !self.expected.is_empty() {
            self.report.mismatches.push(format!(
                "stopped after {cycles} cycles with {} beats taken and {} unanswered",
                self.report.beats,
                self.expected.len()
            ));
        }
        self.report.cycles = cycles - self.first_take.unwrap_or(0);
        if let Golden::Counting(f) = &self.golden {
            self.report.saturated = f.saturated().iter().map(|&n| n as u64).sum();
        }
        let (from, ops_before) = self.measured_from.unwrap_or((cycles, self.report.ops));
        self.report.measured_cycles = cycles - from;
        self.report.measured_ops = self.report.ops - ops_before;
        self.report
    }
}

/// Writes the low `width` bits of `value` at bit `at` of little-endian words.
fn set_field(words: &mut [u32], at: usize, width: usize, value: u128) {
    for i in 0..width {
        if (value >> i) & 1 == 1 {
            let b = at + i;
            words[b / 32] |= 1 << (b % 32);
        }
    }
}

fn get_field(words: &[u32], at: usize, width: usize) -> u128 {
    (0..width).fold(0u128, |v, i| {
        let b = at + i;
        v | ((((words[b / 32] >> (b % 32)) & 1) as u128) << i)
    })
}
