//! `ArgumentCheck`: the checks of a dump's or a write's three argument bytes
//! (bank, address low, address high; docs/protocol.md §4) and of a write's
//! length, as [`ArgumentChecks`]. Every register is loaded every cycle, with no
//! enable: the spans from the arguments, the lengths and the write checks from
//! the spans, so the subtract and the compare are paths of their own.
//!
//! Latency: all are valid three cycles after the last argument byte is loaded
//! (the engines' Prep, Prep2, then Check). Memory: none (registers).

use rust_hdl::prelude::*;

use super::groups::{ArgumentChecks, FrameHeaderIn};

#[derive(LogicBlock)]
pub struct ArgumentCheck {
    pub clock: Signal<In, Clock>,
    /// Bank, address low, address high.
    pub args: Signal<In, Bits<24>>,
    pub header: FrameHeaderIn<0>,
    pub checks: ArgumentChecks<0>,
    /// Bytes from the requested dump address to the end of the bank.
    dump_span: DFF<Bits<17>>,
    dump_len: DFF<Bits<8>>,
    dump_ok: DFF<Bit>,
    /// Counters from the address to the end of the bank, the chunk (at most
    /// 128) and the check (any address below 2^b).
    cdump_span: DFF<Bits<17>>,
    cdump_len: DFF<Bits<8>>,
    cdump_ok: DFF<Bit>,
    /// The write's data fits the bank (n <= dump_span).
    write_fits: DFF<Bit>,
    /// The write counters' data ends inside the bank.
    cwrite_fits: DFF<Bit>,
    k_banks: Constant<Bits<8>>,
    bank_size: Constant<Bits<17>>,
    /// addr < 2^b as (addr >> b) == 0: no comparator sharing the subtractor's carry chain.
    bank_bits_c: Constant<Bits<8>>,
}

impl ArgumentCheck {
    pub fn new(core: &crate::CoreParams) -> Self {
        Self {
            clock: Default::default(),
            args: Default::default(),
            header: Default::default(),
            checks: Default::default(),
            dump_span: Default::default(),
            dump_len: Default::default(),
            dump_ok: Default::default(),
            cdump_span: Default::default(),
            cdump_len: Default::default(),
            cdump_ok: Default::default(),
            write_fits: Default::default(),
            cwrite_fits: Default::default(),
            k_banks: Constant::new((core.k as u64).into()),
            bank_size: Constant::new((1u64 << core.bank_bits).into()),
            bank_bits_c: Constant::new((core.bank_bits as u64).into()),
        }
    }
}

impl Logic for ArgumentCheck {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            dump_span,
            dump_len,
            dump_ok,
            cdump_span,
            cdump_len,
            cdump_ok,
            write_fits,
            cwrite_fits
        );
        self.checks.dump_len.next = self.dump_len.q.val();
        self.checks.dump_ok.next = self.dump_ok.q.val();
        self.checks.cdump_len.next = self.cdump_len.q.val();
        self.checks.cdump_ok.next = self.cdump_ok.q.val();
        self.checks.write_fits.next = self.write_fits.q.val();
        self.checks.cwrite_fits.next = self.cwrite_fits.q.val();
        self.dump_span.d.next =
            (self.bank_size.val() - bit_cast::<17, 16>(self.args.val().get_bits::<16>(8))) >> 3;
        if self.dump_span.q.val() > 128 {
            self.dump_len.d.next = 128.into();
        } else {
            self.dump_len.d.next = self.dump_span.q.val().get_bits::<8>(0);
        }
        self.dump_ok.d.next = (self.args.val().get_bits::<8>(0) < self.k_banks.val())
            & ((self.args.val().get_bits::<16>(8) >> self.bank_bits_c.val()) == 0)
            & (self.args.val().get_bits::<3>(8) == 0);
        self.cdump_span.d.next =
            self.bank_size.val() - bit_cast::<17, 16>(self.args.val().get_bits::<16>(8));
        if self.cdump_span.q.val() > 128 {
            self.cdump_len.d.next = 128.into();
        } else {
            self.cdump_len.d.next = self.cdump_span.q.val().get_bits::<8>(0);
        }
        self.cdump_ok.d.next = (self.args.val().get_bits::<8>(0) < self.k_banks.val())
            & ((self.args.val().get_bits::<16>(8) >> self.bank_bits_c.val()) == 0);
        // A write's data bytes (LEN - 3) must end inside the bank.
        self.cwrite_fits.d.next =
            bit_cast::<17, 8>(self.header.len.val() - 3) <= self.cdump_span.q.val();
        self.write_fits.d.next =
            bit_cast::<17, 8>(self.header.len.val() - 3) <= self.dump_span.q.val();
    }
}
