"""An exported bloom IP package as Python sees it: its configuration, the
values of its fixed registers and its RTL files, read from the package's
bloom_axis.json (`bloom export --out DIR`), and the checks every front makes
with them (the LiteX peripheral litex/bloom_litex.py, the Amaranth component
amaranth/bloom_amaranth.py): a parameter set that is not the package's raises
BloomConfigError naming each difference, and config_header() writes what
firmware built for this package must read from the core at run time.

Standard library only.
"""

import json
import os

# The configuration parameters of contract §1 a SoC script may name, as
# bloom_axis.json spells them, with the default of one left out there.
PARAMETERS = ("k", "bank_bits", "key_bits", "hash", "seed", "counter_bits")
OMITTED_DEFAULTS = {"counter_bits": 1}
# The registers whose value is fixed by the configuration; firmware checks them.
FIXED_REGISTERS = ("ID", "VERSION", "CONFIG", "SEED_LO", "SEED_HI", "TIMING")
# bloom_axis's AXI4-Lite address and data widths.
AXIL_ADDRESS_BITS = 8
AXIL_DATA_BITS = 32
# Op codes of a request (the core's req_op).
OP_QUERY, OP_INSERT, OP_CLEAR, OP_DELETE = 0, 1, 2, 3


class BloomConfigError(ValueError):
    """A parameter set, package or firmware that does not match the exported core."""


def _here_package():
    """The package this file was shipped in (bloom export puts it at its root)."""
    root = os.path.dirname(os.path.abspath(__file__))
    return root if os.path.isfile(os.path.join(root, "bloom_axis.json")) else None


class BloomPackage:
    """An exported IP package (`bloom export --out DIR`): configuration, fixed
    register words and RTL files, read from DIR/bloom_axis.json."""

    def __init__(self, path=None):
        path = path if path is not None else _here_package()
        if path is None:
            raise BloomConfigError(
                "no IP package given: pass the directory `bloom export --out DIR` wrote"
            )
        self.path = os.path.abspath(os.fspath(path))
        description = os.path.join(self.path, "bloom_axis.json")
        try:
            with open(description) as f:
                self.description = json.load(f)
        except FileNotFoundError:
            raise BloomConfigError(
                f"{self.path} is not a bloom IP package (no bloom_axis.json): "
                "give the directory `bloom export --out DIR` wrote"
            ) from None
        except json.JSONDecodeError as e:
            raise BloomConfigError(f"{description}: not valid JSON ({e})") from None
        try:
            core = self.description["core"]
            self.params = {
                p: core.get(p, OMITTED_DEFAULTS.get(p)) for p in PARAMETERS
            }
            missing = [p for p, v in self.params.items() if v is None]
            if missing:
                raise KeyError(", ".join(missing))
            registers = {r["name"]: r for r in self.description["fixed_registers"]}
            self.fixed = {name: int(registers[name]["value"]) for name in FIXED_REGISTERS}
            self.offsets = {name: int(registers[name]["offset"]) for name in FIXED_REGISTERS}
            self.ports = {p["name"]: p for p in self.description["ports"]}
            self.top = self.description["top"]
            self.stream_timing = self.description["stream_timing"]
        except (KeyError, TypeError, ValueError) as e:
            raise BloomConfigError(
                f"{description} lacks {e} (written by an older or another bloom export?)"
            ) from None
        self.rtl = [os.path.join(self.path, "rtl", f) for f in ("bloom_core.v", "bloom_axis.v")]
        for f in self.rtl:
            if not os.path.isfile(f):
                raise BloomConfigError(f"the package lacks {f}")
        self.regs_header_dir = os.path.join(self.path, "regs")

    @property
    def key_bits(self):
        return int(self.params["key_bits"])

    def check(self, **expected):
        """Raises BloomConfigError unless every parameter named in `expected`
        (None: not named) equals the package's."""
        unknown = sorted(set(expected) - set(PARAMETERS))
        if unknown:
            raise BloomConfigError(
                f"unknown parameter(s) {', '.join(unknown)}; known: {', '.join(PARAMETERS)}"
            )
        wrong = [
            f"{name} = {value!r} (the package has {self.params[name]!r})"
            for name, value in expected.items()
            if value is not None and _normal(name, value) != _normal(name, self.params[name])
        ]
        if wrong:
            raise BloomConfigError(
                f"the parameters do not match the exported core in {self.path}: "
                + "; ".join(wrong)
                + ". Export the core with these parameters (bloom export), or use the package's."
            )
        # The ports the front drives must be the package's.
        for name, width in (("s_axis_tdata", self.key_bits), ("s_axis_tuser", 2),
                            ("s_axis_tid", 8), ("m_axis_tdata", 8),
                            ("s_axil_awaddr", AXIL_ADDRESS_BITS), ("s_axil_wdata", AXIL_DATA_BITS)):
            port = self.ports.get(name)
            if port is None or int(port["width"]) != width:
                raise BloomConfigError(
                    f"{self.path}: port {name} is {port and port['width']} bits wide, "
                    f"the fronts need {width}"
                )

    def config_header(self, guard="BLOOM_CONFIG_H"):
        """bloom_config.h: what firmware built for this package expects to read."""
        lines = [
            "/* What firmware built for this bloom_axis package must read from its",
            f" * fixed registers (generated from {os.path.basename(self.path)}/bloom_axis.json). */",
            f"#ifndef {guard}",
            f"#define {guard}",
            f"#define BLOOM_PACKAGE_NAME \"{self.description['name']}\"",
        ]
        for p in PARAMETERS:
            value = self.params[p]
            if p == "hash":
                lines.append(f"#define BLOOM_PARAM_HASH \"{value}\"")
            elif p == "seed":
                lines.append(f"#define BLOOM_PARAM_SEED 0x{int(value):016x}ULL")
            else:
                lines.append(f"#define BLOOM_PARAM_{p.upper()} {int(value)}")
        for name in FIXED_REGISTERS:
            lines.append(f"#define BLOOM_EXPECT_{name} 0x{self.fixed[name]:08x}u")
        lines += [f"#endif /* {guard} */", ""]
        return "\n".join(lines)


def _normal(name, value):
    if name == "hash":
        return str(value).lower()
    return int(value)
