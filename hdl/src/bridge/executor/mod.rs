//! Frame executor: validates a received frame against its operation, runs it
//! on the filter core one key at a time, keeps the exactly-once replay cache
//! and the counters, and streams the response payload to the framer
//! (docs/protocol.md §3-§6).
//!
//! A state machine whose states are each one engine's ([`state`]; the register
//! is the [`sequencer`]'s), and the blocks that act in them, each in a file of
//! its own: [`frame_decode`] (Idle, Decode: the header, the reason of a
//! rejection; with [`op_decode`], the header's decode), [`replay_cache`]
//! (exactly-once), [`frame_stats`] (the stats' counters), [`key_sequencer`]
//! (LoadA .. WaitResp: keys to the core, the answer), [`responder`] (Finish ..
//! ShiftSr: the response and its payload hand-off), [`fill_reader`] (FillSet ..
//! ShiftFill: the stats' fills), [`dump_engine`] (Dump*), [`write_engine`]
//! (Write*, Check*), [`bank_port`] (the core's bank access and fill ports, and
//! the walk over a bank), [`argument_check`] (a dump's or write's
//! arguments) and [`scrub_request`] (the scrub frame: the core's `scrub_req`). The groups of signals several share are declared once in
//! [`groups`]. This block only wires them.
//!
//! Exactly-once: after executing a frame the executor remembers its SEQ, OP
//! and answer (hit bitmap, or a bank's fill). A good frame whose SEQ and OP
//! equal the remembered ones and whose OP changes something (query/insert,
//! single or batch, clear, write bits, image complete, zero counters) is
//! answered from that memory without being executed again (counted in
//! `frames_replayed`). Stats, dump and config frames are always executed (they
//! change nothing) and also become the remembered SEQ, which is how a host
//! starts a session; so is a scrub frame (a second scrub only replaces the
//! first one's result), which also becomes the remembered frame.
//!
//! The scrub (docs/protocol.md §3, §5): a scrub frame raises the core's
//! `scrub_req` for one cycle in Finish unless a scrub is running, and answers
//! whether it did and how many scrubs had ended; the stats carry `scrub_busy`,
//! whether a scrub has ended since the last reset, `scrub_mismatch` and the
//! scrubs ended. A board without the scrub refuses the
//! frame (NO_SCRUB) and reads 0 on both.
//!
//! Latency (frame accepted to first response byte handed to the framer), for
//! a core of latency L: per key 2*key_bytes + 2 + L cycles; replay, stats,
//! config, image complete, zero counters, scrub and errors 3 cycles; dump 3 cycles
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
//! The receive buffer is read only while the frame receiver holds `done` (it
//! is released by `ack` when the response starts), so no read ever meets a
//! write to the same address. Core readbacks and fill reads wait until the
//! core is not `busy`. Memory: none of its own (registers).

pub mod argument_check;
pub mod bank_port;
pub mod dump_engine;
pub mod fill_reader;
pub mod frame_decode;
pub mod frame_stats;
pub mod groups;
pub mod key_sequencer;
pub mod op_decode;
pub mod replay_cache;
pub mod responder;
pub mod scrub_request;
pub mod sequencer;
pub mod state;
pub mod write_engine;

use rust_hdl::prelude::*;

