//! Mutations of real text (the lessons and their SQL): cut, repeat, swap and splice
//! pieces, so inputs stay close to what people write and reach deep into the parsers.

use crate::gen::Gen;

/// Pieces spliced into mutated text: SQL tokens and the lesson format's markers.
const PIECES: &[&str] = &[
    "(",
    ")",
    ",",
    ";",
    "'",
    "N'",
    "[",
    "]",
    "@",
    "@@",
    "--",
    "/*",
    "*/",
    "\n",
    "GO\n",
    "\0",
    "BEGIN ",
    "END ",
    "SELECT ",
    "FROM ",
    "WHERE ",
    "WITH (",
    "READPAST",
    "UPDLOCK",
    "TOP (1) ",
    "UNION ALL ",
    "CASE ",
    "WHEN ",
    "IF ",
    "WHILE 1 = 1 ",
    "BEGIN TRY ",
    "END TRY ",
    "BEGIN CATCH ",
    "END CATCH ",
    "EXEC ",
    "OUTPUT inserted.* ",
    "2147483647",
    "-2147483648",
    "'%a%a%a%b'",
    "{{",
    "}}",
    "|",
    "=",
    "```",
    "```sql session=Z\n",
    "+++",
    "\r\n",
    "é",
    "[[checks]]",
    "SELECT AND CONSUME TOP 1 * FROM ",
    ".REPEAT 5\n",
    "BT;",
    "ET;",
    "LOCKING ",
    "QUEUE",
];

/// `text` changed in one to four places.
pub fn mutate(g: &mut Gen, text: &str) -> String {
    let mut out = text.to_string();
    for _ in 0..1 + g.below(4) {
        let at = boundary(&out, g.below(out.len() + 1));
        let end = boundary(&out, (at + g.below(64)).min(out.len()));
        match g.below(6) {
            0 => out.replace_range(at..end, ""),
            1 => {
                let piece = out[at..end].to_string();
                let most = if g.chance(5) { 200 } else { 3 };
                let times = 1 + g.below(most);
                out.insert_str(end, &piece.repeat(times));
            }
            2 => {
                // Another part of the text here (a statement moved, a block copied).
                let from = boundary(text, g.below(text.len() + 1));
                let to = boundary(text, (from + g.below(200)).min(text.len()));
                out.insert_str(at, &text[from..to]);
            }
            3 => out.replace_range(at..end, g.pick(PIECES)),
            _ => out.insert_str(at, g.pick(PIECES)),
        }
    }
    out
}

/// The nearest char boundary at or before `at`.
fn boundary(s: &str, at: usize) -> usize {
    (0..=at.min(s.len()))
        .rev()
        .find(|&k| s.is_char_boundary(k))
        .unwrap_or(0)
}
