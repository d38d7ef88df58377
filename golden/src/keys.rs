//! Keys as text (contract §2.1): one key's spelling, and key files read as a
//! stream in chunks of whole lines, with bounded memory and no allocation per
//! line. Every command that reads keys goes through this module.

use std::io::Read;

use thiserror::Error;

/// Longest line a key file may have, in bytes, not counting its LF.
pub const MAX_KEY_LINE_BYTES: usize = 1024;

/// Bytes read from the input at a time; a chunk holds whole lines only.
pub const CHUNK_BYTES: usize = 1 << 20;

/// Why a key file cannot be read.
#[derive(Debug, Error)]
pub enum KeyFileError {
    #[error("{name}: {error}")]
    Io { name: String, error: std::io::Error },
    #[error("{name}:{line}: {message}")]
    Line {
        name: String,
        line: u64,
        message: String,
    },
}

impl KeyFileError {
    /// The line an error is on (`u64::MAX` for I/O errors, which come last).
    pub fn line(&self) -> u64 {
        match self {
            KeyFileError::Io { .. } => u64::MAX,
            KeyFileError::Line { line, .. } => *line,
        }
    }
}

/// The largest key of `key_bits` bits.
fn max_key(key_bits: u32) -> u128 {
    if key_bits >= 128 {
        u128::MAX
    } else {
        (1u128 << key_bits) - 1
    }
}

/// How a key's text is shown in a message: quoted, escaped, at most 80 characters.
fn shown(text: &[u8]) -> String {
    let cut = &text[..text.len().min(80)];
    let mut s = format!("{:?}", String::from_utf8_lossy(cut));
    if cut.len() < text.len() {
        s.push_str("...");
    }
    s
}

/// Parses one key written as contract §2.1 says (no blanks, no comment) and
/// checks that it fits in `key_bits` bits. The error says what is wrong.
pub fn parse_key(text: &[u8], key_bits: u32) -> Result<u128, String> {
    if let Some(message) = bad_byte(text, false) {
        return Err(message);
    }
    let key = parse_digits(text)?;
    if key > max_key(key_bits) {
        return Err(format!(
            "key {} does not fit in {key_bits} bits (largest key: {:#x})",
            shown(text),
            max_key(key_bits)
        ));
    }
    Ok(key)
}

/// [`parse_key`] of a command-line argument.
pub fn parse_key_arg(text: &str, key_bits: u32) -> Result<u128, String> {
    parse_key(text.as_bytes(), key_bits)
}

/// The first byte the contract does not allow in a key file, described; the
/// byte-order mark is allowed only at the very start of the file, which the
/// reader skips before lines are looked at.
fn bad_byte(line: &[u8], allow_tab_cr: bool) -> Option<String> {
    let column = line
        .iter()
        .position(|&b| b >= 0x7F || (b < 0x20 && !(allow_tab_cr && (b == b'\t' || b == b'\r'))))?;
    let b = line[column];
    let what = if b < 0x80 {
        format!("control character 0x{b:02X}")
    } else {
        let rest = &line[column..line.len().min(column + 4)];
        let decoded = match std::str::from_utf8(rest) {
            Ok(s) => s.chars().next(),
            Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()])
                .ok()
                .and_then(|s| s.chars().next()),
        };
        match decoded {
            Some('\u{feff}') => {
                "a byte-order mark (U+FEFF), allowed only at the very start of the file".to_string()
            }
            Some(c) => format!("non-ASCII character {c:?} (U+{:04X})", c as u32),
            None => format!("byte 0x{b:02X} (not ASCII)"),
        }
    };
    Some(format!(
        "{what} at column {}; key files are ASCII text",
        column + 1
    ))
}

