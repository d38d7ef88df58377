"""The bloom filter as an Amaranth component.

`BloomAxis` is a `wiring.Component` around the exported `bloom_axis`
(`bloom export`: rtl/bloom_axis.v and rtl/bloom_core.v), in the `sync`
domain (bloom_axis's aclk; its active-low aresetn is the domain's reset
inverted). Its interface, declared once here and bound as a whole:

- `requests`: In(stream.Signature(RequestLayout)), payload {key, op, tag}
  (s_axis: tdata, tuser, tid);
- `responses`: Out(stream.Signature(ResponseLayout)), payload {hit, tag}
  (m_axis: tdata[0], tid);
- `regs`: In(AXI4LiteSignature()), the register block (s_axil): five
  stream.Signature channels, aw {addr, prot}, w {data, strb}, b {resp},
  ar {addr, prot}, r {data, resp}, with the master's directions.

Every stream keeps the Amaranth stream rules (a payload held with valid until
taken), which are AXI's. Timing is bloom_axis's: a request taken in cycle t
is presented on `responses` in cycle t + TIMING.latency (9 for the default
package); one request per cycle; at most TIMING.response_fifo_depth (12)
requests taken and not yet answered. Register map: regs/bloom_axis_regs.md.

The package's configuration (bloom_axis.json) gives the widths; parameters
named here (k=, bank_bits=, key_bits=, hash=, seed=, counter_bits=) are
checked against it when the component is made, and a mismatch raises
BloomConfigError naming every difference. `elaborate` adds the package's
Verilog to the platform it is built for.
"""

import os
import sys

from amaranth.hdl import ClockSignal, Instance, Module, ResetSignal, Signal
from amaranth.lib import data, stream, wiring
from amaranth.lib.wiring import In, Out

# bloom_package.py: at the root of an exported package, or ip/python/ in the repository.
_HERE = os.path.dirname(os.path.abspath(__file__))
for _dir in (os.path.dirname(_HERE), os.path.join(os.path.dirname(_HERE), "python")):
    if os.path.isfile(os.path.join(_dir, "bloom_package.py")):
        if _dir not in sys.path:
            sys.path.insert(0, _dir)
        break
from bloom_package import (  # noqa: E402
    AXIL_ADDRESS_BITS, AXIL_DATA_BITS, OP_CLEAR, OP_DELETE, OP_INSERT, OP_QUERY, PARAMETERS,
    BloomConfigError, BloomPackage,
)

__all__ = [
    "BloomAxis", "BloomPackage", "BloomConfigError", "AXI4LiteSignature", "RequestLayout",
    "ResponseLayout", "PARAMETERS", "OP_QUERY", "OP_INSERT", "OP_CLEAR", "OP_DELETE",
]


class RequestLayout(data.StructLayout):
    """A request: the key (key_bits), the operation (0 query, 1 insert, 2
    clear, 3 delete in a counting core) and a tag returned with its response."""

    def __init__(self, key_bits):
        super().__init__({"key": key_bits, "op": 2, "tag": 8})


class ResponseLayout(data.StructLayout):
    """A response: the answer (query: all k bits set; insert: all were
    already; delete: carried out; clear: 0) and the request's tag."""

    def __init__(self):
        super().__init__({"hit": 1, "tag": 8})


class AXI4LiteSignature(wiring.Signature):
    """AXI4-Lite, as seen from the master: five channels, each a stream
    (valid/ready handshake) of its AMBA fields."""

    def __init__(self, addr_width=AXIL_ADDRESS_BITS, data_width=AXIL_DATA_BITS):
        self.addr_width = addr_width
        self.data_width = data_width
        address = data.StructLayout({"addr": addr_width, "prot": 3})
        super().__init__({
            "aw": Out(stream.Signature(address)),
            "w": Out(stream.Signature(data.StructLayout(
                {"data": data_width, "strb": data_width // 8}))),
            "b": In(stream.Signature(data.StructLayout({"resp": 2}))),
            "ar": Out(stream.Signature(address)),
            "r": In(stream.Signature(data.StructLayout({"data": data_width, "resp": 2}))),
        })

    def __eq__(self, other):
        return (isinstance(other, AXI4LiteSignature) and self.addr_width == other.addr_width
                and self.data_width == other.data_width)

    def __repr__(self):
        return f"AXI4LiteSignature({self.addr_width}, {self.data_width})"


class BloomAxis(wiring.Component):
    """bloom_axis of the package at `package` (default: the package this file
    was shipped in) as an Amaranth component."""

    def __init__(self, package=None, **expected):
        self.package = package if isinstance(package, BloomPackage) else BloomPackage(package)
        self.package.check(**expected)
        super().__init__({
            "requests": In(stream.Signature(RequestLayout(self.package.key_bits))),
            "responses": Out(stream.Signature(ResponseLayout())),
            "regs": In(AXI4LiteSignature()),
        })

    def elaborate(self, platform):
        m = Module()
        if platform is not None:
            for path in self.package.rtl:
                with open(path) as f:
                    platform.add_file(os.path.basename(path), f.read())
        req, resp, regs = self.requests, self.responses, self.regs
        tdata = Signal(8)  # bit 0 the hit, bits 7:1 zero
        tlast = Signal()  # always 1: a response is a packet of one beat
        m.d.comb += resp.payload.hit.eq(tdata[0])
        m.submodules.bloom_axis = Instance(
            self.package.top,
            i_aclk=ClockSignal("sync"),
            i_aresetn=~ResetSignal("sync"),
            i_s_axis_tvalid=req.valid,
            o_s_axis_tready=req.ready,
            i_s_axis_tdata=req.payload.key,
            i_s_axis_tuser=req.payload.op,
            i_s_axis_tid=req.payload.tag,
            o_m_axis_tvalid=resp.valid,
            i_m_axis_tready=resp.ready,
            o_m_axis_tdata=tdata,
            o_m_axis_tid=resp.payload.tag,
            o_m_axis_tlast=tlast,
            i_s_axil_awaddr=regs.aw.payload.addr,
            i_s_axil_awprot=regs.aw.payload.prot,
            i_s_axil_awvalid=regs.aw.valid,
            o_s_axil_awready=regs.aw.ready,
            i_s_axil_wdata=regs.w.payload.data,
            i_s_axil_wstrb=regs.w.payload.strb,
            i_s_axil_wvalid=regs.w.valid,
            o_s_axil_wready=regs.w.ready,
            o_s_axil_bresp=regs.b.payload.resp,
            o_s_axil_bvalid=regs.b.valid,
            i_s_axil_bready=regs.b.ready,
            i_s_axil_araddr=regs.ar.payload.addr,
            i_s_axil_arprot=regs.ar.payload.prot,
            i_s_axil_arvalid=regs.ar.valid,
            o_s_axil_arready=regs.ar.ready,
            o_s_axil_rdata=regs.r.payload.data,
            o_s_axil_rresp=regs.r.payload.resp,
            o_s_axil_rvalid=regs.r.valid,
            i_s_axil_rready=regs.r.ready,
        )
        return m
