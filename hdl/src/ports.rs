//! The core's interface, declared once: port bundles (rust-hdl
//! `LogicInterface`s) as the core sees them, their mirrors as whatever drives
//! the core sees them, and the port table built from the same declarations
//! (name, direction, width as a function of the configuration, meaning).
//!
//! Everything written around the core reads this table: the Verilator
//! driver's port checks (sim), the Fmax harness and board tops (flow), the
//! board top's black box (`bridge::core_box`), the rust-hdl driver
//! ([`crate::core::sim`]) and docs/core.md's port table. A new port is one field in
//! a bundle below (its `///` line is its meaning) plus its logic.
//!
//! Verilog names: rust-hdl names a bundle's signal `bundle$field`; the
//! generator renames the top's ports to `{prefix}_{field}` (or `field` where
//! the prefix is empty), the names every user of `bloom_core` sees.

use rust_hdl::prelude::*;

/// Direction of a port, seen from the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Input,
    Output,
}

/// One field of a bundle, as declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub direction: Direction,
    /// The field's Rust type as written (`bool`, `Bits<8>`, `Bits<W>`).
    pub ty: &'static str,
    /// Its `///` documentation: one line saying what it means.
    pub doc: &'static str,
}

/// A value that crosses the port boundary of the rust-hdl driver as a `u128`.
pub trait Wire: Sized {
    fn from_u128(v: u128) -> Self;
    fn to_u128(&self) -> u128;
}

impl Wire for bool {
    fn from_u128(v: u128) -> Self {
        v & 1 == 1
    }
    fn to_u128(&self) -> u128 {
        *self as u128
    }
}

impl Wire for Clock {
    fn from_u128(v: u128) -> Self {
        Clock::from(v & 1 == 1)
    }
    fn to_u128(&self) -> u128 {
        self.clk as u128
    }
}

impl<const N: usize> Wire for Bits<N> {
    fn from_u128(v: u128) -> Self {
        let low: Bits<N> = ((v as u64) & if N >= 64 { u64::MAX } else { (1u64 << N) - 1 }).into();
        if N > 64 {
            let high: Bits<N> = ((v >> 64) as u64).into();
            (high << 64u64) | low
        } else {
            low
        }
    }
    fn to_u128(&self) -> u128 {
        (0..N.min(128))
            .filter(|&i| self.get_bit(i))
            .fold(0u128, |acc, i| acc | (1u128 << i))
    }
}

