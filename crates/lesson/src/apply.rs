//! Applying settings to a lesson: the text every block shows, the engine scenario,
//! and the maps that take an engine error back to the lesson file.

use std::ops::Range;
use std::sync::Arc;

use engine::{Scenario, SessionSpec};

use crate::block::{BlockRole, Piece, SqlBlock};
use crate::check::Check;
use crate::markdown::splice;
use crate::source::{offset_of, OffsetMap, SourceFile};
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
}

impl Applied {
    /// The error an engine reports at (`line`, `col`) of one of its blocks, placed in
    /// the lesson file. Columns count characters.
    pub fn locate(&self, block: engine::Block, line: u32, col: u32, message: &str) -> LessonError {
        match self
            .blocks
            .iter()
            .position(|b| b.engine_block == Some(block))
        {
            Some(i) => {
                let (line, col) = self.file_position(i, line, col);
                LessonError {
                    file: self.source.name.clone(),
                    line,
                    col,
                    message: message.to_string(),
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

pub(crate) fn apply(lesson: &Lesson, settings: &Settings) -> Result<Applied, LessonError> {
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
    let mut setup: Option<&SqlBlock> = None;
    let mut sessions: Vec<SessionSpec> = Vec::new();
    let mut session_lines: Vec<u32> = Vec::new();
    let mut replacements: Vec<(Range<usize>, String)> = Vec::new();
    for (index, block) in lesson.blocks.iter().enumerate() {
        if !all_hold(&block.when, settings) {
            replacements.push((block.file_range.clone(), String::new()));
            continue;
        }
        let engine_block = match &block.role {
            BlockRole::Setup => {
                if let Some(first) = setup {
                    return Err(source.error(
                        block.fence_offset,
                        format!(
                            "two setup blocks apply with {} (lines {} and {}); give them exclusive `when` conditions",
                            describe(settings),
                            first.line,
                            block.line
                        ),
                    ));
                }
                setup = Some(block);
                Some(engine::Block::Setup)
            }
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
        let rendered = render(index, block, settings);
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
    let setup_text = blocks
        .iter()
        .find(|b| b.engine_block == Some(engine::Block::Setup))
        .map(|b| b.text.clone())
        .unwrap_or_default();
    Ok(Applied {
        lesson_id: lesson.id.clone(),
        settings: settings.clone(),
        scenario: Scenario {
            dialect: lesson.dialect,
            setup: setup_text,
            sessions,
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
    }
}
