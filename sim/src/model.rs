//! Safe Rust handle on a Verilated model loaded from its shared library.
//!
//! Libraries are loaded once per process and never unloaded: Verilator's
//! runtime keeps thread-local state whose destructors would run after an
//! unload, and a test process only ever loads a handful of configurations.

use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};

use crate::ports::{Direction, Port};
use crate::shim::SHIM_VERSION;
use crate::SimError;

#[repr(C)]
#[derive(Clone, Copy)]
struct RawStreamSpec {
    in_valid: u32,
    in_ready: u32,
    n_in: u32,
    in_ports: [u32; 16],
    out_valid: u32,
    out_ready: u32,
    n_out: u32,
    out_ports: [u32; 16],
    n_side_in: u32,
    side_in_ports: [u32; 16],
    side_in_shift: [u32; 16],
    side_in_mask: [u32; 16],
    n_side_out: u32,
    side_out_ports: [u32; 16],
    side_out_shift: [u32; 16],
}

#[repr(C)]
#[derive(Default, Clone, Copy)]
struct RawStreamResult {
    cycles: u64,
    accepted: u64,
    responses: u64,
}

#[derive(Clone, Copy)]
struct Fns {
    new: unsafe extern "C" fn(u32, u32) -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    set_clock: unsafe extern "C" fn(*mut c_void, i32),
    cycle: unsafe extern "C" fn(*mut c_void) -> u64,
    set: unsafe extern "C" fn(*mut c_void, u32, *const u32),
    get: unsafe extern "C" fn(*mut c_void, u32, *mut u32),
    eval: unsafe extern "C" fn(*mut c_void),
    step: unsafe extern "C" fn(*mut c_void, u64),
    vectors: unsafe extern "C" fn(
        *mut c_void,
        u64,
        u32,
        *const u32,
        *const u32,
        u32,
        *const u32,
        *mut u32,
    ),
    #[allow(clippy::type_complexity)]
    stream: unsafe extern "C" fn(
        *mut c_void,
        *const RawStreamSpec,
        u64,
        *const u32,
        *const u32,
        u64,
        *const u8,
        u64,
        *mut u64,
        *mut u32,
        u64,
        *mut u8,
        *const u64,
        *mut u64,
        *mut RawStreamResult,
    ),
    trace_open: unsafe extern "C" fn(*mut c_void, *const std::ffi::c_char) -> i32,
    trace_close: unsafe extern "C" fn(*mut c_void),
    mem_xor: unsafe extern "C" fn(
        *mut c_void,
        *const std::ffi::c_char,
        *const std::ffi::c_char,
        u32,
        u32,
    ) -> u32,
    mem_scopes: unsafe extern "C" fn(
        *mut c_void,
        *const std::ffi::c_char,
        *mut std::ffi::c_char,
        u32,
    ) -> u32,
}

/// A loaded model library: create any number of independent [`Model`]s from it.
pub struct ModelLibrary {
    path: PathBuf,
    ports: Vec<Port>,
    traced: bool,
    build_seconds: Option<f64>,
    fns: Fns,
}

impl std::fmt::Debug for ModelLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelLibrary")
            .field("path", &self.path)
            .field("ports", &self.ports)
            .finish()
    }
}

fn loaded_libraries() -> &'static Mutex<HashMap<PathBuf, &'static Library>> {
    static LIBS: OnceLock<Mutex<HashMap<PathBuf, &'static Library>>> = OnceLock::new();
    LIBS.get_or_init(Default::default)
}

