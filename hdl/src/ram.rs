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
//! Initial contents: the preloaded image's 1 bits are listed in an `initial` block; every
//! other bit powers up 0 (Yosys gives uninitialised block-RAM words the value 0 in iCE40
//! and ECP5 bitstreams; Verilator zero-initialises unless run with randomised reset
//! values). An all-zero bank has no `initial` block at all: a loop over 2^16 words per
//! bank costs Yosys minutes. An ASIC SRAM powers up random: issue a clear after reset.

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
        assert_eq!(mem.len(), size, "initial contents must hold 2^bank_bits bits");
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
        let ones: String = self
            ._initial
            .iter()
            .enumerate()
            .filter(|(_, bit)| **bit)
            .map(|(a, _)| format!("    mem[{b}'d{a}] = 1'b1;\n"))
            .collect();
        let initial = if ones.is_empty() { String::new() } else { format!("initial begin\n{ones}end\n") };
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
        ))
    }
}
