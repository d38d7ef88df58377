//! The SPN family of contract §3.3 as hardware, written from the contract's text (its
//! S-box, rotations, rounds and round-key schedule restated here; nothing is taken from
//! the golden model): [`SpnNetwork`] elaborates, for one configuration and seed, every
//! LUT of the network, and writes it as a Verilog module.
//!
//! Mapping: output bit j of column i in round r of block t is one 4-input function of
//! that column's four state bits, the round key's four bits folded into its truth table
//! (`truth_table`); the plane rotations are wiring. A round of a W-bit block is W LUT4
//! on one level. Only the bits an address uses are computed in the last round (k b of
//! them, not blocks * W).
//!
//! Pipeline of the module (`spn_network_verilog`): a register after every second round
//! and after the last but one, so that between two flip-flops there are at most two LUT4
//! levels and the last round is one level after a register (the core's readback choice
//! can follow it in the same cycle, as it follows the H3 unit's final XOR). Latency
//! from `key` to the registered state feeding the last round: ceil((R - 1) / 2) cycles
//! (2 for R = 5, 3 for R = 6); `addr` is combinational from there. No memory.
//!
//! In the core, each partition's `HashUnit` (hash/unit.rs) holds the part of the
//! network its address needs ([`SpnNetwork::unit_verilog`]): the first R - 2 rounds of
//! the blocks its bits lie in, registered, then the last two rounds (the last one only
//! for its b bits), so the unit's latency is 1 cycle as H3's. The partitions' copies of
//! the registered rounds are the same logic on the same key register: synthesis merges
//! them when the units are not kept whole (verilog/mod.rs).

use crate::hash::splitmix::splitmix64_output;

/// RECTANGLE's S-box (contract §3.3).
pub const SBOX: [u8; 16] = [
    0x6, 0x5, 0xC, 0xA, 0x1, 0xE, 0x7, 0x9, 0xB, 0x0, 0x3, 0xD, 0x8, 0xF, 0x4, 0x2,
];

/// Rounds R and plane rotations (even rounds, odd rounds) per key width (contract §3.3).
fn schedule(key_bits: usize) -> (usize, [[usize; 4]; 2]) {
    match key_bits {
        32 => (5, [[0, 1, 2, 3], [0, 1, 3, 5]]),
        64 => (5, [[0, 1, 3, 6], [0, 4, 8, 12]]),
        128 => (6, [[0, 12, 16, 20], [0, 13, 15, 18]]),
        other => panic!("SPN key width {other} is not one of 32, 64, 128"),
    }
}

/// One configuration's network: every round key, per block and round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpnNetwork {
    pub key_bits: usize,
    pub bank_bits: usize,
    pub k: usize,
    pub rounds: usize,
    rho: [[usize; 4]; 2],
    /// `round_keys[t][r]` = K[t][r].
    round_keys: Vec<Vec<u128>>,
}

impl SpnNetwork {
    /// The network of k partitions of `bank_bits`-bit addresses for `key_bits`-bit keys.
    pub fn new(k: usize, bank_bits: usize, key_bits: usize, seed: u64) -> SpnNetwork {
        let (rounds, rho) = schedule(key_bits);
        let blocks = (k * bank_bits).div_ceil(key_bits);
        let round_keys = (0..blocks as u64)
            .map(|t| {
                (0..rounds as u64)
                    .map(|r| {
                        let j = 64 * t + 2 * r;
                        let low = splitmix64_output(seed, j) as u128;
                        match key_bits {
                            128 => low | (splitmix64_output(seed, j + 1) as u128) << 64,
                            64 => low,
                            _ => low & 0xFFFF_FFFF,
                        }
                    })
                    .collect()
            })
            .collect();
        SpnNetwork {
            key_bits,
            bank_bits,
            k,
            rounds,
            rho,
            round_keys,
        }
    }

    pub fn blocks(&self) -> usize {
        self.round_keys.len()
    }

    fn quarter(&self) -> usize {
        self.key_bits / 4
    }

    /// State bit of plane j, column i.
    fn bit_index(&self, plane: usize, column: usize) -> usize {
        plane * self.quarter() + column
    }

    /// Where output bit `plane` of column `column` in round `round` goes (its rotation).
    fn destination(&self, round: usize, plane: usize, column: usize) -> usize {
        let q = self.quarter();
        self.bit_index(plane, (column + self.rho[round % 2][plane]) % q)
    }

    /// The LUT of output bit `plane` of column `column` in round `round` of block
    /// `block`: bit v of the value is the output for the column's input value v (bit j of
    /// v = state bit of plane j), the round key folded in.
    pub fn truth_table(&self, block: usize, round: usize, column: usize, plane: usize) -> u16 {
        let key = self.round_keys[block][round];
        let key_column = (0..4).fold(0usize, |c, j| {
            c | (((key >> self.bit_index(j, column)) & 1) as usize) << j
        });
        (0..16).fold(0u16, |table, v| {
            table | ((((SBOX[v ^ key_column] >> plane) & 1) as u16) << v)
        })
    }

