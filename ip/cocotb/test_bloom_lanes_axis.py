"""cocotb testbench of bloom_lanes_axis (L keys per beat) with cocotbext-axi: an
AXI4-Stream source and sink with random pauses on both sides run the vector set
`bloom vectors --lanes L` wrote from the golden model (directory $BLOOM_VECTORS);
every response beat (its refused flag, and per slot tkeep, the hit in tdata and
the tag in tid) is checked against it.

The test checks the vectors' L and key width against the ports' widths and the
rest of the configuration (k, bank_bits, hash, seed, counter_bits) against the
face's CONFIG, SEED_LO and SEED_HI registers (AXI4-Lite, cocotbext-axi's
AxiLiteMaster, offsets from the package's IP-XACT map, $BLOOM_REGMAP). After
the vectors it reads OPS, INSERTS and HITS and checks them against the counts
of the vectors, then clears the filter through COMMAND.clear: STATUS.busy until
done, FILL[i] 0 after, and no response beat for it on m_axis.
A response beat that does not come within 10000 + 2^(b+1) cycles fails the
run.

Environment: BLOOM_VECTORS (directory), BLOOM_PAUSE (probability of a pause
cycle on each stream side, default 0.3), BLOOM_SEED (pause generators' seed).
"""
import logging
import os
import random
import time
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, SimTimeoutError, with_timeout
from bloom_regmap import register_fields, register_offsets
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

MAGIC, FORMAT = 0x424C564C, 2
KIND_BEAT, KIND_SLOT, KIND_END = 0, 1, 15
CLOCK_NS = 10
TIMEOUT_CYCLES = 10_000


def words(path):
    """The hex words of a $readmemh file."""
    return [int(line, 16) for line in Path(path).read_text().split() if line]


def bits(word, lo, n):
    return (word >> lo) & ((1 << n) - 1)


def pauses(rng, probability):
    """Endless bools for set_pause_generator: True pauses that cycle. Now and
    then a run of pauses long enough to fill the response beats' FIFO."""
    while True:
        if rng.random() < 0.01:
            for _ in range(rng.randrange(8, 40)):
                yield True
        yield rng.random() < probability


