//! Fenced `sql` blocks: their info string (role, start time, `when`) and their text,
//! cut into literal pieces and toggle markers.

use std::ops::Range;

use crate::source::OffsetMap;
use crate::toggle::Condition;
#[cfg(feature = "parse")]
use crate::toggle::{is_toggle_name, Toggle};

/// What a block is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockRole {
    /// Schema and data, run before any session starts.
    Setup,
    /// One session's script.
    Session { name: String, start_us: u64 },
    /// SQL shown in the narrative and switched by toggles, but not run.
    Show,
}

/// One fenced `sql` block of a lesson.
#[derive(Clone, Debug)]
pub struct SqlBlock {
    pub role: BlockRole,
    /// The block takes part only when every condition holds.
    pub when: Vec<Condition>,
    /// In an exercise, the id under which the learner edits this block (`editable` or
    /// `editable=ID` in the info string; the id defaults to the session name or `setup`).
    pub editable: Option<String>,
    /// 1-based line of the opening fence in the lesson file.
    pub line: u32,
    /// The block's text as written, markers included.
    pub source: String,
    pub(crate) pieces: Vec<Piece>,
    /// Offsets in `source` → offsets in the lesson file.
    pub(crate) source_map: OffsetMap,
    /// File offset of the opening fence (for errors about the whole block).
    pub(crate) fence_offset: usize,
    /// The whole block, fences included, and its text alone, in the file.
    pub(crate) file_range: Range<usize>,
    pub(crate) text_range: Option<Range<usize>>,
}

/// An exercise's answer for one editable block: a ```` ```sql solution=ID ```` block.
/// Kept apart from [`SqlBlock`]s: learners never see it and a plain run never uses it.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The id of the editable block it replaces.
    pub block: String,
    /// The SQL as written: like a learner's edit, it has no toggle markers.
    pub sql: String,
    /// 1-based line of the opening fence in the lesson file.
    pub line: u32,
    /// Offsets in `sql` → offsets in the lesson file.
    pub(crate) source_map: OffsetMap,
    pub(crate) fence_offset: usize,
    /// The whole block, fences included, in the file.
    pub(crate) file_range: Range<usize>,
}

impl SqlBlock {
    pub fn session_name(&self) -> Option<&str> {
        match &self.role {
            BlockRole::Session { name, .. } => Some(name),
            _ => None,
        }
    }
}

/// A part of a block's text. Ranges and offsets are in the block's `source`.
#[derive(Clone, Debug)]
pub(crate) enum Piece {
    Literal(Range<usize>),
    /// `{{toggle}}`: the toggle's current value.
    Value {
        toggle: String,
        at: usize,
    },
    /// `{{toggle: a=text | b=text}}`: the text of the current value.
    Choice {
        toggle: String,
        at: usize,
        alternatives: Vec<Alternative>,
    },
}

#[derive(Clone, Debug)]
pub(crate) struct Alternative {
    /// A toggle value, or `*` for every value not listed.
    pub value: String,
    pub text: Range<usize>,
}

/// An error at a byte offset of the text being parsed.
#[cfg(feature = "parse")]
pub(crate) type LocalError = (usize, String);

/// Cuts a block's text into literals and markers; markers name declared toggles and values.
#[cfg(feature = "parse")]
pub(crate) fn parse_pieces(
    text: &str,
    toggles: &[Toggle],
    errors: &mut Vec<LocalError>,
) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut literal_start = 0;
    let mut pos = 0;
    while let Some(found) = text[pos..].find("{{") {
        let open = pos + found;
        if open > literal_start {
            pieces.push(Piece::Literal(literal_start..open));
        }
        let inner_start = open + 2;
        let Some(close) = text[inner_start..].find("}}").map(|i| inner_start + i) else {
            errors.push((
                open,
                "unterminated toggle marker: this `{{` has no closing `}}`".to_string(),
            ));
            return pieces;
        };
        if text[inner_start..close].contains("{{") {
            // At the first `{{`: a marker left open shows here, not lines later where
            // the next marker's `{{` comes.
            errors.push((
                open,
                "toggle marker not closed: this `{{` meets another `{{` before its `}}` (markers cannot nest: close this one with `}}`)"
                    .to_string(),
            ));
        } else if let Some(piece) = parse_marker(text, open, inner_start..close, toggles, errors) {
            pieces.push(piece);
        }
        pos = close + 2;
        literal_start = pos;
    }
    if literal_start < text.len() {
        pieces.push(Piece::Literal(literal_start..text.len()));
    }
    pieces
}

