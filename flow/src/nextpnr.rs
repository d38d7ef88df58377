//! Reading nextpnr's results: the routed maximum frequency per clock, the
//! utilisation, the critical path, and the reasons a run failed.
//!
//! nextpnr prints "Max frequency for clock 'NET': F MHz (PASS|FAIL at C MHz)"
//! twice: once as an estimate after placement and once after routing. Only
//! the lines after "Routing complete" are the routed figures.

use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClockTiming {
    pub net: String,
    pub fmax_mhz: f64,
    pub constraint_mhz: f64,
}

impl ClockTiming {
    pub fn met(&self) -> bool {
        self.fmax_mhz >= self.constraint_mhz
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Use {
    pub used: u32,
    pub available: u32,
}

fn parse_max_frequency(line: &str) -> Option<ClockTiming> {
    let rest = line.split("Max frequency for clock '").nth(1)?;
    let (net, rest) = rest.split_once("': ")?;
    let (fmax, rest) = rest.split_once(" MHz")?;
    let constraint = rest.split(" at ").nth(1)?.split(" MHz").next()?;
    Some(ClockTiming {
        net: net.to_string(),
        fmax_mhz: fmax.trim().parse().ok()?,
        constraint_mhz: constraint.trim().parse().ok()?,
    })
}

/// The routed figures: "Max frequency" lines after the last "Routing complete".
/// Empty when routing never completed.
pub fn routed_fmax(log: &str) -> Vec<ClockTiming> {
    let Some(pos) = log.rfind("Routing complete") else {
        return Vec::new();
    };
    let mut clocks: Vec<ClockTiming> = Vec::new();
    for t in log[pos..].lines().filter_map(parse_max_frequency) {
        match clocks.iter_mut().find(|c| c.net == t.net) {
            Some(c) => *c = t,
            None => clocks.push(t),
        }
    }
    clocks
}

/// Utilisation from nextpnr's `--report` JSON.
pub fn utilisation(report: &serde_json::Value) -> BTreeMap<String, Use> {
    let mut out = BTreeMap::new();
    if let Some(u) = report.get("utilization").and_then(|u| u.as_object()) {
        for (bel, v) in u {
            let used = v.get("used").and_then(|x| x.as_u64()).unwrap_or(0) as u32;
            let available = v.get("available").and_then(|x| x.as_u64()).unwrap_or(0) as u32;
            out.insert(bel.clone(), Use { used, available });
        }
    }
    out
}

/// Routed Fmax per clock from nextpnr's `--report` JSON (written after routing).
pub fn report_fmax(report: &serde_json::Value) -> Vec<ClockTiming> {
    let mut out = Vec::new();
    if let Some(f) = report.get("fmax").and_then(|f| f.as_object()) {
        for (net, v) in f {
            if let (Some(a), Some(c)) = (
                v.get("achieved").and_then(|x| x.as_f64()),
                v.get("constraint").and_then(|x| x.as_f64()),
            ) {
                out.push(ClockTiming {
                    net: net.clone(),
                    fmax_mhz: a,
                    constraint_mhz: c,
                });
            }
        }
    }
    out
}

/// The last (routed) critical path report for a clock domain, as nextpnr printed it.
pub fn critical_path(log: &str) -> Option<String> {
    let start = log.rfind("Critical path report for clock")?;
    let mut out = Vec::new();
    for (i, line) in log[start..].lines().enumerate() {
        if i > 0 && (line.trim().is_empty() || line.contains("Critical path report")) {
            break;
        }
        out.push(line.trim_start_matches("Info: ").to_string());
    }
    Some(out.join("\n"))
}

/// A routed critical path in brief: where it starts and ends, how many cells it
/// passes through, and how its delay divides between the cells and the routes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PathSummary {
    /// The start and the end cell as nextpnr names them, cut before the first
    /// cell-type suffix and without the pin (`core.parts$2.addr3.d_SB_LUT4_O_11_LC.O`
    /// is `core.parts$2.addr3.d`): the net or register the cell was packed for.
    pub from: String,
    pub to: String,
    /// Cells between the start and the end (LUT levels, and carry steps if any).
    pub levels: usize,
    pub logic_ns: f64,
    pub routing_ns: f64,
}

/// The summary of a critical path report (the text [`critical_path`] returns),
/// iCE40's or ECP5's; None if it has no start, end or total.
pub fn summarise_path(report: &str) -> Option<PathSummary> {
    let lines: Vec<&str> = report.lines().map(str::trim).collect();
    let is_setup = |l: &str| l.starts_with("setup") || l.contains(" Setup ");
    let cell_after = |l: &str, word: &str| {
        l.split_once(word)
            .map(|(_, rest)| rest.split_whitespace().next().unwrap_or("").to_string())
    };
    let sources: Vec<String> = lines
        .iter()
        .filter(|l| !is_setup(l))
        .filter_map(|l| cell_after(l, " Source "))
        .collect();
    let end = lines.iter().rev().find(|l| is_setup(l)).and_then(|l| {
        cell_after(
            l,
            if l.starts_with("setup") {
                " Source "
            } else {
                " Setup "
            },
        )
    })?;
    let totals = lines.iter().rev().find(|l| l.ends_with(" ns routing"))?;
    let (logic, routing) = totals
        .strip_suffix(" ns routing")?
        .split_once(" ns logic, ")?;
    Some(PathSummary {
        from: cell_name(sources.first()?),
        to: cell_name(&end),
        levels: sources.len() - 1,
        logic_ns: logic.trim().parse().ok()?,
        routing_ns: routing.trim().parse().ok()?,
    })
}

/// A cell's name without the cell-type suffixes Yosys and nextpnr append and
/// without the pin.
fn cell_name(cell: &str) -> String {
    let base = ["_SB_", "_TRELLIS_", "_DFFLC", "_LC."]
        .iter()
        .filter_map(|suffix| cell.find(suffix))
        .min()
        .map(|i| &cell[..i])
        .unwrap_or_else(|| match cell.rsplit_once('.') {
            Some((name, pin))
                if !pin.is_empty()
                    && pin
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) =>
            {
                name
            }
            _ => cell,
        });
    base.to_string()
}

