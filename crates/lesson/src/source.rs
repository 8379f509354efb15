//! The lesson file's text and the maps from derived text (block content, rendered SQL)
//! back to byte offsets in it, so that every error can name `file:line:col`.

use crate::LessonError;

/// The whole lesson file, kept so that offsets can become line and column at any time.
#[derive(Debug)]
pub(crate) struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: &str, text: &str) -> SourceFile {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceFile {
            name: name.to_string(),
            text: text.to_string(),
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset; clamped into the text.
    pub fn position(&self, offset: usize) -> (u32, u32) {
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        let line = self
            .line_starts
            .partition_point(|&start| start <= offset)
            .max(1)
            - 1;
        let start = self.line_starts[line];
        let col = self.text[start..offset].chars().count();
        (to_u32(line + 1), to_u32(col + 1))
    }

    pub fn error(&self, offset: usize, message: impl Into<String>) -> LessonError {
        let (line, col) = self.position(offset);
        LessonError {
            file: self.name.clone(),
            line,
            col,
            message: message.into(),
        }
    }
}

pub(crate) fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

pub(crate) fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Byte offset of a 1-based (line, column-in-characters) position in `text`, clamped to
/// the end of that line (or of the text) when the position lies beyond it.
pub(crate) fn offset_of(text: &str, line: u32, col: u32) -> usize {
    let mut start = 0;
    for _ in 1..line.max(1) {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_text = &text[start..];
    let line_end = line_text.find('\n').unwrap_or(line_text.len());
    let skip = (col.max(1) - 1) as usize;
    let within = line_text[..line_end]
        .char_indices()
        .nth(skip)
        .map_or(line_end, |(i, _)| i);
    start + within
}

/// A piecewise map from offsets in a derived text to offsets in its origin.
/// A linear segment copies text verbatim; a point segment (inserted text, such as a
/// toggle's value) maps every offset in it to one origin offset.
#[derive(Clone, Debug, Default)]
pub(crate) struct OffsetMap {
    pub(crate) segments: Vec<Segment>,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment {
    pub(crate) out_start: usize,
    pub(crate) len: usize,
    pub(crate) origin: usize,
    pub(crate) linear: bool,
}

impl OffsetMap {
    pub fn push_linear(&mut self, out_start: usize, len: usize, origin: usize) {
        self.segments.push(Segment {
            out_start,
            len,
            origin,
            linear: true,
        });
    }

    pub fn push_point(&mut self, out_start: usize, len: usize, origin: usize) {
        self.segments.push(Segment {
            out_start,
            len,
            origin,
            linear: false,
        });
    }

    /// Segments are pushed in increasing `out_start`; an offset past the last one maps
    /// to the end of the last segment.
    pub fn map(&self, out: usize) -> usize {
        let i = self.segments.partition_point(|s| s.out_start <= out);
        let Some(seg) = self.segments.get(i.saturating_sub(1)) else {
            return 0;
        };
        if seg.linear {
            seg.origin + (out.saturating_sub(seg.out_start)).min(seg.len)
        } else {
            seg.origin
        }
    }
}
