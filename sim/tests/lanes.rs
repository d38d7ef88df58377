//! `bloom_lanes` (hdl/src/lanes/mod.rs) in Verilator against the golden model's
//! beats (contract §8), cycle by cycle and slot by slot (sim/src/lanes.rs).

use hdl::lanes::{generate_lanes, generate_lanes_with, GeneratedLanes, LaneSwitches, ReplicaPorts};
use hdl::HashFamily::{Crc, Feistel, H3};
use hdl::{CoreConfig, CoreParams};
use sim::lanes::{run_lanes, run_lanes_on, Face, LaneTraffic, LanesReport};

fn lanes_of(params: CoreParams, lanes: usize, switches: LaneSwitches) -> GeneratedLanes {
    generate_lanes(&CoreConfig::from(params), lanes, switches).unwrap()
}

fn crc_k3_b6_w32() -> CoreParams {
    CoreParams::new(3, 6, 32, Crc, 0x1234_5678_9abc_def0).unwrap()
}

fn h3_k4_b12_w64() -> CoreParams {
    CoreParams::new(4, 12, 64, H3, 0).unwrap()
}

fn show(what: &str, r: &LanesReport) {
    eprintln!(
        "{what}: L={} {} beats, {} ops in {} cycles ({:.4} ops/cycle), {} write beats ({} clears), {} refused, {} reads after a new insert, {} hits, {} mismatches, {:.0} ops/s",
        r.lanes,
        r.beats,
        r.ops,
        r.cycles,
        r.ops_per_cycle(),
        r.write_beats,
        r.clears,
        r.refused_beats,
        r.reads_after_recent_insert,
        r.hits,
        r.mismatches.len(),
        r.ops as f64 / r.seconds.max(1e-9),
    );
}

fn assert_clean(what: &str, r: &LanesReport) {
    show(what, r);
    assert!(r.mismatches.is_empty(), "{what}: {:#?}", r.mismatches);
}

/// Every kind of beat (writes, reads of one to L slots, refused beats, clears),
/// idle cycles and backpressure, over a small pool of keys and small banks, so
/// that reads follow the inserts of their keys inside the forwarding window.
#[test]
fn mixed_crc_k3_b6_w32_lanes_1_2_4_8() {
    for (lanes, seed) in [(1, 11), (2, 12), (4, 13), (8, 14)] {
        let g = lanes_of(crc_k3_b6_w32(), lanes, LaneSwitches::default());
        let r = run_lanes(&g, &LaneTraffic::MIXED, seed, 6000).unwrap();
        assert_clean("mixed", &r);
        assert!(
            r.write_beats > 1000 && r.hits > 1000,
            "traffic too thin: {r:?}"
        );
        assert!(
            r.clears > 10 && r.reads_after_recent_insert > 100,
            "traffic too thin: {r:?}"
        );
        if lanes > 1 {
            assert!(r.refused_beats > 100, "traffic too thin: {r:?}");
        }
    }
}

/// No backpressure and no idle cycle: every response beat exactly `latency`
/// cycles after its beat (checked in every cycle), and the default core.
#[test]
fn mixed_without_backpressure_h3_k4_b12_w64_lanes_4() {
    let t = LaneTraffic {
        backpressure: 0,
        idle: 0,
        ..LaneTraffic::MIXED
    };
    let r = run_lanes(
        &lanes_of(h3_k4_b12_w64(), 4, LaneSwitches::default()),
        &t,
        21,
        4000,
    )
    .unwrap();
    assert_clean("mixed, no backpressure", &r);
}

/// The Feistel family: every lane's network two cycles ahead of lane 0's stages (its
/// request line), every response beat exactly `latency` cycles after its beat, and the
/// mixed traffic with backpressure.
#[test]
fn mixed_feistel_k4_b12_w64_lanes_3() {
    let params = CoreParams::new(4, 12, 64, Feistel, 7).unwrap();
    let g = lanes_of(params, 3, LaneSwitches::default());
    let exact = LaneTraffic {
        backpressure: 0,
        idle: 0,
        ..LaneTraffic::MIXED
    };
    assert_clean(
        "feistel, no backpressure",
        &run_lanes(&g, &exact, 31, 3000).unwrap(),
    );
    let r = run_lanes(&g, &LaneTraffic::MIXED, 32, 3000).unwrap();
    assert_clean("feistel, mixed", &r);
    assert!(
        r.hits > 100 && r.write_beats > 100,
        "traffic too thin: {r:?}"
    );
}

