//! The Feistel family's network (contract §3.4), written from the contract: one network
//! for the whole core, beside the control, whose output blocks every partition's unit
//! takes its address bits from (hash/unit.rs).
//!
//! A round is h = W/2 LUT4s on one level: bit j of X_(i+1) is a function of X_(i-1)[j]
//! and three bits of X_i, with the round key folded into its truth table. Two rounds per
//! pipeline stage, as the core's rule of at most two LUT4 levels between flip-flops
//! asks (core/top.rs), the first two from the key input itself (the request's key as
//! the core is asked, as H3's units take it: two LUT4 levels from the port):
//!
//!   cycle 1  (X_2, X_3)
//!   cycle 2  (X_4, X_5)
//!   cycle 3  (X_6, X_7)
//!   cycle 4  (X_8, X_9): the blocks, on `stream`
//!
//! A register for the key in front of the rounds (latency 5) held 64 flip-flops more
//! and cost the core its Fmax on UP5K: 86.81 MHz median over 20 seeds, against 92.91
//! without it (docs/theory.md, "The Feistel family in the core").
//!
//! Latency: `key` in cycle t -> the blocks of that key on `stream` in cycle t + 4
//! ([`LATENCY`]). No memory, so no same-address behaviour. `stream` holds whole blocks
//! (ceil(k b / W) of them); its bits above them are zero.
//!
//! The module is kept whole in synthesis (its name holds `hash`, verilog/mod.rs
//! `keep_whole`), so its cost is what `bloom fmax` reports as the hash units'.

use rust_hdl::prelude::*;

use bloom_params::HashFamily;

use crate::config::CoreConfig;
use crate::hash::splitmix::splitmix64_output;

/// Rounds per block (contract §3.4).
pub const ROUNDS: usize = 8;

/// Registers from `key` to `stream`: one after every two rounds.
pub const LATENCY: usize = ROUNDS / 2;

/// The width of `stream`: k b <= 16 * 16 bits.
pub const STREAM_BITS: usize = 256;

/// The tap sets (s1, s2, s3) of rounds 1, 3, 5, 7 and of rounds 2, 4, 6, 8, for a
/// W-bit key (contract §3.4's table).
fn taps(key_bits: usize) -> [[usize; 3]; 2] {
    match key_bits {
        32 => [[0, 1, 12], [2, 8, 11]],
        64 => [[0, 5, 14], [11, 24, 26]],
        other => panic!("the Feistel family is defined for 32- and 64-bit keys, not {other}"),
    }
}

/// The network of one configuration: its blocks' round keys.
#[derive(Clone, Debug, PartialEq)]
pub struct FeistelNetwork {
    pub key_bits: usize,
    /// k b: the stream bits the partitions take.
    pub stream_bits: usize,
    /// `keys[t][i - 1]` = (KIN, KOUT) of round i of block t.
    keys: Vec<Vec<(u64, u64)>>,
}

impl FeistelNetwork {
    /// The network of a core of `cfg`, if its family is Feistel. (Under the test switch
    /// that builds one bank's unit from another seed, the one network is built from it.)
    pub fn of(cfg: &CoreConfig) -> Option<FeistelNetwork> {
        (cfg.params.hash == HashFamily::Feistel).then(|| {
            let seed = (0..cfg.k())
                .map(|p| cfg.seed_of_bank(p))
                .find(|&s| s != cfg.params.seed)
                .unwrap_or(cfg.params.seed);
            FeistelNetwork::new(cfg.k(), cfg.bank_bits(), cfg.key_bits(), seed)
        })
    }

    pub fn new(k: usize, bank_bits: usize, key_bits: usize, seed: u64) -> FeistelNetwork {
        taps(key_bits);
        let half = key_bits / 2;
        let mask = (1u64 << half) - 1;
        let stream_bits = k * bank_bits;
        let blocks = stream_bits.div_ceil(key_bits);
        let keys = (0..blocks)
            .map(|t| {
                (1..=ROUNDS)
                    .map(|i| {
                        let key = splitmix64_output(seed, (64 * t + i - 1) as u64);
                        (key & mask, (key >> half) & mask)
                    })
                    .collect()
            })
            .collect();
        FeistelNetwork {
            key_bits,
            stream_bits,
            keys,
        }
    }

    pub fn blocks(&self) -> usize {
        self.keys.len()
    }

    fn half(&self) -> usize {
        self.key_bits / 2
    }

