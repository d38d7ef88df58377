//! The host side of the UART bridge (docs/protocol.md): the filter on a board,
//! or the Verilated board top, behind the golden model's API.
//!
//! [`Client`] speaks the protocol over any [`Transport`]: stop and wait, one
//! sequence number per operation, resending the same frame until it is
//! answered, so that nothing acknowledged is lost and nothing runs twice
//! (docs/protocol.md §6).

pub mod codec;
pub mod pty;
pub mod serial;
pub mod sim_board;
pub mod transport;

pub use codec::{DeviceConfig, DeviceStats, OpCode, Reason};
pub use sim_board::{FaultCounts, LineFaults, SimBoard};
pub use transport::Transport;

use codec::{
    encode_request, ResponseDecoder, CODE_ERROR, DUMP_CHUNK_BYTES, WRITE_CHUNK_BYTES,
    WRITE_HEADER_BYTES,
};
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("{0}")]
    Setup(String),
    #[error("transport error: {0}")]
    Transport(String),
    #[error(
        "the device on {line} did not answer the {op} frame (seq {seq}) after {tries} tries{last}"
    )]
    NoAnswer {
        line: String,
        op: &'static str,
        seq: u8,
        tries: u32,
        last: String,
    },
    #[error("the device on {line} has another configuration than expected: {differences}")]
    ConfigMismatch { line: String, differences: String },
    #[error("the device answered nonsense: {0}")]
    Protocol(String),
    #[error("key {key:#x} does not fit in {key_bits} bits")]
    Key { key: u128, key_bits: u32 },
    #[error("image: {0}")]
    Image(String),
    #[error("{0}")]
    WrongKind(String),
    /// A scrub asked of a board built without it.
    #[error("{0}")]
    NoScrub(String),
    /// The scrub did not end in the time it may take.
    #[error("{0}")]
    ScrubTimeout(String),
    #[error(
        "load-image stopped at bank {bank} {unit} {addr}: {reason}. The device's filter now holds part of the new \
         image and part of what it held before, and says so (`bloom host stats`: image load incomplete); \
         run load-image again, or clear it"
    )]
    /// `unit`: what an address of the bank names, "bit" (plain image) or "counter" (counting image).
    LoadIncomplete {
        unit: &'static str,
        bank: usize,
        addr: usize,
        reason: String,
    },
}

/// How hard the host tries.
#[derive(Clone, Debug)]
pub struct ClientOptions {
    /// Tries per frame before giving up.
    pub max_tries: u32,
    /// The board's truncation timeout in bit times (docs/protocol.md §4); the
    /// host waits that long for silence before resending.
    pub board_timeout_bits: u64,
    /// Bit times allowed for the board to execute a frame, beyond the time
    /// its request and response take on the line.
    pub execute_allowance_bits: u64,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            max_tries: 8,
            board_timeout_bits: hdl::bridge::DEFAULT_TIMEOUT_BITS as u64,
            execute_allowance_bits: 400,
        }
    }
}

/// What happened on the line, from the host's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Frames written, first tries and resends.
    pub frames_sent: u64,
    pub resends: u64,
    /// Operations acknowledged by the device.
    pub acknowledged: u64,
    /// Error frames received (the board rejected a frame).
    pub error_frames: u64,
    /// Waits that ended without an answer.
    pub timeouts: u64,
    /// Answers to earlier tries or other sequence numbers, discarded.
    pub stale_responses: u64,
    /// Response frames that failed their CRC (or garbage bytes skipped).
    pub bad_response_frames: u64,
    /// Bytes written and bit times spent waiting.
    pub bytes_sent: u64,
    pub bit_times: u64,
}

pub struct Client<T: Transport> {
    transport: T,
    opts: ClientOptions,
    decoder: ResponseDecoder,
    seq: u8,
    device: DeviceConfig,
    config: golden::CoreParams,
    /// Bit times the core may keep a frame waiting (a clear's window, at the
    /// slowest clock the bridge runs at), from the core's timing.
    core_wait_bits: u64,
    pub link: LinkStats,
}

