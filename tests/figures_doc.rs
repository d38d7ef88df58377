//! The current figures are written once, in docs/figures.json (one entry per figure:
//! what, command, figure, date, tools), and shown by README.md, docs/core.md and
//! docs/axi.md between `<!-- figures:begin -->` and `<!-- figures:end -->`. This test
//! fails when a page's table differs from the file, and rewrites the tables with
//! `BLOOM_UPDATE_SNAPSHOTS=1 cargo test --test figures_doc`. It also holds every entry
//! to what the table promises: a date, known tools, a subject with its section in
//! docs/history.md (where the measurements a newer one replaced are kept), and a
//! command that exists: every option of a `bloom` command is in that command's
//! `--help`, every bench, example, test or script named is in the tree. And it keeps
//! the README what it is: under 12 KB, its table of commands that of `bloom --help`.

use hdl::doc_page::DocPage;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod common;

/// The subjects a page shows; None: every figure.
const PAGES: [(&str, Option<&[&str]>); 3] = [
    ("README.md", None),
    ("docs/core.md", Some(&["Core and counting core", "Lanes"])),
    ("docs/axi.md", Some(&["bloom_axis"])),
];

const FIELDS: [&str; 6] = ["subject", "what", "command", "figure", "date", "tools"];

struct Figure {
    subject: String,
    what: String,
    command: String,
    figure: String,
    date: String,
    tools: Vec<String>,
}

struct Figures {
    tools: BTreeMap<String, String>,
    figures: Vec<Figure>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn text_field(entry: &serde_json::Map<String, serde_json::Value>, name: &str, at: &str) -> String {
    let text = entry[name]
        .as_str()
        .unwrap_or_else(|| panic!("{at}: `{name}` is not a string"))
        .trim();
    assert!(!text.is_empty(), "{at}: `{name}` is empty");
    text.to_string()
}

/// docs/figures.json, every entry with exactly the fields of [`FIELDS`].
fn load() -> Figures {
    let path = root().join("docs/figures.json");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
        .unwrap_or_else(|e| {
            panic!("docs/figures.json is not JSON: {e}");
        });
    let tools: BTreeMap<String, String> = json["tools"]
        .as_object()
        .expect("docs/figures.json has a `tools` object")
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_str().expect("a tool set is a string").to_string(),
            )
        })
        .collect();
    let figures = json["figures"]
        .as_array()
        .expect("docs/figures.json has a `figures` array")
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let entry = entry
                .as_object()
                .unwrap_or_else(|| panic!("figure {i} is not an object"));
            let at = format!("docs/figures.json, figure {i}");
            let mut names: Vec<&str> = entry.keys().map(String::as_str).collect();
            names.sort_unstable();
            let mut expected = FIELDS;
            expected.sort_unstable();
            assert_eq!(names, expected, "{at}: the fields of an entry");
            let tools: Vec<String> = entry["tools"]
                .as_array()
                .unwrap_or_else(|| panic!("{at}: `tools` is not a list"))
                .iter()
                .map(|t| t.as_str().expect("a tool set's name").to_string())
                .collect();
            Figure {
                subject: text_field(entry, "subject", &at),
                what: text_field(entry, "what", &at),
                command: text_field(entry, "command", &at),
                figure: text_field(entry, "figure", &at),
                date: text_field(entry, "date", &at),
                tools,
            }
        })
        .collect();
    Figures { tools, figures }
}

/// A table cell: `|` escaped, as GitHub's tables need it (inside code spans too).
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The table of `figures`, then the tool sets they name.
fn table(all: &Figures, subjects: Option<&[&str]>) -> String {
    let shown: Vec<&Figure> = all
        .figures
        .iter()
        .filter(|f| subjects.is_none_or(|s| s.contains(&f.subject.as_str())))
        .collect();
    let mut t = String::from("| what | figure | command | measured |\n|---|---|---|---|\n");
    let mut used: Vec<&str> = Vec::new();
    for f in &shown {
        // The README (every subject) names each row's date; its tools are in the legend.
        let measured = if subjects.is_some() {
            format!("{}, {}", f.date, f.tools.join(", "))
        } else {
            f.date.clone()
        };
        t += &format!(
            "| {} | {} | `{}` | {} |\n",
            cell(&f.what),
            cell(&f.figure),
            cell(&f.command),
            measured
        );
        for tool in &f.tools {
            if !used.contains(&tool.as_str()) {
                used.push(tool);
            }
        }
    }
    used.sort_by_key(|name| name.to_lowercase());
    let legend: Vec<String> = used
        .iter()
        .map(|name| format!("{name}: {}", all.tools[*name]))
        .collect();
    t += &format!("\nTools: {}.\n", legend.join("; "));
    t
}

#[test]
fn pages_show_the_figures_of_the_data_file() {
    let figures = load();
    for (page, subjects) in PAGES {
        let mut doc = DocPage::open(&root().join(page), page, "cargo test --test figures_doc");
        doc.section("figures", &table(&figures, subjects), "docs/figures.json");
        doc.finish();
    }
}

/// `YYYY-MM-DD` with a month and day that exist.
fn is_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let number = |s: &str, len: usize| {
        (s.len() == len && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<u32>().unwrap())
    };
    match parts[..] {
        [y, m, d] => matches!(
            (number(y, 4), number(m, 2), number(d, 2)),
            (Some(_), Some(1..=12), Some(1..=31))
        ),
        _ => false,
    }
}

