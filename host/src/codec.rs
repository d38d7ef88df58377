//! Frames of docs/protocol.md, written from that page (not from the hardware).

/// Request sync byte.
pub const REQUEST_SYNC: u8 = 0xFE;
/// Response sync byte.
pub const RESPONSE_SYNC: u8 = 0xFD;
/// Response code of an error frame.
pub const CODE_ERROR: u8 = 0x80;
/// LEN bounds (LEN counts SEQ, OP/CODE and the payload).
pub const MIN_LEN: usize = 2;
pub const MAX_LEN: usize = 250;
/// Largest request payload.
pub const MAX_PAYLOAD: usize = MAX_LEN - 2;
/// Bytes of the configuration block.
pub const CONFIG_BLOCK_BYTES: usize = 20;
/// Largest dump chunk in bytes.
pub const DUMP_CHUNK_BYTES: usize = 128;
/// Protocol version this host speaks.
pub const PROTOCOL_VERSION: u8 = 4;
/// Bytes before the data of a write bits frame (bank, bit address).
pub const WRITE_HEADER_BYTES: usize = 3;
/// Largest write bits chunk in bytes.
pub const WRITE_CHUNK_BYTES: usize = MAX_PAYLOAD - WRITE_HEADER_BYTES;
/// Bytes of the stats payload before the fills: the block, four counters, the status
/// byte, the scrub's mismatch bits (2 bytes) and the scrubs ended (1 byte).
pub const STATS_FIXED_BYTES: usize = CONFIG_BLOCK_BYTES + 16 + 1 + 2 + 1;

/// Operation codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpCode {
    Query = 1,
    Insert = 2,
    QueryBatch = 3,
    InsertBatch = 4,
    Clear = 5,
    Stats = 6,
    Dump = 7,
    CoreParams = 8,
    WriteBits = 9,
    ImageComplete = 10,
    ZeroCounters = 11,
    Delete = 12,
    DeleteBatch = 13,
    DumpCounters = 14,
    WriteCounters = 15,
    Scrub = 16,
}

impl OpCode {
    pub fn name(self) -> &'static str {
        match self {
            OpCode::Query => "query",
            OpCode::Insert => "insert",
            OpCode::QueryBatch => "query batch",
            OpCode::InsertBatch => "insert batch",
            OpCode::Clear => "clear",
            OpCode::Stats => "stats",
            OpCode::Dump => "dump",
            OpCode::CoreParams => "config",
            OpCode::WriteBits => "write bits",
            OpCode::ImageComplete => "image complete",
            OpCode::ZeroCounters => "zero counters",
            OpCode::Delete => "delete",
            OpCode::DeleteBatch => "delete batch",
            OpCode::DumpCounters => "dump counters",
            OpCode::WriteCounters => "write counters",
            OpCode::Scrub => "scrub",
        }
    }
}

/// Why the board rejected a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    BadCrc,
    BadLength,
    UnknownOp,
    Timeout,
    BadArgument,
    WrongKind,
    NoScrub,
    Other(u8),
}

impl Reason {
    pub fn from_byte(b: u8) -> Reason {
        match b {
            1 => Reason::BadCrc,
            2 => Reason::BadLength,
            3 => Reason::UnknownOp,
            4 => Reason::Timeout,
            5 => Reason::BadArgument,
            6 => Reason::WrongKind,
            7 => Reason::NoScrub,
            x => Reason::Other(x),
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::BadCrc => f.write_str("bad CRC"),
            Reason::BadLength => f.write_str("bad length"),
            Reason::UnknownOp => f.write_str("unknown operation"),
            Reason::Timeout => f.write_str("frame truncated (timeout)"),
            Reason::BadArgument => f.write_str("bad argument"),
            Reason::WrongKind => {
                f.write_str("not an operation of this kind of filter (delete or counters on a plain board, write bits on a counting one)")
            }
            Reason::NoScrub => f.write_str("the board was built without the scrub (bloom build --scrub)"),
            Reason::Other(x) => write!(f, "unknown reason code {x}"),
        }
    }
}

/// CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout).
pub fn crc16(bytes: &[u8]) -> u16 {
    let mut crc: u16 = 0xFFFF;
    for &b in bytes {
        crc ^= (b as u16) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

/// A request frame, ready for the line. Panics if the payload is too long
/// (callers split batches; that is a programming error, not an input error).
pub fn encode_request(seq: u8, op: u8, payload: &[u8]) -> Vec<u8> {
    assert!(
        payload.len() <= MAX_PAYLOAD,
        "payload of {} bytes",
        payload.len()
    );
    let mut f = Vec::with_capacity(payload.len() + 6);
    f.push(REQUEST_SYNC);
    f.push((payload.len() + 2) as u8);
    f.push(seq);
    f.push(op);
    f.extend_from_slice(payload);
    let c = crc16(&f[1..]);
    f.extend_from_slice(&c.to_be_bytes());
    f
}

/// A response frame that passed its CRC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub seq: u8,
    pub code: u8,
    pub payload: Vec<u8>,
}

impl Response {
    /// The reason and the OP byte the board received, for an error frame.
    pub fn error(&self) -> Option<(Reason, u8)> {
        if self.code != CODE_ERROR {
            return None;
        }
        Some((
            Reason::from_byte(*self.payload.first().unwrap_or(&0)),
            *self.payload.get(1).unwrap_or(&0),
        ))
    }
}

/// Finds response frames in a byte stream, skipping garbage and frames
/// whose CRC fails (it then resumes the search one byte after that sync).
#[derive(Default, Debug)]
pub struct ResponseDecoder {
    buf: Vec<u8>,
    /// Frames that looked complete but failed their CRC or length check.
    pub bad_frames: u64,
    /// Bytes discarded while hunting for a sync byte.
    pub skipped_bytes: u64,
}

impl ResponseDecoder {
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Bytes held that do not yet form a frame.
    pub fn pending(&self) -> usize {
        self.buf.len()
    }

    pub fn clear(&mut self) {
        self.buf.clear();
    }

    pub fn next_response(&mut self) -> Option<Response> {
        loop {
            let start = match self.buf.iter().position(|&b| b == RESPONSE_SYNC) {
                Some(p) => p,
                None => {
                    self.skipped_bytes += self.buf.len() as u64;
                    self.buf.clear();
                    return None;
                }
            };
            if start > 0 {
                self.skipped_bytes += start as u64;
                self.buf.drain(..start);
            }
            if self.buf.len() < 2 {
                return None;
            }
            let len = self.buf[1] as usize;
            if !(MIN_LEN..=MAX_LEN).contains(&len) {
                self.bad_frames += 1;
                self.buf.drain(..1);
                continue;
            }
            if self.buf.len() < len + 4 {
                return None;
            }
            let crc = u16::from_be_bytes([self.buf[len + 2], self.buf[len + 3]]);
            if crc16(&self.buf[1..len + 2]) != crc {
                self.bad_frames += 1;
                self.buf.drain(..1);
                continue;
            }
            let r = Response {
                seq: self.buf[2],
                code: self.buf[3],
                payload: self.buf[4..len + 2].to_vec(),
            };
            self.buf.drain(..len + 4);
            return Some(r);
        }
    }
}

/// The board's configuration block (docs/protocol.md §5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceConfig {
    pub version: u8,
    pub k: u32,
    pub bank_bits: u32,
    pub key_bits: u32,
    /// 0 = h3, 1 = crc.
    pub hash_code: u8,
    pub max_batch: u32,
    pub seed: u64,
    /// Counter bits c: 1 = a plain board, 2..=8 = a counting board.
    pub counter_bits: u32,
    /// The board was built with the scrub (`bloom build --scrub`).
    pub scrub: bool,
    /// It has the power-up check (a plain board with the scrub, contract §5.3).
    pub power_up_check: bool,
    /// The period of its periodic scrub in clock cycles (`--scrub-every`), if any.
    pub scrub_every: Option<u32>,
}