/// Longest response payload of an operation, for the wait budget.
fn max_response_payload(op: OpCode, k: u32) -> usize {
    match op {
        OpCode::Query | OpCode::Insert | OpCode::Delete => 1,
        OpCode::QueryBatch | OpCode::InsertBatch | OpCode::DeleteBatch => 4,
        OpCode::Clear => 0,
        // A counting board adds its saturated counts.
        OpCode::Stats => codec::STATS_FIXED_BYTES + 6 * k as usize,
        OpCode::Dump | OpCode::DumpCounters => DUMP_CHUNK_BYTES,
        OpCode::CoreParams => codec::CONFIG_BLOCK_BYTES,
        OpCode::WriteBits | OpCode::WriteCounters => 3,
        OpCode::ImageComplete | OpCode::ZeroCounters => 0,
        OpCode::Scrub => 2,
    }
}

/// Clock cycles the board spends executing a frame beyond what the fixed
/// allowance covers: a write bits frame writes one bit per cycle after
/// reading each byte (docs/protocol.md §3).
fn execute_cycles(op: OpCode, payload_len: usize) -> u64 {
    match op {
        OpCode::WriteBits => 10 * payload_len.saturating_sub(WRITE_HEADER_BYTES) as u64 + 32,
        // A check pass (2 cycles a byte), then a fetch and a write a byte.
        OpCode::WriteCounters => 6 * payload_len.saturating_sub(WRITE_HEADER_BYTES) as u64 + 32,
        _ => 0,
    }
}

/// How one kind of image is written: what an address names, what the fill
/// counts, how many addresses a byte holds, and the command that writes a
/// chunk (returning the bank's fill).
struct BankLoad<T: Transport> {
    unit: &'static str,
    counted: &'static str,
    per_byte: usize,
    write: WriteChunk<T>,
}

/// A write command: (client, bank, first address, bytes) to the bank's fill.
type WriteChunk<T> = fn(&mut Client<T>, usize, usize, &[u8]) -> Result<u32, HostError>;

impl<T: Transport> Client<T> {
    /// Opens a session: reads the device's configuration (which also makes
    /// its remembered sequence number ours, docs/protocol.md §6) and, if
    /// `expected` is given, refuses a device configured otherwise.
    pub fn connect(
        transport: T,
        opts: ClientOptions,
        expected: Option<&golden::CoreParams>,
    ) -> Result<Client<T>, HostError> {
        let placeholder = DeviceConfig {
            version: 1,
            k: 16,
            bank_bits: 16,
            key_bits: 128,
            hash_code: 0,
            max_batch: 1,
            seed: 0,
            counter_bits: 1,
            scrub: false,
            power_up_check: false,
            scrub_every: None,
        };
        let mut c = Client {
            transport,
            opts,
            decoder: ResponseDecoder::default(),
            seq: 0,
            device: placeholder,
            config: golden::CoreParams::default(),
            core_wait_bits: 0,
            link: LinkStats::default(),
        };
        // Start from a sequence number the device is unlikely to remember;
        // correctness does not depend on it (config frames always execute).
        c.seq = 0x5A;
        let payload = c.transact(OpCode::CoreParams, &[])?;
        let device = DeviceConfig::parse(&payload).map_err(HostError::Protocol)?;
        let config = device.golden_config().map_err(|e| {
            HostError::Protocol(format!("device reports an invalid configuration: {e}"))
        })?;
        if device.max_batch != DeviceConfig::expected_max_batch(device.key_bits) {
            return Err(HostError::Protocol(format!(
                "device reports max_batch {} for {}-bit keys (protocol: {})",
                device.max_batch,
                device.key_bits,
                DeviceConfig::expected_max_batch(device.key_bits)
            )));
        }
        if let Some(want) = expected {
            if *want != config {
                return Err(HostError::ConfigMismatch {
                    line: c.transport.describe(),
                    differences: format!("device has {config}, expected {want}"),
                });
            }
        }
        c.device = device;
        c.config = config;
        // A frame right after a clear waits for the clear window; the board
        // runs at least MIN_CLOCKS_PER_BIT clocks per bit, so it waits at
        // most this many bit times before the core accepts it.
        let timing = hdl::Timing::of(&config);
        c.core_wait_bits = ((timing.clear_cycles + timing.latency) as u64)
            .div_ceil(hdl::bridge::MIN_CLOCKS_PER_BIT as u64);
        Ok(c)
    }

    pub fn config(&self) -> &golden::CoreParams {
        &self.config
    }

    pub fn device(&self) -> &DeviceConfig {
        &self.device
    }

