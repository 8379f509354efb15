//! The Markdown body: finding fenced `sql` blocks with their offsets, and rendering
//! narrative HTML in which the lesson's raw HTML is text, never markup.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd};

use crate::block::{parse_info, parse_pieces, InfoKind, LocalError, Solution, SqlBlock};
use crate::source::{OffsetMap, SourceFile};
use crate::toggle::Toggle;
use crate::LessonError;

pub(crate) fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH
}

/// Whether a fenced block's info string makes it a lesson block (`sql ...`).
fn is_sql_info(info: &str) -> bool {
    info.split_whitespace().next() == Some("sql")
}

/// Whether a fenced block that is not `sql` carries an attribute only a lesson block
/// takes (`session=`, `setup`, `editable`, `solution=`).
fn has_lesson_attr(info: &str) -> bool {
    !is_sql_info(info)
        && info.split_whitespace().skip(1).any(|w| {
            let key = w.split('=').next().unwrap_or_default();
            matches!(key, "session" | "setup" | "editable" | "solution")
        })
}

/// Whether a `sql` block is an exercise's solution, which is never part of the
/// narrative (nor of [`crate::Lesson::blocks`]).
fn is_solution_info(info: &str) -> bool {
    is_sql_info(info) && crate::block::has_solution_attr(info)
}

/// The `sql` blocks of a body: the lesson's blocks and, apart, exercise solutions.
#[derive(Default)]
pub(crate) struct Scanned {
    pub blocks: Vec<SqlBlock>,
    pub solutions: Vec<Solution>,
}

enum Made {
    Block(SqlBlock),
    Solution(Solution),
}

/// A `sql` block being read: its fence's info string and range, and its text so far.
struct OpenBlock {
    info: String,
    range: Range<usize>,
    text: String,
    /// Offsets in `text` → offsets in the file.
    map: OffsetMap,
    /// The text's range in the body.
    text_range: Option<Range<usize>>,
}

/// Finds every fenced `sql` block of `body` (which starts at byte `base` of the file).
pub(crate) fn scan_blocks(
    source: &SourceFile,
    body: &str,
    base: usize,
    toggles: &[Toggle],
    errors: &mut Vec<LessonError>,
) -> Scanned {
    let mut scanned = Scanned::default();
    let mut current: Option<OpenBlock> = None;
    for (event, range) in Parser::new_ext(body, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if is_sql_info(&info) => {
                current = Some(OpenBlock {
                    info: info.to_string(),
                    range,
                    text: String::new(),
                    map: OffsetMap::default(),
                    text_range: None,
                });
            }
            // `SQL session=A` or `tsql session=A` would be narrative without a word.
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if has_lesson_attr(&info) => {
                let language = info.split_whitespace().next().unwrap_or_default();
                errors.push(source.error(
                    base + range.start,
                    format!(
                        "a lesson block's fence starts with `sql` (this one, `{language}`, would be a code sample in the text): write ```sql {}",
                        info.split_whitespace().skip(1).collect::<Vec<_>>().join(" ")
                    ),
                ));
            }
            Event::Text(text) => {
                if let Some(open) = current.as_mut() {
                    let out = open.text.len();
                    if body.get(range.clone()) == Some(&*text) {
                        open.map.push_linear(out, text.len(), base + range.start);
                    } else {
                        // Text that differs from its source (tabs expanded inside a list):
                        // errors in it point at the start of the line.
                        open.map.push_point(out, text.len(), base + range.start);
                    }
                    open.text.push_str(&text);
                    let start = open.text_range.as_ref().map_or(range.start, |r| r.start);
                    open.text_range = Some(start..range.end);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(open) = current.take() {
                    match make_block(source, body, base, open, toggles, errors) {
                        Some(Made::Block(block)) => scanned.blocks.push(block),
                        Some(Made::Solution(solution)) => scanned.solutions.push(solution),
                        None => {}
                    }
                }
            }
            _ => {}
        }
    }
    scanned
}

fn make_block(
    source: &SourceFile,
    body: &str,
    base: usize,
    open: OpenBlock,
    toggles: &[Toggle],
    errors: &mut Vec<LessonError>,
) -> Option<Made> {
    let OpenBlock {
        info,
        range,
        text: content,
        map: source_map,
        text_range,
    } = open;
    let info = info.as_str();
    let fence_offset = base + range.start;
    let before = errors.len();
    if !fence_closed(&body[range.clone()]) {
        errors.push(source.error(
            fence_offset,
            "unterminated code block: this fence is never closed",
        ));
        return None;
    }
    let info_offset = base + info_start(body, range.start, info);
    let mut local: Vec<LocalError> = Vec::new();
    let parsed = parse_info(info, toggles, &mut local);
    errors.extend(
        local
            .drain(..)
            .map(|(at, m)| source.error(info_offset + at, m)),
    );
    let (line, _) = source.position(fence_offset);
    if let Some(InfoKind::Solution(block)) = parsed.as_ref().map(|i| &i.kind) {
        // A solution is SQL as a learner would type it; a marker here would be run as
        // text, so an author who expects it to switch is told at once.
        if let Some(at) = content.find("{{") {
            errors.push(source.error(
                source_map.map(at),
                "a solution block has no toggle markers: write the SQL as the learner would",
            ));
            return None;
        }
        if errors.len() != before {
            return None;
        }
        return Some(Made::Solution(Solution {
            block: block.clone(),
            sql: content,
            line,
            source_map,
            fence_offset,
            file_range: base + range.start..base + range.end,
        }));
    }
    let pieces = parse_pieces(&content, toggles, &mut local);
    errors.extend(
        local
            .drain(..)
            .map(|(at, m)| source.error(source_map.map(at), m)),
    );
    let info = parsed?;
    if errors.len() != before {
        return None;
    }
    let InfoKind::Block(role) = info.kind else {
        return None;
    };
    Some(Made::Block(SqlBlock {
        role,
        when: info.when,
        editable: info.editable,
        line,
        source: content,
        pieces,
        source_map,
        fence_offset,
        file_range: base + range.start..base + range.end,
        text_range: text_range.map(|r| base + r.start..base + r.end),
    }))
}

