//! The scrub (docs/contract.md §5.2) co-simulated: every cycle of every port against the
//! golden model and its scrub reference (golden::scrub), with scrubs requested at random
//! beside stress traffic (inserts, deletes, bit writes, clears and resets during scrubs:
//! no bank may be reported). The test switch
//! `disable_scrub_correction` (changes at addresses the scrub has already read not
//! counted) must be caught.

mod common;

use common::*;
use sim::traffic::ReadyPattern;
use sim::{CoSim, RunOptions, TrafficShape, VerilatedCore};

/// A run of stress traffic with a scrub requested about every 64 cycles.
fn scrubbed_run(cosim: &mut CoSim, ops: u64, seed: u64) -> sim::RunReport {
    let params = cosim.core.config.params;
    let mut opts = RunOptions::stress(ops, params.key_bits, seed);
    opts.shape = TrafficShape::stress_for(params.key_bits, &cosim.core.timing)
        .for_counters(params.counter_bits)
        .with_scrubs(1.0 / 64.0);
    opts.batch = 4096;
    cosim.run_inline(&opts, &mut |_, _| {}).unwrap()
}

fn assert_clean(r: &sim::RunReport, what: &str) {
    assert_eq!(
        r.mismatches, 0,
        "{what}: {} mismatches, first: {:?}",
        r.mismatches, r.first_mismatches
    );
}

/// `spec` generated with the scrub (hdl::CoreConfig::scrub).
fn scrubbed(spec: hdl::CoreConfig) -> hdl::CoreConfig {
    hdl::CoreConfig {
        scrub: true,
        ..spec
    }
}

#[test]
fn scrubs_beside_stress_traffic_report_nothing() {
    for spec in [scrubbed(crc_k3_b6_w32()), scrubbed(crc_k3_b6_w32_c2())] {
        let mut cosim = fresh(&spec);
        let r = scrubbed_run(&mut cosim, 40_000, 7);
        assert_clean(&r, &spec.label());
        let s = r.scrubs;
        println!("{}: {} cycles checked; {s}", spec.label(), r.cycles_checked);
        assert!(
            s.finished >= 50,
            "{}: only {} scrubs finished",
            spec.label(),
            s.finished
        );
        assert!(
            s.ops_during > 1000 && s.bit_writes_during > 20 && s.clears_during > 0,
            "{}: the scrubs met too little: {s}",
            spec.label()
        );
        assert!(
            s.cut_by_reset > 0,
            "{}: no scrub was cut by a reset: {s}",
            spec.label()
        );
        assert_eq!(s.reporting, 0);
    }
}

#[test]
fn scrub_without_correction_is_caught() {
    let mut spec = scrubbed(crc_k3_b6_w32());
    spec.test_switches.disable_scrub_correction = true;
    let mut cosim = fresh(&spec);
    let r = scrubbed_run(&mut cosim, 20_000, 7);
    println!(
        "{}: {} mismatches, first: {:?}",
        spec.label(),
        r.mismatches,
        r.first_mismatch()
    );
    assert!(
        r.mismatches > 0,
        "the broken scrub was not caught: {}",
        r.scrubs
    );
    assert!(r
        .first_mismatch()
        .is_some_and(|m| m.what.starts_with("scrub_mismatch is")));
}

/// A model of `spec` whose bank memories a test can flip bits in (soft errors).
fn open(spec: &hdl::CoreConfig) -> CoSim {
    let core = VerilatedCore::build_with_open_banks(spec)
        .unwrap_or_else(|e| panic!("{}: {e}", spec.label()));
    CoSim::from_core(core).unwrap()
}

/// Inserts `key` and queries it (the checker compares both answers with the golden
/// model's).
fn insert_and_query(cosim: &mut CoSim, key: u128) {
    let requests = [
        sim::Request { op: 1, key, tag: 1 },
        sim::Request { op: 0, key, tag: 2 },
    ];
    cosim
        .run_requests(&requests, &[0, 0], &mut ReadyPattern::default())
        .unwrap();
}

fn query(cosim: &mut CoSim, key: u128) {
    let requests = [sim::Request { op: 0, key, tag: 3 }];
    cosim
        .run_requests(&requests, &[0], &mut ReadyPattern::default())
        .unwrap();
}

