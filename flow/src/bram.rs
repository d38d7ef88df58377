//! Where each filter bit sits in a block RAM's initial contents, per family.
//!
//! A bank is a `2^b x 1` memory (hdl/src/core/ram.rs). Its block RAM cells are named
//! `...parts$P.ram.mem.0.C` (on iCE40 the bank instantiates them itself with Yosys's
//! inferred layout and names; on ECP5 Yosys maps them), cell `C` holding the bank's addresses
//! `C * 2^cell_bits ..`; the number comes from the name's suffix, never from the
//! order in which a netlist lists the cells (JSON lists `mem.0.10` before `mem.0.2`).
//! Inside a cell, filter bit `a` is one bit of the cell's initial contents:
//!
//! - iCE40, `SB_RAM40_4K` (Yosys 0.23 `synth_ice40`: READ_MODE 3, i.e. read as
//!   2048 x 2; written as 256 x 16 with a bit mask for b >= 12, as 2048 x 2 below):
//!   cell `a >> 12`, init bit `q = 16 * a[10:3] + 8 * a[11] + rev3(a[2:0])`, where
//!   `rev3(a[2:0]) = 4 a0 + 2 a1 + a2`. Yosys's model of the primitive keeps
//!   `INIT_n[16 i + j] = memory[16 n + i][j]` and in READ_MODE 3 reads
//!   `memory[RADDR[7:0]][8 * col + RADDR[10:8]]`; Yosys wires `RADDR[10] = a0,
//!   RADDR[9] = a1, RADDR[8] = a2, RADDR[7:0] = a[10:3]` and the column from a11.
//!   (icebram's READ_MODE 3 slice table, `subidx = {0,4,2,6,1,5,3,7}`, says the same.)
//! - ECP5, `DP16KD` (YoWASP Yosys 0.70 `synth_ecp5`: DATA_WIDTH 1 on both ports):
//!   cell `a >> 14`, 9-bit word `a[13:3]`, bit `a[2:0]`: init bit `9 * a[13:3] + a[2:0]`
//!   (in the x1, x2 and x4 modes the ninth bit of every word holds no data).
//!
//! These formulas depend on how Yosys maps memories, so a build does not trust them:
//! it checks them against its own netlist (every cell's type, mode and name, and,
//! for an image that is not all zeros or all ones, every bank bit at its place in
//! the cell's INIT), and records nothing it could not check (flow/src/swap/record.rs).
//!
//! A counting core's bank is `2^b x c` (hdl/src/counting/counter_ram.rs, c = 2..=8 bits per
//! counter). Bit j of counter a:
//!
//! - iCE40, READ_MODE 3, 2 or 1 (a cell of D = 2048, 1024 or 512 words of W = 2, 4
//!   or 8 bits; Yosys 0.23 picks by the bank's depth and width, e.g. READ_MODE 3 for
//!   2^12 x 4, 2 for 2^10 x 3, 1 for 2^8 x 8): the counter bits are cut into
//!   the bank is laid out as a memory of D words of c 2^b / D bits (the counters of
//!   a, a + D, a + 2D, .. side by side: bit i = c (a / D) + j of word a mod D), cut
//!   into cells of W bits: cell `i / W`, data bit `d = i mod W`, and inside it, with
//!   w = a mod D, t = log2 W and s = 4 - t, init bit `16 (w >> s) + (16 / W) rev_t(d) +
//!   rev_s(w mod 2^s)`: row `w >> s` of the 256 x 16 array, the column group of the
//!   data bit (its index bit-reversed: the primitive's read data pins in mode 2 and 1
//!   take the groups in that order), and in it the low address bits reversed (Yosys
//!   wires a0 to the highest column-select bit). For W = 2 this is the plain
//!   formula's place of address `w + 2048 (j mod 2)`. Found by solving the netlist's
//!   INIT against random counter images (2^10 x 3 in READ_MODE 2, 2^8 x 8 in 1), then
//!   proved by builds (2^12 x 3 is three cells: bits 0, 1 of a; bit 2 of a and bit 0 of
//!   a + 2048; bits 1, 2 of a + 2048).
//! - ECP5, DATA_WIDTH W of 1, 2, 4 (a cell of D = 16384 / W words of W bits) or 9
//!   (D = 2048), whichever Yosys picks for the bank's depth and width (YoWASP Yosys
//!   0.70: W = 4 for 2^8 x 4, W = 2 for 2^13 x 4, W = 9 for 2^8 x 6): for W <= 4 as
//!   on iCE40, bit i = c (a / D) + j of a D-word memory, cell `i / W`, and inside it
//!   the x1 formula's place of `W (a mod D) + (i mod W)` (eight data bits in every
//!   9-bit word); for W = 9 cell `a / D` and init bit `9 (a mod D) + j`.
//!
//! The build reads the mode off its netlist's cells, takes the map of that mode, and
//! checks it like the plain ones, with an image whose every counter bit is 0
//! somewhere and 1 somewhere in each bank.

