//! The generated `bloom_core`, Verilated and driven through its ports.
//!
//! Timing facts come from `hdl` ([`hdl::Timing`]), never from constants
//! here; the checker in `checker.rs` holds the core to them.

use std::sync::Arc;

use flow::tools::Progress;

use crate::model::{
    Handshake, InitialState, Model, ModelLibrary, PortId, PowerUp, SidePorts, StreamOutput,
};
use crate::netlist::{Netlist, NetlistKind};
use crate::ports::Direction;
use crate::traffic::Request;
use crate::verilator::{build, ModelOptions};
use crate::SimError;

/// Port handles of a Verilated `bloom_core` model, resolved from hdl's port table: every port
/// of the table must be in the model with its width and direction, and the
/// model must have no other.
#[derive(Clone, Debug)]
pub struct ModelPorts {
    pub table: Vec<hdl::ports::CorePort>,
    pub ids: Vec<PortId>,
}

impl ModelPorts {
    pub fn of(lib: &ModelLibrary, params: &hdl::CoreParams) -> Result<ModelPorts, SimError> {
        let table = hdl::ports::core_ports(params);
        let mut ids = Vec::with_capacity(table.len());
        for p in &table {
            let id = lib
                .port(&p.name)
                .map_err(|_| SimError::Ports(format!("bloom_core has no port `{}`", p.name)))?;
            let direction = match p.direction {
                hdl::ports::Direction::Input => Direction::Input,
                hdl::ports::Direction::Output => Direction::Output,
            };
            if id.width != p.width || id.direction != direction {
                return Err(SimError::Ports(format!(
                    "bloom_core port `{}` is a {}-bit {:?}, the port table says a {}-bit {:?}",
                    p.name, id.width, id.direction, p.width, direction
                )));
            }
            ids.push(id);
        }
        if lib.ports().len() != table.len() {
            return Err(SimError::Ports(format!(
                "bloom_core has {} ports, the port table {}",
                lib.ports().len(),
                table.len()
            )));
        }
        Ok(ModelPorts { table, ids })
    }

    /// The handle of port `name` (a name of hdl's port table).
    pub fn id(&self, name: &str) -> PortId {
        let i = self
            .table
            .iter()
            .position(|p| p.name == name)
            .unwrap_or_else(|| panic!("no port `{name}` in the port table"));
        self.ids[i]
    }

    /// The valid/ready channel of port group `group` (`req`, `resp`): its
    /// `valid` and `ready`, and as payload every other port of the group that
    /// goes the way `valid` does, in table order.
    pub fn channel(&self, group: &str) -> Handshake {
        let valid = self.id(&format!("{group}_valid"));
        let data = self
            .table
            .iter()
            .zip(&self.ids)
            .filter(|(p, id)| {
                p.group == group
                    && p.field != "valid"
                    && p.field != "ready"
                    && id.direction == valid.direction
            })
            .map(|(_, id)| *id)
            .collect();
        Handshake {
            valid,
            ready: self.id(&format!("{group}_ready")),
            data,
        }
    }

    pub fn request_channel(&self) -> Handshake {
        self.channel("req")
    }
    pub fn response_channel(&self) -> Handshake {
        self.channel("resp")
    }

    /// The side ports of the streaming path (`side`): every input and
    /// output that is not part of the two channels.
    pub fn side_ports(&self) -> SidePorts {
        use crate::side;
        let counting = self.table.iter().any(|p| p.group == "counter");
        type Ports = &'static [(&'static str, u32)];
        let (more_in, more_out): (Ports, Ports) = if counting {
            (&side::COUNTING_INPUTS, &side::COUNTING_OUTPUTS)
        } else {
            (&[], &[])
        };
        SidePorts {
            inputs: side::INPUTS
                .iter()
                .chain(more_in)
                .map(|&(n, s)| (self.id(n), s))
                .collect(),
            outputs: side::OUTPUTS
                .iter()
                .chain(more_out)
                .map(|&(n, s)| (self.id(n), s))
                .collect(),
        }
    }

    /// Every input but the clock.
    pub fn inputs(&self) -> impl Iterator<Item = PortId> + '_ {
        self.table
            .iter()
            .zip(&self.ids)
            .filter(|(p, id)| id.direction == Direction::Input && p.name != "clock")
            .map(|(_, id)| *id)
    }
}

/// Words per request in the stream buffer: op (1), key (W/32), tag (1).
pub fn request_words(key_bits: u32) -> usize {
    2 + key_bits.div_ceil(32) as usize
}

