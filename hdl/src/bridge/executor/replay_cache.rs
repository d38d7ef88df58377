//! `ReplayCache`: exactly-once (docs/protocol.md §6). After executing a frame
//! (Finish) the executor remembers its SEQ, OP and answer (the hit bitmap, or a
//! bank's fill, and its number of bits). A good frame whose SEQ and OP equal the
//! remembered ones and whose OP changes something (query/insert, single or
//! batch, clear, write bits, image complete, zero counters, delete, write
//! counters) is a retry (`retry`): Decode sends it to Replay, which answers it
//! from this memory without executing it again. Stats, dump and config frames
//! are always executed and also become the remembered SEQ and OP (in Decode),
//! which is how a host starts a session. Reset forgets.
//!
//! Latency: `retry` is registered from the frame receiver's header, like the
//! decode's flags. Memory: none (registers).

use rust_hdl::prelude::*;

use super::groups::FrameHeaderIn;
use super::state::ExecState;

#[derive(LogicBlock)]
pub struct ReplayCache {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub state: Signal<In, ExecState>,
    /// The frame receiver's SEQ and OP.
    pub f_seq: Signal<In, Bits<8>>,
    pub f_op: Signal<In, Bits<8>>,
    /// The frame being executed; it is stats, dump or config.
    pub header: FrameHeaderIn<0>,
    pub info: Signal<In, Bit>,
    /// Its answer, and the number of bits in it.
    pub bitmap: Signal<In, Bits<32>>,
    pub nkeys: Signal<In, Bits<8>>,
    /// The frame the receiver holds is a retry of the last one executed.
    pub retry: Signal<Out, Bit>,
    /// The last answer and its number of bits.
    pub last_answer: Signal<Out, Bits<32>>,
    pub last_keys: Signal<Out, Bits<8>>,
    is_retry: DFF<Bit>,
    have_last: DFF<Bit>,
    last_seq: DFF<Bits<8>>,
    last_op: DFF<Bits<8>>,
    last_bitmap: DFF<Bits<32>>,
    last_n: DFF<Bits<8>>,
    /// Test only: off, retries are executed again.
    replay_on: Constant<Bit>,
}

impl ReplayCache {
    /// `replay`: answer retries from the cache (off only in the test that proves
    /// the host notices when exactly-once breaks).
    pub fn new(replay: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            state: Default::default(),
            f_seq: Default::default(),
            f_op: Default::default(),
            header: Default::default(),
            info: Default::default(),
            bitmap: Default::default(),
            nkeys: Default::default(),
            retry: Default::default(),
            last_answer: Default::default(),
            last_keys: Default::default(),
            is_retry: Default::default(),
            have_last: Default::default(),
            last_seq: Default::default(),
            last_op: Default::default(),
            last_bitmap: Default::default(),
            last_n: Default::default(),
            replay_on: Constant::new(replay),
        }
    }
}

// An arm whose only statement is an `if`: rust-hdl's `hdl_gen` has no match
// guards, so it stays an `if` inside the arm.
#[allow(clippy::collapsible_match)]
impl Logic for ReplayCache {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            is_retry,
            have_last,
            last_seq,
            last_op,
            last_bitmap,
            last_n
        );
        self.retry.next = self.is_retry.q.val();
        self.last_answer.next = self.last_bitmap.q.val();
        self.last_keys.next = self.last_n.q.val();
        self.is_retry.d.next = self.have_last.q.val()
            & self.replay_on.val()
            & (self.f_seq.val() == self.last_seq.q.val())
            & (self.f_op.val() == self.last_op.q.val())
            & ((((self.f_op.val() >= 1) & (self.f_op.val() <= 5))
                | ((self.f_op.val() >= 9) & (self.f_op.val() <= 13)))
                | (self.f_op.val() == 15));
        match self.state.val() {
            ExecState::Decode => {
                if (!self.is_retry.q.val()) & self.info.val() {
                    self.have_last.d.next = true;
                    self.last_seq.d.next = self.header.seq.val();
                    self.last_op.d.next = self.header.op.val();
                }
            }
            ExecState::Finish => {
                self.have_last.d.next = true;
                self.last_seq.d.next = self.header.seq.val();
                self.last_op.d.next = self.header.op.val();
                self.last_bitmap.d.next = self.bitmap.val();
                self.last_n.d.next = self.nkeys.val();
            }
            _ => {}
        }
        if self.reset.val() {
            self.have_last.d.next = false;
        }
    }
}
