//! End to end: host library -> simulated UART line -> Verilated board top
//! (bridge + the real core) and back, checked against the golden model.
//! The sessions (every operation, load-image and dump included), the fault
//! tests and their teeth, the dead line and the dead line during load-image
//! run twice: in process (the client drives the simulated line itself), and
//! through a pseudo-terminal served by `host::pty::serve`, where the client is
//! the serial-port code a user runs against a board
//! (`host::serial::SerialPort`, the `serialport` crate, the kernel's tty
//! layer). The figures in line time (throughput, the 16 Kbit load-image, 3
//! Mbaud at 4 clocks per bit) run in process only: they count simulated
//! cycles, which a PTY served at wall-clock pace does not give exactly.
//!
//! The line runs at 8 clocks per bit; the protocol logic counts bytes, so the
//! results hold at any baud rate (docs/protocol.md §7). The board's truncation
//! timeout is shortened to 200 bit times to keep the fault test quick.

use host::{Client, ClientOptions, FaultCounts, HostError, LineFaults, SimBoard, Transport};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a client on the PTY allows beyond line time for each answer. The
/// served board keeps pace with the wall clock only while the machine gives
/// its simulation the time: on a machine shared with other tests and builds
/// it falls behind, and a client that gives up too early resends into a
/// growing backlog. A test that asserts a clean line needs no resend allows
/// a long stall; tests that lose frames on purpose allow less (each loss
/// costs a wait, twice: the wait and the drain before the resend).
const PTY_CLEAN: Duration = Duration::from_secs(2);
const PTY_FAULTS: Duration = Duration::from_millis(250);
const PTY_DEAD_LINE: Duration = Duration::from_millis(250);

const CPB: u32 = 8;
const BOARD_TIMEOUT_BITS: u32 = 200;

fn keys(seed: u64, n: usize, key_bits: u32) -> Vec<u128> {
    let mut rng = golden::rng::SplitMix64::new(seed);
    (0..n).map(|_| rng.key(key_bits)).collect()
}

fn configs(
    k: u32,
    bank_bits: u32,
    key_bits: u32,
    crc: bool,
    seed: u64,
) -> (hdl::CoreConfig, golden::CoreParams) {
    counting_configs(k, bank_bits, key_bits, crc, seed, 1)
}

/// As [`configs`], with counters of `counter_bits` (1: the plain filter).
fn counting_configs(
    k: u32,
    bank_bits: u32,
    key_bits: u32,
    crc: bool,
    seed: u64,
    counter_bits: u32,
) -> (hdl::CoreConfig, golden::CoreParams) {
    let hash = if crc {
        golden::HashFamily::Crc
    } else {
        golden::HashFamily::H3
    };
    let params = golden::CoreParams::new(k, bank_bits, key_bits, hash, seed)
        .unwrap()
        .with_counter_bits(counter_bits)
        .unwrap();
    (hdl::CoreConfig::from(params), params)
}

/// The simulated board, shared between its line and the test (which injects
/// faults and reads what it injected).
#[derive(Clone)]
struct Board(Arc<Mutex<SimBoard>>);

impl Board {
    fn new(core: hdl::CoreConfig, disable_replay: bool) -> Board {
        let b = SimBoard::with_test_switch(core, 115_200, CPB, BOARD_TIMEOUT_BITS, disable_replay)
            .unwrap_or_else(|e| panic!("{e} (Verilator is installed by scripts/setup.sh)"));
        Board(Arc::new(Mutex::new(b)))
    }
    fn set_faults(&self, f: LineFaults) {
        self.0.lock().unwrap().set_faults(f);
    }
    fn fault_counts(&self) -> FaultCounts {
        self.0.lock().unwrap().fault_counts.clone()
    }
}

/// The in-process line: the client drives the shared board itself.
impl Transport for Board {
    fn write(&mut self, bytes: &[u8]) -> Result<(), HostError> {
        self.0.lock().unwrap().write(bytes)
    }
    fn read(&mut self, max_bits: u64) -> Result<(Vec<u8>, u64), HostError> {
        self.0.lock().unwrap().read(max_bits)
    }
    fn baud(&self) -> u32 {
        115_200
    }
    fn describe(&self) -> String {
        self.0.lock().unwrap().describe()
    }
}

/// The board served on a pseudo-terminal until dropped.
struct Served {
    path: String,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<host::pty::ServeStats>>,
}

