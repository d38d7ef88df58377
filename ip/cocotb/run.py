#!/usr/bin/env python3
"""Builds bloom_axis (or bloom_lanes_axis) in Icarus Verilog and runs the cocotb
test on a vector set, with cocotb's Python runner (no Makefile).

    run.py PACKAGE_DIR VECTORS_DIR BUILD_DIR

PACKAGE_DIR is what `bloom export` writes: rtl/bloom_axis.v, rtl/bloom_core.v
and the register map regs/bloom_axis_regs.xml (IP-XACT); or what `bloom export
--lanes L` writes: rtl/bloom_lanes_axis.v and rtl/bloom_lanes.v, tested by
test_bloom_lanes_axis.py. Prints the test's RESULT line and `N passed, N failed, N skipped`;
exits 0 only if the test passed. (Outside pytest cocotb's runner does not
fail on a failing test, and its get_results() counts a skipped test as
passed, so the results file is read here.)
"""
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from cocotb_tools.runner import get_runner


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: run.py PACKAGE_DIR VECTORS_DIR BUILD_DIR")
    package, vectors, build = (Path(a).resolve() for a in argv[1:])
    rtl = package / "rtl"
    here = Path(__file__).resolve().parent
    runner = get_runner("icarus")
    if (rtl / "bloom_lanes_axis.v").exists():
        top, sources = "bloom_lanes_axis", [rtl / "bloom_lanes_axis.v", rtl / "bloom_lanes.v"]
        env = {"BLOOM_VECTORS": str(vectors), "BLOOM_REGMAP": str(package / "regs" / "bloom_axis_regs.xml")}
    else:
        top, sources = "bloom_axis", [rtl / "bloom_axis.v", rtl / "bloom_core.v"]
        env = {"BLOOM_VECTORS": str(vectors), "BLOOM_REGMAP": str(package / "regs" / "bloom_axis_regs.xml")}
    runner.build(
        sources=sources,
        hdl_toplevel=top,
        build_dir=build,
        timescale=("1ns", "1ps"),
        always=True,
    )
    for k in ("BLOOM_PAUSE", "BLOOM_SEED", "BLOOM_RESET_ROUNDS", "BLOOM_SCRUB_EVERY"):
        if k in os.environ:
            env[k] = os.environ[k]
    results = runner.test(
        hdl_toplevel=top,
        test_module=f"test_{top}",
        test_dir=here,
        build_dir=build,
        extra_env=env,
        # BLOOM_TESTCASE runs one test of the module (reset_in_flight, vectors_through_axi, scrub_through_axi).
        testcase=os.environ.get("BLOOM_TESTCASE") or None,
        # Absolute, so the file lands in the build directory (by default it
        # goes to test_dir, the source tree).
        results_xml=str(build / "results.xml"),
    )
    cases = list(ET.parse(results).getroot().iter("testcase"))
    failed = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
    skipped = sum(1 for c in cases if c.find("skipped") is not None)
    passed = len(cases) - failed - skipped
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    sys.exit(1 if failed or passed == 0 else 0)


if __name__ == "__main__":
    main(sys.argv)