#[cfg(feature = "parse")]
fn parse_marker(
    text: &str,
    open: usize,
    inner: Range<usize>,
    toggles: &[Toggle],
    errors: &mut Vec<LocalError>,
) -> Option<Piece> {
    let body = &text[inner.clone()];
    let (name_part, rest) = match body.find(':') {
        Some(i) => (&body[..i], Some(inner.start + i + 1)),
        None => (body, None),
    };
    let name = name_part.trim();
    let name_at = inner.start + (name_part.len() - name_part.trim_start().len());
    if !is_toggle_name(name) {
        errors.push((
            open,
            format!(
                "expected `{{{{toggle}}}}` or `{{{{toggle: value=text | value=text}}}}`, found `{{{{{}}}}}`",
                shorten(body)
            ),
        ));
        return None;
    }
    let Some(toggle) = toggles.iter().find(|t| t.name == name) else {
        errors.push((name_at, unknown_toggle(name, toggles, "in marker")));
        return None;
    };
    let Some(alts_start) = rest else {
        return Some(Piece::Value {
            toggle: name.to_string(),
            at: open,
        });
    };
    let mut alternatives: Vec<Alternative> = Vec::new();
    let mut ok = true;
    let mut seg_start = alts_start;
    for seg_end in text[alts_start..inner.end]
        .match_indices('|')
        .map(|(i, _)| alts_start + i)
        .chain(std::iter::once(inner.end))
    {
        let seg = &text[seg_start..seg_end];
        let seg_at = seg_start + (seg.len() - seg.trim_start().len());
        let this_start = seg_start;
        seg_start = seg_end + 1;
        if seg.trim().is_empty() {
            continue;
        }
        let Some(eq) = seg.find('=') else {
            errors.push((
                seg_at,
                format!(
                    "expected `value=text` in the marker of toggle `{name}`, found `{}`",
                    shorten(seg.trim())
                ),
            ));
            ok = false;
            continue;
        };
        let value = seg[..eq].trim();
        if value.is_empty() {
            errors.push((
                seg_at,
                format!(
                    "an alternative in the marker of toggle `{name}` lacks its value before `=` (values: {})",
                    toggle.values_list()
                ),
            ));
            ok = false;
            continue;
        }
        if value != "*" && toggle.value_index(value).is_none() {
            errors.push((
                seg_at,
                format!(
                    "`{value}` is not a value of toggle `{name}` (values: {})",
                    toggle.values_list()
                ),
            ));
            ok = false;
            continue;
        }
        if alternatives.iter().any(|a| a.value == value) {
            errors.push((
                seg_at,
                format!("value `{value}` appears twice in the marker of toggle `{name}`"),
            ));
            ok = false;
            continue;
        }
        let text_range = trim_line_breaks(text, this_start + eq + 1..seg_end);
        alternatives.push(Alternative {
            value: value.to_string(),
            text: text_range,
        });
    }
    if ok && alternatives.is_empty() {
        errors.push((
            open,
            format!("the marker of toggle `{name}` lists no `value=text`"),
        ));
        return None;
    }
    ok.then(|| Piece::Choice {
        toggle: name.to_string(),
        at: open,
        alternatives,
    })
}

/// A span written over several lines puts its alternatives on lines of their own:
/// the line break right after `value=` and the last line break (with the indentation
/// before `|` or `}}`) belong to the layout of the marker, not to the SQL.
#[cfg(feature = "parse")]
fn trim_line_breaks(text: &str, mut range: Range<usize>) -> Range<usize> {
    let s = &text[range.clone()];
    if s.starts_with("\r\n") {
        range.start += 2;
    } else if s.starts_with('\n') {
        range.start += 1;
    }
    let s = &text[range.clone()];
    if let Some(nl) = s.rfind('\n') {
        if s[nl + 1..].chars().all(|c| c == ' ' || c == '\t') {
            let cut = if s[..nl].ends_with('\r') { nl - 1 } else { nl };
            range.end = range.start + cut;
        }
    }
    range
}