#[doc(hidden)]
#[macro_export]
macro_rules! __flip {
    (In) => {
        Out
    };
    (Out) => {
        In
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __direction {
    (In) => {
        $crate::ports::Direction::Input
    };
    (Out) => {
        $crate::ports::Direction::Output
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __poke {
    (In, $sig:expr, $values:expr) => {
        $sig.next = $crate::ports::Wire::from_u128($values.next().expect("one value per input"));
    };
    (Out, $sig:expr, $values:expr) => {};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __peek {
    (In, $sig:expr, $out:expr) => {};
    (Out, $sig:expr, $out:expr) => {
        $out.push($crate::ports::Wire::to_u128(&$sig.val()));
    };
}

/// Declares a port bundle `Name` as its owner sees it (`In` = into the
/// owner), its mirror `Driver` with every direction flipped, `join` between
/// the two, the field table `Name::FIELDS`, and the rust-hdl driver's
/// `poke` (inputs from values in field order) and `peek` (outputs in field order).
/// Every bundle takes the key width `W`, whether it uses it or not.
#[macro_export]
macro_rules! bundle {
    (
        $(#[doc = $doc:literal])*
        $name:ident / $driver:ident {
            $( $(#[doc = $fdoc:literal])* $field:ident : $dir:ident $ty:ty ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(LogicInterface, Default)]
        pub struct $name<const W: usize> {
            $( $(#[doc = $fdoc])* pub $field: Signal<$dir, $ty>, )*
        }

        #[derive(LogicInterface, Default)]
        pub struct $driver<const W: usize> {
            $( pub $field: Signal<$crate::__flip!($dir), $ty>, )*
        }

        impl<const W: usize> $name<W> {
            pub const FIELDS: &'static [$crate::ports::Field] = &[
                $( $crate::ports::Field {
                    name: stringify!($field),
                    direction: $crate::__direction!($dir),
                    ty: stringify!($ty),
                    doc: concat!($($fdoc),*),
                }, )*
            ];

            /// Connects every field to the mirror's (simulation; `join_hdl` is the Verilog).
            pub fn join(&mut self, other: &mut $driver<W>) {
                $( self.$field.join(&mut other.$field); )*
            }

            /// Sets every input from `values`, in field order.
            #[allow(unused_variables)]
            pub fn poke(&mut self, values: &mut dyn Iterator<Item = u128>) {
                $( $crate::__poke!($dir, self.$field, values); )*
            }

            /// Appends every output's value to `out`, in field order.
            // A Vec, not a slice: it grows (a bundle without outputs leaves it as it is).
            #[allow(unused_variables, clippy::ptr_arg)]
            pub fn peek(&self, out: &mut Vec<u128>) {
                $( $crate::__peek!($dir, self.$field, out); )*
            }
        }

        impl<const W: usize> $driver<W> {
            /// Connects every field to the mirror's.
            pub fn join(&mut self, other: &mut $name<W>) {
                $( self.$field.join(&mut other.$field); )*
            }
        }
    };
}

bundle! {
    /// Clock and reset.
    Clocking / ClockingDriver {
        /// Clock; every register changes on its rising edge.
        clock: In Clock,
        /// Synchronous, active high: cancels operations not yet committed, drops responses and readbacks in flight, stops a clear's sweep, then recounts the banks into the fill counters (busy meanwhile); never writes the banks.
        reset: In bool,
    }
}

bundle! {
    /// Request channel (valid/ready).
    Request / RequestDriver {
        /// A request is presented.
        valid: In bool,
        /// The core takes the request presented in this cycle.
        ready: Out bool,
        /// Operation: 0 query, 1 insert, 2 clear, 3 delete (a counting core; a query in a plain one).
        op: In Bits<2>,
        /// The key, W = key_bits wide.
        key: In Bits<W>,
        /// Returned with the response.
        tag: In Bits<8>,
    }
}

bundle! {
    /// Response channel (valid/ready), in request order.
    Response / ResponseDriver {
        /// A response is presented.
        valid: Out bool,
        /// The consumer takes the response presented in this cycle.
        ready: In bool,
        /// Query: every bit was set (counter non-zero); insert: every one was already; delete: every one was, and it was carried out; clear: 0.
        hit: Out bool,
        /// The request's tag.
        tag: Out Bits<8>,
    }
}

bundle! {
    /// Access to single bank bits: read one, and optionally write it (read before write).
    Readback / ReadbackDriver {
        /// Read one bit this cycle (no request is accepted in it).
        req: In bool,
        /// Bank to read; a bank >= k reads 0.
        bank: In Bits<4>,
        /// Bit address in the bank; bits >= bank_bits are ignored.
        addr: In Bits<16>,
        /// With rb_req: then write rb_wdata to that bit (a bank >= k: nothing); ignored while busy.
        write: In bool,
        /// The value rb_write writes.
        wdata: In bool,
        /// rb_data holds the bit read readback_latency cycles earlier.
        valid: Out bool,
        /// The bit, including every operation accepted before the readback (not its own write).
        data: Out bool,
    }
}

bundle! {
    /// Fill counters.
    Fill / FillDriver {
        /// Which bank's counter fill_count shows.
        bank: In Bits<4>,
        /// Bits set (non-zero counters) in bank fill_bank (0 for a bank >= k); combinational from registers.
        count: Out Bits<17>,
    }
}

bundle! {
    /// Core status.
    Status / StatusDriver {
        /// A clear, a reset or the recount after it is in progress: req_ready is low and rb_data unspecified.
        busy: Out bool,
    }
}

bundle! {
    /// The scrub (docs/contract.md §5.2): the banks recounted in free cycles and compared with the fill counters.
    Scrub / ScrubDriver {
        /// Start a scrub (ignored while scrub_busy or reset is high, and always in a core generated without the scrub, bloom verilog --scrub): every address of every bank is read in cycles no request, readback or clear uses.
        req: In bool,
        /// A scrub is in progress; it falls scrub_end_latency cycles after its last slot, when scrub_mismatch shows its result.
        busy: Out bool,
        /// Bit p: the last scrub counted bank p's 1 bits (non-zero counters) differently from its fill counter: a soft change (contract section 5.2); bits >= k are 0, all 0 after reset.
        mismatch: Out Bits<16>,
    }
}

bundle! {
    /// Counters of a counting core (counter_bits c > 1 only; a plain core has none of these ports).
    Counter / CounterDriver {
        /// Counters at 2^c - 1 (saturated) in bank fill_bank (0 for a bank >= k); combinational from registers.
        saturated: Out Bits<17>,
        /// The value rb_write writes into a counter (its low c bits; rb_wdata is then ignored).
        wdata: In Bits<8>,
        /// The counter the readback read (zero-extended), valid with rb_valid; rb_data is then 1 iff it is non-zero.
        rdata: Out Bits<8>,
    }
}

/// The core's ports other than clock and reset, as the core sees them.
#[derive(LogicInterface, Default)]
pub struct CorePorts<const W: usize> {
    pub req: Request<W>,
    pub resp: Response<W>,
    pub rb: Readback<W>,
    pub fill: Fill<W>,
    pub status: Status<W>,
}

/// [`CorePorts`] as seen from whatever drives the core.
#[derive(LogicInterface, Default)]
pub struct CoreDriver<const W: usize> {
    pub req: RequestDriver<W>,
    pub resp: ResponseDriver<W>,
    pub rb: ReadbackDriver<W>,
    pub fill: FillDriver<W>,
    pub status: StatusDriver<W>,
}

impl<const W: usize> CorePorts<W> {
    /// Sets every input from `values`, in the order of [`groups`] (after `Clocking`'s).
    pub fn poke(&mut self, values: &mut dyn Iterator<Item = u128>) {
        self.req.poke(values);
        self.resp.poke(values);
        self.rb.poke(values);
        self.fill.poke(values);
        self.status.poke(values);
    }

    /// Appends every output's value to `out`, in the order of [`groups`].
    pub fn peek(&self, out: &mut Vec<u128>) {
        self.req.peek(out);
        self.resp.peek(out);
        self.rb.peek(out);
        self.fill.peek(out);
        self.status.peek(out);
    }
}

impl<const W: usize> CoreDriver<W> {
    pub fn join(&mut self, core: &mut CorePorts<W>) {
        self.req.join(&mut core.req);
        self.resp.join(&mut core.resp);
        self.rb.join(&mut core.rb);
        self.fill.join(&mut core.fill);
        self.status.join(&mut core.status);
    }
}

/// One group of the core's ports: where it sits in the rust-hdl core (`sys`,
/// `io.req`), its Verilog prefix and its fields.
pub struct Group {
    /// The rust-hdl path of the bundle inside `BloomCore`, `$`-separated.
    pub path: &'static str,
    /// Prefix of the Verilog port names (`req` gives `req_valid`); empty: the field's name alone.
    pub prefix: &'static str,
    pub fields: &'static [Field],
}

/// Every group of ports, in the order of the Verilog port list.
pub fn groups() -> [Group; 7] {
    [
        Group {
            path: "sys",
            prefix: "",
            fields: Clocking::<1>::FIELDS,
        },
        Group {
            path: "io$req",
            prefix: "req",
            fields: Request::<1>::FIELDS,
        },
        Group {
            path: "io$resp",
            prefix: "resp",
            fields: Response::<1>::FIELDS,
        },
        Group {
            path: "io$rb",
            prefix: "rb",
            fields: Readback::<1>::FIELDS,
        },
        Group {
            path: "io$fill",
            prefix: "fill",
            fields: Fill::<1>::FIELDS,
        },
        Group {
            path: "io$status",
            prefix: "",
            fields: Status::<1>::FIELDS,
        },
        Group {
            path: "scrub",
            prefix: "scrub",
            fields: Scrub::<1>::FIELDS,
        },
    ]
}

/// One port of `bloom_core`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CorePort {
    /// Verilog name (`req_valid`).
    pub name: String,
    pub direction: Direction,
    /// Width for the configuration asked for.
    pub width: u32,
    /// Width as a function of the configuration (`1`, `8`, `key_bits`).
    pub width_expr: String,
    /// One line: what it means.
    pub meaning: String,
    /// The rust-hdl path (`io$req$valid`), as the generator prints it before renaming.
    #[serde(skip)]
    pub path: String,
    /// The group's prefix (`req`) and the field's name (`valid`).
    #[serde(skip)]
    pub group: &'static str,
    #[serde(skip)]
    pub field: &'static str,
}

impl CorePort {
    /// A port declared by hand, outside rust-hdl's bundles (the modules written as text
    /// around the core: `bloom_lanes`, `bloom_lanes_axis`).
    pub fn declared(
        name: &str,
        direction: Direction,
        width: u32,
        width_expr: &str,
        meaning: &str,
    ) -> CorePort {
        CorePort {
            name: name.into(),
            direction,
            width,
            width_expr: width_expr.into(),
            meaning: meaning.into(),
            path: String::new(),
            group: "",
            field: "",
        }
    }

    /// `[N-1:0] `, or nothing for a port declared one bit wide (`width_expr` "1"). A port
    /// whose width is a count (one bit per lane) stays a vector when the count is 1, so
    /// that the text around it can index it.
    pub fn range(&self) -> String {
        if self.width_expr == "1" {
            String::new()
        } else {
            format!("[{}:0] ", self.width - 1)
        }
    }
}

/// Width of a declared type: `bool` and `Clock` 1, `Bits<N>` N, `Bits<W>` the key width.
fn width_of(ty: &str, key_bits: u32) -> (u32, String) {
    let t: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
    match t.as_str() {
        "bool" | "Bit" | "Clock" => (1, "1".into()),
        "Bits<W>" => (key_bits, "key_bits".into()),
        other => {
            let n = other
                .strip_prefix("Bits<")
                .and_then(|r| r.strip_suffix('>'))
                .and_then(|n| n.parse::<u32>().ok())
                .unwrap_or_else(|| {
                    panic!(
                        "port type `{ty}`: the port table knows bool, Clock, Bits<N> and Bits<W>"
                    )
                });
            (n, n.to_string())
        }
    }
}

/// The counting core's extra group (counter_bits > 1), after [`groups`]'s: a counting
/// core's ports are the plain core's ([`CorePorts`]) and this one ([`Counter`]).
pub fn counter_group() -> Group {
    Group {
        path: "counter",
        prefix: "counter",
        fields: Counter::<1>::FIELDS,
    }
}

/// The port groups of `bloom_core` for a configuration, in Verilog order: [`groups`],
/// and [`counter_group`] when counter_bits > 1.
pub fn groups_of(params: &bloom_params::CoreParams) -> Vec<Group> {
    let mut g: Vec<Group> = groups().into_iter().collect();
    if params.counter_bits > 1 {
        g.push(counter_group());
    }
    g
}

/// The port list of `bloom_core` for a configuration, in Verilog order.
pub fn core_ports(params: &bloom_params::CoreParams) -> Vec<CorePort> {
    ports_of(&groups_of(params), params)
}

/// The port list of a module whose ports are these groups, for a configuration.
pub fn ports_of(groups: &[Group], params: &bloom_params::CoreParams) -> Vec<CorePort> {
    let mut ports = Vec::new();
    for g in groups {
        for f in g.fields {
            let (width, width_expr) = width_of(f.ty, params.key_bits);
            ports.push(CorePort {
                name: if g.prefix.is_empty() {
                    f.name.to_string()
                } else {
                    format!("{}_{}", g.prefix, f.name)
                },
                direction: f.direction,
                width,
                width_expr,
                meaning: f.doc.trim().to_string(),
                path: format!("{}${}", g.path, f.name),
                group: g.prefix,
                field: f.name,
            });
        }
    }
    ports
}

/// The Verilog lines of a `VerilogLink` list (rust-hdl's `link_hdl`/`join_hdl`),
/// for glue written by hand in `always @(*)` blocks: one assignment each.
pub fn link_assignments(links: &[ast::VerilogLink]) -> String {
    let fix = |s: &str| s.trim_start_matches('.').replace('.', "$");
    let mut out = String::new();
    for l in links {
        let (dst, src) = match l {
            ast::VerilogLink::Forward(x) => (
                format!("{}${}", fix(&x.other_name), fix(&x.my_name)),
                format!("{}${}", fix(&x.owner_name), fix(&x.my_name)),
            ),
            ast::VerilogLink::Backward(x) => (
                format!("{}${}", fix(&x.owner_name), fix(&x.my_name)),
                format!("{}${}", fix(&x.other_name), fix(&x.my_name)),
            ),
            ast::VerilogLink::Bidirectional(_) => {
                panic!("the core's glue has no bidirectional signals")
            }
        };
        out += &format!("    {dst} = {src};\n");
    }
    out
}

/// A Verilog instance of `bloom_core` (module `top`) named `name`: `connect(port)`
/// gives the expression for each port (None leaves an output open; every
/// input must be connected).
pub fn instance(
    top: &str,
    name: &str,
    ports: &[CorePort],
    mut connect: impl FnMut(&CorePort) -> Option<String>,
) -> Result<String, String> {
    let mut lines = Vec::new();
    for p in ports {
        match connect(p) {
            Some(e) => lines.push(format!("        .{}({e})", p.name)),
            None if p.direction == Direction::Output => {
                lines.push(format!("        .{}()", p.name))
            }
            None => return Err(format!("input `{}` of {top} is not connected", p.name)),
        }
    }
    Ok(format!(
        "    {top} {name} (\n{}\n    );\n",
        lines.join(",\n")
    ))
}

/// `wire` declarations for the outputs of `ports`, each named `prefix + name`.
pub fn output_wires(ports: &[CorePort], prefix: &str) -> String {
    ports
        .iter()
        .filter(|p| p.direction == Direction::Output)
        .map(|p| format!("    wire {}{prefix}{};\n", p.range(), p.name))
        .collect()
}

/// The port list of a module written as text: `input  wire [N-1:0] name`, one per line.
pub fn module_ports(ports: &[CorePort]) -> String {
    let lines: Vec<String> = ports
        .iter()
        .map(|p| {
            let dir = if p.direction == Direction::Input {
                "input "
            } else {
                "output"
            };
            format!("    {dir} wire {}{}", p.range(), p.name)
        })
        .collect();
    lines.join(",\n")
}

/// docs/core.md's port table: one row per port, from the declarations.
/// The counting core's ports (counter_bits > 1) follow the plain core's, marked so.
pub fn markdown_table() -> String {
    let counting = bloom_params::CoreParams {
        counter_bits: 4,
        ..Default::default()
    };
    let mut ports = core_ports(&counting);
    for p in ports.iter_mut().filter(|p| p.group == "counter") {
        p.meaning = format!("(counter_bits > 1 only) {}", p.meaning);
    }
    markdown_table_of(&ports)
}

/// A port table in Markdown: one row per port.
pub fn markdown_table_of(ports: &[CorePort]) -> String {
    let mut t = String::from("| port | direction | width | meaning |\n|---|---|---|---|\n");
    for p in ports {
        let dir = match p.direction {
            Direction::Input => "in",
            Direction::Output => "out",
        };
        t += &format!(
            "| `{}` | {dir} | {} | {} |\n",
            p.name, p.width_expr, p.meaning
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_port_list_names_widths_and_order() {
        let ports = core_ports(&bloom_params::CoreParams::default());
        let names: Vec<&str> = ports.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "clock",
                "reset",
                "req_valid",
                "req_ready",
                "req_op",
                "req_key",
                "req_tag",
                "resp_valid",
                "resp_ready",
                "resp_hit",
                "resp_tag",
                "rb_req",
                "rb_bank",
                "rb_addr",
                "rb_write",
                "rb_wdata",
                "rb_valid",
                "rb_data",
                "fill_bank",
                "fill_count",
                "busy",
                "scrub_req",
                "scrub_busy",
                "scrub_mismatch"
            ]
        );
        let key = ports.iter().find(|p| p.name == "req_key").unwrap();
        assert_eq!(
            (key.width, key.width_expr.as_str(), key.direction),
            (64, "key_bits", Direction::Input)
        );
        assert!(
            ports.iter().all(|p| !p.meaning.is_empty()),
            "every port says what it means"
        );
        assert_eq!(
            ports.iter().find(|p| p.name == "fill_count").unwrap().width,
            17
        );
    }
}