/// The log's lines that explain why the design does not fit the part, if that is why it failed.
pub fn overflow(log: &str) -> Option<String> {
    let lines: Vec<&str> = log
        .lines()
        .filter(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("more than available")
                || l.contains("no bels remaining")
                || l.contains("couldn't be placed")
                || l.contains("failed to place")
                || l.contains("unable to place")
                || l.contains("not enough")
                || (l.contains('%') && l.contains('/') && overfull(&l))
        })
        .map(|l| l.trim_start_matches("ERROR: ").trim())
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// A utilisation line "BEL: used/ available pct%" with used > available.
fn overfull(line: &str) -> bool {
    let Some((_, counts)) = line.rsplit_once(':') else {
        return false;
    };
    let mut parts = counts.split('/');
    let used = parts.next().and_then(|u| u.trim().parse::<u64>().ok());
    let avail = parts
        .next()
        .and_then(|a| a.split_whitespace().next())
        .and_then(|a| a.parse::<u64>().ok());
    matches!((used, avail), (Some(u), Some(a)) if u > a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summarise_path_of_ice40_and_ecp5_reports() {
        let ice40 = "Critical path report for clock 'clock$SB_IO_IN_$glb_clk' (posedge -> posedge):
curr total
 0.5  0.5  Source core.parts$2.ram.read_raw_SB_LUT4_O_LC.O
 1.3  1.9    Net core.parts$2.r_step.value[3] budget 0.729000 ns (6,22) -> (6,18)
               Sink core.parts$2.term_or$b_SB_LUT4_O_LC.I0
               Defined in:
                 /usr/bin/../share/yosys/ice40/cells_map.v:6.21-6.22
 0.4  2.3  Source core.parts$2.term_or$b_SB_LUT4_O_LC.O
 0.6  2.9    Net core.parts$2.ram_high_term5 budget 1.065000 ns (6,18) -> (6,17)
               Sink core.parts$2.term_or.y_SB_LUT4_O_LC.I2
 0.4  3.3  Source core.parts$2.term_or.y_SB_LUT4_O_LC.O
 2.7  6.0    Net core.terms5[2] budget 1.064000 ns (6,17) -> (12,4)
               Sink core.parts$1.present.all_set.d_SB_LUT4_O_LC.I1
 0.4  6.4  Setup core.parts$1.present.all_set.d_SB_LUT4_O_LC.I1
1.8 ns logic, 4.6 ns routing";
        assert_eq!(
            summarise_path(ice40),
            Some(PathSummary {
                from: "core.parts$2.ram.read_raw".into(),
                to: "core.parts$1.present.all_set.d".into(),
                levels: 2,
                logic_ns: 1.8,
                routing_ns: 4.6,
            })
        );
        let ecp5 =
            "Critical path report for clock '$glbnet$clock$TRELLIS_IO_IN' (posedge -> posedge):
      type curr  total name
  clk-to-q  5.83  5.83 Source core.parts$3.ram.mem.0.0.DOB0
   routing  1.07  6.90 Net core.parts$3.ram.read_raw (6,22) -> (6,14)
                         Sink core.parts$3.ram.read_data_TRELLIS_FF_Q.M
     setup  0.00  6.90 Source core.parts$3.ram.read_data_TRELLIS_FF_Q.M
5.83 ns logic, 1.07 ns routing";
        assert_eq!(
            summarise_path(ecp5),
            Some(PathSummary {
                from: "core.parts$3.ram.mem.0.0".into(),
                to: "core.parts$3.ram.read_data".into(),
                levels: 0,
                logic_ns: 5.83,
                routing_ns: 1.07,
            })
        );
        assert_eq!(
            summarise_path("Critical path report for clock 'c' (posedge -> posedge):\ncurr total"),
            None
        );
        assert_eq!(
            cell_name("reset_count_SB_DFFE_Q_E_SB_LUT4_O_I3_SB_DFF_D_DFFLC.O"),
            "reset_count"
        );
    }

    const LOG: &str = "\
Info: Max frequency for clock 'clk': 88.85 MHz (PASS at 48.00 MHz)
Info: Routing..
Info: Routing complete.
Info: Critical path report for clock 'clk' (posedge -> posedge):
Info: curr total
Info:  2.1  2.1  Source mem.0.0_RAM.RDATA_0
Info: 3.9 ns logic, 3.5 ns routing

Info: Max frequency for clock 'clk': 89.36 MHz (PASS at 48.00 MHz)
Warning: Max frequency for clock '$glbnet$clk2': 40.10 MHz (FAIL at 50.00 MHz)
";

    #[test]
    fn routed_figure_not_placement_estimate() {
        let c = routed_fmax(LOG);
        assert_eq!(c.len(), 2);
        assert_eq!(
            c[0],
            ClockTiming {
                net: "clk".into(),
                fmax_mhz: 89.36,
                constraint_mhz: 48.0
            }
        );
        assert!(c[0].met());
        assert!(!c[1].met());
        assert_eq!(c[1].net, "$glbnet$clk2");
    }

    #[test]
    fn unrouted_log_has_no_fmax() {
        assert!(routed_fmax(
            "Info: Max frequency for clock 'clk': 88.85 MHz (PASS at 48.00 MHz)\n"
        )
        .is_empty());
    }

    #[test]
    fn critical_path_block() {
        let p = critical_path(LOG).unwrap();
        assert!(p.starts_with("Critical path report for clock 'clk'"));
        assert!(p.contains("RDATA_0") && p.ends_with("3.5 ns routing"));
    }

    #[test]
    fn overflow_lines() {
        let log = "Info: \t ICESTORM_RAM:    64/   30   213%\nInfo: \t ICESTORM_LC:  100/ 5280  1%\nERROR: Unable to place cell 'x', no BELs remaining to implement cell type 'ICESTORM_RAM'\n";
        let o = overflow(log).unwrap();
        assert!(
            o.contains("64/   30") && o.contains("no BELs remaining"),
            "{o}"
        );
        assert!(!o.contains("ICESTORM_LC"));
        assert!(overflow("Info: \t ICESTORM_LC:  100/ 5280  1%\n").is_none());
    }
}
