//! `bloom_axis`, the AXI wrapper: it passes the same Verilator lint as the
//! core (`-Wall`, only hdl::verilog::lint::VERILATOR_WAIVERS) at the default
//! configuration and the ends of the parameter ranges, its Verilog ports are
//! its port table (declared once, hdl/src/axi/interface.rs), and it holds the
//! core through an instance generated from the core's port table.

use hdl::axi::{axi_ports, generate_axi, AXI_TOP};
use hdl::HashFamily::{self, Crc, Feistel, H3};
use hdl::{CoreConfig, CoreParams};

fn generated(k: u32, bank_bits: u32, key_bits: u32, hash: HashFamily) -> hdl::axi::GeneratedAxi {
    generate_axi(&CoreConfig::from(
        CoreParams::new(k, bank_bits, key_bits, hash, 0x5eed).unwrap(),
    ))
    .unwrap()
}

fn lint(k: u32, bank_bits: u32, key_bits: u32, hash: HashFamily) {
    let g = generated(k, bank_bits, key_bits, hash);
    if let Err(report) = hdl::verilog::lint::verilator_lint(&g.full_verilog(), &g.top) {
        panic!("k={k} b={bank_bits} W={key_bits} {hash}: {report}");
    }
}

#[test]
fn lint_h3_k4_b12_w64() {
    lint(4, 12, 64, H3);
}

#[test]
fn lint_feistel_k4_b12_w64_default() {
    lint(4, 12, 64, Feistel);
}

#[test]
fn lint_crc_k1_b6_w32() {
    lint(1, 6, 32, Crc);
}

#[test]
fn lint_h3_k16_b16_w128() {
    lint(16, 16, 128, H3);
}

/// A counting core behind the wrapper: its counter ports bound to BIT_COUNT,
/// BIT_DATA.counter and SATURATED.
#[test]
fn lint_counting_h3_k4_b12_w64_c4_and_crc_k2_b6_w32_c8() {
    for (k, b, w, hash, c) in [(4, 12, 64, H3, 4), (2, 6, 32, Crc, 8)] {
        let params = CoreParams {
            counter_bits: c,
            ..CoreParams::new(k, b, w, hash, 0x5eed).unwrap()
        };
        let g = generate_axi(&CoreConfig::from(params)).unwrap();
        if let Err(report) = hdl::verilog::lint::verilator_lint(&g.full_verilog(), &g.top) {
            panic!("k={k} b={b} W={w} {hash} c={c}: {report}");
        }
        for port in ["counter_wdata", "counter_rdata", "counter_saturated"] {
            assert!(
                g.verilog.contains(&format!(".{port}(")),
                "the counting core's `{port}` is connected"
            );
        }
        let config = hdl::axi::fixed_words(&params)[2].1;
        assert_eq!(hdl::axi::regmap::CONFIG_COUNTER_BITS.get(config), c);
    }
}

/// `(name, width)` of every port in a module's declarations.
fn verilog_ports(verilog: &str, module: &str) -> Vec<(String, u32)> {
    let start = verilog
        .find(&format!("module {module}("))
        .unwrap_or_else(|| panic!("no module {module}"));
    let body = &verilog[start..verilog[start..].find("endmodule").unwrap() + start];
    body.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("input ") || l.starts_with("output "))
        .map(|l| {
            let name = l
                .trim_end_matches(';')
                .split_whitespace()
                .last()
                .unwrap()
                .to_string();
            let width = match (l.find('['), l.find(':')) {
                (Some(a), Some(b)) => l[a + 1..b].parse::<u32>().unwrap() + 1,
                _ => 1,
            };
            (name, width)
        })
        .collect()
}

#[test]
fn verilog_ports_are_the_port_table_for_every_key_width() {
    for key_bits in [32, 64, 128] {
        let g = generated(2, 8, key_bits, H3);
        let table: Vec<(String, u32)> = axi_ports(&g.core.config.params)
            .into_iter()
            .map(|p| (p.name, p.width))
            .collect();
        assert_eq!(verilog_ports(&g.verilog, AXI_TOP), table, "W={key_bits}");
        assert!(table.contains(&("s_axis_tdata".to_string(), key_bits)));
    }
}

#[test]
fn the_core_is_instantiated_from_its_port_table() {
    let g = generated(3, 7, 64, Crc);
    for p in hdl::ports::core_ports(&g.core.config.params) {
        assert!(
            g.verilog.contains(&format!(".{}(", p.name)),
            "bloom_axis does not connect the core's `{}`",
            p.name
        );
    }
    assert!(g.verilog.contains(&format!("{} core_inst (", g.core.top)));
    // The wrapper's own file holds no core module: bloom_core.v is supplied beside it.
    assert!(!g.verilog.contains("module bloom_core"));
    assert!(g.full_verilog().contains("module bloom_core("));
}

#[test]
fn register_constants_come_from_the_map() {
    let g = generated(5, 9, 32, Crc);
    let words = hdl::axi::fixed_words(&g.core.config.params);
    for (reg, word) in words {
        assert!(
            g.verilog.contains(&format!("32'h{word:x};")),
            "{} = {word:#x} is not in the Verilog",
            reg.name
        );
    }
    let config = words[2].1;
    use hdl::axi::regmap as map;
    assert_eq!(map::CONFIG_K.get(config), 5);
    assert_eq!(map::CONFIG_BANK_BITS.get(config), 9);
    assert_eq!(map::CONFIG_KEY_BITS.get(config), 32);
    assert_eq!(map::CONFIG_HASH.get(config), 1, "crc is code 1 of hash_e");
    assert_eq!(
        map::CONFIG_COUNTER_BITS.get(config),
        1,
        "a plain core: 1-bit counters"
    );
}

/// A core with the scrub (and a period) behind the wrapper: lint-clean, its scrub
/// ports bound (COMMAND.scrub, STATUS.scrub_busy, SCRUB_MISMATCH), and CONFIG.scrub and
/// SCRUB_EVERY in the Verilog; without the scrub both read 0.
#[test]
fn lint_scrub_crc_k3_b6_w32_every_1000() {
    use hdl::axi::regmap as map;
    let cfg = CoreConfig {
        scrub: true,
        scrub_every: Some(1000),
        ..CoreConfig::from(CoreParams::new(3, 6, 32, Crc, 0x5eed).unwrap())
    };
    let g = generate_axi(&cfg).unwrap();
    if let Err(report) = hdl::verilog::lint::verilator_lint(&g.full_verilog(), &g.top) {
        panic!("{}: {report}", cfg.label());
    }
    for port in ["scrub_req", "scrub_busy", "scrub_mismatch"] {
        assert!(
            g.verilog.contains(&format!(".{port}(core$")),
            "the core's `{port}` is bound to the wrapper"
        );
    }
    let words = hdl::axi::fixed_words_of(&cfg);
    for (reg, word) in words {
        assert!(
            g.verilog.contains(&format!("32'h{word:x};")),
            "{} = {word:#x} is not in the Verilog",
            reg.name
        );
    }
    assert_eq!(map::CONFIG_SCRUB.get(words[2].1), 1);
    assert_eq!((words[6].0, words[6].1), (map::SCRUB_EVERY, 1000));
    let plain = hdl::axi::fixed_words_of(&cfg.params.into());
    assert_eq!(map::CONFIG_SCRUB.get(plain[2].1), 0);
    assert_eq!(plain[6].1, 0);
}