use crate::board::Family;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mapping {
    /// iCE40 SB_RAM40_4K, read as 2048 x 2, a plain bank.
    #[serde(rename = "ice40-sb_ram40_4k-r2048x2")]
    Ice40Ram40,
    /// iCE40 SB_RAM40_4K, read as 2048 x 2, a bank of counters (two counter bits a cell).
    #[serde(rename = "ice40-sb_ram40_4k-r2048x2-counters")]
    Ice40Ram40Counters,
    /// iCE40 SB_RAM40_4K, read as 1024 x 4 (READ_MODE 2), a bank of counters.
    #[serde(rename = "ice40-sb_ram40_4k-r1024x4-counters")]
    Ice40Ram40X4Counters,
    /// iCE40 SB_RAM40_4K, read as 512 x 8 (READ_MODE 1), a bank of counters.
    #[serde(rename = "ice40-sb_ram40_4k-r512x8-counters")]
    Ice40Ram40X8Counters,
    /// ECP5 DP16KD, 16384 x 1.
    #[serde(rename = "ecp5-dp16kd-x1")]
    Ecp5Dp16kd,
    /// ECP5 DP16KD, 16384 x 1, a bank of counters (one counter bit a cell).
    #[serde(rename = "ecp5-dp16kd-x1-counters")]
    Ecp5Dp16kdX1Counters,
    /// ECP5 DP16KD, 8192 x 2, a bank of counters.
    #[serde(rename = "ecp5-dp16kd-x2")]
    Ecp5Dp16kdX2,
    /// ECP5 DP16KD, 4096 x 4, a bank of counters.
    #[serde(rename = "ecp5-dp16kd-x4")]
    Ecp5Dp16kdX4,
    /// ECP5 DP16KD, 2048 x 9, a bank of counters.
    #[serde(rename = "ecp5-dp16kd-x9")]
    Ecp5Dp16kdX9,
}

const REV3: [usize; 8] = [0, 4, 2, 6, 1, 5, 3, 7];

/// The low `bits` bits of `x`, in reverse order.
fn reverse(x: usize, bits: usize) -> usize {
    (0..bits).fold(0, |r, i| r | (((x >> i) & 1) << (bits - 1 - i)))
}

const ALL: [Mapping; 9] = [
    Mapping::Ice40Ram40,
    Mapping::Ice40Ram40Counters,
    Mapping::Ice40Ram40X4Counters,
    Mapping::Ice40Ram40X8Counters,
    Mapping::Ecp5Dp16kd,
    Mapping::Ecp5Dp16kdX1Counters,
    Mapping::Ecp5Dp16kdX2,
    Mapping::Ecp5Dp16kdX4,
    Mapping::Ecp5Dp16kdX9,
];

impl Mapping {
    /// The map of `family`'s block RAM in `mode` (iCE40 READ_MODE, ECP5 DATA_WIDTH) for
    /// counters of `counter_bits` (1: a plain bank), if there is one.
    pub fn of_mode(family: Family, counter_bits: u32, mode: u64) -> Option<Mapping> {
        ALL.into_iter().find(|m| {
            m.family() == family && m.mode() == mode && m.counter_bits().contains(&counter_bits)
        })
    }