/// Appends `r` to a stream buffer in the request channel's port order.
pub fn push_request(buf: &mut Vec<u32>, r: &Request, key_bits: u32) {
    buf.push(r.op as u32 & 3);
    for i in 0..key_bits.div_ceil(32) {
        buf.push((r.key >> (32 * i)) as u32);
    }
    buf.push(r.tag as u32);
}

/// A Verilated `bloom_core` (its generated Verilog, or a netlist of it) with
/// its golden-independent facts.
pub struct VerilatedCore {
    pub config: hdl::CoreConfig,
    pub timing: hdl::Timing,
    pub ports: ModelPorts,
    pub side: SidePorts,
    pub model: Model,
    pub library: Arc<ModelLibrary>,
    pub power_up: PowerUp,
    /// The last cycle of the latest reset applied by [`VerilatedCore::reset`].
    pub last_reset: u64,
}

impl VerilatedCore {
    /// Generates the core's Verilog with `hdl` and builds (or reuses) its model.
    pub fn build(config: &hdl::CoreConfig, trace: bool) -> Result<VerilatedCore, SimError> {
        Self::build_with(config, trace, PowerUp::default())
    }

    pub fn build_with(
        config: &hdl::CoreConfig,
        trace: bool,
        power_up: PowerUp,
    ) -> Result<VerilatedCore, SimError> {
        let generated = hdl::generate_core(config).map_err(|e| SimError::Value(e.to_string()))?;
        Self::from_generated(&generated, trace, power_up)
    }

    pub fn from_generated(
        generated: &hdl::GeneratedCore,
        trace: bool,
        power_up: PowerUp,
    ) -> Result<VerilatedCore, SimError> {
        let library = build(
            &generated.verilog,
            &generated.top,
            &ModelOptions {
                trace,
                ..Default::default()
            },
        )?;
        Self::from_library(
            generated.config.clone(),
            generated.timing,
            library,
            power_up,
        )
    }

    /// The RTL of `config` with every bank's memory open to [`VerilatedCore::soft_error`]
    /// (marked `/*verilator public_flat_rw*/`; the logic is unchanged).
    pub fn build_with_open_banks(config: &hdl::CoreConfig) -> Result<VerilatedCore, SimError> {
        let mut generated =
            hdl::generate_core(config).map_err(|e| SimError::Value(e.to_string()))?;
        generated.verilog = open_banks(&generated.verilog)?;
        Self::from_generated(&generated, false, PowerUp::default())
    }

    /// A soft error (docs/contract.md §5.2) between two cycles: XORs `mask` into the bit
    /// (counter) at `addr` of bank `bank`, with no operation (the fill counter does not
    /// see it). Only in a model built by [`VerilatedCore::build_with_open_banks`].
    pub fn soft_error(&mut self, bank: usize, addr: u32, mask: u8) -> Result<(), SimError> {
        let (k, size) = (self.config.k(), self.config.bank_size());
        let bits = self.config.params.counter_bits;
        if bank >= k || addr as usize >= size || mask == 0 || (mask as u32) >> bits != 0 {
            return Err(SimError::Value(format!(
                "soft error at bank {bank} address {addr} mask {mask:#x}: the core has {k} banks of {size} addresses of {bits} bits"
            )));
        }
        // rust-hdl names bank p's instance `parts$p`; Verilator registers its scope as
        // `TOP.bloom_core.parts$p.ram` (the `$` kept: `__024` is only its C++ spelling).
        self.model
            .mem_xor(&format!(".parts${bank}.ram"), "mem", addr, mask as u32)
    }

    /// The block RAM cells' memories of a model built by [`build_core_with_open_cells`]:
    /// (scope, array name), one per cell instance.
    pub fn cell_memories(&self) -> Result<Vec<(String, &'static str)>, SimError> {
        let mut all = Vec::new();
        for (_, _, var) in crate::cells::RAM_MEMORIES {
            for scope in self.model.mem_scopes(var)? {
                all.push((scope, var));
            }
        }
        Ok(all)
    }

    /// XORs `mask` into element `index` of the block RAM cell memory `var` in `scope`
    /// (from [`VerilatedCore::cell_memories`]): a soft error in a netlist's block RAM,
    /// between two cycles.
    pub fn cell_soft_error(
        &mut self,
        scope: &str,
        var: &str,
        index: u32,
        mask: u32,
    ) -> Result<(), SimError> {
        self.model.mem_xor(scope, var, index, mask)
    }

    /// The core of `generated` as `netlist` (made by [`crate::netlist::make`]
    /// from the same Verilog), built for Verilator (or taken from the cache).
    pub fn from_netlist(
        generated: &hdl::GeneratedCore,
        netlist: &crate::netlist::Netlist,
        trace: bool,
        power_up: PowerUp,
    ) -> Result<VerilatedCore, SimError> {
        let library = build(
            &netlist.verilog,
            &netlist.top,
            &netlist.build_options(trace),
        )?;
        Self::from_library(
            generated.config.clone(),
            generated.timing,
            library,
            power_up,
        )
    }

