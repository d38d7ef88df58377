//! Rust-HDL simulator tests of the bridge blocks: the UARTs in loopback, and
//! the whole bridge chain (UART -> frames -> executor -> framer -> UART)
//! against a stand-in core that is a plain set of keys (the real core is
//! exercised end to end through Verilator in the host crate's tests).
//!
//! The stand-in core answers from a count per key, so a query hits iff the key was
//! inserted (and, behind a counting board, not deleted as often); its memory image is a bit array in which an insert sets address
//! (key + bank) mod 2^b of bank p and a bit write sets or clears its bit (fills
//! and readbacks come from it). Behind a counting board (counter bits > 1) it
//! takes deletes (op 3: a key with a count above 0 loses one and answers 1,
//! else 0) and shows 100 * (bank + 1) + its op count as bank p's saturated
//! count, so that the stats show which bank's count the executor read, and when.
//! That is enough to check every protocol path: it is not the contract's hash.

use hdl::bridge::executor::*;
use hdl::bridge::host_bridge::HostBridge;
use hdl::bridge::uart_rx::UartRx;
use hdl::bridge::uart_tx::UartTx;
use hdl::bridge::{max_batch_keys, ExecutorParams};
use rust_hdl::prelude::*;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

/// The frames' CRC-16/CCITT-FALSE (docs/protocol.md), from the `crc` crate's catalogue
/// (its name there: CRC-16/IBM-3740).
fn crc16(bytes: &[u8]) -> u16 {
    crc::Crc::<u16>::new(&crc::CRC_16_IBM_3740).checksum(bytes)
}

fn frame(seq: u8, op: u8, payload: &[u8]) -> Vec<u8> {
    let mut body = vec![(payload.len() + 2) as u8, seq, op];
    body.extend_from_slice(payload);
    let c = crc16(&body);
    let mut f = vec![0xFE];
    f.extend(body);
    f.push((c >> 8) as u8);
    f.push(c as u8);
    f
}

/// Serialises bytes onto a pin, 8N1, `cpb` cycles per bit.
struct LineDriver {
    cpb: u32,
    bits: VecDeque<bool>,
    tick: u32,
    level: bool,
}

impl LineDriver {
    fn new(cpb: u32) -> Self {
        Self {
            cpb,
            bits: VecDeque::new(),
            tick: 0,
            level: true,
        }
    }
    fn push(&mut self, b: u8) {
        self.bits.push_back(false);
        for i in 0..8 {
            self.bits.push_back((b >> i) & 1 == 1);
        }
        self.bits.push_back(true);
    }
    fn idle(&mut self, bit_times: u32) {
        for _ in 0..bit_times {
            self.bits.push_back(true);
        }
    }
    fn busy(&self) -> bool {
        !self.bits.is_empty()
    }
    fn step(&mut self) -> bool {
        if self.tick == 0 {
            self.level = self.bits.pop_front().unwrap_or(true);
        }
        self.tick = (self.tick + 1) % self.cpb;
        self.level
    }
}

/// Deserialises a pin, sampling mid-bit.
struct LineSampler {
    cpb: u32,
    phase: Option<(u32, u32, u8)>, // (cycles into the byte, bit index, shifter)
    prev: bool,
    bytes: Vec<u8>,
    framing_errors: u32,
}

impl LineSampler {
    fn new(cpb: u32) -> Self {
        Self {
            cpb,
            phase: None,
            prev: true,
            bytes: vec![],
            framing_errors: 0,
        }
    }
    fn step(&mut self, level: bool) {
        match self.phase {
            None => {
                if self.prev && !level {
                    self.phase = Some((0, 0, 0));
                }
            }
            Some((t, bit, sh)) => {
                let t = t + 1;
                let centre = self.cpb / 2 + bit * self.cpb;
                if t == centre {
                    if bit == 0 {
                        assert!(!level, "start bit not low at its centre");
                        self.phase = Some((t, 1, sh));
                    } else if bit <= 8 {
                        let sh = sh | ((level as u8) << (bit - 1));
                        self.phase = Some((t, bit + 1, sh));
                    } else {
                        if level {
                            self.bytes.push(sh);
                        } else {
                            self.framing_errors += 1;
                        }
                        self.phase = None;
                    }
                } else {
                    self.phase = Some((t, bit, sh));
                }
            }
        }
        self.prev = level;
    }
}

#[derive(LogicBlock)]
struct UartLoop {
    clock: Signal<In, Clock>,
    tx: UartTx,
    rx: UartRx,
}

impl Logic for UartLoop {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, tx, rx);
        self.rx.rxd.next = self.tx.txd.val();
        self.tx.reset.next = false;
        self.rx.reset.next = false;
    }
}

