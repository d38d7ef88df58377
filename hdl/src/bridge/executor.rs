//! Frame executor: validates a received frame against its operation, runs it
//! on the filter core one key at a time, keeps the exactly-once replay cache
//! and the counters, and streams the response payload to the framer
//! (docs/protocol.md §3-§6).
//!
//! Exactly-once: after executing a frame the executor remembers its SEQ, OP
//! and answer (hit bitmap, or a bank's fill). A good frame whose SEQ and OP
//! equal the remembered ones and whose OP changes something (query/insert,
//! single or batch, clear, write bits, image complete, zero counters) is
//! answered from that memory without being executed again (counted in
//! `frames_replayed`). Stats, dump and config frames are always executed (they
//! change nothing) and also become the remembered SEQ, which is how a host
//! starts a session.
//!
//! Latency (frame accepted to first response byte handed to the framer), for
//! a core of latency L: per key 2*key_bytes + 2 + L cycles; replay, stats,
//! config, image complete, zero counters and errors 3 cycles; dump 3 cycles
//! plus 8 readbacks per byte, overlapped with the transmission of the previous
//! byte (dump counters: one readback per byte); write bits 10 cycles per data
//! byte (a buffer read, then one bit write per cycle through the core's bank
//! access port) plus 19; write counters 2 cycles per byte for the value check,
//! then 3 per byte (a buffer read and one counter write), plus 19.
//!
//! Counting boards (counter_bits > 1, docs/protocol.md §3): deletes are op 3
//! on the core; stats append the saturated counts (`counter_saturated`, read
//! like the fills); dump counters reads `counter_rdata`, write counters drives
//! `counter_wdata` from a flip-flop with the readback's write. The operations
//! of the other kind of board are refused (WRONG_KIND) in Decode.
//!
//! The counters are zeroed by reset (and by the zero-counters frame); the
//! "image load incomplete" flag is not: it describes the banks, which a reset
//! keeps. Write bits sets it, image complete and clear reset it.
//!
//! Payload hand-off: `pl_take` (a long combinational path through the framer
//! and its CRC unit) only moves the state machine to a Shift/Next state; the
//! wide shift registers and counters advance there, one cycle later, from a
//! registered state decode. pl_valid is low in that cycle, so no byte is
//! taken twice; the cycle is hidden under the byte's transmission time. The receive buffer
//! is read only while the frame receiver holds `done` (it is released by `ack`
//! when the response starts), so no read ever meets a write to the same address.
//! Core readbacks and fill reads wait until the core is not `busy`.

use rust_hdl::prelude::*;

use crate::ports::{CoreDriver, CounterDriver};

/// Operation codes (docs/protocol.md §3).
pub const OP_QUERY: u8 = 0x01;
pub const OP_INSERT: u8 = 0x02;
pub const OP_QUERY_BATCH: u8 = 0x03;
pub const OP_INSERT_BATCH: u8 = 0x04;
pub const OP_CLEAR: u8 = 0x05;
pub const OP_STATS: u8 = 0x06;
pub const OP_DUMP: u8 = 0x07;
pub const OP_CONFIG: u8 = 0x08;
pub const OP_WRITE_BITS: u8 = 0x09;
pub const OP_IMAGE_COMPLETE: u8 = 0x0A;
pub const OP_ZERO_COUNTERS: u8 = 0x0B;
pub const OP_DELETE: u8 = 0x0C;
pub const OP_DELETE_BATCH: u8 = 0x0D;
pub const OP_DUMP_COUNTERS: u8 = 0x0E;
pub const OP_WRITE_COUNTERS: u8 = 0x0F;
/// The protocol version in the configuration block.
pub const PROTOCOL_VERSION: u8 = 3;
/// Response code of an error frame.
pub const CODE_ERROR: u8 = 0x80;
/// Error reasons.
pub const ERR_BAD_CRC: u8 = 1;
pub const ERR_BAD_LENGTH: u8 = 2;
pub const ERR_UNKNOWN_OP: u8 = 3;
pub const ERR_TIMEOUT: u8 = 4;
pub const ERR_BAD_ARGUMENT: u8 = 5;
/// An operation the board's kind of filter does not have (deletes on a plain
/// board, write bits on a counting one).
pub const ERR_WRONG_KIND: u8 = 6;
/// Bytes in the configuration block, and in the stats payload before the fills
/// (the block, four counters, the status byte).
pub const CONFIG_BYTES: u32 = 15;
pub const STATS_FIXED_BYTES: u32 = CONFIG_BYTES + 16 + 1;
/// Bytes before the data of a write bits frame: bank, bit address (2).
pub const WRITE_HEADER_BYTES: u32 = 3;
/// Largest dump chunk, in bytes (8 bits each).
pub const DUMP_CHUNK_BYTES: u32 = 128;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum ExecState {
    Idle,
    Decode,
    LoadA,
    LoadB,
    Issue,
    WaitResp,
    Finish,
    Replay,
    Reject,
    RespondSr,
    EmitSr,
    ShiftSr,
    FillSet,
    FillWait,
    EmitFill,
    ShiftFill,
    DumpPrep,
    DumpPrep2,
    DumpCheck,
    DumpStart,
    DumpReq,
    DumpWait,
    DumpEmit,
    DumpNext,
    WritePrep,
    WritePrep2,
    WriteCheck,
    WriteIdle,
    WriteFetch,
    WriteLoad,
    WriteBit,
    WriteSettle,
    CheckFetch,
    CheckLoad,
    CheckByte,
}

/// Build-time constants of the executor, derived from the core configuration.
#[derive(Clone, Debug)]
pub struct ExecutorParams {
    pub core: crate::CoreParams,
    pub max_batch: u32,
    /// Test only: answer retries by executing them again (breaks exactly-once,
    /// so that the fault test can prove it notices).
    pub disable_replay: bool,
}