/// Offset in `body` where the info string of the fence at `fence` starts, or the fence
/// itself when the info string was unescaped and no longer matches the source.
fn info_start(body: &str, fence: usize, info: &str) -> usize {
    let line = &body[fence..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let after_indent = line.len() - line.trim_start().len();
    let rest = &line[after_indent..];
    let after_fence = rest.len() - rest.trim_start_matches(['`', '~']).len();
    let rest = &rest[after_fence..];
    let after_space = rest.len() - rest.trim_start().len();
    if rest[after_space..].starts_with(info) {
        fence + after_indent + after_fence + after_space
    } else {
        fence
    }
}

/// CommonMark lets a fenced block run to the end of the document (or of its list item
/// or quote) when no closing fence comes; for a lesson that is always a mistake.
fn fence_closed(block: &str) -> bool {
    let strip = |l: &str| {
        l.trim_start_matches([' ', '\t', '>'])
            .trim_end()
            .to_string()
    };
    let mut lines = block.trim_end().lines();
    let Some(first) = lines.next().map(strip) else {
        return false;
    };
    let Some(fence_char) = first.chars().next() else {
        return false;
    };
    let fence_len = first.chars().take_while(|&c| c == fence_char).count();
    let Some(last) = lines.next_back().map(strip) else {
        return false;
    };
    last.chars().count() >= fence_len && last.chars().all(|c| c == fence_char)
}

/// Lesson Markdown as HTML. Raw HTML in the lesson is shown as text; links and images
/// keep only http(s), mailto, relative and `#` destinations.
pub fn markdown_html(markdown: &str) -> String {
    render(markdown, |_, _| None)
}

/// The narrative of a lesson as HTML, each `sql` block replaced by a placeholder
/// `<div class="lockstep-block" data-block="N"></div>` where N indexes
/// [`crate::Lesson::blocks`], for the player to fill with the live block.
pub fn narrative_html(lesson: &crate::Lesson) -> String {
    render(&lesson.body, |index, _| {
        Some(format!(
            "<div class=\"lockstep-block\" data-block=\"{index}\"></div>\n"
        ))
    })
}

/// Renders safe HTML; `sql_block(index, info)` may replace the n-th `sql` block.
fn render(markdown: &str, mut sql_block: impl FnMut(usize, &str) -> Option<String>) -> String {
    let mut events: Vec<Event<'_>> = Vec::new();
    let mut skipping = false;
    let mut sql_index = 0;
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(ref info)))
                if is_solution_info(info) =>
            {
                // The answer to an exercise is for `lockstep check` and facilitators.
                skipping = true;
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(ref info))) if is_sql_info(info) => {
                let replacement = sql_block(sql_index, info);
                sql_index += 1;
                if let Some(html) = replacement {
                    // Our own markup, not the lesson's: safe to pass through.
                    events.push(Event::Html(CowStr::from(html)));
                    skipping = true;
                } else {
                    events.push(event);
                }
            }
            Event::End(TagEnd::CodeBlock) if skipping => skipping = false,
            _ if skipping => {}
            Event::Html(html) | Event::InlineHtml(html) => events.push(Event::Text(html)),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                events.push(Event::Start(Tag::Link {
                    link_type,
                    dest_url: safe_url(dest_url),
                    title,
                    id,
                }));
            }
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                events.push(Event::Start(Tag::Image {
                    link_type,
                    dest_url: safe_url(dest_url),
                    title,
                    id,
                }));
            }
            other => events.push(other),
        }
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

fn safe_url(url: CowStr<'_>) -> CowStr<'_> {
    let lower = url.trim_start().to_ascii_lowercase();
    let scheme_end = lower.find([':', '/', '?', '#']);
    let has_scheme = scheme_end.is_some_and(|i| lower.as_bytes()[i] == b':');
    if !has_scheme
        || ["http:", "https:", "mailto:"]
            .iter()
            .any(|s| lower.starts_with(s))
    {
        url
    } else {
        CowStr::from("#")
    }
}

/// A fenced `sql` block as written (solutions included): its info string, its text and
/// the offset of its fence in the body.
#[derive(Debug)]
pub(crate) struct SqlFence {
    pub info: String,
    pub text: String,
    pub at: usize,
}

/// Every fenced `sql` block of a body, in order, for comparing a translation's with
/// its original's.
pub(crate) fn sql_fences(body: &str) -> Vec<SqlFence> {
    let mut fences: Vec<SqlFence> = Vec::new();
    let mut open = false;
    for (event, range) in Parser::new_ext(body, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if is_sql_info(&info) => {
                fences.push(SqlFence {
                    info: info.trim().to_string(),
                    text: String::new(),
                    at: range.start,
                });
                open = true;
            }
            Event::Text(text) if open => {
                if let Some(f) = fences.last_mut() {
                    f.text.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => open = false,
            _ => {}
        }
    }
    fences
}
