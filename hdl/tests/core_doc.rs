//! docs/core.md's parameter and port tables are generated from their
//! declarations (params/src/lib.rs, hdl/src/ports.rs): this test fails when
//! the page differs, and rewrites it with `BLOOM_UPDATE_SNAPSHOTS=1`.

use std::path::PathBuf;

/// Replaces (or checks) the text between `<!-- NAME:begin -->` and `<!-- NAME:end -->`.
fn section(doc: &mut String, name: &str, table: &str, update: bool) {
    let range =
        hdl::ports::generated_section(doc, "docs/core.md", name).unwrap_or_else(|e| panic!("{e}"));
    if update {
        doc.replace_range(range, table);
    } else {
        assert_eq!(
            &doc[range],
            table,
            "docs/core.md's {name} table differs from the declarations; regenerate with BLOOM_UPDATE_SNAPSHOTS=1 cargo test -p hdl --test core_doc"
        );
    }
}

#[test]
fn parameter_and_port_tables_match_their_declarations() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/core.md");
    let mut doc = std::fs::read_to_string(&path).unwrap();
    let update = std::env::var("BLOOM_UPDATE_SNAPSHOTS").as_deref() == Ok("1");
    section(&mut doc, "params", &bloom_params::markdown_table(), update);
    section(&mut doc, "ports", &hdl::ports::markdown_table(), update);
    let lanes = hdl::lanes::lanes_ports(&hdl::CoreParams::default(), 4);
    section(
        &mut doc,
        "lanes-ports",
        &hdl::ports::markdown_table_of(&lanes),
        update,
    );
    let axis = hdl::axi::lanes::lanes_axis_ports(&hdl::CoreParams::default(), 4);
    section(
        &mut doc,
        "lanes-axis-ports",
        &hdl::ports::markdown_table_of(&axis),
        update,
    );
    if update {
        std::fs::write(&path, doc).unwrap();
    }
}

#[test]
fn timing_table_states_the_timing_values() {
    let doc =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/core.md"))
            .unwrap();
    let t = hdl::Timing::of(&hdl::CoreParams::default());
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
}
