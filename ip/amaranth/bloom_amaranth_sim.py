#!/usr/bin/env python3
"""Simulates what Amaranth emits for BloomAxis, driven by `bloom vectors`.

    bloom_amaranth_sim.py --package PKG --vectors VEC --out DIR

`BloomAxisPorts` puts BloomAxis (bloom_amaranth.py) in a top whose ports
carry bloom_axis's own AXI names, each bound to its member of the
component's stream signatures; Amaranth converts it to Verilog
(bloom_amaranth_top.v, bloom_axis an instance in it). Icarus Verilog then
runs the package's self-checking vector testbench (tb/tb_bloom_axis.v, its
device under test this top) on it with the package's Verilog and the vector
set VEC (`bloom vectors --out VEC`, same core options as the package): every
response and register value is compared with the golden model's. Prints the
testbench's PASS or FAIL line; exits non-zero unless it passed.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from amaranth.back import verilog  # noqa: E402
from amaranth.hdl import ClockDomain, Module  # noqa: E402
from amaranth.lib import wiring  # noqa: E402
from amaranth.lib.wiring import In, Out  # noqa: E402

from bloom_amaranth import BloomAxis, BloomConfigError, BloomPackage  # noqa: E402

TOP = "bloom_amaranth_top"


class BloomAxisPorts(wiring.Component):
    """BloomAxis behind bloom_axis's own port names (aclk, aresetn, s_axis_*,
    m_axis_*, s_axil_*), so that a testbench of bloom_axis drives it as it is."""

    def __init__(self, package, **expected):
        self.bloom = BloomAxis(package, **expected)
        w = self.bloom.package.key_bits
        super().__init__({
            "aclk": In(1), "aresetn": In(1),
            "s_axis_tvalid": In(1), "s_axis_tready": Out(1), "s_axis_tdata": In(w),
            "s_axis_tuser": In(2), "s_axis_tid": In(8),
            "m_axis_tvalid": Out(1), "m_axis_tready": In(1), "m_axis_tdata": Out(8),
            "m_axis_tid": Out(8), "m_axis_tlast": Out(1),
            "s_axil_awaddr": In(8), "s_axil_awprot": In(3), "s_axil_awvalid": In(1),
            "s_axil_awready": Out(1), "s_axil_wdata": In(32), "s_axil_wstrb": In(4),
            "s_axil_wvalid": In(1), "s_axil_wready": Out(1), "s_axil_bresp": Out(2),
            "s_axil_bvalid": Out(1), "s_axil_bready": In(1), "s_axil_araddr": In(8),
            "s_axil_arprot": In(3), "s_axil_arvalid": In(1), "s_axil_arready": Out(1),
            "s_axil_rdata": Out(32), "s_axil_rresp": Out(2), "s_axil_rvalid": Out(1),
            "s_axil_rready": In(1),
        })

    def elaborate(self, platform):
        m = Module()
        m.domains.sync = sync = ClockDomain()
        m.submodules.bloom = b = self.bloom
        req, resp, regs = b.requests, b.responses, b.regs
        m.d.comb += [
            sync.clk.eq(self.aclk),
            sync.rst.eq(~self.aresetn),
            req.valid.eq(self.s_axis_tvalid),
            self.s_axis_tready.eq(req.ready),
            req.payload.key.eq(self.s_axis_tdata),
            req.payload.op.eq(self.s_axis_tuser),
            req.payload.tag.eq(self.s_axis_tid),
            self.m_axis_tvalid.eq(resp.valid),
            resp.ready.eq(self.m_axis_tready),
            self.m_axis_tdata.eq(resp.payload.hit),
            self.m_axis_tid.eq(resp.payload.tag),
            self.m_axis_tlast.eq(1),
            regs.aw.payload.addr.eq(self.s_axil_awaddr),
            regs.aw.payload.prot.eq(self.s_axil_awprot),
            regs.aw.valid.eq(self.s_axil_awvalid),
            self.s_axil_awready.eq(regs.aw.ready),
            regs.w.payload.data.eq(self.s_axil_wdata),
            regs.w.payload.strb.eq(self.s_axil_wstrb),
            regs.w.valid.eq(self.s_axil_wvalid),
            self.s_axil_wready.eq(regs.w.ready),
            self.s_axil_bresp.eq(regs.b.payload.resp),
            self.s_axil_bvalid.eq(regs.b.valid),
            regs.b.ready.eq(self.s_axil_bready),
            regs.ar.payload.addr.eq(self.s_axil_araddr),
            regs.ar.payload.prot.eq(self.s_axil_arprot),
            regs.ar.valid.eq(self.s_axil_arvalid),
            self.s_axil_arready.eq(regs.ar.ready),
            self.s_axil_rdata.eq(regs.r.payload.data),
            self.s_axil_rresp.eq(regs.r.payload.resp),
            self.s_axil_rvalid.eq(regs.r.valid),
            regs.r.ready.eq(self.s_axil_rready),
        ]
        return m


class SimError(Exception):
    pass


def tool(name, package):
    path = shutil.which(name)
    if path is None:
        raise SimError(f"{name} is not installed: apt-get install {package} (or run scripts/setup.sh)")
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--package", required=True, help="the directory `bloom export` wrote")
    parser.add_argument("--vectors", required=True, help="the directory `bloom vectors` wrote")
    parser.add_argument("--out", required=True, help="work directory")
    for name in ("k", "bank-bits", "key-bits", "counter-bits"):
        parser.add_argument(f"--{name}", type=int, help="checked against the package's")
    parser.add_argument("--hash", help="checked against the package's")
    parser.add_argument("--seed", type=lambda s: int(s, 0), help="checked against the package's")
    args = parser.parse_args()
    expected = {"k": args.k, "bank_bits": args.bank_bits, "key_bits": args.key_bits,
                "hash": args.hash, "seed": args.seed, "counter_bits": args.counter_bits}
    try:
        sys.exit(run(args, expected))
    except (SimError, BloomConfigError) as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)


def run(args, expected):
    package = BloomPackage(args.package)
    top = BloomAxisPorts(package, **expected)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    top_v = os.path.join(out, f"{TOP}.v")
    with open(top_v, "w") as f:
        f.write(verilog.convert(top, name=TOP, emit_src=False))

    tb_src = open(os.path.join(package.path, "tb", "tb_bloom_axis.v")).read()
    dut = "    bloom_axis dut ("
    if tb_src.count(dut) != 1:
        raise SimError("the package's testbench does not instantiate bloom_axis as `dut`")
    tb_v = os.path.join(out, "tb_bloom_amaranth.v")
    with open(tb_v, "w") as f:
        f.write(tb_src.replace(dut, f"    {TOP} dut ("))

    vec = os.path.abspath(args.vectors)
    files = {n: os.path.join(vec, f"{n}.hex") for n in ("config", "stim", "expect")}
    for path in files.values():
        if not os.path.isfile(path):
            raise SimError(f"{path} is missing: give the directory `bloom vectors --out DIR` wrote")
    words = [int(w, 16) for w in open(files["config"]).read().split()]
    if len(words) < 10:
        raise SimError(f"{files['config']} is too short to be a vector configuration")
    steps, responses = words[8], words[9]
    vvp = os.path.join(out, "tb_bloom_amaranth.vvp")
    compile_cmd = [tool("iverilog", "iverilog"), "-g2005", "-o", vvp,
                   f"-Ptb_bloom_axis.MAX_STEPS={max(steps + 1, 4096)}",
                   f"-Ptb_bloom_axis.MAX_RESPONSES={max(responses + 1, 4096)}",
                   tb_v, top_v, *package.rtl]
    p = subprocess.run(compile_cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise SimError(f"iverilog failed:\n{p.stdout}")
    p = subprocess.run([tool("vvp", "iverilog"), "-n", vvp] +
                       [f"+{n}={path}" for n, path in files.items()],
                       cwd=out, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(p.stdout)
    verdict = re.search(r"^(PASS|FAIL): .*$", p.stdout, re.M)
    if p.returncode != 0 or verdict is None or verdict.group(1) != "PASS":
        return 1
    return 0


if __name__ == "__main__":
    main()