    /// The map a build of `family` with counters of `counter_bits` expects when its
    /// netlist does not say (a plain bank's only one; for counters the widest mode).
    pub fn of(family: Family, counter_bits: u32) -> Mapping {
        match (family, counter_bits) {
            (Family::Ice40, 1) => Mapping::Ice40Ram40,
            (Family::Ice40, _) => Mapping::Ice40Ram40Counters,
            (Family::Ecp5, 1) => Mapping::Ecp5Dp16kd,
            (Family::Ecp5, 2) => Mapping::Ecp5Dp16kdX2,
            (Family::Ecp5, 3..=4) => Mapping::Ecp5Dp16kdX4,
            (Family::Ecp5, _) => Mapping::Ecp5Dp16kdX9,
        }
    }

    pub fn family(self) -> Family {
        match self {
            Mapping::Ice40Ram40
            | Mapping::Ice40Ram40Counters
            | Mapping::Ice40Ram40X4Counters
            | Mapping::Ice40Ram40X8Counters => Family::Ice40,
            _ => Family::Ecp5,
        }
    }

    /// The name a signature carries.
    pub fn name(self) -> &'static str {
        match self {
            Mapping::Ice40Ram40 => "ice40-sb_ram40_4k-r2048x2",
            Mapping::Ice40Ram40Counters => "ice40-sb_ram40_4k-r2048x2-counters",
            Mapping::Ice40Ram40X4Counters => "ice40-sb_ram40_4k-r1024x4-counters",
            Mapping::Ice40Ram40X8Counters => "ice40-sb_ram40_4k-r512x8-counters",
            Mapping::Ecp5Dp16kd => "ecp5-dp16kd-x1",
            Mapping::Ecp5Dp16kdX1Counters => "ecp5-dp16kd-x1-counters",
            Mapping::Ecp5Dp16kdX2 => "ecp5-dp16kd-x2",
            Mapping::Ecp5Dp16kdX4 => "ecp5-dp16kd-x4",
            Mapping::Ecp5Dp16kdX9 => "ecp5-dp16kd-x9",
        }
    }

    pub fn parse(name: &str) -> Option<Mapping> {
        ALL.into_iter().find(|m| m.name() == name)
    }

    /// The netlist cell type of the block RAM.
    pub fn cell_type(self) -> &'static str {
        match self.family() {
            Family::Ice40 => "SB_RAM40_4K",
            Family::Ecp5 => "DP16KD",
        }
    }

    /// The data width of the cell's ports: iCE40 READ_MODE (3: 2048 x 2) / ECP5 DATA_WIDTH.
    pub fn mode(self) -> u64 {
        match self {
            Mapping::Ice40Ram40 | Mapping::Ice40Ram40Counters => 3,
            Mapping::Ice40Ram40X4Counters => 2,
            Mapping::Ice40Ram40X8Counters => 1,
            Mapping::Ecp5Dp16kd | Mapping::Ecp5Dp16kdX1Counters => 1,
            Mapping::Ecp5Dp16kdX2 => 2,
            Mapping::Ecp5Dp16kdX4 => 4,
            Mapping::Ecp5Dp16kdX9 => 9,
        }
    }

    /// Bits of one cell's initial contents.
    pub fn init_bits(self) -> usize {
        match self.family() {
            Family::Ice40 => 4096,
            Family::Ecp5 => 18432,
        }
    }

    /// A counting map's cell: (log2 of its words, bits a word holds of a counter).
    fn counter_cell(self) -> (u32, u32) {
        match self {
            Mapping::Ice40Ram40Counters => (11, 2),
            Mapping::Ice40Ram40X4Counters => (10, 4),
            Mapping::Ice40Ram40X8Counters => (9, 8),
            Mapping::Ecp5Dp16kdX1Counters => (14, 1),
            Mapping::Ecp5Dp16kdX2 => (13, 2),
            Mapping::Ecp5Dp16kdX4 => (12, 4),
            Mapping::Ecp5Dp16kdX9 => (11, 9),
            Mapping::Ice40Ram40 | Mapping::Ecp5Dp16kd => (0, 0),
        }
    }

    /// Cells of one bank of `2^bank_bits` counters of `counter_bits` bits.
    pub fn cells_per_bank(self, bank_bits: u32, counter_bits: u32) -> usize {
        let depth = |address_bits: u32| 1usize << bank_bits.saturating_sub(address_bits);
        match self {
            Mapping::Ice40Ram40 => depth(12),
            Mapping::Ecp5Dp16kd => depth(14),
            Mapping::Ecp5Dp16kdX9 => depth(11),
            _ => {
                let (word_bits, width) = self.counter_cell();
                (counter_bits as usize * depth(word_bits)).div_ceil(width as usize)
            }
        }
    }

    /// The counter widths this map is for.
    pub fn counter_bits(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Mapping::Ice40Ram40 | Mapping::Ecp5Dp16kd => 1..=1,
            _ => 2..=8,
        }
    }

    /// (cell, init bit) of bit `j` of counter (or bit, j = 0) `a` of a bank whose
    /// counters have `counter_bits` bits.
    pub fn place(self, counter_bits: u32, a: usize, j: usize) -> (usize, usize) {
        let ice40 = |a: usize| {
            (
                a >> 12,
                16 * ((a >> 3) & 0xFF) + 8 * ((a >> 11) & 1) + REV3[a & 7],
            )
        };
        let ecp5 = |a: usize| (a >> 14, 9 * ((a & 0x3FFF) >> 3) + (a & 7));
        match self {
            Mapping::Ice40Ram40 => ice40(a),
            Mapping::Ecp5Dp16kd => ecp5(a),
            Mapping::Ecp5Dp16kdX9 => (a >> 11, 9 * (a & 0x7FF) + j),
            _ => {
                // The bank as a memory D words deep of c 2^b / D bits (the counters of
                // addresses a, a + D, a + 2D, .. side by side), cut into cells of W bits.
                let (word_bits, width) = self.counter_cell();
                let (width, word) = (width as usize, a & ((1 << word_bits) - 1));
                let bit = counter_bits as usize * (a >> word_bits) + j;
                let (cell, d) = (bit / width, bit % width);
                let q = match self.family() {
                    // Row, column group of the data bit, low address bits reversed.
                    Family::Ice40 => {
                        let t = width.trailing_zeros() as usize;
                        let s = 4 - t;
                        16 * (word >> s)
                            + (16 / width) * reverse(d, t)
                            + reverse(word & ((1 << s) - 1), s)
                    }
                    Family::Ecp5 => ecp5(width * word + d).1,
                };
                (cell, q)
            }
        }
    }

    /// Every cell's initial contents for one bank's values (bits for a plain bank,
    /// counters of `counter_bits` bits; other init bits 0).
    pub fn cells_of_bank(self, counter_bits: u32, bank: &[u8]) -> Vec<Vec<bool>> {
        let bank_bits = bank.len().trailing_zeros();
        let mut cells =
            vec![vec![false; self.init_bits()]; self.cells_per_bank(bank_bits, counter_bits)];
        for (a, &value) in bank.iter().enumerate() {
            for j in 0..counter_bits as usize {
                let (c, q) = self.place(counter_bits, a, j);
                cells[c][q] = (value >> j) & 1 == 1;
            }
        }
        cells
    }

    /// One bank's values read out of its cells' initial contents.
    pub fn bank_of_cells(self, bank_bits: u32, counter_bits: u32, cells: &[Vec<bool>]) -> Vec<u8> {
        (0..1usize << bank_bits)
            .map(|a| {
                (0..counter_bits as usize).fold(0u8, |v, j| {
                    let (c, q) = self.place(counter_bits, a, j);
                    v | (u8::from(cells[c][q]) << j)
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_address_has_its_own_init_bit() {
        for m in ALL {
            for c in m.counter_bits() {
                for b in 6..=16u32 {
                    let mut seen = std::collections::HashSet::new();
                    for a in 0..1usize << b {
                        for j in 0..c as usize {
                            let (cell, q) = m.place(c, a, j);
                            assert!(
                                cell < m.cells_per_bank(b, c) && q < m.init_bits(),
                                "{m:?} c={c} b={b} a={a} j={j}"
                            );
                            assert!(
                                seen.insert((cell, q)),
                                "{m:?} c={c} b={b}: bit {j} of {a} shares ({cell}, {q})"
                            );
                        }
                    }
                    // As few cells as the layout allows: every cell holds some bit.
                    let cells: std::collections::HashSet<usize> =
                        seen.iter().map(|(cell, _)| *cell).collect();
                    assert_eq!(cells.len(), m.cells_per_bank(b, c), "{m:?} c={c} b={b}");
                }
            }
        }
    }

    #[test]
    fn ice40_formula_spelled_out() {
        // a = 0b1_10110101_011: a11 = 1, a[10:3] = 0xB5, a[2:0] = 0b011 (a0 = 1, a1 = 1, a2 = 0).
        let a = (1 << 11) | (0xB5 << 3) | 0b011;
        assert_eq!(
            Mapping::Ice40Ram40.place(1, a, 0),
            (0, 16 * 0xB5 + 8 + 4 + 2)
        );
        assert_eq!(
            Mapping::Ice40Ram40.place(1, a + 3 * 4096, 0),
            (3, 16 * 0xB5 + 8 + 4 + 2)
        );
        // Cells of the bank come from the high bits, in numeric order.
        assert_eq!(
            Mapping::Ecp5Dp16kd.place(1, 2 * 16384 + 8 * 5 + 6, 0),
            (2, 9 * 5 + 6)
        );
        // Counters: bits 0 and 1 of a counter share a cell (its columns 0-7 and 8-15);
        // bits 2 and 3 are the next cell; the next 2048 counters the cells after.
        let a = (0xB5 << 3) | 0b011;
        assert_eq!(
            Mapping::Ice40Ram40Counters.place(4, a, 0),
            (0, 16 * 0xB5 + 4 + 2)
        );
        assert_eq!(
            Mapping::Ice40Ram40Counters.place(4, a, 1),
            (0, 16 * 0xB5 + 8 + 4 + 2)
        );
        assert_eq!(
            Mapping::Ice40Ram40Counters.place(4, a, 3),
            (1, 16 * 0xB5 + 8 + 4 + 2)
        );
        assert_eq!(
            Mapping::Ice40Ram40Counters.place(4, a + 2048, 2),
            (3, 16 * 0xB5 + 4 + 2)
        );
        // Odd c: the counters of a and a + 2048 side by side, 6 bits in three cells (as
        // Yosys lays out 2^12 x 3): bit 2 of a and bit 0 of a + 2048 share cell 1.
        assert_eq!(
            Mapping::Ice40Ram40Counters.place(3, a, 2),
            (1, 16 * 0xB5 + 4 + 2)
        );
        assert_eq!(
            Mapping::Ice40Ram40Counters.place(3, a + 2048, 0),
            (1, 16 * 0xB5 + 8 + 4 + 2)
        );
        assert_eq!(
            Mapping::Ice40Ram40Counters.place(3, a + 2048, 2),
            (2, 16 * 0xB5 + 8 + 4 + 2)
        );
        assert_eq!(Mapping::Ice40Ram40Counters.cells_per_bank(12, 3), 3);
        assert_eq!(Mapping::Ice40Ram40Counters.cells_per_bank(13, 5), 10);
        assert_eq!(
            Mapping::Ice40Ram40Counters.place(2, a + 2048, 1),
            (1, 16 * 0xB5 + 8 + 4 + 2)
        );
        // READ_MODE 3 counters: the plain formula's place of w + 2048 (j mod 2).
        for a in 0..4096 {
            for j in 0..4 {
                let (cell, q) = Mapping::Ice40Ram40Counters.place(4, a, j);
                assert_eq!(
                    (cell, q),
                    (
                        2 * (a >> 11) + j / 2,
                        Mapping::Ice40Ram40
                            .place(1, (a & 2047) + 2048 * (j % 2), 0)
                            .1
                    )
                );
            }
        }
        // READ_MODE 2 and 1: row w >> s, column (16 / W) (j mod W) + rev_s(w mod 2^s).
        // Counter bit 2 of 4 in group rev2(2) = 1; bit 1 of 8 in group rev3(1) = 4.
        assert_eq!(
            Mapping::Ice40Ram40X4Counters.place(3, (0x5A << 2) | 0b01, 2),
            (0, 16 * 0x5A + 4 + 2)
        );
        assert_eq!(
            Mapping::Ice40Ram40X4Counters.place(6, 1024 + 3, 5),
            (2, 12 + 3)
        );
        assert_eq!(
            Mapping::Ice40Ram40X8Counters.place(8, (0x3C << 1) | 1, 1),
            (0, 16 * 0x3C + 8 + 1)
        );
        assert_eq!(
            Mapping::Ice40Ram40X8Counters.place(8, 6, 3),
            (0, 16 * 3 + 12)
        );
        // ECP5: W bits a word of 8 data bits (and a ninth that holds none); 9 of 9 in x9.
        assert_eq!(Mapping::Ecp5Dp16kdX4.place(4, 5, 3), (0, 9 * 2 + 7));
        assert_eq!(Mapping::Ecp5Dp16kdX2.place(2, 8192 + 3, 1), (1, 7));
        assert_eq!(Mapping::Ecp5Dp16kdX9.place(8, 2048 + 10, 7), (1, 97));
        // Counters wider than W: slices of W bits, the next depth after all slices.
        assert_eq!(Mapping::Ecp5Dp16kdX2.place(4, 3, 3), (1, 7));
        assert_eq!(Mapping::Ecp5Dp16kdX2.place(4, 8192 + 3, 2), (3, 6));
        assert_eq!(
            Mapping::Ecp5Dp16kdX1Counters.place(3, 16384 + 9, 2),
            (5, 10)
        );
        assert_eq!(Mapping::Ecp5Dp16kdX4.place(6, 4096, 5), (2, 3));
    }

    #[test]
    fn cells_and_bank_round_trip() {
        let mut rng = 0x1234_5678_u64;
        for m in ALL {
            for c in m.counter_bits() {
                for b in [6u32, 11, 12, 13, 15] {
                    let bank: Vec<u8> = (0..1usize << b)
                        .map(|_| {
                            rng ^= rng << 13;
                            rng ^= rng >> 7;
                            rng ^= rng << 17;
                            (rng & ((1 << c) - 1)) as u8
                        })
                        .collect();
                    let cells = m.cells_of_bank(c, &bank);
                    assert_eq!(cells.len(), m.cells_per_bank(b, c));
                    assert_eq!(m.bank_of_cells(b, c, &cells), bank);
                    let ones: usize = cells.iter().map(|c| c.iter().filter(|x| **x).count()).sum();
                    assert_eq!(
                        ones,
                        bank.iter().map(|v| v.count_ones() as usize).sum::<usize>()
                    );
                }
            }
        }
    }

    #[test]
    fn every_counter_width_has_its_map_and_names_round_trip() {
        for family in [Family::Ice40, Family::Ecp5] {
            for c in 1..=8 {
                let m = Mapping::of(family, c);
                assert_eq!(m.family(), family);
                assert!(m.counter_bits().contains(&c), "{m:?} for c = {c}");
            }
        }
        for m in ALL {
            assert_eq!(Mapping::parse(m.name()), Some(m));
            for c in m.counter_bits() {
                assert_eq!(Mapping::of_mode(m.family(), c, m.mode()), Some(m));
            }
        }
        assert_eq!(Mapping::of_mode(Family::Ice40, 3, 0), None);
    }
}