#[cfg(feature = "parse")]
pub(crate) fn unknown_toggle(name: &str, toggles: &[Toggle], place: &str) -> String {
    if toggles.is_empty() {
        format!("unknown toggle `{name}` {place}: the lesson declares no toggles")
    } else {
        let names: Vec<&str> = toggles.iter().map(|t| t.name.as_str()).collect();
        format!(
            "unknown toggle `{name}` {place} (toggles: {})",
            names.join(", ")
        )
    }
}

/// A snippet short enough for a one-line message.
#[cfg(feature = "parse")]
pub(crate) fn shorten(s: &str) -> String {
    let one_line: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 40 {
        let cut: String = one_line.chars().take(37).collect();
        format!("{cut}...")
    } else {
        one_line
    }
}

/// What the info string of a fenced `sql` block says.
#[cfg(feature = "parse")]
#[derive(Debug)]
pub(crate) struct Info {
    pub kind: InfoKind,
    pub when: Vec<Condition>,
    /// The editable id, if the block is `editable`.
    pub editable: Option<String>,
}

#[cfg(feature = "parse")]
#[derive(Debug)]
pub(crate) enum InfoKind {
    Block(BlockRole),
    /// `sql solution=ID`: an exercise's answer for the editable block ID, never shown
    /// to learners nor run by the lesson itself. Not a [`BlockRole`]: it is not part of
    /// the scenario or the narrative.
    Solution(String),
}

/// A `key` or `key=value` word of an info string, with offsets in the info string.
#[cfg(feature = "parse")]
struct Attr<'a> {
    at: usize,
    key: &'a str,
    value: Option<(usize, &'a str)>,
}

/// Words split at whitespace; a value may be double-quoted to hold spaces.
#[cfg(feature = "parse")]
fn attrs<'a>(info: &'a str, errors: &mut Vec<LocalError>) -> Vec<Attr<'a>> {
    let bytes = info.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'=' {
            i += 1;
        }
        let key = &info[start..i];
        if i < bytes.len() && bytes[i] == b'=' {
            i += 1;
            if i < bytes.len() && bytes[i] == b'"' {
                let vstart = i + 1;
                match info[vstart..].find('"') {
                    Some(len) => {
                        out.push(Attr {
                            at: start,
                            key,
                            value: Some((vstart, &info[vstart..vstart + len])),
                        });
                        i = vstart + len + 1;
                    }
                    None => {
                        errors.push((i, format!("unterminated quote in `{key}=\"...`")));
                        return out;
                    }
                }
            } else {
                let vstart = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                    i += 1;
                }
                out.push(Attr {
                    at: start,
                    key,
                    value: Some((vstart, &info[vstart..i])),
                });
            }
        } else {
            out.push(Attr {
                at: start,
                key,
                value: None,
            });
        }
    }
    out
}

/// Whether an info string has a `solution=...` attribute (read as `parse_info` reads it).
#[cfg(feature = "parse")]
pub(crate) fn has_solution_attr(info: &str) -> bool {
    attrs(info, &mut Vec::new())
        .iter()
        .skip(1)
        .any(|a| a.key == "solution")
}

#[cfg(feature = "parse")]
const INFO_HELP: &str =
    "setup, show, session=NAME, start=TIME, when=\"TOGGLE=VALUE\", editable[=ID], solution=ID";

