//! One protocol line: a command, then `name=value` arguments and bare flags.

use std::fmt;
use std::io::{self, BufRead};

/// Why a line could not be read as a message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MessageError {
    Empty,
    NotUtf8,
    TooLong(usize),
    /// A character that may not start or be part of a name.
    BadName(String),
    UnterminatedQuote,
    /// A quote inside an unquoted value, or text glued to a closing quote.
    BadQuote,
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::Empty => write!(f, "empty line"),
            MessageError::NotUtf8 => write!(f, "line is not UTF-8"),
            MessageError::TooLong(n) => write!(f, "line too long ({n} bytes)"),
            MessageError::BadName(s) => write!(f, "bad name '{s}'"),
            MessageError::UnterminatedQuote => write!(f, "unterminated quote"),
            MessageError::BadQuote => write!(f, "misplaced quote"),
        }
    }
}

impl std::error::Error for MessageError {}

/// Longest line accepted; a board string and a long move list fit many times over.
pub const MAX_LINE: usize = 1 << 20;

/// One line read from the client.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Line {
    /// The line's bytes, without its end (`\n` or `\r\n`).
    Text(Vec<u8>),
    /// A line longer than [`MAX_LINE`]: its length; its bytes were not kept.
    TooLong(usize),
}

/// Read one line from `input`, keeping at most [`MAX_LINE`] bytes of it in `buf` (a
/// buffer reused from line to line): a longer line is read on to its newline and thrown
/// away as it comes, so that no line, however long, takes more memory than that. `None` at
/// the end of input.
pub fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> io::Result<Option<Line>> {
    buf.clear();
    let mut length = 0usize;
    let mut last = None;
    let mut read_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !read_any {
                return Ok(None);
            }
            break;
        }
        read_any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..newline.unwrap_or(chunk.len())];
        length = length.saturating_add(part.len());
        last = part.last().copied().or(last);
        if length <= MAX_LINE + 1 {
            // One byte more than the limit is kept, for a `\r` before the newline.
            buf.extend_from_slice(part);
        }
        let used = part.len() + newline.is_some() as usize;
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    if last == Some(b'\r') {
        length -= 1;
        if buf.len() > length {
            buf.pop();
        }
    }
    if length > MAX_LINE {
        buf.clear();
        return Ok(Some(Line::TooLong(length)));
    }
    Ok(Some(Line::Text(std::mem::take(buf))))
}

/// A parsed line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Message {
    pub command: String,
    /// In order; `None` for a bare flag.
    pub args: Vec<(String, Option<String>)>,
}

impl Message {
    /// The value of the first argument called `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }
    /// Whether `name` is given (as a flag or with a value).
    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }
}

fn is_name_char(c: char) -> bool {
    !c.is_whitespace() && c != '=' && c != '"' && !c.is_control()
}

/// Read a line's bytes (without its newline) as a message.
pub fn parse(bytes: &[u8]) -> Result<Message, MessageError> {
    if bytes.len() > MAX_LINE {
        return Err(MessageError::TooLong(bytes.len()));
    }
    let line = std::str::from_utf8(bytes).map_err(|_| MessageError::NotUtf8)?;
    let line = line.trim_end_matches(['\r', '\n']);
    let mut chars = line.char_indices().peekable();
    let mut tokens: Vec<(String, Option<String>)> = Vec::new();
    loop {
        while chars.peek().is_some_and(|&(_, c)| c == ' ' || c == '\t') {
            chars.next();
        }
        let Some(&(start, first)) = chars.peek() else {
            break;
        };
        if !is_name_char(first) {
            let bad: String = line[start..].chars().take(20).collect();
            return Err(MessageError::BadName(bad));
        }
        let mut end = start;
        while let Some(&(i, c)) = chars.peek() {
            if !is_name_char(c) {
                break;
            }
            end = i + c.len_utf8();
            chars.next();
        }
        let name = line[start..end].to_string();
        let value = if chars.peek().is_some_and(|&(_, c)| c == '=') {
            chars.next();
            Some(read_value(line, &mut chars)?)
        } else {
            None
        };
        // A name must be followed by a blank, `=` or the end of the line.
        if let Some(&(_, c)) = chars.peek() {
            if c != ' ' && c != '\t' {
                return Err(if c == '"' {
                    MessageError::BadQuote
                } else {
                    MessageError::BadName(name)
                });
            }
        }
        tokens.push((name, value));
    }
    let mut it = tokens.into_iter();
    let (command, value) = it.next().ok_or(MessageError::Empty)?;
    if value.is_some() {
        return Err(MessageError::BadName(format!("{command}=")));
    }
    Ok(Message {
        command,
        args: it.collect(),
    })
}

fn read_value(
    line: &str,
    chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
) -> Result<String, MessageError> {
    match chars.peek() {
        Some(&(i, '"')) => {
            chars.next();
            for (j, c) in chars.by_ref() {
                if c == '"' {
                    return Ok(line[i + 1..j].to_string());
                }
            }
            Err(MessageError::UnterminatedQuote)
        }
        Some(&(i, _)) => {
            let mut end = i;
            while let Some(&(j, c)) = chars.peek() {
                if c == ' ' || c == '\t' {
                    break;
                }
                if c == '"' || c == '=' || c.is_control() {
                    return Err(MessageError::BadQuote);
                }
                end = j + c.len_utf8();
                chars.next();
            }
            Ok(line[i..end].to_string())
        }
        None => Ok(String::new()),
    }
}

/// Quote a value when the protocol requires it (empty, or holding a blank or `=`); a
/// double quote, which the protocol cannot carry, becomes a single one.
pub fn quote(value: &str) -> String {
    let v = value.replace('"', "'").replace(['\n', '\r'], " ");
    if v.is_empty() || v.contains([' ', '\t', '=']) {
        format!("\"{v}\"")
    } else {
        v
    }
}