fn uart_loopback(cpb: u32, count: usize) {
    let mut uut = UartLoop {
        clock: Default::default(),
        tx: UartTx::new(cpb),
        rx: UartRx::new(cpb),
    };
    uut.tx.data.connect();
    uut.tx.start.connect();
    uut.connect_all();
    let sent: Vec<u8> = (0..count).map(|i| ((i * 151 + 7) % 256) as u8).collect();
    let got = Arc::new(Mutex::new(Vec::new()));
    let got_tb = got.clone();
    let sent_tb = sent.clone();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<UartLoop>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<UartLoop>| {
        let mut x = sim.init()?;
        let mut next = 0;
        let mut cycles = 0;
        while cycles < (count as u64 + 4) * 10 * cpb as u64 {
            wait_clock_cycle!(sim, clock, x);
            cycles += 1;
            x.tx.start.next = false;
            if next < sent_tb.len() && x.tx.ready.val() {
                x.tx.data.next = (sent_tb[next] as u64).into();
                x.tx.start.next = true;
                next += 1;
            }
            if x.rx.valid.val() {
                got_tb.lock().unwrap().push(x.rx.data.val().to_u64() as u8);
            }
            if x.rx.framing_error.val() {
                panic!("framing error in loopback");
            }
        }
        sim.done(x)
    });
    sim.run(Box::new(uut), 100_000_000_000).unwrap();
    assert_eq!(*got.lock().unwrap(), sent);
}

#[test]
fn uart_loopback_cpb8_300_bytes() {
    uart_loopback(8, 300);
}

#[test]
fn uart_loopback_cpb4_100_bytes() {
    uart_loopback(4, 100);
}

#[test]
fn uart_loopback_cpb13_100_bytes() {
    uart_loopback(13, 100);
}

/// What the line saw and what the stand-in core did.
struct BridgeRun {
    out: Vec<u8>,
    core_ops: usize,
    bit_writes: usize,
    /// The ops the stand-in core took, in order.
    ops: Vec<u64>,
    /// Counter writes the stand-in took (bank, address, counter_wdata), in order.
    counter_writes: Vec<(usize, usize, u64)>,
    framing_errors: u32,
}

const BANK_BITS: u32 = 6;
const K: u32 = 3;

fn params(key_bits: u32) -> ExecutorParams {
    counting_params(key_bits, 1)
}

fn counting_params(key_bits: u32, counter_bits: u32) -> ExecutorParams {
    let core = hdl::CoreParams::new(
        K,
        BANK_BITS,
        key_bits,
        hdl::HashFamily::Crc,
        0x0123_4567_89AB_CDEF,
    )
    .unwrap()
    .with_counter_bits(counter_bits)
    .unwrap();
    ExecutorParams {
        core,
        max_batch: max_batch_keys(key_bits),
        scrub: false,
        scrub_every: None,
        disable_replay: false,
    }
}

/// Clocks per bit of the bridge's UARTs in the bridge's tests: four, the fewest
/// the UARTs take (a board's fastest line, as the host's tests at 3 Mbaud and
/// 12 MHz). Scripts and timeouts are in bit times, so every frame and gap is
/// the same at any rate, and rust-hdl's simulator runs half the cycles it ran at
/// eight. The UARTs alone are checked in loopback at 4, 8 and 13 above.
const BRIDGE_CPB: u32 = 4;

/// Plays `script` (bytes, or idle gaps in bit times) into the bridge's
/// uart_rx and collects everything it sends back.
fn run_bridge(
    key_bits: u32,
    cpb: u32,
    timeout_bits: u32,
    script: Vec<Result<Vec<u8>, u32>>,
) -> BridgeRun {
    run_bridge_with(params(key_bits), cpb, timeout_bits, script)
}

