//! Discovers the ports of a Verilog module by reading its declaration.
//!
//! Verilator is told nothing about the ports by the caller, so the shim that
//! exposes them to Rust is generated from this list. Both port styles are read:
//! ANSI headers (`module m(input [3:0] a, output b);`) and the classic style
//! that rust-hdl prints (`module m(a,b); input wire [3:0] a; output reg b;`).
//! Ranges must be integer literals (`[msb:lsb]`, either order); parameters in
//! ranges are refused with a message rather than guessed.

use crate::SimError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
    Inout,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub direction: Direction,
    pub width: u32,
}

impl Port {
    /// Number of 32-bit words a value of this port occupies.
    pub fn words(&self) -> usize {
        self.width.div_ceil(32) as usize
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Number(String),
    Sym(char),
}

fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while i < b.len() {
        if in_string {
            out.push(b[i] as char);
            if b[i] == b'\\' && i + 1 < b.len() {
                out.push(b[i + 1] as char);
                i += 2;
                continue;
            }
            if b[i] == b'"' {
                in_string = false;
            }
            i += 1;
        } else if b[i] == b'"' {
            in_string = true;
            out.push('"');
            i += 1;
        } else if b[i] == b'/' && i + 1 < b.len() && b[i + 1] == b'/' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && i + 1 < b.len() && b[i + 1] == b'*' {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
            out.push(' ');
        } else if b[i] == b'(' && i + 1 < b.len() && b[i + 1] == b'*' {
            // Attribute instance `(* ... *)`; `(*)` in `@(*)` is not one.
            if i + 2 < b.len() && b[i + 2] == b')' {
                out.push('(');
                i += 1;
                continue;
            }
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b')') {
                i += 1;
            }
            i += 2;
            out.push(' ');
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn tokenize(text: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' || c == '\\' || c == '$' {
            let start = i;
            if c == '\\' {
                // Escaped identifier: runs to the next whitespace.
                while i < chars.len() && !chars[i].is_whitespace() {
                    i += 1;
                }
            } else {
                while i < chars.len()
                    && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '$')
                {
                    i += 1;
                }
            }
            toks.push(Tok::Ident(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() || c == '\'' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '\'')
            {
                i += 1;
            }
            toks.push(Tok::Number(chars[start..i].iter().collect()));
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            toks.push(Tok::Sym('"'));
        } else {
            toks.push(Tok::Sym(c));
            i += 1;
        }
    }
    toks
}

fn direction_of(t: &Tok) -> Option<Direction> {
    match t {
        Tok::Ident(s) if s == "input" => Some(Direction::Input),
        Tok::Ident(s) if s == "output" => Some(Direction::Output),
        Tok::Ident(s) if s == "inout" => Some(Direction::Inout),
        _ => None,
    }
}

const NET_WORDS: &[&str] = &[
    "wire", "reg", "logic", "signed", "unsigned", "tri", "var", "bit", "integer", "supply0",
    "supply1", "wand", "wor",
];

fn parse_int(s: &str) -> Option<i64> {
    let s = s.replace('_', "");
    if let Some(pos) = s.find('\'') {
        let (_, rest) = s.split_at(pos + 1);
        let rest = rest.trim_start_matches(['s', 'S']);
        let (radix, digits) = match rest.chars().next()? {
            'd' | 'D' => (10, &rest[1..]),
            'h' | 'H' => (16, &rest[1..]),
            'b' | 'B' => (2, &rest[1..]),
            'o' | 'O' => (8, &rest[1..]),
            _ => return None,
        };
        i64::from_str_radix(digits, radix).ok()
    } else {
        s.parse().ok()
    }
}