impl ModelLibrary {
    pub(crate) fn load(
        path: &Path,
        ports: Vec<Port>,
        traced: bool,
        build_seconds: Option<f64>,
    ) -> Result<Arc<ModelLibrary>, SimError> {
        let lib: &'static Library = {
            let mut map = loaded_libraries().lock().unwrap_or_else(|e| e.into_inner());
            match map.get(path) {
                Some(l) => l,
                None => {
                    // SAFETY: the library is one we built from our own shim; its
                    // initialisers are Verilator's runtime and the model's statics.
                    let l = unsafe { Library::open(Some(path), RTLD_NOW | RTLD_LOCAL) }
                        .map_err(|e| SimError::Load(format!("{}: {e}", path.display())))?;
                    let l: &'static Library = Box::leak(Box::new(l));
                    map.insert(path.to_path_buf(), l);
                    l
                }
            }
        };
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the symbol's type is the one the shim defines (checked
                // by the ABI version below); the library is never unloaded.
                *unsafe { lib.get($name) }
                    .map_err(|e| SimError::Load(format!("{}: {e}", path.display())))?
            };
        }
        let abi: unsafe extern "C" fn() -> u32 = sym!(b"bsim_abi_version\0");
        let count: unsafe extern "C" fn() -> u32 = sym!(b"bsim_port_count\0");
        // SAFETY: argument-less functions of the shim.
        let (abi, count) = unsafe { (abi(), count()) };
        if abi != SHIM_VERSION || count as usize != ports.len() {
            return Err(SimError::Load(format!(
                "{}: shim version {abi} with {count} ports, expected version {SHIM_VERSION} with {} ports",
                path.display(),
                ports.len()
            )));
        }
        let fns = Fns {
            new: sym!(b"bsim_new\0"),
            free: sym!(b"bsim_free\0"),
            set_clock: sym!(b"bsim_set_clock\0"),
            cycle: sym!(b"bsim_cycle\0"),
            set: sym!(b"bsim_set\0"),
            get: sym!(b"bsim_get\0"),
            eval: sym!(b"bsim_eval\0"),
            step: sym!(b"bsim_step\0"),
            vectors: sym!(b"bsim_vectors\0"),
            stream: sym!(b"bsim_stream\0"),
            trace_open: sym!(b"bsim_trace_open\0"),
            trace_close: sym!(b"bsim_trace_close\0"),
            mem_xor: sym!(b"bsim_mem_xor\0"),
            mem_scopes: sym!(b"bsim_mem_scopes\0"),
        };
        Ok(Arc::new(ModelLibrary {
            path: path.to_path_buf(),
            ports,
            traced,
            build_seconds,
            fns,
        }))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
    pub fn ports(&self) -> &[Port] {
        &self.ports
    }
    /// Whether the model was built with `--trace`.
    pub fn traced(&self) -> bool {
        self.traced
    }
    /// Seconds this call spent building (None when the cache had the model).
    pub fn build_seconds(&self) -> Option<f64> {
        self.build_seconds
    }

    pub fn port(&self, name: &str) -> Result<PortId, SimError> {
        self.ports
            .iter()
            .position(|p| p.name == name)
            .map(|i| PortId {
                index: i as u32,
                width: self.ports[i].width,
                direction: self.ports[i].direction,
            })
            .ok_or_else(|| SimError::UnknownPort(name.to_string()))
    }

    /// A new model instance, with state not set by reset drawn at random from
    /// `seed` (see the module documentation of `verilator`), clocked by `clock`.
    pub fn instantiate(
        self: &Arc<Self>,
        clock: Option<&str>,
        init: InitialState,
    ) -> Result<Model, SimError> {
        let clock = match clock {
            Some(name) => {
                let p = self.port(name)?;
                if p.width != 1 || p.direction != Direction::Input {
                    return Err(SimError::Ports(format!(
                        "clock `{name}` must be a 1-bit input"
                    )));
                }
                Some(p)
            }
            None => None,
        };
        let (mode, seed) = match init {
            InitialState::Zero => (0, 0),
            // Verilator treats seed 0 as "seed from the OS"; keep runs reproducible.
            InitialState::Random(s) => (2, if s == 0 { 0x5eed } else { s }),
        };
        // SAFETY: shim constructor; returns an owned pointer freed in Drop.
        let raw = unsafe { (self.fns.new)(mode, seed) };
        if raw.is_null() {
            return Err(SimError::Load("model construction failed".into()));
        }
        // SAFETY: `raw` is live; the index is a 1-bit input port of this model.
        unsafe { (self.fns.set_clock)(raw, clock.map(|p| p.index as i32).unwrap_or(-1)) };
        Ok(Model {
            lib: self.clone(),
            raw,
            has_clock: clock.is_some(),
            tracing: false,
        })
    }
}

