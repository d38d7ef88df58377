//! The harness has teeth: deliberately broken cores (hdl's test switches) are
//! caught, and the report names the exact cycle and operation where the core
//! first went wrong.

mod common;

use common::*;
use golden::HashFamily::H3;
use golden::PartitionedFilter;
use sim::cosim::golden_op;
use sim::traffic::ReadyPattern;
use sim::{CoSim, Request, Traffic, TrafficShape};

/// Keys such that no two keys closer than `distance` in the list share an
/// address in any bank (so no read-after-write hazard among them).
fn hazard_free_keys(spec: &hdl::CoreConfig, n: usize, distance: usize, seed: u64) -> Vec<u128> {
    let golden = PartitionedFilter::new(spec.params);
    let mut rng = sim::traffic::Rng::new(seed);
    let mut keys: Vec<u128> = Vec::new();
    let mut addrs: Vec<Vec<u32>> = Vec::new();
    while keys.len() < n {
        let key = rng.key(spec.params.key_bits);
        let a = golden.addresses(key).unwrap();
        let lo = addrs.len().saturating_sub(distance);
        if addrs[lo..]
            .iter()
            .all(|b| b.iter().zip(&a).all(|(x, y)| x != y))
        {
            keys.push(key);
            addrs.push(a);
        }
    }
    keys
}

#[test]
fn nofwd_crc_k3_b6_w32_first_mismatch_is_the_query_right_after_its_insert() {
    let mut spec = crc_k3_b6_w32();
    spec.test_switches.disable_forwarding = true;
    let mut cosim = fresh(&spec);
    cosim.drain(&mut ReadyPattern::default()).unwrap();
    let lat = cosim.core.timing.latency as u64;
    let keys = hazard_free_keys(&spec, 12, 10, 5);
    // Ops 0..=10 insert hazard-free keys; op 11 queries the key inserted by op 10,
    // in the very next cycle: only forwarding can answer it.
    let mut requests: Vec<Request> = keys[..11]
        .iter()
        .enumerate()
        .map(|(i, &key)| Request {
            op: 1,
            key,
            tag: i as u8,
        })
        .collect();
    requests.push(Request {
        op: 0,
        key: keys[10],
        tag: 11,
    });
    let start = cosim.core.cycle();
    cosim
        .run_requests(
            &requests,
            &vec![0; requests.len()],
            &mut ReadyPattern::default(),
        )
        .unwrap();
    let r = cosim.report();
    let first = r
        .first_mismatch()
        .expect("the core without forwarding must be caught");
    assert_eq!(first.op_index, Some(11), "{first}");
    assert_eq!(first.cycle, start + 11 + lat, "{first}");
    assert!(
        first.what.contains("hit 0") && first.what.contains("expected (hit 1"),
        "{first}"
    );
    assert!(first
        .to_string()
        .starts_with(&format!("cycle {}, operation 11: ", start + 11 + lat)));

    // The same sequence on the correct core passes: the hazard is real, not staged.
    let mut good = fresh(&crc_k3_b6_w32());
    good.run_requests(
        &requests,
        &vec![0; requests.len()],
        &mut ReadyPattern::default(),
    )
    .unwrap();
    assert_eq!(
        good.report().mismatches,
        0,
        "{:?}",
        good.report().first_mismatches
    );
}

#[test]
fn nofwd_crc_k3_b6_w32_caught_by_random_stress_traffic() {
    let mut spec = crc_k3_b6_w32();
    spec.test_switches.disable_forwarding = true;
    let mut cosim = fresh(&spec);
    let r = cosim
        .run(&sim::RunOptions::stress(5_000, 32, 21), &mut |_, _| {})
        .unwrap();
    assert!(r.mismatches > 0);
    // Caught at once: a missed forward leaves a stale bit, which the fill
    // counter (compared every cycle) or the response shows first.
    let first = r.first_mismatch().unwrap();
    assert!(
        first.cycle > 0 && (first.what.contains("fill_count") || first.what.contains("response")),
        "{first}"
    );
    assert!(
        r.first_mismatches
            .iter()
            .any(|m| m.op_index.is_some() && m.what.contains("response")),
        "{:?}",
        r.first_mismatches
    );
}

/// The reference for a core whose bank `p` hashes with seed + 1: the golden
/// model's addresses, bank p's taken from the golden model of seed + 1.
struct PerturbedReference {
    normal: PartitionedFilter,
    shifted: PartitionedFilter,
    bank: usize,
    bits: Vec<Vec<bool>>,
}

impl PerturbedReference {
    fn new(spec: &hdl::CoreConfig, bank: usize) -> Self {
        let mut shifted = spec.clone();
        shifted.params.seed = spec.params.seed.wrapping_add(1);
        PerturbedReference {
            normal: PartitionedFilter::new(spec.params),
            shifted: PartitionedFilter::new(shifted.params),
            bank,
            bits: vec![vec![false; 1 << spec.params.bank_bits]; spec.params.k as usize],
        }
    }
    fn apply(&mut self, r: &Request) -> bool {
        if r.op == 2 {
            self.bits.iter_mut().for_each(|b| b.fill(false));
            return false;
        }
        let mut a = self.normal.addresses(r.key).unwrap();
        a[self.bank] = self.shifted.addresses(r.key).unwrap()[self.bank];
        let all = a.iter().enumerate().all(|(p, &x)| self.bits[p][x as usize]);
        if r.op == 1 {
            a.iter()
                .enumerate()
                .for_each(|(p, &x)| self.bits[p][x as usize] = true);
        }
        all
    }
}

