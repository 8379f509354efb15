//! Applying settings to a lesson: the text every block shows, the engine scenario,
//! and the maps that take an engine error back to the lesson file.

use std::ops::Range;
use std::sync::Arc;

use engine::{Scenario, SessionSpec};

use crate::block::{BlockRole, Piece, SqlBlock};
use crate::check::Check;
use crate::source::{offset_of, to_u32, OffsetMap, SourceFile};
use crate::toggle::{all_hold, Settings};
use crate::{Lesson, LessonError};

/// A lesson with one value per toggle: what the player shows and the engine runs.
#[derive(Clone, Debug)]
pub struct Applied {
    pub lesson_id: String,
    pub settings: Settings,
    pub scenario: Scenario,
    /// The blocks that take part with these settings, in file order.
    pub blocks: Vec<RenderedBlock>,
    /// The lesson's Markdown body with each block's text rendered and inactive blocks removed.
    pub narrative_markdown: String,
    /// The checks whose `when` holds.
    pub checks: Vec<Check>,
    /// The lesson's declared anomalies (they hold under every setting).
    pub anomalies: Vec<crate::AnomalyRule>,
    /// The properties whose `when` holds.
    pub properties: Vec<crate::Property>,
    /// The questions whose `when` holds: asked before this run.
    pub questions: Vec<crate::Question>,
    source: Arc<SourceFile>,
}

/// One block's text after toggles.
#[derive(Clone, Debug)]
pub struct RenderedBlock {
    /// Index into [`Lesson::blocks`] (and `data-block` of [`crate::narrative_html`]).
    pub block: usize,
    pub role: BlockRole,
    /// Where the engine reports this block's errors; `None` for `show` blocks.
    pub engine_block: Option<engine::Block>,
    pub text: String,
    /// Byte ranges of `text` that came from toggle markers (possibly empty: a span
    /// whose current value has no text), for the player to mark switched text.
    pub toggled: Vec<ToggledRange>,
    /// Offsets in `text` → offsets in the block's source text.
    map: OffsetMap,
    /// Offsets in the block's source text → offsets in the file.
    source_map: OffsetMap,
    /// Where `text` starts in the engine's script: setup blocks are joined into one
    /// script, so the second one starts some lines and bytes in. Zero for sessions.
    script_line: u32,
    script_offset: usize,
    /// The editable id, when `text` is a learner's edit rather than the file's text.
    pub(crate) edited: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToggledRange {
    pub toggle: String,
    pub range: Range<usize>,
}

impl RenderedBlock {
    fn file_offset(&self, offset: usize) -> usize {
        self.source_map.map(self.map.map(offset))
    }

    /// Whether `text` is a learner's edit (see [`crate::Lesson::apply_edits`]).
    pub fn is_edited(&self) -> bool {
        self.edited.is_some()
    }
}

impl Applied {
    /// The rendered block and the line in its text of (`line`) of an engine script:
    /// a session's script is one block; the setup script may be several, joined.
    pub(crate) fn script_block(&self, block: engine::Block, line: u32) -> Option<(usize, u32)> {
        let i = self
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.engine_block == Some(block))
            .take_while(|(_, b)| b.script_line < line.max(1))
            .last()
            .map(|(i, _)| i)?;
        Some((i, line.max(1) - self.blocks[i].script_line))
    }

    /// Which rendered block holds byte `offset` of the engine's setup script
    /// (`scenario.setup`, which joins the setup blocks), and the offset in its `text`.
    /// Statements of procedures created in setup point into that script.
    pub fn setup_position(&self, offset: usize) -> Option<(usize, usize)> {
        let i = self
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.engine_block == Some(engine::Block::Setup))
            .take_while(|(_, b)| b.script_offset <= offset)
            .last()
            .map(|(i, _)| i)?;
        let within = offset - self.blocks[i].script_offset;
        (within <= self.blocks[i].text.len()).then_some((i, within))
    }

    /// [`Self::setup_position`] for a statement's byte range in the setup script: the
    /// rendered block that holds it and the range in that block's `text`.
    pub fn setup_span(&self, range: Range<usize>) -> Option<(usize, Range<usize>)> {
        let (i, a) = self.setup_position(range.start)?;
        let b = (a + range.len()).min(self.blocks[i].text.len());
        Some((i, a..b))
    }

    /// The error an engine reports at (`line`, `col`) of one of its blocks, placed in
    /// the lesson file. Columns count characters.
    pub fn locate(&self, block: engine::Block, line: u32, col: u32, message: &str) -> LessonError {
        match self.script_block(block, line) {
            Some((i, line)) => {
                let (line, col) = self.file_position(i, line, col);
                // SQL has no braces: one where a marker was meant is a brace short.
                let hint = if message == "unexpected character '{'" {
                    " (a toggle marker takes two braces: {{toggle: value=text | ...}})"
                } else {
                    ""
                };
                LessonError {
                    file: self.source.name.clone(),
                    line,
                    col,
                    message: format!("{message}{hint}"),
                }
            }
            None => LessonError {
                file: self.source.name.clone(),
                line: 1,
                col: 1,
                message: format!("{message} (in {block:?}, which this lesson does not have)"),
            },
        }
    }

    /// File line and column of (`line`, `col`) in the text of `blocks[rendered]`.
    pub fn file_position(&self, rendered: usize, line: u32, col: u32) -> (u32, u32) {
        let Some(block) = self.blocks.get(rendered) else {
            return (1, 1);
        };
        let offset = offset_of(&block.text, line, col);
        self.source.position(block.file_offset(offset))
    }
}