/// A counting filter's lanes (contract §8.3): lane 0 does every read-modify-write, the
/// query lanes read 1-bit replicas of the counters' non-zero bits. Counters of 2 bits
/// (saturating at 3) over a pool of 24 keys in banks of 2^6: inserts, deletes (two in
/// five writes), clears, refused beats, backpressure; then exact timing without
/// backpressure; then resets in flight. Every response beat slot by slot against the
/// golden counting filter.
#[test]
fn counting_crc_k3_b6_w32_c2_lanes_1_3_and_5() {
    let params = crc_k3_b6_w32().with_counter_bits(2).unwrap();
    for (lanes, seed) in [(1, 41), (3, 42), (5, 43)] {
        let g = lanes_of(params, lanes, LaneSwitches::default());
        let r = run_lanes(&g, &LaneTraffic::COUNTING, seed, 5000).unwrap();
        assert_clean("counting, mixed", &r);
        assert!(
            r.deletes > 100 && r.hits > 1000 && r.clears > 5,
            "traffic too thin: {r:?}"
        );
        let exact = LaneTraffic {
            backpressure: 0,
            idle: 0,
            ..LaneTraffic::COUNTING
        };
        let r = run_lanes(&g, &exact, seed + 10, 3000).unwrap();
        assert_clean("counting, no backpressure", &r);
        let resets = LaneTraffic {
            delete: 400_000,
            ..LaneTraffic::RESETS
        };
        let r = run_lanes(&g, &resets, seed + 20, 3000).unwrap();
        assert_clean("counting, resets in flight", &r);
        assert!(r.resets > 5, "too few resets: {r:?}");
    }
    // Saturation: with clears rare, counters of a 24-key pool reach 3.
    let g = lanes_of(params, 5, LaneSwitches::default());
    let few_clears = LaneTraffic {
        clear: 0,
        delete: 200_000,
        ..LaneTraffic::COUNTING
    };
    let r = run_lanes(&g, &few_clears, 44, 4000).unwrap();
    assert_clean("counting, saturating", &r);
    assert!(
        r.saturated > 10 && r.deletes > 100,
        "no saturation reached: {r:?}"
    );
}

/// A counting filter of the Feistel family: lane 0's request line and its write-back
/// in c7 together, 4-bit counters, the default bank size.
#[test]
fn counting_feistel_k4_b12_w64_c4_lanes_3() {
    let params = CoreParams::new(4, 12, 64, Feistel, 9)
        .unwrap()
        .with_counter_bits(4)
        .unwrap();
    let g = lanes_of(params, 3, LaneSwitches::default());
    let traffic = LaneTraffic::COUNTING.for_bank_bits(12);
    let exact = LaneTraffic {
        backpressure: 0,
        idle: 0,
        ..traffic
    };
    let r = run_lanes(&g, &exact, 51, 3000).unwrap();
    assert_clean("counting feistel, no backpressure", &r);
    let r = run_lanes(&g, &traffic, 52, 3000).unwrap();
    assert_clean("counting feistel, mixed", &r);
    assert!(r.deletes > 100, "traffic too thin: {r:?}");
}

/// Query lanes in pairs on two-port replicas (ReplicaPorts::Two, pair.rs): port A reads
/// for one lane whenever it does not write, port B for the other, both in the write's
/// stage. Every kind of beat with backpressure, exact timing, resets in flight; an odd
/// number of query lanes (a pair with one lane); a counting filter; and saturating
/// traffic at L operations per cycle.
#[test]
fn two_port_replicas_crc_k3_b6_w32_lanes_3_and_6_counting_and_saturating() {
    let two = |params: CoreParams, lanes: usize| {
        generate_lanes_with(
            &CoreConfig::from(params),
            lanes,
            ReplicaPorts::Two,
            LaneSwitches::default(),
        )
        .unwrap()
    };
    let exact = LaneTraffic {
        backpressure: 0,
        idle: 0,
        ..LaneTraffic::MIXED
    };
    for (lanes, seed) in [(3, 72), (6, 73)] {
        let g = two(crc_k3_b6_w32(), lanes);
        let r = run_lanes(&g, &LaneTraffic::MIXED, seed, 4000).unwrap();
        assert_clean("two ports, mixed", &r);
        assert!(
            r.reads_after_recent_insert > 100 && r.hits > 1000,
            "traffic too thin: {r:?}"
        );
        assert_clean(
            "two ports, no backpressure",
            &run_lanes(&g, &exact, seed + 10, 2000).unwrap(),
        );
        let r = run_lanes(&g, &LaneTraffic::RESETS, seed + 20, 2000).unwrap();
        assert_clean("two ports, resets in flight", &r);
        assert!(r.resets > 5, "too few resets: {r:?}");
    }
    let counting = crc_k3_b6_w32().with_counter_bits(2).unwrap();
    let g = two(counting, 5);
    let r = run_lanes(&g, &LaneTraffic::COUNTING, 74, 4000).unwrap();
    assert_clean("two ports, counting", &r);
    assert!(r.deletes > 100, "traffic too thin: {r:?}");
    let g = two(crc_k3_b6_w32(), 6);
    let r = run_lanes(&g, &LaneTraffic::SATURATING_AFTER_INSERTS, 75, 10_000).unwrap();
    assert_clean("two ports, saturating", &r);
    let per_cycle = r.ops_per_cycle();
    assert!((per_cycle - 6.0).abs() <= 0.06, "{per_cycle} ops/cycle");
}

