//! The ports of `bloom_axis`, declared once as port bundles (the same
//! `bundle!` declarations as the core's, `crate::ports`): clock and reset, the
//! request stream (AXI4-Stream slave `s_axis_*`), the response stream (AXI4-Stream
//! master `m_axis_*`) and the register interface (AXI4-Lite slave `s_axil_*`, two
//! bundles under one prefix: its write channels and its read channels, each served
//! by a block of its own). Signal names and the meaning of each follow the AMBA AXI4-Stream and AXI4
//! specifications and verilog-axis; a field's `///` line is its meaning in the
//! IP package's port table ([`axi_ports`]).
//!
//! The widths that carry the core's request and response are the core's own
//! port types (`tdata` is the key, `Bits<W>`; `tuser` the op code and `tid` the
//! tag, as wide as `req_op` and `req_tag`): the wrapper connects them field to
//! field, so a change of the core's ports fails to compile here instead of
//! truncating silently.

use rust_hdl::prelude::*;

use crate::ports::{ports_of, CorePort, Group};

/// Address bits of the AXI4-Lite interface (the map spans `regmap::MAP_BYTES`).
pub const AXIL_ADDR_BITS: u32 = 8;
/// Data bits of the AXI4-Lite interface.
pub const AXIL_DATA_BITS: u32 = 32;
/// Bits of `m_axis_tdata` (bit 0 is the hit; AXI4-Stream data is whole bytes).
pub const RESPONSE_DATA_BITS: u32 = 8;

crate::bundle! {
    /// Clock and reset of every interface (AMBA: ACLK, ARESETn).
    AxiClocking / AxiClockingDriver {
        /// Clock of every interface; every register changes on its rising edge.
        aclk: In Clock,
        /// Synchronous, active low; hold low for at least one cycle. Resets the core (docs/core.md), drops every request and response in flight, zeroes the counters; outputs are low from the second rising edge with aresetn low.
        aresetn: In bool,
    }
}

crate::bundle! {
    /// Request stream (AXI4-Stream slave): one beat is one operation.
    AxisRequest / AxisRequestDriver {
        /// The upstream presents a request.
        tvalid: In bool,
        /// The request presented in this cycle is taken; a flip-flop (it does not depend on s_axis_tvalid).
        tready: Out bool,
        /// The key, key_bits wide (the core's req_key).
        tdata: In Bits<W>,
        /// Operation (the core's req_op): 0 query, 1 insert, 2 clear, 3 delete (a counting core; a query in a plain one).
        tuser: In Bits<2>,
        /// Tag (the core's req_tag), returned with the response on m_axis_tid.
        tid: In Bits<8>,
    }
}

crate::bundle! {
    /// Response stream (AXI4-Stream master): one beat per request, in request order.
    AxisResponse / AxisResponseDriver {
        /// A response is presented (a flip-flop); held, with its data, until taken.
        tvalid: Out bool,
        /// The downstream takes the response presented in this cycle.
        tready: In bool,
        /// Bit 0: hit (query: every bit was set; insert: every bit was already set; clear: 0); bits 7:1 are 0.
        tdata: Out Bits<8>,
        /// The request's tag (its s_axis_tid).
        tid: Out Bits<8>,
        /// Always 1: every response is a packet of one beat.
        tlast: Out bool,
    }
}

crate::bundle! {
    /// Register interface (AXI4-Lite slave, 32-bit data, byte addresses; the map is
    /// ip/rdl/bloom_axis.rdl), its write channels: address, data, response.
    AxiLiteWrite / AxiLiteWriteDriver {
        /// Write address (byte address; bits 1:0 are ignored).
        awaddr: In Bits<8>,
        /// Write protection type (ignored).
        awprot: In Bits<3>,
        /// The write address is valid.
        awvalid: In bool,
        /// The write address is taken (from a register: with s_axil_wready, two cycles after both valids).
        awready: Out bool,
        /// Write data.
        wdata: In Bits<32>,
        /// Write strobes: anything but 4'hf answers SLVERR and writes nothing.
        wstrb: In Bits<4>,
        /// The write data is valid.
        wvalid: In bool,
        /// The write data is taken (together with the address).
        wready: Out bool,
        /// Write response: 0 OKAY, 2 SLVERR (address not mapped, no writable field, partial strobes).
        bresp: Out Bits<2>,
        /// The write response is valid.
        bvalid: Out bool,
        /// The master takes the write response.
        bready: In bool,
    }
}

crate::bundle! {
    /// Register interface (AXI4-Lite slave), its read channels: address, data.
    AxiLiteRead / AxiLiteReadDriver {
        /// Read address (byte address; bits 1:0 are ignored).
        araddr: In Bits<8>,
        /// Read protection type (ignored).
        arprot: In Bits<3>,
        /// The read address is valid.
        arvalid: In bool,
        /// The read address is taken (from a register, one cycle after s_axil_arvalid).
        arready: Out bool,
        /// Read data (0 with SLVERR).
        rdata: Out Bits<32>,
        /// Read response: 0 OKAY, 2 SLVERR (address not mapped, no readable field).
        rresp: Out Bits<2>,
        /// The read data is valid.
        rvalid: Out bool,
        /// The master takes the read data.
        rready: In bool,
    }
}

/// The groups of `bloom_axis`'s ports, in the order of its Verilog port list (the
/// AXI4-Lite interface is two bundles, its write and its read channels, each bound
/// whole to the block that serves it, under one prefix).
pub fn axi_groups() -> [Group; 5] {
    [
        Group {
            path: "sys",
            prefix: "",
            fields: AxiClocking::<1>::FIELDS,
        },
        Group {
            path: "s_axis",
            prefix: "s_axis",
            fields: AxisRequest::<1>::FIELDS,
        },
        Group {
            path: "m_axis",
            prefix: "m_axis",
            fields: AxisResponse::<1>::FIELDS,
        },
        Group {
            path: "s_axil_write",
            prefix: "s_axil",
            fields: AxiLiteWrite::<1>::FIELDS,
        },
        Group {
            path: "s_axil_read",
            prefix: "s_axil",
            fields: AxiLiteRead::<1>::FIELDS,
        },
    ]
}

/// The port list of `bloom_axis` for a configuration, in Verilog order.
pub fn axi_ports(params: &bloom_params::CoreParams) -> Vec<CorePort> {
    ports_of(&axi_groups(), params)
}
