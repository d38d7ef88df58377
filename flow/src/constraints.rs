//! Constraint files. The files in `constraints/` (one per board) are what
//! nextpnr reads; they are rendered from the board table by
//! rust-hdl-fpga-support's `.pcf` / `.lpf` generators (applied to a rust-hdl
//! block whose signals are the board top's ports, carrying the pins as
//! location constraints), under a header naming board, part and package. A
//! test keeps the files equal to that rendering, so the table and the files
//! cannot disagree; `BLOOM_WRITE_CONSTRAINTS=1 cargo test -p flow constraint`
//! rewrites them after a table change.

use crate::board::{Board, Family};
use rust_hdl::prelude::*;
use rust_hdl_fpga_support::toolchains::{ecp5::generate_lpf, icestorm::generate_pcf};

/// The board top's ports, as rust-hdl signals (wide enough for every board).
#[derive(LogicBlock, Default)]
struct BoardPorts {
    clock: Signal<In, Clock>,
    reset_button: Signal<In, Bit>,
    led: Signal<Out, Bits<16>>,
    uart_rx: Signal<In, Bit>,
    uart_tx: Signal<Out, Bit>,
}

impl Logic for BoardPorts {
    fn update(&mut self) {}
}

fn custom<T: Synth>(s: &mut Signal<In, T>, text: String) {
    s.add_constraint(PinConstraint {
        index: 0,
        constraint: Constraint::Custom(text),
    });
}

fn ports(board: &Board) -> BoardPorts {
    let mut p = BoardPorts::default();
    let ecp5 = board.device.family == Family::Ecp5;
    p.clock.add_location(0, board.clock.site);
    if let Some(r) = board.reset_button {
        p.reset_button.add_location(0, r.site);
    }
    for (i, led) in board.leds.iter().enumerate() {
        p.led.add_location(i, led.site);
    }
    p.uart_rx.add_location(0, board.uart_rx.site);
    p.uart_tx.add_location(0, board.uart_tx.site);
    if ecp5 {
        p.clock.add_signal_type(0, SignalType::LowVoltageCMOS_3v3);
        p.clock.add_constraint(PinConstraint {
            index: 0,
            constraint: Constraint::Timing(Timing::Periodic(PeriodicTiming {
                net: "clock".into(),
                period_nanoseconds: 1000.0 / board.clock_mhz,
                duty_cycle: 50.0,
            })),
        });
        if let Some(r) = board.reset_button {
            p.reset_button
                .add_signal_type(0, SignalType::LowVoltageCMOS_3v3);
            let pull = if r.active_low { "UP" } else { "DOWN" };
            custom(
                &mut p.reset_button,
                format!("IOBUF PORT \"reset_button\" PULLMODE={pull}"),
            );
        }
        for i in 0..board.leds.len() {
            p.led.add_signal_type(i, SignalType::LowVoltageCMOS_3v3);
        }
        p.uart_rx.add_signal_type(0, SignalType::LowVoltageCMOS_3v3);
        p.uart_tx.add_signal_type(0, SignalType::LowVoltageCMOS_3v3);
    } else {
        custom(
            &mut p.clock,
            format!("set_frequency clock {}", board.clock_mhz),
        );
    }
    p
}

fn header(board: &Board) -> String {
    let active_low: Vec<String> = board
        .leds
        .iter()
        .enumerate()
        .filter(|(_, p)| p.active_low)
        .map(|(i, _)| format!("led[{i}]"))
        .collect();
    let mut h = vec![
        format!("Board:   {}", board.title),
        format!("Part:    {}", board.device.part),
        format!("Package: {}", board.package_title),
        format!("Clock:   {} MHz oscillator on {} (port `clock`)", board.clock_mhz, board.clock.site),
        match board.reset_button {
            Some(r) => format!(
                "Reset:   push button on {} (port `reset_button`, active {})",
                r.site,
                if r.active_low { "low" } else { "high" }
            ),
            None => "Reset:   none on this board (power-on reset only)".to_string(),
        },
        format!(
            "LEDs:    {} (port `led`){}",
            board.leds.len(),
            if active_low.is_empty() { String::new() } else { format!("; active low: {}", active_low.join(", ")) }
        ),
        format!(
            "UART:    FTDI, uart_rx on {} (FPGA input), uart_tx on {} (FPGA output)",
            board.uart_rx.site, board.uart_tx.site
        ),
        format!("Note:    {}", board.notes),
        "Generated from flow/src/board.rs by rust-hdl-fpga-support's generator; see flow/src/constraints.rs.".into(),
    ];
    h.iter_mut().for_each(|l| l.insert_str(0, "# "));
    h.join("\n") + "\n"
}