/// Parses one declaration starting after its direction keyword: optional net
/// words, an optional range, then names separated by commas. Stops before `;`,
/// `)` or the next direction keyword. Returns (width, names, next index).
fn parse_decl(
    toks: &[Tok],
    mut i: usize,
    module: &str,
) -> Result<(u32, Vec<String>, usize), SimError> {
    while let Some(Tok::Ident(s)) = toks.get(i) {
        if NET_WORDS.contains(&s.as_str()) {
            if s == "integer" {
                return Err(SimError::Ports(format!(
                    "module `{module}`: `integer` ports are not supported"
                )));
            }
            i += 1;
        } else {
            break;
        }
    }
    let mut width = 1u32;
    if toks.get(i) == Some(&Tok::Sym('[')) {
        let msb = match toks.get(i + 1) {
            Some(Tok::Number(n)) => parse_int(n),
            _ => None,
        };
        let lsb = match toks.get(i + 3) {
            Some(Tok::Number(n)) => parse_int(n),
            _ => None,
        };
        match (msb, toks.get(i + 2), lsb, toks.get(i + 4)) {
            (Some(m), Some(Tok::Sym(':')), Some(l), Some(Tok::Sym(']'))) => {
                width = (m - l).unsigned_abs() as u32 + 1;
                i += 5;
            }
            _ => {
                return Err(SimError::Ports(format!(
                    "module `{module}`: a port range is not of the form [integer:integer] (near token {:?})",
                    toks.get(i + 1)
                )))
            }
        }
    }
    let mut names = Vec::new();
    loop {
        match toks.get(i) {
            Some(Tok::Ident(name)) if direction_of(&toks[i]).is_none() => {
                names.push(name.clone());
                i += 1;
                if toks.get(i) == Some(&Tok::Sym('[')) {
                    return Err(SimError::Ports(format!(
                        "module `{module}`: port `{name}` is an unpacked array, which is not supported"
                    )));
                }
                if toks.get(i) == Some(&Tok::Sym('=')) {
                    // `output reg x = 0`: skip the initialiser.
                    while let Some(t) = toks.get(i) {
                        if matches!(t, Tok::Sym(',') | Tok::Sym(';') | Tok::Sym(')')) {
                            break;
                        }
                        i += 1;
                    }
                }
                if toks.get(i) == Some(&Tok::Sym(','))
                    && matches!(toks.get(i + 1), Some(Tok::Ident(_)))
                {
                    if direction_of(&toks[i + 1]).is_some() {
                        i += 1;
                        break;
                    }
                    i += 1;
                    continue;
                }
                break;
            }
            _ => break,
        }
    }
    if names.is_empty() {
        return Err(SimError::Ports(format!(
            "module `{module}`: a port declaration names no port"
        )));
    }
    Ok((width, names, i))
}

