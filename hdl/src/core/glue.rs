//! The glue every core variant has between its ports, its control and its k banks: the
//! control gets the core's clock, reset and four port bundles whole (request, response,
//! readback, status) and the scrub's request, every bank its clock, reset and the
//! control's stage registers (`FromControl`), and the scrub ports show the control's
//! `scrub_busy` and the banks' mismatches, bank p in bit p. The plain core (top.rs) and the counting core (counting/top.rs) add
//! only what differs: how the banks' bits come back and what the fill port shows.
//!
//! The glue depends on the runtime bank count k, which rust-hdl's `#[hdl_gen]` cannot
//! loop over, so each piece is written twice, side by side: for rust-hdl's simulator
//! (the `update` and `connect` halves) and for the Verilog (the `*_hdl` text, `always
//! @(*)` lines). No logic, no registers: wires only.

use rust_hdl::prelude::*;

use crate::core::control::Control;
use crate::core::partition::{ControlledBank, ToBanks};
use crate::ports::{
    link_assignments, Clocking, CorePorts, Readback, Request, Response, Scrub, Status,
};

/// `update` half: the control's clock, reset and port bundles from the core's, and every
/// bank's clock, reset and stage registers from the control.
pub(crate) fn drive<const W: usize, B: ControlledBank<W>>(
    sys: &Clocking<W>,
    io: &mut CorePorts<W>,
    scrub: &mut Scrub<W>,
    control: &mut Control<W>,
    banks: &mut [B],
) {
    control.clock.next = sys.clock.val();
    control.reset.next = sys.reset.val();
    control.scrub_req.next = scrub.req.val();
    scrub.busy.next = control.scrub_busy.val();
    scrub.mismatch.next = banks
        .iter()
        .enumerate()
        .fold(Bits::<16>::default(), |m, (p, b)| {
            m.replace_bit(p, b.scrub_mismatch())
        });
    Request::link(&mut io.req, &mut control.req);
    Response::link(&mut io.resp, &mut control.resp);
    Readback::link(&mut io.rb, &mut control.rb);
    Status::link(&mut io.status, &mut control.status);
    for bank in banks.iter_mut() {
        bank.clock().next = sys.clock.val();
        bank.reset().next = sys.reset.val();
        control.banks.join(bank.control());
    }
}

/// `connect` half of [`drive`].
pub(crate) fn connect<const W: usize, B: ControlledBank<W>>(
    io: &mut CorePorts<W>,
    scrub: &mut Scrub<W>,
    control: &mut Control<W>,
    banks: &mut [B],
) {
    control.clock.connect();
    control.reset.connect();
    control.scrub_req.connect();
    scrub.busy.connect();
    scrub.mismatch.connect();
    for (outer, inner) in [
        (
            &mut io.req as &mut dyn LogicLinkPair,
            &mut control.req as &mut dyn LogicLinkPair,
        ),
        (&mut io.resp, &mut control.resp),
        (&mut io.rb, &mut control.rb),
        (&mut io.status, &mut control.status),
    ] {
        outer.connect_source();
        inner.connect_dest();
    }
    control.banks.join_connect();
    for bank in banks.iter_mut() {
        bank.clock().connect();
        bank.reset().connect();
        bank.control().join_connect();
        bank.scrub_mismatch_connect();
    }
}

/// Verilog of [`drive`]'s control half: the clock and reset lines, then the port
/// bundles' links as (inputs into the control, the control's outputs).
pub(crate) fn control_hdl<const W: usize>() -> (String, String, String) {
    let clocking = "    control$clock = sys$clock;\n    control$reset = sys$reset;\n    control$scrub_req = scrub$req;\n    scrub$busy = control$scrub_busy;\n".to_string();
    let mut links = Request::<W>::link_hdl("", "io$req", "control$req");
    links.extend(Response::<W>::link_hdl("", "io$resp", "control$resp"));
    links.extend(Readback::<W>::link_hdl("", "io$rb", "control$rb"));
    links.extend(Status::<W>::link_hdl("", "io$status", "control$status"));
    let (inputs, outputs): (Vec<_>, Vec<_>) = links
        .into_iter()
        .partition(|l| matches!(l, ast::VerilogLink::Forward(_)));
    (
        clocking,
        link_assignments(&inputs),
        link_assignments(&outputs),
    )
}

/// Verilog of [`drive`]'s scrub mismatches of `k` banks: bank p's in bit p, 0 above k.
pub(crate) fn scrub_mismatch_hdl(k: usize) -> String {
    let mut bits: Vec<String> = (0..k)
        .rev()
        .map(|p| format!("parts${p}$scrub_mismatch"))
        .collect();
    if k < 16 {
        bits.insert(0, format!("{}'d0", 16 - k));
    }
    format!("    scrub$mismatch = {{{}}};\n", bits.join(", "))
}

/// Verilog of [`drive`]'s half for bank `p`.
pub(crate) fn bank_hdl<const W: usize>(p: usize) -> String {
    format!("    parts${p}$clock = sys$clock;\n    parts${p}$reset = sys$reset;\n")
        + &link_assignments(&ToBanks::<W>::join_hdl(
            "",
            "control$banks",
            &format!("parts${p}$control"),
        ))
}

/// `LogicLink`'s connect halves, object-safe, so the four bundles can be passed on in one loop.
trait LogicLinkPair {
    fn connect_source(&mut self);
    fn connect_dest(&mut self);
}

impl<T: LogicLink> LogicLinkPair for T {
    fn connect_source(&mut self) {
        self.link_connect_source();
    }
    fn connect_dest(&mut self) {
        self.link_connect_dest();
    }
}
