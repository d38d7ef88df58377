//! `LiteWrite`: the AXI4-Lite write channels of `bloom_axis`, one transaction at
//! a time, every decision taken from registers: idle -> write_seen -> write_go
//! (awready, wready) -> bvalid.
//!
//! awready and wready rise together, from a register, two cycles after both
//! valids are seen while `write_idle` (a register: no write in progress, no bit
//! access armed); the address and strobes are decoded into select registers
//! (`wsel_*`) loaded in every cycle while idle, like the read side's. The cycle
//! between (`write_seen`) lets the write's actions be loaded from registers
//! alone: write_seen AND a select (the master holds address and data until
//! ready). Acting in the cycle after the valids, decoding the address on the
//! way, the action's register took three LUT levels, the slowest path of the
//! wrapper in 7 HX8K seeds of 15. bvalid/bresp follow the ready cycle.
//!
//! The actions, in the write_go cycle, are flip-flops (`act_*`), so that each
//! enable of the registers they load is one: writes of BIT_ADDR (also high
//! during reset: it loads BIT_ADDR's and BIT_DATA's reset values), of BIT_COUNT,
//! and COMMAND's clear and zero_counters (the latter also high during reset).
//! `act_bit_addr` enables some 90 flip-flops (BIT_ADDR, BIT_DATA, the access),
//! a net nextpnr promotes to a global buffer, and a LUT in front of that route
//! was the slowest path of the wrapper on iCE40.
//!
//! Latency: both valids seen in cycle t: the action registers high in t+2
//! (with awready, wready), the registers they load hold the data from t+3,
//! bvalid from t+3. Memory: none (flip-flops).

use rust_hdl::prelude::*;

use super::interface::AxiLiteWrite;
use super::regmap as map;
use super::regs::{at, word};

#[derive(LogicBlock)]
pub struct LiteWrite<const W: usize> {
    pub clock: Signal<In, Clock>,
    /// The AXI4-Lite side's reset (registered), and what it will be next cycle.
    pub reset: Signal<In, bool>,
    pub reset_next: Signal<In, bool>,
    pub axil: AxiLiteWrite<W>,
    /// A bit access is armed, or armed in this cycle: no write may start.
    pub armed_next: Signal<In, bool>,
    /// Write BIT_ADDR from wdata (or load its reset values), this cycle.
    pub bit_addr_write: Signal<Out, bool>,
    /// Write BIT_COUNT from wdata, this cycle.
    pub bit_count_write: Signal<Out, bool>,
    /// COMMAND.clear was written: a register clear, this cycle.
    pub clear: Signal<Out, bool>,
    /// COMMAND.zero_counters was written, or reset: zero the counters, this cycle.
    pub zero_counters: Signal<Out, bool>,
    /// COMMAND.scrub was written: the core's scrub_req, this cycle (the core
    /// ignores it while a scrub runs, and always without the scrub).
    pub scrub: Signal<Out, bool>,
    write_seen: DFF<bool>,
    write_go: DFF<bool>,
    bvalid: DFF<bool>,
    bresp: DFF<Bits<2>>,
    /// Both valids seen while idle: awready and wready rise two cycles later.
    write_start: Signal<Local, bool>,
    /// No write in progress (none taken and unanswered) and no bit access
    /// armed: a write may start. A register of its own, so that write_start
    /// is one gate.
    write_idle: DFF<bool>,
    /// The write address (and full strobes) selects COMMAND, BIT_ADDR,
    /// BIT_COUNT: loaded while write_idle, so held through write_seen and write_go.
    wsel_command: DFF<bool>,
    wsel_bit_addr: DFF<bool>,
    wsel_bit_count: DFF<bool>,
    /// The write acts on COMMAND, on BIT_ADDR, on BIT_COUNT: the act_ registers.
    do_command: Signal<Local, bool>,
    do_bit_addr: Signal<Local, bool>,
    do_bit_count: Signal<Local, bool>,
    /// The actions, loaded in the write_seen cycle from write_seen and the
    /// selects (or the reset).
    act_command: DFF<bool>,
    act_bit_addr: DFF<bool>,
    act_bit_count: DFF<bool>,
    act_clear: DFF<bool>,
    act_zero: DFF<bool>,
    act_scrub: DFF<bool>,
    write_word: Signal<Local, Bits<6>>,
    /// Inputs AXI4-Lite defines and this block does not need (the protection
    /// type, the byte offset within a word), and the data bits other than
    /// COMMAND's (`BitAccess` takes the word).
    unused_axil: Signal<Local, bool>,
    word_command: Constant<Bits<6>>,
    word_bit_addr: Constant<Bits<6>>,
    word_bit_count: Constant<Bits<6>>,
    at_command_clear: Constant<Bits<5>>,
    at_command_zero: Constant<Bits<5>>,
    at_command_scrub: Constant<Bits<5>>,
    all_strobes: Constant<Bits<4>>,
    resp_okay: Constant<Bits<2>>,
    resp_slverr: Constant<Bits<2>>,
}