/// Reads `sql setup`, `sql session=A start=1500ms when="workers=4"`, `sql show`.
/// The first word (`sql`) has been checked by the caller.
#[cfg(feature = "parse")]
pub(crate) fn parse_info(
    info: &str,
    toggles: &[Toggle],
    errors: &mut Vec<LocalError>,
) -> Option<Info> {
    let first_errors = errors.len();
    let words = attrs(info, errors);
    let mut role: Option<(usize, &str)> = None;
    let mut session: Option<String> = None;
    let mut start: Option<(usize, u64)> = None;
    let mut when: Option<(usize, Vec<Condition>)> = None;
    let mut editable: Option<(usize, Option<String>)> = None;
    let mut solution: Option<String> = None;
    let mut seen: Vec<&str> = Vec::new();
    for attr in words.iter().skip(1) {
        if seen.contains(&attr.key) {
            errors.push((
                attr.at,
                format!("`{}` is given twice in this block's info string", attr.key),
            ));
            continue;
        }
        seen.push(attr.key);
        let mut set_role = |role_name: &'static str, errors: &mut Vec<LocalError>| {
            if let Some((_, first)) = role {
                errors.push((
                    attr.at,
                    format!(
                        "a block is one of setup, show, session or solution; this one is already `{first}`"
                    ),
                ));
            } else {
                role = Some((attr.at, role_name));
            }
        };
        match (attr.key, attr.value) {
            ("setup", None) => set_role("setup", errors),
            ("show", None) => set_role("show", errors),
            ("session", Some((at, name))) => {
                if is_session_name(name) {
                    session = Some(name.to_string());
                    set_role("session", errors);
                } else {
                    errors.push((
                        at,
                        format!(
                            "bad session name `{name}`: use up to 30 letters, digits, `_` or `-`, starting with a letter"
                        ),
                    ));
                }
            }
            ("start", Some((at, text))) => match parse_duration_us(text) {
                Some(us) => start = Some((attr.at, us)),
                None if finer_than_a_microsecond(text) => errors.push((
                    at,
                    format!("bad start time `{text}`: the simulator's clock counts whole microseconds; round it, such as 1us or 300ms"),
                )),
                None => errors.push((
                    at,
                    format!("bad start time `{text}`: write a number with a unit, such as 1500ms, 1.5s, 250us, or 0"),
                )),
            },
            ("when", Some((at, text))) => {
                if let Some(c) = parse_conditions(text, at, toggles, errors) {
                    when = Some((attr.at, c));
                }
            }
            ("editable", value) => match value {
                None => editable = Some((attr.at, None)),
                Some((_, id)) if is_session_name(id) => {
                    editable = Some((attr.at, Some(id.to_string())));
                }
                Some((at, id)) => errors.push((
                    at,
                    format!("bad editable id `{id}`: use up to 30 letters, digits, `_` or `-`, starting with a letter"),
                )),
            },
            ("solution", Some((at, id))) => {
                if is_session_name(id) {
                    solution = Some(id.to_string());
                    set_role("solution", errors);
                } else {
                    errors.push((
                        at,
                        format!("bad solution id `{id}`: name an editable block (letters, digits, `_` or `-`, starting with a letter)"),
                    ));
                }
            }
            (key @ ("setup" | "show"), Some(_)) => {
                errors.push((attr.at, format!("`{key}` takes no value")));
            }
            (key @ ("session" | "start" | "when" | "solution"), None) => {
                errors.push((attr.at, format!("`{key}` needs a value: {key}=...")));
            }
            (key, _) => errors.push((
                attr.at,
                format!("unknown attribute `{key}` in a sql block's info string (expected {INFO_HELP})"),
            )),
        }
    }
    let kind = match (role, session, solution) {
        (Some((_, "setup")), _, _) => InfoKind::Block(BlockRole::Setup),
        (Some((_, "show")), _, _) => InfoKind::Block(BlockRole::Show),
        (Some((_, "session")), Some(name), _) => InfoKind::Block(BlockRole::Session {
            name,
            start_us: start.map_or(0, |s| s.1),
        }),
        (Some((_, "solution")), _, Some(id)) => InfoKind::Solution(id),
        _ => {
            if errors.len() == first_errors {
                errors.push((0, format!("a sql block needs a role: `sql setup`, `sql session=NAME` or `sql show` (attributes: {INFO_HELP})")));
            }
            return None;
        }
    };
    let is_session = matches!(kind, InfoKind::Block(BlockRole::Session { .. }));
    if let (Some((at, _)), false) = (start, is_session) {
        errors.push((at, "`start` belongs to session blocks".to_string()));
    }
    let editable = match (&kind, editable) {
        (_, None) => None,
        (InfoKind::Block(BlockRole::Show), Some((at, _))) => {
            errors.push((
                at,
                "a show block does not run, so it cannot be `editable`".to_string(),
            ));
            None
        }
        (InfoKind::Solution(_), Some((at, _))) => {
            errors.push((
                at,
                "a solution block is not `editable`: it is the answer for one".to_string(),
            ));
            None
        }
        (InfoKind::Block(role), Some((at, id))) => {
            if when.is_some() {
                // An edit replaces the block's whole text; with `when` the block could be
                // absent under some settings and the learner's edit would silently vanish.
                errors.push((
                    at,
                    "an editable block takes part under every setting: remove its `when`"
                        .to_string(),
                ));
            }
            Some(id.unwrap_or_else(|| match role {
                BlockRole::Session { name, .. } => name.clone(),
                _ => "setup".to_string(),
            }))
        }
    };
    if let (InfoKind::Solution(_), Some((at, _))) = (&kind, &when) {
        errors.push((
            *at,
            "a solution block takes no `when`: it replaces its editable block under every setting"
                .to_string(),
        ));
    }
    (errors.len() == first_errors).then_some(Info {
        kind,
        when: when.map(|w| w.1).unwrap_or_default(),
        editable,
    })
}

