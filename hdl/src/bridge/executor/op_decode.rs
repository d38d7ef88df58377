//! `OpDecode`: the decode of the frame receiver's header (docs/protocol.md §3),
//! registered every cycle from its OP and LEN, which are stable while it holds
//! `done`: what the operation is, whether it fits the board's kind of filter,
//! and whether the length fits it ([`OpFlags`]). Decode then works from
//! flip-flops only.
//!
//! Latency: one cycle (valid in Decode, the cycle after the frame is taken).
//! Memory: none (registers).

use rust_hdl::prelude::*;

use super::groups::OpFlags;

#[derive(LogicBlock)]
pub struct OpDecode {
    pub clock: Signal<In, Clock>,
    /// The frame receiver's OP and LEN.
    pub f_op: Signal<In, Bits<8>>,
    pub f_len: Signal<In, Bits<8>>,
    pub flags: OpFlags<0>,
    op_single: DFF<Bit>,
    op_batch: DFF<Bit>,
    op_clear: DFF<Bit>,
    op_stats: DFF<Bit>,
    op_dump: DFF<Bit>,
    op_config: DFF<Bit>,
    op_info: DFF<Bit>,
    op_write: DFF<Bit>,
    op_wrong_kind: DFF<Bit>,
    op_delete: DFF<Bit>,
    op_cdump: DFF<Bit>,
    op_cwrite: DFF<Bit>,
    op_local: DFF<Bit>,
    op_no_scrub: DFF<Bit>,
    op_silent: DFF<Bit>,
    len_is_key: DFF<Bit>,
    len_batch_ok: DFF<Bit>,
    len_zero: DFF<Bit>,
    len_dump_ok: DFF<Bit>,
    len_write_ok: DFF<Bit>,
    key_bytes: Constant<Bits<8>>,
    key_bytes_mask: Constant<Bits<8>>,
    key_bytes_log: Constant<Bits<8>>,
    max_batch: Constant<Bits<8>>,
    /// The core is a counting one (counter_bits > 1).
    counting: Constant<Bit>,
    /// The core has the scrub.
    has_scrub: Constant<Bit>,
}

impl OpDecode {
    pub fn new(core: &crate::CoreParams, max_batch: u32, scrub: bool) -> Self {
        let key_bytes = core.key_bits / 8;
        Self {
            clock: Default::default(),
            f_op: Default::default(),
            f_len: Default::default(),
            flags: Default::default(),
            op_single: Default::default(),
            op_batch: Default::default(),
            op_clear: Default::default(),
            op_stats: Default::default(),
            op_dump: Default::default(),
            op_config: Default::default(),
            op_info: Default::default(),
            op_write: Default::default(),
            op_wrong_kind: Default::default(),
            op_delete: Default::default(),
            op_cdump: Default::default(),
            op_cwrite: Default::default(),
            op_local: Default::default(),
            op_no_scrub: Default::default(),
            op_silent: Default::default(),
            len_is_key: Default::default(),
            len_batch_ok: Default::default(),
            len_zero: Default::default(),
            len_dump_ok: Default::default(),
            len_write_ok: Default::default(),
            key_bytes: Constant::new((key_bytes as u64).into()),
            key_bytes_mask: Constant::new(((key_bytes - 1) as u64).into()),
            key_bytes_log: Constant::new((key_bytes.trailing_zeros() as u64).into()),
            max_batch: Constant::new((max_batch as u64).into()),
            counting: Constant::new(core.counter_bits > 1),
            has_scrub: Constant::new(scrub),
        }
    }
}

impl Logic for OpDecode {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            op_single,
            op_batch,
            op_clear,
            op_stats,
            op_dump,
            op_config,
            op_info,
            op_write,
            op_wrong_kind,
            op_delete,
            op_cdump,
            op_cwrite,
            op_local,
            op_no_scrub,
            op_silent,
            len_is_key,
            len_batch_ok,
            len_zero,
            len_dump_ok,
            len_write_ok
        );
        self.flags.single.next = self.op_single.q.val();
        self.flags.batch.next = self.op_batch.q.val();
        self.flags.clear.next = self.op_clear.q.val();
        self.flags.stats.next = self.op_stats.q.val();
        self.flags.dump.next = self.op_dump.q.val();
        self.flags.config_frame.next = self.op_config.q.val();
        self.flags.info.next = self.op_info.q.val();
        self.flags.write.next = self.op_write.q.val();
        self.flags.wrong_kind.next = self.op_wrong_kind.q.val();
        self.flags.delete.next = self.op_delete.q.val();
        self.flags.cdump.next = self.op_cdump.q.val();
        self.flags.cwrite.next = self.op_cwrite.q.val();
        self.flags.local.next = self.op_local.q.val();
        self.flags.no_scrub.next = self.op_no_scrub.q.val();
        self.flags.silent.next = self.op_silent.q.val();
        self.flags.len_is_key.next = self.len_is_key.q.val();
        self.flags.len_batch_ok.next = self.len_batch_ok.q.val();
        self.flags.len_zero.next = self.len_zero.q.val();
        self.flags.len_dump_ok.next = self.len_dump_ok.q.val();
        self.flags.len_write_ok.next = self.len_write_ok.q.val();
        self.op_single.d.next =
            (self.f_op.val() == 1) | (self.f_op.val() == 2) | (self.f_op.val() == 12);
        self.op_batch.d.next =
            (self.f_op.val() == 3) | (self.f_op.val() == 4) | (self.f_op.val() == 13);
        self.op_delete.d.next = (self.f_op.val() == 12) | (self.f_op.val() == 13);
        self.op_wrong_kind.d.next = (self.counting.val() & (self.f_op.val() == 9))
            | ((!self.counting.val())
                & ((self.f_op.val() == 12)
                    | (self.f_op.val() == 13)
                    | (self.f_op.val() == 14)
                    | (self.f_op.val() == 15)));
        self.op_clear.d.next = self.f_op.val() == 5;
        self.op_stats.d.next = self.f_op.val() == 6;
        self.op_dump.d.next = (self.f_op.val() == 7) | (self.f_op.val() == 14);
        self.op_cdump.d.next = self.f_op.val() == 14;
        self.op_config.d.next = self.f_op.val() == 8;
        self.op_info.d.next =
            ((self.f_op.val() >= 6) & (self.f_op.val() <= 8)) | (self.f_op.val() == 14);
        self.op_write.d.next = (self.f_op.val() == 9) | (self.f_op.val() == 15);
        self.op_cwrite.d.next = self.f_op.val() == 15;
        self.op_local.d.next =
            (self.f_op.val() == 10) | (self.f_op.val() == 11) | (self.f_op.val() == 16);
        self.op_no_scrub.d.next = (!self.has_scrub.val()) & (self.f_op.val() == 16);
        self.op_silent.d.next =
            (self.f_op.val() == 5) | (self.f_op.val() == 10) | (self.f_op.val() == 11);
        self.len_is_key.d.next = self.f_len.val() == self.key_bytes.val();
        self.len_batch_ok.d.next = ((self.f_len.val() & self.key_bytes_mask.val()) == 0)
            & (self.f_len.val() != 0)
            & ((self.f_len.val() >> self.key_bytes_log.val()) <= self.max_batch.val());
        self.len_zero.d.next = self.f_len.val() == 0;
        self.len_dump_ok.d.next = self.f_len.val() == 3;
        self.len_write_ok.d.next = self.f_len.val() > 3;
    }
}