/// Soft errors flipped into the banks of a running core (docs/contract.md §5.2), each
/// checked against the golden model with the same flip and the scrub's reference:
/// - stress traffic with scrubs first: no bank reported;
/// - in every bank in turn, one bit of a present key turned 0 (a non-zero counter
///   turned zero): the key's query answers miss in the core and the golden model (the
///   false negative), the next scrub reports exactly that bank; flipped back, the next
///   scrub reports none;
/// - two banks flipped together (0 to 1): both reported, no other;
/// - then stress traffic with scrubs, clears and resets beside the standing offsets:
///   every cycle's `scrub_mismatch` as the contract says; the image read back at the end.
fn flips_caught(spec: &hdl::CoreConfig, seed: u64) {
    let label = spec.label();
    let k = spec.k();
    let mut cosim = open(spec);
    let r = scrubbed_run(&mut cosim, 4_000, seed);
    assert_clean(&r, &label);
    let mut consumer = ReadyPattern::default();
    assert_eq!(
        cosim.scrub(&mut consumer).unwrap(),
        0,
        "{label}: a scrub with no flip reported a bank"
    );
    let mut rng = sim::traffic::Rng::new(seed ^ 0xf11b);
    let (mut flips, mut caught) = (0u64, 0u64);
    for p in 0..k {
        let key = rng.key(spec.params.key_bits);
        insert_and_query(&mut cosim, key);
        let addr = cosim.golden().addresses(key).unwrap()[p];
        let value = cosim.golden().counter(p, addr).unwrap();
        assert_ne!(
            value, 0,
            "{label}: the key just inserted has bank {p}'s bit"
        );
        // The whole counter turned zero (a plain bank: its one bit).
        assert_eq!(cosim.soft_error(p, addr, value).unwrap(), -1);
        flips += 1;
        query(&mut cosim, key);
        assert!(
            !cosim.golden().query(key).unwrap(),
            "{label}: the flip at bank {p} address {addr} does not make the key a false negative"
        );
        let reported = cosim.scrub(&mut consumer).unwrap();
        assert_eq!(
            reported,
            1 << p,
            "{label}: bank {p} address {addr} flipped, scrub_mismatch {reported:#x}"
        );
        caught += 1;
        // Flipped back: the offset is 0 again, nothing to report.
        assert_eq!(cosim.soft_error(p, addr, value).unwrap(), 1);
        flips += 1;
        let reported = cosim.scrub(&mut consumer).unwrap();
        assert_eq!(
            reported, 0,
            "{label}: bank {p} flipped back, scrub_mismatch {reported:#x}"
        );
        caught += 1;
    }
    // Two banks at once, 0 to 1 (a bit no operation set).
    let banks = [0, k - 1];
    let mut expect = 0u16;
    for &p in &banks {
        let addr = (0..spec.bank_size() as u32)
            .find(|&a| cosim.golden().counter(p, a) == Some(0))
            .expect("a bank with a 0 bit");
        assert_eq!(cosim.soft_error(p, addr, 1).unwrap(), 1);
        flips += 1;
        expect |= 1 << p;
    }
    let reported = cosim.scrub(&mut consumer).unwrap();
    assert_eq!(reported, expect, "{label}: banks {banks:?} flipped");
    caught += 1;
    // Traffic beside the standing offsets: clears and resets end them, scrubs report
    // them until then (the checker holds every cycle to the contract).
    let r = scrubbed_run(&mut cosim, 4_000, seed + 1);
    assert_clean(&r, &label);
    assert_eq!(cosim.check_image(&mut consumer).unwrap(), 0, "{label}");
    let r = cosim.report();
    assert_clean(&r, &label);
    println!(
        "{label}: {} cycles checked, {flips} flips injected, {caught} scrub results as expected \
         ({} with a flip standing caught on its bank alone); {}",
        r.cycles_checked,
        k + 1,
        r.scrubs
    );
    assert!(r.scrubs.reporting > k as u64, "{label}: {}", r.scrubs);
}

#[test]
fn flipped_bits_are_reported_on_their_bank_alone_plain() {
    flips_caught(&scrubbed(crc_k3_b6_w32()), 11);
}

#[test]
fn flipped_bits_are_reported_on_their_bank_alone_counting() {
    flips_caught(&scrubbed(crc_k3_b6_w32_c2()), 12);
}

#[test]
fn flipped_bits_are_reported_on_their_bank_alone_default() {
    flips_caught(&scrubbed(h3_k4_b12_w64()), 13);
}