/// How a model instance starts.
///
/// Verilog leaves registers without an initial value undefined; the
/// generated core gives its banks initial contents (hdl/src/core/ram.rs) and
/// relies on reset for everything else. Both are checked: reset is applied
/// (two cycles) and the checker follows the core from the reset's last cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerUp {
    /// Every register (and any memory bit without an initial value) starts
    /// random (seeded), so that state the reset does not set shows up as a
    /// mismatch instead of being hidden by all-zero state.
    Random(u32),
    /// Everything starts 0, as FPGA flip-flops do.
    Zero,
}

impl Default for PowerUp {
    fn default() -> Self {
        PowerUp::Random(0x0b10_0f17)
    }
}

/// What state the design has before reset touches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitialState {
    Zero,
    Random(u32),
}

/// A port of a model, resolved once by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortId {
    pub index: u32,
    pub width: u32,
    pub direction: Direction,
}

impl PortId {
    pub fn words(&self) -> usize {
        self.width.div_ceil(32) as usize
    }
}

/// A valid/ready channel: `valid` and `ready` 1-bit ports plus payload ports.
#[derive(Clone, Debug)]
pub struct Handshake {
    pub valid: PortId,
    pub ready: PortId,
    pub data: Vec<PortId>,
}

/// Ports driven and recorded in every cycle of [`Model::stream`] besides the
/// two channels, each packed at its own shift into one 64-bit word per cycle
/// (at most 16 ports of at most 32 bits each way; an output may run past the
/// word's end, its high bits then unrecorded).
#[derive(Clone, Debug, Default)]
pub struct SidePorts {
    pub inputs: Vec<(PortId, u32)>,
    pub outputs: Vec<(PortId, u32)>,
}

impl SidePorts {
    fn check(&self) -> Result<(), SimError> {
        for (list, dir, what) in [
            (&self.inputs, Direction::Input, "input"),
            (&self.outputs, Direction::Output, "output"),
        ] {
            if list.len() > 16 {
                return Err(SimError::Value(format!("more than 16 side {what}s")));
            }
            let mut used = 0u64;
            for &(p, shift) in list.iter() {
                // An output's bits past the word's bit 63 are not recorded; an input must fit.
                let fits = if dir == Direction::Output {
                    shift < 64
                } else {
                    shift + p.width <= 64
                };
                if p.direction != dir || p.width > 32 || !fits {
                    return Err(SimError::Value(format!(
                        "side {what} port {} ({}-bit {:?}) at shift {shift} does not fit a 64-bit word",
                        p.index, p.width, p.direction
                    )));
                }
                let mask = ((1u128 << p.width) - 1) as u64;
                if used & (mask << shift) != 0 {
                    return Err(SimError::Value(format!(
                        "side {what} port {} overlaps another",
                        p.index
                    )));
                }
                used |= mask << shift;
            }
        }
        Ok(())
    }
}

/// Reusable buffers for [`Model::stream`].
#[derive(Default, Debug, Clone)]
pub struct StreamOutput {
    /// Cycle at which each item was accepted (valid and ready both high).
    pub accept_cycle: Vec<u64>,
    /// Response records: `[cycle lo, cycle hi, data words...]`, `stride` words each.
    pub responses: Vec<u32>,
    pub stride: usize,
    /// Per cycle: in_valid | in_ready<<1 | out_valid<<2 | out_ready<<3.
    pub flags: Vec<u8>,
    /// Per cycle: the side outputs, packed (empty without side ports).
    pub side_out: Vec<u64>,
    /// First cycle of this call.
    pub start_cycle: u64,
    pub cycles: u64,
    pub accepted: usize,
    pub n_responses: usize,
}

impl StreamOutput {
    /// Response `i`: its cycle and its payload words.
    pub fn response(&self, i: usize) -> (u64, &[u32]) {
        let r = &self.responses[i * self.stride..(i + 1) * self.stride];
        ((r[0] as u64) | ((r[1] as u64) << 32), &r[2..])
    }
}

/// One instance of a Verilated model.
pub struct Model {
    lib: Arc<ModelLibrary>,
    raw: *mut c_void,
    has_clock: bool,
    tracing: bool,
}