impl Served {
    fn start(board: &Board, core: &golden::CoreParams) -> Served {
        let pty = host::pty::Pty::open().unwrap();
        let path = pty.path().display().to_string();
        let stop = Arc::new(AtomicBool::new(false));
        let (b, s) = (board.0.clone(), stop.clone());
        let settle = host::pty::settle_bits(core, CPB, BOARD_TIMEOUT_BITS);
        let thread = std::thread::spawn(move || host::pty::serve(&b, &pty, settle, &s).unwrap());
        Served {
            path,
            stop,
            thread: Some(thread),
        }
    }
    fn line(&self, latency: Duration) -> host::serial::SerialPort {
        let mut line = host::serial::SerialPort::open(&self.path, 115_200).unwrap();
        line.set_latency(latency);
        line
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Where a test's client talks to the board: in process, or through the
/// PTY allowing the given latency.
#[derive(Clone, Copy, Debug)]
enum Via {
    InProcess,
    Pty(Duration),
}

/// Runs `f` with a client of `board` over `via`.
fn with_client<R>(
    via: Via,
    board: &Board,
    cfg: &golden::CoreParams,
    opts: ClientOptions,
    f: &mut dyn FnMut(&mut dyn Device) -> R,
) -> R {
    match via {
        Via::InProcess => f(&mut Client::connect(board.clone(), opts, Some(cfg)).unwrap()),
        Via::Pty(latency) => {
            let served = Served::start(board, cfg);
            let r = f(&mut Client::connect(served.line(latency), opts, Some(cfg)).unwrap());
            drop(served);
            r
        }
    }
}

/// The client's operations the sessions use, whatever its line.
trait Device {
    fn insert_batch(&mut self, keys: &[u128]) -> Result<Vec<bool>, HostError>;
    fn query_batch(&mut self, keys: &[u128]) -> Result<Vec<bool>, HostError>;
    fn insert(&mut self, key: u128) -> Result<bool, HostError>;
    fn query(&mut self, key: u128) -> Result<bool, HostError>;
    fn delete(&mut self, key: u128) -> Result<bool, HostError>;
    fn delete_batch(&mut self, keys: &[u128]) -> Result<Vec<bool>, HostError>;
    fn clear(&mut self) -> Result<(), HostError>;
    fn stats(&mut self) -> Result<host::DeviceStats, HostError>;
    fn dump(&mut self) -> Result<golden::PartitionedFilter, HostError>;
    fn dump_counters(&mut self) -> Result<golden::CountingFilter, HostError>;
    fn load_image(&mut self, image: &golden::PartitionedFilter) -> Result<(), HostError>;
    fn load_counting_image(&mut self, image: &golden::CountingFilter) -> Result<(), HostError>;
    fn write_bits(&mut self, bank: usize, addr: usize, data: &[u8]) -> Result<u32, HostError>;
    fn write_counters(&mut self, bank: usize, addr: usize, data: &[u8]) -> Result<u32, HostError>;
    fn zero_counters(&mut self) -> Result<(), HostError>;
    fn estimated_items(&mut self) -> Result<f64, HostError>;
    fn fpr_estimate(&mut self) -> Result<f64, HostError>;
    fn link(&self) -> host::LinkStats;
}

impl<T: Transport> Device for Client<T> {
    fn insert_batch(&mut self, keys: &[u128]) -> Result<Vec<bool>, HostError> {
        Client::insert_batch(self, keys)
    }
    fn query_batch(&mut self, keys: &[u128]) -> Result<Vec<bool>, HostError> {
        Client::query_batch(self, keys)
    }
    fn insert(&mut self, key: u128) -> Result<bool, HostError> {
        Client::insert(self, key)
    }
    fn query(&mut self, key: u128) -> Result<bool, HostError> {
        Client::query(self, key)
    }
    fn delete(&mut self, key: u128) -> Result<bool, HostError> {
        Client::delete(self, key)
    }
    fn delete_batch(&mut self, keys: &[u128]) -> Result<Vec<bool>, HostError> {
        Client::delete_batch(self, keys)
    }
    fn clear(&mut self) -> Result<(), HostError> {
        Client::clear(self)
    }
    fn stats(&mut self) -> Result<host::DeviceStats, HostError> {
        Client::stats(self)
    }
    fn dump(&mut self) -> Result<golden::PartitionedFilter, HostError> {
        Client::dump(self)
    }
    fn dump_counters(&mut self) -> Result<golden::CountingFilter, HostError> {
        Client::dump_counters(self)
    }
    fn load_image(&mut self, image: &golden::PartitionedFilter) -> Result<(), HostError> {
        Client::load_image(self, image)
    }
    fn load_counting_image(&mut self, image: &golden::CountingFilter) -> Result<(), HostError> {
        Client::load_counting_image(self, image)
    }
    fn write_bits(&mut self, bank: usize, addr: usize, data: &[u8]) -> Result<u32, HostError> {
        Client::write_bits(self, bank, addr, data)
    }
    fn write_counters(&mut self, bank: usize, addr: usize, data: &[u8]) -> Result<u32, HostError> {
        Client::write_counters(self, bank, addr, data)
    }
    fn zero_counters(&mut self) -> Result<(), HostError> {
        Client::zero_counters(self)
    }
    fn estimated_items(&mut self) -> Result<f64, HostError> {
        Client::estimated_items(self)
    }
    fn fpr_estimate(&mut self) -> Result<f64, HostError> {
        Client::fpr_estimate(self)
    }
    fn link(&self) -> host::LinkStats {
        self.link.clone()
    }
}

/// A client's options on the test line: `max_tries` tries per frame, the
/// board's shortened truncation timeout.
fn options(max_tries: u32) -> ClientOptions {
    ClientOptions {
        max_tries,
        board_timeout_bits: BOARD_TIMEOUT_BITS as u64,
        ..ClientOptions::default()
    }
}

/// Every frame lost, from now on.
fn dead_line(seed: u64) -> LineFaults {
    LineFaults {
        seed,
        drop: 1.0,
        ..LineFaults::default()
    }
}

/// The fault tests' line: bits flipped, bytes dropped, garbage and truncated
/// frames towards the board, bits flipped and bytes dropped back.
fn line_faults(seed: u64) -> LineFaults {
    LineFaults {
        seed,
        flip: 0.004,
        drop: 0.002,
        garbage: 0.08,
        truncate: 0.04,
        flip_back: 0.01,
        drop_back: 0.01,
    }
}

/// The device's answers `got` are the golden model's `want`, else an error naming `what`.
fn check(what: &str, got: Vec<bool>, want: Vec<bool>) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: device {got:?}, golden {want:?}"))
    }
}

fn connect(core: hdl::CoreConfig, cfg: &golden::CoreParams, max_tries: u32) -> Client<SimBoard> {
    let board = SimBoard::new(core, 115_200, CPB, BOARD_TIMEOUT_BITS)
        .unwrap_or_else(|e| panic!("{e} (Verilator is installed by scripts/setup.sh)"));
    let opts = options(max_tries);
    Client::connect(board, opts, Some(cfg)).unwrap()
}

fn assert_same_image(dev: &golden::PartitionedFilter, gold: &golden::PartitionedFilter) {
    let cfg = gold.config();
    for p in 0..cfg.k as usize {
        assert_eq!(
            dev.bank(p).unwrap(),
            gold.bank(p).unwrap(),
            "bank {p} differs"
        );
    }
    assert_eq!(dev.fill(), gold.fill());
}

fn session(via: Via, k: u32, bank_bits: u32, key_bits: u32, crc: bool, seed: u64) {
    let (core, cfg) = configs(k, bank_bits, key_bits, crc, seed);
    let board = Board::new(core, false);
    let opts = options(4);
    with_client(via, &board, &cfg, opts, &mut |dev| {
        session_on(dev, &cfg, seed)
    });
}

fn session_on(dev: &mut dyn Device, cfg: &golden::CoreParams, seed: u64) {
    let (k, key_bits) = (cfg.k, cfg.key_bits);
    let cfg = *cfg;
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
        let sent = dev.link().frames_sent;
        assert!(dev.insert_batch(&[1, 1u128 << key_bits]).is_err());
        assert_eq!(dev.link().frames_sent, sent);
    }

    dev.clear().unwrap();
    gold.clear();
    assert!(dev.query_batch(&ks[..40]).unwrap().iter().all(|h| !h));
    assert_eq!(dev.stats().unwrap().fill, vec![0; k as usize]);
    assert_eq!(dev.insert(ks[5]).unwrap(), gold.insert(ks[5]).unwrap());
    assert_same_image(&dev.dump().unwrap(), &gold);
    // A whole image over the link, and back.
    let image = image_of(&cfg, seed ^ 0x1A6E, 30);
    dev.load_image(&image).unwrap();
    assert_same_image(&dev.dump().unwrap(), &image);
    assert!(!dev.stats().unwrap().image_incomplete);
    assert_eq!(
        dev.link().resends,
        0,
        "a clean line needs no resend: {:?}",
        dev.link()
    );
}

#[test]
fn e2e_h3_k4_b8_w64() {
    session(Via::InProcess, 4, 8, 64, false, 0x5EED);
}

/// The Feistel family (code 3 in the configuration block) behind the board's bridge:
/// its core's three more cycles of latency change nothing the host sees.
#[test]
fn e2e_feistel_k4_b8_w32() {
    let seed = 0xFE15;
    let cfg = golden::CoreParams::new(4, 8, 32, golden::HashFamily::Feistel, seed).unwrap();
    let board = Board::new(hdl::CoreConfig::from(cfg), false);
    with_client(Via::InProcess, &board, &cfg, options(4), &mut |dev| {
        session_on(dev, &cfg, seed)
    });
}

#[test]
fn e2e_crc_k3_b6_w32() {
    session(Via::InProcess, 3, 6, 32, true, 3);
}

