//! Options shared by several subcommands, each parsed and validated once, at
//! the command line, into the typed value the libraries take:
//!
//! - [`CoreArgs`]: the filter's parameters, one option per entry of the
//!   shared table `bloom_params::PARAMS` (flag, help, allowed values and
//!   default all come from there) into a validated [`hdl::CoreParams`];
//! - [`board_parser`] and [`device_parser`]: board and device names from the
//!   flow's tables, with their names as the possible values.

use bloom_params::{Allowed, CoreParams, Param, PARAMS};
use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Arg, ArgMatches, Command, Error, FromArgMatches};

/// The core's parameters (`--k`, `--bank-bits`, `--key-bits`, `--hash`, `--seed`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreArgs {
    pub params: CoreParams,
}

/// Parses one parameter's text with its table entry, so that a bad value is
/// refused by the command line itself with the parameter's own message.
#[derive(Clone, Copy)]
struct ParamParser(&'static Param);

impl TypedValueParser for ParamParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &Command,
        arg: Option<&Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, Error> {
        let text = value
            .to_str()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidUtf8).with_cmd(cmd))?;
        match self.0.parse(text) {
            Ok(_) => Ok(text.to_string()),
            Err(e) => {
                let flag = arg.and_then(|a| a.get_long()).unwrap_or(self.0.flag);
                Err(cmd.clone().error(
                    clap::error::ErrorKind::ValueValidation,
                    format!("--{flag} {text}: {e}"),
                ))
            }
        }
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        match self.0.allowed {
            Allowed::Names(names) => Some(Box::new(names.iter().map(|n| PossibleValue::new(*n)))),
            _ => None,
        }
    }
}

impl clap::Args for CoreArgs {
    fn augment_args(mut cmd: Command) -> Command {
        for p in PARAMS {
            let mut help = match p.allowed {
                Allowed::Names(_) => p.help.to_string(),
                allowed => format!("{}: {allowed}", p.help),
            };
            let mut arg = Arg::new(p.name)
                .long(p.flag)
                .value_name(&*Box::leak(p.flag.to_uppercase().into_boxed_str()))
                .value_parser(ParamParser(p));
            // A default that depends on another option is chosen by
            // CoreParams::from_lookup, and said in the help.
            if p.default_note.is_empty() {
                arg = arg.default_value(p.default);
            } else {
                help = format!("{help} [default: {}]", p.default_text());
            }
            cmd = cmd.arg(arg.help(help));
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for CoreArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, Error> {
        let params = CoreParams::from_lookup(|p| matches.get_one::<String>(p.name).cloned())
            .map_err(|e| Error::raw(clap::error::ErrorKind::ValueValidation, e))?;
        Ok(CoreArgs { params })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl CoreArgs {
    /// The options as they would be typed (`--k 4 --bank-bits 12 ...`), for
    /// the commands a report suggests.
    pub fn command_line(params: &CoreParams) -> String {
        PARAMS
            .iter()
            .filter(|p| !p.omitted(params.get(p)))
            .map(|p| format!("--{} {}", p.flag, params.get(p)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A name from one of the flow's tables (boards, devices): looked up by the
/// table's own function, the table's names offered as the possible values.
pub struct TableParser<T: 'static> {
    lookup: fn(&str) -> Result<&'static T, flow::FlowError>,
    names: fn() -> Vec<PossibleValue>,
}

// By hand: derived, they would ask `T: Clone` of the table's entries.
impl<T> Clone for TableParser<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for TableParser<T> {}

/// A board name from the flow's board table (`ulx3s` is the 85F).
pub fn board_parser() -> TableParser<flow::board::Board> {
    TableParser {
        lookup: flow::board::board,
        names: || {
            let mut names: Vec<PossibleValue> = flow::board::BOARDS
                .iter()
                .map(|b| PossibleValue::new(b.name).help(b.title))
                .collect();
            names.push(PossibleValue::new("ulx3s").help("= ulx3s-85f"));
            names
        },
    }
}

/// A device name from the flow's device table.
pub fn device_parser() -> TableParser<flow::board::Device> {
    TableParser {
        lookup: flow::board::device,
        names: || {
            flow::board::DEVICES
                .iter()
                .map(|d| PossibleValue::new(d.name).help(d.part))
                .collect()
        },
    }
}

impl<T: Send + Sync + 'static> TypedValueParser for TableParser<T> {
    type Value = &'static T;

    fn parse_ref(
        &self,
        cmd: &Command,
        _arg: Option<&Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, Error> {
        let text = value.to_string_lossy();
        (self.lookup)(&text).map_err(|e| {
            cmd.clone()
                .error(clap::error::ErrorKind::InvalidValue, e.to_string())
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.names)().into_iter()))
    }
}

/// The scrub options of a generated core (docs/contract.md §5.2), for the commands that
/// build a board top: `bloom build`, `bloom host --sim`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ScrubArgs {
    /// Build the scrub into the core (docs/contract.md section 5.2): a host requests it with
    /// `bloom host scrub`, which recounts every bank while the core serves and reports a bank
    /// whose count differs from its fill counter (a bit changed without an operation).
    #[arg(long)]
    pub scrub: bool,
    /// With --scrub: the core also scrubs itself every N clock cycles after a reset
    /// (docs/contract.md section 5.2, "Periodic"): 2..=16777216.
    #[arg(long, requires = "scrub", value_parser = clap::value_parser!(u32).range(2..=hdl::MAX_SCRUB_EVERY as i64))]
    pub scrub_every: Option<u32>,
}

impl ScrubArgs {
    /// `config` with these scrub options.
    pub fn apply(&self, config: hdl::CoreConfig) -> hdl::CoreConfig {
        hdl::CoreConfig {
            scrub: self.scrub,
            scrub_every: self.scrub_every,
            ..config
        }
    }
}