    pub fn transport(&self) -> &T {
        &self.transport
    }

    pub fn transport_mut(&mut self) -> &mut T {
        &mut self.transport
    }

    /// Most keys per batch frame.
    pub fn max_batch(&self) -> usize {
        self.device.max_batch as usize
    }

    fn key_bytes(&self, key: u128) -> Result<Vec<u8>, HostError> {
        let w = self.config.key_bits;
        if w < 128 && key >> w != 0 {
            return Err(HostError::Key { key, key_bits: w });
        }
        Ok(key.to_le_bytes()[..(w / 8) as usize].to_vec())
    }

    /// Reads until the line has been quiet for the board's truncation timeout,
    /// accepting a late answer to `want` if one shows up.
    fn drain(&mut self, want: (u8, u8)) -> Result<Option<Vec<u8>>, HostError> {
        let quiet_needed = self.opts.board_timeout_bits + 40;
        let mut quiet = 0;
        let mut found = None;
        while quiet < quiet_needed {
            let (bytes, bits) = self.transport.read(quiet_needed - quiet)?;
            self.link.bit_times += bits;
            if bytes.is_empty() {
                quiet += bits;
            } else {
                quiet = 0;
                self.decoder.push(&bytes);
                while let Some(r) = self.decoder.next_response() {
                    if (r.seq, r.code) == want && found.is_none() {
                        found = Some(r.payload);
                    } else if r.code == CODE_ERROR {
                        self.link.error_frames += 1;
                    } else {
                        self.link.stale_responses += 1;
                    }
                }
            }
        }
        self.decoder.clear();
        Ok(found)
    }

    /// One operation, exactly once: the same frame (same SEQ) until answered.
    fn transact(&mut self, op: OpCode, payload: &[u8]) -> Result<Vec<u8>, HostError> {
        let seq = self.seq;
        let frame = encode_request(seq, op as u8, payload);
        let want = (seq, op as u8);
        let budget = 10 * (frame.len() + max_response_payload(op, self.device.k) + 6) as u64
            + self.opts.execute_allowance_bits
            + self.core_wait_bits
            + execute_cycles(op, payload.len()).div_ceil(hdl::bridge::MIN_CLOCKS_PER_BIT as u64);
        let mut last = String::new();
        for attempt in 0..self.opts.max_tries {
            if attempt > 0 {
                self.link.resends += 1;
            }
            self.link.frames_sent += 1;
            self.link.bytes_sent += frame.len() as u64;
            self.transport.write(&frame)?;
            let mut waited = 0;
            let mut rejected = false;
            while waited < budget && !rejected {
                let (bytes, bits) = self.transport.read(budget - waited)?;
                waited += bits;
                self.link.bit_times += bits;
                self.decoder.push(&bytes);
                while let Some(r) = self.decoder.next_response() {
                    if (r.seq, r.code) == want {
                        self.finish(seq);
                        return Ok(r.payload);
                    } else if let Some((reason, _)) = r.error() {
                        self.link.error_frames += 1;
                        last = format!("; last answer: {reason}");
                        rejected = true;
                    } else {
                        self.link.stale_responses += 1;
                    }
                }
            }
            if !rejected {
                self.link.timeouts += 1;
                last = "; last try: no answer".into();
            }
            self.link.bad_response_frames = self.decoder.bad_frames;
            // Let the board finish whatever it is doing and return to hunting
            // before the resend; a late answer to this frame still counts.
            if let Some(p) = self.drain(want)? {
                self.finish(seq);
                return Ok(p);
            }
        }
        Err(HostError::NoAnswer {
            line: self.transport.describe(),
            op: op.name(),
            seq,
            tries: self.opts.max_tries,
            last,
        })
    }

    fn finish(&mut self, seq: u8) {
        self.link.acknowledged += 1;
        self.link.bad_response_frames = self.decoder.bad_frames;
        self.seq = seq.wrapping_add(1);
    }

    fn single(&mut self, op: OpCode, key: u128) -> Result<bool, HostError> {
        let kb = self.key_bytes(key)?;
        let p = self.transact(op, &kb)?;
        match p.as_slice() {
            [0] => Ok(false),
            [1] => Ok(true),
            other => Err(HostError::Protocol(format!(
                "{} answer {other:02x?} (expected one byte 0 or 1)",
                op.name()
            ))),
        }
    }