#[cfg(feature = "parse")]
pub(crate) fn is_session_name(name: &str) -> bool {
    let mut chars = name.chars();
    name.len() <= 30
        && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// `workers=4`, `claim=two-step|conditional`, several separated by spaces (all must hold).
#[cfg(feature = "parse")]
fn parse_conditions(
    text: &str,
    at: usize,
    toggles: &[Toggle],
    errors: &mut Vec<LocalError>,
) -> Option<Vec<Condition>> {
    let mut out = Vec::new();
    let mut ok = true;
    let mut offset = 0;
    for word in text.split_whitespace() {
        let word_at = at + offset + text[offset..].find(word).unwrap_or(0);
        offset = word_at - at + word.len();
        let Some((name, values)) = word.split_once('=') else {
            errors.push((
                word_at,
                format!("expected `TOGGLE=VALUE` in `when`, found `{word}`"),
            ));
            ok = false;
            continue;
        };
        match resolve_condition(name, values.split('|'), toggles) {
            Ok(c) => out.push(c),
            Err(message) => {
                errors.push((word_at, message));
                ok = false;
            }
        }
    }
    if ok && out.is_empty() {
        errors.push((
            at,
            "`when` is empty: write `when=\"TOGGLE=VALUE\"`".to_string(),
        ));
        return None;
    }
    ok.then_some(out)
}

/// Checks a condition against the declared toggles; the message names what is wrong.
#[cfg(feature = "parse")]
pub(crate) fn resolve_condition<'a>(
    name: &str,
    values: impl IntoIterator<Item = &'a str>,
    toggles: &[Toggle],
) -> Result<Condition, String> {
    let Some(toggle) = toggles.iter().find(|t| t.name == name) else {
        return Err(unknown_toggle(name, toggles, "in `when`"));
    };
    let mut list = Vec::new();
    for v in values {
        if toggle.value_index(v).is_none() {
            return Err(format!(
                "`{v}` is not a value of toggle `{name}` (values: {})",
                toggle.values_list()
            ));
        }
        list.push(v.to_string());
    }
    if list.is_empty() {
        return Err(format!("`when` names toggle `{name}` but no value"));
    }
    Ok(Condition {
        toggle: name.to_string(),
        values: list,
    })
}

/// Whether `text` is a well-formed duration (digits, a point, digits, a unit) that
/// [`parse_duration_us`] refuses only for its fraction of a microsecond (`0.5us`,
/// `300.0001ms`): without the fraction it parses.
#[cfg(feature = "parse")]
fn finer_than_a_microsecond(text: &str) -> bool {
    let Some((int, rest)) = text.split_once('.') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let unit = &rest[digits..];
    !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && digits > 0
        && matches!(unit, "us" | "µs" | "ms" | "s")
        && parse_duration_us(&format!("{int}{unit}")).is_some()
}

/// `0`, `250us`, `1500ms`, `1.5s` → microseconds. Exact decimal arithmetic: `1.5s` is
/// 1_500_000 µs; a fraction finer than a microsecond is refused rather than rounded.
pub fn parse_duration_us(text: &str) -> Option<u64> {
    if text == "0" {
        return Some(0);
    }
    let unit_at = text.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = text.split_at(unit_at);
    let scale: u64 = match unit {
        "us" | "µs" => 1,
        "ms" => 1_000,
        "s" => 1_000_000,
        _ => return None,
    };
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    if int.is_empty() || (number.contains('.') && frac.is_empty()) || frac.contains('.') {
        return None;
    }
    let mut us = int.parse::<u64>().ok()?.checked_mul(scale)?;
    let mut place = scale;
    for digit in frac.bytes() {
        if place % 10 != 0 {
            if digit != b'0' {
                return None;
            }
            continue;
        }
        place /= 10;
        us = us.checked_add(u64::from(digit - b'0') * place)?;
    }
    Some(us)
}