impl DeviceConfig {
    pub fn parse(b: &[u8]) -> Result<DeviceConfig, String> {
        if let Some(&v) = b.first() {
            if v != PROTOCOL_VERSION {
                return Err(format!(
                    "protocol version {v} (this host speaks version {PROTOCOL_VERSION}; rebuild the bitstream with this bloom)"
                ));
            }
        }
        if b.len() < CONFIG_BLOCK_BYTES {
            return Err(format!(
                "configuration block of {} bytes (expected {CONFIG_BLOCK_BYTES})",
                b.len()
            ));
        }
        let c = DeviceConfig {
            version: b[0],
            k: b[1] as u32,
            bank_bits: b[2] as u32,
            key_bits: b[3] as u32,
            hash_code: b[4],
            max_batch: b[5] as u32,
            seed: u64::from_le_bytes(b[6..14].try_into().unwrap()),
            counter_bits: b[14] as u32,
            scrub: b[15] & 1 == 1,
            power_up_check: b[15] & 2 == 2,
            scrub_every: match u32::from_le_bytes(b[16..20].try_into().unwrap()) {
                0 => None,
                n => Some(n),
            },
        };
        Ok(c)
    }

    pub fn hash(&self) -> Result<golden::HashFamily, String> {
        golden::HashFamily::from_code(self.hash_code)
            .ok_or_else(|| format!("hash family code {}", self.hash_code))
    }

    pub fn golden_config(&self) -> Result<golden::CoreParams, String> {
        golden::CoreParams::new(
            self.k,
            self.bank_bits,
            self.key_bits,
            self.hash()?,
            self.seed,
        )
        .and_then(|c| c.with_counter_bits(self.counter_bits))
        .map_err(|e| e.to_string())
    }

    /// A counting board (counter bits > 1).
    pub fn is_counting(&self) -> bool {
        self.counter_bits > 1
    }

    /// Bytes of the stats payload: the fixed part, k fills, and on a counting board k saturated counts.
    pub fn stats_bytes(&self) -> usize {
        STATS_FIXED_BYTES + if self.is_counting() { 6 } else { 3 } * self.k as usize
    }

    /// The protocol's batch limit for a key width (docs/protocol.md §3).
    pub fn expected_max_batch(key_bits: u32) -> u32 {
        (MAX_PAYLOAD as u32 / (key_bits / 8)).min(32)
    }
}

/// The stats payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceStats {
    pub config: DeviceConfig,
    pub ops_served: u32,
    pub frames_executed: u32,
    pub frames_rejected: u32,
    pub frames_replayed: u32,
    /// A write bits frame ran since the last image complete or clear: the
    /// banks may hold part of one image and part of another.
    pub image_incomplete: bool,
    /// Per bank: set bits (a counting board: non-zero counters).
    pub fill: Vec<u32>,
    /// Per bank on a counting board: counters at 2^c - 1; empty on a plain board.
    pub saturated: Vec<u32>,
    /// A scrub is running.
    pub scrub_busy: bool,
    /// A scrub has ended since the last reset: `scrub_mismatch` is its result. If not,
    /// a plain board's `scrub_mismatch` shows the power-up check (0 once passed, and
    /// after any later reset).
    pub scrub_result: bool,
    /// Bit p: bank p mismatched (the last scrub's result, or the power-up check's).
    pub scrub_mismatch: u16,
    /// Scrubs ended since the last reset, mod 256.
    pub scrubs_ended: u8,
}

