//! `Sequencer`: the executor's state register. In each cycle the engine whose
//! state it is (the one that claims it) gives the next state; a value no engine
//! claims (none of the states) leads to Idle, as reset does.
//!
//! Latency: the next state is the state from the next cycle. Memory: none (one
//! register).

use rust_hdl::prelude::*;

use super::state::{ExecState, NextStateIn};

#[derive(LogicBlock, Default)]
pub struct Sequencer {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The current state.
    pub state: Signal<Out, ExecState>,
    /// The engines: frame decode (Idle, Decode), the keys (LoadA .. WaitResp),
    /// the answer (Finish .. ShiftSr), the fills (FillSet .. ShiftFill), the
    /// dump (Dump*), the writes (Write*, Check*).
    pub frame: NextStateIn,
    pub keys: NextStateIn,
    pub answer: NextStateIn,
    pub fills: NextStateIn,
    pub dump: NextStateIn,
    pub write: NextStateIn,
    current: DFF<ExecState>,
}

impl Logic for Sequencer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, current);
        self.state.next = self.current.q.val();
        self.current.d.next = ExecState::Idle;
        if self.frame.claim.val() {
            self.current.d.next = self.frame.to.val();
        }
        if self.keys.claim.val() {
            self.current.d.next = self.keys.to.val();
        }
        if self.answer.claim.val() {
            self.current.d.next = self.answer.to.val();
        }
        if self.fills.claim.val() {
            self.current.d.next = self.fills.to.val();
        }
        if self.dump.claim.val() {
            self.current.d.next = self.dump.to.val();
        }
        if self.write.claim.val() {
            self.current.d.next = self.write.to.val();
        }
        if self.reset.val() {
            self.current.d.next = ExecState::Idle;
        }
    }
}
