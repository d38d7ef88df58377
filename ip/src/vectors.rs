//! Portable test vectors for `bloom_axis`: a seeded stream of operations and
//! register accesses, with every response the golden model expects, written
//! as plain hex files any Verilog simulator reads with `$readmemh` (the
//! testbench is [`crate::testbench`]; cocotb reads the same files).
//!
//! The traffic: bursts of stream requests (queries, inserts, op 3 (a delete
//! in a counting core, a query in a plain one), rare clears) with read-after-write hazards (a key of the last few requests
//! again, back to back), random idle cycles at the source and random stalls at
//! the sink, long enough now and then to fill the core's response FIFO; between
//! bursts a checkpoint of register accesses: status (polled until not busy),
//! the fill (and saturated counters) of every bank, the three counters, bit
//! readbacks (of bits a recent insert set, and of random bits), bit writes (a
//! random bit set or cleared, a bit of a recent insert cleared, a bank >= k;
//! in a counting core counter writes of any value through BIT_COUNT), each
//! read back, now and
//! then a counter reset or a clear through the registers, and accesses that
//! must answer SLVERR. Register steps
//! are barriers: a testbench runs one only when every earlier request has been
//! answered, so the expected values do not depend on the timing.
//!
//! Files (format 1; one hex word a line; each of `stim.hex` and `expect.hex`
//! ends with an end mark at the index the config gives, so a short, long or
//! foreign file is refused):
//! - `config.hex`, 32-bit words: [`MAGIC`], format, k, bank_bits, key_bits,
//!   hash (register code), seed bits 31:0, seed bits 63:32, steps, responses,
//!   and the CONFIG, SEED_LO and SEED_HI register words the core must read.
//! - `stim.hex`, [`STEP_BITS`]-bit steps: bits 175:172 the kind (0 request, 1
//!   register write, 2 register read, 15 end). Request: 171:164 idle cycles of
//!   s_axis_tvalid before it, 137:136 op, 135:128 tag, 127:0 key. Write:
//!   171:168 write strobes, 165:164 expected bresp, 159:152 address, 127:96
//!   data. Read: 165:164 expected rresp, 159:152 address, 127:96 expected data,
//!   95:64 mask of the bits compared, 63:32 poll mask, 31:0 poll limit: the read
//!   is repeated (at most poll-limit times) until the bits under the poll mask
//!   equal the expected ones, then compared under the mask.
//! - `expect.hex`, 32-bit responses in order: 31:28 kind (0, 15 the end mark),
//!   23:16 cycles the sink holds m_axis_tready low before taking it, 8 hit,
//!   7:0 tag.

use bloom_params::CoreParams;
use golden::rng::SplitMix64;
use golden::{CountingFilter, Op, PartitionedFilter};
use hdl::axi::regmap as map;
use hdl::axi::regs::RegisterDef;
use serde::Serialize;

pub const MAGIC: u32 = 0x424C_5643;
pub const FORMAT: u32 = 1;
pub const STEP_BITS: u32 = 176;
pub const CONFIG_WORDS: usize = 13;
pub const KIND_REQUEST: u8 = 0;
pub const KIND_WRITE: u8 = 1;
pub const KIND_READ: u8 = 2;
pub const KIND_END: u8 = 15;
pub const RESP_OKAY: u8 = 0;
pub const RESP_SLVERR: u8 = 2;
/// Most stream requests one vector set may hold.
pub const MAX_OPS: u64 = 2_000_000;

/// What to generate.
#[derive(Clone, Debug)]
pub struct VectorOptions {
    /// Stream requests, 1..=[`MAX_OPS`].
    pub ops: u64,
    /// Seed of the traffic (keys, mix, idle cycles, stalls, checkpoints).
    pub seed: u64,
    /// Mean stream requests between two checkpoints.
    pub burst: u64,
    /// The core is generated with the scrub (CONFIG.scrub reads 1), and its
    /// period: the vectors' CONFIG word says so. The traffic is the same.
    pub scrub: bool,
    pub scrub_every: Option<u32>,
}

