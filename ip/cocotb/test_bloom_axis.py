"""cocotb testbench of bloom_axis with cocotbext-axi: an AXI4-Stream source and
sink with random pauses on both sides, and an AXI4-Lite master, run the vector
set `bloom vectors` wrote from the golden model (directory $BLOOM_VECTORS);
every response and every register value is checked against it.

Requests between two register steps are sent as one stream while the sink
takes their responses; a register step runs once every earlier request has
been answered (the vectors' contract), and a read repeats while its poll mask
says the value is not there yet. The test first reads CONFIG, SEED_LO and
SEED_HI and refuses vectors made for another configuration. A response or
register access that does not come within 10000 + 2^(b+1) cycles fails the run.

Environment: BLOOM_VECTORS (directory), BLOOM_REGMAP (the package's IP-XACT
register map, regs/bloom_axis_regs.xml, where the configuration registers'
addresses are read), BLOOM_PAUSE (probability of a pause cycle on each stream
side, default 0.3), BLOOM_SEED (pause generators' seed).
"""
import logging
import os
import random
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, SimTimeoutError, with_timeout
from cocotbext.axi import (AxiLiteBus, AxiLiteMaster, AxiStreamBus, AxiStreamFrame,
                           AxiStreamSink, AxiStreamSource)

MAGIC, FORMAT = 0x424C5643, 1
KIND_REQUEST, KIND_WRITE, KIND_READ = 0, 1, 2
CLOCK_NS = 10
# A response or register access lost in the wrapper must fail the run, not hang it:
# each comes within the latency, the streams' pauses and at most one clear's sweep or
# reset's recount (2^b + 7 cycles), far below this plus twice a bank.
TIMEOUT_CYCLES = 10_000


def words(path, width):
    """The hex words of a $readmemh file."""
    return [int(line, 16) for line in Path(path).read_text().split() if line]


def bits(word, lo, n):
    return (word >> lo) & ((1 << n) - 1)


def pauses(rng, probability):
    """Endless bools for set_pause_generator: True pauses that cycle. Now and
    then a run of pauses long enough to fill the core's response FIFO."""
    while True:
        if rng.random() < 0.01:
            for _ in range(rng.randrange(8, 40)):
                yield True
        yield rng.random() < probability


def register_offsets(path):
    """Register name -> byte offset, from an IP-XACT (IEEE 1685-2014) register map."""
    ns = {"ipxact": "http://www.accellera.org/XMLSchema/IPXACT/1685-2014"}
    offsets = {}
    for reg in ET.parse(path).getroot().iterfind(".//ipxact:addressBlock/ipxact:register", ns):
        offset = reg.find("ipxact:addressOffset", ns).text.strip()
        offsets[reg.find("ipxact:name", ns).text.strip()] = int(offset.replace("'h", "0x"), 0)
    return offsets


def one(x):
    return x[0] if isinstance(x, list) else x


class Vectors:
    def __init__(self, directory):
        d = Path(directory)
        self.config = words(d / "config.hex", 32)
        if len(self.config) < 13 or self.config[0] != MAGIC:
            raise ValueError(f"{d / 'config.hex'} is not a bloom vector config")
        if self.config[1] != FORMAT:
            raise ValueError(f"vector format {self.config[1]}; this test reads {FORMAT}")
        self.k, self.bank_bits, self.key_bits, self.hash, lo, hi, n_steps, n_resp = self.config[2:10]
        self.seed = lo | (hi << 32)
        self.core_words = self.config[10:13]
        self.steps = words(d / "stim.hex", 176)
        self.responses = words(d / "expect.hex", 32)
        if len(self.steps) != n_steps + 1 or bits(self.steps[n_steps], 172, 4) != 15:
            raise ValueError("the stimulus file's length does not match the config")
        if len(self.responses) != n_resp + 1 or bits(self.responses[n_resp], 28, 4) != 15:
            raise ValueError("the expect file's length does not match the config")
        self.steps, self.responses = self.steps[:n_steps], self.responses[:n_resp]