/// The ports of module `top` in `verilog`, in the order of its header.
pub fn parse_ports(verilog: &str, top: &str) -> Result<Vec<Port>, SimError> {
    let toks = tokenize(&strip_comments(verilog));
    let mut start = None;
    for i in 0..toks.len() {
        if let (Tok::Ident(kw), Some(Tok::Ident(name))) = (&toks[i], toks.get(i + 1)) {
            if (kw == "module" || kw == "macromodule") && name == top {
                start = Some(i + 2);
                break;
            }
        }
    }
    let mut i =
        start.ok_or_else(|| SimError::Ports(format!("no `module {top}` in the Verilog text")))?;
    if toks.get(i) == Some(&Tok::Sym('#')) {
        // Parameter port list: skip the balanced parentheses.
        i += 1;
        let mut depth = 0;
        while i < toks.len() {
            match toks[i] {
                Tok::Sym('(') => depth += 1,
                Tok::Sym(')') => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    let mut ports: Vec<Port> = Vec::new();
    let mut header_names: Vec<String> = Vec::new();
    if toks.get(i) == Some(&Tok::Sym('(')) {
        i += 1;
        let ansi = toks.get(i).and_then(direction_of).is_some();
        if ansi {
            while let Some(dir) = toks.get(i).and_then(direction_of) {
                let (width, names, next) = parse_decl(&toks, i + 1, top)?;
                for name in names {
                    ports.push(Port {
                        name,
                        direction: dir,
                        width,
                    });
                }
                i = next;
                if toks.get(i) == Some(&Tok::Sym(')')) {
                    break;
                }
            }
            if toks.get(i) != Some(&Tok::Sym(')')) {
                return Err(SimError::Ports(format!(
                    "module `{top}`: cannot read its ANSI port list"
                )));
            }
            return Ok(ports);
        }
        loop {
            match toks.get(i) {
                Some(Tok::Ident(n)) => {
                    header_names.push(n.clone());
                    i += 1;
                }
                Some(Tok::Sym(',')) => i += 1,
                Some(Tok::Sym(')')) => {
                    i += 1;
                    break;
                }
                other => {
                    return Err(SimError::Ports(format!(
                        "module `{top}`: unexpected {other:?} in its port list"
                    )))
                }
            }
        }
    }
    // Classic style: declarations in the body, outside functions and tasks.
    let mut declared: Vec<Port> = Vec::new();
    let mut nesting = 0usize;
    let mut at_statement_start = true;
    while i < toks.len() {
        match &toks[i] {
            Tok::Ident(s) if s == "endmodule" => break,
            Tok::Ident(s) if s == "function" || s == "task" => {
                nesting += 1;
                i += 1;
            }
            Tok::Ident(s) if s == "endfunction" || s == "endtask" => {
                nesting = nesting.saturating_sub(1);
                i += 1;
                at_statement_start = true;
            }
            t if nesting == 0 && at_statement_start && direction_of(t).is_some() => {
                let dir = direction_of(t).unwrap();
                let (width, names, next) = parse_decl(&toks, i + 1, top)?;
                for name in names {
                    declared.push(Port {
                        name,
                        direction: dir,
                        width,
                    });
                }
                i = next;
            }
            Tok::Sym(';') => {
                at_statement_start = true;
                i += 1;
            }
            _ => {
                at_statement_start = false;
                i += 1;
            }
        }
    }
    for name in header_names {
        let p = declared.iter().find(|p| p.name == name).ok_or_else(|| {
            SimError::Ports(format!(
                "module `{top}`: port `{name}` has no input/output declaration"
            ))
        })?;
        ports.push(p.clone());
    }
    Ok(ports)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_style_as_rust_hdl_prints_it() {
        let v = "\n\nmodule top(clock,a,b);\n// Module arguments\ninput wire  clock;\ninput wire  [99:0] a;\noutput reg  [7:0] b;\n\
                 function [3:0] f; input [3:0] x; f = x; endfunction\nendmodule\nmodule other(q); input q; endmodule";
        let p = parse_ports(v, "top").unwrap();
        assert_eq!(
            p,
            vec![
                Port {
                    name: "clock".into(),
                    direction: Direction::Input,
                    width: 1
                },
                Port {
                    name: "a".into(),
                    direction: Direction::Input,
                    width: 100
                },
                Port {
                    name: "b".into(),
                    direction: Direction::Output,
                    width: 8
                },
            ]
        );
        assert_eq!(p[1].words(), 4);
    }

    #[test]
    fn ansi_style_with_comments_and_parameters() {
        let v = "module m #(parameter N = 4) (input clock, /* c */ input [3:0] x, y, // z\n output reg [0:15] q, output w);\nendmodule";
        let p = parse_ports(v, "m").unwrap();
        let got: Vec<(&str, Direction, u32)> = p
            .iter()
            .map(|p| (p.name.as_str(), p.direction, p.width))
            .collect();
        assert_eq!(
            got,
            vec![
                ("clock", Direction::Input, 1),
                ("x", Direction::Input, 4),
                ("y", Direction::Input, 4),
                ("q", Direction::Output, 16),
                ("w", Direction::Output, 1)
            ]
        );
    }

    #[test]
    fn missing_module_and_parameterised_range_are_errors() {
        assert!(parse_ports("module a(); endmodule", "b")
            .unwrap_err()
            .to_string()
            .contains("no `module b`"));
        let e = parse_ports("module a(input [N-1:0] x); endmodule", "a")
            .unwrap_err()
            .to_string();
        assert!(e.contains("[integer:integer]"), "{e}");
        let e = parse_ports("module a(x, y); input x; endmodule", "a")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`y`"), "{e}");
    }
}