/// Decimal or 0x-hex digits with `_` between two digits, nothing else.
fn parse_digits(text: &[u8]) -> Result<u128, String> {
    let (digits, radix) = match text {
        [] => return Err("empty key".to_string()),
        [b'+' | b'-', ..] => {
            return Err(format!(
                "key {} has a sign; keys are unsigned integers, decimal or 0x-hex",
                shown(text)
            ))
        }
        [b'0', b'x' | b'X', rest @ ..] => (rest, 16u32),
        _ => (text, 10u32),
    };
    if digits.is_empty() {
        return Err(format!("key {} has no hex digits after 0x", shown(text)));
    }
    let mut value: u128 = 0;
    // Up to 16 hex or 19 decimal digits fit a u64; wider keys go on in u128.
    let mut narrow: u64 = 0;
    let narrow_limit = if radix == 16 { 16 } else { 19 };
    let mut count = 0usize;
    let mut previous_was_digit = false;
    for (i, &c) in digits.iter().enumerate() {
        let digit = match c {
            b'0'..=b'9' => (c - b'0') as u32,
            b'a'..=b'f' if radix == 16 => (c - b'a' + 10) as u32,
            b'A'..=b'F' if radix == 16 => (c - b'A' + 10) as u32,
            b'_' => {
                let next_is_digit = digits
                    .get(i + 1)
                    .is_some_and(|&n| (n as char).is_digit(radix));
                if !previous_was_digit || !next_is_digit {
                    return Err(format!(
                        "key {}: an underscore may only separate two digits",
                        shown(text)
                    ));
                }
                previous_was_digit = false;
                continue;
            }
            b' ' | b'\t' => {
                return Err(format!(
                    "{} holds more than one key; a key file has one key per line",
                    shown(text)
                ))
            }
            _ => {
                let expected = if radix == 16 {
                    "hex digits"
                } else {
                    "decimal digits (or 0x and hex digits)"
                };
                return Err(format!(
                    "unexpected character {:?} in key {}; a key is {expected}",
                    c as char,
                    shown(text)
                ));
            }
        };
        previous_was_digit = true;
        if count < narrow_limit {
            narrow = narrow * radix as u64 + digit as u64;
            if count + 1 == narrow_limit {
                value = narrow as u128;
            }
        } else {
            value = value
                .checked_mul(radix as u128)
                .and_then(|v| v.checked_add(digit as u128))
                .ok_or_else(|| format!("key {} does not fit in 128 bits", shown(text)))?;
        }
        count += 1;
    }
    Ok(if count < narrow_limit {
        narrow as u128
    } else {
        value
    })
}

/// Strips the spaces, tabs and CRs a key line (and an image's bank line,
/// contract §4.3) may have at either end.
pub(crate) fn trim_blanks(mut line: &[u8]) -> &[u8] {
    while let [b' ' | b'\t' | b'\r', rest @ ..] = line {
        line = rest;
    }
    while let [rest @ .., b' ' | b'\t' | b'\r'] = line {
        line = rest;
    }
    line
}

/// Parses every line of `chunk` (whole lines; the last one may lack its LF),
/// the first of which is line `first_line` of the file called `name`, and
/// hands each key to `each`. Returns the number of keys.
///
/// Lines that are nothing but a key of at most 64 bits in plain digits
/// (`123`, `0x7b`, LF or CRLF ended), by far the common case, are parsed in
/// one pass; any other line goes through the full line parser,
/// which checks every rule and says what is wrong.
pub fn parse_lines(
    chunk: &[u8],
    first_line: u64,
    key_bits: u32,
    name: &str,
    mut each: impl FnMut(u128),
) -> Result<u64, KeyFileError> {
    parse_lines_with_text(chunk, first_line, key_bits, name, |key, _, _| each(key))
}