/// Cycles from the first cycle of WriteSettle until the bank's fill counter is read:
/// a bit or counter write reaches the core's write stage `commit_latency` cycles after
/// it is presented and is counted `fill_latency - COMMIT_LATENCY` cycles after that
/// (7 in a plain core, 9 in a counting one, whose write-back is two stages later),
/// plus two cycles of margin. Below 16 (wait_count is 4 bits).
pub fn write_settle_cycles(t: &crate::Timing) -> u32 {
    let cycles =
        t.commit_latency + t.fill_latency.saturating_sub(crate::timing::COMMIT_LATENCY) + 2;
    assert!(
        cycles < 16,
        "write settle of {cycles} cycles does not fit the 4-bit wait counter"
    );
    cycles
}

impl ExecutorParams {
    /// The hash family's code in the configuration block (docs/protocol.md §5).
    /// Bytes of the stats payload: the fixed part, k fills, and k saturated counts on a counting board.
    pub fn stats_bytes(&self) -> u32 {
        let per_bank = if self.core.counter_bits > 1 { 6 } else { 3 };
        STATS_FIXED_BYTES + per_bank * self.core.k
    }

    pub fn hash_code(&self) -> u8 {
        self.core.hash.code()
    }

    /// The configuration block of docs/protocol.md §5, as sent on the line.
    pub fn config_block(&self) -> Vec<u8> {
        let c = &self.core;
        let mut b = vec![
            PROTOCOL_VERSION,
            c.k as u8,
            c.bank_bits as u8,
            c.key_bits as u8,
            self.hash_code(),
            self.max_batch as u8,
        ];
        b.extend_from_slice(&c.seed.to_le_bytes());
        b.push(c.counter_bits as u8);
        debug_assert_eq!(b.len() as u32, CONFIG_BYTES);
        b
    }
}

#[derive(LogicBlock)]
pub struct Executor {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Frame receiver side.
    pub f_done: Signal<In, Bit>,
    pub f_status: Signal<In, Bits<8>>,
    pub f_seq: Signal<In, Bits<8>>,
    pub f_op: Signal<In, Bits<8>>,
    pub f_len: Signal<In, Bits<8>>,
    pub f_ack: Signal<Out, Bit>,
    pub buf_raddr: Signal<Out, Bits<8>>,
    pub buf_rdata: Signal<In, Bits<8>>,
    // Response framer side.
    pub r_start: Signal<Out, Bit>,
    pub r_seq: Signal<Out, Bits<8>>,
    pub r_code: Signal<Out, Bits<8>>,
    pub r_len: Signal<Out, Bits<8>>,
    pub pl_data: Signal<Out, Bits<8>>,
    pub pl_valid: Signal<Out, Bit>,
    pub pl_take: Signal<In, Bit>,
    pub r_idle: Signal<In, Bit>,
    // Core side (bloom_core's ports; the key is left-aligned to 128 bits inside
    // and right-aligned on output: req_key[W-1:0] is the key).
    pub core: CoreDriver<128>,
    /// The counter group of a counting core (unused behind a plain one).
    pub counter: CounterDriver<128>,
    /// High from a rejected frame until the next good one (drives an LED).
    pub last_rejected: Signal<Out, Bit>,
    state: DFF<ExecState>,
    seq_r: DFF<Bits<8>>,
    op_r: DFF<Bits<8>>,
    len_r: DFF<Bits<8>>,
    reason_r: DFF<Bits<8>>,
    nkeys: DFF<Bits<8>>,
    /// nkeys - 1, set with nkeys, so the per-key loop compares without an adder.
    last_idx: DFF<Bits<8>>,
    idx: DFF<Bits<8>>,
    bptr: DFF<Bits<8>>,
    bcount: DFF<Bits<8>>,
    load_count: DFF<Bits<8>>,
    key_sr: DFF<Bits<128>>,
    bitmap: DFF<Bits<32>>,
    have_last: DFF<Bit>,
    last_seq: DFF<Bits<8>>,
    last_op: DFF<Bits<8>>,
    last_bitmap: DFF<Bits<32>>,
    last_n: DFF<Bits<8>>,
    ops_served: DFF<Bits<32>>,
    frames_ok: DFF<Bits<32>>,
    frames_rejected: DFF<Bits<32>>,
    frames_replayed: DFF<Bits<32>>,
    /// The response payload to send, byte 0 in the low bits (the stats' fixed part is 32 bytes).
    out_sr: DFF<Bits<256>>,
    out_left: DFF<Bits<8>>,
    resp_code: DFF<Bits<8>>,
    resp_len: DFF<Bits<8>>,
    then_fill: DFF<Bit>,
    bank: DFF<Bits<8>>,
    addr: DFF<Bits<16>>,
    bitcnt: DFF<Bits<4>>,
    byte_acc: DFF<Bits<8>>,
    wait_count: DFF<Bits<4>>,
    fill_sr: DFF<Bits<24>>,
    /// The stats frame is sending the saturated counts (after the fills).
    sat_phase: DFF<Bit>,
    rejected_flag: DFF<Bit>,
    /// A write bits frame ran since the last image complete or clear.
    image_incomplete: DFF<Bit>,
    /// Data bytes of a write bits frame still to write.
    write_left: DFF<Bits<8>>,
    /// The write's data fits the bank (n <= dump_span), registered like dump_ok.
    write_fits: DFF<Bit>,
    /// Bytes from the requested dump address to the end of the bank.
    dump_span: DFF<Bits<17>>,
    /// Dump chunk length and argument check. dump_span and dump_ok are
    /// registered from key_sr every cycle, dump_len from dump_span (no
    /// enables), so the subtract and the compare are paths of their own; all
    /// are valid in DumpCheck, three cycles after the last argument byte.
    dump_len: DFF<Bits<8>>,
    dump_ok: DFF<Bit>,
    /// Dump counters: counters from the address to the end of the bank, the
    /// chunk (at most 128) and the argument check (any address below 2^b),
    /// registered like dump_span, dump_len and dump_ok.
    cdump_span: DFF<Bits<17>>,
    cdump_len: DFF<Bits<8>>,
    cdump_ok: DFF<Bit>,
    /// The frame being answered is a dump counters (latched in Decode: the
    /// header decode below follows the frame receiver, which moves on once
    /// the response starts).
    cdump: DFF<Bit>,
    /// The frame being executed is a write counters (latched in Decode).
    cwrite: DFF<Bit>,
    /// Write counters: a data byte above 2^c - 1 was found by the check pass.
    value_bad: DFF<Bit>,
    /// Write counters: the data bytes end inside the bank (from cdump_span).
    cwrite_fits: DFF<Bit>,
    /// The value the next counter write writes (counter_wdata from a flip-flop).
    cw_data_r: DFF<Bits<8>>,
    /// pl_valid from a flip-flop: high exactly while in EmitSr/EmitFill/DumpEmit.
    pl_valid_r: DFF<Bit>,
    /// The core's bank access port driven from flip-flops, one cycle after the
    /// state that asks for it: rb_req held low req_ready combinationally, so a
    /// state decode in front of it put the core's admission logic between two
    /// of the executor's registers.
    rb_req_r: DFF<Bit>,
    rb_write_r: DFF<Bit>,
    rb_wdata_r: DFF<Bit>,
    rb_addr_r: DFF<Bits<16>>,
    /// Decode of the frame receiver's header, registered every cycle from its
    /// (stable while `f_done`) outputs, so Decode works from flip-flops only.
    op_single: DFF<Bit>,
    op_batch: DFF<Bit>,
    op_clear: DFF<Bit>,
    op_stats: DFF<Bit>,
    op_dump: DFF<Bit>,
    op_config: DFF<Bit>,
    op_info: DFF<Bit>,
    op_write: DFF<Bit>,
    /// The operation does not fit the board's kind of filter (WRONG_KIND).
    op_wrong_kind: DFF<Bit>,
    /// Delete or delete batch: op 3 on the core.
    op_delete: DFF<Bit>,
    /// Dump counters.
    op_cdump: DFF<Bit>,
    /// Write counters.
    op_cwrite: DFF<Bit>,
    /// Image complete or zero counters: executed here, no core operation.
    op_local: DFF<Bit>,
    /// The answer has no payload (clear, image complete, zero counters).
    op_silent: DFF<Bit>,
    is_retry: DFF<Bit>,
    len_is_key: DFF<Bit>,
    len_batch_ok: DFF<Bit>,
    len_zero: DFF<Bit>,
    len_dump_ok: DFF<Bit>,
    len_write_ok: DFF<Bit>,
    key_bytes: Constant<Bits<8>>,
    key_bytes_mask: Constant<Bits<8>>,
    key_bytes_log: Constant<Bits<8>>,
    key_align: Constant<Bits<8>>,
    max_batch: Constant<Bits<8>>,
    k_banks: Constant<Bits<8>>,
    /// k - 1: compared without an adder in the fill loop.
    last_bank: Constant<Bits<8>>,
    bank_size: Constant<Bits<17>>,
    /// addr < 2^b as (addr >> b) == 0: no comparator sharing the subtractor's carry chain.
    bank_bits_c: Constant<Bits<8>>,
    stats_len: Constant<Bits<8>>,
    /// Cycles WriteSettle waits after the last write (see [`write_settle_cycles`]).
    write_settle: Constant<Bits<4>>,
    config_word: Constant<Bits<256>>,
    replay_on: Constant<Bit>,
    /// The core is a counting one (counter_bits > 1).
    counting: Constant<Bit>,
    /// 2^c - 1, the largest counter value (1 on a plain board).
    counter_max: Constant<Bits<8>>,
}

