//! Parse errors and source positions.

use std::fmt;
use std::ops::Range;

/// A syntax error or a construct the simulator does not model, located in the script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offsets into the script text.
    pub span: Range<usize>,
    /// `found 'X', expected one of: ...`, `unexpected end of input, expected ...`,
    /// `unterminated string literal`, `unterminated comment`, `not simulated: cursors`, ...
    pub message: String,
}

impl ParseError {
    pub fn new(span: Range<usize>, message: impl Into<String>) -> Self {
        ParseError {
            span,
            message: message.into(),
        }
    }

    /// `line:col: message`, 1-based, for people.
    pub fn render(&self, src: &str) -> String {
        let (line, col) = line_col(src, self.span.start);
        format!("{line}:{col}: {}", self.message)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// 1-based line and column of a byte offset; columns count chars, not bytes.
/// An offset past the end, or inside a char, is clamped to the nearest char boundary before it.
pub fn line_col(src: &str, offset: usize) -> (u32, u32) {
    let mut offset = offset.min(src.len());
    while !src.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line as u32, col as u32)
}