// SAFETY: a Verilated model is not shared between threads here (no Sync); it can
// move to another thread, and the shim points Verilator's thread context at the
// model's own context at every entry that evaluates.
unsafe impl Send for Model {}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: `raw` came from `new` and is freed exactly once.
        unsafe { (self.lib.fns.free)(self.raw) };
    }
}

fn check_fits(p: PortId, words: &[u32]) -> Result<(), SimError> {
    if words.len() != p.words() {
        return Err(SimError::Value(format!(
            "port {} takes {} words, got {}",
            p.index,
            p.words(),
            words.len()
        )));
    }
    let top_bits = p.width % 32;
    if top_bits != 0 && words[words.len() - 1] >> top_bits != 0 {
        return Err(SimError::Value(format!(
            "value does not fit the {}-bit port {}",
            p.width, p.index
        )));
    }
    Ok(())
}

impl Model {
    pub fn library(&self) -> &Arc<ModelLibrary> {
        &self.lib
    }
    pub fn port(&self, name: &str) -> Result<PortId, SimError> {
        self.lib.port(name)
    }
    /// Cycles stepped so far.
    pub fn cycle(&self) -> u64 {
        // SAFETY: live model.
        unsafe { (self.lib.fns.cycle)(self.raw) }
    }

    pub fn set_words(&mut self, p: PortId, words: &[u32]) -> Result<(), SimError> {
        if p.direction == Direction::Output {
            return Err(SimError::Value(format!("port {} is an output", p.index)));
        }
        check_fits(p, words)?;
        // SAFETY: the index is this model's and `words` has the port's length.
        unsafe { (self.lib.fns.set)(self.raw, p.index, words.as_ptr()) };
        Ok(())
    }

    /// Sets an input of up to 128 bits; the value must fit the port.
    pub fn set(&mut self, p: PortId, value: u128) -> Result<(), SimError> {
        if p.width > 128 {
            return Err(SimError::Value(format!(
                "port {} is {} bits wide: use set_words",
                p.index, p.width
            )));
        }
        let words: Vec<u32> = (0..p.words()).map(|i| (value >> (32 * i)) as u32).collect();
        if p.width < 128 && value >> p.width != 0 {
            return Err(SimError::Value(format!(
                "{value:#x} does not fit the {}-bit port {}",
                p.width, p.index
            )));
        }
        self.set_words(p, &words)
    }

    pub fn get_words(&self, p: PortId) -> Vec<u32> {
        let mut w = vec![0u32; p.words()];
        // SAFETY: the buffer has the port's length.
        unsafe { (self.lib.fns.get)(self.raw, p.index, w.as_mut_ptr()) };
        w
    }

    /// Reads a port of up to 128 bits (wider ports: the low 128 bits).
    pub fn get(&self, p: PortId) -> u128 {
        self.get_words(p)
            .iter()
            .take(4)
            .enumerate()
            .fold(0u128, |acc, (i, &w)| acc | ((w as u128) << (32 * i)))
    }

    /// Settles combinational logic after inputs changed, without a clock edge.
    pub fn eval(&mut self) {
        // SAFETY: live model.
        unsafe { (self.lib.fns.eval)(self.raw) }
    }

    /// `n` clock cycles with the inputs as they are.
    pub fn step(&mut self, n: u64) -> Result<(), SimError> {
        if !self.has_clock {
            return Err(SimError::Value(
                "this model was instantiated without a clock".into(),
            ));
        }
        // SAFETY: live model.
        unsafe { (self.lib.fns.step)(self.raw, n) };
        Ok(())
    }

