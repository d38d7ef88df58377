//! End to end: host library -> simulated UART line -> Verilated board top
//! (bridge + the real core) and back, checked against the golden model.
//!
//! The line runs at 8 clocks per bit; the protocol logic counts bytes, so the
//! results hold at any baud rate (docs/protocol.md §7). The board's truncation
//! timeout is shortened to 200 bit times to keep the fault test quick.

use host::{Client, ClientOptions, LineFaults, SimBoard};

const CPB: u32 = 8;
const BOARD_TIMEOUT_BITS: u32 = 200;

fn keys(seed: u64, n: usize, key_bits: u32) -> Vec<u128> {
    let mut rng = golden::rng::SplitMix64::new(seed);
    (0..n).map(|_| rng.key(key_bits)).collect()
}

fn configs(k: u32, bank_bits: u32, key_bits: u32, crc: bool, seed: u64) -> (hdl::CoreConfig, golden::Config) {
    let hash = if crc { golden::HashFamily::Crc } else { golden::HashFamily::H3 };
    let params = golden::Config::new(k, bank_bits, key_bits, hash, seed).unwrap();
    (hdl::CoreConfig::from(params), params)
}

fn connect(core: hdl::CoreConfig, cfg: &golden::Config, max_tries: u32) -> Client<SimBoard> {
    let board = SimBoard::new(core, 115_200, CPB, BOARD_TIMEOUT_BITS)
        .unwrap_or_else(|e| panic!("{e} (Verilator is installed by scripts/setup.sh)"));
    let opts = ClientOptions { max_tries, board_timeout_bits: BOARD_TIMEOUT_BITS as u64, ..ClientOptions::default() };
    Client::connect(board, opts, Some(cfg)).unwrap()
}

fn assert_same_image(dev: &golden::PartitionedFilter, gold: &golden::PartitionedFilter) {
    let cfg = gold.config();
    for p in 0..cfg.k as usize {
        assert_eq!(dev.bank(p).unwrap(), gold.bank(p).unwrap(), "bank {p} differs");
    }
    assert_eq!(dev.fill(), gold.fill());
}

fn session(k: u32, bank_bits: u32, key_bits: u32, crc: bool, seed: u64) {
    let (core, cfg) = configs(k, bank_bits, key_bits, crc, seed);
    let mut dev = connect(core, &cfg, 4);
    let mut gold = golden::PartitionedFilter::new(cfg);
    let ks = keys(seed ^ 0xA11CE, 160, key_bits);

    // Batches of every size class (one frame, several frames, a partial one).
    let hits = dev.insert_batch(&ks[..100]).unwrap();
    let want: Vec<bool> = ks[..100].iter().map(|k| gold.insert(*k).unwrap()).collect();
    assert_eq!(hits, want);
    for k in &ks[100..110] {
        assert_eq!(dev.insert(*k).unwrap(), gold.insert(*k).unwrap());
    }
    // Duplicates inside one batch see each other (contract §5).
    let dup = vec![ks[120], ks[120], ks[0]];
    let want: Vec<bool> = dup.iter().map(|k| gold.insert(*k).unwrap()).collect();
    assert_eq!(dev.insert_batch(&dup).unwrap(), want);
    assert!(want[1] && want[2], "a repeated key must hit");

    let q = dev.query_batch(&ks).unwrap();
    let want: Vec<bool> = ks.iter().map(|k| gold.query(*k).unwrap()).collect();
    assert_eq!(q, want);
    for k in &ks[150..] {
        assert_eq!(dev.query(*k).unwrap(), gold.query(*k).unwrap());
    }

    let stats = dev.stats().unwrap();
    assert_eq!(stats.fill, gold.fill());
    assert_eq!(stats.frames_rejected, 0);
    assert_eq!(stats.frames_replayed, 0);
    assert_eq!(stats.ops_served as usize, 100 + 10 + 3 + 160 + 10);
    assert_eq!(dev.estimated_items().unwrap(), gold.estimated_items());
    assert_eq!(dev.fpr_estimate().unwrap(), gold.fpr_estimate());

    assert_same_image(&dev.dump().unwrap(), &gold);

    // Keys wider than the configuration are refused before anything is sent.
    if key_bits < 128 {
        let sent = dev.link.frames_sent;
        assert!(dev.insert_batch(&[1, 1u128 << key_bits]).is_err());
        assert_eq!(dev.link.frames_sent, sent);
    }

    dev.clear().unwrap();
    gold.clear();
    assert!(dev.query_batch(&ks[..40]).unwrap().iter().all(|h| !h));
    assert_eq!(dev.fill().unwrap(), vec![0; k as usize]);
    assert_eq!(dev.insert(ks[5]).unwrap(), gold.insert(ks[5]).unwrap());
    assert_same_image(&dev.dump().unwrap(), &gold);
    assert_eq!(dev.link.resends, 0, "a clean line needs no resend: {:?}", dev.link);
}