/// Read beats with every slot valid, nothing holding them: L operations per
/// cycle (to within 1%), and the co-simulation's speed per L printed.
#[test]
fn saturating_h3_k4_b12_w64_lanes_1_2_4_8_run_l_operations_per_cycle() {
    for lanes in [1, 2, 4, 8] {
        let r = run_lanes(
            &lanes_of(h3_k4_b12_w64(), lanes, LaneSwitches::default()),
            &LaneTraffic::SATURATING,
            5,
            20_000,
        )
        .unwrap();
        assert_clean("saturating", &r);
        let per_cycle = r.ops_per_cycle();
        assert!(
            (per_cycle - lanes as f64).abs() <= 0.01 * lanes as f64,
            "L={lanes}: {per_cycle} ops/cycle"
        );
    }
}

/// Teeth: replicas above 0 that do not take write beats answer their lanes'
/// queries from a filter without those inserts; the co-simulation says so.
/// (No clears: a clear they do not take would also break their lockstep with
/// replica 0, a second fault beside the one under test.)
#[test]
fn teeth_no_write_broadcast_crc_k3_b6_w32_lanes_4_is_caught() {
    let g = lanes_of(
        crc_k3_b6_w32(),
        4,
        LaneSwitches {
            no_write_broadcast: true,
            ..Default::default()
        },
    );
    let r = run_lanes(
        &g,
        &LaneTraffic {
            clear: 0,
            ..LaneTraffic::MIXED
        },
        13,
        2000,
    )
    .unwrap();
    show("teeth", &r);
    assert!(
        !r.mismatches.is_empty(),
        "a replica without the inserts went unnoticed"
    );
    assert!(
        r.mismatches[0].contains("resp_hit"),
        "{:?}",
        r.mismatches[0]
    );
}

/// Teeth: a counting filter's query lanes that read their replicas in c3, as a plain
/// filter's do, miss the counters written back by the three beats ahead (lane 0 writes
/// in c7); the co-simulation says so.
#[test]
fn teeth_early_replica_read_counting_lanes_3_is_caught() {
    let params = crc_k3_b6_w32().with_counter_bits(2).unwrap();
    let g = lanes_of(
        params,
        3,
        LaneSwitches {
            early_replica_read: true,
            ..Default::default()
        },
    );
    let r = run_lanes(&g, &LaneTraffic::COUNTING, 61, 2000).unwrap();
    show("teeth", &r);
    assert!(
        !r.mismatches.is_empty(),
        "query lanes reading before the write-back went unnoticed"
    );
    assert!(
        r.mismatches[0].contains("resp_hit"),
        "{:?}",
        r.mismatches[0]
    );
}

/// Proptest: scripts of beats over six keys, so that the hard cases come
/// often: a query of a key in the beat after its insert and across the
/// forwarding window, deletes, clears, rule-breaking beats, idle cycles and
/// `resp_ready` patterns. Failing scripts shrink to the shortest beat list.
mod scripted {
    use super::*;
    use proptest::prelude::*;
    use sim::lanes::{run_lane_script, LaneScript, ScriptedBeat};

    const KEYS: usize = 6;

    fn beat(lanes: usize) -> impl Strategy<Value = ScriptedBeat> {
        let read = prop::collection::vec(prop::option::weighted(0.7, (Just(0u8), 0..KEYS)), lanes);
        // Slot 0 inserts (mostly), deletes or clears; nothing above it.
        let write = (
            prop_oneof![6 => Just(1u8), 1 => Just(3u8), 1 => Just(2u8)],
            0..KEYS,
        )
            .prop_map(move |(code, k)| {
                let mut b: ScriptedBeat = vec![None; lanes];
                b[0] = Some((code, k));
                b
            });
        // Anything at all: with more than one slot, mostly beats that break the rule.
        let any = prop::collection::vec(prop::option::of((0u8..4, 0..KEYS)), lanes);
        prop_oneof![5 => read, 4 => write, 1 => any]
    }

    fn script(lanes: usize) -> impl Strategy<Value = LaneScript> {
        (
            prop::collection::vec(
                (prop_oneof![4 => Just(0u8), 1 => 1u8..4], beat(lanes)),
                1..120,
            ),
            prop_oneof![
                Just(vec![]),
                prop::collection::vec(prop::bool::weighted(0.7), 0..12)
            ],
        )
            .prop_map(|(beats, mut ready)| {
                // High at least once in the pattern, or no response beat is ever taken.
                if !ready.is_empty() {
                    ready.push(true);
                }
                LaneScript {
                    pool: KEYS,
                    beats,
                    ready,
                }
            })
    }