impl DeviceStats {
    pub fn parse(b: &[u8]) -> Result<DeviceStats, String> {
        let config = DeviceConfig::parse(b)?;
        let need = config.stats_bytes();
        if b.len() != need {
            return Err(format!(
                "stats payload of {} bytes (expected {need} for k = {}, counter bits {})",
                b.len(),
                config.k,
                config.counter_bits
            ));
        }
        let word = |i: usize| {
            u32::from_le_bytes(
                b[CONFIG_BLOCK_BYTES + 4 * i..CONFIG_BLOCK_BYTES + 4 * i + 4]
                    .try_into()
                    .unwrap(),
            )
        };
        let three = |o: usize| b[o] as u32 | (b[o + 1] as u32) << 8 | (b[o + 2] as u32) << 16;
        let k = config.k as usize;
        let fill = (0..k).map(|p| three(STATS_FIXED_BYTES + 3 * p)).collect();
        let saturated = if config.is_counting() {
            (0..k)
                .map(|p| three(STATS_FIXED_BYTES + 3 * k + 3 * p))
                .collect()
        } else {
            vec![]
        };
        Ok(DeviceStats {
            ops_served: word(0),
            frames_executed: word(1),
            frames_rejected: word(2),
            frames_replayed: word(3),
            image_incomplete: b[CONFIG_BLOCK_BYTES + 16] & 1 == 1,
            scrub_busy: b[CONFIG_BLOCK_BYTES + 16] & 2 == 2,
            scrub_result: b[CONFIG_BLOCK_BYTES + 16] & 4 == 4,
            scrub_mismatch: u16::from_le_bytes([
                b[CONFIG_BLOCK_BYTES + 17],
                b[CONFIG_BLOCK_BYTES + 18],
            ]),
            scrubs_ended: b[CONFIG_BLOCK_BYTES + 19],
            fill,
            saturated,
            config,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A version 4 block and stats of a board with the scrub, byte for byte as
    /// docs/protocol.md §5 lays them out; a version 3 board's 15-byte block is refused
    /// by its version.
    #[test]
    fn version_4_scrub_fields_and_an_older_board_refused() {
        let mut block = vec![4, 3, 11, 32, 0, 32, 7, 0, 0, 0, 0, 0, 0, 0, 1, 0b11];
        block.extend_from_slice(&3000u32.to_le_bytes());
        let c = DeviceConfig::parse(&block).unwrap();
        assert!(c.scrub && c.power_up_check);
        assert_eq!((c.scrub_every, c.seed, c.counter_bits), (Some(3000), 7, 1));
        let mut stats = block.clone();
        stats.extend_from_slice(&[0; 16]);
        stats.extend_from_slice(&[0b110, 0b101, 0, 9]);
        stats.extend_from_slice(&[5, 0, 0, 6, 0, 0, 7, 0, 0]);
        let s = DeviceStats::parse(&stats).unwrap();
        assert_eq!(
            (s.image_incomplete, s.scrub_busy, s.scrub_result),
            (false, true, true)
        );
        assert_eq!((s.scrub_mismatch, s.scrubs_ended), (0b101, 9));
        assert_eq!(s.fill, vec![5, 6, 7]);
        block[15..].fill(0);
        let c = DeviceConfig::parse(&block).unwrap();
        assert!(!c.scrub && !c.power_up_check && c.scrub_every.is_none());
        let v3 = [3, 3, 11, 32, 0, 32, 7, 0, 0, 0, 0, 0, 0, 0, 1];
        let e = DeviceConfig::parse(&v3).unwrap_err();
        assert!(
            e.contains("protocol version 3") && e.contains("rebuild the bitstream"),
            "{e}"
        );
    }

    #[test]
    fn crc16_ccitt_false_check_value() {
        assert_eq!(crc16(b"123456789"), 0x29B1);
    }

    #[test]
    fn frame_with_its_crc_leaves_zero_remainder() {
        let f = encode_request(9, 2, &[1, 2, 3, 4]);
        assert_eq!(f[0], REQUEST_SYNC);
        assert_eq!(f[1], 6);
        assert_eq!(crc16(&f[1..]), 0);
    }

    #[test]
    fn decoder_skips_garbage_and_bad_crc_and_resyncs() {
        let mut good = vec![RESPONSE_SYNC, 3, 7, 1, 1];
        let c = crc16(&good[1..]);
        good.extend_from_slice(&c.to_be_bytes());
        let mut bad = good.clone();
        bad[4] ^= 1;
        let mut d = ResponseDecoder::default();
        d.push(&[0, 0xFD, 0xFF, 0x13]);
        d.push(&bad);
        d.push(&good[..3]);
        assert_eq!(d.next_response(), None);
        d.push(&good[3..]);
        assert_eq!(
            d.next_response(),
            Some(Response {
                seq: 7,
                code: 1,
                payload: vec![1]
            })
        );
        assert_eq!(d.next_response(), None);
        assert!(d.bad_frames >= 2);
    }
}
