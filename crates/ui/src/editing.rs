//! Text edits of the exercise's SQL editor, pure so they are tested natively: Tab
//! indents and Shift+Tab outdents the lines of a selection (or the caret's line), and a
//! parser's `line:col` becomes a caret position.
//!
//! Positions are what a `<textarea>` uses for `selectionStart`/`selectionEnd`: UTF-16
//! code units, not bytes or characters.

/// One level of indentation: the lessons indent SQL by four spaces.
pub const INDENT: &str = "    ";
const WIDTH: usize = INDENT.len();

/// The text after an edit, and the selection to put back (UTF-16 offsets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edited {
    pub text: String,
    pub start: u32,
    pub end: u32,
}

/// Tab: a caret gets spaces up to the next indentation stop; a selection has each of
/// its lines indented one level (empty lines stay empty) and keeps covering them.
pub fn indent(text: &str, start: u32, end: u32) -> Edited {
    let (start, end) = (byte_at(text, start.min(end)), byte_at(text, start.max(end)));
    if start == end {
        let column = text[line_start(text, start)..start].chars().count();
        let spaces = WIDTH - column % WIDTH;
        let mut out = String::with_capacity(text.len() + spaces);
        out.push_str(&text[..start]);
        out.push_str(&" ".repeat(spaces));
        out.push_str(&text[start..]);
        let caret = start + spaces;
        return edited(out, caret, caret);
    }
    let lines = touched_lines(text, start, end);
    let mut out = String::with_capacity(text.len() + WIDTH * lines.len());
    let (mut new_start, mut new_end) = (start, end);
    let mut from = 0;
    for &line in &lines {
        let blank = text[line..].starts_with('\n') || line == text.len();
        if blank {
            continue;
        }
        out.push_str(&text[from..line]);
        out.push_str(INDENT);
        from = line;
        // A selection that starts at the line's start keeps the new indent inside it.
        if line < start {
            new_start += WIDTH;
        }
        if line < end {
            new_end += WIDTH;
        }
    }
    out.push_str(&text[from..]);
    edited(out, new_start, new_end)
}

/// Shift+Tab: each line of the selection (or the caret's line) loses one level of
/// indentation: up to four leading spaces, or one leading tab.
pub fn outdent(text: &str, start: u32, end: u32) -> Edited {
    let (start, end) = (byte_at(text, start.min(end)), byte_at(text, start.max(end)));
    let lines = touched_lines(text, start, end);
    let mut out = String::with_capacity(text.len());
    let map = |pos: usize, removed: &[(usize, usize)]| {
        removed.iter().fold(pos, |p, &(line, n)| {
            if pos >= line + n {
                p - n
            } else if pos > line {
                p - (pos - line)
            } else {
                p
            }
        })
    };
    let mut removed = Vec::new();
    let mut from = 0;
    for &line in &lines {
        let rest = &text[line..];
        let n = if rest.starts_with('\t') {
            1
        } else {
            rest.bytes().take(WIDTH).take_while(|&b| b == b' ').count()
        };
        if n == 0 {
            continue;
        }
        out.push_str(&text[from..line]);
        from = line + n;
        removed.push((line, n));
    }
    out.push_str(&text[from..]);
    let (new_start, new_end) = (map(start, &removed), map(end, &removed));
    edited(out, new_start, new_end)
}

/// The UTF-16 offset of 1-based `line` and character `col` in `text` (clamped to the
/// line's end, and to the text's end for a line past the last).
pub fn caret_at(text: &str, line: u32, col: u32) -> u32 {
    let mut start = 0;
    for _ in 1..line.max(1) {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return utf16_len(text),
        }
    }
    let line_text = text[start..].split('\n').next().unwrap_or("");
    let within: usize = line_text
        .chars()
        .take((col.max(1) - 1) as usize)
        .map(char::len_utf8)
        .sum();
    utf16_len(&text[..start + within])
}

/// The smallest replacement that turns `old` into `new`: the UTF-16 range of `old` to
/// replace and the text to put there. The editor replaces just that through the
/// browser's editing commands, so Ctrl+Z undoes a Tab.
pub fn replacement(old: &str, new: &str) -> (u32, u32, String) {
    let prefix: usize = old
        .chars()
        .zip(new.chars())
        .take_while(|(a, b)| a == b)
        .map(|(c, _)| c.len_utf8())
        .sum();
    let suffix: usize = old[prefix..]
        .chars()
        .rev()
        .zip(new[prefix..].chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(c, _)| c.len_utf8())
        .sum();
    let from = utf16_len(&old[..prefix]);
    let to = utf16_len(&old[..old.len() - suffix]);
    (from, to, new[prefix..new.len() - suffix].to_string())
}

/// Byte offsets of the starts of the lines from the one holding `start` to the one
/// holding `end`; a selection that ends at a line's very start leaves that line out.
fn touched_lines(text: &str, start: usize, end: usize) -> Vec<usize> {
    let mut lines = vec![line_start(text, start)];
    let last = if end > start && end == line_start(text, end) {
        end - 1
    } else {
        end
    };
    for (i, b) in text.bytes().enumerate().skip(lines[0]) {
        if i >= last {
            break;
        }
        if b == b'\n' {
            lines.push(i + 1);
        }
    }
    lines
}

fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The byte offset of UTF-16 offset `at` (past the end: the end; inside a surrogate
/// pair: the character's start).
fn byte_at(text: &str, at: u32) -> usize {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        units += c.len_utf16() as u32;
        if units > at {
            return i;
        }
    }
    text.len()
}

