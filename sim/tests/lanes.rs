//! `bloom_lanes` (hdl/src/lanes.rs) in Verilator against the golden model's
//! beats (contract §8), cycle by cycle and slot by slot (sim/src/lanes.rs).

use hdl::lanes::{generate_lanes, GeneratedLanes, LaneSwitches};
use hdl::HashFamily::{Crc, H3};
use hdl::{CoreConfig, CoreParams};
use sim::lanes::{run_lanes, LaneTraffic, LanesReport};

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
        assert!(r.write_beats > 1000 && r.hits > 1000, "traffic too thin: {r:?}");
        assert!(r.clears > 10 && r.reads_after_recent_insert > 100, "traffic too thin: {r:?}");
        if lanes > 1 {
            assert!(r.refused_beats > 100, "traffic too thin: {r:?}");
        }
    }
}

/// No backpressure and no idle cycle: every response beat exactly `latency`
/// cycles after its beat (checked in every cycle), and the default core.
#[test]
fn mixed_without_backpressure_h3_k4_b12_w64_lanes_4() {
    let t = LaneTraffic { backpressure: 0, idle: 0, ..LaneTraffic::MIXED };
    let r = run_lanes(&lanes_of(h3_k4_b12_w64(), 4, LaneSwitches::default()), &t, 21, 4000).unwrap();
    assert_clean("mixed, no backpressure", &r);
}

/// Read beats with every slot valid, nothing holding them: L operations per
/// cycle (to within 1%), and the co-simulation's speed per L printed.
#[test]
fn saturating_h3_k4_b12_w64_lanes_1_2_4_8_run_l_operations_per_cycle() {
    for lanes in [1, 2, 4, 8] {
        let r = run_lanes(&lanes_of(h3_k4_b12_w64(), lanes, LaneSwitches::default()), &LaneTraffic::SATURATING, 5, 20_000).unwrap();
        assert_clean("saturating", &r);
        let per_cycle = r.ops_per_cycle();
        assert!((per_cycle - lanes as f64).abs() <= 0.01 * lanes as f64, "L={lanes}: {per_cycle} ops/cycle");
    }
}

/// Teeth: replicas above 0 that do not take write beats answer their lanes'
/// queries from a filter without those inserts; the co-simulation says so.
/// (No clears: a clear they do not take would also break their lockstep with
/// replica 0, a second fault beside the one under test.)
#[test]
fn teeth_no_write_broadcast_crc_k3_b6_w32_lanes_4_is_caught() {
    let g = lanes_of(crc_k3_b6_w32(), 4, LaneSwitches { no_write_broadcast: true });
    let r = run_lanes(&g, &LaneTraffic { clear: 0, ..LaneTraffic::MIXED }, 13, 2000).unwrap();
    show("teeth", &r);
    assert!(!r.mismatches.is_empty(), "a replica without the inserts went unnoticed");
    assert!(r.mismatches[0].contains("resp_hit"), "{:?}", r.mismatches[0]);
}
