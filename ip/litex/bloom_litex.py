"""The bloom filter as a LiteX peripheral.

`BloomFilter` puts the exported `bloom_axis` (`bloom export`: rtl/bloom_axis.v
and rtl/bloom_core.v) into a LiteX SoC:

- its AXI4-Lite register block on the SoC bus, through LiteX's own bus
  adapter (Wishbone to AXI-Lite), as a memory region of 0x100 bytes named
  `bloom` (generated/mem.h: BLOOM_BASE). Firmware reads and writes it with
  the package's C header regs/bloom_axis_regs.h (`bloom_axis_regs_t`),
  generated from the same SystemRDL as the core's register block;
- its request and response streams behind a CSR front: a request FIFO fed by
  the KEY and REQUEST CSRs (a write of REQUEST pushes key, op and tag), a
  response FIFO read through the RESPONSE CSR and popped by a POP write
  (generated/csr.h: bloom_key_write, bloom_request_write, bloom_response_read,
  bloom_pop_write, bloom_status_read). bloom_litex.h wraps both for firmware.

The package's configuration (bloom_axis.json) is the one source of the
widths; parameters a SoC script names (k, bank_bits, key_bits, hash, seed,
counter_bits) are checked against it at elaboration and a mismatch raises
BloomConfigError naming every differing parameter. `config_header()` writes
what firmware must find in the ID, VERSION, CONFIG, SEED_LO, SEED_HI and
TIMING registers at run time (bloom_config.h), so firmware built for another
configuration refuses to run (bloom_check() in bloom_litex.h).

Timing of the front, in sys clock cycles: a REQUEST write enters the request
FIFO in the cycle after the CSR write; bloom_axis takes it from there (its
latency is TIMING.latency, 9 cycles for a default package); its response is
in the response FIFO a cycle after bloom_axis presents it. Neither FIFO loses
an entry it took. A REQUEST write while the request FIFO is full is not taken
and sets STATUS.dropped (sticky until reset), so firmware checks
STATUS.req_ready first (bloom_request() in bloom_litex.h does).
"""

import os
import sys

from migen import ClockSignal, Instance, ResetSignal, Signal, If

from litex.gen import LiteXModule
from litex.soc.interconnect import stream
from litex.soc.interconnect.axi import AXILiteInterface
from litex.soc.interconnect.csr import CSR, CSRField, CSRStatus, CSRStorage
from litex.soc.integration.soc import SoCRegion

# bloom_package.py: at the root of an exported package, or ip/python/ in the repository.
_HERE = os.path.dirname(os.path.abspath(__file__))
for _dir in (os.path.dirname(_HERE), os.path.join(os.path.dirname(_HERE), "python")):
    if os.path.isfile(os.path.join(_dir, "bloom_package.py")):
        if _dir not in sys.path:
            sys.path.insert(0, _dir)
        break
from bloom_package import (  # noqa: E402
    AXIL_ADDRESS_BITS, PARAMETERS, BloomConfigError, BloomPackage,
)

__all__ = ["BloomFilter", "BloomPackage", "BloomConfigError", "PARAMETERS"]

# The register block's region on the SoC bus (bytes): bloom_axis's map is 0xC0.
REGION_BYTES = 0x100