    /// Applies one input vector per cycle and samples outputs in the same cycle
    /// (after the inputs settled, before the edge). Buffers hold the ports' words
    /// in order, cycle after cycle.
    pub fn run_vectors(
        &mut self,
        inputs: &[PortId],
        in_buf: &[u32],
        outputs: &[PortId],
        out_buf: &mut [u32],
    ) -> Result<u64, SimError> {
        if !self.has_clock {
            return Err(SimError::Value(
                "this model was instantiated without a clock".into(),
            ));
        }
        let in_stride: usize = inputs.iter().map(|p| p.words()).sum();
        let out_stride: usize = outputs.iter().map(|p| p.words()).sum();
        if inputs.iter().any(|p| p.direction == Direction::Output) {
            return Err(SimError::Value(
                "run_vectors: an input list names an output port".into(),
            ));
        }
        let n = in_buf
            .len()
            .checked_div(in_stride)
            .unwrap_or(out_buf.len() / out_stride.max(1));
        if in_buf.len() != n * in_stride || out_buf.len() != n * out_stride {
            return Err(SimError::Value(format!(
                "run_vectors: buffers of {} and {} words do not hold whole cycles of {in_stride} and {out_stride} words",
                in_buf.len(),
                out_buf.len()
            )));
        }
        for (c, chunk) in in_buf.chunks(in_stride.max(1)).enumerate() {
            if in_stride == 0 {
                break;
            }
            let mut off = 0;
            for p in inputs {
                check_fits(*p, &chunk[off..off + p.words()])
                    .map_err(|e| SimError::Value(format!("cycle {c}: {e}")))?;
                off += p.words();
            }
        }
        let ins: Vec<u32> = inputs.iter().map(|p| p.index).collect();
        let outs: Vec<u32> = outputs.iter().map(|p| p.index).collect();
        // SAFETY: buffer lengths were checked against the port widths above.
        unsafe {
            (self.lib.fns.vectors)(
                self.raw,
                n as u64,
                ins.len() as u32,
                ins.as_ptr(),
                in_buf.as_ptr(),
                outs.len() as u32,
                outs.as_ptr(),
                out_buf.as_mut_ptr(),
            )
        };
        Ok(n as u64)
    }

