//! docs/core.md's parameter and port tables are generated from their
//! declarations (params/src/lib.rs, hdl/src/ports.rs): this test fails when
//! the page differs, and rewrites it with `BLOOM_UPDATE_SNAPSHOTS=1`.

use hdl::doc_page::DocPage;
use std::path::PathBuf;

#[test]
fn parameter_and_port_tables_match_their_declarations() {
    let mut doc = DocPage::open(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/core.md"),
        "docs/core.md",
        "cargo test -p hdl --test core_doc",
    );
    let declarations = "the declarations";
    doc.section("params", &bloom_params::markdown_table(), declarations);
    doc.section("ports", &hdl::ports::markdown_table(), declarations);
    let lanes = hdl::lanes::lanes_ports(&hdl::CoreParams::default(), 4);
    doc.section(
        "lanes-ports",
        &hdl::ports::markdown_table_of(&lanes),
        declarations,
    );
    let axis = hdl::axi::lanes::lanes_axis_ports(&hdl::CoreParams::default(), 4);
    doc.section(
        "lanes-axis-ports",
        &hdl::ports::markdown_table_of(&axis),
        declarations,
    );
    doc.finish();
}

#[test]
fn timing_table_states_the_timing_values() {
    let doc =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/core.md"))
            .unwrap();
    // The main table is H3's (and CRC's); Feistel's and SPN's differ by the cycles below.
    let t = hdl::Timing::of(&hdl::CoreParams {
        hash: hdl::HashFamily::H3,
        ..hdl::CoreParams::default()
    });
    for (name, value) in [
        ("latency", t.latency),
        ("readback_latency", t.readback_latency),
        ("response_fifo_depth", t.response_fifo_depth),
        ("fill_latency", t.fill_latency),
        ("clear_fill_latency", t.clear_fill_latency),
        ("commit_latency", t.commit_latency),
        ("recount_fill_latency", t.recount_fill_latency),
    ] {
        assert!(
            doc.contains(&format!("| `{name}` | {value} |")),
            "docs/core.md does not give {name} = {value}"
        );
    }
    assert_eq!(t.clear_cycles, (1 << 12) + 3);
    assert!(doc.contains("| `clear_cycles` | 2^b + 3 |"));
    assert_eq!(t.reset_busy_cycles, (1 << 12) + 7);
    assert!(doc.contains("| `reset_busy_cycles` | 2^b + 7 |"));
    // The Feistel family's table: its figures, and the others' beside them.
    let feistel = hdl::CoreParams::default();
    assert_eq!(feistel.hash, hdl::HashFamily::Feistel, "the default family");
    let f = hdl::Timing::of(&feistel);
    for (name, value, other) in [
        ("latency", f.latency, t.latency),
        (
            "response_fifo_depth",
            f.response_fifo_depth,
            t.response_fifo_depth,
        ),
        ("readback_latency", f.readback_latency, t.readback_latency),
        ("fill_latency", f.fill_latency, t.fill_latency),
        (
            "clear_fill_latency",
            f.clear_fill_latency,
            t.clear_fill_latency,
        ),
        ("commit_latency", f.commit_latency, t.commit_latency),
    ] {
        assert!(
            doc.contains(&format!("| `{name}` | {value} | {other} |")),
            "docs/core.md does not give {name} = {value} (feistel), {other} (the others)"
        );
    }
    assert_eq!(f.clear_cycles, (1 << 12) + 5);
    assert!(doc.contains("| `clear_cycles` | 2^b + 5 | 2^b + 3 |"));
    assert_eq!(
        (
            f.reset_busy_cycles,
            f.recount_fill_latency,
            f.scrub_end_latency
        ),
        (
            t.reset_busy_cycles,
            t.recount_fill_latency,
            t.scrub_end_latency
        )
    );
    let counting = hdl::Timing::of(&feistel.with_counter_bits(4).unwrap());
    assert_eq!(
        (
            counting.commit_latency,
            counting.fill_latency,
            counting.clear_fill_latency
        ),
        (9, 10, 9)
    );
    assert!(doc.contains("(`commit_latency` 9, `fill_latency` 10, `clear_fill_latency` 9)"));
}