    pub fn insert(&mut self, key: u128) -> Result<bool, HostError> {
        self.single(OpCode::Insert, key)
    }

    pub fn query(&mut self, key: u128) -> Result<bool, HostError> {
        self.single(OpCode::Query, key)
    }

    /// A plain device cannot delete (contract §7.7): refused here, before
    /// anything is sent (the board would refuse it too, WRONG_KIND).
    fn check_counting(&self, what: &str) -> Result<(), HostError> {
        if self.device.is_counting() {
            return Ok(());
        }
        Err(HostError::WrongKind(format!(
            "{what}: the device on {} is a plain filter (counter bits 1), which cannot delete a key; \
             build its bitstream with --counter-bits 2..=8 for a counting filter. Nothing was sent",
            self.transport.describe()
        )))
    }

    /// Deletes one key (contract §7.2): true iff it was present, and its
    /// counters were decremented. A counting device only.
    pub fn delete(&mut self, key: u128) -> Result<bool, HostError> {
        self.check_counting("delete")?;
        self.single(OpCode::Delete, key)
    }

    /// Deletes keys in order (in frames of up to `max_batch` keys); for each,
    /// whether it was present and deleted. A counting device only.
    pub fn delete_batch(&mut self, keys: &[u128]) -> Result<Vec<bool>, HostError> {
        self.check_counting("delete")?;
        self.batch(OpCode::DeleteBatch, keys)
    }

    fn batch(&mut self, op: OpCode, keys: &[u128]) -> Result<Vec<bool>, HostError> {
        // Validate every key before sending any, so a bad key changes nothing.
        let encoded: Vec<Vec<u8>> = keys
            .iter()
            .map(|k| self.key_bytes(*k))
            .collect::<Result<_, _>>()?;
        let mut hits = Vec::with_capacity(keys.len());
        for chunk in encoded.chunks(self.max_batch()) {
            let payload: Vec<u8> = chunk.concat();
            let p = self.transact(op, &payload)?;
            if p.len() != chunk.len().div_ceil(8) {
                return Err(HostError::Protocol(format!(
                    "{} of {} keys answered with {} bytes",
                    op.name(),
                    chunk.len(),
                    p.len()
                )));
            }
            hits.extend((0..chunk.len()).map(|i| (p[i / 8] >> (i % 8)) & 1 == 1));
        }
        Ok(hits)
    }

    /// Inserts keys in order (in frames of up to `max_batch` keys); the hit of each.
    pub fn insert_batch(&mut self, keys: &[u128]) -> Result<Vec<bool>, HostError> {
        self.batch(OpCode::InsertBatch, keys)
    }

    pub fn query_batch(&mut self, keys: &[u128]) -> Result<Vec<bool>, HostError> {
        self.batch(OpCode::QueryBatch, keys)
    }

    pub fn clear(&mut self) -> Result<(), HostError> {
        let p = self.transact(OpCode::Clear, &[])?;
        if !p.is_empty() {
            return Err(HostError::Protocol(format!(
                "clear answered with {} payload bytes",
                p.len()
            )));
        }
        Ok(())
    }

    pub fn stats(&mut self) -> Result<DeviceStats, HostError> {
        let p = self.transact(OpCode::Stats, &[])?;
        let s = DeviceStats::parse(&p).map_err(HostError::Protocol)?;
        if s.config != self.device {
            return Err(HostError::ConfigMismatch {
                line: self.transport.describe(),
                differences: format!(
                    "configuration changed during the session: {:?} then {:?}",
                    self.device, s.config
                ),
            });
        }
        Ok(s)
    }

    /// The board has the scrub, else an error naming `--scrub`; nothing is sent.
    fn check_scrub(&self) -> Result<(), HostError> {
        if self.device.scrub {
            return Ok(());
        }
        Err(HostError::NoScrub(format!(
            "scrub: the device on {} was built without the scrub; build its bitstream with --scrub              (bloom build --scrub, or bloom host --sim --scrub). Nothing was sent",
            self.transport.describe()
        )))
    }

