//! Counter RAM: 2^b counters of c bits (c = 2..=8), one read port and one write port,
//! one clock: the bank of a counting filter (docs/contract.md section 7).
//!
//! The counting core's bank, written like `core/ram.rs`'s bit bank so that Yosys infers block
//! RAM with no glue: `(* no_rw_check, ram_style = "block" *)`, no initial value on either
//! read register. The data ports are 8 bits wide; bits c..7 of `write_data` are ignored
//! and those of `read_data` are 0. A bank needs ceil(2^b c / block bits) block RAMs:
//! 4 SB_RAM40_4K for 2^12 x 4 on iCE40, 1 DP16KD for 2^12 x 4 on ECP5 (measured by
//! hdl/tests/counter_ram.rs).
//!
//! Latency: 2 cycles, as `core/ram.rs`: `read_addr` presented in cycle t gives mem[read_addr]
//! on `read_data` in cycle t+2 (the RAM's synchronous read, then an output register). A
//! write presented in cycle t is in memory from cycle t+1 on.
//!
//! Same-address read and write in one cycle: the read data is UNSPECIFIED. The rust-hdl
//! model returns the bitwise inverse of the counter being written (within c bits), so a
//! core that fails to forward the newer value fails its simulation tests.
//!
//! Initial contents (contract sections 4 and 7.6: all 0 without an image, the image's
//! counters with one): as in `core/ram.rs`, simulators see a loop that zeroes every counter
//! and both read registers, and everyone sees one assignment per non-zero counter.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct CounterRam {
    pub clock: Signal<In, Clock>,
    pub read_addr: Signal<In, Bits<16>>,
    pub read_data: Signal<Out, Bits<8>>,
    pub write_enable: Signal<In, bool>,
    pub write_addr: Signal<In, Bits<16>>,
    pub write_data: Signal<In, Bits<8>>,
    _bank_bits: usize,
    _counter_bits: usize,
    _mem: Vec<u8>,
    _initial: Vec<u8>,
    _read_raw: u8,
}

impl CounterRam {
    /// b: the bank holds 2^b counters.
    pub fn bank_bits(&self) -> usize {
        self._bank_bits
    }

    /// c: each counter's width.
    pub fn counter_bits(&self) -> usize {
        self._counter_bits
    }

    /// A bank of 2^`bank_bits` counters of `counter_bits` bits (2..=8), all 0 or `initial`.
    pub fn new(bank_bits: usize, counter_bits: usize, initial: Option<Vec<u8>>) -> CounterRam {
        assert!(
            (2..=8).contains(&counter_bits),
            "counter_bits {counter_bits} outside 2..=8"
        );
        let size = 1usize << bank_bits;
        let mem = initial.unwrap_or_else(|| vec![0; size]);
        assert_eq!(
            mem.len(),
            size,
            "initial contents must hold 2^bank_bits counters"
        );
        let largest = ((1u32 << counter_bits) - 1) as u8;
        assert!(
            mem.iter().all(|&v| v <= largest),
            "an initial counter exceeds 2^c - 1"
        );
        CounterRam {
            clock: Default::default(),
            read_addr: Default::default(),
            read_data: Default::default(),
            write_enable: Default::default(),
            write_addr: Default::default(),
            write_data: Default::default(),
            _bank_bits: bank_bits,
            _counter_bits: counter_bits,
            _initial: mem.clone(),
            _mem: mem,
            _read_raw: 0,
        }
    }

    /// The simulated memory's contents (for tests).
    pub fn contents(&self) -> &[u8] {
        &self._mem
    }

    fn index(&self, addr: Bits<16>) -> usize {
        (addr.to_u32() as usize) & ((1usize << self._bank_bits) - 1)
    }

    fn mask(&self) -> u8 {
        ((1u32 << self._counter_bits) - 1) as u8
    }
}

impl Logic for CounterRam {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let read_index = self.index(self.read_addr.val());
            let write_index = self.index(self.write_addr.val());
            let written = (self.write_data.val().to_u32() as u8) & self.mask();
            self.read_data.next = (self._read_raw as u64).into();
            self._read_raw = if self.write_enable.val() && write_index == read_index {
                !written & self.mask()
            } else {
                self._mem[read_index]
            };
            if self.write_enable.val() {
                self._mem[write_index] = written;
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let b = self._bank_bits;
        let c = self._counter_bits;
        let depth = 1usize << b;
        let values: Vec<(usize, String)> = self
            ._initial
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0)
            .map(|(a, v)| (a, format!("{c}'d{v}")))
            .collect();
        let what = if values.is_empty() {
            "no non-zero counters (empty filter)"
        } else {
            "then the image's non-zero counters"
        };
        let mut unused =
            String::from("/* verilator lint_off UNUSED */\nwire unused_inputs = &{1'b0");
        if b < 16 {
            unused += &format!(", read_addr[15:{b}], write_addr[15:{b}]");
        }
        if c < 8 {
            unused += &format!(", write_data[7:{c}]");
        }
        unused += ", 1'b0};\n/* verilator lint_on UNUSED */\n";
        let widened = if c < 8 {
            format!("{{{}'d0, read_raw}}", 8 - c)
        } else {
            "read_raw".to_string()
        };
        Verilog::Custom(format!(
            "\
(* no_rw_check, ram_style = \"block\" *)
reg [{cm1}:0] mem [0:{last}];
reg [{cm1}:0] read_raw;
// Initial contents (contract sections 4 and 7.6): every counter 0, {what}.
// Synthesis sees only the non-zero counters; the FPGA tools write the others as 0.
{initial}always @(posedge clock) begin
    if (write_enable) begin
        mem[write_addr[{bm1}:0]] <= write_data[{cm1}:0];
    end
    read_raw <= mem[read_addr[{bm1}:0]];
end
always @(posedge clock) begin
    read_data <= {widened};
end
{unused}",
            last = depth - 1,
            bm1 = b - 1,
            cm1 = c - 1,
            initial = crate::core::ram::initial_contents(
                b,
                &format!("{c}'d0"),
                &values,
                &[("read_raw", &format!("{c}'d0")), ("read_data", "8'd0")]
            ),
        ))
    }
}