fn utf16_len(text: &str) -> u32 {
    text.encode_utf16().count() as u32
}

fn edited(text: String, start: usize, end: usize) -> Edited {
    let (start, end) = (utf16_len(&text[..start]), utf16_len(&text[..end]));
    Edited { text, start, end }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` with `[` and `]` marking the selection (or one `|` the caret), as a
    /// textarea would report it, and back.
    fn parse(marked: &str) -> (String, u32, u32) {
        let text: String = marked.chars().filter(|c| !"[]|".contains(*c)).collect();
        let at = |m: char| {
            marked.find(m).map(|i| {
                let before: String = marked[..i]
                    .chars()
                    .filter(|c| !"[]|".contains(*c))
                    .collect();
                utf16_len(&before)
            })
        };
        match at('|') {
            Some(c) => (text, c, c),
            None => (text, at('[').unwrap(), at(']').unwrap()),
        }
    }

    fn show(e: &Edited) -> String {
        let units: Vec<u16> = e.text.encode_utf16().collect();
        let part = |a: u32, b: u32| String::from_utf16(&units[a as usize..b as usize]).unwrap();
        let n = units.len() as u32;
        if e.start == e.end {
            format!("{}|{}", part(0, e.start), part(e.start, n))
        } else {
            format!(
                "{}[{}]{}",
                part(0, e.start),
                part(e.start, e.end),
                part(e.end, n)
            )
        }
    }

    fn tab(marked: &str) -> String {
        let (text, s, e) = parse(marked);
        show(&indent(&text, s, e))
    }

    fn shift_tab(marked: &str) -> String {
        let (text, s, e) = parse(marked);
        show(&outdent(&text, s, e))
    }

    /// Each case is (before, after) with the selection marked.
    fn cases(edit: fn(&str) -> String, cases: &[(&str, &str)]) {
        for (before, after) in cases {
            assert_eq!(edit(before), *after, "{before:?}");
        }
    }

    #[test]
    fn tab_at_a_caret_moves_to_the_next_stop() {
        cases(
            tab,
            &[
                ("|SELECT 1", "    |SELECT 1"),
                ("ab|c", "ab  |c"),
                ("x\n    |y", "x\n        |y"),
                // Columns count characters, not bytes.
                ("é|", "é   |"),
            ],
        );
    }

    #[test]
    fn tab_indents_every_selected_line_and_keeps_them_selected() {
        cases(
            tab,
            &[
                ("[a\nb]\nc", "[    a\n    b]\nc"),
                ("x[a\nb]", "    x[a\n    b]"),
                // A selection ending at a line's start leaves that line alone.
                ("[a\n]b", "[    a\n]b"),
                // Empty lines stay empty.
                ("[a\n\nb]", "[    a\n\n    b]"),
                // Within one line: that line is indented, the text is not replaced.
                ("SE[LE]CT", "    SE[LE]CT"),
            ],
        );
    }

    #[test]
    fn shift_tab_outdents_the_caret_line_or_the_selection() {
        cases(
            shift_tab,
            &[
                ("    SEL|ECT", "SEL|ECT"),
                ("      |x", "  |x"),
                ("  |  x", "|x"),
                ("\t|x", "|x"),
                ("x|", "x|"),
                ("[    a\n  b\nc]\n    d", "[a\nb\nc]\n    d"),
                ("  [  a\n    b]", "[a\nb]"),
            ],
        );
        // Tab then Shift+Tab is where we started.
        let (text, s, e) = parse("x\n[  a\n    b]\ny");
        let there = indent(&text, s, e);
        assert_eq!(
            outdent(&there.text, there.start, there.end),
            Edited {
                text,
                start: s,
                end: e
            }
        );
    }

    #[test]
    fn offsets_are_utf16_units() {
        // "😀" is two UTF-16 units.
        cases(tab, &[("😀|x", "😀   |x"), ("[😀\nb]", "[    😀\n    b]")]);
        cases(shift_tab, &[("    😀|x", "😀|x")]);
    }

    #[test]
    fn the_replacement_is_the_part_that_changed() {
        assert_eq!(replacement("abc", "abc"), (3, 3, String::new()));
        assert_eq!(
            replacement("a\nb", "    a\n    b"),
            (0, 2, "    a\n    ".into())
        );
        assert_eq!(replacement("x\n    y", "x\ny"), (2, 6, String::new()));
        assert_eq!(replacement("😀 a", "😀     a"), (3, 3, "    ".into()));
        for (old, new) in [("    a\n  b", "a\nb"), ("é\n", "    é\n"), ("", "    ")] {
            let (from, to, text) = replacement(old, new);
            let units: Vec<u16> = old.encode_utf16().collect();
            let mut out = String::from_utf16(&units[..from as usize]).unwrap();
            out.push_str(&text);
            out.push_str(&String::from_utf16(&units[to as usize..]).unwrap());
            assert_eq!(out, new);
        }
    }

    #[test]
    fn line_and_column_become_a_caret() {
        let text = "SELECT 1\n  😀 WHERE x\nGO";
        assert_eq!(caret_at(text, 1, 1), 0);
        assert_eq!(caret_at(text, 2, 3), 11);
        assert_eq!(
            caret_at(text, 2, 5),
            14,
            "after the emoji (2 units) and a space"
        );
        assert_eq!(caret_at(text, 2, 99), 21, "clamped to the line's end");
        assert_eq!(caret_at(text, 3, 1), 22);
        assert_eq!(caret_at(text, 9, 1), utf16_len(text));
    }
}
