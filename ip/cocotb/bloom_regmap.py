"""The register map of bloom_axis and bloom_lanes_axis as the cocotb tests read it:
from the IP-XACT (IEEE 1685-2014) file a package ships (regs/bloom_axis_regs.xml)."""
import xml.etree.ElementTree as ET

NS = {"ipxact": "http://www.accellera.org/XMLSchema/IPXACT/1685-2014"}


def _number(element, tag):
    return int(element.find(f"ipxact:{tag}", NS).text.strip().replace("'h", "0x"), 0)


def _registers(path):
    """(name, offset, register element) of every register; a register of a
    register file as FILE.NAME (COUNTERS.OPS)."""
    block = ET.parse(path).getroot().find(".//ipxact:addressBlock", NS)
    for reg in block.iterfind("ipxact:register", NS):
        yield reg.find("ipxact:name", NS).text.strip(), _number(reg, "addressOffset"), reg
    for regfile in block.iterfind("ipxact:registerFile", NS):
        base, name = _number(regfile, "addressOffset"), regfile.find("ipxact:name", NS).text.strip()
        for reg in regfile.iterfind("ipxact:register", NS):
            yield f"{name}.{reg.find('ipxact:name', NS).text.strip()}", base + _number(reg, "addressOffset"), reg


def register_offsets(path):
    """Register name -> byte offset."""
    return {name: offset for name, offset, _ in _registers(path)}


def register_fields(path):
    """Register name -> {field name: (lsb, width)}."""
    return {
        name: {f.find("ipxact:name", NS).text.strip(): (_number(f, "bitOffset"), _number(f, "bitWidth"))
               for f in reg.iterfind("ipxact:field", NS)}
        for name, _, reg in _registers(path)
    }