fn run_bridge_with(
    p: ExecutorParams,
    cpb: u32,
    timeout_bits: u32,
    script: Vec<Result<Vec<u8>, u32>>,
) -> BridgeRun {
    let key_bits = p.core.key_bits;
    let counting = p.core.counter_bits > 1;
    let mut uut = HostBridge::new(cpb, timeout_bits * cpb, &p);
    uut.reset.connect();
    uut.uart_rx.connect();
    uut.core.req.ready.connect();
    uut.core.resp.valid.connect();
    uut.core.resp.hit.connect();
    uut.core.rb.valid.connect();
    uut.core.rb.data.connect();
    uut.core.fill.count.connect();
    uut.core.status.busy.connect();
    uut.core.resp.tag.connect();
    uut.counter.saturated.connect();
    uut.counter.rdata.connect();
    uut.connect_all();
    let result = Arc::new(Mutex::new(None));
    let result_tb = result.clone();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<HostBridge>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<HostBridge>| {
        let mut x = sim.init()?;
        let mut driver = LineDriver::new(cpb);
        driver.idle(4);
        for item in &script {
            match item {
                Ok(bytes) => bytes.iter().for_each(|b| driver.push(*b)),
                Err(gap) => driver.idle(*gap),
            }
        }
        let mut sampler = LineSampler::new(cpb);
        let mask = (1u128 << key_bits) - 1;
        let mut keys: HashMap<u128, u32> = HashMap::new();
        let mut mem = vec![vec![false; 1 << BANK_BITS]; K as usize];
        let mut pending: VecDeque<(u32, bool)> = VecDeque::new();
        let mut rb_pending: VecDeque<(u32, bool, u8)> = VecDeque::new();
        let mut core_ops = 0usize;
        let mut ops = vec![];
        let mut counter_writes = vec![];
        let mut bit_writes = 0usize;
        let mut quiet = 0u64;
        loop {
            // Act in the middle of each cycle: outputs are this cycle's, and
            // inputs set now are seen at the coming rising edge.
            wait_clock_true!(sim, clock, x);
            wait_clock_false!(sim, clock, x);
            x.uart_rx.next = driver.step();
            let bank_of = |k: u128, b: u128| ((k + b) % (1 << BANK_BITS)) as u32;
            let fill_bank = x.core.fill.bank.val().to_u64() as usize;
            let fill = mem
                .get(fill_bank)
                .map_or(0, |m| m.iter().filter(|b| **b).count());
            x.core.fill.count.next = (fill as u64).into();
            x.counter.saturated.next = (100 * (fill_bank as u64 + 1) + core_ops as u64).into();
            x.core.req.ready.next = true;
            x.core.status.busy.next = false;
            // Stand-in core: answers 3 cycles after accepting, readback 2 cycles after.
            if x.core.req.valid.val() {
                let key = x.core.req.key.val();
                let key = (key.get_bits::<64>(0).to_u64() as u128
                    | ((key.get_bits::<64>(64).to_u64() as u128) << 64))
                    & mask;
                let op = x.core.req.op.val().to_u64();
                core_ops += 1;
                ops.push(op);
                let count = keys.entry(key).or_insert(0);
                let hit = match op {
                    0 => *count > 0,
                    1 => {
                        for (b, m) in mem.iter_mut().enumerate() {
                            m[bank_of(key, b as u128) as usize] = true;
                        }
                        *count += 1;
                        *count > 1
                    }
                    3 => {
                        let present = *count > 0;
                        *count = count.saturating_sub(1);
                        present
                    }
                    _ => {
                        keys.clear();
                        mem.iter_mut().for_each(|m| m.fill(false));
                        false
                    }
                };
                pending.push_back((3, hit));
            }
            if x.core.rb.req.val() {
                let b = x.core.rb.bank.val().to_u64() as usize;
                let a = x.core.rb.addr.val().to_u64() as usize % (1 << BANK_BITS);
                let set = mem.get(b).is_some_and(|m| m[a]);
                // The stand-in's counter at (b, a) reads (a + 64 b) mod 256.
                rb_pending.push_back((2, set, ((a + 64 * b) % 256) as u8));
                if x.core.rb.write.val() && b < K as usize {
                    if counting {
                        // A counting core writes counter_wdata (rb_wdata ignored).
                        let v = x.counter.wdata.val().to_u64();
                        mem[b][a] = v != 0;
                        counter_writes.push((b, a, v));
                    } else {
                        mem[b][a] = x.core.rb.wdata.val();
                        bit_writes += 1;
                    }
                }
            }
            x.core.resp.valid.next = false;
            x.core.rb.valid.next = false;
            for p in pending.iter_mut() {
                p.0 -= 1;
            }
            for p in rb_pending.iter_mut() {
                p.0 -= 1;
            }
            if let Some(&(0, hit)) = pending.front() {
                x.core.resp.valid.next = true;
                x.core.resp.hit.next = hit;
                pending.pop_front();
            }
            x.counter.rdata.next = 0.into();
            if let Some(&(0, d, counter)) = rb_pending.front() {
                x.core.rb.valid.next = true;
                x.core.rb.data.next = d;
                x.counter.rdata.next = (counter as u64).into();
                rb_pending.pop_front();
            }
            let before = sampler.bytes.len();
            sampler.step(x.uart_tx.val());
            if sampler.bytes.len() != before || driver.busy() || sampler.phase.is_some() {
                quiet = 0;
            } else {
                quiet += 1;
            }
            if quiet > 300 * cpb as u64 + timeout_bits as u64 * cpb as u64 {
                break;
            }
        }
        *result_tb.lock().unwrap() = Some(BridgeRun {
            out: sampler.bytes.clone(),
            core_ops,
            bit_writes,
            ops,
            counter_writes,
            framing_errors: sampler.framing_errors,
        });
        sim.done(x)
    });
    sim.run(Box::new(uut), 1_000_000_000_000).unwrap();
    let r = result.lock().unwrap().take().unwrap();
    r
}

#[derive(Debug, PartialEq)]
struct Response {
    seq: u8,
    code: u8,
    payload: Vec<u8>,
}

fn parse_responses(bytes: &[u8]) -> Vec<Response> {
    let mut out = vec![];
    let mut i = 0;
    while i < bytes.len() {
        assert_eq!(bytes[i], 0xFD, "response sync at {i} in {bytes:02x?}");
        let len = bytes[i + 1] as usize;
        let body = &bytes[i + 1..i + 2 + len];
        let crc = u16::from_be_bytes([bytes[i + 2 + len], bytes[i + 3 + len]]);
        assert_eq!(crc16(body), crc, "response CRC");
        out.push(Response {
            seq: body[1],
            code: body[2],
            payload: body[3..].to_vec(),
        });
        i += 4 + len;
    }
    out
}

fn key_bytes(key: u128, key_bits: u32) -> Vec<u8> {
    key.to_le_bytes()[..(key_bits / 8) as usize].to_vec()
}

fn gap() -> Result<Vec<u8>, u32> {
    Err(600)
}