impl<const W: usize> Default for LiteWrite<W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            reset_next: Default::default(),
            axil: Default::default(),
            armed_next: Default::default(),
            bit_addr_write: Default::default(),
            bit_count_write: Default::default(),
            clear: Default::default(),
            zero_counters: Default::default(),
            scrub: Default::default(),
            write_seen: Default::default(),
            write_go: Default::default(),
            bvalid: Default::default(),
            bresp: Default::default(),
            write_start: Default::default(),
            write_idle: Default::default(),
            wsel_command: Default::default(),
            wsel_bit_addr: Default::default(),
            wsel_bit_count: Default::default(),
            do_command: Default::default(),
            do_bit_addr: Default::default(),
            do_bit_count: Default::default(),
            act_command: Default::default(),
            act_bit_addr: Default::default(),
            act_bit_count: Default::default(),
            act_clear: Default::default(),
            act_zero: Default::default(),
            act_scrub: Default::default(),
            write_word: Default::default(),
            unused_axil: Default::default(),
            word_command: word(&map::COMMAND),
            word_bit_addr: word(&map::BIT_ADDR),
            word_bit_count: word(&map::BIT_COUNT),
            at_command_clear: at(&map::COMMAND_CLEAR),
            at_command_zero: at(&map::COMMAND_ZERO_COUNTERS),
            at_command_scrub: at(&map::COMMAND_SCRUB),
            all_strobes: Constant::new(15.into()),
            resp_okay: Constant::new(0.into()),
            resp_slverr: Constant::new(2.into()),
        }
    }
}

impl<const W: usize> Logic for LiteWrite<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            write_seen,
            write_go,
            write_idle,
            bvalid,
            bresp,
            wsel_command,
            wsel_bit_addr,
            wsel_bit_count,
            act_command,
            act_bit_addr,
            act_bit_count,
            act_clear,
            act_zero,
            act_scrub
        );
        self.do_command.next = self.act_command.q.val();
        self.do_bit_addr.next = self.act_bit_addr.q.val();
        self.do_bit_count.next = self.act_bit_count.q.val();
        self.bit_addr_write.next = self.do_bit_addr.val();
        self.bit_count_write.next = self.do_bit_count.val();
        self.clear.next = self.act_clear.q.val();
        self.zero_counters.next = self.act_zero.q.val();
        self.scrub.next = self.act_scrub.q.val();

        self.axil.awready.next = self.write_go.q.val();
        self.axil.wready.next = self.write_go.q.val();
        self.axil.bvalid.next = self.bvalid.q.val();
        self.axil.bresp.next = self.bresp.q.val();
        self.write_word.next = self.axil.awaddr.val().get_bits::<6>(2);
        self.write_start.next =
            self.axil.awvalid.val() & self.axil.wvalid.val() & self.write_idle.q.val();
        self.write_idle.d.next = !self.write_start.val()
            & !self.write_seen.q.val()
            & !self.write_go.q.val()
            & !(self.bvalid.q.val() & !self.axil.bready.val())
            & !self.armed_next.val();
        self.write_seen.d.next = self.write_start.val();
        self.write_go.d.next = self.write_seen.q.val();
        if self.write_idle.q.val() {
            self.wsel_command.d.next = (self.write_word.val() == self.word_command.val())
                & (self.axil.wstrb.val() == self.all_strobes.val());
            self.wsel_bit_addr.d.next = (self.write_word.val() == self.word_bit_addr.val())
                & (self.axil.wstrb.val() == self.all_strobes.val());
            self.wsel_bit_count.d.next = (self.write_word.val() == self.word_bit_count.val())
                & (self.axil.wstrb.val() == self.all_strobes.val());
        }
        if self.bvalid.q.val() & self.axil.bready.val() {
            self.bvalid.d.next = false;
        }
        if self.write_go.q.val() {
            self.bvalid.d.next = true;
            self.bresp.d.next = self.resp_slverr.val();
            if (self.do_command.val() | self.do_bit_addr.val()) | self.do_bit_count.val() {
                self.bresp.d.next = self.resp_okay.val();
            }
        }
        self.unused_axil.next = (self.axil.awprot.val().xor()
            ^ self.axil.awaddr.val().get_bits::<2>(0).xor())
            ^ self.axil.wdata.val().xor();
        if self.reset.val() {
            self.write_seen.d.next = false;
            self.write_go.d.next = false;
            self.write_idle.d.next = false;
            self.bvalid.d.next = false;
        }
        // The actions: write_go as it will be (write_seen, no reset) and a
        // select, held since idle; or the reset, as it will be. Written out in
        // each, not as write_go.d (and act_command.d in the last two): the same
        // logic, but Yosys and ABC then map the whole wrapper anew, and that
        // netlist put the core's response FIFO output three LUT levels deep,
        // not two, in front of the response entries (UP5K 68.47 MHz median over
        // 10 seeds, not 73.93; HX8K 168.27 over 15, not 176.12).
        self.act_command.d.next =
            (self.write_seen.q.val() & !self.reset.val()) & self.wsel_command.q.val();
        self.act_bit_addr.d.next = ((self.write_seen.q.val() & !self.reset.val())
            & self.wsel_bit_addr.q.val())
            | self.reset_next.val();
        self.act_bit_count.d.next =
            (self.write_seen.q.val() & !self.reset.val()) & self.wsel_bit_count.q.val();
        self.act_clear.d.next = ((self.write_seen.q.val() & !self.reset.val())
            & self.wsel_command.q.val())
            & self
                .axil
                .wdata
                .val()
                .get_bit(self.at_command_clear.val().index());
        self.act_zero.d.next = (((self.write_seen.q.val() & !self.reset.val())
            & self.wsel_command.q.val())
            & self
                .axil
                .wdata
                .val()
                .get_bit(self.at_command_zero.val().index()))
            | self.reset_next.val();
        self.act_scrub.d.next = ((self.write_seen.q.val() & !self.reset.val())
            & self.wsel_command.q.val())
            & self
                .axil
                .wdata
                .val()
                .get_bit(self.at_command_scrub.val().index());
    }
}