    fn check(lanes: usize, cases: u32) {
        let g = lanes_of(crc_k3_b6_w32(), lanes, LaneSwitches::default());
        let config = ProptestConfig {
            cases,
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        let [runs, ops, refused, clears, recent] =
            std::array::from_fn(|_| std::cell::Cell::new(0u64));
        proptest!(config, |(s in script(lanes), seed in 0u64..1000)| {
            let r = run_lane_script(&g, &s, seed).unwrap();
            runs.set(runs.get() + 1);
            ops.set(ops.get() + r.ops);
            refused.set(refused.get() + r.refused_beats);
            clears.set(clears.get() + r.clears);
            recent.set(recent.get() + r.reads_after_recent_insert);
            prop_assert!(r.mismatches.is_empty(), "{:#?}\nscript: {:?}", r.mismatches, s);
        });
        eprintln!(
            "scripted L={lanes}: {} scripts, {} operations, {} refused beats, {} clears, {} reads after a new insert, 0 mismatches",
            runs.get(),
            ops.get(),
            refused.get(),
            clears.get(),
            recent.get()
        );
    }

    #[test]
    fn scripted_crc_k3_b6_w32_lanes_1() {
        check(1, 128);
    }

    #[test]
    fn scripted_crc_k3_b6_w32_lanes_2() {
        check(2, 256);
    }

    #[test]
    fn scripted_crc_k3_b6_w32_lanes_4() {
        check(4, 256);
    }

    #[test]
    fn scripted_crc_k3_b6_w32_lanes_8() {
        check(8, 128);
    }

    #[test]
    fn scripted_axis_face_crc_k3_b6_w32_lanes_4() {
        let g = lanes_of(crc_k3_b6_w32(), 4, LaneSwitches::default());
        let config = ProptestConfig {
            cases: 128,
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        proptest!(config, |(s in script(4), seed in 0u64..1000)| {
            let r = sim::lanes::run_lane_script_on(Face::Axis, &g, &s, seed).unwrap();
            prop_assert!(r.mismatches.is_empty(), "{:#?}\nscript: {:?}", r.mismatches, s);
        });
    }

    /// The scripts find the broken broadcast too.
    #[test]
    fn scripted_teeth_no_write_broadcast_lanes_4_is_caught() {
        let g = lanes_of(
            crc_k3_b6_w32(),
            4,
            LaneSwitches {
                no_write_broadcast: true,
                ..Default::default()
            },
        );
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
            cases: 64,
            failure_persistence: None,
            ..ProptestConfig::default()
        });
        // No clears: a clear those replicas do not take breaks their lockstep, a second
        // fault beside the one under test.
        let without_clears = script(4).prop_map(|mut s| {
            for (_, b) in s.beats.iter_mut() {
                for (code, _) in b.iter_mut().flatten() {
                    if *code == 2 {
                        *code = 1;
                    }
                }
            }
            s
        });
        let found = runner.run(&without_clears, |s| {
            let r = run_lane_script(&g, &s, 7).unwrap();
            prop_assert!(r.mismatches.is_empty(), "{:?}", r.mismatches);
            Ok(())
        });
        let Err(proptest::test_runner::TestError::Fail(why, minimal)) = found else {
            panic!("64 scripts did not catch replicas that miss the write beats: {found:?}")
        };
        eprintln!("teeth, shrunk to {} beats: {why}", minimal.beats.len());
        assert!(why.message().contains("resp_hit"), "{why}");
    }
}

/// The AXI4-Stream face (`bloom_lanes_axis`): the same traffic and checks
/// through s_axis/m_axis (slot valid bits and op codes in tuser, tags in tid,
/// answers in m_axis_tdata's bytes with tkeep, refused in m_axis_tuser, tlast 1).
#[test]
fn axis_face_mixed_crc_k3_b6_w32_lanes_1_4_and_exact_timing_h3_k4_b12_w64_lanes_2() {
    for (lanes, seed) in [(1, 31), (4, 32)] {
        let g = lanes_of(crc_k3_b6_w32(), lanes, LaneSwitches::default());
        let r = run_lanes_on(Face::Axis, &g, &LaneTraffic::MIXED, seed, 4000).unwrap();
        assert_clean("axis, mixed", &r);
        assert!(
            r.write_beats > 500 && r.clears > 5 && r.reads_after_recent_insert > 50,
            "traffic too thin: {r:?}"
        );
        if lanes > 1 {
            assert!(r.refused_beats > 50, "traffic too thin: {r:?}");
        }
    }
    let t = LaneTraffic {
        backpressure: 0,
        idle: 0,
        clear: 5_000,
        ..LaneTraffic::MIXED
    };
    let r = run_lanes_on(
        Face::Axis,
        &lanes_of(h3_k4_b12_w64(), 2, LaneSwitches::default()),
        &t,
        33,
        3000,
    )
    .unwrap();
    assert_clean("axis, no backpressure", &r);
}

/// A request beat with no slot marked in s_axis_tuser is taken and dropped:
/// no response beat; the beat after it is answered with its own tag.
#[test]
fn axis_face_beat_with_no_slot_is_taken_and_dropped() {
    let lanes = lanes_of(crc_k3_b6_w32(), 2, LaneSwitches::default());
    let (lib, mut m) = axis_face_after_reset(&lanes);
    let p = |n: &str| lib.port(n).unwrap();
    m.set(p("m_axis_tready"), 1).unwrap();
    // The empty beat: tvalid high, no slot marked, taken.
    m.set(p("s_axis_tvalid"), 1).unwrap();
    m.set(p("s_axis_tuser"), 0).unwrap();
    m.set(p("s_axis_tid"), 0x1111).unwrap();
    m.eval();
    assert_eq!(m.get(p("s_axis_tready")), 1);
    m.step(1).unwrap();
    // A query in slot 1 (tuser bit 1; op codes 0), tag 0x42 there.
    m.set(p("s_axis_tuser"), 0b10).unwrap();
    m.set(p("s_axis_tid"), 0x4200).unwrap();
    m.eval();
    assert_eq!(m.get(p("s_axis_tready")), 1);
    m.step(1).unwrap();
    m.set(p("s_axis_tvalid"), 0).unwrap();
    let mut responses = Vec::new();
    for _ in 0..30 {
        m.eval();
        if m.get(p("m_axis_tvalid")) == 1 {
            responses.push((
                m.get(p("m_axis_tkeep")),
                m.get(p("m_axis_tid")),
                m.get(p("m_axis_tuser")),
            ));
        }
        m.step(1).unwrap();
    }
    assert_eq!(
        responses,
        vec![(0b10, 0x4200, 0)],
        "one response beat, the query's"
    );
}

