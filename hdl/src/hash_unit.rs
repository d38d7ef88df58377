//! Hash unit of one partition: `addr = (M * key) ^ c` over GF(2) (see `hash_matrix`),
//! for both families. Address bit j is the parity of the key bits its column selects,
//! pipelined once: those bits are split into groups of at most 16 (in key-bit order,
//! never across a 64-bit word of the key), each group's parity is registered, and the
//! registered parities (and the constant c) are XORed.
//!
//! The registers are laid out as layers: layer l holds, for every address bit j, the
//! parity of column j's l-th group (0 where the column has fewer groups), so the second
//! stage is `layer_0 ^ layer_1 ^ ... ^ c`.
//!
//! Latency: 1 cycle (`key` in cycle t -> `addr` in cycle t+1). No memory, so no
//! same-address behaviour. Bits of `addr` at and above bank_bits are zero.

use rust_hdl::prelude::*;

use crate::hash_matrix::HashMatrix;

// At most 16 key bits per registered parity: a 16-input XOR is two LUT4 levels (wider
// groups took three to four, and limited the iCE40 clock). Grouping the selected bits,
// rather than cutting the key into fixed 16-bit chunks, needs about 2.5 parities per
// address bit instead of W/16 = 4 for 64-bit keys: fewer flip-flops, and fewer
// popcounts per cycle in Verilator (the hash was half of the co-simulation's time).
const GROUP: usize = 16;
// Groups stay within one 64-bit word of the key, which Verilator holds in one integer.
const WORD: usize = 64;

#[derive(LogicBlock)]
pub struct HashUnit<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub key: Signal<In, Bits<W>>,
    pub addr: Signal<Out, Bits<16>>,
    _matrix: HashMatrix,
    /// `_groups[j]`: the key-bit masks of address bit j's groups, in layer order.
    _groups: Vec<Vec<u128>>,
    /// The registered layers (bit j of layer l = parity of group l of column j).
    _layer: Vec<u16>,
}

/// Splits each column's selected key bits into groups of at most `GROUP` bits, in
/// key-bit order, within each `WORD`-bit word of the key.
fn column_groups(matrix: &HashMatrix) -> Vec<Vec<u128>> {
    matrix
        .column_mask
        .iter()
        .map(|&column| {
            let mut groups = Vec::new();
            for word in (0..matrix.key_bits).step_by(WORD) {
                let mut group = 0u128;
                let mut size = 0;
                for i in word..(word + WORD).min(matrix.key_bits) {
                    if (column >> i) & 1 == 1 {
                        group |= 1u128 << i;
                        size += 1;
                        if size == GROUP {
                            groups.push(group);
                            group = 0;
                            size = 0;
                        }
                    }
                }
                if size > 0 {
                    groups.push(group);
                }
            }
            groups
        })
        .collect()
}

impl<const W: usize> HashUnit<W> {
    pub fn new(matrix: HashMatrix) -> Self {
        assert_eq!(matrix.key_bits, W);
        let groups = column_groups(&matrix);
        let layers = groups.iter().map(Vec::len).max().unwrap_or(0).max(1);
        HashUnit {
            clock: Default::default(),
            key: Default::default(),
            addr: Default::default(),
            _matrix: matrix,
            _groups: groups,
            _layer: vec![0; layers],
        }
    }

    fn group(&self, bit: usize, layer: usize) -> Option<u128> {
        self._groups[bit].get(layer).copied()
    }
}

impl<const W: usize> Logic for HashUnit<W> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let key = self.key.val().to_u128();
            for layer in 0..self._layer.len() {
                self._layer[layer] = (0..self._matrix.bank_bits)
                    .filter_map(|j| self.group(j, layer).map(|g| (((key & g).count_ones() & 1) as u16) << j))
                    .fold(0, |a, b| a | b);
            }
        }
        let addr = self._layer.iter().fold(self._matrix.constant, |a, p| a ^ p);
        self.addr.next = Bits::<16>::from(addr as u64);
    }

    fn connect(&mut self) {
        self.addr.connect();
    }

    fn hdl(&self) -> Verilog {
        let b = self._matrix.bank_bits;
        let layers = self._layer.len();
        let mut code = String::new();
        for l in 0..layers {
            code += &format!("reg [{}:0] layer_{l};\n", b - 1);
        }
        let mut loads = Vec::new();
        for l in 0..layers {
            let mut bits = Vec::new();
            for j in (0..b).rev() {
                let Some(group) = self.group(j, l) else {
                    bits.push("1'b0".to_string());
                    continue;
                };
                // One kept parity per group: the keep stops ABC sharing terms across
                // groups and partitions (which built four LUT levels, the iCE40 critical
                // path). The masked word is one popcount in Verilator.
                let lo = (group.trailing_zeros() as usize / WORD) * WORD;
                let hi = (lo + WORD).min(W) - 1;
                let width = hi + 1 - lo;
                let name = format!("parity_{l}_{j}");
                code += &format!(
                    "(* keep *) wire {name} = ^(key[{hi}:{lo}] & {width}'h{:x});\n",
                    group >> lo
                );
                bits.push(name);
            }
            loads.push(format!("    layer_{l} <= {{{}}};\n", bits.join(",\n        ")));
        }
        code += "always @(posedge clock) begin\n";
        for load in loads {
            code += &load;
        }
        code += "end\n";
        // Key bits that no column selects are deliberately unread (Verilator's idiom).
        code += "/* verilator lint_off UNUSED */\nwire unused_key = &{1'b0, key, 1'b0};\n/* verilator lint_on UNUSED */\n";
        let sum: Vec<String> = (0..layers)
            .map(|l| format!("layer_{l}"))
            .chain(std::iter::once(format!("{b}'h{:x}", self._matrix.constant)))
            .collect();
        let pad = if b < 16 { format!("{}'h0, ", 16 - b) } else { String::new() };
        code += &format!("always @(*) begin\n    addr = {{{pad}({})}};\nend\n", sum.join(" ^ "));
        Verilog::Custom(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{CoreConfig, HashKind};

    fn units(key_bits: usize, bank_bits: usize, hash: HashKind) -> Vec<HashMatrix> {
        let cfg = CoreConfig { k: 4, bank_bits, key_bits, hash, ..CoreConfig::default() };
        (0..cfg.k).map(|p| HashMatrix::for_partition(&cfg, p)).collect()
    }

    #[test]
    fn groups_partition_each_column_h3_and_crc_w32_w64_w128() {
        for hash in [HashKind::H3, HashKind::Crc] {
            for w in [32, 64, 128] {
                for m in units(w, 12, hash) {
                    for (j, groups) in column_groups(&m).iter().enumerate() {
                        let union = groups.iter().fold(0u128, |a, g| {
                            assert_eq!(a & g, 0, "groups overlap");
                            a | g
                        });
                        assert_eq!(union, m.column_mask[j], "groups cover column {j} exactly");
                        for g in groups {
                            assert!(g.count_ones() as usize <= GROUP);
                            let word = g.trailing_zeros() as usize / WORD;
                            assert_eq!((127 - g.leading_zeros() as usize) / WORD, word, "group straddles a word");
                        }
                    }
                }
            }
        }
    }
}