#[test]
fn e2e_pty_h3_k4_b8_w64() {
    session(Via::Pty(PTY_CLEAN), 4, 8, 64, false, 0x5EED);
}

#[test]
fn e2e_pty_crc_k3_b6_w32() {
    session(Via::Pty(PTY_CLEAN), 3, 6, 32, true, 3);
}

/// The served board keeps its state while clients come and go.
#[test]
fn e2e_pty_state_survives_reconnection_h3_k4_b8_w64() {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let board = Board::new(core, false);
    let served = Served::start(&board, &cfg);
    let opts = || ClientOptions {
        board_timeout_bits: BOARD_TIMEOUT_BITS as u64,
        ..ClientOptions::default()
    };
    let ks = keys(41, 50, 64);
    let mut gold = golden::PartitionedFilter::new(cfg);
    {
        let mut c = Client::connect(served.line(PTY_CLEAN), opts(), Some(&cfg)).unwrap();
        let want: Vec<bool> = ks.iter().map(|k| gold.insert(*k).unwrap()).collect();
        assert_eq!(c.insert_batch(&ks).unwrap(), want);
    }
    for _ in 0..2 {
        let mut c = Client::connect(served.line(PTY_CLEAN), opts(), Some(&cfg)).unwrap();
        assert!(c.query_batch(&ks).unwrap().iter().all(|h| *h));
        assert_eq!(c.stats().unwrap().fill, gold.fill());
    }
}

#[test]
fn e2e_wrong_configuration_is_refused() {
    let (core, _) = configs(4, 8, 64, false, 0x5EED);
    let (_, other) = configs(4, 8, 64, false, 0x5EEE);
    let board = SimBoard::new(core, 115_200, CPB, BOARD_TIMEOUT_BITS).unwrap();
    let opts = ClientOptions {
        board_timeout_bits: BOARD_TIMEOUT_BITS as u64,
        ..ClientOptions::default()
    };
    let err = Client::connect(board, opts, Some(&other))
        .err()
        .expect("must refuse");
    let text = err.to_string();
    assert!(text.contains("another configuration"), "{text}");
}

/// Runs mixed traffic with faults injected on the line in both directions and
/// returns the first way the device disagreed with exactly-once semantics:
/// an answer other than the golden model's, a number of core operations
/// executed other than the number asked for (one ran twice, or one was lost),
/// or a final image other than the golden one.
fn fault_session(via: Via, disable_replay: bool) -> Result<String, String> {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let board = Board::new(core, disable_replay);
    let opts = options(40);
    with_client(via, &board, &cfg, opts, &mut |dev| {
        fault_session_on(dev, &board, &cfg, disable_replay)
    })
}

fn fault_session_on(
    dev: &mut dyn Device,
    board: &Board,
    cfg: &golden::CoreParams,
    disable_replay: bool,
) -> Result<String, String> {
    let cfg = *cfg;
    let mut gold = golden::PartitionedFilter::new(cfg);
    board.set_faults(line_faults(2026));
    let stats0 = dev.stats().unwrap();
    let ks = keys(77, 400, 64);
    let mut core_ops = 0u32;
    let mut step = 0;
    let mut i = 0;
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
                check(
                    "insert",
                    vec![dev.insert(ks[i]).unwrap()],
                    vec![gold.insert(ks[i]).unwrap()],
                )?;
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
                check(
                    "query",
                    vec![dev.query(ks[i / 2]).unwrap()],
                    vec![gold.query(ks[i / 2]).unwrap()],
                )?;
                core_ops += 1;
            }
        }
        if step == 40 {
            dev.clear().unwrap();
            gold.clear();
            core_ops += 1;
        }
    }
    let tally = fault_tally(dev, board, &stats0, core_ops)?;
    let faults = &tally.faults;
    assert!(
        faults.flipped + faults.dropped + faults.truncated + faults.garbage_bursts > 10,
        "{faults:?}"
    );
    let image = dev.dump().unwrap();
    for p in 0..4 {
        if image.bank(p) != gold.bank(p) {
            return Err(format!("bank {p} differs from golden; {}", tally.summary));
        }
    }
    tally.replays_seen(disable_replay)
}

/// What a fault session ended with: the faults injected, the board's stats,
/// whether it replayed answers, and a summary of both ends' counts.
struct FaultTally {
    faults: FaultCounts,
    stats: host::DeviceStats,
    replayed: bool,
    summary: String,
}

/// Ends a fault session (the line clean again): the faults must have caused
/// rejections, and the board must have executed exactly the `core_ops` core
/// operations asked for since `stats0` (an error otherwise).
fn fault_tally(
    dev: &mut dyn Device,
    board: &Board,
    stats0: &host::DeviceStats,
    core_ops: u32,
) -> Result<FaultTally, String> {
    let faults = board.fault_counts();
    board.set_faults(LineFaults::default());
    let stats = dev.stats().unwrap();
    let link = dev.link();
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
    assert!(
        stats.frames_rejected > stats0.frames_rejected,
        "faults must have caused rejections: {summary}"
    );
    if stats.ops_served - stats0.ops_served != core_ops {
        return Err(format!(
            "{} core operations executed for {core_ops} asked for; {summary}",
            stats.ops_served - stats0.ops_served
        ));
    }
    Ok(FaultTally {
        faults,
        replayed: stats.frames_replayed > stats0.frames_replayed,
        stats,
        summary,
    })
}

impl FaultTally {
    /// Lost answers must have caused replays, unless the board's replay is
    /// disabled (the teeth); the summary.
    fn replays_seen(self, disable_replay: bool) -> Result<String, String> {
        if !disable_replay {
            assert!(
                self.replayed,
                "lost answers must have caused replays: {}",
                self.summary
            );
        }
        Ok(self.summary)
    }
}

/// Faults on the line in both directions: every operation is acknowledged
/// with the golden answer, executed exactly once, and the image matches.
#[test]
fn e2e_faults_h3_k4_b8_w64_flips_drops_garbage_truncation() {
    match fault_session(Via::InProcess, false) {
        Ok(summary) => println!("fault test: {summary}"),
        Err(e) => panic!("exactly-once violated: {e}"),
    }
}

/// Teeth: the same traffic against a board whose replay memory is switched
/// off must be caught (a retried insert runs twice).
#[test]
fn e2e_faults_teeth_replay_disabled_is_detected() {
    match fault_session(Via::InProcess, true) {
        Ok(summary) => panic!("a board without replay passed the fault test: {summary}"),
        Err(e) => println!("detected as expected: {e}"),
    }
}

/// The same teeth through the pseudo-terminal.
#[test]
fn e2e_pty_faults_teeth_replay_disabled_is_detected() {
    match fault_session(Via::Pty(PTY_FAULTS), true) {
        Ok(summary) => {
            panic!("a board without replay passed the fault test through the PTY: {summary}")
        }
        Err(e) => println!("detected through the PTY as expected: {e}"),
    }
}