    /// Streams `items` (each the input channel's payload words, in port order)
    /// through `input`, item i after `gaps[i]` idle cycles, with `out_ready[c]`
    /// driving the output channel's ready in cycle c, collecting responses from
    /// `output`. Runs until every item was accepted and `want_responses`
    /// responses arrived, or `out_ready.len()` cycles passed. With `side`,
    /// `side_in[c]` drives its inputs in cycle c (`side_in` as long as
    /// `out_ready`) and `out.side_out[c]` records its outputs. Buffers in `out`
    /// are reused between calls.
    #[allow(clippy::too_many_arguments)]
    pub fn stream(
        &mut self,
        input: &Handshake,
        output: &Handshake,
        side: Option<(&SidePorts, &[u64])>,
        items: &[u32],
        gaps: &[u32],
        out_ready: &[u8],
        want_responses: usize,
        record_flags: bool,
        out: &mut StreamOutput,
    ) -> Result<(), SimError> {
        if !self.has_clock {
            return Err(SimError::Value(
                "this model was instantiated without a clock".into(),
            ));
        }
        for p in [input.valid, input.ready, output.valid, output.ready] {
            if p.width != 1 {
                return Err(SimError::Value(format!(
                    "handshake port {} is not 1 bit wide",
                    p.index
                )));
            }
        }
        if input.data.len() > 16 || output.data.len() > 16 {
            return Err(SimError::Value(
                "a channel has more than 16 payload ports".into(),
            ));
        }
        if input.valid.direction == Direction::Output
            || output.ready.direction == Direction::Output
            || input.data.iter().any(|p| p.direction == Direction::Output)
        {
            return Err(SimError::Value("stream: a driven port is an output".into()));
        }
        let in_stride: usize = input.data.iter().map(|p| p.words()).sum();
        let n_items = gaps.len();
        if items.len() != n_items * in_stride {
            return Err(SimError::Value(format!(
                "stream: {} payload words for {n_items} items of {in_stride} words",
                items.len()
            )));
        }
        // Only a port whose width is not a whole number of words can be given a value
        // too wide for it: check the top word of each such port in every item.
        let mut top_words = Vec::new();
        let mut off = 0;
        for p in &input.data {
            if p.width % 32 != 0 {
                top_words.push((off + p.words() - 1, p.width % 32, *p));
            }
            off += p.words();
        }
        if in_stride > 0 {
            for (i, item) in items.chunks_exact(in_stride).enumerate() {
                for &(word, bits, p) in &top_words {
                    if item[word] >> bits != 0 {
                        return Err(SimError::Value(format!(
                            "item {i}: value does not fit the {}-bit port {}",
                            p.width, p.index
                        )));
                    }
                }
            }
        }
        let mut spec = RawStreamSpec {
            in_valid: input.valid.index,
            in_ready: input.ready.index,
            n_in: input.data.len() as u32,
            in_ports: [0; 16],
            out_valid: output.valid.index,
            out_ready: output.ready.index,
            n_out: output.data.len() as u32,
            out_ports: [0; 16],
            n_side_in: 0,
            side_in_ports: [0; 16],
            side_in_shift: [0; 16],
            side_in_mask: [0; 16],
            n_side_out: 0,
            side_out_ports: [0; 16],
            side_out_shift: [0; 16],
        };
        let (side_in_ptr, record_side) = match side {
            Some((ports, side_in)) => {
                ports.check()?;
                if !side_in.is_empty() && side_in.len() < out_ready.len() {
                    return Err(SimError::Value(format!(
                        "stream: {} side input words for {} cycles",
                        side_in.len(),
                        out_ready.len()
                    )));
                }
                spec.n_side_in = if side_in.is_empty() {
                    0
                } else {
                    ports.inputs.len() as u32
                };
                for (i, &(p, shift)) in ports.inputs.iter().enumerate() {
                    spec.side_in_ports[i] = p.index;
                    spec.side_in_shift[i] = shift;
                    spec.side_in_mask[i] = ((1u64 << p.width) - 1) as u32;
                }
                spec.n_side_out = ports.outputs.len() as u32;
                for (i, &(p, shift)) in ports.outputs.iter().enumerate() {
                    spec.side_out_ports[i] = p.index;
                    spec.side_out_shift[i] = shift;
                }
                (
                    if side_in.is_empty() {
                        std::ptr::null()
                    } else {
                        side_in.as_ptr()
                    },
                    !ports.outputs.is_empty(),
                )
            }
            None => (std::ptr::null(), false),
        };
        for (i, p) in input.data.iter().enumerate() {
            spec.in_ports[i] = p.index;
        }
        for (i, p) in output.data.iter().enumerate() {
            spec.out_ports[i] = p.index;
        }
        out.stride = 2 + output.data.iter().map(|p| p.words()).sum::<usize>();
        let max_cycles = out_ready.len();
        // A response needs at least one cycle, so max_cycles bounds the count.
        let resp_cap = max_cycles.max(1);
        // Capacity only: the shim writes the entries and set_len below exposes
        // exactly those (no zero-filling of buffers sized for the worst case).
        out.accept_cycle.clear();
        out.accept_cycle.reserve(n_items);
        out.responses.clear();
        out.responses.reserve(resp_cap * out.stride);
        out.flags.clear();
        if record_flags {
            out.flags.reserve(max_cycles);
        }
        out.side_out.clear();
        if record_side {
            out.side_out.reserve(max_cycles);
        }
        out.start_cycle = self.cycle();
        let mut res = RawStreamResult::default();
        // SAFETY: every buffer has the length the shim indexes: items (checked),
        // gaps (n_items), out_ready (max_cycles), accept_cycle (n_items),
        // responses (resp_cap records), flags (max_cycles or null), side_in
        // (max_cycles, checked, or null), side_out (max_cycles or null).
        unsafe {
            (self.lib.fns.stream)(
                self.raw,
                &spec,
                n_items as u64,
                items.as_ptr(),
                gaps.as_ptr(),
                max_cycles as u64,
                out_ready.as_ptr(),
                want_responses as u64,
                out.accept_cycle.as_mut_ptr(),
                out.responses.as_mut_ptr(),
                resp_cap as u64,
                if record_flags {
                    out.flags.as_mut_ptr()
                } else {
                    std::ptr::null_mut()
                },
                side_in_ptr,
                if record_side {
                    out.side_out.as_mut_ptr()
                } else {
                    std::ptr::null_mut()
                },
                &mut res,
            )
        };
        out.cycles = res.cycles;
        out.accepted = res.accepted as usize;
        out.n_responses = res.responses as usize;
        assert!(
            out.accepted <= n_items
                && out.n_responses <= resp_cap
                && res.cycles <= max_cycles as u64
        );
        // SAFETY: the shim wrote accept_cycle[..accepted], responses[..n_responses
        // records] and flags[..cycles], all within the reserved capacity (asserted).
        unsafe {
            out.accept_cycle.set_len(out.accepted);
            out.responses.set_len(out.n_responses * out.stride);
            if record_flags {
                out.flags.set_len(res.cycles as usize);
            }
            if record_side {
                out.side_out.set_len(res.cycles as usize);
            }
        }
        Ok(())
    }