/// [`parse_lines`], handing each key's text (as written, without blanks or
/// comment) and line number along with it.
pub fn parse_lines_with_text(
    chunk: &[u8],
    first_line: u64,
    key_bits: u32,
    name: &str,
    mut each: impl FnMut(u128, &[u8], u64),
) -> Result<u64, KeyFileError> {
    let max = max_key(key_bits);
    let mut keys = 0u64;
    let mut line_number = first_line;
    let mut pos = 0usize;
    while pos < chunk.len() {
        if let Some((key, used, next)) = plain_key(chunk, pos) {
            if key <= max {
                each(key, &chunk[pos..pos + used], line_number);
                keys += 1;
                line_number += 1;
                pos = next;
                continue;
            }
        }
        let end = chunk[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(chunk.len(), |i| pos + i);
        let parsed =
            parse_line(&chunk[pos..end], key_bits, max).map_err(|message| KeyFileError::Line {
                name: name.to_string(),
                line: line_number,
                message,
            })?;
        if let Some((key, text)) = parsed {
            each(key, text, line_number);
            keys += 1;
        }
        line_number += 1;
        pos = end + 1;
    }
    Ok(keys)
}

/// The value of each hex digit byte; 0xFF for every other byte.
static HEX_DIGIT: [u8; 256] = {
    let mut table = [0xFFu8; 256];
    let mut c = 0;
    while c < 10 {
        table[b'0' as usize + c] = c as u8;
        c += 1;
    }
    let mut c = 0;
    while c < 6 {
        table[b'a' as usize + c] = 10 + c as u8;
        table[b'A' as usize + c] = 10 + c as u8;
        c += 1;
    }
    table
};

/// A line at `pos` that is only decimal digits (at most 20) or `0x`/`0X` and at
/// most 16 hex digits, then LF, CRLF or the end of the chunk: its key and where
/// the next line starts. `None` for anything else (then [`parse_line`] decides).
#[inline]
fn plain_key(chunk: &[u8], pos: usize) -> Option<(u128, usize, usize)> {
    let line = &chunk[pos..];
    let (value, used) = if line.len() > 2 && line[0] == b'0' && (line[1] | 0x20) == b'x' {
        let mut v = 0u64;
        let mut i = 2;
        while i < line.len() && i < 18 {
            // A table, not a match: random hex digits mispredict a branch per digit.
            let d = HEX_DIGIT[line[i] as usize];
            if d > 15 {
                break;
            }
            v = (v << 4) | d as u64;
            i += 1;
        }
        if i == 2 {
            return None;
        }
        (v as u128, i)
    } else {
        let mut v = 0u64;
        let mut i = 0;
        while i < line.len() && i < 19 && line[i].is_ascii_digit() {
            v = v * 10 + (line[i] - b'0') as u64;
            i += 1;
        }
        if i == 0 {
            return None;
        }
        let mut wide = v as u128;
        if i == 19 && i < line.len() && line[i].is_ascii_digit() {
            wide = wide * 10 + (line[i] - b'0') as u128;
            i += 1;
        }
        (wide, i)
    };
    match &line[used..] {
        [] => Some((value, used, pos + used)),
        [b'\n', ..] => Some((value, used, pos + used + 1)),
        [b'\r', b'\n', ..] => Some((value, used, pos + used + 2)),
        _ => None,
    }
}

/// One line (without its LF), every rule of contract §2.1 checked: its key and
/// the key's text, `None` for a blank or comment line, or what is wrong.
fn parse_line(raw: &[u8], key_bits: u32, max: u128) -> Result<Option<(u128, &[u8])>, String> {
    if raw.len() > MAX_KEY_LINE_BYTES {
        return Err(format!(
            "line is {} bytes long; a key file's lines are at most {MAX_KEY_LINE_BYTES} bytes",
            raw.len()
        ));
    }
    if let Some(message) = bad_byte(raw, true) {
        return Err(message);
    }
    let without_comment = match raw.iter().position(|&b| b == b'#') {
        Some(hash) => &raw[..hash],
        None => raw,
    };
    let text = trim_blanks(without_comment);
    if text.is_empty() {
        return Ok(None);
    }
    let key = parse_digits(text)?;
    if key > max {
        return Err(format!(
            "key {} does not fit in {key_bits} bits (largest key: {max:#x})",
            shown(text)
        ));
    }
    Ok(Some((key, text)))
}

/// A piece of a key file: whole lines, the first being line `first_line`.
#[derive(Debug, Default)]
pub struct Chunk {
    pub data: Vec<u8>,
    pub first_line: u64,
}

/// Splits a stream into [`Chunk`]s of whole lines, reading [`CHUNK_BYTES`] at a
/// time; memory stays bounded whatever the input (a line longer than
/// [`MAX_KEY_LINE_BYTES`] is an error as soon as it is seen). A UTF-8
/// byte-order mark at the very start is skipped.
pub struct LineChunks<R> {
    input: R,
    name: String,
    /// Bytes read but not yet handed out: the start of an unfinished line.
    carry: Vec<u8>,
    next_line: u64,
    bytes_read: u64,
    at_start: bool,
    done: bool,
}

impl<R: Read> LineChunks<R> {
    pub fn new(input: R, name: impl Into<String>) -> Self {
        LineChunks {
            input,
            name: name.into(),
            carry: Vec::new(),
            next_line: 1,
            bytes_read: 0,
            at_start: true,
            done: false,
        }
    }

    /// Bytes read from the input so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Lines handed out so far.
    pub fn lines(&self) -> u64 {
        self.next_line - 1
    }

    /// The next chunk, filled into `buffer` (whose allocation is reused), or
    /// `None` at the end of the input.
    pub fn next_chunk(&mut self, mut buffer: Vec<u8>) -> Result<Option<Chunk>, KeyFileError> {
        if self.done {
            return Ok(None);
        }
        buffer.clear();
        buffer.extend_from_slice(&self.carry);
        self.carry.clear();
        loop {
            let room = CHUNK_BYTES.saturating_sub(buffer.len()) as u64;
            let n = (&mut self.input)
                .take(room)
                .read_to_end(&mut buffer)
                .map_err(|error| KeyFileError::Io {
                    name: self.name.clone(),
                    error,
                })?;
            self.bytes_read += n as u64;
            if n == 0 {
                // End of input: what is left is the last line (maybe without LF).
                self.done = true;
                if self.at_start && buffer.starts_with(&[0xEF, 0xBB, 0xBF]) {
                    buffer.drain(..3);
                }
                self.at_start = false;
                if buffer.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(self.hand_out(buffer)));
            }
            match buffer.iter().rposition(|&b| b == b'\n') {
                Some(last) if buffer.len() >= CHUNK_BYTES || last + 1 == buffer.len() => {
                    self.carry.extend_from_slice(&buffer[last + 1..]);
                    buffer.truncate(last + 1);
                    if self.carry.len() > MAX_KEY_LINE_BYTES {
                        let line = self.next_line + count_newlines(&buffer);
                        return Err(self.too_long(line));
                    }
                    return Ok(Some(self.hand_out(buffer)));
                }
                Some(_) => continue,
                None => {
                    if buffer.len() > MAX_KEY_LINE_BYTES {
                        return Err(self.too_long(self.next_line));
                    }
                    continue;
                }
            }
        }
    }

    fn hand_out(&mut self, mut data: Vec<u8>) -> Chunk {
        if self.at_start && data.starts_with(&[0xEF, 0xBB, 0xBF]) {
            data.drain(..3);
        }
        self.at_start = false;
        let first_line = self.next_line;
        self.next_line += count_newlines(&data);
        if !data.ends_with(b"\n") {
            self.next_line += 1;
        }
        Chunk { data, first_line }
    }

    fn too_long(&mut self, line: u64) -> KeyFileError {
        self.done = true;
        KeyFileError::Line {
            name: self.name.clone(),
            line,
            message: format!(
                "line is longer than {MAX_KEY_LINE_BYTES} bytes (no line end within the first {} bytes); a key file holds one key per line",
                MAX_KEY_LINE_BYTES + 1
            ),
        }
    }
}