/// `edits` are (editable id, SQL), already checked against the lesson's editable blocks.
pub(crate) fn apply(
    lesson: &Lesson,
    settings: &Settings,
    edits: &[(&str, &str)],
) -> Result<Applied, LessonError> {
    let source = &lesson.source;
    if !settings.fits(&lesson.toggles) {
        return Err(source.error(
            0,
            format!(
                "settings `{settings}` do not fit the toggles of lesson `{}`",
                lesson.id
            ),
        ));
    }
    let mut blocks = Vec::new();
    let mut setup_text = String::new();
    let mut setup_lines = 0u32;
    let mut setup_blocks = Vec::new();
    let mut sessions: Vec<SessionSpec> = Vec::new();
    let mut session_lines: Vec<u32> = Vec::new();
    let mut replacements: Vec<(Range<usize>, String)> = Vec::new();
    for (index, block) in lesson.blocks.iter().enumerate() {
        if !all_hold(&block.when, settings) {
            replacements.push((block.file_range.clone(), String::new()));
            continue;
        }
        let engine_block = match &block.role {
            BlockRole::Setup => Some(engine::Block::Setup),
            BlockRole::Session { name, .. } => {
                if let Some(i) = sessions.iter().position(|s| s.name == *name) {
                    return Err(source.error(
                        block.fence_offset,
                        format!(
                            "session `{name}` is defined twice with {} (lines {} and {}); give the blocks exclusive `when` conditions",
                            describe(settings),
                            session_lines[i],
                            block.line
                        ),
                    ));
                }
                Some(engine::Block::Session(sessions.len()))
            }
            BlockRole::Show => None,
        };
        // A learner's edit replaces the block's text as typed (no toggle markers).
        let edit = block
            .editable
            .as_deref()
            .and_then(|id| edits.iter().rev().find(|(e, _)| *e == id));
        let mut rendered = match edit {
            Some((id, sql)) => edited(index, block, id, sql),
            None => render(index, block, settings),
        };
        if block.role == BlockRole::Setup {
            // Each setup block is a batch of its own: joined with `GO`, so that a
            // CREATE PROCEDURE may open the next block. PostgreSQL has no batches (and
            // no `GO`): its statements end at `;`, so its blocks just follow each other.
            if !setup_text.is_empty() {
                if !setup_text.ends_with('\n') {
                    setup_text.push('\n');
                    setup_lines += 1;
                }
                if lesson.dialect != engine::Dialect::Postgres {
                    setup_text.push_str("GO\n");
                    setup_lines += 1;
                }
            }
            rendered.script_line = setup_lines;
            rendered.script_offset = setup_text.len();
            if !setup_text.is_empty() {
                setup_blocks.push(setup_text.len());
            }
            setup_text.push_str(&rendered.text);
            setup_lines += to_u32(rendered.text.matches('\n').count());
        }
        match &block.role {
            BlockRole::Session { name, start_us } => {
                sessions.push(SessionSpec {
                    name: name.clone(),
                    start_us: *start_us,
                    sql: rendered.text.clone(),
                });
                session_lines.push(block.line);
            }
            BlockRole::Setup | BlockRole::Show => {}
        }
        if let Some(range) = &block.text_range {
            replacements.push((range.clone(), rendered.text.clone()));
        }
        blocks.push(RenderedBlock {
            engine_block,
            ..rendered
        });
    }
    if sessions.is_empty() {
        let first = lesson
            .blocks
            .iter()
            .find(|b| matches!(b.role, BlockRole::Session { .. }));
        return Err(source.error(
            first.map_or(lesson.body_offset, |b| b.fence_offset),
            format!(
                "no session runs with {}: every session block's `when` excludes it",
                describe(settings)
            ),
        ));
    }
    // Solutions are never part of the narrative.
    replacements.extend(
        lesson
            .exercise
            .iter()
            .flat_map(|e| &e.solutions)
            .map(|s| (s.file_range.clone(), String::new())),
    );
    replacements.sort_by_key(|(range, _)| range.start);
    Ok(Applied {
        lesson_id: lesson.id.clone(),
        settings: settings.clone(),
        scenario: Scenario {
            dialect: lesson.dialect,
            setup: setup_text,
            sessions,
            setup_blocks,
            limits: match lesson.kind {
                crate::Kind::Exercise => crate::exercise::EXERCISE_LIMITS,
                _ => engine::Limits::default(),
            },
        },
        blocks,
        narrative_markdown: splice(
            &source.text,
            lesson.body_offset,
            source.text.len(),
            &replacements,
        ),
        checks: lesson
            .checks
            .iter()
            .filter(|c| all_hold(&c.when, settings))
            .cloned()
            .collect(),
        anomalies: lesson.anomalies.clone(),
        properties: lesson
            .properties
            .iter()
            .filter(|p| all_hold(&p.when, settings))
            .cloned()
            .collect(),
        questions: lesson
            .questions
            .iter()
            .filter(|q| all_hold(&q.when, settings))
            .cloned()
            .collect(),
        source: Arc::clone(source),
    })
}