/// A script that cannot be run is refused with a message, before any cycle: a beat
/// with the wrong number of slots, an op code above 3, a resp_ready pattern never high.
#[test]
fn scripts_with_bad_beats_or_a_ready_pattern_never_high_are_refused() {
    use sim::lanes::{run_lane_script, LaneScript};
    let g = lanes_of(crc_k3_b6_w32(), 2, LaneSwitches::default());
    let refuse = |s: LaneScript, says: &str| {
        let e = run_lane_script(&g, &s, 1).unwrap_err().to_string();
        assert!(e.contains(says), "{e}");
    };
    refuse(
        LaneScript {
            pool: 4,
            beats: vec![(0, vec![Some((0, 1))])],
            ready: vec![],
        },
        "a scripted beat of 1 slots",
    );
    refuse(
        LaneScript {
            pool: 4,
            beats: vec![(0, vec![Some((4, 1)), None])],
            ready: vec![],
        },
        "ops 0..=3",
    );
    refuse(
        LaneScript {
            pool: 4,
            beats: vec![(0, vec![Some((0, 1)), None])],
            ready: vec![false, false],
        },
        "never high",
    );
}

/// Reset asserted at random (1 to 4 cycles, about one every 150 cycles) with beats
/// in the input stage, beats in the replicas, response beats outstanding and
/// clears sweeping, checked against contract §5.1 with §8.3: the committed beats
/// are exactly those that entered the replicas 4 or more cycles before the reset,
/// a clear's sweep is cut short where the contract says, no response of a beat
/// taken before the reset comes after it, and every later answer is the golden
/// model's from the state the reset left.
#[test]
fn resets_in_flight_crc_k3_b6_w32_lanes_1_2_4() {
    for (lanes, seed) in [(1, 41), (2, 42), (4, 43)] {
        let g = lanes_of(crc_k3_b6_w32(), lanes, LaneSwitches::default());
        let r = run_lanes(&g, &LaneTraffic::RESETS, seed, 3000).unwrap();
        assert_clean(&format!("resets L={lanes}"), &r);
        eprintln!(
            "  {} resets: {} beats cancelled, {} response beats dropped, {} clears cut short",
            r.resets, r.beats_cancelled, r.responses_dropped, r.clears_cut_short
        );
        assert!(
            r.resets >= 20 && r.beats_cancelled >= 20 && r.responses_dropped >= 10,
            "L={lanes}: resets did not meet enough in flight: {} resets, {} cancelled, {} dropped",
            r.resets,
            r.beats_cancelled,
            r.responses_dropped
        );
    }
}

/// Teeth of the reset checks: `bloom_lanes` made wrong in the two ways a reset
/// could be mishandled around the lanes (its Verilog edited): response beats
/// kept across reset (a stale beat answers, or its descriptor answers a later
/// beat), and an input stage that keeps its beats (a cancelled beat reaches lane 0).
#[test]
fn resets_in_flight_teeth_stale_descriptors_and_input_stage_are_caught() {
    let good = lanes_of(crc_k3_b6_w32(), 4, LaneSwitches::default());
    // Each fault is made to appear after the first reset only (a register set
    // once the power-up reset is over), so that what catches it is a reset in flight.
    let stage = "reg head_valid = 1'b0;\n";
    let stage_once = "reg head_valid = 1'b0;\nreg stage_powered = 1'b0;\nalways @(posedge clock) if (~reset) stage_powered <= 1'b1;\n";
    let beats = "assign valid = occupancy[0];\n";
    let beats_once = "assign valid = occupancy[0];\nreg beats_powered = 1'b0;\nalways @(posedge clock) if (~reset) beats_powered <= 1'b1;\n";
    for (what, edits) in [
        (
            "response beats kept",
            [
                (beats, beats_once),
                (
                    "    if (reset) begin\n        beat_select <= ",
                    "    if (reset & ~beats_powered) begin\n        beat_select <= ",
                ),
            ],
        ),
        (
            "input stage kept",
            [
                (stage, stage_once),
                (
                    "    if (reset) begin\n        head_valid <= 1'b0;",
                    "    if (reset & ~stage_powered) begin\n        head_valid <= 1'b0;",
                ),
            ],
        ),
    ] {
        let mut wrong = lanes_of(crc_k3_b6_w32(), 4, LaneSwitches::default());
        for (from, to) in edits {
            assert_eq!(good.verilog.matches(from).count(), 1, "{what}: `{from}`");
            wrong.verilog = wrong.verilog.replacen(from, to, 1);
        }
        let r = run_lanes(&wrong, &LaneTraffic::RESETS, 42, 3000).unwrap();
        show(what, &r);
        assert!(!r.mismatches.is_empty(), "{what}: went unnoticed");
        eprintln!("  {what}: caught: {}", r.mismatches[0]);
    }
}