#[test]
fn e2e_h3_k4_b8_w64() {
    session(4, 8, 64, false, 0x5EED);
}

#[test]
fn e2e_crc_k3_b6_w32() {
    session(3, 6, 32, true, 3);
}

#[test]
fn e2e_wrong_configuration_is_refused() {
    let (core, _) = configs(4, 8, 64, false, 0x5EED);
    let (_, other) = configs(4, 8, 64, false, 0x5EEE);
    let board = SimBoard::new(core, 115_200, CPB, BOARD_TIMEOUT_BITS).unwrap();
    let opts = ClientOptions { board_timeout_bits: BOARD_TIMEOUT_BITS as u64, ..ClientOptions::default() };
    let err = Client::connect(board, opts, Some(&other)).err().expect("must refuse");
    let text = err.to_string();
    assert!(text.contains("another configuration"), "{text}");
}

/// Runs mixed traffic with faults injected on the line in both directions and
/// returns the first way the device disagreed with exactly-once semantics:
/// an answer other than the golden model's, a number of core operations
/// executed other than the number asked for (one ran twice, or one was lost),
/// or a final image other than the golden one.
fn fault_session(disable_replay: bool) -> Result<String, String> {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let board = SimBoard::with_test_switch(core, 115_200, CPB, BOARD_TIMEOUT_BITS, disable_replay)
        .unwrap_or_else(|e| panic!("{e} (Verilator is installed by scripts/setup.sh)"));
    let opts = ClientOptions { max_tries: 40, board_timeout_bits: BOARD_TIMEOUT_BITS as u64, ..ClientOptions::default() };
    let mut dev = Client::connect(board, opts, Some(&cfg)).unwrap();
    let mut gold = golden::PartitionedFilter::new(cfg);
    dev.transport_mut().set_faults(LineFaults {
        seed: 2026,
        flip: 0.004,
        drop: 0.002,
        garbage: 0.08,
        truncate: 0.04,
        flip_back: 0.01,
        drop_back: 0.01,
    });
    let stats0 = dev.stats().unwrap();
    let ks = keys(77, 400, 64);
    let mut core_ops = 0u32;
    let mut step = 0;
    let mut i = 0;
    let check = |what: &str, got: Vec<bool>, want: Vec<bool>| {
        if got == want { Ok(()) } else { Err(format!("{what}: device {got:?}, golden {want:?}")) }
    };
    while i < ks.len() {
        step += 1;
        match step % 5 {
            0 | 1 => {
                let n = (7 * step) % 40 + 1;
                let chunk = &ks[i..(i + n).min(ks.len())];
                let want: Vec<bool> = chunk.iter().map(|k| gold.insert(*k).unwrap()).collect();
                check("insert batch", dev.insert_batch(chunk).unwrap(), want)?;
                core_ops += chunk.len() as u32;
                i += chunk.len();
            }
            2 => {
                check("insert", vec![dev.insert(ks[i]).unwrap()], vec![gold.insert(ks[i]).unwrap()])?;
                core_ops += 1;
                i += 1;
            }
            3 => {
                let probe = &ks[i.saturating_sub(20)..(i + 20).min(ks.len())];
                let want: Vec<bool> = probe.iter().map(|k| gold.query(*k).unwrap()).collect();
                check("query batch", dev.query_batch(probe).unwrap(), want)?;
                core_ops += probe.len() as u32;
            }
            _ => {
                check("query", vec![dev.query(ks[i / 2]).unwrap()], vec![gold.query(ks[i / 2]).unwrap()])?;
                core_ops += 1;
            }
        }
        if step == 40 {
            dev.clear().unwrap();
            gold.clear();
            core_ops += 1;
        }
    }
    let faults = dev.transport().fault_counts.clone();
    dev.transport_mut().set_faults(LineFaults::default());
    let stats = dev.stats().unwrap();
    let link = dev.link.clone();
    let summary = format!(
        "{} frames tried ({} resends, {} timeouts), {} error frames received, board rejected {} and replayed {}; \
         injected {:?}",
        link.frames_sent,
        link.resends,
        link.timeouts,
        link.error_frames,
        stats.frames_rejected - stats0.frames_rejected,
        stats.frames_replayed - stats0.frames_replayed,
        faults
    );
    assert!(faults.flipped + faults.dropped + faults.truncated + faults.garbage_bursts > 10, "{faults:?}");
    assert!(stats.frames_rejected > stats0.frames_rejected, "faults must have caused rejections: {summary}");
    if stats.ops_served - stats0.ops_served != core_ops {
        return Err(format!("{} core operations executed for {core_ops} asked for; {summary}", stats.ops_served - stats0.ops_served));
    }
    let image = dev.dump().unwrap();
    for p in 0..4 {
        if image.bank(p) != gold.bank(p) {
            return Err(format!("bank {p} differs from golden; {summary}"));
        }
    }
    if !disable_replay {
        assert!(stats.frames_replayed > stats0.frames_replayed, "lost answers must have caused replays: {summary}");
    }
    Ok(summary)
}