/// The board's constraint file as checked in (built into the binary, so the
/// flow does not depend on the working directory).
pub fn checked_in(board: &Board) -> &'static str {
    match board.constraint_file {
        "constraints/icebreaker.pcf" => include_str!("../../constraints/icebreaker.pcf"),
        "constraints/hx8k.pcf" => include_str!("../../constraints/hx8k.pcf"),
        "constraints/ulx3s-12f.lpf" => include_str!("../../constraints/ulx3s-12f.lpf"),
        "constraints/ulx3s-25f.lpf" => include_str!("../../constraints/ulx3s-25f.lpf"),
        "constraints/ulx3s-45f.lpf" => include_str!("../../constraints/ulx3s-45f.lpf"),
        "constraints/ulx3s-85f.lpf" => include_str!("../../constraints/ulx3s-85f.lpf"),
        other => {
            panic!("board table names constraint file {other}, which checked_in() does not embed")
        }
    }
}

/// The text of the board's constraint file.
pub fn render(board: &Board) -> String {
    let p = ports(board);
    let body = match board.device.family {
        Family::Ice40 => generate_pcf(&p),
        Family::Ecp5 => generate_lpf(&p),
    };
    header(board) + &body
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BOARDS, HX8K_BREAKOUT, ICEBREAKER, ULX3S_85F};
    use std::path::Path;

    fn repo_root() -> &'static Path {
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
    }

    #[test]
    fn constraint_files_match_board_table() {
        let write = std::env::var_os("BLOOM_WRITE_CONSTRAINTS").is_some();
        for b in BOARDS {
            let path = repo_root().join(b.constraint_file);
            let want = render(b);
            if write {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &want).unwrap();
            }
            let have = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!(
                    "{}: {e} (BLOOM_WRITE_CONSTRAINTS=1 writes it)",
                    path.display()
                )
            });
            assert_eq!(
                have,
                want,
                "{} differs from the board table",
                path.display()
            );
            assert_eq!(
                checked_in(b),
                want,
                "embedded copy of {} is stale",
                path.display()
            );
        }
    }

    #[test]
    fn icebreaker_pcf_pins() {
        let t = render(&ICEBREAKER);
        for line in [
            "set_io clock 35",
            "set_io reset_button 10",
            "set_io led[0] 11",
            "set_io led[1] 37",
            "set_io led[6] 21",
            "set_io uart_rx 6",
            "set_io uart_tx 9",
            "set_frequency clock 12",
        ] {
            assert!(t.lines().any(|l| l == line), "missing `{line}` in\n{t}");
        }
        assert!(t.contains("# Part:    iCE40UP5K") && t.contains("# Package: SG48"));
    }

    #[test]
    fn hx8k_pcf_has_no_button() {
        let t = render(&HX8K_BREAKOUT);
        assert!(!t.contains("set_io reset_button"));
        assert!(t.lines().any(|l| l == "set_io clock J3"));
        assert!(t.lines().any(|l| l == "set_io led[7] B5"));
    }

    #[test]
    fn ulx3s_lpf_pins() {
        let t = render(&ULX3S_85F);
        for line in [
            "LOCATE COMP \"clock\" SITE \"G2\";",
            "FREQUENCY PORT \"clock\" 25 MHz;",
            "LOCATE COMP \"reset_button\" SITE \"D6\";",
            "IOBUF PORT \"reset_button\" PULLMODE=UP;",
            "LOCATE COMP \"led[7]\" SITE \"H3\";",
            "LOCATE COMP \"uart_rx\" SITE \"M1\";",
            "LOCATE COMP \"uart_tx\" SITE \"L4\";",
        ] {
            assert!(t.lines().any(|l| l == line), "missing `{line}` in\n{t}");
        }
        assert!(t.contains("# Part:    LFE5U-85F") && t.contains("# Package: CABGA381"));
    }
}