#[test]
fn perturb_bank1_h3_k3_b6_w32_first_mismatch_at_the_first_differing_response() {
    let mut spec = hdl::CoreConfig::from(hdl::CoreParams::new(3, 6, 32, H3, 99).unwrap());
    spec.test_switches.perturb_seed_of_bank = Some(1);
    let mut cosim = fresh(&spec);
    let lat = cosim.core.timing.latency as u64;
    // Back to back, never stalled, no clears: operation i is accepted in cycle start + i.
    let mut shape = TrafficShape::stress(32);
    (
        shape.p_clear,
        shape.p_burst_end,
        shape.max_gap,
        shape.p_stall_start,
    ) = (0.0, 0.0, 0, 0.0);
    let mut traffic = Traffic::new(shape, 8);
    let requests: Vec<Request> = (0..3000).map(|_| traffic.next_request().0).collect();
    let mut golden = PartitionedFilter::new(spec.params);
    let mut broken = PerturbedReference::new(&spec, 1);
    let expected_first = requests
        .iter()
        .position(|r| golden.apply(golden_op(r)).unwrap() != broken.apply(r))
        .expect("the perturbed bank changes some response in 3000 operations")
        as u64;

    cosim.drain(&mut ReadyPattern::default()).unwrap();
    let start = cosim.core.cycle();
    cosim
        .run_requests(
            &requests,
            &vec![0; requests.len()],
            &mut ReadyPattern::default(),
        )
        .unwrap();
    let report = cosim.report();
    let first = report
        .first_mismatch()
        .cloned()
        .expect("the perturbed core must be caught");
    // The first differing response is reported at its exact cycle, with its
    // operation; the fill counter of the perturbed bank (compared every cycle)
    // may give the fault away earlier, never later.
    let response = report
        .first_mismatches
        .iter()
        .find(|m| m.what.contains("response"))
        .unwrap_or_else(|| panic!("no response mismatch among {:?}", report.first_mismatches));
    assert_eq!(response.op_index, Some(expected_first), "{response}");
    assert_eq!(response.cycle, start + expected_first + lat, "{response}");
    assert!(first.cycle <= response.cycle, "{first}");
    assert!(
        first.what.contains("response") || first.what.contains("fill_count of bank 1"),
        "{first}"
    );

    // The image check names the perturbed bank, and only it (after a clear and a
    // few inserts, so that the banks are far from full).
    let mut rng = sim::traffic::Rng::new(4);
    let mut fresh_ops = vec![Request {
        op: 2,
        key: 0,
        tag: 0,
    }];
    fresh_ops.extend((1..6).map(|t| Request {
        op: 1,
        key: rng.key(32),
        tag: t,
    }));
    cosim
        .run_requests(&fresh_ops, &[0; 6], &mut ReadyPattern::default())
        .unwrap();
    cosim.checker.first.clear();
    let found = cosim.check_image(&mut ReadyPattern::default()).unwrap();
    assert!(found > 0);
    let all: Vec<String> = cosim.checker.first.iter().map(|m| m.to_string()).collect();
    let image: Vec<&String> = all.iter().filter(|m| m.contains("rb_data is")).collect();
    assert!(
        !image.is_empty(),
        "the image check must catch the perturbed bank: {all:?}"
    );
    assert!(
        image.iter().all(|m| m.contains("bank 1 address")),
        "{image:?}"
    );
    assert!(
        all.iter().all(|m| m.contains("bank 1")),
        "only bank 1 differs: {all:?}"
    );
}

#[test]
fn a_correct_core_with_the_same_traffic_has_no_mismatch() {
    // Control for the perturbation test: the same configuration without the switch.
    let spec = hdl::CoreConfig::from(hdl::CoreParams::new(3, 6, 32, H3, 99).unwrap());
    let mut cosim: CoSim = fresh(&spec);
    let r = cosim
        .run(&sim::RunOptions::stress(5_000, 32, 8), &mut |_, _| {})
        .unwrap();
    assert_eq!(r.mismatches, 0, "{:?}", r.first_mismatches);
}

#[test]
fn nofwd_crc_k3_b6_w32_caught_in_every_shard_of_a_sharded_run() {
    let mut spec = crc_k3_b6_w32();
    spec.test_switches.disable_forwarding = true;
    let first = sim::VerilatedCore::build(&spec, false).unwrap();
    let mut cosims = vec![
        sim::CoSim::from_core(first.new_instance().unwrap()).unwrap(),
        sim::CoSim::from_core(first).unwrap(),
    ];
    let (reports, _) = sim::run_sharded(
        &mut cosims,
        &sim::RunOptions::stress(10_000, 32, 21),
        &mut |_, _| {},
    )
    .unwrap();
    for r in &reports {
        assert!(r.mismatches > 0);
        let first = r.first_mismatch().unwrap();
        assert!(first.cycle > 0, "{first}");
    }
}
