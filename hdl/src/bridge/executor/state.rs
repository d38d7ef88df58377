//! The executor's states, held in one register (`Sequencer`), and how a block
//! names the state after the current one (`NextState`): every state belongs to
//! exactly one of the blocks that drive the sequence (its engine), which claims
//! it and gives the next state; the other blocks read the state and act in it.
//!
//! The encoding is the order below (Idle is 0).

use rust_hdl::prelude::*;

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

/// An engine's say over the sequence: the current state is one of its own
/// (`claim`), and the state after it (`to`; the current one to stay).
#[derive(LogicInterface, Default)]
#[join = "NextStateIn"]
pub struct NextState {
    pub claim: Signal<Out, bool>,
    pub to: Signal<Out, ExecState>,
}

/// [`NextState`] as the sequencer sees it.
#[derive(LogicInterface, Default)]
#[join = "NextState"]
pub struct NextStateIn {
    pub claim: Signal<In, bool>,
    pub to: Signal<In, ExecState>,
}