#[test]
fn bridge_w64_config_insert_query_batch_replay_stats_dump() {
    let w = 64;
    let keys: Vec<u128> = (0..10)
        .map(|i| 0x1111_0000_0000_0000u128 * (i + 1) + i)
        .collect();
    let batch: Vec<u8> = keys.iter().flat_map(|k| key_bytes(*k, w)).collect();
    let mut qbatch: Vec<u8> = batch.clone();
    qbatch.extend(key_bytes(0xDEAD, w));
    let script = vec![
        Ok(frame(7, OP_CONFIG, &[])),
        gap(),
        Ok(frame(8, OP_INSERT, &key_bytes(keys[0], w))),
        gap(),
        Ok(frame(9, OP_INSERT_BATCH, &batch)),
        gap(),
        // Retry of seq 9: answered from memory, not executed again.
        Ok(frame(9, OP_INSERT_BATCH, &batch)),
        gap(),
        Ok(frame(10, OP_QUERY_BATCH, &qbatch)),
        gap(),
        Ok(frame(11, OP_QUERY, &key_bytes(0xDEAD, w))),
        gap(),
        Ok(frame(12, OP_STATS, &[])),
        Err(1500),
        Ok(frame(13, OP_DUMP, &[1, 0, 0])),
        Err(1500),
        Ok(frame(14, OP_CLEAR, &[])),
        gap(),
        Ok(frame(15, OP_QUERY, &key_bytes(keys[3], w))),
        gap(),
    ];
    let run = run_bridge(w, BRIDGE_CPB, 200, script);
    assert_eq!(run.framing_errors, 0);
    let r = parse_responses(&run.out);
    assert_eq!(r.len(), 10, "{r:?}");
    let p = params(w);
    assert_eq!(
        r[0],
        Response {
            seq: 7,
            code: OP_CONFIG,
            payload: p.config_block()
        }
    );
    assert_eq!(
        r[1],
        Response {
            seq: 8,
            code: OP_INSERT,
            payload: vec![0]
        }
    );
    // keys[0] was already in: bit 0 set; others new.
    assert_eq!(
        r[2],
        Response {
            seq: 9,
            code: OP_INSERT_BATCH,
            payload: vec![1, 0]
        }
    );
    assert_eq!(r[3], r[2]);
    assert_eq!(
        r[4],
        Response {
            seq: 10,
            code: OP_QUERY_BATCH,
            payload: vec![0xFF, 0x03]
        }
    );
    assert_eq!(
        r[5],
        Response {
            seq: 11,
            code: OP_QUERY,
            payload: vec![0]
        }
    );
    let s = &r[6];
    assert_eq!((s.seq, s.code), (12, OP_STATS));
    assert_eq!(s.payload.len() as u32, STATS_FIXED_BYTES + 3 * K);
    assert_eq!(&s.payload[..CONFIG_BYTES as usize], &p.config_block()[..]);
    let word = |i: usize| u32::from_le_bytes(s.payload[20 + 4 * i..24 + 4 * i].try_into().unwrap());
    // ops: 1 insert + 10 batch inserts + 11 batch queries + 1 query.
    assert_eq!(word(0), 23, "ops served");
    assert_eq!(
        word(1),
        5,
        "frames executed (config, insert, batch, qbatch, query) before stats"
    );
    assert_eq!(word(2), 0, "frames rejected");
    assert_eq!(word(3), 1, "frames replayed");
    assert_eq!(
        s.payload[36], 0,
        "status: no image load incomplete, no scrub"
    );
    assert_eq!(
        &s.payload[37..40],
        &[0, 0, 0],
        "no scrub mismatch, no scrub ended"
    );
    for b in 0..K as usize {
        let fill = s.payload[40 + 3 * b] as u32
            | (s.payload[41 + 3 * b] as u32) << 8
            | (s.payload[42 + 3 * b] as u32) << 16;
        let expect: HashSet<u128> = keys.iter().map(|k| (k + b as u128) % 64).collect();
        assert_eq!(fill, expect.len() as u32, "fill of bank {b}");
    }
    let d = &r[7];
    assert_eq!((d.seq, d.code, d.payload.len()), (13, OP_DUMP, 8));
    for a in 0..64u128 {
        let expect = keys.iter().any(|k| (k + 1) % 64 == a);
        assert_eq!(
            (d.payload[(a / 8) as usize] >> (a % 8)) & 1 == 1,
            expect,
            "dump bit {a}"
        );
    }
    assert_eq!(
        r[8],
        Response {
            seq: 14,
            code: OP_CLEAR,
            payload: vec![]
        }
    );
    assert_eq!(
        r[9],
        Response {
            seq: 15,
            code: OP_QUERY,
            payload: vec![0]
        }
    );
    assert_eq!(run.core_ops, 1 + 10 + 11 + 1 + 1 + 1);
}