/// The same checks on the netlist Yosys's `synth_ice40` makes of `bloom_lanes`
/// (simulated with the iCE40 cell models, sim/src/netlist.rs): every kind of
/// beat, idle cycles and backpressure, then resets in flight, for L = 2 and 4.
#[test]
fn ice40_netlist_mixed_and_resets_crc_k3_b6_w32_lanes_2_4() {
    use sim::netlist::NetlistKind;
    for (lanes, seed) in [(2, 51), (4, 52)] {
        let g = lanes_of(crc_k3_b6_w32(), lanes, LaneSwitches::default());
        let face = Face::Netlist(NetlistKind::Ice40);
        let r = run_lanes_on(face, &g, &LaneTraffic::MIXED, seed, 3000).unwrap();
        assert_clean("ice40 netlist, mixed", &r);
        assert!(
            r.write_beats > 500 && r.clears > 5 && r.refused_beats > 50,
            "traffic too thin: {r:?}"
        );
        let r = run_lanes_on(face, &g, &LaneTraffic::RESETS, seed, 2000).unwrap();
        assert_clean("ice40 netlist, resets", &r);
        assert!(r.resets >= 10, "L={lanes}: {} resets", r.resets);
    }
}

/// `bloom_lanes_axis`'s register block, driven through its AXI4-Lite slave against
/// the golden model: the fixed words, OPS, INSERTS and HITS per operation, a
/// register clear (STATUS.busy until done, its response beat never sent, every
/// lane's answers 0 after it), bit writes through BIT_ADDR that every lane then
/// answers from (lane 0's write broadcast reaches the replicas), a bit read, FILL.
#[test]
fn axis_face_registers_clear_bit_access_and_counters_reach_every_lane() {
    use hdl::axi::regmap as map;
    const L: usize = 3;
    let params = crc_k3_b6_w32();
    let lanes = lanes_of(params, L, LaneSwitches::default());
    let (lib, mut m) = axis_face_after_reset(&lanes);
    let p = |n: &str| lib.port(n).unwrap();
    m.set(p("s_axil_wstrb"), 0xf).unwrap();
    m.set(p("m_axis_tready"), 1).unwrap();

    // While set: m_axis must present nothing (checked in every cycle of a register access).
    let quiet = std::cell::Cell::new(false);
    let check_quiet = |m: &sim::Model| {
        if quiet.get() {
            assert_eq!(
                m.get(p("m_axis_tvalid")),
                0,
                "no response beat for a register clear"
            );
        }
    };
    // AXI4-Lite, one transaction at a time: valid held until ready, the response taken.
    let write = |m: &mut sim::Model, addr: u32, data: u32| {
        m.set(p("s_axil_awaddr"), addr as u128).unwrap();
        m.set(p("s_axil_wdata"), data as u128).unwrap();
        m.set(p("s_axil_awvalid"), 1).unwrap();
        m.set(p("s_axil_wvalid"), 1).unwrap();
        m.set(p("s_axil_bready"), 1).unwrap();
        let mut done = false;
        for _ in 0..200 {
            m.eval();
            check_quiet(m);
            let aw = m.get(p("s_axil_awready")) == 1;
            if aw {
                m.step(1).unwrap();
                m.set(p("s_axil_awvalid"), 0).unwrap();
                m.set(p("s_axil_wvalid"), 0).unwrap();
                continue;
            }
            if m.get(p("s_axil_bvalid")) == 1 {
                assert_eq!(m.get(p("s_axil_bresp")), 0, "write of {addr:#x}: OKAY");
                m.step(1).unwrap();
                done = true;
                break;
            }
            m.step(1).unwrap();
        }
        assert!(done, "write of {addr:#x} answered");
        m.set(p("s_axil_bready"), 0).unwrap();
    };
    let read = |m: &mut sim::Model, addr: u32| -> u32 {
        m.set(p("s_axil_araddr"), addr as u128).unwrap();
        m.set(p("s_axil_arvalid"), 1).unwrap();
        m.set(p("s_axil_rready"), 1).unwrap();
        for _ in 0..200 {
            m.eval();
            check_quiet(m);
            if m.get(p("s_axil_arready")) == 1 {
                m.step(1).unwrap();
                m.set(p("s_axil_arvalid"), 0).unwrap();
                continue;
            }
            if m.get(p("s_axil_rvalid")) == 1 {
                assert_eq!(m.get(p("s_axil_rresp")), 0, "read of {addr:#x}: OKAY");
                let data = m.get(p("s_axil_rdata")) as u32;
                m.step(1).unwrap();
                m.set(p("s_axil_rready"), 0).unwrap();
                return data;
            }
            m.step(1).unwrap();
        }
        panic!("read of {addr:#x} not answered");
    };
    // One beat: slots (op, key); the response beats sent meanwhile are returned.
    let beat = |m: &mut sim::Model, slots: &[(u128, u128)]| -> Vec<(u128, u128)> {
        let (mut data, mut valid, mut ops) = (0u128, 0u128, 0u128);
        for (j, (op, key)) in slots.iter().enumerate() {
            data |= key << (32 * j);
            valid |= 1 << j;
            ops |= op << (L + 2 * j);
        }
        m.set(p("s_axis_tdata"), data).unwrap();
        m.set(p("s_axis_tuser"), valid | ops).unwrap();
        m.set(p("s_axis_tid"), 0).unwrap();
        m.set(p("s_axis_tvalid"), 1).unwrap();
        m.set(p("m_axis_tready"), 1).unwrap();
        let mut sent = Vec::new();
        let mut taken = false;
        for _ in 0..100 {
            m.eval();
            if m.get(p("m_axis_tvalid")) == 1 {
                sent.push((m.get(p("m_axis_tkeep")), m.get(p("m_axis_tdata"))));
            }
            if !taken && m.get(p("s_axis_tready")) == 1 {
                taken = true;
                m.step(1).unwrap();
                m.set(p("s_axis_tvalid"), 0).unwrap();
                continue;
            }
            m.step(1).unwrap();
        }
        assert!(taken, "beat taken");
        sent
    };

    // The fixed words: bloom_axis's for this filter, TIMING the face's.
    let fixed = hdl::axi::lanes_regs::lanes_fixed_words(&lanes);
    assert_eq!(read(&mut m, map::ID.offset), 0x424c_4f4d);
    for (i, r) in [
        (0, map::ID),
        (1, map::VERSION),
        (2, map::CONFIG),
        (3, map::SEED_LO),
        (4, map::SEED_HI),
        (5, map::TIMING),
        (7, map::LANES),
    ] {
        assert_eq!(read(&mut m, r.offset), fixed[i], "{}", r.name);
    }
    assert_eq!(map::LANES_LANES.get(fixed[7]) as usize, lanes.lanes);
    assert_eq!(
        map::TIMING_LATENCY.get(fixed[5]),
        lanes.timing.latency,
        "TIMING.latency is the face's"
    );

    let mut golden = golden::PartitionedFilter::try_new(params).unwrap();
    let (a, b) = (0x1111_2222u128, 0x3333_4444u128);
    // Insert a, then query a in every slot.
    let sent = beat(&mut m, &[(1, a)]);
    assert_eq!(sent.len(), 1);
    golden.insert(a).unwrap();
    let sent = beat(&mut m, &[(0, a), (0, a), (0, a)]);
    assert_eq!(sent, vec![(0b111, hits_word(&[true; L]))]);
    assert_eq!(
        read(&mut m, map::COUNTERS_OPS.offset),
        4,
        "OPS: one insert, three queries"
    );
    assert_eq!(read(&mut m, map::COUNTERS_INSERTS.offset), 1);
    assert_eq!(read(&mut m, map::COUNTERS_HITS.offset), 3);
    for bank in 0..3u32 {
        assert_eq!(read(&mut m, map::FILL.offset + 4 * bank), 1, "FILL[{bank}]");
    }

    // A register clear: busy until its sweep is done, its response beat never sent (the
    // sink stalls meanwhile: a response beat would wait for the next beat's).
    m.set(p("m_axis_tready"), 0).unwrap();
    quiet.set(true);
    write(&mut m, map::COMMAND.offset, map::COMMAND_CLEAR.place(1));
    assert_eq!(map::STATUS_BUSY.get(read(&mut m, map::STATUS.offset)), 1);
    let mut polls = 0;
    while map::STATUS_BUSY.get(read(&mut m, map::STATUS.offset)) == 1 {
        polls += 1;
        assert!(polls < 100, "STATUS.busy falls");
    }
    quiet.set(false);
    golden.clear();
    let sent = beat(&mut m, &[(0, a), (0, a), (0, a)]);
    assert_eq!(
        sent,
        vec![(0b111, 0)],
        "one response beat, every lane answers 0"
    );
    for bank in 0..3u32 {
        assert_eq!(read(&mut m, map::FILL.offset + 4 * bank), 0, "FILL[{bank}]");
    }

    // Bit writes of b's k bits through BIT_ADDR: every lane then finds b.
    let addrs = golden.addresses(b).unwrap();
    for (bank, addr) in addrs.iter().enumerate() {
        write(
            &mut m,
            map::BIT_ADDR.offset,
            map::BIT_ADDR_ADDR.place(*addr as u64)
                | map::BIT_ADDR_BANK.place(bank as u64)
                | map::BIT_ADDR_WRITE.place(1)
                | map::BIT_ADDR_WDATA.place(1),
        );
        let mut polls = 0;
        while map::BIT_DATA_VALID.get(read(&mut m, map::BIT_DATA.offset)) == 0 {
            polls += 1;
            assert!(polls < 100, "BIT_DATA.valid rises");
        }
    }
    golden.insert(b).unwrap();
    let sent = beat(&mut m, &[(0, b), (0, b), (0, b)]);
    assert_eq!(
        sent,
        vec![(0b111, hits_word(&[golden.query(b).unwrap(); L]))],
        "every lane answers from the bits written"
    );
    // A bit read of one of them.
    write(
        &mut m,
        map::BIT_ADDR.offset,
        map::BIT_ADDR_ADDR.place(addrs[1] as u64) | map::BIT_ADDR_BANK.place(1),
    );
    let data = loop {
        let d = read(&mut m, map::BIT_DATA.offset);
        if map::BIT_DATA_VALID.get(d) == 1 {
            break d;
        }
    };
    assert_eq!(map::BIT_DATA_VALUE.get(data), 1);
    for bank in 0..3u32 {
        assert_eq!(read(&mut m, map::FILL.offset + 4 * bank), 1, "FILL[{bank}]");
    }
    // COMMAND.zero_counters.
    write(
        &mut m,
        map::COMMAND.offset,
        map::COMMAND_ZERO_COUNTERS.place(1),
    );
    assert_eq!(read(&mut m, map::COUNTERS_OPS.offset), 0);
}