    /// A core from an already built model of `bloom_core` (the RTL or a
    /// netlist of it); its ports must be the port table's.
    pub fn from_library(
        config: hdl::CoreConfig,
        timing: hdl::Timing,
        library: Arc<ModelLibrary>,
        power_up: PowerUp,
    ) -> Result<VerilatedCore, SimError> {
        let ports = ModelPorts::of(&library, &config.params)?;
        Self::start(config, timing, ports, library, power_up)
    }

    fn start(
        config: hdl::CoreConfig,
        timing: hdl::Timing,
        ports: ModelPorts,
        library: Arc<ModelLibrary>,
        power_up: PowerUp,
    ) -> Result<VerilatedCore, SimError> {
        let init = match power_up {
            PowerUp::Random(seed) => InitialState::Random(seed),
            PowerUp::Zero => InitialState::Zero,
        };
        let model = library.instantiate(Some("clock"), init)?;
        let side = ports.side_ports();
        let mut core = VerilatedCore {
            config,
            timing,
            ports,
            side,
            model,
            library,
            power_up,
            last_reset: 0,
        };
        core.reset()?;
        Ok(core)
    }

    /// The parameters of the core.
    pub fn params(&self) -> &hdl::CoreParams {
        &self.config.params
    }

    /// Another instance of the same model (no rebuild), started the same way.
    pub fn new_instance(&self) -> Result<VerilatedCore, SimError> {
        Self::start(
            self.config.clone(),
            self.timing,
            self.ports.clone(),
            self.library.clone(),
            self.power_up,
        )
    }

    /// Two cycles of reset with every input idle; the core then recounts its
    /// banks (busy for `reset_busy_cycles`).
    pub fn reset(&mut self) -> Result<(), SimError> {
        let reset = self.ports.id("reset");
        for port in self.ports.inputs().collect::<Vec<_>>() {
            self.model.set(port, 0)?;
        }
        self.model.set(reset, 1)?;
        self.model.step(2)?;
        self.model.set(reset, 0)?;
        self.last_reset = self.model.cycle() - 1;
        Ok(())
    }

    pub fn cycle(&self) -> u64 {
        self.model.cycle()
    }

    /// Streams requests (see [`Model::stream`]), with `side_in[c]` driving the
    /// side inputs of cycle c (`side`; empty: all 0) and every side
    /// output recorded.
    pub fn stream(
        &mut self,
        items: &[u32],
        gaps: &[u32],
        ready: &[u8],
        side_in: &[u64],
        want_responses: usize,
        out: &mut StreamOutput,
    ) -> Result<(), SimError> {
        let (i, o) = (self.ports.request_channel(), self.ports.response_channel());
        self.model.stream(
            &i,
            &o,
            Some((&self.side, side_in)),
            items,
            gaps,
            ready,
            want_responses,
            true,
            out,
        )
    }

    /// Idle cycles, not checked: no request, no readback, consumer ready.
    pub fn idle(&mut self, cycles: u64) -> Result<(), SimError> {
        self.model.set(self.ports.id("req_valid"), 0)?;
        self.model.set(self.ports.id("resp_ready"), 1)?;
        self.model.step(cycles)
    }

    /// Reads every bit of every bank through the readback port, one address per
    /// cycle. Returns the bits per bank and the readback's own protocol errors
    /// (rb_valid at the wrong cycle, req_ready high during a readback cycle).
    /// Call only with the pipeline drained and no clear in progress.
    pub fn read_image(&mut self) -> Result<(Vec<Vec<u8>>, Vec<String>), SimError> {
        let k = self.config.k();
        let size = self.config.bank_size();
        let lat = self.timing.readback_latency as usize;
        let n = k * size;
        let p = |name: &str| self.ports.id(name);
        let (rb_req, rb_bank, rb_addr, req_valid) =
            (p("rb_req"), p("rb_bank"), p("rb_addr"), p("req_valid"));
        let (rb_valid, rb_data, req_ready) = (p("rb_valid"), p("rb_data"), p("req_ready"));
        let mut ins = Vec::with_capacity((n + lat + 1) * 4);
        for c in 0..n + lat + 1 {
            if c < n {
                ins.extend_from_slice(&[1, (c / size) as u32, (c % size) as u32, 0]);
            } else {
                ins.extend_from_slice(&[0, 0, 0, 0]);
            }
        }
        let mut outs = vec![0u32; (n + lat + 1) * 3];
        self.model.set(req_valid, 0)?;
        self.model.run_vectors(
            &[rb_req, rb_bank, rb_addr, req_valid],
            &ins,
            &[rb_valid, rb_data, req_ready],
            &mut outs,
        )?;
        let mut banks = vec![vec![0u8; size]; k];
        let mut errors = Vec::new();
        let start = self.model.cycle() - (n + lat + 1) as u64;
        for c in 0..n + lat + 1 {
            let (valid, data, ready) = (outs[3 * c], outs[3 * c + 1], outs[3 * c + 2]);
            let expect_valid = c >= lat && c - lat < n;
            if (valid == 1) != expect_valid && errors.len() < 10 {
                errors.push(format!(
                    "cycle {}: rb_valid is {valid}, expected {} (readback latency {lat})",
                    start + c as u64,
                    expect_valid as u8
                ));
            }
            if c < n && ready != 0 && errors.len() < 10 {
                errors.push(format!(
                    "cycle {}: req_ready is 1 while rb_req is 1",
                    start + c as u64
                ));
            }
            if expect_valid {
                let i = c - lat;
                banks[i / size][i % size] = data as u8;
            }
        }
        Ok((banks, errors))
    }