    /// One round of block `block` on `state`, through the truth tables.
    fn round(&self, block: usize, round: usize, state: u128) -> u128 {
        let mut next = 0u128;
        for column in 0..self.quarter() {
            let v = (0..4).fold(0usize, |v, j| {
                v | (((state >> self.bit_index(j, column)) & 1) as usize) << j
            });
            for plane in 0..4 {
                let bit = (self.truth_table(block, round, column, plane) >> v) & 1;
                next |= (bit as u128) << self.destination(round, plane, column);
            }
        }
        next
    }

    /// Block `block` of `key`: the state after every round.
    pub fn block(&self, block: usize, key: u128) -> u128 {
        (0..self.rounds).fold(key, |state, r| self.round(block, r, state))
    }

    /// The k addresses of `key` (stream bit p b + j is address bit j of partition p).
    pub fn addresses(&self, key: u128) -> Vec<u16> {
        let blocks: Vec<u128> = (0..self.blocks()).map(|t| self.block(t, key)).collect();
        (0..self.k)
            .map(|p| {
                (0..self.bank_bits).fold(0u16, |a, j| {
                    let g = p * self.bank_bits + j;
                    let bit = (blocks[g / self.key_bits] >> (g % self.key_bits)) & 1;
                    a | (bit as u16) << j
                })
            })
            .collect()
    }

    /// Blocks holding partition `p`'s address bits.
    pub fn blocks_of(&self, p: usize) -> std::ops::Range<usize> {
        let first = p * self.bank_bits / self.key_bits;
        let last = (p * self.bank_bits + self.bank_bits - 1) / self.key_bits;
        first..last + 1
    }

    /// Rounds a core's hash unit computes before its register: R - 2.
    pub fn unit_rounds_before_register(&self) -> usize {
        self.rounds - 2
    }

    /// Block `block`'s state after rounds `from..to` applied to `state`.
    pub fn rounds_between(&self, block: usize, state: u128, from: usize, to: usize) -> u128 {
        (from..to).fold(state, |s, r| self.round(block, r, s))
    }

    /// Partition `p`'s address from the final states of its blocks (`finals[i]` is block
    /// `blocks_of(p).start + i`).
    pub fn address_from(&self, p: usize, finals: &[u128]) -> u16 {
        let first = self.blocks_of(p).start;
        (0..self.bank_bits).fold(0u16, |a, j| {
            let g = p * self.bank_bits + j;
            let bit = (finals[g / self.key_bits - first] >> (g % self.key_bits)) & 1;
            a | (bit as u16) << j
        })
    }

    /// One round as Verilog: `output` (a W-bit wire) from `input`, computing only the
    /// output bits `wanted` accepts (the others are 0).
    fn round_verilog(
        &self,
        block: usize,
        round: usize,
        input: &str,
        output: &str,
        wanted: impl Fn(usize) -> bool,
    ) -> String {
        let mut v = format!("wire [{}:0] {output};\n", self.key_bits - 1);
        for column in 0..self.quarter() {
            let inputs: Vec<String> = (0..4)
                .rev()
                .map(|j| format!("{input}[{}]", self.bit_index(j, column)))
                .collect();
            for plane in 0..4 {
                let to = self.destination(round, plane, column);
                if !wanted(to) {
                    v += &format!("assign {output}[{to}] = 1'b0;\n");
                    continue;
                }
                let table = self.truth_table(block, round, column, plane);
                let lut = format!("{output}_t{to}");
                v += &format!("wire [15:0] {lut} = 16'h{table:04x};\n");
                v += &format!(
                    "assign {output}[{to}] = {lut}[{{{}}}];\n",
                    inputs.join(", ")
                );
            }
        }
        v
    }

    /// The body of partition `p`'s hash unit (ports `clock`, `key`, `addr` [15:0], a
    /// `reg`): rounds 0..R-2 of its blocks from `key`, registered, then the last two
    /// rounds, the last only for its address bits; bits of `addr` at and above b are 0.
    pub fn unit_verilog(&self, p: usize) -> String {
        let w = self.key_bits;
        let split = self.unit_rounds_before_register();
        let mut v = String::new();
        for t in self.blocks_of(p) {
            let mut previous = "key".to_string();
            for r in 0..split {
                let out = format!("b{t}_r{r}");
                v += &self.round_verilog(t, r, &previous, &out, |_| true);
                previous = out;
            }
            v += &format!("reg [{}:0] state{t};\n", w - 1);
            v += &format!("always @(posedge clock) state{t} <= {previous};\n");
            previous = format!("state{t}");
            for r in split..self.rounds {
                let out = format!("b{t}_r{r}");
                let low = p * self.bank_bits;
                let high = low + self.bank_bits;
                if r + 1 == self.rounds {
                    v += &self.round_verilog(t, r, &previous, &out, |bit| {
                        (low..high).contains(&(t * w + bit))
                    });
                } else {
                    v += &self.round_verilog(t, r, &previous, &out, |_| true);
                }
                previous = out;
            }
        }
        let bits: Vec<String> = (0..self.bank_bits)
            .rev()
            .map(|j| {
                let g = p * self.bank_bits + j;
                format!("b{}_r{}[{}]", g / w, self.rounds - 1, g % w)
            })
            .collect();
        let pad = if self.bank_bits < 16 {
            format!("{}'h0, ", 16 - self.bank_bits)
        } else {
            String::new()
        };
        v += &format!(
            "always @(*) begin\n    addr = {{{pad}{}}};\nend\n",
            bits.join(", ")
        );
        // Bits of the last round other partitions use are constant here.
        v += "/* verilator lint_off UNUSED */\n";
        for t in self.blocks_of(p) {
            v += &format!(
                "wire unused_b{t} = &{{1'b0, b{t}_r{}, 1'b0}};\n",
                self.rounds - 1
            );
        }
        v += "/* verilator lint_on UNUSED */\n";
        v
    }