/// Faults on the line in both directions: every operation is acknowledged
/// with the golden answer, executed exactly once, and the image matches.
#[test]
fn e2e_faults_h3_k4_b8_w64_flips_drops_garbage_truncation() {
    match fault_session(false) {
        Ok(summary) => println!("fault test: {summary}"),
        Err(e) => panic!("exactly-once violated: {e}"),
    }
}

/// Teeth: the same traffic against a board whose replay memory is switched
/// off must be caught (a retried insert runs twice).
#[test]
fn e2e_faults_teeth_replay_disabled_is_detected() {
    match fault_session(true) {
        Ok(summary) => panic!("a board without replay passed the fault test: {summary}"),
        Err(e) => println!("detected as expected: {e}"),
    }
}

/// Batch inserts at the default baud rate, as a fraction of the raw UART
/// byte rate (key bytes delivered per line byte time). Simulated time is
/// exact, so this is a deterministic property, printed as a figure.
#[test]
fn e2e_throughput_h3_k4_b8_w64_batches_above_80_percent_of_line_rate() {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let mut dev = connect(core, &cfg, 4);
    let ks = keys(99, 31 * 20, 64);
    let c0 = dev.transport().cycles();
    dev.insert_batch(&ks).unwrap();
    let bits = (dev.transport().cycles() - c0) as f64 / CPB as f64;
    let key_bytes = ks.len() as f64 * 8.0;
    let fraction = key_bytes * 10.0 / bits;
    let c1 = dev.transport().cycles();
    for k in &ks[..40] {
        dev.insert(*k).unwrap();
    }
    let single_bits = (dev.transport().cycles() - c1) as f64 / CPB as f64;
    let single_fraction = 40.0 * 8.0 * 10.0 / single_bits;
    println!(
        "throughput at 115200 baud: insert batches {:.1}% of the line's byte rate ({:.0} keys/s), single inserts {:.1}% ({:.0} keys/s)",
        100.0 * fraction,
        ks.len() as f64 / (bits / 115_200.0),
        100.0 * single_fraction,
        40.0 / (single_bits / 115_200.0)
    );
    assert!(fraction > 0.8, "batch efficiency {fraction}");
}

/// A dead line: the host gives up after its tries with an error naming the
/// operation, the sequence number and the line, and nothing was executed.
#[test]
fn e2e_silent_line_reports_no_answer() {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let mut dev = connect(core, &cfg, 3);
    dev.transport_mut().set_faults(LineFaults { seed: 1, drop: 1.0, ..LineFaults::default() });
    let err = dev.insert(42).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("did not answer the insert frame") && text.contains("after 3 tries"), "{text}");
    assert!(text.contains("simulated board"), "{text}");
    dev.transport_mut().set_faults(LineFaults::default());
    assert_eq!(dev.stats().unwrap().ops_served, 0);
    assert!(!dev.query(42).unwrap());
}

/// 3 Mbaud from a 12 MHz clock (4 clocks per bit, the fewest allowed): the
/// answers and the image still equal the golden model's.
#[test]
fn e2e_3mbaud_at_12mhz_cpb4_h3_k4_b8_w64() {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let board = SimBoard::new(core, 3_000_000, 4, BOARD_TIMEOUT_BITS).unwrap();
    let opts = ClientOptions { max_tries: 2, board_timeout_bits: BOARD_TIMEOUT_BITS as u64, ..ClientOptions::default() };
    let mut dev = Client::connect(board, opts, Some(&cfg)).unwrap();
    let mut gold = golden::PartitionedFilter::new(cfg);
    let ks = keys(3, 120, 64);
    let want: Vec<bool> = ks.iter().map(|k| gold.insert(*k).unwrap()).collect();
    assert_eq!(dev.insert_batch(&ks).unwrap(), want);
    let probe = keys(4, 60, 64);
    let want: Vec<bool> = probe.iter().map(|k| gold.query(*k).unwrap()).collect();
    assert_eq!(dev.query_batch(&probe).unwrap(), want);
    assert_same_image(&dev.dump().unwrap(), &gold);
    assert_eq!(dev.link.resends, 0);
}