@cocotb.test()
async def vectors_through_axi(dut):
    v = Vectors(os.environ["BLOOM_VECTORS"])
    pause = float(os.environ.get("BLOOM_PAUSE", "0.3"))
    seed = int(os.environ.get("BLOOM_SEED", "1"))
    key_bytes = v.key_bits // 8
    if len(dut.s_axis_tdata) != v.key_bits:
        raise AssertionError(f"the vectors do not match the core's configuration: vectors for key_bits={v.key_bits}, "
                             f"the core's s_axis_tdata has {len(dut.s_axis_tdata)} bits")

    cocotb.start_soon(Clock(dut.aclk, CLOCK_NS, "ns").start())
    source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.aclk, dut.aresetn, reset_active_level=False)
    sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.aclk, dut.aresetn, reset_active_level=False)
    axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.aclk, dut.aresetn, reset_active_level=False)
    # cocotbext-axi logs every transfer at INFO: that costs more than the simulation.
    for bfm in (source, sink, axil.write_if, axil.read_if):
        bfm.log.setLevel(logging.WARNING)
    if pause > 0:
        source.set_pause_generator(pauses(random.Random(seed), pause))
        sink.set_pause_generator(pauses(random.Random(seed + 1), pause))

    dut.aresetn.value = 0
    await ClockCycles(dut.aclk, 4)
    dut.aresetn.value = 1
    await ClockCycles(dut.aclk, 4)

    timeout_ns = (TIMEOUT_CYCLES + 2 * (1 << v.bank_bits)) * CLOCK_NS

    async def within(coro, what):
        try:
            return await with_timeout(coro, timeout_ns, "ns")
        except SimTimeoutError:
            raise AssertionError(f"{what}: no answer within {timeout_ns // CLOCK_NS} cycles") from None

    offsets = register_offsets(os.environ["BLOOM_REGMAP"])
    core = []
    for a in (offsets["CONFIG"], offsets["SEED_LO"], offsets["SEED_HI"]):
        r = await within(axil.read(a, 4), f"AXI4-Lite read of {a:#x}")
        core.append(int.from_bytes(r.data, "little"))
    if core != v.core_words:
        raise AssertionError(
            "the vectors do not match the core's configuration: vectors for "
            f"k={v.k} bank_bits={v.bank_bits} key_bits={v.key_bits} hash={v.hash} seed={v.seed:#x} "
            f"(CONFIG {v.core_words[0]:#010x}), the core reads CONFIG {core[0]:#010x} SEED {core[2]:#010x}{core[1]:08x}")

    t0, c0 = time.perf_counter(), time.process_time()
    stats = {"requests": 0, "responses": 0, "register_accesses": 0, "mismatches": 0}
    resp_index = 0

    def mismatch(msg):
        stats["mismatches"] += 1
        if stats["mismatches"] <= 10:
            dut._log.error(msg)

    async def stream(batch, first_response):
        """Sends a run of requests and checks their responses as they come."""
        async def produce():
            for step in batch:
                key, op, tag = bits(step, 0, 128), bits(step, 136, 2), bits(step, 128, 8)
                await source.send(AxiStreamFrame(key.to_bytes(key_bytes, "little"), tid=tag, tuser=op))
        producer = cocotb.start_soon(produce())
        for i in range(len(batch)):
            frame = await within(sink.recv(), f"response {first_response + i} ({stats['responses'] + i} so far)")
            want = v.responses[first_response + i]
            got_data, got_tag = bytes(frame.tdata), one(frame.tid)
            if got_data != bytes([bits(want, 8, 1)]) or got_tag != bits(want, 0, 8):
                mismatch(f"response {first_response + i}: got tdata {got_data.hex()} tag {got_tag}, "
                         f"expected hit {bits(want, 8, 1)} tag {bits(want, 0, 8)}")
        await producer
        stats["requests"] += len(batch)
        stats["responses"] += len(batch)

    i = 0
    while i < len(v.steps):
        step = v.steps[i]
        kind = bits(step, 172, 4)
        if kind == KIND_REQUEST:
            j = i
            while j < len(v.steps) and bits(v.steps[j], 172, 4) == KIND_REQUEST:
                j += 1
            await stream(v.steps[i:j], resp_index)
            resp_index += j - i
            i = j
            continue
        addr, resp = bits(step, 152, 8), bits(step, 164, 2)
        data = bits(step, 96, 32)
        if kind == KIND_WRITE:
            strobes = bits(step, 168, 4)
            first = (strobes & -strobes).bit_length() - 1
            length = bin(strobes).count("1")
            payload = (data >> (8 * first)).to_bytes(4, "little")[:length]
            r = await within(axil.write(addr + first, payload), f"AXI4-Lite write of {addr + first:#x}")
            stats["register_accesses"] += 1
            if int(r.resp) != resp:
                mismatch(f"step {i}: write {data:#x} to {addr:#04x} (strobes {strobes:#x}) answered {int(r.resp)}, expected {resp}")
        elif kind == KIND_READ:
            mask, poll_mask, poll_limit = bits(step, 64, 32), bits(step, 32, 32), bits(step, 0, 32)
            for polls in range(1, poll_limit + 1):
                r = await within(axil.read(addr, 4), f"AXI4-Lite read of {addr:#x}")
                stats["register_accesses"] += 1
                got = int.from_bytes(r.data, "little")
                if int(r.resp) != 0 or resp != 0 or (got & poll_mask) == (data & poll_mask):
                    break
            if int(r.resp) != resp or (resp == 0 and (got & mask) != (data & mask)):
                mismatch(f"step {i}: read {addr:#04x} answered {int(r.resp)} with {got:#010x}, "
                         f"expected {resp} with {data:#010x} (mask {mask:#010x}, {polls} reads)")
        else:
            raise AssertionError(f"step {i}: unknown kind {kind}")
        i += 1

    await ClockCycles(dut.aclk, 10)
    if not sink.empty():
        mismatch("responses arrived that no request asked for")
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    dut._log.warning(
        "bloom_axis vectors: %d requests, %d responses, %d register accesses, %d mismatches; "
        "k=%d bank_bits=%d key_bits=%d; pause %.2f; %.1f s wall, %.1f CPU-s; simulator %s %s, cocotb %s",
        stats["requests"], stats["responses"], stats["register_accesses"], stats["mismatches"],
        v.k, v.bank_bits, v.key_bits, pause, wall, cpu, cocotb.SIM_NAME, cocotb.SIM_VERSION, cocotb.__version__)
    print(f"RESULT requests={stats['requests']} responses={stats['responses']} "
          f"register_accesses={stats['register_accesses']} mismatches={stats['mismatches']} "
          f"simulator={cocotb.SIM_NAME.replace(' ', '_')}:{cocotb.SIM_VERSION} cocotb={cocotb.__version__}", flush=True)
    assert stats["mismatches"] == 0, f"{stats['mismatches']} mismatches against the golden model's vectors"
