#!/usr/bin/env python3
"""BloomAxis on the iCEBreaker, built by Amaranth (amaranth-boards).

    bloom_amaranth_icebreaker.py --package PKG --out DIR [--program]

`SelfTest` drives the component from Amaranth logic: it polls STATUS over
the AXI4-Lite channels until the core is idle after reset, reads CONFIG and
compares it with the package's, then, round after round, inserts 256 keys (a xorshift
sequence from a seed of the round's, every key bit varying), queries them (every answer must be 1), clears with a request (op 2) and
queries them again (every answer must be 0), each response checked for its
tag. LEDs: green toggles after every round that passed, red lights on the
first wrong answer, tag or CONFIG and stays lit. The sync domain runs at
24 MHz from the iCE40's PLL (12 MHz oscillator, DIVF 63, DIVQ 5), and the
design is held in reset until the PLL locks and 256 cycles more (iCE40 block
RAM reads 0 for a few microseconds after configuration).

Yosys, nextpnr-ice40 and icepack build it (Amaranth's iCE40 flow); the
script prints nextpnr's utilisation and timing from DIR/bloom_selftest.tim.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from amaranth.hdl import C, Cat, ClockDomain, ClockSignal, Const, Elaboratable, Instance  # noqa: E402
from amaranth.hdl import Module, Signal  # noqa: E402
from amaranth.lib.cdc import ResetSynchronizer  # noqa: E402

from bloom_amaranth import OP_CLEAR, OP_INSERT, OP_QUERY, BloomAxis, BloomConfigError  # noqa: E402
from bloom_amaranth import BloomPackage  # noqa: E402

SYNC_MHZ = 24
KEYS_PER_ROUND = 256
ADDR_STATUS = 0x18


class SelfTest(Elaboratable):
    def __init__(self, package, **expected):
        self.bloom = BloomAxis(package, **expected)

    def elaborate(self, platform):
        m = Module()
        bloom = m.submodules.bloom = self.bloom
        pkg = bloom.package

        # Clock: 12 MHz in, 24 MHz out of the PLL; reset until it locks, and 256 cycles more.
        clk12 = platform.request("clk12", dir="-")
        m.domains.sync = sync = ClockDomain()
        locked = Signal()
        m.submodules.pll = Instance(
            "SB_PLL40_PAD",
            p_FEEDBACK_PATH="SIMPLE", p_DIVR=0, p_DIVF=63, p_DIVQ=5, p_FILTER_RANGE=1,
            i_PACKAGEPIN=clk12.io, i_RESETB=1, i_BYPASS=0,
            o_PLLOUTGLOBAL=sync.clk, o_LOCK=locked,
        )
        platform.add_clock_constraint(sync.clk, SYNC_MHZ * 1e6)
        m.domains.por = ClockDomain(reset_less=True)
        m.d.comb += ClockSignal("por").eq(sync.clk)
        settle = Signal(9)
        with m.If(~locked):
            m.d.por += settle.eq(0)
        with m.Elif(~settle[8]):
            m.d.por += settle.eq(settle + 1)
        m.submodules.reset = ResetSynchronizer(~(locked & settle[8]), domain="sync")

        led_r = platform.request("led", 0)
        led_g = platform.request("led", 1)
        error = Signal()
        passed = Signal()
        m.d.comb += [led_r.o.eq(error), led_g.o.eq(passed)]

        # Register reads (no writes: aw and w stay idle, b is always taken).
        regs = bloom.regs
        m.d.comb += [regs.aw.valid.eq(0), regs.w.valid.eq(0), regs.b.ready.eq(1),
                     regs.r.ready.eq(1)]

        # Requests: every phase of a round sends the same 256 keys, a xorshift
        # sequence (every key bit varies, so that synthesis keeps the whole hash
        # logic) started from a seed of the round's.
        req, resp = bloom.requests, bloom.responses
        round_no = Signal(8)
        sent = Signal(range(KEYS_PER_ROUND + 1))
        got = Signal(range(KEYS_PER_ROUND + 1))
        w = pkg.key_bits
        key = Signal(w)
        x1 = Signal(w)
        x2 = Signal(w)
        x3 = Signal(w)
        m.d.comb += [
            x1.eq(key ^ (key << 13)[:w]),
            x2.eq(x1 ^ (x1 >> 7)),
            x3.eq(x2 ^ (x2 << 17)[:w]),
        ]
        seed = Cat(round_no, Const(0x5EED_B100_F1, w - 8))
        with m.If(req.valid & req.ready):
            m.d.sync += key.eq(x3)
        check_hit = Signal()  # the answers of this phase are known: queries and the clear
        want_hit = Signal()
        m.d.comb += [
            req.payload.key.eq(key),
            req.payload.tag.eq(sent[:8]),
            resp.ready.eq(1),
        ]
        # Every response is checked: its tag is the next expected, its answer the
        # phase's (an insert's answer depends on the keys before it: not checked).
        with m.If(resp.valid):
            m.d.sync += got.eq(got + 1)
            with m.If((resp.payload.tag != got[:8]) |
                      (check_hit & (resp.payload.hit != want_hit))):
                m.d.sync += error.eq(1)

        with m.FSM():
            with m.State("STATUS"):
                m.d.comb += [regs.ar.valid.eq(1), regs.ar.payload.addr.eq(ADDR_STATUS)]
                with m.If(regs.ar.ready):
                    m.next = "STATUS-DATA"
            with m.State("STATUS-DATA"):
                with m.If(regs.r.valid & regs.r.payload.data[0]):  # STATUS.busy
                    m.next = "STATUS"
                with m.Elif(regs.r.valid):
                    m.next = "CONFIG"
            with m.State("CONFIG"):
                m.d.comb += [regs.ar.valid.eq(1),
                             regs.ar.payload.addr.eq(pkg.offsets["CONFIG"])]
                with m.If(regs.ar.ready):
                    m.next = "CONFIG-DATA"
            with m.State("CONFIG-DATA"):
                with m.If(regs.r.valid):
                    with m.If(regs.r.payload.data != C(pkg.fixed["CONFIG"], 32)):
                        m.d.sync += error.eq(1)
                        m.next = "STOP"
                    with m.Else():
                        m.d.sync += key.eq(seed)
                        m.next = "INSERT"
            for state, op, after, check, want in (("INSERT", OP_INSERT, "QUERY", 1, 1),
                                                  ("QUERY", OP_QUERY, "CLEAR", 1, 0),
                                                  ("QUERY-CLEARED", OP_QUERY, "ROUND", 0, 0)):
                with m.State(state):
                    m.d.comb += [req.valid.eq(sent != KEYS_PER_ROUND), req.payload.op.eq(op)]
                    with m.If(req.valid & req.ready):
                        m.d.sync += sent.eq(sent + 1)
                    with m.If((got == KEYS_PER_ROUND) & (sent == KEYS_PER_ROUND)):
                        # The next phase's answers: (check, want); its keys from the seed again.
                        m.d.sync += [sent.eq(0), got.eq(0), check_hit.eq(check), want_hit.eq(want),
                                     key.eq(seed)]
                        m.next = after
            with m.State("CLEAR"):
                m.d.comb += [req.valid.eq(sent == 0), req.payload.op.eq(OP_CLEAR)]
                with m.If(req.valid & req.ready):
                    m.d.sync += sent.eq(1)
                with m.If(resp.valid):
                    m.d.sync += [sent.eq(0), got.eq(0), key.eq(seed)]
                    m.next = "QUERY-CLEARED"
            with m.State("ROUND"):
                m.d.sync += [round_no.eq(round_no + 1), passed.eq(~passed),
                             key.eq(Cat(round_no + 1, Const(0x5EED_B100_F1, w - 8)))]
                m.next = "INSERT"
            with m.State("STOP"):
                pass
        return m


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--package", required=True, help="the directory `bloom export` wrote")
    parser.add_argument("--out", required=True, help="build directory")
    parser.add_argument("--program", action="store_true", help="load the bitstream onto the board (amaranth-boards runs iceprog)")
    args = parser.parse_args()
    from amaranth_boards.icebreaker import ICEBreakerPlatform
    try:
        design = SelfTest(BloomPackage(args.package))
    except BloomConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
    platform = ICEBreakerPlatform()
    platform.build(design, name="bloom_selftest", build_dir=args.out, do_program=args.program)
    log = open(os.path.join(args.out, "bloom_selftest.tim")).read()
    for line in log.splitlines():
        if re.search(r"ICESTORM_(LC|RAM|PLL)|SB_IO|Max frequency for clock|PASS|FAIL", line):
            print(line)


if __name__ == "__main__":
    main()