use crate::ports::{
    CoreDriver, CounterDriver, ReadbackDriver, RequestDriver, ResponseDriver, ScrubDriver,
};
use argument_check::ArgumentCheck;
use bank_port::BankPort;
use dump_engine::DumpEngine;
use fill_reader::FillReader;
use frame_decode::FrameDecode;
use frame_stats::FrameStats;
use groups::{ArgumentChecks, Dispatch, FrameHeader, Walk};
use key_sequencer::KeySequencer;
use replay_cache::ReplayCache;
use responder::Responder;
use scrub_request::ScrubRequest;
use sequencer::Sequencer;
pub use state::ExecState;
use state::NextState;
use write_engine::WriteEngine;

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
pub const OP_SCRUB: u8 = 0x10;
/// The protocol version in the configuration block.
pub const PROTOCOL_VERSION: u8 = 4;
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
/// A scrub request to a board built without the scrub.
pub const ERR_NO_SCRUB: u8 = 7;
/// Bytes in the configuration block, and in the stats payload before the fills
/// (the block, four counters, the status byte, the scrub's mismatch bits, the
/// scrubs ended).
pub const CONFIG_BYTES: u32 = 20;
pub const STATS_FIXED_BYTES: u32 = CONFIG_BYTES + 16 + 1 + 2 + 1;
/// Bytes before the data of a write bits frame: bank, bit address (2).
pub const WRITE_HEADER_BYTES: u32 = 3;
/// Largest dump chunk, in bytes (8 bits each).
pub const DUMP_CHUNK_BYTES: u32 = 128;

/// Build-time constants of the executor, derived from the core configuration.
#[derive(Clone, Debug)]
pub struct ExecutorParams {
    pub core: crate::CoreParams,
    pub max_batch: u32,
    /// The core has the scrub (docs/contract.md §5.2), and its period if periodic.
    pub scrub: bool,
    pub scrub_every: Option<u32>,
    /// Test only: answer retries by executing them again (breaks exactly-once,
    /// so that the fault test can prove it notices).
    pub disable_replay: bool,
}

/// Cycles from the first cycle of WriteSettle until the bank's fill counter is read:
/// a bit or counter write reaches the core's write stage `commit_latency` cycles after
/// it is presented and is counted `fill_latency - COMMIT_LATENCY` cycles after that
/// (7 in a plain core, 9 in a counting one, whose write-back is two stages later),
/// plus two cycles of margin. Below 32 (wait_count is 5 bits: a counting Feistel
/// core needs 17).
pub fn write_settle_cycles(t: &crate::Timing) -> u32 {
    let cycles =
        t.commit_latency + t.fill_latency.saturating_sub(crate::timing::COMMIT_LATENCY) + 2;
    assert!(
        cycles < 32,
        "write settle of {cycles} cycles does not fit the 5-bit wait counter"
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
        // The scrub: bit 0 built, bit 1 the power-up check (a plain core with the scrub).
        b.push(self.scrub as u8 | ((self.scrub && c.counter_bits <= 1) as u8) << 1);
        b.extend_from_slice(&self.scrub_every.unwrap_or(0).to_le_bytes());
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
    /// The core's scrub (a core without it ignores scrub_req and reads 0).
    pub scrub: ScrubDriver<128>,
    /// High from a rejected frame until the next good one (drives an LED).
    pub last_rejected: Signal<Out, Bit>,
    sequencer: Sequencer,
    decode: FrameDecode,
    replay: ReplayCache,
    stats: FrameStats,
    keys: KeySequencer,
    answer: Responder,
    fills: FillReader,
    bank: BankPort,
    dump: DumpEngine,
    writes: WriteEngine,
    checks: ArgumentCheck,
    scrubs: ScrubRequest,
}

impl Executor {
    pub fn new(p: &ExecutorParams) -> Self {
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
            scrub: Default::default(),
            last_rejected: Default::default(),
            sequencer: Default::default(),
            decode: FrameDecode::new(&p.core, p.max_batch, p.scrub),
            replay: ReplayCache::new(!p.disable_replay),
            stats: Default::default(),
            keys: KeySequencer::new(p.core.key_bits),
            answer: Responder::new(&p.config_block(), p.stats_bytes()),
            fills: FillReader::new(&p.core),
            bank: BankPort::new(&p.core),
            dump: Default::default(),
            writes: WriteEngine::new(&p.core, write_settle_cycles(&crate::Timing::of(&p.core))),
            checks: ArgumentCheck::new(&p.core),
            scrubs: Default::default(),
        }
    }
}