    /// Sends one scrub frame (docs/protocol.md §3): whether a scrub started (else one
    /// was running), and the scrubs ended before it (mod 256). A board with the scrub only.
    pub fn scrub_request(&mut self) -> Result<(bool, u8), HostError> {
        self.check_scrub()?;
        let p = self.transact(OpCode::Scrub, &[])?;
        match p.as_slice() {
            [started @ (0 | 1), ended] => Ok((*started == 1, *ended)),
            other => Err(HostError::Protocol(format!(
                "scrub answer {other:02x?} (expected 2 bytes: 0 or 1, the scrubs ended)"
            ))),
        }
    }

    /// Bit times a scrub may take: with the core idle 2^b + scrub_end_latency cycles
    /// (contract §5.2), at the fewest clocks per bit a board runs, twice over (and with
    /// a periodic scrub the wait for its next tick), plus the line time of the stats
    /// frames that poll it.
    pub fn scrub_wait_bits(&self) -> u64 {
        let cycles = (1u64 << self.config.bank_bits)
            + hdl::Timing::of(&self.config).scrub_end_latency as u64
            + self.device.scrub_every.unwrap_or(0) as u64;
        2 * cycles.div_ceil(hdl::bridge::MIN_CLOCKS_PER_BIT as u64) + 20_000
    }

    /// Stats until `done` holds of them; a scrub timeout after `limit` bit times.
    fn stats_until(
        &mut self,
        limit: u64,
        done: impl Fn(&DeviceStats) -> bool,
    ) -> Result<DeviceStats, HostError> {
        let start = self.link.bit_times;
        loop {
            let s = self.stats()?;
            if done(&s) {
                return Ok(s);
            }
            let waited = self.link.bit_times - start;
            if waited > limit {
                return Err(HostError::ScrubTimeout(format!(
                    "scrub: no scrub ended within {waited} bit times on {} (allowed {limit}: a scrub of \
                     2^{} addresses takes at most {} bit times at 4 clocks per bit with the core idle); \
                     the device is kept busy, or was reset",
                    self.transport.describe(),
                    self.config.bank_bits,
                    ((1u64 << self.config.bank_bits) + 16).div_ceil(4)
                )));
            }
        }
    }

    /// A scrub of every bank (contract §5.2) that starts after this call, and its result:
    /// requests one and polls the stats until it has ended, within
    /// [`Client::scrub_wait_bits`]. If a scrub was running (started before the request),
    /// waits for it to end, and then for the next periodic one, or requests again. The
    /// stats returned hold the result (`scrub_mismatch`, bit p = bank p). A board with
    /// the scrub only.
    pub fn scrub(&mut self) -> Result<DeviceStats, HostError> {
        self.check_scrub()?;
        let limit = self.scrub_wait_bits();
        let periodic = self.device.scrub_every.is_some();
        for _ in 0..4 {
            let (started, ended) = self.scrub_request()?;
            // Scrubs never overlap, so the first to end after the request is the one it
            // started, or the one running, which started before it; the next one started after.
            let need = if !started && periodic { 2 } else { 1 };
            let s = self.stats_until(limit, |s| s.scrubs_ended.wrapping_sub(ended) >= need)?;
            if !started && !periodic {
                continue;
            }
            if !s.scrub_result {
                return Err(HostError::Protocol(
                    "scrub: the device was reset during the scrub (no scrub has ended since); run it again"
                        .into(),
                ));
            }
            return Ok(s);
        }
        Err(HostError::ScrubTimeout(format!(
            "scrub: a scrub was already running at each of 4 requests on {} (another client keeps requesting them)",
            self.transport.describe()
        )))
    }

    pub fn fill(&mut self) -> Result<Vec<u32>, HostError> {
        Ok(self.stats()?.fill)
    }

    /// Estimated distinct keys inserted, from the live fill (contract §6).
    pub fn estimated_items(&mut self) -> Result<f64, HostError> {
        let fill = self.fill()?;
        Ok(golden::partitioned::estimated_items_from_fill(
            &fill,
            self.config.bank_size(),
        ))
    }

    /// Live false-positive estimate from the fill (contract §6).
    pub fn fpr_estimate(&mut self) -> Result<f64, HostError> {
        let fill = self.fill()?;
        Ok(golden::partitioned::fpr_estimate_from_fill(
            &fill,
            self.config.bank_size(),
        ))
    }