    /// Bit j of X_(i+1), from X_(i-1)[j] and X_i, for round i (1-based) of block t.
    fn round_bit(&self, t: usize, i: usize, before: u64, x: u64, j: usize) -> u64 {
        let h = self.half();
        let (kin, kout) = self.keys[t][i - 1];
        let y = x ^ kin;
        let [s1, s2, s3] = taps(self.key_bits)[(i - 1) % 2];
        let bit = |v: u64, s: usize| (v >> ((j + s) % h)) & 1;
        let g = bit(y, s1) ^ ((bit(y, s2) ^ 1) & bit(y, s3));
        ((before >> j) & 1) ^ g ^ ((kout >> j) & 1)
    }

    /// Rounds `from + 1 ..= to` of block t on the pair (X_from-1, X_from) given as
    /// (before, x): the pair (X_to-1, X_to).
    pub fn rounds(&self, t: usize, pair: (u64, u64), from: usize, to: usize) -> (u64, u64) {
        let (mut before, mut x) = pair;
        for i in from..to {
            let next =
                (0..self.half()).fold(0, |acc, j| acc | self.round_bit(t, i, before, x, j) << j);
            (before, x) = (x, next);
        }
        (before, x)
    }

    /// The pair (X_0, X_1) of a key.
    pub fn halves(&self, key: u128) -> (u64, u64) {
        let mask = (1u64 << self.half()) - 1;
        (key as u64 & mask, (key >> self.half()) as u64 & mask)
    }

    /// Block t from its last pair (X_R, X_(R+1)): X_(R+1) low, X_R high.
    pub fn block_from(&self, last: (u64, u64)) -> u128 {
        last.1 as u128 | (last.0 as u128) << self.half()
    }

    /// The stream of `key`: block t in bits t W .. t W + W - 1, cut to k b bits.
    pub fn stream(&self, key: u128) -> Vec<bool> {
        let mut bits = Vec::with_capacity(self.stream_bits);
        for t in 0..self.blocks() {
            let last = self.rounds(t, self.halves(key), 1, ROUNDS + 1);
            let block = self.block_from(last);
            bits.extend((0..self.key_bits).map(|g| (block >> g) & 1 == 1));
        }
        bits.truncate(self.stream_bits);
        bits
    }

    /// Partition p's address of `key` (b bits of the stream from p b).
    pub fn address(&self, key: u128, p: usize, bank_bits: usize) -> u16 {
        let stream = self.stream(key);
        (0..bank_bits).fold(0, |a, j| a | (stream[p * bank_bits + j] as u16) << j)
    }

    /// The Verilog of one bit of X_(i+1) from X_(i-1) and X_i, the round key's bits as
    /// inversions. X_i of a stage's second round (even i) is its first round's wire.
    fn round_bit_verilog(&self, t: usize, i: usize, j: usize) -> String {
        let h = self.half();
        let (kin, kout) = self.keys[t][i - 1];
        let [s1, s2, s3] = taps(self.key_bits)[(i - 1) % 2];
        let x_i = if i.is_multiple_of(2) {
            format!("x{i}_{t}_w")
        } else {
            format!("x{i}_{t}")
        };
        let y = |s: usize, invert: bool| {
            let index = (j + s) % h;
            let flip = ((kin >> index) & 1 == 1) ^ invert;
            format!("{}{x_i}[{index}]", if flip { "~" } else { "" })
        };
        let out_flip = if (kout >> j) & 1 == 1 { "~" } else { "" };
        format!(
            "{out_flip}(x{}_{t}[{j}] ^ ({} ^ ({} & {})))",
            i - 1,
            y(s1, false),
            y(s2, true),
            y(s3, false)
        )
    }

    /// The module's body: ports `clock`, `key` (W bits), `stream` (256 bits).
    pub fn verilog(&self) -> String {
        let h = self.half();
        let top = h - 1;
        let mut v = String::new();
        let mut loads = String::new();
        for t in 0..self.blocks() {
            v += &format!("wire [{top}:0] x0_{t} = key[{top}:0];\n");
            v += &format!("wire [{top}:0] x1_{t} = key[{}:{h}];\n", self.key_bits - 1);
            for i in 1..=ROUNDS {
                let bits: Vec<String> = (0..h)
                    .rev()
                    .map(|j| self.round_bit_verilog(t, i, j))
                    .collect();
                // A stage's first round on kept wires: one LUT4 per bit, which its second
                // round reads (ABC would otherwise fold the two into wider functions).
                let keep = if i % 2 == 1 { "(* keep *) " } else { "" };
                let next = i + 1;
                v += &format!(
                    "{keep}wire [{top}:0] x{next}_{t}_w = {{{}}};\nreg [{top}:0] x{next}_{t};\n",
                    bits.join(",\n    ")
                );
                loads += &format!("    x{next}_{t} <= x{next}_{t}_w;\n");
            }
        }
        v += &format!("always @(posedge clock) begin\n{loads}end\n");
        // stream = {..., block 1, block 0}; block t = {X_R, X_(R+1)}.
        let mut out = Vec::new();
        for t in (0..self.blocks()).rev() {
            out.push(format!("x{ROUNDS}_{t}"));
            out.push(format!("x{}_{t}", ROUNDS + 1));
        }
        let used = self.blocks() * self.key_bits;
        let pad = if used < STREAM_BITS {
            format!("{}'d0, ", STREAM_BITS - used)
        } else {
            String::new()
        };
        v += &format!("always @(*) stream = {{{pad}{}}};\n", out.join(", "));
        v
    }
}