    /// Starts writing a VCD of every signal; the model must be built with
    /// `ModelOptions { trace: true, .. }`.
    pub fn trace_open(&mut self, path: &Path) -> Result<(), SimError> {
        if !self.lib.traced {
            return Err(SimError::Value(
                "the model was built without --trace; build with ModelOptions { trace: true }"
                    .into(),
            ));
        }
        let c = CString::new(path.as_os_str().as_encoded_bytes()).map_err(|_| {
            SimError::Value(format!("trace path {} contains a NUL byte", path.display()))
        })?;
        // SAFETY: live model, NUL-terminated path.
        let rc = unsafe { (self.lib.fns.trace_open)(self.raw, c.as_ptr()) };
        match rc {
            0 => {
                self.tracing = true;
                Ok(())
            }
            -2 => Err(SimError::Value("a trace is already open".into())),
            _ => Err(SimError::Io(format!(
                "cannot open trace file {}",
                path.display()
            ))),
        }
    }

    /// Flushes and closes the trace (also done when the model is dropped).
    pub fn trace_close(&mut self) {
        if self.tracing {
            // SAFETY: live model.
            unsafe { (self.lib.fns.trace_close)(self.raw) };
            self.tracing = false;
        }
    }

    /// XORs `mask` into element `index` of the memory `var` (a one-dimensional array of
    /// elements of up to 32 bits, marked `/*verilator public_flat_rw*/`) of the one
    /// instance whose scope name ends with `scope`: a soft error injected between two
    /// cycles.
    pub fn mem_xor(
        &mut self,
        scope: &str,
        var: &str,
        index: u32,
        mask: u32,
    ) -> Result<(), SimError> {
        let cs = std::ffi::CString::new(scope).map_err(|e| SimError::Value(e.to_string()))?;
        let cv = std::ffi::CString::new(var).map_err(|e| SimError::Value(e.to_string()))?;
        // SAFETY: live model; the C strings outlive the call; the shim checks the index.
        let r = unsafe { (self.lib.fns.mem_xor)(self.raw, cs.as_ptr(), cv.as_ptr(), index, mask) };
        match r {
            0 => Ok(()),
            1 => Err(SimError::Value(format!(
                "no public memory `{var}` in a scope ending with `{scope}`"
            ))),
            2 => Err(SimError::Value(format!(
                "several scopes ending with `{scope}` hold `{var}`"
            ))),
            3 => Err(SimError::Value(format!(
                "`{scope}`.{var} is not an array of elements of up to 32 bits"
            ))),
            4 => Err(SimError::Value(format!(
                "`{scope}`.{var} has no element {index}"
            ))),
            _ => Err(SimError::Value(format!(
                "mask {mask:#x} is wider than `{scope}`.{var}'s elements"
            ))),
        }
    }

    /// The full names of the scopes (instances) that hold a public variable `var`.
    pub fn mem_scopes(&self, var: &str) -> Result<Vec<String>, SimError> {
        let cv = std::ffi::CString::new(var).map_err(|e| SimError::Value(e.to_string()))?;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            // SAFETY: live model; `buf` is writable for its length.
            let n = unsafe {
                (self.lib.fns.mem_scopes)(
                    self.raw,
                    cv.as_ptr(),
                    buf.as_mut_ptr() as *mut std::ffi::c_char,
                    buf.len() as u32,
                )
            } as usize;
            if n <= buf.len() {
                let text = String::from_utf8_lossy(&buf[..n]);
                return Ok(text.lines().map(str::to_string).collect());
            }
            buf.resize(n, 0);
        }
    }
}