    /// Every bank's bits, one u8 (0/1) per address, bank after bank; on a
    /// counting device, the 0-1 projection (1 iff the counter is non-zero).
    pub fn dump_bits(&mut self) -> Result<Vec<Vec<u8>>, HostError> {
        let size = self.config.bank_size() as usize;
        let mut banks = Vec::with_capacity(self.config.k as usize);
        for bank in 0..self.config.k as usize {
            let mut bits = Vec::with_capacity(size);
            while bits.len() < size {
                let addr = bits.len() as u16;
                let [lo, hi] = addr.to_le_bytes();
                let p = self.transact(OpCode::Dump, &[bank as u8, lo, hi])?;
                let expect = ((size - bits.len()) / 8).min(DUMP_CHUNK_BYTES);
                if p.len() != expect {
                    return Err(HostError::Protocol(format!(
                        "dump chunk of {} bytes (expected {expect})",
                        p.len()
                    )));
                }
                for byte in p {
                    bits.extend((0..8).map(|i| (byte >> i) & 1));
                }
            }
            banks.push(bits);
        }
        Ok(banks)
    }

    /// Zeroes the device's four counters (docs/protocol.md §5).
    pub fn zero_counters(&mut self) -> Result<(), HostError> {
        let p = self.transact(OpCode::ZeroCounters, &[])?;
        if !p.is_empty() {
            return Err(HostError::Protocol(format!(
                "zero counters answered with {} payload bytes",
                p.len()
            )));
        }
        Ok(())
    }

    /// Writes `data` into bank `bank` from bit `addr` on (a multiple of 8; bit
    /// i of byte j is bit addr + 8j + i); the bank's fill afterwards. Marks the
    /// device's image incomplete until [`Client::image_complete`].
    pub fn write_bits(&mut self, bank: usize, addr: usize, data: &[u8]) -> Result<u32, HostError> {
        if self.device.is_counting() {
            return Err(HostError::WrongKind(format!(
                "write bits: the device on {} is a counting filter (counter bits {}): its counters are not bits. Nothing was sent",
                self.transport.describe(),
                self.device.counter_bits
            )));
        }
        let size = self.config.bank_size() as usize;
        if bank >= self.config.k as usize
            || !addr.is_multiple_of(8)
            || data.is_empty()
            || data.len() > WRITE_CHUNK_BYTES
            || addr + 8 * data.len() > size
        {
            return Err(HostError::Image(format!(
                "write of {} bytes at bank {bank} bit {addr}: outside the device's k = {} banks of {size} bits, \
                 or not 1 ..= {WRITE_CHUNK_BYTES} bytes at a multiple of 8",
                data.len(),
                self.config.k
            )));
        }
        let [lo, hi] = (addr as u16).to_le_bytes();
        let mut payload = vec![bank as u8, lo, hi];
        payload.extend_from_slice(data);
        let p = self.transact(OpCode::WriteBits, &payload)?;
        match p.as_slice() {
            [a, b, c] => Ok(*a as u32 | (*b as u32) << 8 | (*c as u32) << 16),
            other => Err(HostError::Protocol(format!(
                "write bits answered with {other:02x?} (expected a 3-byte fill)"
            ))),
        }
    }

    /// Writes counters `addr ..` of bank `bank` of a counting device, one byte
    /// each (at most 2^c - 1); the bank's fill (non-zero counters) afterwards.
    /// Marks the device's image incomplete until [`Client::image_complete`].
    pub fn write_counters(
        &mut self,
        bank: usize,
        addr: usize,
        data: &[u8],
    ) -> Result<u32, HostError> {
        if !self.device.is_counting() {
            return Err(HostError::WrongKind(format!(
                "write counters: the device on {} is a plain filter (counter bits 1): it has bits, not counters. Nothing was sent",
                self.transport.describe()
            )));
        }
        let size = self.config.bank_size() as usize;
        let saturation = (1u32 << self.device.counter_bits) - 1;
        if bank >= self.config.k as usize
            || data.is_empty()
            || data.len() > WRITE_CHUNK_BYTES
            || addr + data.len() > size
        {
            return Err(HostError::Image(format!(
                "write of {} counters at bank {bank} address {addr}: outside the device's k = {} banks of {size} counters, \
                 or not 1 ..= {WRITE_CHUNK_BYTES} counters",
                data.len(),
                self.config.k
            )));
        }
        if let Some(v) = data.iter().find(|v| **v as u32 > saturation) {
            return Err(HostError::Image(format!(
                "counter value {v}: the device's counters of {} bits hold 0..={saturation}",
                self.device.counter_bits
            )));
        }
        let [lo, hi] = (addr as u16).to_le_bytes();
        let mut payload = vec![bank as u8, lo, hi];
        payload.extend_from_slice(data);
        let p = self.transact(OpCode::WriteCounters, &payload)?;
        match p.as_slice() {
            [a, b, c] => Ok(*a as u32 | (*b as u32) << 8 | (*c as u32) << 16),
            other => Err(HostError::Protocol(format!(
                "write counters answered with {other:02x?} (expected a 3-byte fill)"
            ))),
        }
    }