#[test]
fn every_figure_has_a_date_known_tools_and_a_history() {
    let figures = load();
    let history = std::fs::read_to_string(root().join("docs/history.md")).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for f in &figures.figures {
        assert!(
            seen.insert((&f.subject, &f.what)),
            "`{}` is in docs/figures.json twice: one entry per figure, the latest",
            f.what
        );
        assert!(
            is_date(&f.date),
            "`{}`: date {:?} is not YYYY-MM-DD",
            f.what,
            f.date
        );
        assert!(!f.tools.is_empty(), "`{}`: no tools named", f.what);
        for tool in &f.tools {
            assert!(
                figures.tools.contains_key(tool),
                "`{}`: tool set {tool:?} is not in docs/figures.json's `tools`",
                f.what
            );
        }
        assert!(
            history.lines().any(|l| l == format!("## {}", f.subject)),
            "`{}`: docs/history.md has no section `## {}` for its earlier measurements",
            f.what,
            f.subject
        );
    }
}

/// The option names (`--name`) of a command line.
fn options(words: &[&str]) -> Vec<String> {
    words
        .iter()
        .filter(|w| w.starts_with("--"))
        .map(|w| w.split('=').next().unwrap().to_string())
        .collect()
}

/// `cargo KIND -p CRATE --FLAG NAME`: CRATE/DIR/NAME.rs exists.
fn check_cargo_target(command: &str, words: &[&str], flag: &str, dir: &str) {
    let value_of = |name: &str| {
        let at = words.iter().position(|w| *w == name);
        at.and_then(|i| words.get(i + 1))
            .unwrap_or_else(|| panic!("`{command}` has no {name} NAME"))
            .to_string()
    };
    // Without -p: the root package.
    let krate = if words.contains(&"-p") {
        value_of("-p")
    } else {
        ".".to_string()
    };
    let file = root()
        .join(&krate)
        .join(dir)
        .join(format!("{}.rs", value_of(flag)));
    assert!(
        file.is_file(),
        "`{command}`: {} does not exist",
        file.display()
    );
}

/// Every option of `bloom SUBCOMMAND ...` appears in that subcommand's help.
fn check_bloom_command(command: &str, words: &[&str]) {
    let path: Vec<&str> = words[1..]
        .iter()
        .take_while(|w| !w.starts_with('-'))
        .copied()
        .take(2)
        .collect();
    // `bloom image build`: a second word is a subcommand only if `bloom image` has it.
    let mut sub = vec![path[0]];
    let top = common::bloom(&[path[0], "--help"]);
    assert!(
        top.status.success(),
        "`{command}`: `bloom {}` is not a command",
        path[0]
    );
    if let Some(second) = path.get(1) {
        let help = common::stdout(&top);
        if help.contains("Commands:") && help.lines().any(|l| l.trim_start().starts_with(second)) {
            sub.push(second);
        }
    }
    let mut args = sub.clone();
    args.push("--help");
    let o = common::bloom(&args);
    assert!(
        o.status.success(),
        "`{command}`: `bloom {}` is not a command",
        sub.join(" ")
    );
    let help = common::stdout(&o);
    for option in options(words) {
        assert!(
            help.contains(&format!("{option} ")) || help.contains(&format!("{option}\n")),
            "`{command}`: `bloom {}` has no option {option}",
            sub.join(" ")
        );
    }
}

#[test]
fn every_command_exists() {
    for f in load().figures {
        let command = f.command.as_str();
        let words: Vec<&str> = command.split_whitespace().collect();
        match words[..] {
            ["bloom", _, ..] => check_bloom_command(command, &words),
            ["cargo", "bench", ..] => check_cargo_target(command, &words, "--bench", "benches"),
            ["cargo", "test", ..] => check_cargo_target(command, &words, "--test", "tests"),
            ["cargo", "run", ..] => check_cargo_target(command, &words, "--example", "examples"),
            [script, ..] if script.starts_with("scripts/") => {
                let file = root().join(script);
                assert!(file.is_file(), "`{command}`: {script} does not exist");
            }
            // A Python script of the tree, run with the project's environment.
            [".venv/bin/python", script, ..] => {
                let file = root().join(script);
                assert!(file.is_file(), "`{command}`: {script} does not exist");
            }
            _ => panic!(
                "`{command}` ({}): a figure's command is a `bloom` command, a cargo bench, test \
                 or example of this workspace, a script in scripts/ or a Python script of the \
                 tree run with .venv/bin/python",
                f.what
            ),
        }
    }
    assert!(Path::new(env!("CARGO_BIN_EXE_bloom")).is_file());
}

/// The README is the project in brief: what it is, the two commands, the
/// architecture, the commands and the current figures. Detail goes to docs/.
#[test]
fn readme_stays_under_12_kb() {
    let bytes = std::fs::metadata(root().join("README.md")).unwrap().len();
    assert!(
        bytes < 12 * 1024,
        "README.md is {bytes} bytes: keep it under 12 KB (detail belongs in docs/, \
         earlier measurements in docs/history.md)"
    );
}

/// README.md's table of commands has a row for every subcommand of `bloom --help`
/// and for no other.
#[test]
fn readme_lists_every_command() {
    let help = common::stdout(&common::ok(common::bloom(&["--help"])));
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    assert!(
        commands.len() > 5,
        "`bloom --help` lists its commands:\n{help}"
    );
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let rows: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| `bloom "))
        .filter_map(|rest| rest.split('`').next())
        .collect();
    assert_eq!(
        rows, commands,
        "README.md's table of commands, against `bloom --help`"
    );
}