/// The flip test on the iCE40 netlist (after Yosys `synth_ice40`, the SB_RAM40_4K cell
/// models' memories open): a bit flipped in a block RAM cell, found to be bank p's bit
/// at some address by the netlist's own readback (sim::CoSim::cell_soft_error), is
/// reported by the next scrub on bank p alone, and flipped back, on none; every cell
/// gets flips until each bank has had one; stress traffic with scrubs beside a standing
/// flip after that, every cycle checked.
#[test]
fn ice40_netlist_flipped_bits_are_reported_on_their_bank_alone() {
    // Any of the cell's 256 words of 16 bits.
    netlist_flips_caught(sim::netlist::NetlistKind::Ice40, 256, 16);
}

/// The same on the ECP5 netlist (after Yosys `synth_ecp5`, bloom's DP16KD model's
/// memory open: 1024 words of 18 bits). A 64-bit bank in 1-bit mode is the model's
/// words 0..=3 (bit a in word a / 16, sim/src/cells.rs), so flips go there and at any
/// of the 18 bits (the parity bits 8 and 17 hold no bank bit: those flips change
/// nothing and are tried again).
#[test]
fn ecp5_netlist_flipped_bits_are_reported_on_their_bank_alone() {
    netlist_flips_caught(sim::netlist::NetlistKind::Ecp5, 4, 18);
}

/// Flips at random words below `words` and bits below `bits` of every block RAM cell of
/// the `kind` netlist of a scrubbed CRC k=3 b=6 core (see the two tests above).
fn netlist_flips_caught(kind: sim::netlist::NetlistKind, words: u64, bits: u64) {
    let spec = scrubbed(crc_k3_b6_w32());
    let label = format!("{} {}", spec.label(), kind.name());
    let built = sim::core::build_core_with_open_cells(&spec, kind, &flow::tools::Progress::quiet())
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    let mut cosim = CoSim::from_core(built.core).unwrap();
    let cells = cosim.core.cell_memories().unwrap();
    assert!(
        cells.len() >= spec.k(),
        "{label}: {} block RAM cells for {} banks: {cells:?}",
        cells.len(),
        spec.k()
    );
    let r = scrubbed_run(&mut cosim, 4_000, 21);
    assert_clean(&r, &label);
    let mut consumer = ReadyPattern::default();
    assert_eq!(cosim.scrub(&mut consumer).unwrap(), 0, "{label}: no flip");
    let mut rng = sim::traffic::Rng::new(0x5eed_ce11);
    let (mut flips, mut caught, mut tries) = (0u64, 0u64, 0u64);
    let mut banks_hit = 0u16;
    for (scope, var) in &cells {
        // A few flips per cell, at random bits of it (a bit no bank uses changes nothing).
        let mut located = 0;
        while located < 2 && tries < 20_000 {
            tries += 1;
            let index = rng.below(words) as u32;
            let mask = 1u32 << rng.below(bits);
            let Some((bank, addr, delta)) = cosim.cell_soft_error(scope, var, index, mask).unwrap()
            else {
                continue;
            };
            located += 1;
            flips += 1;
            banks_hit |= 1 << bank;
            let reported = cosim.scrub(&mut consumer).unwrap();
            assert_eq!(
                reported,
                1 << bank,
                "{label}: {scope}.{var}[{index}] ^ {mask:#x} is bank {bank} address {addr} ({delta:+}); scrub_mismatch {reported:#x}"
            );
            caught += 1;
            let back = cosim.cell_soft_error(scope, var, index, mask).unwrap();
            assert_eq!(back, Some((bank, addr, -delta)), "{label}: flipped back");
            flips += 1;
            let reported = cosim.scrub(&mut consumer).unwrap();
            assert_eq!(reported, 0, "{label}: bank {bank} flipped back");
            caught += 1;
        }
    }
    assert_eq!(
        banks_hit,
        (1 << spec.k()) - 1,
        "{label}: flips located in banks {banks_hit:#b} after {tries} tries"
    );
    // One flip left in place for the traffic below (its scrubs report it until a clear
    // or a reset ends it).
    let (scope, var) = &cells[0];
    let standing = loop {
        tries += 1;
        let (index, mask) = (rng.below(words) as u32, 1u32 << rng.below(bits));
        if let Some(found) = cosim.cell_soft_error(scope, var, index, mask).unwrap() {
            break found;
        }
    };
    flips += 1;
    assert_eq!(
        cosim.scrub(&mut consumer).unwrap(),
        1 << standing.0,
        "{label}"
    );
    caught += 1;
    let r = scrubbed_run(&mut cosim, 4_000, 22);
    assert_clean(&r, &label);
    assert_eq!(cosim.check_image(&mut consumer).unwrap(), 0, "{label}");
    let r = cosim.report();
    assert_clean(&r, &label);
    println!(
        "{label}: {} block RAM cells; {} cycles checked, {flips} flips injected ({tries} bits tried), \
         {caught} scrub results as expected; standing flip (bank, address, sign) {standing:?}; {}",
        cells.len(),
        r.cycles_checked,
        r.scrubs
    );
}