/// The network as a block: `key` (the request's key in c0, unregistered) in, its blocks
/// out [`LATENCY`] cycles later. Built without a network (the other families, whose
/// units hash the key themselves), `stream` is 0 and nothing is registered.
#[derive(LogicBlock)]
pub struct FeistelHash<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub key: Signal<In, Bits<W>>,
    pub stream: Signal<Out, Bits<STREAM_BITS>>,
    _network: Option<FeistelNetwork>,
    /// Each block's pair after rounds 2, 4, 6, 8.
    _pairs: Vec<[(u64, u64); 4]>,
}

impl<const W: usize> FeistelHash<W> {
    pub fn new(network: Option<FeistelNetwork>) -> Self {
        let blocks = network.as_ref().map_or(0, |n| {
            assert_eq!(n.key_bits, W);
            n.blocks()
        });
        FeistelHash {
            clock: Default::default(),
            key: Default::default(),
            stream: Default::default(),
            _network: network,
            _pairs: vec![[(0, 0); 4]; blocks],
        }
    }
}

impl<const W: usize> Logic for FeistelHash<W> {
    fn update(&mut self) {
        let Some(net) = &self._network else {
            self.stream.next = Bits::<STREAM_BITS>::default();
            return;
        };
        if self.clock.pos_edge() {
            for (t, pairs) in self._pairs.iter_mut().enumerate() {
                // Last stage first: each register takes the one before it.
                for s in (1..4).rev() {
                    pairs[s] = net.rounds(t, pairs[s - 1], 2 * s + 1, 2 * s + 3);
                }
                pairs[0] = net.rounds(t, net.halves(self.key.val().to_u128()), 1, 3);
            }
        }
        let mut stream = Bits::<STREAM_BITS>::default();
        for (t, pairs) in self._pairs.iter().enumerate() {
            let block = net.block_from(pairs[3]);
            for g in 0..W {
                stream = stream.replace_bit(t * W + g, (block >> g) & 1 == 1);
            }
        }
        self.stream.next = stream;
    }

    fn connect(&mut self) {
        self.stream.connect();
    }

    fn hdl(&self) -> Verilog {
        match &self._network {
            Some(net) => Verilog::Custom(net.verilog()),
            None => Verilog::Custom(format!(
                "always @(*) stream = {STREAM_BITS}'d0;\n/* verilator lint_off UNUSED */\nwire unused_key = &{{1'b0, clock, key, 1'b0}};\n/* verilator lint_on UNUSED */\n"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Contract §3.4's test vectors (docs/contract.md), against this network.
    #[test]
    fn addresses_equal_the_contract_vectors() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/contract.md"))
                .unwrap();
        let section = &text[text.find("### 3.4 Feistel").unwrap()..];
        let table = &section[section
            .find("| W | k | b | seed | key | addresses |")
            .unwrap()..];
        let rows: Vec<Vec<&str>> = table
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
            .collect();
        assert_eq!(rows.len(), 7);
        let hex = |s: &str| u128::from_str_radix(s.trim_start_matches("0x"), 16).unwrap();
        for row in rows {
            let (w, k, b) = (
                row[0].parse::<usize>().unwrap(),
                row[1].parse::<usize>().unwrap(),
                row[2].parse::<usize>().unwrap(),
            );
            let (seed, key) = (hex(row[3]) as u64, hex(row[4]));
            let net = FeistelNetwork::new(k, b, w, seed);
            let got: Vec<String> = (0..k)
                .map(|p| format!("{:x}", net.address(key, p, b)))
                .collect();
            assert_eq!(got.join(" "), row[5], "{row:?}");
        }
    }
}