/// The fault test through the pseudo-terminal and the serial-port code.
#[test]
fn e2e_pty_faults_h3_k4_b8_w64_flips_drops_garbage_truncation() {
    match fault_session(Via::Pty(PTY_FAULTS), false) {
        Ok(summary) => println!("fault test through the PTY: {summary}"),
        Err(e) => panic!("exactly-once violated: {e}"),
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
fn silent_line(via: Via) {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let board = Board::new(core, false);
    let opts = options(3);
    with_client(via, &board, &cfg, opts, &mut |dev| {
        board.set_faults(dead_line(1));
        let err = dev.insert(42).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("did not answer the insert frame") && text.contains("after 3 tries"),
            "{text}"
        );
        let line = match via {
            Via::InProcess => "simulated board",
            Via::Pty(_) => "serial port /dev/pts/",
        };
        assert!(text.contains(line), "{text}");
        board.set_faults(LineFaults::default());
        assert_eq!(dev.stats().unwrap().ops_served, 0);
        assert!(!dev.query(42).unwrap());
    });
}

#[test]
fn e2e_silent_line_reports_no_answer() {
    silent_line(Via::InProcess);
}

#[test]
fn e2e_pty_silent_line_reports_no_answer() {
    silent_line(Via::Pty(PTY_DEAD_LINE));
}

/// 3 Mbaud from a 12 MHz clock (4 clocks per bit, the fewest allowed): the
/// answers and the image still equal the golden model's.
#[test]
fn e2e_3mbaud_at_12mhz_cpb4_h3_k4_b8_w64() {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let board = SimBoard::new(core, 3_000_000, 4, BOARD_TIMEOUT_BITS).unwrap();
    let opts = options(2);
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

/// A golden filter of `n` random keys.
fn image_of(cfg: &golden::CoreParams, seed: u64, n: usize) -> golden::PartitionedFilter {
    let mut g = golden::PartitionedFilter::new(*cfg);
    for k in keys(seed, n, cfg.key_bits) {
        g.insert(k).unwrap();
    }
    g
}

/// load-image replaces whatever the device held: dump equals the image, every
/// answer is the image's, the image is marked complete, and a second image
/// over the first (bits going 1 -> 0 and 0 -> 1) also lands exactly.
#[test]
fn e2e_load_image_h3_k4_b8_w64_replaces_the_filter_and_dump_equals_it() {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let mut dev = connect(core, &cfg, 4);
    dev.insert_batch(&keys(1, 60, 64)).unwrap();
    for (seed, n) in [(2, 80), (3, 20)] {
        let image = image_of(&cfg, seed, n);
        dev.load_image(&image).unwrap();
        assert_same_image(&dev.dump().unwrap(), &image);
        let s = dev.stats().unwrap();
        assert!(!s.image_incomplete);
        assert_eq!(s.fill, image.fill());
        let probe = keys(seed, n + 40, 64);
        let want: Vec<bool> = probe.iter().map(|k| image.query(*k).unwrap()).collect();
        assert_eq!(dev.query_batch(&probe).unwrap(), want);
    }
    // An image of another configuration is refused before anything is sent.
    let other = image_of(
        &golden::CoreParams::new(4, 8, 64, golden::HashFamily::H3, 1).unwrap(),
        1,
        5,
    );
    let sent = dev.link.frames_sent;
    let e = dev.load_image(&other).unwrap_err().to_string();
    assert!(e.contains("seed"), "{e}");
    assert_eq!(dev.link.frames_sent, sent);
    assert_eq!(dev.link.resends, 0);
}

/// The default configuration's 16 Kbit image over a 115200 baud line, in
/// line time (simulated time is exact): a figure, and under 0.3 s.
#[test]
fn e2e_load_image_default_16kbit_at_115200_under_0_3_s() {
    let (core, cfg) = configs(4, 12, 64, false, 0);
    let board = SimBoard::new(core, 115_200, 104, hdl::bridge::DEFAULT_TIMEOUT_BITS).unwrap();
    let mut dev = Client::connect(board, ClientOptions::default(), Some(&cfg)).unwrap();
    let image = image_of(&cfg, 9, 2800);
    let (c0, bytes0) = (dev.transport().cycles(), dev.link.bytes_sent);
    dev.load_image(&image).unwrap();
    let seconds = (dev.transport().cycles() - c0) as f64 / 104.0 / 115_200.0;
    let frames = dev.link.frames_sent;
    println!(
        "load-image of k = 4 x 4096 bits at 115200 baud (104 clocks per bit): {:.3} s of line time, {} bytes sent in {} frames",
        seconds,
        dev.link.bytes_sent - bytes0,
        frames - 1
    );
    assert!(seconds < 0.3, "{seconds} s");
    assert_same_image(&dev.dump().unwrap(), &image);
}

/// load-image with faults on the line both ways: every chunk lands exactly
/// once (retries answered by replay), and the image is whole.
fn load_image_faults(via: Via) {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let board = Board::new(core, false);
    let opts = options(40);
    with_client(via, &board, &cfg, opts, &mut |dev| {
        dev.insert_batch(&keys(5, 50, 64)).unwrap();
        board.set_faults(LineFaults {
            seed: 7,
            flip: 0.004,
            drop: 0.002,
            garbage: 0.2,
            truncate: 0.1,
            flip_back: 0.05,
            drop_back: 0.05,
        });
        let image = image_of(&cfg, 6, 90);
        for _ in 0..3 {
            dev.load_image(&image).unwrap();
        }
        let faults = board.fault_counts();
        board.set_faults(LineFaults::default());
        let s = dev.stats().unwrap();
        let link = dev.link();
        println!("load-image under faults ({via:?}): {faults:?}, link {link:?}, board rejected {} replayed {}", s.frames_rejected, s.frames_replayed);
        assert!(
            link.resends > 0 && s.frames_rejected > 0,
            "the faults must have cost retries"
        );
        assert!(!s.image_incomplete);
        assert_eq!(s.fill, image.fill());
        assert_same_image(&dev.dump().unwrap(), &image);
    });
}

#[test]
fn e2e_load_image_faults_h3_k4_b8_w64() {
    load_image_faults(Via::InProcess);
}

#[test]
fn e2e_pty_load_image_faults_h3_k4_b8_w64() {
    load_image_faults(Via::Pty(PTY_FAULTS));
}

/// A line that dies during load-image: the error says where it stopped and
/// that the device's filter is incomplete, and the device says so too.
fn load_image_dead_line(via: Via) {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let board = Board::new(core, false);
    let opts = options(3);
    with_client(via, &board, &cfg, opts, &mut |dev| {
        let image = image_of(&cfg, 8, 40);
        dev.write_bits(0, 0, &[0xFF]).unwrap();
        // Chunks of bank 0 get through, then the line goes dead.
        board.set_faults(dead_line(3));
        let e = dev.load_image(&image).unwrap_err().to_string();
        assert!(
            e.contains("load-image stopped at bank 0 bit 0") && e.contains("image load incomplete"),
            "{e}"
        );
        board.set_faults(LineFaults::default());
        assert!(dev.stats().unwrap().image_incomplete);
        dev.load_image(&image).unwrap();
        assert!(!dev.stats().unwrap().image_incomplete);
        assert_same_image(&dev.dump().unwrap(), &image);
        // A clear also leaves a consistent (empty) filter.
        dev.write_bits(1, 8, &[1]).unwrap();
        assert!(dev.stats().unwrap().image_incomplete);
        dev.clear().unwrap();
        assert!(!dev.stats().unwrap().image_incomplete);
        dev.zero_counters().unwrap();
        let s = dev.stats().unwrap();
        assert_eq!(
            (
                s.ops_served,
                s.frames_executed,
                s.frames_rejected,
                s.frames_replayed
            ),
            (0, 0, 0, 0)
        );
    });
}

#[test]
fn e2e_load_image_dead_line_is_reported_and_flagged() {
    load_image_dead_line(Via::InProcess);
}

#[test]
fn e2e_pty_load_image_dead_line_is_reported_and_flagged() {
    load_image_dead_line(Via::Pty(PTY_DEAD_LINE));
}

/// What a counting session made happen (so a test can say its traffic reached
/// the cases it is about).
#[derive(Debug, Default)]
struct CountingEvents {
    deletes: usize,
    /// Deletes answered 0 (the key was absent: nothing changed).
    deletes_of_absent: usize,
    /// Deletes of keys never inserted that were carried out (false positives, contract §7.4).
    false_positive_deletes: usize,
    /// Deletes of a key with at least one counter saturated before it.
    deletes_at_saturation: usize,
    /// Most counters saturated at once, over all banks.
    most_saturated: u32,
}

/// Insert, delete and query batches and single operations of keys from a
/// small pool on a counting board, every answer, the fills, the saturated
/// counts and the dumped projection checked against the golden counting
/// filter; then a clear.
fn counting_session_on(
    dev: &mut dyn Device,
    cfg: &golden::CoreParams,
    seed: u64,
) -> CountingEvents {
    let mut gold = golden::CountingFilter::from_config(*cfg).unwrap();
    let pool = keys(seed ^ 0xC0C0, 24, cfg.key_bits);
    let mut rng = golden::rng::SplitMix64::new(seed);
    let mut ev = CountingEvents::default();
    let s = gold.saturation();
    // Deletes also name keys never inserted (a false positive among them is
    // deleted as the contract says, and answers 1).
    let strangers = keys(seed ^ 0x5778, 8, cfg.key_bits);
    let both: Vec<u128> = pool.iter().chain(&strangers).copied().collect();
    for round in 0..24 {
        let pick = |rng: &mut golden::rng::SplitMix64, from: &[u128], most: u64| -> Vec<u128> {
            let n = 1 + rng.below(most) as usize;
            (0..n)
                .map(|_| from[rng.below(from.len() as u64) as usize])
                .collect()
        };
        let single = pool[rng.below(pool.len() as u64) as usize];
        match round % 4 {
            0 => {
                let batch = pick(&mut rng, &pool, 40);
                let want: Vec<bool> = batch.iter().map(|k| gold.insert(*k).unwrap()).collect();
                assert_eq!(
                    dev.insert_batch(&batch).unwrap(),
                    want,
                    "insert batch, round {round}"
                );
                assert_eq!(
                    dev.insert(single).unwrap(),
                    gold.insert(single).unwrap(),
                    "insert, round {round}"
                );
            }
            1 | 2 => {
                let batch = pick(&mut rng, &both, 45);
                let mut want = vec![];
                for k in batch.iter().chain([&single]) {
                    let at_s = gold
                        .addresses(*k)
                        .unwrap()
                        .iter()
                        .enumerate()
                        .any(|(p, a)| gold.counter(p, *a) == Some(s));
                    let hit = gold.delete(*k).unwrap();
                    ev.deletes += 1;
                    ev.deletes_of_absent += !hit as usize;
                    ev.false_positive_deletes += (hit && strangers.contains(k)) as usize;
                    ev.deletes_at_saturation += at_s as usize;
                    want.push(hit);
                }
                let last = want.pop().unwrap();
                assert_eq!(
                    dev.delete_batch(&batch).unwrap(),
                    want,
                    "delete batch, round {round}"
                );
                assert_eq!(dev.delete(single).unwrap(), last, "delete, round {round}");
            }
            _ => {
                let want: Vec<bool> = both.iter().map(|k| gold.query(*k).unwrap()).collect();
                assert_eq!(
                    dev.query_batch(&both).unwrap(),
                    want,
                    "query batch, round {round}"
                );
                assert_eq!(
                    dev.query(single).unwrap(),
                    gold.query(single).unwrap(),
                    "query, round {round}"
                );
            }
        }
        let stats = dev.stats().unwrap();
        assert_eq!(stats.config.counter_bits, cfg.counter_bits);
        assert_eq!(
            stats.fill,
            gold.fill(),
            "fills (non-zero counters), round {round}"
        );
        assert_eq!(
            stats.saturated,
            gold.saturated(),
            "saturated counters, round {round}"
        );
        ev.most_saturated = ev.most_saturated.max(gold.saturated().iter().sum());
    }
    // A key never inserted: deleted only if it is a false positive.
    let stranger = keys(seed ^ 0x57A2, 1, cfg.key_bits)[0];
    assert!(!both.contains(&stranger));
    assert_eq!(
        dev.delete(stranger).unwrap(),
        gold.delete(stranger).unwrap()
    );
    // Dump reads the 0-1 projection, dump counters the counters.
    assert_same_image(&dev.dump().unwrap(), &gold.to_plain());
    assert_eq!(
        dev.dump_counters().unwrap(),
        gold,
        "every counter as golden"
    );

    // Counters cannot be written as bits, nor a plain image loaded: refused
    // before anything is sent, nothing changed.
    let sent = dev.link().frames_sent;
    let err = dev.write_bits(0, 0, &[0xFF]).unwrap_err();
    assert!(matches!(err, HostError::WrongKind(_)), "{err}");
    let err = dev.load_image(&gold.to_plain()).unwrap_err();
    assert!(matches!(err, HostError::ConfigMismatch { .. }), "{err}");
    assert_eq!(dev.link().frames_sent, sent);
    assert_eq!(dev.stats().unwrap().fill, gold.fill());

    // A counting image over the link (write counters), counter for counter,
    // saturated counters included; then the board answers as that image.
    let mut image = golden::CountingFilter::from_config(*cfg).unwrap();
    let s = image.saturation();
    for p in 0..cfg.k as usize {
        for a in 0..cfg.bank_size() {
            image
                .write_counter(
                    p,
                    a,
                    ((a as usize * 7 + p * 3) % (s as usize + 3)).min(s as usize) as u8,
                )
                .unwrap();
        }
    }
    dev.load_counting_image(&image).unwrap();
    assert_eq!(
        dev.dump_counters().unwrap(),
        image,
        "the loaded counters read back"
    );
    let stats = dev.stats().unwrap();
    assert!(!stats.image_incomplete);
    assert_eq!(
        (stats.fill, stats.saturated),
        (image.fill(), image.saturated())
    );
    gold = image;
    let probe: Vec<u128> = both.iter().take(12).copied().collect();
    let want: Vec<bool> = probe.iter().map(|k| gold.delete(*k).unwrap()).collect();
    assert_eq!(
        dev.delete_batch(&probe).unwrap(),
        want,
        "deletes on the loaded image"
    );

    dev.clear().unwrap();
    gold.clear();
    let stats = dev.stats().unwrap();
    assert_eq!(
        (stats.fill, stats.saturated),
        (vec![0; cfg.k as usize], vec![0; cfg.k as usize])
    );
    assert!(
        !dev.delete(pool[0]).unwrap(),
        "nothing is present after a clear"
    );
    assert_eq!(
        dev.link().resends,
        0,
        "a clean line needs no resend: {:?}",
        dev.link()
    );
    ev
}

/// A line that dies during the load of a counting image: the error names the
/// counter (not a bit) where it stopped, and the device says its image is incomplete.
#[test]
fn e2e_counting_load_image_dead_line_names_the_counter_crc_k3_b6_w32_c2() {
    let (core, cfg) = counting_configs(3, 6, 32, true, 7, 2);
    let board = Board::new(core, false);
    let opts = options(3);
    with_client(Via::InProcess, &board, &cfg, opts, &mut |dev| {
        let mut image = golden::CountingFilter::from_config(cfg).unwrap();
        for a in 0..cfg.bank_size() {
            image.write_counter(1, a, (a % 4) as u8).unwrap();
        }
        // A counter write flags the image incomplete; then the line goes dead.
        dev.write_counters(0, 0, &[3]).unwrap();
        board.set_faults(dead_line(5));
        let e = dev.load_counting_image(&image).unwrap_err().to_string();
        assert!(
            e.contains("load-image stopped at bank 0 counter 0")
                && e.contains("image load incomplete"),
            "{e}"
        );
        board.set_faults(LineFaults::default());
        assert!(dev.stats().unwrap().image_incomplete);
        dev.load_counting_image(&image).unwrap();
        assert!(!dev.stats().unwrap().image_incomplete);
        assert_eq!(dev.dump_counters().unwrap(), image);
    });
}

fn counting_session(
    via: Via,
    k: u32,
    bank_bits: u32,
    key_bits: u32,
    crc: bool,
    seed: u64,
    counter_bits: u32,
) -> CountingEvents {
    let (core, cfg) = counting_configs(k, bank_bits, key_bits, crc, seed, counter_bits);
    let board = Board::new(core, false);
    let opts = options(4);
    let ev = with_client(via, &board, &cfg, opts, &mut |dev| {
        counting_session_on(dev, &cfg, seed)
    });
    println!(
        "counting session c = {counter_bits} (k {k}, b {bank_bits}, W {key_bits}, {via:?}): {ev:?}"
    );
    ev
}

#[test]
fn e2e_counting_c2_crc_k3_b6_w32_saturates_and_deletes_absent_keys() {
    let ev = counting_session(Via::InProcess, 3, 6, 32, true, 7, 2);
    assert!(
        ev.most_saturated > 0,
        "c = 2 with a small pool saturates counters: {ev:?}"
    );
    assert!(
        ev.deletes_at_saturation > 0,
        "deletes of keys with a saturated counter happened: {ev:?}"
    );
    assert!(
        ev.deletes_of_absent > 0,
        "deletes of absent keys happened: {ev:?}"
    );
}

#[test]
fn e2e_counting_c4_h3_k4_b8_w64() {
    let ev = counting_session(Via::InProcess, 4, 8, 64, false, 0x5EED, 4);
    assert!(ev.deletes_of_absent > 0, "{ev:?}");
}

#[test]
fn e2e_counting_c8_h3_k2_b6_w128() {
    counting_session(Via::InProcess, 2, 6, 128, false, 11, 8);
}

#[test]
fn e2e_pty_counting_c3_crc_k3_b6_w32() {
    counting_session(Via::Pty(PTY_CLEAN), 3, 6, 32, true, 5, 3);
}

/// Sends `frame` as it is (outside the client's sequence) and returns the board's answer.
fn raw_answer(c: &mut Client<SimBoard>, frame: &[u8]) -> host::codec::Response {
    c.transport_mut().write(frame).unwrap();
    let mut dec = host::codec::ResponseDecoder::default();
    for _ in 0..100 {
        let (bytes, _) = c.transport_mut().read(100).unwrap();
        dec.push(&bytes);
        if let Some(r) = dec.next_response() {
            return r;
        }
    }
    panic!("the board does not answer the frame {frame:02x?}")
}

/// A plain board refuses deletes: the host before sending anything, and the
/// board itself (a raw delete frame, WRONG_KIND), nothing changed.
#[test]
fn e2e_plain_board_refuses_delete_h3_k4_b8_w64() {
    let (core, cfg) = configs(4, 8, 64, false, 0x5EED);
    let mut c = connect(core, &cfg, 4);
    let mut gold = golden::PartitionedFilter::new(cfg);
    let ks = keys(3, 20, 64);
    let want: Vec<bool> = ks.iter().map(|k| gold.insert(*k).unwrap()).collect();
    assert_eq!(c.insert_batch(&ks).unwrap(), want);
    let sent = c.link.frames_sent;
    for err in [
        c.delete(ks[0]).unwrap_err(),
        c.delete_batch(&ks).unwrap_err(),
    ] {
        assert!(matches!(err, HostError::WrongKind(_)), "{err}");
        assert!(err.to_string().contains("plain filter"), "{err}");
    }
    assert_eq!(c.link.frames_sent, sent, "refused before anything is sent");
    // The board refuses a delete frame on its own.
    let frame =
        host::codec::encode_request(0x77, host::OpCode::Delete as u8, &ks[0].to_le_bytes()[..8]);
    let r = raw_answer(&mut c, &frame);
    assert_eq!(
        (r.seq, r.code, r.payload.clone()),
        (
            0x77,
            host::codec::CODE_ERROR,
            vec![6, host::OpCode::Delete as u8]
        )
    );
    assert_eq!(r.error().unwrap().0, host::Reason::WrongKind);
    let stats = c.stats().unwrap();
    assert_eq!(stats.frames_rejected, 1);
    let sent = c.link.frames_sent;
    assert!(matches!(
        c.dump_counters().unwrap_err(),
        HostError::WrongKind(_)
    ));
    assert_eq!(c.link.frames_sent, sent, "refused before anything is sent");
    assert!(
        stats.saturated.is_empty(),
        "a plain board has no saturated counts"
    );
    assert_eq!(stats.fill, gold.fill());
    assert!(
        c.query_batch(&ks).unwrap().iter().all(|h| *h),
        "nothing was deleted"
    );
    // A board built without the scrub: the host refuses before sending, naming
    // --scrub; the board refuses a raw scrub frame (NO_SCRUB), nothing changed.
    assert!(!c.device().scrub);
    let sent = c.link.frames_sent;
    for err in [c.scrub().unwrap_err(), c.scrub_request().unwrap_err()] {
        assert!(matches!(err, HostError::NoScrub(_)), "{err}");
        assert!(err.to_string().contains("--scrub"), "{err}");
    }
    assert_eq!(c.link.frames_sent, sent, "refused before anything is sent");
    let frame = host::codec::encode_request(0x78, host::OpCode::Scrub as u8, &[]);
    let r = raw_answer(&mut c, &frame);
    assert_eq!(
        (r.seq, r.code, r.payload.clone()),
        (
            0x78,
            host::codec::CODE_ERROR,
            vec![7, host::OpCode::Scrub as u8]
        )
    );
    assert_eq!(r.error().unwrap().0, host::Reason::NoScrub);
    let after = c.stats().unwrap();
    assert_eq!(after.frames_rejected, 2);
    assert_eq!(after.fill, gold.fill());
    assert_eq!(
        (
            after.scrub_busy,
            after.scrub_result,
            after.scrub_mismatch,
            after.scrubs_ended
        ),
        (false, false, 0, 0),
        "a board without the scrub reads 0"
    );
}

/// The fault test on a counting board: inserts and deletes (which, unlike a
/// plain insert, change the filter again if executed twice) under line
/// faults; every answer, the operations served, the fills, the saturated
/// counts and the projection must equal the golden counting filter's.
fn counting_fault_session(disable_replay: bool) -> Result<String, String> {
    let (core, cfg) = counting_configs(3, 6, 32, true, 9, 3);
    let board = Board::new(core, disable_replay);
    let opts = options(40);
    with_client(Via::InProcess, &board, &cfg, opts, &mut |dev| {
        let mut gold = golden::CountingFilter::from_config(cfg).unwrap();
        board.set_faults(line_faults(2027));
        let stats0 = dev.stats().unwrap();
        let pool = keys(91, 40, 32);
        let mut rng = golden::rng::SplitMix64::new(5);
        let mut core_ops = 0u32;
        for step in 0..60 {
            let n = 1 + rng.below(30) as usize;
            let batch: Vec<u128> = (0..n)
                .map(|_| pool[rng.below(pool.len() as u64) as usize])
                .collect();
            match step % 3 {
                0 => {
                    let want = batch.iter().map(|k| gold.insert(*k).unwrap()).collect();
                    check("insert batch", dev.insert_batch(&batch).unwrap(), want)?;
                }
                1 => {
                    let want = batch.iter().map(|k| gold.delete(*k).unwrap()).collect();
                    check("delete batch", dev.delete_batch(&batch).unwrap(), want)?;
                }
                _ => {
                    check(
                        "delete",
                        vec![dev.delete(batch[0]).unwrap()],
                        vec![gold.delete(batch[0]).unwrap()],
                    )?;
                }
            }
            core_ops += if step % 3 == 2 { 1 } else { n as u32 };
        }
        let tally = fault_tally(dev, &board, &stats0, core_ops)?;
        let (stats, summary) = (&tally.stats, &tally.summary);
        if (stats.fill.clone(), stats.saturated.clone()) != (gold.fill(), gold.saturated()) {
            return Err(format!(
                "fills {:?} / saturated {:?}, golden {:?} / {:?}; {summary}",
                stats.fill,
                stats.saturated,
                gold.fill(),
                gold.saturated()
            ));
        }
        if dev.dump().unwrap() != gold.to_plain() {
            return Err(format!("the projection differs from golden; {summary}"));
        }
        if dev.dump_counters().unwrap() != gold {
            return Err(format!("the counters differ from golden; {summary}"));
        }
        tally.replays_seen(disable_replay)
    })
}

#[test]
fn e2e_counting_faults_c3_crc_k3_b6_w32_inserts_and_deletes_exactly_once() {
    let summary = counting_fault_session(false).unwrap_or_else(|e| panic!("{e}"));
    println!("counting fault test: {summary}");
}

#[test]
fn e2e_counting_faults_teeth_replay_disabled_is_detected() {
    let e = counting_fault_session(true)
        .expect_err("a board that executes retries again must be caught");
    println!("caught: {e}");
}

/// One scrub through the host library, and the golden scrub model's run of it
/// (docs/contract.md §5.2: the scrub starts, reads every address, ends): the
/// bank bits the device reports must be the model's. Returns them.
fn scrub_as_golden(
    c: &mut Client<SimBoard>,
    model: &mut golden::scrub::ScrubModel,
    ended: u8,
) -> u16 {
    let s = c.scrub().unwrap();
    model.start();
    while !model.slot() {}
    let want = model.finish();
    assert_eq!(
        s.scrub_mismatch, want,
        "mismatch bits against the golden scrub"
    );
    assert!(s.scrub_result && !s.scrub_busy, "a scrub has ended: {s:?}");
    assert_eq!(s.scrubs_ended, ended, "scrubs ended since the reset");
    want
}

/// The scrub on request over the host link (docs/protocol.md §3, §5), on the
/// simulated board with the real core, against the golden scrub model: the
/// configuration block says the board has it; after power-up the stats show the
/// power-up check's result (the golden `power_up_report` of the empty image);
/// a scrub of the filter as the operations made it reports no bank; bits
/// flipped in the banks with no operation (the shim's memory XOR) are reported
/// on their banks as the golden model says (two flips that cancel in one bank
/// are not, one flip in another is), the fill counters do not see them, every
/// later scrub reports them again until a clear; a scrub frame sent while one
/// runs starts none (a bank of 2^11 bits: a scrub outlasts a frame's round
/// trip). The board is the one `bloom host --sim --scrub` of tests/host_cli.rs
/// builds (same configuration, line and timeout: one model).
#[test]
fn e2e_scrub_soft_errors_reported_per_bank_h3_k3_b11_w32() {
    let (core, cfg) = configs(3, 11, 32, false, 11);
    let core = hdl::CoreConfig {
        scrub: true,
        ..core
    };
    let board = SimBoard::new(core, 115_200, CPB, hdl::bridge::DEFAULT_TIMEOUT_BITS)
        .unwrap_or_else(|e| panic!("{e} (Verilator is installed by scripts/setup.sh)"));
    let opts = ClientOptions {
        max_tries: 4,
        board_timeout_bits: hdl::bridge::DEFAULT_TIMEOUT_BITS as u64,
        ..ClientOptions::default()
    };
    let mut c = Client::connect(board, opts, Some(&cfg)).unwrap();
    let d = c.device().clone();
    assert!(
        d.scrub && d.power_up_check && d.scrub_every.is_none(),
        "{d:?}"
    );
    let mut gold = golden::PartitionedFilter::new(cfg);
    let mut model = golden::scrub::ScrubModel::new(3, 2048);
    let s = c.stats().unwrap();
    let power_up = golden::scrub::power_up_report(&[0, 0, 0], &gold.fill());
    assert_eq!(
        (
            s.scrub_busy,
            s.scrub_result,
            s.scrub_mismatch,
            s.scrubs_ended
        ),
        (false, false, power_up, 0),
        "after power-up: the check's result, no scrub yet"
    );

    let ks = keys(21, 40, 32);
    let want: Vec<bool> = ks.iter().map(|k| gold.insert(*k).unwrap()).collect();
    assert_eq!(c.insert_batch(&ks).unwrap(), want);
    assert_eq!(scrub_as_golden(&mut c, &mut model, 1), 0);

    // Bank 0: a 1 turned 0 and a 0 turned 1 (they cancel); bank 2: a 1 turned 0.
    let one = |b: usize| (0..2048).find(|a| gold.bit(b, *a)).unwrap();
    let zero = |b: usize| (0..2048).find(|a| !gold.bit(b, *a)).unwrap();
    for (bank, addr) in [(0, one(0)), (0, zero(0)), (2, one(2))] {
        let before = gold.bit(bank, addr) as u8;
        c.transport_mut().soft_error(bank, addr as usize).unwrap();
        model.soft_change(bank, addr, golden::scrub::soft_delta(before, 1 - before));
    }
    assert_eq!(
        scrub_as_golden(&mut c, &mut model, 2),
        0b100,
        "the golden model reports bank 2 alone"
    );
    assert_eq!(
        c.stats().unwrap().fill,
        gold.fill(),
        "the fill counters do not see soft errors"
    );
    assert_eq!(
        scrub_as_golden(&mut c, &mut model, 3),
        0b100,
        "reported again"
    );

    // A scrub frame while a scrub runs starts none; the running one ends as before.
    let (started, ended) = c.scrub_request().unwrap();
    assert!(started);
    assert_eq!(ended, 3);
    assert_eq!(c.scrub_request().unwrap(), (false, 3), "a scrub is running");
    model.start();
    while !model.slot() {}
    let want = model.finish();
    let s = loop {
        let s = c.stats().unwrap();
        if !s.scrub_busy {
            break s;
        }
    };
    assert_eq!((s.scrub_mismatch, s.scrubs_ended), (want, 4));

    c.clear().unwrap();
    gold.clear();
    model.clear();
    assert_eq!(
        scrub_as_golden(&mut c, &mut model, 5),
        0,
        "a clear empties the banks"
    );

    // The board without the scrub: see e2e_plain_board_refuses_delete_h3_k4_b8_w64.
}

/// The scrub over the host link on a counting board with a periodic scrub
/// (`--scrub-every 3000`: the core also scrubs itself, so a request may find
/// one running, and inserts run beside them), against the golden scrub model:
/// no power-up check on a counting board; after inserts no bank is reported
/// (no false alarm from operations during the periodic scrubs); the low bit of
/// counters flipped with no operation is reported as the golden model says (a
/// 1 turned 0 and a 0 turned 1 in bank 0 cancel; a 2 turned 3 in bank 1 stays
/// non-zero and is not a change the scrub sees; a 1 turned 0 in bank 2 is).
#[test]
fn e2e_scrub_periodic_counting_c3_crc_k3_b8_w32() {
    let (core, cfg) = counting_configs(3, 8, 32, true, 7, 3);
    let core = hdl::CoreConfig {
        scrub: true,
        scrub_every: Some(3000),
        ..core
    };
    let board = SimBoard::new(core, 115_200, CPB, BOARD_TIMEOUT_BITS)
        .unwrap_or_else(|e| panic!("{e} (Verilator is installed by scripts/setup.sh)"));
    let mut c = Client::connect(board, options(4), Some(&cfg)).unwrap();
    let d = c.device().clone();
    assert!(
        d.scrub && !d.power_up_check && d.scrub_every == Some(3000),
        "{d:?}"
    );
    let mut gold = golden::CountingFilter::from_config(cfg).unwrap();
    let pool = keys(33, 50, 32);
    let mut rng = golden::rng::SplitMix64::new(8);
    for _ in 0..4 {
        let batch: Vec<u128> = (0..30)
            .map(|_| pool[rng.below(pool.len() as u64) as usize])
            .collect();
        let want: Vec<bool> = batch.iter().map(|k| gold.insert(*k).unwrap()).collect();
        assert_eq!(c.insert_batch(&batch).unwrap(), want);
    }
    let s = c.scrub().unwrap();
    assert_eq!(s.scrub_mismatch, 0, "no false alarm from operations");
    assert_eq!(s.fill, gold.fill());

    let mut model = golden::scrub::ScrubModel::new(3, 256);
    let find = |b: usize, v: u8| (0..256).find(|a| gold.counter(b, *a) == Some(v)).unwrap();
    for (bank, addr) in [
        (0, find(0, 1)),
        (0, find(0, 0)),
        (1, find(1, 2)),
        (2, find(2, 1)),
    ] {
        let before = gold.counter(bank, addr).unwrap();
        c.transport_mut().soft_error(bank, addr as usize).unwrap();
        model.soft_change(bank, addr, golden::scrub::soft_delta(before, before ^ 1));
    }
    // The scrub `scrub` waits for started after the flips: it sees every one.
    model.start();
    while !model.slot() {}
    let want = model.finish();
    assert_eq!(want, 0b100, "the golden model reports bank 2 alone");
    let s = c.scrub().unwrap();
    assert_eq!(
        s.scrub_mismatch, want,
        "mismatch bits against the golden scrub"
    );
    assert_eq!(
        s.fill,
        gold.fill(),
        "the fill counters do not see soft errors"
    );
}

/// The power-up check seen over the host link, told apart from a scrub
/// (docs/protocol.md §5): a bit that changes between configuration and the
/// power-up recount (flipped at once on the board just built) is counted into
/// the fill, so the stats show the bank as differing from the bitstream's
/// image (the golden `power_up_report`), with the scrub result bit 0; a scrub
/// then finds every bank matching its fill counter (the golden scrub model: the
/// recount made every D_p 0), with the scrub result bit 1. The scrub board of
/// `e2e_scrub_soft_errors_reported_per_bank_h3_k3_b11_w32` (one model).
#[test]
fn e2e_scrub_power_up_check_told_apart_from_a_scrub_h3_k3_b11_w32() {
    let (core, cfg) = configs(3, 11, 32, false, 11);
    let core = hdl::CoreConfig {
        scrub: true,
        ..core
    };
    let mut board = SimBoard::new(core, 115_200, CPB, hdl::bridge::DEFAULT_TIMEOUT_BITS)
        .unwrap_or_else(|e| panic!("{e} (Verilator is installed by scripts/setup.sh)"));
    board.soft_error_now(1, 1500).unwrap();
    let opts = ClientOptions {
        max_tries: 4,
        board_timeout_bits: hdl::bridge::DEFAULT_TIMEOUT_BITS as u64,
        ..ClientOptions::default()
    };
    let mut c = Client::connect(board, opts, Some(&cfg)).unwrap();
    // The banks after the recount: the empty image with bank 1's bit 1500 set.
    let fills = [0, 1, 0];
    let want = golden::scrub::power_up_report(&[0, 0, 0], &fills);
    assert_eq!(want, 0b010, "the golden check reports bank 1");
    let s = c.stats().unwrap();
    assert_eq!(s.fill, fills, "the recount counts the changed bit");
    assert_eq!(
        (s.scrub_result, s.scrub_mismatch),
        (false, want),
        "the power-up check's result, no scrub yet"
    );
    let mut model = golden::scrub::ScrubModel::new(3, 2048);
    model.power_up(want);
    model.start();
    while !model.slot() {}
    let s = c.scrub().unwrap();
    assert_eq!(
        (s.scrub_result, s.scrub_mismatch),
        (true, model.finish()),
        "a scrub's result: every bank matches its fill"
    );
    assert_eq!(s.scrub_mismatch, 0);
}