impl Executor {
    pub fn new(p: &ExecutorParams) -> Self {
        let key_bytes = p.core.key_bits / 8;
        let mut config_word: Bits<256> = 0.into();
        for (i, b) in p.config_block().iter().enumerate() {
            config_word = config_word | (bit_cast::<256, 8>((*b as u64).into()) << (8 * i as u64));
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            f_done: Default::default(),
            f_status: Default::default(),
            f_seq: Default::default(),
            f_op: Default::default(),
            f_len: Default::default(),
            f_ack: Default::default(),
            buf_raddr: Default::default(),
            buf_rdata: Default::default(),
            r_start: Default::default(),
            r_seq: Default::default(),
            r_code: Default::default(),
            r_len: Default::default(),
            pl_data: Default::default(),
            pl_valid: Default::default(),
            pl_take: Default::default(),
            r_idle: Default::default(),
            core: Default::default(),
            counter: Default::default(),
            last_rejected: Default::default(),
            state: Default::default(),
            seq_r: Default::default(),
            op_r: Default::default(),
            len_r: Default::default(),
            reason_r: Default::default(),
            nkeys: Default::default(),
            last_idx: Default::default(),
            idx: Default::default(),
            bptr: Default::default(),
            bcount: Default::default(),
            load_count: Default::default(),
            key_sr: Default::default(),
            bitmap: Default::default(),
            have_last: Default::default(),
            last_seq: Default::default(),
            last_op: Default::default(),
            last_bitmap: Default::default(),
            last_n: Default::default(),
            ops_served: Default::default(),
            frames_ok: Default::default(),
            frames_rejected: Default::default(),
            frames_replayed: Default::default(),
            out_sr: Default::default(),
            out_left: Default::default(),
            resp_code: Default::default(),
            resp_len: Default::default(),
            then_fill: Default::default(),
            bank: Default::default(),
            addr: Default::default(),
            bitcnt: Default::default(),
            byte_acc: Default::default(),
            wait_count: Default::default(),
            fill_sr: Default::default(),
            sat_phase: Default::default(),
            rejected_flag: Default::default(),
            image_incomplete: Default::default(),
            write_left: Default::default(),
            write_fits: Default::default(),
            dump_span: Default::default(),
            dump_len: Default::default(),
            dump_ok: Default::default(),
            cdump_span: Default::default(),
            cdump_len: Default::default(),
            cdump_ok: Default::default(),
            cdump: Default::default(),
            cwrite: Default::default(),
            value_bad: Default::default(),
            cwrite_fits: Default::default(),
            cw_data_r: Default::default(),
            pl_valid_r: Default::default(),
            rb_req_r: Default::default(),
            rb_write_r: Default::default(),
            rb_wdata_r: Default::default(),
            rb_addr_r: Default::default(),
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
            op_silent: Default::default(),
            is_retry: Default::default(),
            len_is_key: Default::default(),
            len_batch_ok: Default::default(),
            len_zero: Default::default(),
            len_dump_ok: Default::default(),
            len_write_ok: Default::default(),
            key_bytes: Constant::new((key_bytes as u64).into()),
            key_bytes_mask: Constant::new(((key_bytes - 1) as u64).into()),
            key_bytes_log: Constant::new((key_bytes.trailing_zeros() as u64).into()),
            key_align: Constant::new(((128 - p.core.key_bits) as u64).into()),
            max_batch: Constant::new((p.max_batch as u64).into()),
            k_banks: Constant::new((p.core.k as u64).into()),
            last_bank: Constant::new((p.core.k.saturating_sub(1) as u64).into()),
            bank_size: Constant::new((1u64 << p.core.bank_bits).into()),
            bank_bits_c: Constant::new((p.core.bank_bits as u64).into()),
            stats_len: Constant::new((p.stats_bytes() as u64).into()),
            write_settle: Constant::new(
                (write_settle_cycles(&crate::Timing::of(&p.core)) as u64).into(),
            ),
            config_word: Constant::new(config_word),
            replay_on: Constant::new(!p.disable_replay),
            counting: Constant::new(p.core.counter_bits > 1),
            counter_max: Constant::new(((1u64 << p.core.counter_bits) - 1).into()),
        }
    }
}