    /// Rounds after which the state is registered: every second one, and the last but one.
    pub fn registered_after(&self, round: usize) -> bool {
        round + 1 < self.rounds && ((round + 1).is_multiple_of(2) || round + 2 == self.rounds)
    }

    /// Cycles from `key` to the register feeding the last round.
    pub fn latency(&self) -> usize {
        (self.rounds - 1).div_ceil(2)
    }

    /// The network as a Verilog module `name(clock, key, addr)`: `addr` holds the k
    /// addresses, partition p in bits [p b + b - 1 : p b], combinational from the last
    /// register. Kept whole in synthesis, like the H3 units.
    pub fn verilog(&self, name: &str) -> String {
        self.verilog_with(name, true)
    }

    /// [`SpnNetwork::verilog`] with no registers at all (`registers` false): the same
    /// logic as one combinational function, for checking it by evaluation.
    pub fn verilog_with(&self, name: &str, registers: bool) -> String {
        let (w, q) = (self.key_bits, self.quarter());
        let total = self.k * self.bank_bits;
        let mut v = format!(
            "(* keep_hierarchy *)\nmodule {name}(clock, key, addr);\ninput clock;\ninput [{}:0] key;\noutput [{}:0] addr;\n",
            w - 1,
            total - 1
        );
        // Stream bits the addresses use, per block: the last round computes only these.
        let used = |t: usize, bit: usize| t * w + bit < total;
        for t in 0..self.blocks() {
            let mut previous = "key".to_string();
            for r in 0..self.rounds {
                let last = r + 1 == self.rounds;
                let state = format!("b{t}_r{r}");
                let registered = registers && self.registered_after(r);
                v += &format!(
                    "{} [{}:0] {state};\n",
                    if registered { "reg" } else { "wire" },
                    w - 1
                );
                for column in 0..q {
                    let inputs: Vec<String> = (0..4)
                        .rev()
                        .map(|j| format!("{previous}[{}]", self.bit_index(j, column)))
                        .collect();
                    for plane in 0..4 {
                        let to = self.destination(r, plane, column);
                        if last && !used(t, to) {
                            v += &format!("assign {state}[{to}] = 1'b0;\n");
                            continue;
                        }
                        let table = self.truth_table(t, r, column, plane);
                        let lut = format!("{state}_t{to}");
                        v += &format!("wire [15:0] {lut} = 16'h{table:04x};\n");
                        let index = format!("{lut}[{{{}}}]", inputs.join(", "));
                        if registered {
                            v += &format!("always @(posedge clock) {state}[{to}] <= {index};\n");
                        } else {
                            v += &format!("assign {state}[{to}] = {index};\n");
                        }
                    }
                }
                previous = state;
            }
        }
        let bits: Vec<String> = (0..total)
            .rev()
            .map(|g| format!("b{}_r{}[{}]", g / w, self.rounds - 1, g % w))
            .collect();
        v += &format!("assign addr = {{{}}};\n", bits.join(", "));
        // The last round's unused bits are constant; Verilator's idiom for unread bits.
        v += "/* verilator lint_off UNUSED */\n";
        for t in 0..self.blocks() {
            v += &format!(
                "wire unused_b{t} = &{{1'b0, b{t}_r{}, 1'b0}};\n",
                self.rounds - 1
            );
        }
        v += "/* verilator lint_on UNUSED */\nendmodule\n";
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sbox_is_a_permutation_and_tables_fold_the_key() {
        let mut seen = [false; 16];
        for s in SBOX {
            seen[s as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        let net = SpnNetwork::new(4, 12, 64, 0);
        // K[0][0] for seed 0 is SplitMix64 output 0 (contract §3.1's known answer).
        assert_eq!(net.round_keys[0][0], 0xE220_A839_7B1D_CDAF);
        assert_eq!(net.blocks(), 1);
        assert_eq!(SpnNetwork::new(7, 13, 32, 0).blocks(), 3);
        assert_eq!(net.latency(), 2);
        assert_eq!(SpnNetwork::new(4, 12, 128, 0).latency(), 3);
    }
}
