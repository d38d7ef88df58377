#!/usr/bin/env python3
"""A serial client written from docs/protocol.md alone, with pyserial: what a
user's own script does with a board. Opens PORT, starts a session with a
config frame, inserts and queries one key, reads the stats, and prints one
JSON object of what the board answered (the test compares it with the golden
model). Exits non-zero if any answer is missing or malformed.

    python3 pyserial_session.py PORT BAUD KEY
"""
import json
import sys
import time

import serial


def crc16(data):
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no xorout."""
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def request(seq, op, payload=b""):
    body = bytes([len(payload) + 2, seq, op]) + payload
    return b"\xfe" + body + crc16(body).to_bytes(2, "big")


def response(port, seq, op, timeout=5.0):
    """The first good response frame with this SEQ and CODE (errors are fatal)."""
    buf = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        buf += port.read(port.in_waiting or 1)
        while True:
            start = buf.find(b"\xfd")
            if start < 0:
                buf = b""
                break
            buf = buf[start:]
            if len(buf) < 2 or len(buf) < buf[1] + 4:
                break
            n = buf[1]
            frame, buf = buf[: n + 4], buf[n + 4 :]
            if crc16(frame[1 : n + 2]) != int.from_bytes(frame[n + 2 : n + 4], "big"):
                continue
            if frame[3] == 0x80:
                sys.exit(f"board rejected frame {seq}: reason {frame[4]}")
            if frame[2] == seq and frame[3] == op:
                return frame[4 : n + 2]
    sys.exit(f"no answer to frame {seq} (op {op}) within {timeout} s")


def main():
    path, baud, key = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 0)
    with serial.Serial(path, baud, bytesize=8, parity="N", stopbits=1, timeout=0.05) as port:
        port.reset_input_buffer()
        seq = 0x31
        port.write(request(seq, 0x08))
        config = response(port, seq, 0x08)
        version, k, b, w, hash_code, max_batch = config[:6]
        seed = int.from_bytes(config[6:14], "little")
        counter_bits = config[14]
        scrub = config[15] & 1
        key_bytes = key.to_bytes(w // 8, "little")
        answers = {}
        for op, name in [(0x01, "query_before"), (0x02, "insert"), (0x01, "query_after")]:
            seq += 1
            port.write(request(seq, op, key_bytes))
            answers[name] = response(port, seq, op)[0]
        seq += 1
        port.write(request(seq, 0x06))
        stats = response(port, seq, 0x06)
        fills = [int.from_bytes(stats[40 + 3 * p : 43 + 3 * p], "little") for p in range(k)]
        # A counting board's saturated counts follow the fills.
        saturated = [int.from_bytes(stats[40 + 3 * k + 3 * p : 43 + 3 * k + 3 * p], "little") for p in range(k)] \
            if counter_bits > 1 else []
        print(json.dumps({
            "version": version, "k": k, "bank_bits": b, "key_bits": w, "hash": hash_code,
            "max_batch": max_batch, "seed": seed, "counter_bits": counter_bits, "answers": answers,
            "ops_served": int.from_bytes(stats[20:24], "little"), "scrub": scrub,
            "image_incomplete": stats[36] & 1, "scrub_mismatch": int.from_bytes(stats[37:39], "little"),
            "fill": fills, "saturated": saturated,
        }))


main()