impl Logic for Executor {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            seq_r,
            op_r,
            len_r,
            reason_r,
            nkeys,
            idx,
            bptr,
            bcount,
            load_count,
            key_sr,
            bitmap,
            have_last,
            last_seq,
            last_op,
            last_bitmap,
            last_n,
            ops_served,
            frames_ok,
            frames_rejected,
            frames_replayed,
            out_sr,
            out_left,
            resp_code,
            resp_len,
            then_fill,
            bank,
            addr,
            bitcnt,
            byte_acc,
            wait_count,
            fill_sr,
            rejected_flag,
            dump_len,
            dump_ok,
            pl_valid_r,
            dump_span,
            last_idx,
            op_single,
            op_batch,
            op_clear,
            op_stats,
            op_dump,
            op_config,
            op_info,
            is_retry,
            len_is_key,
            len_batch_ok,
            len_zero,
            len_dump_ok,
            image_incomplete,
            write_left,
            write_fits,
            op_write,
            op_local,
            op_silent,
            len_write_ok,
            rb_req_r,
            rb_write_r,
            rb_wdata_r,
            rb_addr_r,
            sat_phase,
            op_wrong_kind,
            op_delete,
            op_cdump,
            cdump_span,
            cdump_len,
            cdump_ok,
            cdump,
            cwrite,
            value_bad,
            cw_data_r,
            op_cwrite,
            cwrite_fits
        );
        self.f_ack.next = false;
        self.buf_raddr.next = self.bptr.q.val();
        self.r_start.next = false;
        self.r_seq.next = self.seq_r.q.val();
        self.r_code.next = self.resp_code.q.val();
        self.r_len.next = self.resp_len.q.val();
        self.pl_data.next = self.out_sr.q.val().get_bits::<8>(0);
        self.pl_valid.next = self.pl_valid_r.q.val();
        self.pl_valid_r.d.next = false;
        self.core.req.valid.next = false;
        self.core.req.op.next = 0.into();
        self.core.req.key.next = self.key_sr.q.val() >> self.key_align.val();
        self.core.req.tag.next = self.idx.q.val();
        self.core.resp.ready.next = false;
        self.core.rb.req.next = self.rb_req_r.q.val();
        self.core.rb.bank.next = self.bank.q.val().get_bits::<4>(0);
        self.core.rb.addr.next = self.rb_addr_r.q.val();
        self.core.rb.write.next = self.rb_write_r.q.val();
        self.core.rb.wdata.next = self.rb_wdata_r.q.val();
        self.rb_req_r.d.next = false;
        self.rb_write_r.d.next = false;
        self.rb_addr_r.d.next = self.addr.q.val();
        self.rb_wdata_r.d.next = self.byte_acc.q.val().get_bit(0);
        self.core.fill.bank.next = self.bank.q.val().get_bits::<4>(0);
        self.counter.wdata.next = self.cw_data_r.q.val();
        self.cw_data_r.d.next = self.byte_acc.q.val();
        self.last_rejected.next = self.rejected_flag.q.val();
        self.dump_span.d.next = (self.bank_size.val()
            - bit_cast::<17, 16>(self.key_sr.q.val().get_bits::<16>(112)))
            >> 3;
        if self.dump_span.q.val() > 128 {
            self.dump_len.d.next = 128.into();
        } else {
            self.dump_len.d.next = self.dump_span.q.val().get_bits::<8>(0);
        }
        // key_sr[127:104] holds the three dump argument bytes: bank, addr lo, addr hi.
        self.dump_ok.d.next = (self.key_sr.q.val().get_bits::<8>(104) < self.k_banks.val())
            & ((self.key_sr.q.val().get_bits::<16>(112) >> self.bank_bits_c.val()) == 0)
            & (self.key_sr.q.val().get_bits::<3>(112) == 0);
        self.cdump_span.d.next =
            self.bank_size.val() - bit_cast::<17, 16>(self.key_sr.q.val().get_bits::<16>(112));
        if self.cdump_span.q.val() > 128 {
            self.cdump_len.d.next = 128.into();
        } else {
            self.cdump_len.d.next = self.cdump_span.q.val().get_bits::<8>(0);
        }
        self.cdump_ok.d.next = (self.key_sr.q.val().get_bits::<8>(104) < self.k_banks.val())
            & ((self.key_sr.q.val().get_bits::<16>(112) >> self.bank_bits_c.val()) == 0);
        self.cwrite_fits.d.next =
            bit_cast::<17, 8>(self.len_r.q.val() - 3) <= self.cdump_span.q.val();
        // A write's data bytes (LEN - 3) must end inside the bank.
        self.write_fits.d.next =
            bit_cast::<17, 8>(self.len_r.q.val() - 3) <= self.dump_span.q.val();

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
        self.op_local.d.next = (self.f_op.val() == 10) | (self.f_op.val() == 11);
        self.op_silent.d.next =
            (self.f_op.val() == 5) | (self.f_op.val() == 10) | (self.f_op.val() == 11);
        self.is_retry.d.next = self.have_last.q.val()
            & self.replay_on.val()
            & (self.f_seq.val() == self.last_seq.q.val())
            & (self.f_op.val() == self.last_op.q.val())
            & ((((self.f_op.val() >= 1) & (self.f_op.val() <= 5))
                | ((self.f_op.val() >= 9) & (self.f_op.val() <= 13)))
                | (self.f_op.val() == 15));
        self.len_is_key.d.next = self.f_len.val() == self.key_bytes.val();
        self.len_batch_ok.d.next = ((self.f_len.val() & self.key_bytes_mask.val()) == 0)
            & (self.f_len.val() != 0)
            & ((self.f_len.val() >> self.key_bytes_log.val()) <= self.max_batch.val());
        self.len_zero.d.next = self.f_len.val() == 0;
        self.len_dump_ok.d.next = self.f_len.val() == 3;
        self.len_write_ok.d.next = self.f_len.val() > 3;

        match self.state.q.val() {
            ExecState::Idle => {
                if self.f_done.val() {
                    self.seq_r.d.next = self.f_seq.val();
                    self.op_r.d.next = self.f_op.val();
                    self.len_r.d.next = self.f_len.val();
                    self.reason_r.d.next = self.f_status.val();
                    self.bptr.d.next = 0.into();
                    self.bcount.d.next = 0.into();
                    self.idx.d.next = 0.into();
                    self.bitmap.d.next = 0.into();
                    self.then_fill.d.next = false;
                    if self.f_status.val() != 0 {
                        self.state.d.next = ExecState::Reject;
                    } else {
                        self.state.d.next = ExecState::Decode;
                    }
                }
            }
            ExecState::Decode => {
                self.load_count.d.next = self.key_bytes.val();
                self.nkeys.d.next = 1.into();
                self.last_idx.d.next = 0.into();
                self.resp_code.d.next = self.op_r.q.val();
                self.reason_r.d.next = 2.into();
                self.state.d.next = ExecState::Reject;
                if self.op_single.q.val() {
                    if self.len_is_key.q.val() {
                        self.state.d.next = ExecState::LoadA;
                    }
                } else if self.op_batch.q.val() {
                    self.nkeys.d.next = self.len_r.q.val() >> self.key_bytes_log.val();
                    self.last_idx.d.next = (self.len_r.q.val() >> self.key_bytes_log.val()) - 1;
                    if self.len_batch_ok.q.val() {
                        self.state.d.next = ExecState::LoadA;
                    }
                } else if self.op_clear.q.val() {
                    if self.len_zero.q.val() {
                        self.state.d.next = ExecState::Issue;
                    }
                } else if self.op_stats.q.val() {
                    if self.len_zero.q.val() {
                        self.out_sr.d.next = self.config_word.val()
                            | (bit_cast::<256, 32>(self.ops_served.q.val()) << 120)
                            | (bit_cast::<256, 32>(self.frames_ok.q.val()) << 152)
                            | (bit_cast::<256, 32>(self.frames_rejected.q.val()) << 184)
                            | (bit_cast::<256, 32>(self.frames_replayed.q.val()) << 216)
                            | (bit_cast::<256, 1>(self.image_incomplete.q.val().into()) << 248);
                        self.out_left.d.next = 32.into();
                        self.sat_phase.d.next = false;
                        self.resp_len.d.next = self.stats_len.val();
                        self.then_fill.d.next = true;
                        self.bank.d.next = 0.into();
                        self.frames_ok.d.next = self.frames_ok.q.val() + 1;
                        self.state.d.next = ExecState::RespondSr;
                    }
                } else if self.op_dump.q.val() {
                    self.load_count.d.next = 3.into();
                    self.cdump.d.next = self.op_cdump.q.val();
                    if self.len_dump_ok.q.val() {
                        self.state.d.next = ExecState::LoadA;
                    }
                } else if self.op_write.q.val() {
                    self.load_count.d.next = 3.into();
                    self.cwrite.d.next = self.op_cwrite.q.val();
                    self.value_bad.d.next = false;
                    if self.len_write_ok.q.val() {
                        self.state.d.next = ExecState::LoadA;
                    }
                } else if self.op_local.q.val() {
                    if self.len_zero.q.val() {
                        self.state.d.next = ExecState::Finish;
                    }
                } else if self.op_config.q.val() {
                    if self.len_zero.q.val() {
                        self.out_sr.d.next = self.config_word.val();
                        self.out_left.d.next = 15.into();
                        self.resp_len.d.next = 15.into();
                        self.frames_ok.d.next = self.frames_ok.q.val() + 1;
                        self.state.d.next = ExecState::RespondSr;
                    }
                } else {
                    self.reason_r.d.next = 3.into();
                }
                // Deletes on a plain board, write bits on a counting one: whatever the payload.
                if self.op_wrong_kind.q.val() {
                    self.reason_r.d.next = 6.into();
                    self.state.d.next = ExecState::Reject;
                }
                // A retry of the last executed frame: answer it again, do not re-run it.
                if self.is_retry.q.val() {
                    self.state.d.next = ExecState::Replay;
                } else if self.op_info.q.val() {
                    self.have_last.d.next = true;
                    self.last_seq.d.next = self.seq_r.q.val();
                    self.last_op.d.next = self.op_r.q.val();
                }
            }
            ExecState::LoadA => {
                self.state.d.next = ExecState::LoadB;
            }
            ExecState::LoadB => {
                self.key_sr.d.next =
                    (self.key_sr.q.val() >> 8) | (bit_cast::<128, 8>(self.buf_rdata.val()) << 120);
                self.bptr.d.next = self.bptr.q.val() + 1;
                self.bcount.d.next = self.bcount.q.val() + 1;
                if self.bcount.q.val() == (self.load_count.q.val() - 1) {
                    self.bcount.d.next = 0.into();
                    if (self.op_r.q.val() == 7) | (self.op_r.q.val() == 14) {
                        self.state.d.next = ExecState::DumpPrep;
                    } else if (self.op_r.q.val() == 9) | (self.op_r.q.val() == 15) {
                        self.state.d.next = ExecState::WritePrep;
                    } else {
                        self.state.d.next = ExecState::Issue;
                    }
                } else {
                    self.state.d.next = ExecState::LoadA;
                }
            }
            ExecState::Issue => {
                self.core.req.valid.next = true;
                if self.op_r.q.val() == 5 {
                    self.core.req.op.next = 2.into();
                } else if self.op_delete.q.val() {
                    self.core.req.op.next = 3.into();
                } else if (self.op_r.q.val() == 2) | (self.op_r.q.val() == 4) {
                    self.core.req.op.next = 1.into();
                } else {
                    self.core.req.op.next = 0.into();
                }
                if self.core.req.ready.val() {
                    self.state.d.next = ExecState::WaitResp;
                }
            }
            ExecState::WaitResp => {
                self.core.resp.ready.next = true;
                if self.core.resp.valid.val() {
                    self.bitmap.d.next = self
                        .bitmap
                        .q
                        .val()
                        .replace_bit(self.idx.q.val().index(), self.core.resp.hit.val());
                    self.ops_served.d.next = self.ops_served.q.val() + 1;
                    self.idx.d.next = self.idx.q.val() + 1;
                    if self.idx.q.val() == self.last_idx.q.val() {
                        self.state.d.next = ExecState::Finish;
                    } else {
                        self.state.d.next = ExecState::LoadA;
                    }
                }
            }
            ExecState::Finish => {
                self.have_last.d.next = true;
                self.last_seq.d.next = self.seq_r.q.val();
                self.last_op.d.next = self.op_r.q.val();
                self.last_bitmap.d.next = self.bitmap.q.val();
                self.last_n.d.next = self.nkeys.q.val();
                self.frames_ok.d.next = self.frames_ok.q.val() + 1;
                self.rejected_flag.d.next = false;
                self.out_sr.d.next = bit_cast::<256, 32>(self.bitmap.q.val());
                if self.op_silent.q.val() {
                    self.out_left.d.next = 0.into();
                    self.resp_len.d.next = 0.into();
                } else {
                    self.out_left.d.next = (self.nkeys.q.val() + 7) >> 3;
                    self.resp_len.d.next = (self.nkeys.q.val() + 7) >> 3;
                }
                if (self.op_r.q.val() == 5) | (self.op_r.q.val() == 10) {
                    self.image_incomplete.d.next = false;
                }
                if self.op_r.q.val() == 11 {
                    self.ops_served.d.next = 0.into();
                    self.frames_ok.d.next = 0.into();
                    self.frames_rejected.d.next = 0.into();
                    self.frames_replayed.d.next = 0.into();
                }
                self.state.d.next = ExecState::RespondSr;
            }
            ExecState::Replay => {
                self.frames_replayed.d.next = self.frames_replayed.q.val() + 1;
                self.out_sr.d.next = bit_cast::<256, 32>(self.last_bitmap.q.val());
                if self.op_silent.q.val() {
                    self.out_left.d.next = 0.into();
                    self.resp_len.d.next = 0.into();
                } else {
                    self.out_left.d.next = (self.last_n.q.val() + 7) >> 3;
                    self.resp_len.d.next = (self.last_n.q.val() + 7) >> 3;
                }
                self.state.d.next = ExecState::RespondSr;
            }
            ExecState::Reject => {
                self.frames_rejected.d.next = self.frames_rejected.q.val() + 1;
                self.rejected_flag.d.next = true;
                self.resp_code.d.next = 0x80.into();
                self.out_sr.d.next = bit_cast::<256, 8>(self.reason_r.q.val())
                    | (bit_cast::<256, 8>(self.op_r.q.val()) << 8);
                self.out_left.d.next = 2.into();
                self.resp_len.d.next = 2.into();
                self.state.d.next = ExecState::RespondSr;
            }
            ExecState::RespondSr => {
                if self.r_idle.val() {
                    self.r_start.next = true;
                    self.f_ack.next = true;
                    if self.out_left.q.val() == 0 {
                        self.state.d.next = ExecState::Idle;
                    } else {
                        self.state.d.next = ExecState::EmitSr;
                        self.pl_valid_r.d.next = true;
                    }
                }
            }
            ExecState::EmitSr => {
                self.pl_valid_r.d.next = !self.pl_take.val();
                if self.pl_take.val() {
                    self.state.d.next = ExecState::ShiftSr;
                }
            }
            ExecState::ShiftSr => {
                self.state.d.next = ExecState::EmitSr;
                self.pl_valid_r.d.next = self.out_left.q.val() != 1;
                self.out_sr.d.next = self.out_sr.q.val() >> 8;
                self.out_left.d.next = self.out_left.q.val() - 1;
                if self.out_left.q.val() == 1 {
                    if self.then_fill.q.val() {
                        self.state.d.next = ExecState::FillSet;
                    } else {
                        self.state.d.next = ExecState::Idle;
                    }
                }
            }
            ExecState::FillSet => {
                self.wait_count.d.next = 0.into();
                if !self.core.status.busy.val() {
                    self.state.d.next = ExecState::FillWait;
                }
            }
            ExecState::FillWait => {
                // fill_bank has been stable since FillSet; give the core's fill
                // read path a few cycles whatever its registering.
                self.wait_count.d.next = self.wait_count.q.val() + 1;
                if self.wait_count.q.val() == 4 {
                    if self.sat_phase.q.val() {
                        self.fill_sr.d.next = bit_cast::<24, 17>(self.counter.saturated.val());
                    } else {
                        self.fill_sr.d.next = bit_cast::<24, 17>(self.core.fill.count.val());
                    }
                    self.out_left.d.next = 3.into();
                    self.state.d.next = ExecState::EmitFill;
                    self.pl_valid_r.d.next = true;
                }
            }
            ExecState::EmitFill => {
                self.pl_valid_r.d.next = !self.pl_take.val();
                self.pl_data.next = self.fill_sr.q.val().get_bits::<8>(0);
                if self.pl_take.val() {
                    self.state.d.next = ExecState::ShiftFill;
                }
            }
            ExecState::ShiftFill => {
                self.state.d.next = ExecState::EmitFill;
                self.pl_valid_r.d.next = self.out_left.q.val() != 1;
                self.fill_sr.d.next = self.fill_sr.q.val() >> 8;
                self.out_left.d.next = self.out_left.q.val() - 1;
                if self.out_left.q.val() == 1 {
                    self.bank.d.next = self.bank.q.val() + 1;
                    if self.bank.q.val() == self.last_bank.val() {
                        // A counting board's saturated counts follow its fills.
                        if self.counting.val() & !self.sat_phase.q.val() {
                            self.sat_phase.d.next = true;
                            self.bank.d.next = 0.into();
                            self.state.d.next = ExecState::FillSet;
                        } else {
                            self.state.d.next = ExecState::Idle;
                        }
                    } else {
                        self.state.d.next = ExecState::FillSet;
                    }
                }
            }
            ExecState::DumpPrep => {
                // key_sr is complete; dump_span/dump_ok take it in this cycle.
                self.state.d.next = ExecState::DumpPrep2;
            }
            ExecState::DumpPrep2 => {
                // dump_len takes dump_span in this cycle.
                self.state.d.next = ExecState::DumpCheck;
            }
            ExecState::DumpCheck => {
                // key_sr[127:104] holds the three argument bytes: bank, addr lo, addr hi.
                self.bank.d.next = self.key_sr.q.val().get_bits::<8>(104);
                self.addr.d.next = self.key_sr.q.val().get_bits::<16>(112);
                self.bitcnt.d.next = 0.into();
                self.reason_r.d.next = 5.into();
                self.state.d.next = ExecState::Reject;
                if self.cdump.q.val() {
                    if self.cdump_ok.q.val() {
                        self.resp_len.d.next = self.cdump_len.q.val();
                        self.out_left.d.next = self.cdump_len.q.val();
                        self.frames_ok.d.next = self.frames_ok.q.val() + 1;
                        self.rejected_flag.d.next = false;
                        self.state.d.next = ExecState::DumpStart;
                    }
                } else if self.dump_ok.q.val() {
                    self.resp_len.d.next = self.dump_len.q.val();
                    self.out_left.d.next = self.dump_len.q.val();
                    self.frames_ok.d.next = self.frames_ok.q.val() + 1;
                    self.rejected_flag.d.next = false;
                    self.state.d.next = ExecState::DumpStart;
                }
            }
            ExecState::DumpStart => {
                if self.r_idle.val() {
                    self.r_start.next = true;
                    self.f_ack.next = true;
                    self.state.d.next = ExecState::DumpReq;
                }
            }
            ExecState::DumpReq => {
                if !self.core.status.busy.val() {
                    // The readback reaches the core next cycle, from rb_req_r.
                    self.rb_req_r.d.next = true;
                    self.state.d.next = ExecState::DumpWait;
                }
            }
            ExecState::DumpWait => {
                if self.core.rb.valid.val() & self.cdump.q.val() {
                    // Dump counters: one counter a byte.
                    self.byte_acc.d.next = self.counter.rdata.val();
                    self.addr.d.next = self.addr.q.val() + 1;
                    self.state.d.next = ExecState::DumpEmit;
                    self.pl_valid_r.d.next = true;
                } else if self.core.rb.valid.val() {
                    self.byte_acc.d.next =
                        (self.byte_acc.q.val() >> 1).replace_bit(7, self.core.rb.data.val());
                    self.addr.d.next = self.addr.q.val() + 1;
                    self.bitcnt.d.next = self.bitcnt.q.val() + 1;
                    if self.bitcnt.q.val() == 7 {
                        self.bitcnt.d.next = 0.into();
                        self.state.d.next = ExecState::DumpEmit;
                        self.pl_valid_r.d.next = true;
                    } else {
                        self.state.d.next = ExecState::DumpReq;
                    }
                }
            }
            ExecState::DumpEmit => {
                self.pl_valid_r.d.next = !self.pl_take.val();
                self.pl_data.next = self.byte_acc.q.val();
                if self.pl_take.val() {
                    self.state.d.next = ExecState::DumpNext;
                }
            }
            ExecState::DumpNext => {
                self.out_left.d.next = self.out_left.q.val() - 1;
                if self.out_left.q.val() == 1 {
                    self.state.d.next = ExecState::Idle;
                } else {
                    self.state.d.next = ExecState::DumpReq;
                }
            }
            ExecState::WritePrep => {
                // key_sr is complete; dump_span/dump_ok take it in this cycle.
                self.state.d.next = ExecState::WritePrep2;
            }
            ExecState::WritePrep2 => {
                // write_fits takes dump_span in this cycle.
                self.state.d.next = ExecState::WriteCheck;
            }
            ExecState::WriteCheck => {
                self.bank.d.next = self.key_sr.q.val().get_bits::<8>(104);
                self.addr.d.next = self.key_sr.q.val().get_bits::<16>(112);
                self.write_left.d.next = self.len_r.q.val() - 3;
                self.reason_r.d.next = 5.into();
                self.state.d.next = ExecState::Reject;
                if self.cwrite.q.val() {
                    // Every value is checked before any is written.
                    if self.cdump_ok.q.val() & self.cwrite_fits.q.val() {
                        self.state.d.next = ExecState::CheckFetch;
                    }
                } else if self.dump_ok.q.val() & self.write_fits.q.val() {
                    self.state.d.next = ExecState::WriteIdle;
                }
            }
            ExecState::CheckFetch => {
                // buf_raddr = bptr now; the byte is there next cycle.
                self.state.d.next = ExecState::CheckLoad;
            }
            ExecState::CheckLoad => {
                if self.buf_rdata.val() > self.counter_max.val() {
                    self.value_bad.d.next = true;
                }
                self.bptr.d.next = self.bptr.q.val() + 1;
                self.write_left.d.next = self.write_left.q.val() - 1;
                if self.write_left.q.val() == 1 {
                    self.state.d.next = ExecState::CheckByte;
                } else {
                    self.state.d.next = ExecState::CheckFetch;
                }
            }
            ExecState::CheckByte => {
                // Back to the first data byte for the writes.
                self.bptr.d.next = 3.into();
                self.write_left.d.next = self.len_r.q.val() - 3;
                if self.value_bad.q.val() {
                    self.state.d.next = ExecState::Reject;
                } else {
                    self.state.d.next = ExecState::WriteIdle;
                }
            }
            ExecState::WriteIdle => {
                // Bit writes are dropped while a clear sweeps; nothing else can start one now.
                if !self.core.status.busy.val() {
                    self.image_incomplete.d.next = true;
                    self.state.d.next = ExecState::WriteFetch;
                }
            }
            ExecState::WriteFetch => {
                // buf_raddr = bptr now; the byte is there next cycle.
                self.state.d.next = ExecState::WriteLoad;
            }
            ExecState::WriteLoad => {
                self.byte_acc.d.next = self.buf_rdata.val();
                self.bptr.d.next = self.bptr.q.val() + 1;
                self.bitcnt.d.next = 0.into();
                self.state.d.next = ExecState::WriteBit;
            }
            ExecState::WriteBit => {
                // The bit (or counter) write reaches the core next cycle, from rb_*_r
                // (and cw_data_r, which takes byte_acc now).
                self.rb_req_r.d.next = true;
                self.rb_write_r.d.next = true;
                if self.cwrite.q.val() {
                    // One counter a byte.
                    self.bitcnt.d.next = 0.into();
                    self.addr.d.next = self.addr.q.val() + 1;
                    self.write_left.d.next = self.write_left.q.val() - 1;
                    self.wait_count.d.next = 0.into();
                    if self.write_left.q.val() == 1 {
                        self.state.d.next = ExecState::WriteSettle;
                    } else {
                        self.state.d.next = ExecState::WriteFetch;
                    }
                } else {
                    self.byte_acc.d.next = self.byte_acc.q.val() >> 1;
                    self.addr.d.next = self.addr.q.val() + 1;
                    self.bitcnt.d.next = self.bitcnt.q.val() + 1;
                    if self.bitcnt.q.val() == 7 {
                        self.write_left.d.next = self.write_left.q.val() - 1;
                        self.wait_count.d.next = 0.into();
                        if self.write_left.q.val() == 1 {
                            self.state.d.next = ExecState::WriteSettle;
                        } else {
                            self.state.d.next = ExecState::WriteFetch;
                        }
                    }
                }
            }
            ExecState::WriteSettle => {
                // The last write reached the core in the first cycle of this state; its
                // bank's fill counter has counted it within write_settle cycles (write_settle_cycles).
                self.wait_count.d.next = self.wait_count.q.val() + 1;
                if self.wait_count.q.val() == self.write_settle.val() {
                    self.bitmap.d.next = bit_cast::<32, 17>(self.core.fill.count.val());
                    self.nkeys.d.next = 24.into();
                    self.state.d.next = ExecState::Finish;
                }
            }
            _ => {
                self.state.d.next = ExecState::Idle;
            }
        }
        if self.reset.val() {
            self.state.d.next = ExecState::Idle;
            self.have_last.d.next = false;
            self.pl_valid_r.d.next = false;
            self.rb_req_r.d.next = false;
            self.rb_write_r.d.next = false;
            self.ops_served.d.next = 0.into();
            self.frames_ok.d.next = 0.into();
            self.frames_rejected.d.next = 0.into();
            self.frames_replayed.d.next = 0.into();
        }
    }
}