    /// Writes every bank's `bytes` (`load.per_byte` addresses a byte) in
    /// chunks of up to 245 bytes, each exactly once, and checks the fill the
    /// device answers for each bank against the image's `fill`; a failure is
    /// a `LoadIncomplete` naming where the load stopped.
    fn load_banks(
        &mut self,
        load: BankLoad<T>,
        bytes: impl Fn(usize) -> Vec<u8>,
        fill_of: impl Fn(usize) -> u32,
    ) -> Result<(), HostError> {
        let size = self.config.bank_size() as usize;
        for bank in 0..self.config.k as usize {
            let mut fill = 0;
            for (n, chunk) in bytes(bank).chunks(WRITE_CHUNK_BYTES).enumerate() {
                let addr = n * WRITE_CHUNK_BYTES * load.per_byte;
                fill = (load.write)(self, bank, addr, chunk).map_err(|e| {
                    HostError::LoadIncomplete {
                        unit: load.unit,
                        bank,
                        addr,
                        reason: e.to_string(),
                    }
                })?;
            }
            if fill != fill_of(bank) {
                return Err(HostError::LoadIncomplete {
                    unit: load.unit,
                    bank,
                    addr: size,
                    reason: format!(
                        "the device counts {fill} {} in bank {bank}, the image {}",
                        load.counted,
                        fill_of(bank)
                    ),
                });
            }
        }
        Ok(())
    }

    /// Replaces a counting device's counters by `image` (contract §7.6), bank
    /// by bank in chunks of up to 245 counters (docs/protocol.md §3, write
    /// counters), each exactly once; checks every bank's fill and, at the
    /// end, the saturated counts as the device counts them against the
    /// image's, then marks the image complete. On any failure the device is
    /// flagged incomplete and the error says where the load stopped.
    pub fn load_counting_image(&mut self, image: &golden::CountingFilter) -> Result<(), HostError> {
        self.check_image_config(image.config())?;
        self.load_banks(
            BankLoad {
                unit: "counter",
                counted: "non-zero counters",
                per_byte: 1,
                write: Self::write_counters,
            },
            |bank| image.bank(bank).expect("bank < k").to_vec(),
            |bank| image.fill_of(bank),
        )?;
        let k = self.config.k as usize;
        let stats = self.stats().map_err(|e| HostError::LoadIncomplete {
            unit: "counter",
            bank: k,
            addr: 0,
            reason: e.to_string(),
        })?;
        if stats.saturated != image.saturated() {
            return Err(HostError::LoadIncomplete {
                unit: "counter",
                bank: k,
                addr: 0,
                reason: format!(
                    "the device counts {:?} saturated counters, the image {:?}",
                    stats.saturated,
                    image.saturated()
                ),
            });
        }
        self.image_complete()
            .map_err(|e| HostError::LoadIncomplete {
                unit: "counter",
                bank: k,
                addr: 0,
                reason: e.to_string(),
            })
    }

    /// Tells the device that the image written since the last clear is
    /// whole (clears its "image load incomplete" flag).
    pub fn image_complete(&mut self) -> Result<(), HostError> {
        let p = self.transact(OpCode::ImageComplete, &[])?;
        if !p.is_empty() {
            return Err(HostError::Protocol(format!(
                "image complete answered with {} payload bytes",
                p.len()
            )));
        }
        Ok(())
    }

    /// An image of another configuration than the device's is refused, naming the differences.
    fn check_image_config(&self, image: &golden::CoreParams) -> Result<(), HostError> {
        if image != &self.config {
            return Err(HostError::ConfigMismatch {
                line: self.transport.describe(),
                differences: format!(
                    "the image is {}, the device {} ({})",
                    image,
                    self.config,
                    image.differences(&self.config)
                ),
            });
        }
        Ok(())
    }

