//! `FillReader`: the stats payload's tail (docs/protocol.md §5): after the fixed
//! part, each bank's fill count, three bytes little-endian, and on a counting
//! board then each bank's saturated count (`sat_phase`), read like the fills.
//! The bank port holds the bank (fill_bank) and the wait: FillSet waits until
//! the core is not busy, FillWait gives the core's fill read path a few cycles
//! whatever its registering (fill_bank is stable since FillSet), then the count
//! is taken into `fill_sr` and its bytes are handed over (EmitFill, ShiftFill).
//!
//! Latency: 6 cycles per bank before its first byte, then a byte per
//! transmission. Memory: none (registers).

use rust_hdl::prelude::*;

use super::groups::{DispatchIn, WalkIn};
use super::state::{ExecState, NextState};

#[derive(LogicBlock)]
pub struct FillReader {
    pub clock: Signal<In, Clock>,
    pub state: Signal<In, ExecState>,
    pub dispatch: DispatchIn<0>,
    pub busy: Signal<In, Bit>,
    /// The bank walked (bank, wait), the payload bytes left, the byte taken.
    pub walk: WalkIn<0>,
    pub left: Signal<In, Bits<8>>,
    pub pl_take: Signal<In, Bit>,
    /// The core's fill count and saturated count of bank fill_bank.
    pub fill_count: Signal<In, Bits<17>>,
    pub saturated: Signal<In, Bits<17>>,
    /// The byte to hand over.
    pub fill_byte: Signal<Out, Bits<8>>,
    /// The saturated counts are being sent (after the fills).
    pub saturated_phase: Signal<Out, Bit>,
    pub step: NextState,
    fill_sr: DFF<Bits<24>>,
    sat_phase: DFF<Bit>,
    /// k - 1: compared without an adder.
    last_bank: Constant<Bits<8>>,
    /// The core is a counting one (counter_bits > 1).
    counting: Constant<Bit>,
}

impl FillReader {
    pub fn new(core: &crate::CoreParams) -> Self {
        Self {
            clock: Default::default(),
            state: Default::default(),
            dispatch: Default::default(),
            busy: Default::default(),
            walk: Default::default(),
            left: Default::default(),
            pl_take: Default::default(),
            fill_count: Default::default(),
            saturated: Default::default(),
            fill_byte: Default::default(),
            saturated_phase: Default::default(),
            step: Default::default(),
            fill_sr: Default::default(),
            sat_phase: Default::default(),
            last_bank: Constant::new((core.k.saturating_sub(1) as u64).into()),
            counting: Constant::new(core.counter_bits > 1),
        }
    }
}

// An arm whose only statement is an `if`: rust-hdl's `hdl_gen` has no match
// guards, so it stays an `if` inside the arm.
#[allow(clippy::collapsible_match)]
impl Logic for FillReader {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fill_sr, sat_phase);
        self.fill_byte.next = self.fill_sr.q.val().get_bits::<8>(0);
        self.saturated_phase.next = self.sat_phase.q.val();
        self.step.claim.next = false;
        self.step.to.next = self.state.val();
        match self.state.val() {
            ExecState::Decode => {
                if self.dispatch.stats.val() {
                    self.sat_phase.d.next = false;
                }
            }
            ExecState::FillSet => {
                self.step.claim.next = true;
                if !self.busy.val() {
                    self.step.to.next = ExecState::FillWait;
                }
            }
            ExecState::FillWait => {
                self.step.claim.next = true;
                if self.walk.wait.val() == 4 {
                    if self.sat_phase.q.val() {
                        self.fill_sr.d.next = bit_cast::<24, 17>(self.saturated.val());
                    } else {
                        self.fill_sr.d.next = bit_cast::<24, 17>(self.fill_count.val());
                    }
                    self.step.to.next = ExecState::EmitFill;
                }
            }
            ExecState::EmitFill => {
                self.step.claim.next = true;
                if self.pl_take.val() {
                    self.step.to.next = ExecState::ShiftFill;
                }
            }
            ExecState::ShiftFill => {
                self.step.claim.next = true;
                self.step.to.next = ExecState::EmitFill;
                self.fill_sr.d.next = self.fill_sr.q.val() >> 8;
                if self.left.val() == 1 {
                    if self.walk.bank.val() == self.last_bank.val() {
                        // A counting board's saturated counts follow its fills.
                        if self.counting.val() & !self.sat_phase.q.val() {
                            self.sat_phase.d.next = true;
                            self.step.to.next = ExecState::FillSet;
                        } else {
                            self.step.to.next = ExecState::Idle;
                        }
                    } else {
                        self.step.to.next = ExecState::FillSet;
                    }
                }
            }
            _ => {}
        }
    }
}