impl VectorOptions {
    pub fn new(ops: u64, seed: u64) -> Self {
        VectorOptions {
            ops,
            seed,
            burst: 400,
            scrub: false,
            scrub_every: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Request {
        gap: u8,
        op: u8,
        tag: u8,
        key: u128,
    },
    Write {
        addr: u8,
        data: u32,
        strobes: u8,
        resp: u8,
    },
    Read {
        addr: u8,
        data: u32,
        mask: u32,
        poll_mask: u32,
        poll_limit: u32,
        resp: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Response {
    pub stall: u8,
    pub hit: bool,
    pub tag: u8,
}

/// What a vector set holds, by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct VectorStats {
    pub requests: u64,
    pub queries: u64,
    pub inserts: u64,
    /// Op 3 in a plain core (a query there).
    pub reserved_op3: u64,
    /// Op 3 in a counting core: deletes, and those carried out (hit).
    pub deletes: u64,
    pub deletes_carried_out: u64,
    /// Inserts into a counting core that met at least one saturated counter
    /// (read back through SATURATED).
    pub inserts_at_saturation: u64,
    pub stream_clears: u64,
    /// Requests whose key is that of one of the 4 requests before it.
    pub hazards: u64,
    pub query_hits: u64,
    pub register_reads: u64,
    pub register_writes: u64,
    pub readbacks: u64,
    /// Bit writes through BIT_ADDR.write (each also a readback of the bit before it).
    pub bit_writes: u64,
    pub register_clears: u64,
    pub counter_resets: u64,
    /// Accesses that must answer SLVERR.
    pub error_responses: u64,
    pub checkpoints: u64,
}

#[derive(Clone, Debug)]
pub struct Vectors {
    pub params: CoreParams,
    /// Generated with the scrub ([`VectorOptions::scrub`]), and its period.
    pub scrub: bool,
    pub scrub_every: Option<u32>,
    pub seed: u64,
    pub steps: Vec<Step>,
    pub responses: Vec<Response>,
    pub stats: VectorStats,
}

#[derive(Debug, thiserror::Error)]
pub enum VectorError {
    #[error("--ops {0}: must be 1..={MAX_OPS}")]
    Ops(u64),
    #[error("{0}")]
    Golden(String),
}

/// The golden model behind a vector set: the plain filter, or the counting
/// filter of a core with counter_bits > 1 (contract §7).
pub enum Golden {
    Plain(PartitionedFilter),
    Counting(CountingFilter),
}

impl Golden {
    pub fn config(&self) -> &CoreParams {
        match self {
            Golden::Plain(f) => f.config(),
            Golden::Counting(f) => f.config(),
        }
    }

    fn apply(&mut self, op: Op) -> bool {
        match self {
            Golden::Plain(f) => f.apply(op),
            Golden::Counting(f) => f.apply(op),
        }
        .expect("keys are drawn within key_bits")
    }

    fn addresses(&self, key: u128) -> Vec<u32> {
        match self {
            Golden::Plain(f) => f.addresses(key),
            Golden::Counting(f) => f.addresses(key),
        }
        .expect("keys are drawn within key_bits")
    }

    /// The counter (a plain filter: the bit) at an address within the bank; 0 for a bank >= k.
    fn counter(&self, bank: u32, addr: u32) -> u8 {
        match self {
            Golden::Plain(f) => (bank < f.config().k && f.bit(bank as usize, addr)) as u8,
            Golden::Counting(f) => f.counter(bank as usize, addr).unwrap_or(0),
        }
    }

    /// The bank access port's write (contract §5, §7.8): returns what the
    /// address held; a bank >= k changes nothing and reads 0.
    fn write(&mut self, bank: u32, addr: u32, value: u8) -> u8 {
        if bank >= self.config().k {
            return 0;
        }
        match self {
            Golden::Plain(f) => f
                .write_bit(bank as usize, addr, value != 0)
                .expect("bank and address within the filter") as u8,
            Golden::Counting(f) => f
                .write_counter(bank as usize, addr, value)
                .expect("bank, address and value within the filter"),
        }
    }

    fn fill_of(&self, bank: u32) -> u32 {
        match self {
            Golden::Plain(f) => f.fill_of(bank as usize),
            Golden::Counting(f) => f.fill_of(bank as usize),
        }
    }

    fn saturated_of(&self, bank: u32) -> u32 {
        match self {
            Golden::Plain(_) => 0,
            Golden::Counting(f) => f.saturated_of(bank as usize),
        }
    }

    fn saturated_total(&self) -> u64 {
        (0..self.config().k)
            .map(|b| self.saturated_of(b) as u64)
            .sum()
    }

    fn clear(&mut self) {
        match self {
            Golden::Plain(f) => f.clear(),
            Golden::Counting(f) => f.clear(),
        }
    }

    /// The largest counter value (1 in a plain filter).
    fn saturation(&self) -> u8 {
        match self {
            Golden::Plain(_) => 1,
            Golden::Counting(f) => f.saturation(),
        }
    }

    fn counting(&self) -> bool {
        matches!(self, Golden::Counting(_))
    }
}

/// The counters of the register map, as the golden model's traffic predicts them.
#[derive(Default)]
struct Counters {
    ops: u32,
    inserts: u32,
    hits: u32,
}

struct Builder {
    params: CoreParams,
    /// The core's scrub and its period (CONFIG.scrub).
    scrub: (bool, Option<u32>),
    filter: Golden,
    rng: SplitMix64,
    steps: Vec<Step>,
    responses: Vec<Response>,
    stats: VectorStats,
    counters: Counters,
    /// Keys of the last requests, newest last.
    recent: Vec<u128>,
    /// Keys inserted lately (for readbacks of bits that are set).
    inserted: Vec<u128>,
}

fn reg_addr(r: &hdl::axi::regs::RegisterDef, i: u32) -> u8 {
    r.address(i) as u8
}

impl Builder {
    fn read(&mut self, addr: u8, data: u32, mask: u32) {
        self.steps.push(Step::Read {
            addr,
            data,
            mask,
            poll_mask: 0,
            poll_limit: 1,
            resp: RESP_OKAY,
        });
        self.stats.register_reads += 1;
    }

    fn read_polled(&mut self, addr: u8, data: u32, mask: u32, poll_mask: u32, poll_limit: u32) {
        self.steps.push(Step::Read {
            addr,
            data,
            mask,
            poll_mask,
            poll_limit,
            resp: RESP_OKAY,
        });
        self.stats.register_reads += 1;
    }

    fn write(&mut self, addr: u8, data: u32) {
        self.steps.push(Step::Write {
            addr,
            data,
            strobes: 0xf,
            resp: RESP_OKAY,
        });
        self.stats.register_writes += 1;
    }

    fn read_error(&mut self, addr: u8) {
        self.steps.push(Step::Read {
            addr,
            data: 0,
            mask: u32::MAX,
            poll_mask: 0,
            poll_limit: 1,
            resp: RESP_SLVERR,
        });
        self.stats.register_reads += 1;
        self.stats.error_responses += 1;
    }

    fn write_error(&mut self, addr: u8, data: u32, strobes: u8) {
        self.steps.push(Step::Write {
            addr,
            data,
            strobes,
            resp: RESP_SLVERR,
        });
        self.stats.register_writes += 1;
        self.stats.error_responses += 1;
    }

    /// Most reads a poll of STATUS or BIT_DATA may take: a clear's sweep, and then some.
    fn poll_limit(&self) -> u32 {
        hdl::clear_cycles(self.params.bank_bits as usize) + 1000
    }

    fn wait_not_busy(&mut self) {
        let busy = map::STATUS_BUSY.mask();
        let limit = self.poll_limit();
        self.read_polled(reg_addr(&map::STATUS, 0), 0, busy, busy, limit);
    }

    /// BIT_DATA as it reads once an access found `counter` (a plain core's bit).
    fn bit_data(counter: u8) -> u32 {
        map::BIT_DATA_VALID.mask()
            | map::BIT_DATA_VALUE.place((counter != 0) as u64)
            | map::BIT_DATA_COUNTER.place(counter as u64)
    }

    fn readback(&mut self, bank: u32, addr: u32) {
        let counter = self
            .filter
            .counter(bank, addr & ((1 << self.params.bank_bits) - 1));
        let word = map::BIT_ADDR_ADDR.place(addr as u64) | map::BIT_ADDR_BANK.place(bank as u64);
        self.write(reg_addr(&map::BIT_ADDR, 0), word);
        self.read(reg_addr(&map::BIT_ADDR, 0), word, u32::MAX);
        let valid = map::BIT_DATA_VALID.mask();
        let expect = Self::bit_data(counter);
        let limit = self.poll_limit();
        self.read_polled(reg_addr(&map::BIT_DATA, 0), expect, u32::MAX, valid, limit);
        self.stats.readbacks += 1;
    }

    /// A bit write through BIT_ADDR (a counting core: the counter value of
    /// BIT_COUNT, written first): BIT_DATA answers the value as it was, and the
    /// golden model's write says what it becomes (a bank >= k: nothing).
    fn bit_write(&mut self, bank: u32, addr: u32, value: u8) {
        let address = addr & ((1 << self.params.bank_bits) - 1);
        let before = self.filter.write(bank, address, value);
        let counting = self.filter.counting();
        if counting {
            self.write(
                reg_addr(&map::BIT_COUNT, 0),
                map::BIT_COUNT_VALUE.place(value as u64),
            );
        }
        let word = map::BIT_ADDR_ADDR.place(addr as u64)
            | map::BIT_ADDR_BANK.place(bank as u64)
            | map::BIT_ADDR_WRITE.place(1)
            | map::BIT_ADDR_WDATA.place((!counting && value != 0) as u64);
        self.write(reg_addr(&map::BIT_ADDR, 0), word);
        let valid = map::BIT_DATA_VALID.mask();
        let expect = Self::bit_data(before);
        let limit = self.poll_limit();
        self.read_polled(reg_addr(&map::BIT_DATA, 0), expect, u32::MAX, valid, limit);
        self.stats.bit_writes += 1;
    }

    fn check_fills(&mut self) {
        let k = self.params.k;
        let banks: Vec<u32> = if k < 16 {
            (0..k)
                .chain([k + self.rng.below((16 - k) as u64) as u32])
                .collect()
        } else {
            (0..k).collect()
        };
        for bank in banks {
            let fill = if bank < k {
                self.filter.fill_of(bank)
            } else {
                0
            };
            self.read(
                reg_addr(&map::FILL, bank),
                map::FILL_COUNT.place(fill as u64),
                u32::MAX,
            );
            let saturated = if bank < k {
                self.filter.saturated_of(bank)
            } else {
                0
            };
            self.read(
                reg_addr(&map::SATURATED, bank),
                map::SATURATED_COUNT.place(saturated as u64),
                u32::MAX,
            );
        }
    }

    fn check_counters(&mut self) {
        let (o, i, h) = (self.counters.ops, self.counters.inserts, self.counters.hits);
        self.read(reg_addr(&map::COUNTERS_OPS, 0), o, u32::MAX);
        self.read(reg_addr(&map::COUNTERS_INSERTS, 0), i, u32::MAX);
        self.read(reg_addr(&map::COUNTERS_HITS, 0), h, u32::MAX);
    }

    /// What every core reads before any traffic: identification, configuration,
    /// idle status, empty (or preloaded) banks, zero counters, and the refusals.
    fn opening(&mut self) {
        self.wait_not_busy();
        for (reg, word) in fixed_words(&self.params, self.scrub) {
            self.read(reg_addr(&reg, 0), word, u32::MAX);
        }
        self.check_fills();
        self.check_counters();
        self.readback(0, 0);
        let top = self.filter.saturation();
        self.bit_write(0, 1, top);
        self.readback(0, 1);
        self.check_fills();
        self.bit_write(0, 1, 0);
        // BIT_COUNT reads back what was written (its low 8 bits).
        self.write(reg_addr(&map::BIT_COUNT, 0), 0xffff_ff5a);
        self.read(reg_addr(&map::BIT_COUNT, 0), 0x5a, u32::MAX);
        self.write(reg_addr(&map::BIT_COUNT, 0), 0);
        // Refusals: no readable field, no writable field, no register there, partial strobes.
        self.read_error(reg_addr(&map::COMMAND, 0));
        self.write_error(reg_addr(&map::ID, 0), 0, 0xf);
        self.write_error(reg_addr(&map::FILL, 0), 1, 0xf);
        self.write_error(reg_addr(&map::SATURATED, 3), 1, 0xf);
        self.write_error(reg_addr(&map::BIT_COUNT, 0), 1, 0x1);
        self.read_error(0xe0);
        self.read_error(map::MAP_BYTES as u8);
        self.write_error(0xfc, 0, 0xf);
        let word = map::BIT_ADDR_ADDR.place(2);
        self.write_error(reg_addr(&map::BIT_ADDR, 0), word, 0x3);
        // BIT_ADDR kept its value (from the bit write above).
        let word = map::BIT_ADDR_ADDR.place(1) | map::BIT_ADDR_WRITE.place(1);
        self.read(reg_addr(&map::BIT_ADDR, 0), word, u32::MAX);
    }

    fn request(&mut self) {
        let key_bits = self.params.key_bits;
        let r = self.rng.below(10_000);
        let clear_per_10k = if self.params.bank_bits <= 10 { 10 } else { 3 };
        // A counting core deletes often (a fifth), a plain one sees op 3 now and then.
        let op3_per_10k = if self.filter.counting() { 2_000 } else { 100 };
        let op = if r < clear_per_10k {
            2
        } else if r < clear_per_10k + op3_per_10k {
            3
        } else if r < 4_500 + op3_per_10k / 2 {
            1
        } else {
            0
        };
        let hazard = !self.recent.is_empty() && self.rng.chance(0.3);
        let key = if op == 3
            && self.filter.counting()
            && !self.inserted.is_empty()
            && self.rng.chance(0.5)
        {
            // Delete a key inserted lately (present, unless deleted or cleared since).
            self.inserted[self.rng.below(self.inserted.len() as u64) as usize]
        } else if hazard {
            let back = self.rng.below(self.recent.len().min(4) as u64) as usize;
            self.recent[self.recent.len() - 1 - back]
        } else if self.rng.chance(0.05) {
            // A small pool, so that inserts find their bits already set.
            self.rng.below(64) as u128
        } else {
            self.rng.key(key_bits)
        };
        let gap = match self.rng.below(100) {
            0..=69 => 0,
            70..=98 => 1 + self.rng.below(3) as u8,
            _ => 4 + self.rng.below(40) as u8,
        };
        let stall = match self.rng.below(100) {
            0..=69 => 0,
            70..=97 => 1 + self.rng.below(3) as u8,
            _ => 8 + self.rng.below(40) as u8,
        };
        let tag = self.rng.below(256) as u8;
        let saturated_before = if op == 1 && self.filter.counting() {
            self.filter.saturated_total()
        } else {
            0
        };
        let hit = self.filter.apply(Op::decode(op, key));
        self.steps.push(Step::Request { gap, op, tag, key });
        self.responses.push(Response { stall, hit, tag });
        let s = &mut self.stats;
        s.requests += 1;
        s.hazards += hazard as u64;
        match op {
            0 => {
                s.queries += 1;
                s.query_hits += hit as u64;
                self.counters.hits = self.counters.hits.wrapping_add(hit as u32);
            }
            1 => {
                s.inserts += 1;
                if self.filter.counting() && self.filter.saturated_total() > saturated_before {
                    s.inserts_at_saturation += 1;
                }
                self.counters.inserts = self.counters.inserts.wrapping_add(1);
                self.inserted.push(key);
                if self.inserted.len() > 32 {
                    self.inserted.remove(0);
                }
            }
            2 => {
                s.stream_clears += 1;
                self.inserted.clear();
            }
            _ if self.filter.counting() => {
                s.deletes += 1;
                s.deletes_carried_out += hit as u64;
            }
            _ => s.reserved_op3 += 1,
        }
        self.counters.ops = self.counters.ops.wrapping_add(1);
        if op != 2 {
            self.recent.push(key);
            if self.recent.len() > 8 {
                self.recent.remove(0);
            }
        }
    }

    fn checkpoint(&mut self) {
        self.stats.checkpoints += 1;
        self.wait_not_busy();
        self.check_fills();
        self.check_counters();
        // A bit a recent insert set (1), and a random bit.
        if let Some(&key) = self.inserted.last() {
            let bank = self.rng.below(self.params.k as u64) as u32;
            let addr = self.filter.addresses(key)[bank as usize];
            self.readback(bank, addr);
        }
        let bank = self.rng.below(self.params.k as u64 + 1) as u32;
        let addr = self.rng.below(1 << 16) as u32;
        self.readback(bank, addr);
        // Bit writes: set a random bit, clear a bit a recent insert set (its
        // key's queries then miss), write a bank >= k; read each back.
        if self.rng.chance(0.5) {
            let bank = self.rng.below(self.params.k as u64 + 1) as u32;
            let addr = self.rng.below(1 << 16) as u32;
            let value = if self.rng.chance(0.7) {
                1 + self.rng.below(self.filter.saturation() as u64) as u8
            } else {
                0
            };
            self.bit_write(bank, addr, value);
            self.readback(bank, addr);
            if let Some(&key) = self.inserted.last() {
                let bank = self.rng.below(self.params.k as u64) as u32;
                let addr = self.filter.addresses(key)[bank as usize];
                self.bit_write(bank, addr, 0);
                self.readback(bank, addr);
            }
            self.check_fills();
        }
        if self.rng.chance(0.25) {
            self.write(
                reg_addr(&map::COMMAND, 0),
                map::COMMAND_ZERO_COUNTERS.place(1),
            );
            self.counters = Counters::default();
            self.stats.counter_resets += 1;
            self.check_counters();
        }
        if self.rng.chance(0.15) {
            self.write(reg_addr(&map::COMMAND, 0), map::COMMAND_CLEAR.place(1));
            self.filter.clear();
            self.inserted.clear();
            self.stats.register_clears += 1;
            self.wait_not_busy();
            self.check_fills();
            // The register clear is not a request: the counters do not see it.
            self.check_counters();
        }
    }
}

/// Generates a vector set for a core with `params`, starting from `filter`'s
/// contents (empty, or the image the core is preloaded with).
pub fn generate(
    params: &CoreParams,
    filter: Golden,
    opts: &VectorOptions,
) -> Result<Vectors, VectorError> {
    if opts.ops == 0 || opts.ops > MAX_OPS {
        return Err(VectorError::Ops(opts.ops));
    }
    if filter.config() != params || filter.counting() != (params.counter_bits > 1) {
        return Err(VectorError::Golden(
            "the golden model's configuration differs from the core's".into(),
        ));
    }
    let mut b = Builder {
        params: *params,
        scrub: (opts.scrub, opts.scrub_every),
        filter,
        rng: SplitMix64::new(opts.seed),
        steps: Vec::new(),
        responses: Vec::new(),
        stats: VectorStats::default(),
        counters: Counters::default(),
        recent: Vec::new(),
        inserted: Vec::new(),
    };
    b.opening();
    let mut left = opts.ops;
    while left > 0 {
        let burst = (1 + b.rng.below(2 * opts.burst.max(1))).min(left);
        for _ in 0..burst {
            b.request();
        }
        left -= burst;
        b.checkpoint();
    }
    Ok(Vectors {
        params: *params,
        scrub: opts.scrub,
        scrub_every: opts.scrub_every,
        seed: opts.seed,
        steps: b.steps,
        responses: b.responses,
        stats: b.stats,
    })
}

/// An empty golden filter of `params`: the counting filter when counter_bits > 1.
pub fn empty_filter(params: &CoreParams) -> Result<Golden, VectorError> {
    if params.counter_bits > 1 {
        CountingFilter::from_config(*params)
            .map(Golden::Counting)
            .map_err(|e| VectorError::Golden(e.to_string()))
    } else {
        PartitionedFilter::try_new(*params)
            .map(Golden::Plain)
            .map_err(|e| VectorError::Golden(e.to_string()))
    }
}

/// The wrapper's fixed words of a core with `params` and (scrub, scrub_every).
fn fixed_words(
    params: &CoreParams,
    scrub: (bool, Option<u32>),
) -> [(RegisterDef, u32); hdl::axi::FIXED_WORDS] {
    hdl::axi::fixed_words_of(&hdl::CoreConfig {
        scrub: scrub.0,
        scrub_every: scrub.1,
        ..(*params).into()
    })
}

pub(crate) fn hash_code(params: &CoreParams) -> u32 {
    map::CONFIG_HASH.get(hdl::axi::fixed_words(params)[2].1)
}

impl Step {
    /// The step as one `stim.hex` line (44 hex digits).
    pub fn hex(&self) -> String {
        let word: (u64, u128) = match *self {
            // (bits 175:128, bits 127:0)
            Step::Request { gap, op, tag, key } => (
                ((KIND_REQUEST as u64) << 44)
                    | ((gap as u64) << 36)
                    | ((op as u64 & 3) << 8)
                    | tag as u64,
                key,
            ),
            Step::Write {
                addr,
                data,
                strobes,
                resp,
            } => (
                ((KIND_WRITE as u64) << 44)
                    | ((strobes as u64 & 0xf) << 40)
                    | ((resp as u64 & 3) << 36)
                    | ((addr as u64) << 24),
                (data as u128) << 96,
            ),
            Step::Read {
                addr,
                data,
                mask,
                poll_mask,
                poll_limit,
                resp,
            } => (
                ((KIND_READ as u64) << 44) | ((resp as u64 & 3) << 36) | ((addr as u64) << 24),
                ((data as u128) << 96)
                    | ((mask as u128) << 64)
                    | ((poll_mask as u128) << 32)
                    | poll_limit as u128,
            ),
        };
        format!("{:012x}{:032x}", word.0, word.1)
    }
}

fn end_step_hex() -> String {
    format!("{:012x}{:032x}", (KIND_END as u64) << 44, 0u128)
}

impl Vectors {
    /// The words of `config.hex`.
    pub fn config_words(&self) -> [u32; CONFIG_WORDS] {
        let p = &self.params;
        let fixed = fixed_words(p, (self.scrub, self.scrub_every));
        [
            MAGIC,
            FORMAT,
            p.k,
            p.bank_bits,
            p.key_bits,
            hash_code(p),
            p.seed as u32,
            (p.seed >> 32) as u32,
            self.steps.len() as u32,
            self.responses.len() as u32,
            fixed[2].1,
            fixed[3].1,
            fixed[4].1,
        ]
    }

    pub fn config_hex(&self) -> String {
        self.config_words()
            .iter()
            .map(|w| format!("{w:08x}\n"))
            .collect()
    }

    pub fn stim_hex(&self) -> String {
        let mut s = String::with_capacity((self.steps.len() + 1) * 45);
        for step in &self.steps {
            s += &step.hex();
            s.push('\n');
        }
        s += &end_step_hex();
        s.push('\n');
        s
    }

    pub fn expect_hex(&self) -> String {
        let mut s = String::with_capacity((self.responses.len() + 1) * 9);
        for r in &self.responses {
            s += &format!(
                "{:08x}\n",
                ((r.stall as u32) << 16) | ((r.hit as u32) << 8) | r.tag as u32
            );
        }
        s += &format!("{:08x}\n", (KIND_END as u32) << 28);
        s
    }

    /// `vectors.json`: what the set holds, for people (no testbench reads it).
    pub fn summary_json(&self) -> serde_json::Value {
        serde_json::json!({
            "format": FORMAT,
            "core": self.params,
            "traffic_seed": self.seed,
            "steps": self.steps.len(),
            "responses": self.responses.len(),
            "stats": self.stats,
        })
    }
}