    /// fill_count for fill_bank = 0..16 (banks >= k must read 0).
    pub fn read_fills(&mut self) -> Result<Vec<u32>, SimError> {
        let ins: Vec<u32> = (0..16).collect();
        let mut outs = vec![0u32; 16];
        let fb = self.ports.id("fill_bank");
        let fc = self.ports.id("fill_count");
        self.model.run_vectors(&[fb], &ins, &[fc], &mut outs)?;
        Ok(outs)
    }
}

/// `verilog` with every bank memory (`reg mem [0:N];`, `reg [c-1:0] mem [0:N];`) marked
/// `/*verilator public_flat_rw*/`, so that a test can reach it from C++.
pub fn open_banks(verilog: &str) -> Result<String, SimError> {
    let mut marked = 0;
    let mut out = String::with_capacity(verilog.len() + 1024);
    for line in verilog.lines() {
        let t = line.trim();
        if t.starts_with("reg ") && t.contains(" mem [0:") && t.ends_with("];") {
            out.push_str(&line[..line.len() - 1]);
            out.push_str(" /*verilator public_flat_rw*/;");
            marked += 1;
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    if marked == 0 {
        return Err(SimError::Value(
            "no bank memory found in the Verilog".into(),
        ));
    }
    Ok(out)
}

/// A core of `config` built as `kind`: its Verilog generated, the netlist
/// made (or taken from the cache), the Verilator model built (or taken from
/// its cache) and started (reset applied, as every core starts).
pub struct KindCore {
    pub core: VerilatedCore,
    pub netlist: Netlist,
    /// Seconds the tools took now (None: cached or RTL).
    pub tool_seconds: Option<f64>,
    /// Seconds Verilator and the C++ compiler took now (None: cached).
    pub model_seconds: Option<f64>,
}

/// [`build_core`] of a synthesized or routed netlist whose block RAM cells' memories are
/// open to [`VerilatedCore::cell_soft_error`] (the cell models' arrays marked public, the
/// logic unchanged: a model of its own in the cache).
pub fn build_core_with_open_cells(
    config: &hdl::CoreConfig,
    kind: NetlistKind,
    progress: &Progress,
) -> Result<KindCore, SimError> {
    let generated = hdl::generate_core(config).map_err(|e| SimError::Value(e.to_string()))?;
    let mut netlist = crate::netlist::make(&generated.verilog, &generated.top, kind, progress)?;
    crate::cells::open_cell_memories(&mut netlist.cells)?;
    let core = VerilatedCore::from_netlist(&generated, &netlist, false, PowerUp::default())?;
    let model_seconds = core.library.build_seconds();
    Ok(KindCore {
        tool_seconds: netlist.tool_seconds,
        model_seconds,
        netlist,
        core,
    })
}

pub fn build_core(
    config: &hdl::CoreConfig,
    kind: NetlistKind,
    trace: bool,
    power_up: PowerUp,
    progress: &Progress,
) -> Result<KindCore, SimError> {
    let generated = hdl::generate_core(config).map_err(|e| SimError::Value(e.to_string()))?;
    let netlist = crate::netlist::make(&generated.verilog, &generated.top, kind, progress)?;
    let core = VerilatedCore::from_netlist(&generated, &netlist, trace, power_up)?;
    let model_seconds = core.library.build_seconds();
    Ok(KindCore {
        tool_seconds: netlist.tool_seconds,
        model_seconds,
        netlist,
        core,
    })
}