fn count_newlines(data: &[u8]) -> u64 {
    data.iter().filter(|&&b| b == b'\n').count() as u64
}

/// Reads every key of a key file, in order, handing each to `each`; the
/// first bad line stops the reading with its error. Returns the number of keys.
pub fn read_keys<R: Read>(
    input: R,
    name: &str,
    key_bits: u32,
    mut each: impl FnMut(u128),
) -> Result<u64, KeyFileError> {
    let mut chunks = LineChunks::new(input, name);
    let mut buffer = Vec::with_capacity(CHUNK_BYTES);
    let mut keys = 0;
    while let Some(chunk) = chunks.next_chunk(buffer)? {
        keys += parse_lines(&chunk.data, chunk.first_line, key_bits, name, &mut each)?;
        buffer = chunk.data;
    }
    Ok(keys)
}

/// [`read_keys`], handing each key's text and line number along with it.
pub fn read_keys_with_text<R: Read>(
    input: R,
    name: &str,
    key_bits: u32,
    mut each: impl FnMut(u128, &[u8], u64),
) -> Result<u64, KeyFileError> {
    let mut chunks = LineChunks::new(input, name);
    let mut buffer = Vec::with_capacity(CHUNK_BYTES);
    let mut keys = 0;
    while let Some(chunk) = chunks.next_chunk(buffer)? {
        keys += parse_lines_with_text(&chunk.data, chunk.first_line, key_bits, name, &mut each)?;
        buffer = chunk.data;
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys_of(text: &[u8], key_bits: u32) -> Result<Vec<u128>, String> {
        let mut keys = Vec::new();
        read_keys(text, "keys.txt", key_bits, |k| keys.push(k)).map_err(|e| e.to_string())?;
        Ok(keys)
    }

    #[test]
    fn every_accepted_spelling() {
        let text = b"\xEF\xBB\xBF1\n0x1F\n0XaBc\n 42 \t\r\n# comment\n\n7 # trailing comment\n1_000_000\n0xDEAD_BEEF\n007\n340282366920938463463374607431768211455\n0xffffffffffffffffffffffffffffffff";
        assert_eq!(
            keys_of(text, 128).unwrap(),
            vec![
                1,
                0x1F,
                0xABC,
                42,
                7,
                1_000_000,
                0xDEAD_BEEF,
                7,
                u128::MAX,
                u128::MAX
            ]
        );
        assert_eq!(keys_of(b"", 64).unwrap(), Vec::<u128>::new());
        assert_eq!(keys_of(b"\xEF\xBB\xBF", 64).unwrap(), Vec::<u128>::new());
        assert_eq!(
            keys_of(b"18446744073709551615\n", 64).unwrap(),
            vec![u64::MAX as u128]
        );
        assert_eq!(
            keys_of(b"12345678901234567890123\n", 128).unwrap(),
            vec![12345678901234567890123]
        );
    }

    #[test]
    fn every_refused_spelling_names_its_line() {
        let cases: [(&[u8], u32, &str); 19] = [
            (b"1\n+2\n", 64, "keys.txt:2: key \"+2\" has a sign"),
            (b"-1\n", 64, "keys.txt:1: key \"-1\" has a sign"),
            (
                b"1\n2\n0x\n",
                64,
                "keys.txt:3: key \"0x\" has no hex digits",
            ),
            (b"_1\n", 64, "underscore may only separate two digits"),
            (b"1_\n", 64, "underscore may only separate two digits"),
            (b"1__2\n", 64, "underscore may only separate two digits"),
            (b"0x_1\n", 64, "underscore may only separate two digits"),
            (b"1 2\n", 64, "one key per line"),
            (b"12a\n", 64, "unexpected character 'a'"),
            (b"0x1g\n", 64, "unexpected character 'g'"),
            (
                b"4294967296\n",
                32,
                "keys.txt:1: key \"4294967296\" does not fit in 32 bits (largest key: 0xffffffff)",
            ),
            (b"0x1_0000_0000_0000_0000\n", 64, "does not fit in 64 bits"),
            (
                b"340282366920938463463374607431768211456\n",
                128,
                "does not fit in 128 bits",
            ),
            (
                b"0x1ffffffffffffffffffffffffffffffff\n",
                128,
                "does not fit in 128 bits",
            ),
            (
                b"1\n\xEF\xBB\xBF2\n",
                64,
                "keys.txt:2: a byte-order mark (U+FEFF)",
            ),
            (
                b"1\xC2\xA0\n",
                64,
                "non-ASCII character '\\u{a0}' (U+00A0) at column 2",
            ),
            (b"1\xFF\n", 64, "byte 0xFF (not ASCII)"),
            (b"1\0\n", 64, "control character 0x00"),
            (b"# caf\xC3\xA9\n", 64, "non-ASCII character '\u{e9}'"),
        ];
        for (text, key_bits, needle) in cases {
            let err = keys_of(text, key_bits).unwrap_err();
            assert!(
                err.contains(needle),
                "{:?}: {err} lacks {needle:?}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn a_line_longer_than_the_bound_is_refused_without_reading_on() {
        // An endless line (like /dev/zero) fails after one chunk.
        struct Zeros(u64);
        impl Read for Zeros {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                self.0 += buf.len() as u64;
                buf.fill(0);
                Ok(buf.len())
            }
        }
        let mut zeros = Zeros(0);
        let err = read_keys(&mut zeros, "/dev/zero", 64, |_| {})
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("/dev/zero:1: line is longer than 1024 bytes"),
            "{err}"
        );
        assert!(zeros.0 <= 2 * CHUNK_BYTES as u64, "read {} bytes", zeros.0);
        let mut long = b"1\n2\n".to_vec();
        long.extend(std::iter::repeat_n(b'1', MAX_KEY_LINE_BYTES + 1));
        long.push(b'\n');
        let err = keys_of(&long, 64).unwrap_err();
        assert!(err.contains("keys.txt:3: line is"), "{err}");
        // 1024 bytes of comment are fine.
        let mut ok = vec![b'#'; MAX_KEY_LINE_BYTES];
        ok.extend_from_slice(b"\n5\n");
        assert_eq!(keys_of(&ok, 64).unwrap(), vec![5]);
    }

    #[test]
    fn line_numbers_stay_right_across_chunks() {
        let mut text = Vec::new();
        let n = 300_000u64;
        for i in 0..n {
            text.extend_from_slice(format!("{i}\r\n").as_bytes());
        }
        text.extend_from_slice(b"oops\n");
        let mut count = 0u64;
        let err = read_keys(&text[..], "big", 64, |k| {
            assert_eq!(k, count as u128);
            count += 1
        })
        .unwrap_err();
        assert_eq!(count, n);
        assert_eq!(err.line(), n + 1, "{err}");
    }

    #[test]
    fn texts_come_with_their_keys() {
        let mut seen = Vec::new();
        read_keys_with_text(&b"0x1F\r\n 7 # c\n\n1_0\n"[..], "t", 64, |k, t, line| {
            seen.push((k, String::from_utf8(t.to_vec()).unwrap(), line))
        })
        .unwrap();
        assert_eq!(
            seen,
            vec![
                (31, "0x1F".into(), 1),
                (7, "7".into(), 2),
                (10, "1_0".into(), 4)
            ]
        );
    }

    #[test]
    fn single_keys_parse_like_file_lines() {
        assert_eq!(parse_key_arg("0xFF", 32), Ok(255));
        assert!(parse_key_arg(" 1", 32).is_err());
        assert!(
            parse_key_arg("1 # comment", 32).is_err(),
            "a single key has no comment"
        );
        assert!(parse_key_arg("-1", 64).unwrap_err().contains("unsigned"));
        assert!(parse_key_arg("4294967296", 32)
            .unwrap_err()
            .contains("does not fit in 32 bits"));
    }
}