/// A core generated without the scrub (the default) ignores `scrub_req`: with scrubs
/// requested beside stress traffic, `scrub_busy` and `scrub_mismatch` stay 0 in every
/// cycle (the checker holds them to that), and a flipped bit is reported by nothing.
#[test]
fn without_the_scrub_requests_are_ignored() {
    let spec = crc_k3_b6_w32();
    let mut cosim = fresh(&spec);
    let r = scrubbed_run(&mut cosim, 10_000, 5);
    assert_clean(&r, &spec.label());
    assert_eq!(r.scrubs.started, 0, "{}", r.scrubs);
    let mut cosim = open(&spec);
    assert_eq!(cosim.soft_error(1, 5, 1).unwrap(), 1);
    assert_eq!(cosim.scrub(&mut ReadyPattern::default()).unwrap(), 0);
    let r = cosim.report();
    assert_clean(&r, &spec.label());
    println!(
        "{}: {} cycles checked; {}",
        spec.label(),
        r.cycles_checked,
        r.scrubs
    );
}

/// A preloaded image of `params` (about half of every bank set; in a counting core a
/// third of the keys inserted twice, so that some counters are 2), written under the
/// temporary directory as `name`.
fn half_full_image(params: &hdl::CoreParams, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bloom-scrub-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut g = golden::CountingFilter::from_config(*params).unwrap();
    let mut rng = sim::traffic::Rng::new(0x1a9e);
    for i in 0..(params.bank_size() as f64 * std::f64::consts::LN_2) as usize {
        let key = rng.key(params.key_bits);
        g.insert(key).unwrap();
        if params.counter_bits > 1 && i % 3 == 0 {
            g.insert(key).unwrap();
        }
    }
    if params.counter_bits > 1 {
        g.export_image(&dir).unwrap();
    } else {
        g.to_plain().export_image(&dir).unwrap();
    }
    dir
}

/// The power-up check (docs/contract.md §5.3) of a core of `params` preloaded with an
/// image: with `flips` (bank, address, mask) counters XORed with their mask in its banks
/// before the recount after its first reset reads them, `scrub_mismatch` shows exactly
/// the banks whose fill changed once the recount is done (checked every cycle against
/// golden::scrub::power_up_report of the image's fills and the banks'); then stress
/// traffic with scrubs and resets (no reset checks again), and the image read back.
/// Returns `scrub_mismatch` after the check.
fn power_up_run(params: hdl::CoreParams, name: &str, flips: &[(usize, u32, u8)]) -> u16 {
    let dir = half_full_image(&params, name);
    let spec = scrubbed(hdl::CoreConfig {
        preload: Some(dir.clone()),
        ..hdl::CoreConfig::from(params)
    });
    let label = format!("{} preloaded", spec.label());
    let mut core = VerilatedCore::build_with_open_banks(&spec).unwrap();
    let mut golden = golden::CountingFilter::import_image_expecting(&dir, &params).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let image = golden.fill();
    for &(bank, addr, mask) in flips {
        // Right after the reset: before the recount reads any address.
        core.soft_error(bank, addr, mask).unwrap();
        let v = golden.counter(bank, addr).unwrap();
        golden.write_counter(bank, addr, v ^ mask).unwrap();
    }
    let mut cosim = CoSim::with_golden(core, golden).unwrap();
    cosim.checker.expect_power_up(&image);
    let busy = cosim.core.timing.reset_busy_cycles as usize;
    let mut consumer = ReadyPattern::default();
    cosim.idle(busy + 8, &mut consumer).unwrap();
    let port = cosim.core.ports.id("scrub_mismatch");
    let shown = cosim.core.model.get(port) as u16;
    let r = scrubbed_run(&mut cosim, 4_000, 31);
    assert_clean(&r, &label);
    assert_eq!(cosim.check_image(&mut consumer).unwrap(), 0, "{label}");
    let r = cosim.report();
    assert_clean(&r, &label);
    println!(
        "{label}: image fills {image:?}, {} counters changed before the recount, power-up check shows {shown:#x}; {} cycles checked, {} resets; {}",
        flips.len(),
        r.cycles_checked,
        r.resets.resets,
        r.scrubs
    );
    shown
}