impl Logic for Executor {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self, clock, sequencer, decode, replay, stats, keys, answer, fills, bank, dump, writes,
            checks
        );
        self.sequencer.reset.next = self.reset.val();
        self.replay.reset.next = self.reset.val();
        self.stats.reset.next = self.reset.val();
        self.answer.reset.next = self.reset.val();
        self.bank.reset.next = self.reset.val();

        // The state, and the engine whose state it is names the next.
        self.decode.state.next = self.sequencer.state.val();
        self.replay.state.next = self.sequencer.state.val();
        self.stats.state.next = self.sequencer.state.val();
        self.keys.state.next = self.sequencer.state.val();
        self.answer.state.next = self.sequencer.state.val();
        self.fills.state.next = self.sequencer.state.val();
        self.bank.state.next = self.sequencer.state.val();
        self.dump.state.next = self.sequencer.state.val();
        self.writes.state.next = self.sequencer.state.val();
        self.scrubs.state.next = self.sequencer.state.val();
        NextState::join(&mut self.decode.step, &mut self.sequencer.frame);
        NextState::join(&mut self.keys.step, &mut self.sequencer.keys);
        NextState::join(&mut self.answer.step, &mut self.sequencer.answer);
        NextState::join(&mut self.fills.step, &mut self.sequencer.fills);
        NextState::join(&mut self.dump.step, &mut self.sequencer.dump);
        NextState::join(&mut self.writes.step, &mut self.sequencer.write);

        // The frame: its header and decode, to every block that acts on them.
        self.decode.f_done.next = self.f_done.val();
        self.decode.f_status.next = self.f_status.val();
        self.decode.f_seq.next = self.f_seq.val();
        self.decode.f_op.next = self.f_op.val();
        self.decode.f_len.next = self.f_len.val();
        self.decode.is_retry.next = self.replay.retry.val();
        self.replay.f_seq.next = self.f_seq.val();
        self.replay.f_op.next = self.f_op.val();
        self.keys.f_done.next = self.f_done.val();
        self.answer.f_done.next = self.f_done.val();
        FrameHeader::<0>::join(&mut self.decode.header, &mut self.replay.header);
        FrameHeader::<0>::join(&mut self.decode.header, &mut self.stats.header);
        FrameHeader::<0>::join(&mut self.decode.header, &mut self.keys.header);
        FrameHeader::<0>::join(&mut self.decode.header, &mut self.answer.header);
        FrameHeader::<0>::join(&mut self.decode.header, &mut self.writes.header);
        FrameHeader::<0>::join(&mut self.decode.header, &mut self.checks.header);
        FrameHeader::<0>::join(&mut self.decode.header, &mut self.scrubs.header);
        Dispatch::<0>::join(&mut self.decode.dispatch, &mut self.stats.dispatch);
        Dispatch::<0>::join(&mut self.decode.dispatch, &mut self.keys.dispatch);
        Dispatch::<0>::join(&mut self.decode.dispatch, &mut self.answer.dispatch);
        Dispatch::<0>::join(&mut self.decode.dispatch, &mut self.fills.dispatch);
        Dispatch::<0>::join(&mut self.decode.dispatch, &mut self.bank.dispatch);
        Dispatch::<0>::join(&mut self.decode.dispatch, &mut self.dump.dispatch);
        Dispatch::<0>::join(&mut self.decode.dispatch, &mut self.writes.dispatch);
        self.replay.info.next = self.decode.info.val();
        self.keys.delete.next = self.decode.delete.val();
        self.answer.silent.next = self.decode.silent.val();
        self.answer.reason.next = self.decode.reason.val();
        self.dump.op_cdump.next = self.decode.cdump.val();
        self.writes.op_cwrite.next = self.decode.cwrite.val();

        // The receive buffer, through the keys' pointer.
        self.buf_raddr.next = self.keys.buf_raddr.val();
        self.keys.buf_rdata.next = self.buf_rdata.val();
        self.writes.buf_rdata.next = self.buf_rdata.val();
        self.bank.buf_rdata.next = self.buf_rdata.val();

        // The core.
        RequestDriver::<128>::link(&mut self.core.req, &mut self.keys.req);
        ResponseDriver::<128>::link(&mut self.core.resp, &mut self.keys.resp);
        ReadbackDriver::<128>::link(&mut self.core.rb, &mut self.bank.rb);
        self.core.fill.bank.next = self.bank.fill_bank.val();
        self.counter.wdata.next = self.bank.counter_wdata.val();
        self.bank.counter_rdata.next = self.counter.rdata.val();
        self.keys.fill_count.next = self.core.fill.count.val();
        self.fills.fill_count.next = self.core.fill.count.val();
        self.fills.saturated.next = self.counter.saturated.val();
        self.stats.busy.next = self.core.status.busy.val();
        self.fills.busy.next = self.core.status.busy.val();
        self.bank.busy.next = self.core.status.busy.val();
        self.dump.busy.next = self.core.status.busy.val();
        self.writes.busy.next = self.core.status.busy.val();
        self.stats.resp_valid.next = self.core.resp.valid.val();
        self.dump.rb_valid.next = self.core.rb.valid.val();
        self.scrub.req.next = self.scrubs.req.val();
        self.scrubs.busy.next = self.scrub.busy.val();
        self.stats.scrub_busy.next = self.scrub.busy.val();
        self.stats.scrub_mismatch.next = self.scrub.mismatch.val();
        self.answer.scrub_started.next = self.scrubs.started.val();
        self.answer.scrubs_ended.next = self.stats.scrubs_ended.val();

        // The answers, and the bank walks of the dump, the writes and the fills.
        self.replay.bitmap.next = self.keys.answer.val();
        self.replay.nkeys.next = self.keys.answer_bits.val();
        self.answer.answer.next = self.keys.answer.val();
        self.answer.answer_bits.next = self.keys.answer_bits.val();
        self.answer.last_answer.next = self.replay.last_answer.val();
        self.answer.last_keys.next = self.replay.last_keys.val();
        self.answer.stats_payload.next = self.stats.payload.val();
        self.checks.args.next = self.keys.args.val();
        self.bank.args.next = self.keys.args.val();
        ArgumentChecks::<0>::join(&mut self.checks.checks, &mut self.dump.checks);
        ArgumentChecks::<0>::join(&mut self.checks.checks, &mut self.writes.checks);
        Walk::<0>::join(&mut self.bank.walk, &mut self.answer.walk);
        Walk::<0>::join(&mut self.bank.walk, &mut self.fills.walk);
        Walk::<0>::join(&mut self.bank.walk, &mut self.dump.walk);
        Walk::<0>::join(&mut self.bank.walk, &mut self.writes.walk);
        self.bank.left.next = self.answer.left.val();
        self.fills.left.next = self.answer.left.val();
        self.dump.left.next = self.answer.left.val();
        self.bank.saturated_phase.next = self.fills.saturated_phase.val();
        self.bank.cdump.next = self.dump.counters.val();
        self.bank.cwrite.next = self.writes.counters.val();
        self.keys.settled.next = self.writes.settled.val();
        self.stats.dump_accepted.next = self.dump.accepted.val();
        self.answer.dump_accepted.next = self.dump.accepted.val();
        self.answer.dump_chunk.next = self.dump.chunk.val();
        self.answer.dump_byte_done.next = self.dump.byte_done.val();
        self.answer.fill_byte.next = self.fills.fill_byte.val();

        // The response framer.
        self.f_ack.next = self.answer.f_ack.val();
        self.r_start.next = self.answer.r_start.val();
        self.r_seq.next = self.answer.r_seq.val();
        self.r_code.next = self.answer.r_code.val();
        self.r_len.next = self.answer.r_len.val();
        self.pl_data.next = self.answer.pl_data.val();
        self.pl_valid.next = self.answer.pl_valid.val();
        self.answer.pl_take.next = self.pl_take.val();
        self.answer.r_idle.next = self.r_idle.val();
        self.fills.pl_take.next = self.pl_take.val();
        self.dump.pl_take.next = self.pl_take.val();
        self.dump.r_idle.next = self.r_idle.val();
        self.last_rejected.next = self.stats.last_rejected.val();
    }
}