class LaneVectors:
    def __init__(self, directory):
        d = Path(directory)
        c = words(d / "config.hex")
        if len(c) < 14 or c[0] != MAGIC:
            raise ValueError(f"{d / 'config.hex'} is not a bloom lanes vector config")
        if c[1] != FORMAT:
            raise ValueError(f"vector format {c[1]}; this test reads {FORMAT}")
        self.lanes, self.k, self.bank_bits, self.key_bits, self.hash = c[2:7]
        self.seed = c[7] | (c[8] << 32)
        n_stim, n_expect, self.n_beats, self.n_responses, self.counter_bits = c[9:14]
        stim, expect = words(d / "stim.hex"), words(d / "expect.hex")
        if len(stim) != n_stim + 1 or bits(stim[n_stim], 156, 4) != KIND_END:
            raise ValueError("the stimulus file's length does not match the config")
        if len(expect) != n_expect + 1 or bits(expect[n_expect], 28, 4) != KIND_END:
            raise ValueError("the expect file's length does not match the config")
        step = 1 + self.lanes
        self.beats = [stim[i:i + step] for i in range(0, n_stim, step)]
        self.responses = [expect[i:i + step] for i in range(0, n_expect, step)]
        if len(self.beats) != self.n_beats or len(self.responses) != self.n_responses:
            raise ValueError("the config's counts do not agree with the files")

    def counts(self):
        """OPS, INSERTS and HITS after the vectors: the operations of every beat, the
        beats with an insert in slot 0 (refused ones included), the hits of the
        responses to read beats (no write in slot 0) that are not refused."""
        ops = inserts = hits = 0
        responses = iter(self.responses)
        for beat in self.beats:
            slots = beat[1:]
            valid = [bits(s, 140, 1) for s in slots]
            op0 = bits(slots[0], 136, 2)
            ops += sum(valid)
            inserts += valid[0] and op0 == 1
            if not any(valid):
                continue
            response = next(responses)
            if not bits(response[0], 0, 1) and not (valid[0] and op0 != 0):
                hits += sum(bits(s, 8, 1) for s in response[1:])
        return {"OPS": ops, "INSERTS": int(inserts), "HITS": hits}

    def frame(self, beat):
        """The request beat as one AXI4-Stream transfer: tdata the L keys, tuser
        the valid bits and op codes, tid the tags (hdl/src/axi/lanes.rs)."""
        l, w = self.lanes, self.key_bits
        data = tuser = tid = 0
        for j, slot in enumerate(beat[1:]):
            data |= bits(slot, 0, w) << (w * j)
            tuser |= bits(slot, 140, 1) << j
            tuser |= bits(slot, 136, 2) << (l + 2 * j)
            tid |= bits(slot, 128, 8) << (8 * j)
        return AxiStreamFrame(data.to_bytes(w * l // 8, "little"), tid=tid, tuser=tuser)


def one(x):
    return x[0] if isinstance(x, list) else x


@cocotb.test()
async def lanes_vectors_through_axis(dut):
    v = LaneVectors(os.environ["BLOOM_VECTORS"])
    pause = float(os.environ.get("BLOOM_PAUSE", "0.3"))
    seed = int(os.environ.get("BLOOM_SEED", "1"))
    if len(dut.m_axis_tkeep) != v.lanes or len(dut.s_axis_tdata) != v.lanes * v.key_bits:
        raise AssertionError(
            f"the vectors do not match the RTL: vectors for L={v.lanes} key_bits={v.key_bits}, the RTL has "
            f"{len(dut.m_axis_tkeep)} slots and s_axis_tdata of {len(dut.s_axis_tdata)} bits")

    cocotb.start_soon(Clock(dut.aclk, CLOCK_NS, "ns").start())
    source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.aclk, dut.aresetn, reset_active_level=False)
    sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.aclk, dut.aresetn, reset_active_level=False)
    axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.aclk, dut.aresetn, reset_active_level=False)
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
    offsets = register_offsets(os.environ["BLOOM_REGMAP"])
    fields = register_fields(os.environ["BLOOM_REGMAP"])

    async def read(name, index=0):
        try:
            r = await with_timeout(axil.read(offsets[name] + 4 * index, 4), timeout_ns, "ns")
        except SimTimeoutError:
            raise AssertionError(f"AXI4-Lite read of {name}: no answer") from None
        return int.from_bytes(r.data, "little")

    def field(reg, name, word):
        lsb, width = fields[reg][name]
        return (word >> lsb) & ((1 << width) - 1)

    config = await read("CONFIG")
    seed = await read("SEED_LO") | (await read("SEED_HI") << 32)
    got = {f: field("CONFIG", f, config) for f in ("k", "bank_bits", "key_bits", "hash", "counter_bits")}
    got["lanes"] = field("LANES", "lanes", await read("LANES"))
    want = {"k": v.k, "bank_bits": v.bank_bits, "key_bits": v.key_bits, "hash": v.hash,
            "counter_bits": v.counter_bits, "lanes": v.lanes}
    if got != want or seed != v.seed:
        raise AssertionError(f"the vectors do not match the RTL's configuration: vectors for {want} seed={v.seed:#x}, "
                             f"the RTL reads {got} seed={seed:#x}")

    t0 = time.perf_counter()
    mismatches = 0

    async def produce():
        for beat in v.beats:
            await source.send(v.frame(beat))

    producer = cocotb.start_soon(produce())
    for i, want in enumerate(v.responses):
        try:
            frame = await with_timeout(sink.recv(compact=False), timeout_ns, "ns")
        except SimTimeoutError:
            raise AssertionError(f"response beat {i}: none within {timeout_ns // CLOCK_NS} cycles") from None
        tdata, tkeep = list(frame.tdata), list(frame.tkeep)
        tid = one(frame.tid)
        refused = one(frame.tuser)
        wrong = []
        if refused != bits(want[0], 0, 1):
            wrong.append(f"refused {refused}, expected {bits(want[0], 0, 1)}")
        for j, slot in enumerate(want[1:]):
            keep, hit, tag = bits(slot, 9, 1), bits(slot, 8, 1), bits(slot, 0, 8)
            got = (tkeep[j], tdata[j], bits(tid, 8 * j, 8))
            if got != (keep, hit, tag):
                wrong.append(f"slot {j}: tkeep {got[0]} tdata {got[1]:#04x} tid {got[2]}, "
                             f"expected tkeep {keep} hit {hit} tid {tag}")
        if wrong:
            mismatches += 1
            if mismatches <= 10:
                dut._log.error("response beat %d: %s", i, "; ".join(wrong))
    await producer
    await ClockCycles(dut.aclk, 20)
    if not sink.empty():
        mismatches += 1
        dut._log.error("response beats arrived that no beat asked for")

    # The counters: every operation of the beats taken, the beats with an insert in
    # slot 0, the hits of the read beats' responses.
    want_counts = v.counts()
    counts = {name: await read(f"COUNTERS.{name}") for name in ("OPS", "INSERTS", "HITS")}
    if counts != want_counts:
        mismatches += 1
        dut._log.error("counters %s, expected %s", counts, want_counts)
    # A register clear: busy until done, the banks empty after, no response beat for it.
    await axil.write(offsets["COMMAND"], (1 << fields["COMMAND"]["clear"][0]).to_bytes(4, "little"))
    polls = 0
    while field("STATUS", "busy", await read("STATUS")):
        polls += 1
        if polls > 1000:
            raise AssertionError("STATUS.busy did not fall after COMMAND.clear")
    fills = [await read("FILL", i) for i in range(v.k)]
    if any(fills):
        mismatches += 1
        dut._log.error("FILL after COMMAND.clear: %s", fills)
    await ClockCycles(dut.aclk, 20)
    if not sink.empty():
        mismatches += 1
        dut._log.error("a response beat was sent for the register clear")

    wall = time.perf_counter() - t0
    dut._log.warning("bloom_lanes_axis vectors: L=%d, %d beats, %d response beats, %d mismatches; pause %.2f; %.1f s",
                     v.lanes, len(v.beats), len(v.responses), mismatches, pause, wall)
    print(f"RESULT beats={len(v.beats)} response_beats={len(v.responses)} mismatches={mismatches} "
          f"ops={counts['OPS']} inserts={counts['INSERTS']} hits={counts['HITS']} "
          f"simulator={cocotb.SIM_NAME.replace(' ', '_')}:{cocotb.SIM_VERSION} cocotb={cocotb.__version__}", flush=True)
    assert mismatches == 0, f"{mismatches} response beats differ from the golden model's vectors"