#[test]
fn bridge_w32_errors_crc_length_op_argument_timeout_and_resync() {
    let w = 32;
    let mut bad_crc = frame(3, OP_INSERT, &key_bytes(5, w));
    let n = bad_crc.len();
    bad_crc[n - 1] ^= 0x40;
    let max = max_batch_keys(w) as u128;
    let too_many: Vec<u8> = (0..max + 1).flat_map(|k| key_bytes(k, w)).collect();
    let script = vec![
        Ok(bad_crc),
        gap(),
        Ok(frame(4, OP_INSERT, &[1, 2, 3])),
        gap(),
        Ok(frame(5, 0x42, &[])),
        gap(),
        // A scrub request to a board built without the scrub.
        Ok(frame(15, OP_SCRUB, &[])),
        gap(),
        Ok(frame(6, OP_DUMP, &[K as u8, 0, 0])),
        gap(),
        Ok(frame(7, OP_DUMP, &[0, 3, 0])),
        gap(),
        // Addresses at and far beyond the end of a 2^6-bit bank.
        Ok(frame(13, OP_DUMP, &[0, 64, 0])),
        gap(),
        Ok(frame(14, OP_DUMP, &[0, 0xF8, 0xFF])),
        gap(),
        Ok(frame(8, OP_INSERT_BATCH, &too_many)),
        gap(),
        // LEN beyond the largest frame: rejected at once.
        Ok(vec![0xFE, 0xFC]),
        gap(),
        // Garbage (including sync bytes and a plausible header) before a good frame.
        Ok(vec![0x00, 0x13, 0xFE, 0xFE]),
        Ok(frame(9, OP_INSERT, &key_bytes(77, w))),
        gap(),
        // Truncated: header and half the key, then silence.
        Ok(frame(10, OP_INSERT, &key_bytes(78, w))[..5].to_vec()),
        Err(400),
        Ok(frame(11, OP_QUERY, &key_bytes(77, w))),
        gap(),
        Ok(frame(12, OP_QUERY, &key_bytes(78, w))),
        gap(),
    ];
    let run = run_bridge(w, BRIDGE_CPB, 100, script);
    let r = parse_responses(&run.out);
    let err = |seq: u8, reason: u8, op: u8| Response {
        seq,
        code: CODE_ERROR,
        payload: vec![reason, op],
    };
    let expect = vec![
        err(3, ERR_BAD_CRC, OP_INSERT),
        err(4, ERR_BAD_LENGTH, OP_INSERT),
        err(5, ERR_UNKNOWN_OP, 0x42),
        err(15, ERR_NO_SCRUB, OP_SCRUB),
        err(6, ERR_BAD_ARGUMENT, OP_DUMP),
        err(7, ERR_BAD_ARGUMENT, OP_DUMP),
        err(13, ERR_BAD_ARGUMENT, OP_DUMP),
        err(14, ERR_BAD_ARGUMENT, OP_DUMP),
        err(8, ERR_BAD_LENGTH, OP_INSERT_BATCH),
        err(0, ERR_BAD_LENGTH, 0),
        Response {
            seq: 9,
            code: OP_INSERT,
            payload: vec![0],
        },
        err(10, ERR_TIMEOUT, OP_INSERT),
        Response {
            seq: 11,
            code: OP_QUERY,
            payload: vec![1],
        },
        Response {
            seq: 12,
            code: OP_QUERY,
            payload: vec![0],
        },
    ];
    assert_eq!(r, expect);
    assert_eq!(run.core_ops, 3, "only the good frames reach the core");
}

#[test]
fn bridge_w64_config_only() {
    let run = run_bridge(
        64,
        BRIDGE_CPB,
        200,
        vec![Ok(frame(7, OP_CONFIG, &[])), gap()],
    );
    let r = parse_responses(&run.out);
    assert_eq!(
        r,
        vec![Response {
            seq: 7,
            code: OP_CONFIG,
            payload: params(64).config_block()
        }]
    );
}

fn stats_of(r: &Response) -> (Vec<u32>, u8, Vec<u32>) {
    let (counters, status, fills, saturated) = counting_stats_of(r);
    assert!(
        saturated.is_empty(),
        "a plain board's stats end with the fills"
    );
    (counters, status, fills)
}

/// Counters, status byte, fills and (a counting board's) saturated counts of a stats answer.
fn counting_stats_of(r: &Response) -> (Vec<u32>, u8, Vec<u32>, Vec<u32>) {
    assert_eq!(r.code, OP_STATS);
    let counting = r.payload[14] > 1;
    let per_bank = if counting { 6 } else { 3 };
    assert_eq!(
        r.payload.len() as u32,
        STATS_FIXED_BYTES + per_bank * K,
        "stats length for counter bits {}",
        r.payload[14]
    );
    let word = |i: usize| u32::from_le_bytes(r.payload[20 + 4 * i..24 + 4 * i].try_into().unwrap());
    let three = |o: usize| {
        r.payload[o] as u32 | (r.payload[o + 1] as u32) << 8 | (r.payload[o + 2] as u32) << 16
    };
    let fills = (0..K as usize).map(|b| three(40 + 3 * b)).collect();
    let saturated = if counting {
        (0..K as usize)
            .map(|b| three(40 + 3 * K as usize + 3 * b))
            .collect()
    } else {
        vec![]
    };
    ((0..4).map(word).collect(), r.payload[36], fills, saturated)
}