/// The image `power_up_run` preloads, for choosing addresses to flip.
fn probe_image(params: &hdl::CoreParams) -> golden::CountingFilter {
    let dir = half_full_image(params, "probe");
    let g = golden::CountingFilter::import_image_expecting(&dir, params).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    g
}

fn address_holding(g: &golden::CountingFilter, bank: usize, value: u8) -> u32 {
    (0..g.config().bank_size())
        .find(|&a| g.counter(bank, a) == Some(value))
        .unwrap_or_else(|| panic!("no counter {value} in bank {bank}"))
}

#[test]
fn power_up_check_reports_banks_changed_since_configuration() {
    // Address 0 of bank 1 written 0 (the spurious write reported for initialised iCE40
    // block RAM) and a bit of bank 2 set.
    let params = crc_k3_b6_w32().params;
    let g = probe_image(&params);
    let one = address_holding(&g, 1, 1);
    let zero = address_holding(&g, 2, 0);
    assert_eq!(
        power_up_run(params, "clean", &[]),
        0,
        "no bit changed, a bank reported"
    );
    assert_eq!(
        power_up_run(params, "flipped", &[(1, one, 1), (2, zero, 1)]),
        0b110,
        "bank 1 address {one} (1 to 0) and bank 2 address {zero} (0 to 1) flipped"
    );
}

#[test]
fn power_up_check_of_a_counting_core_reports_counters_that_became_zero_or_non_zero() {
    let params = crc_k3_b6_w32_c2().params;
    let g = probe_image(&params);
    assert!(
        (0..3).all(|p| g.bank(p).unwrap().contains(&2)),
        "the image has counters of 2 in every bank"
    );
    let one = address_holding(&g, 0, 1);
    let zero = address_holding(&g, 2, 0);
    let two = address_holding(&g, 1, 2);
    assert_eq!(
        power_up_run(params, "counting-clean", &[]),
        0,
        "no counter changed, a bank reported"
    );
    // Bank 0: a 1 turned 0; bank 2: a 0 turned 1; bank 1: a 2 turned 3, still non-zero,
    // so its fill is as the image's and it is not reported.
    assert_eq!(
        power_up_run(
            params,
            "counting-flipped",
            &[(0, one, 1), (2, zero, 1), (1, two, 1)]
        ),
        0b101,
        "bank 0 address {one} (1 to 0), bank 2 address {zero} (0 to 1), bank 1 address {two} (2 to 3)"
    );
}

/// A periodic scrub (docs/contract.md §5.2, "Periodic"): with no `scrub_req` at all the
/// core scrubs itself every N cycles after a reset, beside stress traffic with resets,
/// every cycle checked (the checker knows the ticks); a flipped bit is reported by the
/// next periodic scrub with nothing requested.
#[test]
fn periodic_scrub_runs_by_itself_and_reports_a_flip() {
    let every = 200;
    let spec = hdl::CoreConfig {
        scrub_every: Some(every),
        ..scrubbed(crc_k3_b6_w32())
    };
    let label = spec.label();
    let mut cosim = open(&spec);
    let params = spec.params;
    let mut opts = RunOptions::stress(10_000, params.key_bits, 41);
    opts.shape = TrafficShape::stress_for(params.key_bits, &cosim.core.timing);
    opts.batch = 4096;
    let r = cosim.run_inline(&opts, &mut |_, _| {}).unwrap();
    assert_clean(&r, &label);
    assert!(
        r.scrubs.finished > 20,
        "{label}: {} cycles, only {}",
        r.cycles_checked,
        r.scrubs
    );
    // Wait for the running scrub to end (idle: a tick every N cycles).
    let mut consumer = ReadyPattern::default();
    while cosim.checker.scrub_running() {
        cosim.idle(16, &mut consumer).unwrap();
    }
    let addr = (0..64)
        .find(|&a| cosim.golden().counter(2, a) == Some(0))
        .unwrap();
    assert_eq!(cosim.soft_error(2, addr, 1).unwrap(), 1);
    cosim.idle(2 * every as usize + 100, &mut consumer).unwrap();
    let port = cosim.core.ports.id("scrub_mismatch");
    let shown = cosim.core.model.get(port) as u16;
    assert_eq!(shown, 1 << 2, "{label}: bank 2 flipped");
    let r = cosim.report();
    assert_clean(&r, &label);
    println!("{label}: {} cycles checked; {}", r.cycles_checked, r.scrubs);
}