fn describe(settings: &Settings) -> String {
    if settings.is_empty() {
        "the lesson's settings".to_string()
    } else {
        settings.to_string()
    }
}

fn render(index: usize, block: &SqlBlock, settings: &Settings) -> RenderedBlock {
    let mut text = String::new();
    let mut map = OffsetMap::default();
    let mut toggled = Vec::new();
    let src = &block.source;
    for piece in &block.pieces {
        match piece {
            Piece::Literal(range) => {
                map.push_linear(text.len(), range.len(), range.start);
                text.push_str(&src[range.clone()]);
            }
            Piece::Value { toggle, at } => {
                let value = settings.get(toggle).unwrap_or_default();
                let start = text.len();
                map.push_point(start, value.len(), *at);
                text.push_str(value);
                toggled.push(ToggledRange {
                    toggle: toggle.clone(),
                    range: start..text.len(),
                });
            }
            Piece::Choice {
                toggle,
                at,
                alternatives,
            } => {
                let value = settings.get(toggle).unwrap_or_default();
                let chosen = alternatives
                    .iter()
                    .find(|a| a.value == value)
                    .or_else(|| alternatives.iter().find(|a| a.value == "*"));
                let start = text.len();
                match chosen {
                    Some(alt) => {
                        map.push_linear(start, alt.text.len(), alt.text.start);
                        text.push_str(&src[alt.text.clone()]);
                    }
                    None => map.push_point(start, 0, *at),
                }
                toggled.push(ToggledRange {
                    toggle: toggle.clone(),
                    range: start..text.len(),
                });
            }
        }
    }
    RenderedBlock {
        block: index,
        role: block.role.clone(),
        engine_block: None,
        text,
        toggled,
        map,
        source_map: block.source_map.clone(),
        script_line: 0,
        script_offset: 0,
        edited: None,
    }
}

/// A block whose text is a learner's edit. Positions in it belong to the learner's
/// text (see [`crate::run_exercise`]); mapped to the file they point at the block.
fn edited(index: usize, block: &SqlBlock, id: &str, sql: &str) -> RenderedBlock {
    let mut map = OffsetMap::default();
    map.push_point(0, sql.len(), 0);
    RenderedBlock {
        block: index,
        role: block.role.clone(),
        engine_block: None,
        text: sql.to_string(),
        toggled: Vec::new(),
        map,
        source_map: block.source_map.clone(),
        script_line: 0,
        script_offset: 0,
        edited: Some(id.to_string()),
    }
}

/// The body's Markdown with each active block's text replaced by its rendered text and
/// inactive blocks removed. `replacements` are (file range, new text), in file order.
fn splice(
    source: &str,
    base: usize,
    end: usize,
    replacements: &[(Range<usize>, String)],
) -> String {
    let mut out = String::new();
    let mut pos = base;
    for (range, text) in replacements {
        out.push_str(&source[pos..range.start]);
        out.push_str(text);
        pos = range.end;
    }
    out.push_str(&source[pos..end]);
    out
}