#[test]
fn bridge_w32_write_bits_replay_image_complete_zero_counters_and_their_errors() {
    let w = 32;
    let script = vec![
        Ok(frame(1, OP_CONFIG, &[])),
        gap(),
        Ok(frame(2, OP_INSERT, &key_bytes(5, w))),
        gap(),
        // Bank 1, bits 8..23: 0xA5 then 0x0F (bit i of byte j = bit 8 + 8j + i).
        Ok(frame(3, OP_WRITE_BITS, &[1, 8, 0, 0xA5, 0x0F])),
        Err(1500),
        // The retry is answered from memory (the same fill), not executed again.
        Ok(frame(3, OP_WRITE_BITS, &[1, 8, 0, 0xA5, 0x0F])),
        Err(1500),
        Ok(frame(4, OP_STATS, &[])),
        Err(1500),
        Ok(frame(5, OP_DUMP, &[1, 0, 0])),
        Err(1500),
        // Bank 0: the whole bank, clearing the insert's bit at address 5.
        Ok(frame(
            6,
            OP_WRITE_BITS,
            &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80],
        )),
        Err(1500),
        Ok(frame(7, OP_IMAGE_COMPLETE, &[])),
        gap(),
        Ok(frame(8, OP_STATS, &[])),
        Err(1500),
        Ok(frame(9, OP_ZERO_COUNTERS, &[])),
        gap(),
        Ok(frame(10, OP_STATS, &[])),
        Err(1500),
        // Refused: past the bank's end, a bank >= k, an address not a multiple
        // of 8, no data, a payload for image complete.
        Ok(frame(11, OP_WRITE_BITS, &[0, 56, 0, 1, 2])),
        gap(),
        Ok(frame(12, OP_WRITE_BITS, &[K as u8, 0, 0, 1])),
        gap(),
        Ok(frame(13, OP_WRITE_BITS, &[0, 4, 0, 1])),
        gap(),
        Ok(frame(14, OP_WRITE_BITS, &[0, 0, 0])),
        gap(),
        Ok(frame(15, OP_IMAGE_COMPLETE, &[1])),
        gap(),
        Ok(frame(16, OP_STATS, &[])),
        Err(1500),
    ];
    let run = run_bridge(w, BRIDGE_CPB, 200, script);
    assert_eq!(run.framing_errors, 0);
    let r = parse_responses(&run.out);
    assert_eq!(r.len(), 17, "{r:?}");
    // Bank 1 held the insert's bit (5 + 1) = 6 and gets 4 + 4 ones at 8..23.
    assert_eq!(
        r[2],
        Response {
            seq: 3,
            code: OP_WRITE_BITS,
            payload: vec![9, 0, 0]
        }
    );
    assert_eq!(r[3], r[2]);
    let (counters, status, fills) = stats_of(&r[4]);
    assert_eq!(
        counters,
        vec![1, 3, 0, 1],
        "ops, frames executed, rejected, replayed"
    );
    assert_eq!(
        status & 1,
        1,
        "a write bits frame makes the image incomplete"
    );
    assert_eq!(fills, vec![1, 9, 1]);
    assert_eq!(
        r[5],
        Response {
            seq: 5,
            code: OP_DUMP,
            payload: vec![0x40, 0xA5, 0x0F, 0, 0, 0, 0, 0]
        }
    );
    assert_eq!(
        r[6],
        Response {
            seq: 6,
            code: OP_WRITE_BITS,
            payload: vec![1, 0, 0]
        }
    );
    assert_eq!(
        r[7],
        Response {
            seq: 7,
            code: OP_IMAGE_COMPLETE,
            payload: vec![]
        }
    );
    let (counters, status, fills) = stats_of(&r[8]);
    assert_eq!(
        (counters[1], status),
        (7, 0),
        "image complete clears the flag"
    );
    assert_eq!(fills, vec![1, 9, 1]);
    assert_eq!(
        r[9],
        Response {
            seq: 9,
            code: OP_ZERO_COUNTERS,
            payload: vec![]
        }
    );
    let (counters, _, _) = stats_of(&r[10]);
    assert_eq!(
        counters,
        vec![0, 0, 0, 0],
        "zeroed, the stats frame itself not yet counted"
    );
    let err = |seq: u8, reason: u8, op: u8| Response {
        seq,
        code: CODE_ERROR,
        payload: vec![reason, op],
    };
    assert_eq!(
        r[11..15],
        [
            err(11, ERR_BAD_ARGUMENT, OP_WRITE_BITS),
            err(12, ERR_BAD_ARGUMENT, OP_WRITE_BITS),
            err(13, ERR_BAD_ARGUMENT, OP_WRITE_BITS),
            err(14, ERR_BAD_LENGTH, OP_WRITE_BITS),
        ]
    );
    assert_eq!(r[15], err(15, ERR_BAD_LENGTH, OP_IMAGE_COMPLETE));
    let (counters, status, _) = stats_of(&r[16]);
    assert_eq!((counters, status), (vec![0, 1, 5, 0], 0));
    assert_eq!(
        run.bit_writes,
        16 + 64,
        "two write frames executed once each"
    );
    assert_eq!(run.core_ops, 1);
}