class BloomFilter(LiteXModule):
    """bloom_axis in a LiteX SoC: the register block as a bus slave (`bus`),
    the request stream fed from a FIFO of `request_depth` entries, the
    response stream into one of `response_depth`.

        soc.bloom = BloomFilter(platform, "ip-pkg")   # checks, adds the RTL
        soc.bloom.add_to_soc(soc)                     # region "bloom" on the bus

    Parameters named here (k=, bank_bits=, key_bits=, hash=, seed=,
    counter_bits=) must equal the package's, or BloomConfigError is raised.

    One request entry is enough for a CPU: bloom_axis's own two-entry input
    FIFO follows it, and no CPU writes a request every cycle. The requests a
    program may have in flight without popping a response are bloom_axis's
    outstanding ones (TIMING.response_fifo_depth) plus both FIFOs' entries:
    `window`, also the SoC constant BLOOM_WINDOW (generated/soc.h).
    On iCE40 every entry is flip-flops (key_bits + 10 a request entry).
    """

    def __init__(self, platform, package=None, request_depth=1, response_depth=4, **expected):
        self.package = package if isinstance(package, BloomPackage) else BloomPackage(package)
        self.package.check(**expected)
        for name, depth in (("request_depth", request_depth), ("response_depth", response_depth)):
            if not isinstance(depth, int) or depth < 1:
                raise BloomConfigError(f"{name} = {depth!r}: a whole number of entries, at least 1")
        self.window = int(self.package.stream_timing["outstanding"]) + request_depth + response_depth
        w = self.package.key_bits
        for f in self.package.rtl:
            platform.add_source(f)

        # Register block: AXI4-Lite, byte addresses, bloom_axis decodes the low 8 bits.
        self.bus = AXILiteInterface(data_width=32, address_width=32)

        # Request side: KEY, then a REQUEST write pushes {key, op, tag}.
        self.key = CSRStorage(w, description="Key of the next request (its low key_bits bits).")
        self.request = CSRStorage(fields=[
            CSRField("op", size=2, description="0 query, 1 insert, 2 clear, 3 delete (counting core)."),
            CSRField("tag", size=8, offset=8, description="Returned with the response."),
        ], description="A write pushes KEY, op and tag into the request FIFO.")
        # Response side: the response FIFO's head; a POP write removes it.
        self.response = CSRStatus(fields=[
            CSRField("valid", size=1, description="A response is at the head."),
            CSRField("hit", size=1, offset=1, description="Its answer (m_axis_tdata[0])."),
            CSRField("tag", size=8, offset=8, description="Its tag."),
        ])
        self.pop = CSR()
        self.pop.description = "A write removes the response at the head (if any)."
        self.status = CSRStatus(fields=[
            CSRField("req_ready", size=1, description="The request FIFO has room for a REQUEST write."),
            CSRField("resp_valid", size=1, offset=1, description="The response FIFO is not empty."),
            CSRField("dropped", size=1, offset=2,
                     description="Sticky: a REQUEST write found the request FIFO full and was not pushed."),
        ])

        req_fifo = stream.SyncFIFO([("key", w), ("op", 2), ("tag", 8)], request_depth)
        resp_fifo = stream.SyncFIFO([("hit", 1), ("tag", 8)], response_depth)
        self.req_fifo, self.resp_fifo = req_fifo, resp_fifo
        dropped = Signal()
        self.comb += [
            req_fifo.sink.valid.eq(self.request.re),
            req_fifo.sink.key.eq(self.key.storage),
            req_fifo.sink.op.eq(self.request.fields.op),
            req_fifo.sink.tag.eq(self.request.fields.tag),
            resp_fifo.source.ready.eq(self.pop.re),
            self.response.fields.valid.eq(resp_fifo.source.valid),
            self.response.fields.hit.eq(resp_fifo.source.hit),
            self.response.fields.tag.eq(resp_fifo.source.tag),
            self.status.fields.req_ready.eq(req_fifo.sink.ready),
            self.status.fields.resp_valid.eq(resp_fifo.source.valid),
            self.status.fields.dropped.eq(dropped),
        ]
        self.sync += If(self.request.re & ~req_fifo.sink.ready, dropped.eq(1))

        resp_data = Signal(8)
        resp_last = Signal()
        bus = self.bus
        self.specials += Instance(self.package.top,
            i_aclk=ClockSignal("sys"),
            i_aresetn=~ResetSignal("sys"),
            i_s_axis_tvalid=req_fifo.source.valid,
            o_s_axis_tready=req_fifo.source.ready,
            i_s_axis_tdata=req_fifo.source.key,
            i_s_axis_tuser=req_fifo.source.op,
            i_s_axis_tid=req_fifo.source.tag,
            o_m_axis_tvalid=resp_fifo.sink.valid,
            i_m_axis_tready=resp_fifo.sink.ready,
            o_m_axis_tdata=resp_data,
            o_m_axis_tid=resp_fifo.sink.tag,
            o_m_axis_tlast=resp_last,
            i_s_axil_awaddr=bus.aw.addr[:AXIL_ADDRESS_BITS],
            i_s_axil_awprot=bus.aw.prot,
            i_s_axil_awvalid=bus.aw.valid,
            o_s_axil_awready=bus.aw.ready,
            i_s_axil_wdata=bus.w.data,
            i_s_axil_wstrb=bus.w.strb,
            i_s_axil_wvalid=bus.w.valid,
            o_s_axil_wready=bus.w.ready,
            o_s_axil_bresp=bus.b.resp,
            o_s_axil_bvalid=bus.b.valid,
            i_s_axil_bready=bus.b.ready,
            i_s_axil_araddr=bus.ar.addr[:AXIL_ADDRESS_BITS],
            i_s_axil_arprot=bus.ar.prot,
            i_s_axil_arvalid=bus.ar.valid,
            o_s_axil_arready=bus.ar.ready,
            o_s_axil_rdata=bus.r.data,
            o_s_axil_rresp=bus.r.resp,
            o_s_axil_rvalid=bus.r.valid,
            i_s_axil_rready=bus.r.ready,
        )
        self.comb += resp_fifo.sink.hit.eq(resp_data[0])

    def add_to_soc(self, soc, name="bloom", origin=None):
        """Maps the register block as region `name` (0x100 bytes, uncached) on
        the SoC bus, at `origin` or wherever the SoC has room."""
        soc.bus.add_slave(name, self.bus,
                          SoCRegion(origin=origin, size=REGION_BYTES, cached=False))
        soc.add_constant(f"{name.upper()}_KEY_BITS", self.package.key_bits)
        soc.add_constant(f"{name.upper()}_WINDOW", self.window)