/// `m_axis_tdata` of L bytes whose bit 0 are `hits`.
fn hits_word(hits: &[bool]) -> u128 {
    hits.iter()
        .enumerate()
        .map(|(j, h)| (*h as u128) << (8 * j))
        .sum()
}

/// TIMING.response_fifo_depth of `bloom_lanes_axis` is the most beats it holds taken
/// and unanswered, reached under random traffic and a sink that stalls now and then
/// (the register block's drop ring has as many places): a plain filter on one-port
/// replicas (10), and the most there is, a counting filter of the Feistel family on
/// two-port replicas (16).
#[test]
fn axis_face_holds_at_most_the_beats_timing_states() {
    use hdl::axi::regmap as map;
    for (params, ports) in [
        (crc_k3_b6_w32(), ReplicaPorts::One),
        (
            CoreParams::new(3, 6, 32, Feistel, 1)
                .unwrap()
                .with_counter_bits(2)
                .unwrap(),
            ReplicaPorts::Two,
        ),
    ] {
        let lanes =
            generate_lanes_with(&CoreConfig::from(params), 3, ports, LaneSwitches::default())
                .unwrap();
        let (lib, mut m) = axis_face_after_reset(&lanes);
        let p = |n: &str| lib.port(n).unwrap();
        let mut rng = golden::rng::SplitMix64::new(7);
        let (mut unanswered, mut most, mut stall) = (0i64, 0i64, 0u64);
        for _ in 0..20_000 {
            // Read beats of three queries, and inserts in slot 0 (write beats).
            let user = if rng.below(5) == 0 {
                1 | (1 << 3)
            } else {
                0b111
            };
            m.set(p("s_axis_tvalid"), rng.chance(0.75) as u128).unwrap();
            m.set(p("s_axis_tuser"), user).unwrap();
            m.set(p("s_axis_tdata"), rng.key(96)).unwrap();
            let ready = if stall > 0 {
                stall -= 1;
                false
            } else if rng.below(50) == 0 {
                stall = rng.below(40);
                false
            } else {
                rng.chance(0.67)
            };
            m.set(p("m_axis_tready"), ready as u128).unwrap();
            m.eval();
            let taken = m.get(p("s_axis_tvalid")) & m.get(p("s_axis_tready"));
            let sent = m.get(p("m_axis_tvalid")) & m.get(p("m_axis_tready"));
            unanswered += taken as i64 - sent as i64;
            most = most.max(unanswered);
            m.step(1).unwrap();
        }
        let timing = hdl::axi::lanes_regs::lanes_fixed_words(&lanes)[5];
        assert_eq!(
            most as u32,
            map::TIMING_RESPONSE_FIFO_DEPTH.get(timing),
            "{params:?} {ports:?}"
        );
    }
}