#[test]
fn bridge_c4_w64_delete_single_and_batch_replay_stats_saturated_dump_counters_and_write_bits_refused(
) {
    let w = 64;
    let p = counting_params(w, 4);
    let keys: Vec<u128> = (0..5)
        .map(|i| 0x2222_0000_0000_0000u128 * (i + 1) + i)
        .collect();
    let batch: Vec<u8> = keys.iter().flat_map(|k| key_bytes(*k, w)).collect();
    // Delete keys[0] (inserted twice), keys[1] (once), an absent key, keys[1] again.
    let mut deletes: Vec<u8> = [keys[0], keys[1], 0xABCD, keys[1]]
        .iter()
        .flat_map(|k| key_bytes(*k, w))
        .collect();
    deletes.truncate(4 * 8);
    let script = vec![
        Ok(frame(1, OP_CONFIG, &[])),
        gap(),
        Ok(frame(2, OP_INSERT_BATCH, &batch)),
        gap(),
        Ok(frame(3, OP_INSERT, &key_bytes(keys[0], w))),
        gap(),
        Ok(frame(4, OP_DELETE_BATCH, &deletes)),
        gap(),
        // A retry: answered from memory, nothing deleted twice.
        Ok(frame(4, OP_DELETE_BATCH, &deletes)),
        gap(),
        Ok(frame(5, OP_DELETE, &key_bytes(keys[0], w))),
        gap(),
        Ok(frame(6, OP_DELETE, &key_bytes(keys[0], w))),
        gap(),
        Ok(frame(7, OP_QUERY_BATCH, &batch)),
        gap(),
        // Refused on a counting board, whatever the payload; nothing written.
        Ok(frame(8, OP_WRITE_BITS, &[0, 0, 0, 0xFF])),
        gap(),
        Ok(frame(9, OP_WRITE_BITS, &[0, 0, 0])),
        gap(),
        // A delete with a key of the wrong width is a length error.
        Ok(frame(10, OP_DELETE, &[1, 2, 3])),
        gap(),
        Ok(frame(11, OP_STATS, &[])),
        Err(1500),
        // Counters of bank 2 from address 5 (any address) to the bank's end: 59 bytes.
        Ok(frame(12, OP_DUMP_COUNTERS, &[2, 5, 0])),
        Err(1500),
        // Refused: a bank >= k, an address >= 2^b, a wrong length.
        Ok(frame(13, OP_DUMP_COUNTERS, &[K as u8, 0, 0])),
        gap(),
        Ok(frame(14, OP_DUMP_COUNTERS, &[0, 64, 0])),
        gap(),
        Ok(frame(15, OP_DUMP_COUNTERS, &[0, 0])),
        gap(),
    ];
    let run = run_bridge_with(p.clone(), BRIDGE_CPB, 200, script);
    assert_eq!(run.framing_errors, 0);
    let r = parse_responses(&run.out);
    assert_eq!(r.len(), 16, "{r:?}");
    assert_eq!(
        r[0],
        Response {
            seq: 1,
            code: OP_CONFIG,
            payload: p.config_block()
        }
    );
    assert_eq!(p.config_block()[0], 4, "protocol version");
    assert_eq!(p.config_block()[14], 4, "counter bits");
    assert_eq!(&p.config_block()[15..], &[0; 5], "no scrub, no period");
    assert_eq!(
        r[1],
        Response {
            seq: 2,
            code: OP_INSERT_BATCH,
            payload: vec![0]
        }
    );
    assert_eq!(
        r[2],
        Response {
            seq: 3,
            code: OP_INSERT,
            payload: vec![1]
        }
    );
    // keys[0]: 2 -> 1 (hit), keys[1]: 1 -> 0 (hit), absent (miss), keys[1] again: absent now (miss).
    assert_eq!(
        r[3],
        Response {
            seq: 4,
            code: OP_DELETE_BATCH,
            payload: vec![0b0011]
        }
    );
    assert_eq!(r[4], r[3]);
    assert_eq!(
        r[5],
        Response {
            seq: 5,
            code: OP_DELETE,
            payload: vec![1]
        }
    );
    assert_eq!(
        r[6],
        Response {
            seq: 6,
            code: OP_DELETE,
            payload: vec![0]
        }
    );
    // keys[0] and keys[1] are gone, the other three remain.
    assert_eq!(
        r[7],
        Response {
            seq: 7,
            code: OP_QUERY_BATCH,
            payload: vec![0b11100]
        }
    );
    let err = |seq: u8, reason: u8, op: u8| Response {
        seq,
        code: CODE_ERROR,
        payload: vec![reason, op],
    };
    assert_eq!(r[8], err(8, ERR_WRONG_KIND, OP_WRITE_BITS));
    assert_eq!(r[9], err(9, ERR_WRONG_KIND, OP_WRITE_BITS));
    assert_eq!(r[10], err(10, ERR_BAD_LENGTH, OP_DELETE));
    let (counters, status, fills, saturated) = counting_stats_of(&r[11]);
    assert_eq!(
        counters,
        vec![17, 7, 3, 1],
        "ops (6 inserts, 6 deletes, 5 queries), frames executed, rejected, replayed"
    );
    assert_eq!(status, 0);
    for (b, &fill) in fills.iter().enumerate().take(K as usize) {
        let expect: HashSet<u128> = keys.iter().map(|k| (k + b as u128) % 64).collect();
        assert_eq!(fill, expect.len() as u32, "fill of bank {b}");
    }
    // The stand-in shows 100 * (bank + 1) + its op count: each bank's own count, after every op.
    assert_eq!(
        saturated,
        (0..K).map(|b| 100 * (b + 1) + 17).collect::<Vec<_>>()
    );
    assert_eq!(
        r[12],
        Response {
            seq: 12,
            code: OP_DUMP_COUNTERS,
            payload: (5..64).map(|a| (a + 128) as u8).collect()
        }
    );
    assert_eq!(
        r[13..],
        [
            err(13, ERR_BAD_ARGUMENT, OP_DUMP_COUNTERS),
            err(14, ERR_BAD_ARGUMENT, OP_DUMP_COUNTERS),
            err(15, ERR_BAD_LENGTH, OP_DUMP_COUNTERS),
        ]
    );
    assert_eq!(run.bit_writes, 0, "write bits refused: nothing written");
    assert_eq!(
        run.ops,
        [vec![1; 6], vec![3; 4], vec![3, 3], vec![0; 5]].concat(),
        "ops the core took"
    );
    assert_eq!(run.core_ops, 17);
}