    /// Replaces the device's filter by `image`, bank by bank in chunks of up
    /// to 245 bytes (docs/protocol.md §3, write bits), each exactly once;
    /// checks every bank's fill as the device counts it against the image's,
    /// then marks the image complete. On any failure the device's filter is
    /// flagged incomplete and the error says where the load stopped.
    pub fn load_image(&mut self, image: &golden::PartitionedFilter) -> Result<(), HostError> {
        if self.device.is_counting() {
            return Err(HostError::ConfigMismatch {
                line: self.transport.describe(),
                differences: format!(
                    "the image is a plain filter's, the device a counting filter (counter bits {}): load a counting image",
                    self.device.counter_bits
                ),
            });
        }
        self.check_image_config(image.config())?;
        self.load_banks(
            BankLoad {
                unit: "bit",
                counted: "bits set",
                per_byte: 8,
                write: Self::write_bits,
            },
            |bank| {
                let bits = image.bank(bank).expect("bank < k");
                bits.chunks(8)
                    .map(|c| {
                        c.iter()
                            .enumerate()
                            .fold(0u8, |acc, (i, b)| acc | (b & 1) << i)
                    })
                    .collect()
            },
            |bank| image.fill_of(bank),
        )?;
        self.image_complete()
            .map_err(|e| HostError::LoadIncomplete {
                unit: "bit",
                bank: self.config.k as usize,
                addr: 0,
                reason: e.to_string(),
            })
    }

    /// Writes the device's memory as a golden-model image into `dir`, which
    /// must not exist or be empty; the image appears complete or not at all
    /// (golden's writer): a plain device's bits (contract §4), a counting
    /// device's counters (contract §7.6).
    pub fn dump_image(&mut self, dir: &Path) -> Result<(), HostError> {
        let written = if self.device.is_counting() {
            self.dump_counters()?.export_image(dir)
        } else {
            self.dump()?.export_image(dir)
        };
        written.map_err(|e| HostError::Image(e.to_string()))
    }

    /// A counting device's counters, read with dump counters frames
    /// (docs/protocol.md §3), as the golden counting filter they make.
    pub fn dump_counters(&mut self) -> Result<golden::CountingFilter, HostError> {
        if !self.device.is_counting() {
            return Err(HostError::WrongKind(format!(
                "dump counters: the device on {} is a plain filter (counter bits 1): it has bits, not counters. Nothing was sent",
                self.transport.describe()
            )));
        }
        let size = self.config.bank_size() as usize;
        let saturation = (1u32 << self.device.counter_bits) - 1;
        let mut banks = Vec::with_capacity(self.config.k as usize);
        for bank in 0..self.config.k as usize {
            let mut counters: Vec<u8> = Vec::with_capacity(size);
            while counters.len() < size {
                let [lo, hi] = (counters.len() as u16).to_le_bytes();
                let p = self.transact(OpCode::DumpCounters, &[bank as u8, lo, hi])?;
                let expect = (size - counters.len()).min(DUMP_CHUNK_BYTES);
                if p.len() != expect {
                    return Err(HostError::Protocol(format!(
                        "dump counters chunk of {} bytes (expected {expect})",
                        p.len()
                    )));
                }
                if let Some(v) = p.iter().find(|v| **v as u32 > saturation) {
                    return Err(HostError::Protocol(format!(
                        "counter value {v} in bank {bank} (counters of {} bits hold 0..={saturation})",
                        self.device.counter_bits
                    )));
                }
                counters.extend_from_slice(&p);
            }
            banks.push(counters);
        }
        let bits = golden::CounterBits::new(self.device.counter_bits)
            .map_err(|e| HostError::Protocol(e.to_string()))?;
        golden::CountingFilter::from_counters(self.config, bits, &banks)
            .map_err(|e| HostError::Image(e.to_string()))
    }

    /// The device's memory as a golden model: a counting device's as its 0-1
    /// projection, the plain filter of the same configuration (contract §7.5).
    pub fn dump(&mut self) -> Result<golden::PartitionedFilter, HostError> {
        let banks = self.dump_bits()?;
        golden::PartitionedFilter::from_banks(self.config.plain(), &banks)
            .map_err(|e| HostError::Image(e.to_string()))
    }
}
