//! Where each filter bit sits in a block RAM's initial contents, per family.
//!
//! A bank is a `2^b x 1` memory (hdl/src/ram.rs). Yosys maps it to block RAM cells
//! named `...parts$P.ram.mem.0.C`, cell `C` holding the bank's addresses
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
//! the cell's INIT), and records nothing it could not check (flow/src/swap.rs).

use crate::board::Family;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mapping {
    /// iCE40 SB_RAM40_4K, read as 2048 x 2.
    #[serde(rename = "ice40-sb_ram40_4k-r2048x2")]
    Ice40Ram40,
    /// ECP5 DP16KD, 16384 x 1.
    #[serde(rename = "ecp5-dp16kd-x1")]
    Ecp5Dp16kd,
}

const REV3: [usize; 8] = [0, 4, 2, 6, 1, 5, 3, 7];

impl Mapping {
    pub fn of(family: Family) -> Mapping {
        match family {
            Family::Ice40 => Mapping::Ice40Ram40,
            Family::Ecp5 => Mapping::Ecp5Dp16kd,
        }
    }

    pub fn family(self) -> Family {
        match self {
            Mapping::Ice40Ram40 => Family::Ice40,
            Mapping::Ecp5Dp16kd => Family::Ecp5,
        }
    }

    /// The name a signature carries.
    pub fn name(self) -> &'static str {
        match self {
            Mapping::Ice40Ram40 => "ice40-sb_ram40_4k-r2048x2",
            Mapping::Ecp5Dp16kd => "ecp5-dp16kd-x1",
        }
    }

    pub fn parse(name: &str) -> Option<Mapping> {
        [Mapping::Ice40Ram40, Mapping::Ecp5Dp16kd].into_iter().find(|m| m.name() == name)
    }

    /// The netlist cell type of the block RAM.
    pub fn cell_type(self) -> &'static str {
        match self {
            Mapping::Ice40Ram40 => "SB_RAM40_4K",
            Mapping::Ecp5Dp16kd => "DP16KD",
        }
    }

    /// Filter address bits one cell holds.
    pub fn cell_address_bits(self) -> u32 {
        match self {
            Mapping::Ice40Ram40 => 12,
            Mapping::Ecp5Dp16kd => 14,
        }
    }

    /// Bits of one cell's initial contents.
    pub fn init_bits(self) -> usize {
        match self {
            Mapping::Ice40Ram40 => 4096,
            Mapping::Ecp5Dp16kd => 18432,
        }
    }

    /// Cells of one `2^bank_bits`-bit bank.
    pub fn cells_per_bank(self, bank_bits: u32) -> usize {
        1usize << bank_bits.saturating_sub(self.cell_address_bits())
    }

    /// (cell, init bit) of filter address `a`.
    pub fn place(self, a: usize) -> (usize, usize) {
        match self {
            Mapping::Ice40Ram40 => (a >> 12, 16 * ((a >> 3) & 0xFF) + 8 * ((a >> 11) & 1) + REV3[a & 7]),
            Mapping::Ecp5Dp16kd => (a >> 14, 9 * ((a & 0x3FFF) >> 3) + (a & 7)),
        }
    }

    /// Every cell's initial contents for one bank's bits (other init bits 0).
    pub fn cells_of_bank(self, bank: &[bool]) -> Vec<Vec<bool>> {
        let bank_bits = bank.len().trailing_zeros();
        let mut cells = vec![vec![false; self.init_bits()]; self.cells_per_bank(bank_bits)];
        for (a, &bit) in bank.iter().enumerate() {
            let (c, q) = self.place(a);
            cells[c][q] = bit;
        }
        cells
    }

    /// One bank's bits read out of its cells' initial contents.
    pub fn bank_of_cells(self, bank_bits: u32, cells: &[Vec<bool>]) -> Vec<bool> {
        (0..1usize << bank_bits)
            .map(|a| {
                let (c, q) = self.place(a);
                cells[c][q]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_address_has_its_own_init_bit() {
        for m in [Mapping::Ice40Ram40, Mapping::Ecp5Dp16kd] {
            for b in 6..=16u32 {
                let mut seen = std::collections::HashSet::new();
                for a in 0..1usize << b {
                    let (c, q) = m.place(a);
                    assert!(c < m.cells_per_bank(b) && q < m.init_bits(), "{m:?} b={b} a={a}");
                    assert!(seen.insert((c, q)), "{m:?} b={b}: address {a} shares ({c}, {q})");
                }
            }
        }
    }

    #[test]
    fn ice40_formula_spelled_out() {
        // a = 0b1_10110101_011: a11 = 1, a[10:3] = 0xB5, a[2:0] = 0b011 (a0 = 1, a1 = 1, a2 = 0).
        let a = (1 << 11) | (0xB5 << 3) | 0b011;
        assert_eq!(Mapping::Ice40Ram40.place(a), (0, 16 * 0xB5 + 8 + 4 + 2));
        assert_eq!(Mapping::Ice40Ram40.place(a + 3 * 4096), (3, 16 * 0xB5 + 8 + 4 + 2));
        // Cells of the bank come from the high bits, in numeric order.
        assert_eq!(Mapping::Ecp5Dp16kd.place(2 * 16384 + 8 * 5 + 6), (2, 9 * 5 + 6));
    }

    #[test]
    fn cells_and_bank_round_trip() {
        let mut rng = 0x1234_5678_u64;
        for m in [Mapping::Ice40Ram40, Mapping::Ecp5Dp16kd] {
            for b in [6u32, 11, 12, 13, 15] {
                let bank: Vec<bool> = (0..1usize << b)
                    .map(|_| {
                        rng ^= rng << 13;
                        rng ^= rng >> 7;
                        rng ^= rng << 17;
                        rng & 1 == 1
                    })
                    .collect();
                let cells = m.cells_of_bank(&bank);
                assert_eq!(cells.len(), m.cells_per_bank(b));
                assert_eq!(m.bank_of_cells(b, &cells), bank);
                let ones: usize = cells.iter().map(|c| c.iter().filter(|x| **x).count()).sum();
                assert_eq!(ones, bank.iter().filter(|x| **x).count());
            }
        }
    }
}