#[test]
fn bridge_plain_w32_refuses_delete_and_delete_batch_and_changes_nothing() {
    let w = 32;
    let script = vec![
        Ok(frame(1, OP_INSERT, &key_bytes(9, w))),
        gap(),
        Ok(frame(2, OP_DELETE, &key_bytes(9, w))),
        gap(),
        Ok(frame(
            3,
            OP_DELETE_BATCH,
            &[key_bytes(9, w), key_bytes(10, w)].concat(),
        )),
        gap(),
        // Refused whatever the payload.
        Ok(frame(4, OP_DELETE, &[])),
        gap(),
        Ok(frame(7, OP_DUMP_COUNTERS, &[0, 0, 0])),
        gap(),
        Ok(frame(8, OP_WRITE_COUNTERS, &[0, 0, 0, 1])),
        gap(),
        Ok(frame(5, OP_QUERY, &key_bytes(9, w))),
        gap(),
        Ok(frame(6, OP_STATS, &[])),
        Err(1500),
    ];
    let run = run_bridge(w, BRIDGE_CPB, 200, script);
    let r = parse_responses(&run.out);
    let err = |seq: u8, reason: u8, op: u8| Response {
        seq,
        code: CODE_ERROR,
        payload: vec![reason, op],
    };
    assert_eq!(
        r[..4],
        [
            Response {
                seq: 1,
                code: OP_INSERT,
                payload: vec![0]
            },
            err(2, ERR_WRONG_KIND, OP_DELETE),
            err(3, ERR_WRONG_KIND, OP_DELETE_BATCH),
            err(4, ERR_WRONG_KIND, OP_DELETE),
        ]
    );
    assert_eq!(r[4], err(7, ERR_WRONG_KIND, OP_DUMP_COUNTERS));
    assert_eq!(r[5], err(8, ERR_WRONG_KIND, OP_WRITE_COUNTERS));
    assert_eq!(
        r[6],
        Response {
            seq: 5,
            code: OP_QUERY,
            payload: vec![1]
        }
    );
    let (counters, _, _) = stats_of(&r[7]);
    assert_eq!(counters, vec![2, 2, 5, 0]);
    assert_eq!(run.bit_writes, 0);
    assert_eq!(run.ops, vec![1, 0], "no delete reached the core");
}

#[test]
fn bridge_c4_w32_write_counters_checks_every_value_first_replay_and_errors() {
    let w = 32;
    let p = counting_params(w, 4);
    let script = vec![
        Ok(frame(1, OP_CONFIG, &[])),
        gap(),
        // Bank 1, counters 10, 11, 12 := 3, 15, 0 (any address, one byte each).
        Ok(frame(2, OP_WRITE_COUNTERS, &[1, 10, 0, 3, 15, 0])),
        Err(1500),
        // The retry is answered from memory, nothing written again.
        Ok(frame(2, OP_WRITE_COUNTERS, &[1, 10, 0, 3, 15, 0])),
        Err(1500),
        // A value above 15 anywhere: refused before any write.
        Ok(frame(3, OP_WRITE_COUNTERS, &[0, 0, 0, 1, 2, 16, 3])),
        Err(1500),
        // Past the end of the bank, a bank >= k, no data.
        Ok(frame(4, OP_WRITE_COUNTERS, &[0, 62, 0, 1, 2, 3])),
        gap(),
        Ok(frame(5, OP_WRITE_COUNTERS, &[K as u8, 0, 0, 1])),
        gap(),
        Ok(frame(6, OP_WRITE_COUNTERS, &[0, 0, 0])),
        gap(),
        // The last counter of bank 0.
        Ok(frame(7, OP_WRITE_COUNTERS, &[0, 63, 0, 7])),
        Err(1500),
        Ok(frame(8, OP_STATS, &[])),
        Err(1500),
    ];
    let run = run_bridge_with(p, BRIDGE_CPB, 200, script);
    let r = parse_responses(&run.out);
    assert_eq!(r.len(), 9, "{r:?}");
    let err = |seq: u8, reason: u8, op: u8| Response {
        seq,
        code: CODE_ERROR,
        payload: vec![reason, op],
    };
    // Bank 1's fill after the write: two non-zero counters.
    assert_eq!(
        r[1],
        Response {
            seq: 2,
            code: OP_WRITE_COUNTERS,
            payload: vec![2, 0, 0]
        }
    );
    assert_eq!(r[2], r[1]);
    assert_eq!(
        r[3..7],
        [
            err(3, ERR_BAD_ARGUMENT, OP_WRITE_COUNTERS),
            err(4, ERR_BAD_ARGUMENT, OP_WRITE_COUNTERS),
            err(5, ERR_BAD_ARGUMENT, OP_WRITE_COUNTERS),
            err(6, ERR_BAD_LENGTH, OP_WRITE_COUNTERS),
        ]
    );
    assert_eq!(
        r[7],
        Response {
            seq: 7,
            code: OP_WRITE_COUNTERS,
            payload: vec![1, 0, 0]
        }
    );
    let (counters, status, _, _) = counting_stats_of(&r[8]);
    assert_eq!(
        counters,
        vec![0, 3, 4, 1],
        "ops, frames executed (config and two writes), rejected, replayed"
    );
    assert_eq!(status & 1, 1, "counter writes make the image incomplete");
    assert_eq!(
        run.counter_writes,
        vec![(1, 10, 3), (1, 11, 15), (1, 12, 0), (0, 63, 7)]
    );
    assert_eq!(run.bit_writes, 0);
}