/// `bloom_lanes_axis` of `lanes`, built, with every input of its AXI4-Lite slave, `s_axis_tvalid`
/// and `m_axis_tready` low, after a reset and the recount that follows it (`busy` low).
fn axis_face_after_reset(
    lanes: &GeneratedLanes,
) -> (std::sync::Arc<sim::ModelLibrary>, sim::Model) {
    let g = hdl::axi::lanes::axis_around(lanes).unwrap();
    let lib = sim::verilator::build(&g.verilog, &g.top, &sim::verilator::ModelOptions::default())
        .unwrap();
    let mut m = lib
        .instantiate(Some("aclk"), sim::InitialState::Zero)
        .unwrap();
    for port in hdl::axi::lanes::lanes_axis_ports(&lanes.core.config.params, lanes.lanes) {
        if port.direction == hdl::ports::Direction::Input && port.name.starts_with("s_axil_") {
            m.set(lib.port(&port.name).unwrap(), 0).unwrap();
        }
    }
    for n in ["s_axis_tvalid", "m_axis_tready", "aresetn"] {
        m.set(lib.port(n).unwrap(), 0).unwrap();
    }
    m.step(2).unwrap();
    m.set(lib.port("aresetn").unwrap(), 1).unwrap();
    m.step(300).unwrap();
    m.eval();
    assert_eq!(m.get(lib.port("busy").unwrap()), 0, "the recount is over");
    (lib, m)
}
