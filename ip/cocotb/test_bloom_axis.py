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
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, SimTimeoutError, with_timeout
from cocotb.utils import get_sim_time
from bloom_regmap import register_fields, register_offsets
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
    # One key per beat: LANES.lanes is 1.
    lsb, width = register_fields(os.environ["BLOOM_REGMAP"])["LANES"]["lanes"]
    r = await within(axil.read(offsets["LANES"], 4), "AXI4-Lite read of LANES")
    lanes = (int.from_bytes(r.data, "little") >> lsb) & ((1 << width) - 1)
    if lanes != 1:
        raise AssertionError(f"LANES.lanes reads {lanes}, not 1 (bloom_axis takes one key per beat)")

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


# ---------------------------------------------------------------------------
# Reset with operations in flight (docs/axi.md, "Reset with operations in flight").

RESET_TAG = 0x80  # tags of requests sent after a reset have bit 7 set, before it clear


class ResetRun:
    """One bloom_axis under random resets, and what the contract lets it be checked
    against: which keys must be present (their insert was answered, so committed;
    a reset never writes a bank), which responses may still arrive (none of a
    request sent before a reset once it is over), what the registers read."""

    def __init__(self, dut, v, offsets, rng):
        self.dut, self.v, self.reg, self.rng = dut, v, offsets, rng
        self.key_bytes = v.key_bits // 8
        self.counting = ((v.core_words[0] >> 28) & 0xF) > 1
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.aclk, dut.aresetn,
                                      reset_active_level=False)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.aclk, dut.aresetn,
                                  reset_active_level=False)
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.aclk, dut.aresetn,
                                  reset_active_level=False)
        for bfm in (self.source, self.sink, self.axil.write_if, self.axil.read_if):
            bfm.log.setLevel(logging.ERROR)
        self.present = set()     # keys that must answer 1
        self.received = []       # (sim time, tag, hit) of every response taken on m_axis
        self.failures = []
        self.stats = {"rounds": 0, "requests_queued_before_reset": 0, "responses_before_reset": 0,
                      "requests_dropped_or_unsent": 0, "post_reset_requests": 0, "reads_flushed": 0,
                      "writes_flushed": 0, "bit_accesses_in_flight": 0}
        cocotb.start_soon(self.collect())

    def fail(self, msg):
        self.failures.append(msg)
        if len(self.failures) <= 10:
            self.dut._log.error(msg)

    async def collect(self):
        while True:
            frame = await self.sink.recv()
            self.received.append((get_sim_time("ns"), one(frame.tid), bytes(frame.tdata)[0] & 1))

    def fresh_key(self):
        return self.rng.getrandbits(self.v.key_bits)

    def frame(self, key, op, tag):
        return AxiStreamFrame(key.to_bytes(self.key_bytes, "little"), tid=tag, tuser=op)

    async def read(self, name):
        r = await self.axil.read(self.reg[name], 4)
        if r is None:
            raise AssertionError(f"read of {name} flushed outside a reset")
        return int(r.resp), int.from_bytes(r.data, "little")

    async def idle_core(self, what):
        """STATUS.busy falls within the recount (2^b + 7 cycles) and some margin."""
        for _ in range(200 + (1 << self.v.bank_bits) // 4):
            resp, status = await self.read("STATUS")
            if resp == 0 and status & 1 == 0:
                return
        self.fail(f"{what}: STATUS.busy did not fall")

    async def bit_access(self, bank, addr, write=None):
        """A BIT_ADDR access (a readback, or a bit write of `write`), its old bit."""
        word = addr | (bank << 16) | ((1 << 24 | (write & 1) << 25) if write is not None else 0)
        w = await self.axil.write(self.reg["BIT_ADDR"], word.to_bytes(4, "little"))
        if w is None:
            return None
        for _ in range(100 + (1 << self.v.bank_bits)):
            r = await self.axil.read(self.reg["BIT_DATA"], 4)
            if r is None:
                return None
            data = int.from_bytes(r.data, "little")
            if data & 2:
                return data & 1
        self.fail(f"bit access to bank {bank} address {addr}: BIT_DATA.valid never rose")
        return None

    async def traffic(self, n, tag_base, sent):
        """n requests: inserts of fresh keys and queries of present keys, in order."""
        for i in range(n):
            if self.present and self.rng.random() < 0.3:
                key, op = self.rng.choice(sorted(self.present)), 0
            else:
                key, op = self.fresh_key(), 1
            tag = tag_base | (i & 0x7F)
            sent.append((tag, key, op))
            await self.source.send(self.frame(key, op, tag))

    async def round(self, scenario):
        dut, rng, v = self.dut, self.rng, self.v
        self.stats["rounds"] += 1
        bank, addr = rng.randrange(v.k), rng.randrange(1 << v.bank_bits)
        old_bit = await self.bit_access(bank, addr)
        # Requests and register accesses in flight, then the reset at a random cycle.
        self.sink.pause = scenario in (0, 1)  # responses pile up in the wrapper's FIFOs
        sent, tasks = [], []
        before = len(self.received)
        tasks.append(cocotb.start_soon(self.traffic(rng.randrange(8, 40), 0, sent)))
        flushed = {"read": 0, "write": 0}

        async def reads():
            while True:
                r = await self.axil.read(self.reg["COUNTERS.OPS"], 4)
                if r is None:
                    flushed["read"] += 1
                    return

        async def writes():
            while True:
                r = await self.axil.write(self.reg["BIT_COUNT"], rng.randrange(256).to_bytes(4, "little"))
                if r is None:
                    flushed["write"] += 1
                    return

        async def bit_write():
            if scenario == 3:
                await self.axil.write(self.reg["COMMAND"], (1).to_bytes(4, "little"))  # busy for a sweep
            # A bit write of 1: it may land or not, and makes no present key absent.
            await self.bit_access(bank, addr, None if self.counting else 1)

        tasks.append(cocotb.start_soon([reads, writes, bit_write, bit_write][scenario]()))
        if scenario >= 2:
            self.stats["bit_accesses_in_flight"] += 1
        await ClockCycles(dut.aclk, rng.randrange(2, 60) if scenario != 3 else rng.randrange(12, 40))
        dut.aresetn.value = 0
        await ClockCycles(dut.aclk, rng.randrange(1, 5))
        for t in tasks:
            t.cancel()
        self.source.clear()
        dut.aresetn.value = 1
        released = get_sim_time("ns")
        await ClockCycles(dut.aclk, 2)
        self.sink.pause = False
        self.stats["reads_flushed"] += flushed["read"]
        self.stats["writes_flushed"] += flushed["write"]
        if scenario == 3:
            self.present.clear()  # a clear cut short by the reset leaves some keys, not all
        # Responses taken before the reset: of the requests sent, in order; answered
        # inserts are committed.
        pre = [r for r in self.received[before:] if r[0] < released]
        for n, (_, tag, hit) in enumerate(pre):
            if n >= len(sent) or tag != sent[n][0]:
                self.fail(f"round {self.stats['rounds']}: response {n} before the reset has tag {tag:#x}, "
                          f"expected {sent[n][0] if n < len(sent) else None}")
                break
            if sent[n][2] == 1 and scenario != 3:
                # (With a clear in the stream, a committed insert may have been cleared.)
                self.present.add(sent[n][1])
            elif hit != 1 and scenario != 3:
                self.fail(f"round {self.stats['rounds']}: query of a present key answered 0 before the reset")
        self.stats["requests_queued_before_reset"] += len(sent)
        self.stats["responses_before_reset"] += len(pre)
        self.stats["requests_dropped_or_unsent"] += len(sent) - len(pre)
        # After the reset: the recount, and nothing left of the accesses in flight.
        await self.idle_core(f"round {self.stats['rounds']}")
        await ClockCycles(dut.aclk, 32)
        resp, data = await self.read("BIT_DATA")
        if resp != 0 or data & 2:
            self.fail(f"round {self.stats['rounds']} (scenario {scenario}): BIT_DATA reads {data:#x} after the reset "
                      "with no access since: a bit access in flight survived the reset")
        resp, ops = await self.read("COUNTERS.OPS")
        if resp != 0 or ops != 0:
            self.fail(f"round {self.stats['rounds']}: COUNTERS.OPS reads {ops} after the reset, expected 0")
        resp, config = await self.read("CONFIG")
        if resp != 0 or config != v.core_words[0]:
            self.fail(f"round {self.stats['rounds']}: CONFIG reads {config:#x} (resp {resp}) after the reset, "
                      f"expected {v.core_words[0]:#x}: a response of a read in flight survived the reset")
        w = await self.axil.write(self.reg["BIT_COUNT"], (0xA5).to_bytes(4, "little"))
        resp, count = await self.read("BIT_COUNT")
        if w is None or int(w.resp) != 0 or (count & 0xFF) != 0xA5:
            self.fail(f"round {self.stats['rounds']}: BIT_COUNT write/read after the reset gave "
                      f"{None if w is None else int(w.resp)} / {count:#x}")
        w = await self.axil.write(0xFC, (0).to_bytes(4, "little"))
        if w is None or int(w.resp) != 2:
            self.fail(f"round {self.stats['rounds']}: a write to an unmapped address after the reset answered "
                      f"{None if w is None else int(w.resp)}, expected SLVERR: a write response survived the reset")
        if old_bit is not None and not self.counting:
            now = await self.bit_access(bank, addr)
            if now not in (old_bit, 1) and scenario != 3:
                self.fail(f"round {self.stats['rounds']}: the bit read {now} after the reset, before {old_bit}")
            await ClockCycles(dut.aclk, 40)
            again = await self.bit_access(bank, addr)
            if again != now:
                self.fail(f"round {self.stats['rounds']}: bank {bank} address {addr} changed from {now} to {again} "
                          "with no access: a bit write in flight landed after the reset")
        # Traffic after the reset: every present key answers 1, only these requests
        # are answered, in order.
        after = len(self.received)
        post = [(RESET_TAG | (i & 0x7F), key, 0) for i, key in enumerate(sorted(self.present))]
        post += [(RESET_TAG | ((len(post) + i) & 0x7F), self.fresh_key(), 1) for i in range(8)]
        for tag, key, op in post:
            await self.source.send(self.frame(key, op, tag))
        for _ in range(2000):
            if len(self.received) - after >= len(post):
                break
            await RisingEdge(dut.aclk)
        await ClockCycles(dut.aclk, 20)
        got = self.received[after:]
        stale = [r for r in self.received[before:after] if r[0] >= released]
        if stale:
            self.fail(f"round {self.stats['rounds']}: {len(stale)} response(s) after the reset of requests sent before "
                      f"it (tags {[hex(t) for _, t, _ in stale[:4]]})")
        if [t for _, t, _ in got] != [t for t, _, _ in post]:
            self.fail(f"round {self.stats['rounds']}: after the reset {len(got)} responses, tags "
                      f"{[hex(t) for _, t, _ in got[:6]]}...; expected {len(post)}, tags {[hex(t) for t, _, _ in post[:6]]}...")
        for (_, tag, hit), (_, key, op) in zip(got, post):
            if op == 0 and hit != 1:
                self.fail(f"round {self.stats['rounds']}: key {key:#x}, whose insert was answered, queries 0 "
                          "after the reset (a false negative)")
            if op == 1:
                self.present.add(key)
        self.stats["post_reset_requests"] += len(post)
        resp, ops = await self.read("COUNTERS.OPS")
        if ops != len(post):
            self.fail(f"round {self.stats['rounds']}: COUNTERS.OPS reads {ops}, expected {len(post)} requests since the reset")


@cocotb.test()
async def reset_in_flight(dut):
    """aresetn asserted at random cycles with stream requests and responses, register
    reads and writes and bit accesses in flight, checked against docs/axi.md's
    "Reset with operations in flight" (and contract §5.1). Environment:
    BLOOM_RESET_ROUNDS (default 16), BLOOM_SEED."""
    v = Vectors(os.environ["BLOOM_VECTORS"])
    rounds = int(os.environ.get("BLOOM_RESET_ROUNDS", "16"))
    rng = random.Random(int(os.environ.get("BLOOM_SEED", "1")) * 7919 + 13)
    cocotb.start_soon(Clock(dut.aclk, CLOCK_NS, "ns").start())
    offsets = register_offsets(os.environ["BLOOM_REGMAP"])
    run = ResetRun(dut, v, offsets, rng)
    dut.aresetn.value = 0
    await ClockCycles(dut.aclk, 4)
    dut.aresetn.value = 1
    await ClockCycles(dut.aclk, 4)
    _, config = await run.read("CONFIG")
    if config != v.core_words[0]:
        raise AssertionError(f"the vectors do not match the core's configuration: CONFIG {v.core_words[0]:#010x} "
                             f"expected, the core reads {config:#010x}")
    await run.idle_core("power-up")
    for r in range(rounds):
        await run.round(r % 4)
    s = run.stats
    dut._log.warning("bloom_axis reset in flight: %s, %d failures", s, len(run.failures))
    print("RESET " + " ".join(f"{k}={val}" for k, val in s.items()) + f" failures={len(run.failures)}", flush=True)
    assert not run.failures, f"{len(run.failures)} failures; first: {run.failures[0]}"


@cocotb.test()
async def scrub_through_axi(dut):
    """The scrub through the register map (docs/axi.md, "Scrub"; contract sections 5.2).
    CONFIG.scrub = 0: COMMAND.scrub is answered OKAY and does nothing, STATUS.scrub_busy,
    SCRUB_MISMATCH and SCRUB_EVERY read 0. CONFIG.scrub = 1: SCRUB_EVERY reads
    $BLOOM_SCRUB_EVERY (default 0); a COMMAND.scrub write makes STATUS.scrub_busy read 1,
    and it falls within 2^b + 11 cycles (the contract's idle scrub, 2^b + scrub_end_latency
    - 1, with the register access's cycles) plus a margin; a second COMMAND.scrub while busy
    neither restarts nor queues a scrub; with no soft change SCRUB_MISMATCH reads 0. In a
    plain core a bit flipped in bank p's memory (the simulator's array, by hierarchy: a soft
    change, contract section 5.2) makes the next scrub read 1 << p, and flipped back, 0.
    Prints `SCRUB scrubs=N flips=N failures=N`."""
    v = Vectors(os.environ["BLOOM_VECTORS"])
    every = int(os.environ.get("BLOOM_SCRUB_EVERY", "0"))
    rng = random.Random(int(os.environ.get("BLOOM_SEED", "1")) * 31 + 5)
    cocotb.start_soon(Clock(dut.aclk, CLOCK_NS, "ns").start())
    axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.aclk, dut.aresetn, reset_active_level=False)
    for bfm in (axil.write_if, axil.read_if):
        bfm.log.setLevel(logging.WARNING)
    offsets = register_offsets(os.environ["BLOOM_REGMAP"])
    dut.s_axis_tvalid.value = 0
    dut.m_axis_tready.value = 1
    dut.aresetn.value = 0
    await ClockCycles(dut.aclk, 4)
    dut.aresetn.value = 1
    timeout_ns = (TIMEOUT_CYCLES + 2 * (1 << v.bank_bits)) * CLOCK_NS
    failures = []
    stats = {"scrubs": 0, "flips": 0}

    def cycle():
        return get_sim_time("ns") // CLOCK_NS

    async def read(name):
        try:
            r = await with_timeout(axil.read(offsets[name], 4), timeout_ns, "ns")
        except SimTimeoutError:
            raise AssertionError(f"read of {name}: no answer") from None
        if int(r.resp) != 0:
            failures.append(f"read of {name} answered {int(r.resp)}")
        return int.from_bytes(r.data, "little")

    async def write(name, value):
        try:
            r = await with_timeout(axil.write(offsets[name], value.to_bytes(4, "little")), timeout_ns, "ns")
        except SimTimeoutError:
            raise AssertionError(f"write of {name}: no answer") from None
        if int(r.resp) != 0:
            failures.append(f"write of {value:#x} to {name} answered {int(r.resp)}, expected OKAY")

    # The register map's fields, from the RDL's generated names (docs/axi.md).
    SCRUB_CMD, SCRUB_BUSY, CONFIG_SCRUB = 1 << 2, 1 << 1, 1 << 26
    while (await read("STATUS")) & 1:
        pass
    config = await read("CONFIG")
    if config != v.core_words[0]:
        raise AssertionError(f"the vectors do not match the core's configuration: CONFIG {config:#010x}, "
                             f"vectors {v.core_words[0]:#010x}")
    counting = ((config >> 28) & 0xF) > 1
    bank = 1 << v.bank_bits
    limit = bank + 11 + 24

    if not config & CONFIG_SCRUB:
        await write("COMMAND", SCRUB_CMD)
        for _ in range(4):
            if (await read("STATUS")) & SCRUB_BUSY:
                failures.append("STATUS.scrub_busy reads 1 in a core without the scrub")
        for name in ("SCRUB_MISMATCH", "SCRUB_EVERY"):
            if (x := await read(name)) != 0:
                failures.append(f"{name} reads {x:#x} in a core without the scrub")
    else:
        if (x := await read("SCRUB_EVERY")) != every:
            failures.append(f"SCRUB_EVERY reads {x}, expected {every}")
        if (x := await read("SCRUB_MISMATCH")) != 0:
            failures.append(f"SCRUB_MISMATCH reads {x:#x} after reset, expected 0")

        async def scrub(what, again=False):
            await write("COMMAND", SCRUB_CMD)
            start = cycle()
            stats["scrubs"] += 1
            if not (await read("STATUS")) & SCRUB_BUSY:
                failures.append(f"{what}: STATUS.scrub_busy reads 0 right after COMMAND.scrub")
            if again:
                while cycle() < start + bank // 2 + 20:
                    await RisingEdge(dut.aclk)
                # Ignored while busy: not restarted, not queued.
                await write("COMMAND", SCRUB_CMD)
            while (await read("STATUS")) & SCRUB_BUSY:
                if cycle() > start + limit:
                    failures.append(f"{what}: STATUS.scrub_busy still 1 {cycle() - start} cycles after COMMAND.scrub")
                    break
            for _ in range(3):
                if (await read("STATUS")) & SCRUB_BUSY:
                    failures.append(f"{what}: STATUS.scrub_busy 1 again after the scrub ended (a write while busy queued one)")
            return await read("SCRUB_MISMATCH")

        if (x := await scrub("no soft change", again=True)) != 0:
            failures.append(f"no soft change: SCRUB_MISMATCH {x:#x}, expected 0")
        if not counting:
            for p in range(v.k):
                mem = dut.core.core_inst[f"parts${p}"].ram.mem
                a = rng.randrange(bank)
                old = int(mem[a].value)
                for flip, want in ((1 - old, 1 << p), (old, 0)):
                    mem[a].value = flip
                    await RisingEdge(dut.aclk)
                    stats["flips"] += 1
                    if (x := await scrub(f"bank {p} address {a} set to {flip}")) != want:
                        failures.append(f"bank {p} address {a} {old} -> {flip}: SCRUB_MISMATCH {x:#x}, expected {want:#x}")
    for f in failures[:10]:
        dut._log.error(f)
    print("SCRUB " + " ".join(f"{k}={val}" for k, val in stats.items()) + f" failures={len(failures)}", flush=True)
    assert not failures, f"{len(failures)} failures; first: {failures[0]}"
