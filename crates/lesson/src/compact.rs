//! Lessons compiled ahead of time: a parsed, validated [`Lesson`] with its Markdown
//! already rendered to HTML, in a compact binary form. The browser app embeds this form
//! (its build script compiles `lessons/*.md`), so it needs neither a TOML nor a
//! Markdown parser, and a lesson that does not parse fails the build instead of the page.
//!
//! The form is private to one build: the writer and the reader are this file, built
//! from the same source, so it has a magic number but no versioning. Numbers are LEB128
//! (signed ones zigzagged), floats their IEEE bits, strings a length and UTF-8 bytes,
//! enums a one-byte tag. Each struct is read and written by destructuring it whole, so a
//! new field does not compile until it is encoded.

use std::fmt;
use std::sync::Arc;

use crate::anomaly::{AnomalyRule, AnomalyRuleKind, RulePlaces};
use crate::block::{Alternative, BlockRole, Piece, Solution, SqlBlock};
use crate::check::{Bound, Check, CheckKind, Expectation, Expected, Figure};
use crate::codec::{Codec, Reader, Writer};
use crate::codec_struct;
use crate::property::{Builtin, Property, PropertyKind};
use crate::question::{Choice, Measure, Question};
use crate::source::{OffsetMap, Segment, SourceFile};
use crate::toggle::{Condition, Toggle};
use crate::translation::{AnomalyText, CheckText, QuestionText, ToggleText, Translation};
use crate::{Exercise, Kind, Lesson};

const MAGIC: &[u8; 4] = b"LSL1";

/// How [`crate::narrative_html`] marks where block N goes: this, N, then `"></div>`.
const BLOCK_PLACEHOLDER: &str = "<div class=\"lockstep-block\" data-block=\"";

/// Text for HTML content and attribute values (double-quoted).
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// A lesson ready for the browser: the lesson and the HTML of its Markdown (raw HTML in
/// the lesson escaped, as [`crate::markdown_html`] renders it).
#[derive(Clone, Debug)]
pub struct Compiled {
    pub lesson: Lesson,
    /// [`crate::narrative_html`] of the lesson.
    pub narrative_html: String,
    /// An exercise's goal as HTML; empty for a plain lesson.
    pub goal_html: String,
    /// An exercise's hints as HTML, in order.
    pub hints_html: Vec<String>,
    /// The lesson's translations (`lessons/<lang>/<id>.md`), by language.
    pub translations: Vec<CompiledTranslation>,
}

/// A translation ready for the browser: its texts and the HTML of its Markdown. Only
/// the texts are kept (the lesson they translate is the [`Compiled`] that holds them),
/// and the narrative only as HTML, so a translation costs the wasm its words once.
#[derive(Clone, Debug)]
pub struct CompiledTranslation {
    /// `body` is empty here: the narrative is `narrative_html`.
    pub texts: Translation,
    pub narrative_html: String,
    pub goal_html: String,
    pub hints_html: Vec<String>,
}

/// The compiled form is not one this build wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub at: usize,
    pub message: &'static str,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "compiled lessons, byte {}: {}", self.at, self.message)
    }
}

impl std::error::Error for DecodeError {}

impl Compiled {
    /// Renders the lesson's Markdown.
    #[cfg(feature = "parse")]
    pub fn new(lesson: Lesson) -> Compiled {
        let exercise = lesson.exercise.as_ref();
        Compiled {
            narrative_html: crate::narrative_html(&lesson),
            goal_html: exercise.map_or_else(String::new, |e| crate::markdown_html(&e.goal)),
            hints_html: exercise.map_or_else(Vec::new, |e| {
                e.hints.iter().map(|h| crate::markdown_html(h)).collect()
            }),
            lesson,
            translations: Vec::new(),
        }
    }

    /// Adds a translation that [`Translation::parse`] accepted against this lesson,
    /// rendering its Markdown (the narrative's block placeholders number the same
    /// blocks: a translation has the original's `sql` blocks in the original's order).
    #[cfg(feature = "parse")]
    pub fn add_translation(&mut self, texts: Translation) {
        let translated = self.lesson.translated(&texts);
        let narrative_html = crate::narrative_html(&translated);
        let goal_html = texts
            .goal
            .as_deref()
            .map_or_else(String::new, crate::markdown_html);
        let hints_html = texts
            .hints
            .iter()
            .map(|h| crate::markdown_html(h))
            .collect();
        self.translations.push(CompiledTranslation {
            texts: Translation {
                body: String::new(),
                ..texts
            },
            narrative_html,
            goal_html,
            hints_html,
        });
        self.translations
            .sort_by(|a, b| a.texts.lang.cmp(&b.texts.lang));
    }

    /// The lesson in `lang` with its HTML, when it has a translation into `lang`
    /// (whose own list of translations is empty).
    pub fn translated(&self, lang: &str) -> Option<Compiled> {
        let t = self.translations.iter().find(|t| t.texts.lang == lang)?;
        Some(Compiled {
            lesson: self.lesson.translated(&t.texts),
            narrative_html: t.narrative_html.clone(),
            goal_html: t.goal_html.clone(),
            hints_html: t.hints_html.clone(),
            translations: Vec::new(),
        })
    }

    /// The lesson as static HTML for the first paint, before the app has loaded: its
    /// narrative (which opens with the title), each `sql` block as code with every toggle at its default
    /// (the text the player opens with), `data-asks` when a question applies at those
    /// settings, and `data-may-ask` when one applies at some settings (a link's toggles
    /// may choose them). Every string from the lesson is escaped.
    pub fn first_paint_html(&self) -> String {
        let lesson = &self.lesson;
        let defaults = lesson.settings_default();
        let applied = lesson.apply(&defaults).ok();
        let mut narrative = String::new();
        let mut rest = self.narrative_html.as_str();
        while let Some(at) = rest.find(BLOCK_PLACEHOLDER) {
            narrative.push_str(&rest[..at]);
            let after = &rest[at + BLOCK_PLACEHOLDER.len()..];
            let end = after.find("\"></div>").unwrap_or(after.len());
            let index: Option<usize> = after[..end].parse().ok();
            let text = applied.as_ref().and_then(|a| {
                a.blocks
                    .iter()
                    .find(|b| Some(b.block) == index)
                    .map(|b| b.text.as_str())
            });
            if let Some(text) = text {
                narrative.push_str("<pre class=\"first-paint__code\"><code>");
                narrative.push_str(&escape_html(text));
                narrative.push_str("</code></pre>");
            }
            rest = after.get(end + "\"></div>".len()..).unwrap_or("");
        }
        narrative.push_str(rest);
        // A lesson that asks a question at its default settings says so: while the
        // learner predicts, the app hides the text that gives the answer away, and the
        // page's first-paint script and styles do the same before the app has loaded.
        let asks = lesson.questions.iter().any(|q| q.applies(&defaults));
        let may_ask = !lesson.questions.is_empty();
        format!(
            "<article class=\"first-paint prose\" data-lesson=\"{}\"{}{}>\n{narrative}</article>\n",
            escape_html(&lesson.id),
            if asks { " data-asks" } else { "" },
            if may_ask { " data-may-ask" } else { "" },
        )
    }

    /// The compact form of several lessons.
    pub fn encode_all(lessons: &[Compiled]) -> Vec<u8> {
        let mut w = Writer::new();
        w.bytes(MAGIC);
        lessons.to_vec().put(&mut w);
        w.into_bytes()
    }

    /// Reads what [`Compiled::encode_all`] wrote.
    pub fn decode_all(bytes: &[u8]) -> Result<Vec<Compiled>, DecodeError> {
        let mut r = Reader::new(bytes);
        if r.take(MAGIC.len())? != MAGIC {
            return Err(r.error("not compiled lessons (bad magic number)"));
        }
        let lessons = Vec::<Compiled>::get(&mut r)?;
        r.finish()?;
        Ok(lessons)
    }
}

codec_struct!(Compiled {
    lesson,
    narrative_html,
    goal_html,
    hints_html,
    translations
});
codec_struct!(CompiledTranslation {
    texts,
    narrative_html,
    goal_html,
    hints_html
});
codec_struct!(Translation {
    id,
    lang,
    title,
    summary,
    goal,
    hints,
    toggles,
    checks,
    anomalies,
    properties,
    questions,
    body
});
codec_struct!(ToggleText { label, help });
codec_struct!(CheckText { original, name });
codec_struct!(AnomalyText { label, verb });
codec_struct!(QuestionText {
    ask,
    explain,
    choices
});
codec_struct!(Toggle {
    name,
    label,
    values,
    default,
    help
});
codec_struct!(Condition { toggle, values });
codec_struct!(Check {
    name,
    when,
    kind,
    bug,
    line,
    col
});
codec_struct!(AnomalyRule {
    kind,
    table,
    columns,
    label,
    verb,
    match_table,
    match_columns,
    line,
    col,
    places
});
codec_struct!(RulePlaces {
    table,
    columns,
    match_table,
    match_columns
});
codec_struct!(Property {
    name,
    label,
    when,
    kind,
    line,
    col
});
codec_struct!(Bound { min, max, equals });
codec_struct!(Question {
    name,
    ask,
    when,
    measure,
    choices,
    explain,
    line,
    col
});
codec_struct!(Choice {
    label,
    measure,
    bound
});

impl Codec for Measure {
    fn put(&self, w: &mut Writer) {
        match self {
            Measure::Figure { session, figure } => {
                w.tag(0);
                session.put(w);
                figure.put(w);
            }
            Measure::Sql(sql) => {
                w.tag(1);
                sql.put(w);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            0 => Ok(Measure::Figure {
                session: Codec::get(r)?,
                figure: Codec::get(r)?,
            }),
            1 => Ok(Measure::Sql(Codec::get(r)?)),
            _ => r.bad_tag(),
        }
    }
}
codec_struct!(SqlBlock {
    role,
    when,
    editable,
    line,
    source,
    pieces,
    source_map,
    fence_offset,
    file_range,
    text_range
});
codec_struct!(Solution {
    block,
    sql,
    line,
    source_map,
    fence_offset,
    file_range
});
codec_struct!(Alternative { value, text });
codec_struct!(Exercise {
    goal,
    hints,
    seeds,
    solutions,
    goal_offset
});
codec_struct!(OffsetMap { segments });
codec_struct!(Segment {
    out_start,
    len,
    origin,
    linear
});

impl Codec for Lesson {
    fn put(&self, w: &mut Writer) {
        let Lesson {
            id,
            title,
            dialect,
            summary,
            covers,
            kind,
            seed,
            exercise,
            toggles,
            checks,
            anomalies,
            properties,
            questions,
            blocks,
            body,
            body_offset,
            source,
        } = self;
        source.name.put(w);
        source.text.put(w);
        body_offset.put(w);
        // The body is the file's text from `body_offset` on, written once, as the file;
        // a translated lesson's ([`Lesson::translated`]) is its own.
        let own = source.text.get(*body_offset..) != Some(body.as_str());
        own.then(|| body.clone()).put(w);
        id.put(w);
        title.put(w);
        dialect.put(w);
        summary.put(w);
        covers.put(w);
        kind.put(w);
        seed.put(w);
        exercise.put(w);
        toggles.put(w);
        checks.put(w);
        anomalies.put(w);
        properties.put(w);
        questions.put(w);
        blocks.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let name = String::get(r)?;
        let text = String::get(r)?;
        let body_offset = usize::get(r)?;
        let tail = text
            .get(body_offset..)
            .ok_or_else(|| r.error("body offset outside the file"))?;
        let body = Option::<String>::get(r)?.unwrap_or_else(|| tail.to_string());
        Ok(Lesson {
            id: Codec::get(r)?,
            title: Codec::get(r)?,
            dialect: Codec::get(r)?,
            summary: Codec::get(r)?,
            covers: Codec::get(r)?,
            kind: Codec::get(r)?,
            seed: Codec::get(r)?,
            exercise: Codec::get(r)?,
            toggles: Codec::get(r)?,
            checks: Codec::get(r)?,
            anomalies: Codec::get(r)?,
            properties: Codec::get(r)?,
            questions: Codec::get(r)?,
            blocks: Codec::get(r)?,
            body,
            body_offset,
            source: Arc::new(SourceFile::new(&name, &text)),
        })
    }
}

/// Implements [`Codec`] for an enum of unit variants, as a tag: its index in `ALL`, an
/// array of every variant.
macro_rules! codec_unit_enum {
    ($name:ty, $all:expr) => {
        impl Codec for $name {
            fn put(&self, w: &mut Writer) {
                let all: &[$name] = &$all;
                let tag = all
                    .iter()
                    .position(|v| v == self)
                    .expect("every variant is listed");
                w.tag(tag as u8);
            }
            fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
                let all: &[$name] = &$all;
                match all.get(usize::from(r.tag()?)) {
                    Some(v) => Ok(*v),
                    None => r.bad_tag(),
                }
            }
        }
    };
}

codec_unit_enum!(Kind, [Kind::Lesson, Kind::Exercise]);
codec_unit_enum!(
    engine::Dialect,
    [
        engine::Dialect::TSql,
        engine::Dialect::Teradata,
        engine::Dialect::Postgres
    ]
);
codec_unit_enum!(Figure, Figure::ALL);
codec_unit_enum!(AnomalyRuleKind, AnomalyRuleKind::ALL);
codec_unit_enum!(Builtin, Builtin::ALL);

impl Codec for PropertyKind {
    fn put(&self, w: &mut Writer) {
        match self {
            PropertyKind::Always { sql, bound } => {
                w.tag(0);
                sql.put(w);
                bound.put(w);
            }
            PropertyKind::AtEnd { sql, bound } => {
                w.tag(1);
                sql.put(w);
                bound.put(w);
            }
            PropertyKind::Builtin(b) => {
                w.tag(2);
                b.put(w);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            0 => Ok(PropertyKind::Always {
                sql: Codec::get(r)?,
                bound: Codec::get(r)?,
            }),
            1 => Ok(PropertyKind::AtEnd {
                sql: Codec::get(r)?,
                bound: Codec::get(r)?,
            }),
            2 => Ok(PropertyKind::Builtin(Codec::get(r)?)),
            _ => r.bad_tag(),
        }
    }
}

impl Codec for BlockRole {
    fn put(&self, w: &mut Writer) {
        match self {
            BlockRole::Setup => w.tag(0),
            BlockRole::Session { name, start_us } => {
                w.tag(1);
                name.put(w);
                start_us.put(w);
            }
            BlockRole::Show => w.tag(2),
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            0 => Ok(BlockRole::Setup),
            1 => Ok(BlockRole::Session {
                name: Codec::get(r)?,
                start_us: Codec::get(r)?,
            }),
            2 => Ok(BlockRole::Show),
            _ => r.bad_tag(),
        }
    }
}

impl Codec for Piece {
    fn put(&self, w: &mut Writer) {
        match self {
            Piece::Literal(range) => {
                w.tag(0);
                range.put(w);
            }
            Piece::Value { toggle, at } => {
                w.tag(1);
                toggle.put(w);
                at.put(w);
            }
            Piece::Choice {
                toggle,
                at,
                alternatives,
            } => {
                w.tag(2);
                toggle.put(w);
                at.put(w);
                alternatives.put(w);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            0 => Ok(Piece::Literal(Codec::get(r)?)),
            1 => Ok(Piece::Value {
                toggle: Codec::get(r)?,
                at: Codec::get(r)?,
            }),
            2 => Ok(Piece::Choice {
                toggle: Codec::get(r)?,
                at: Codec::get(r)?,
                alternatives: Codec::get(r)?,
            }),
            _ => r.bad_tag(),
        }
    }
}

impl Codec for CheckKind {
    fn put(&self, w: &mut Writer) {
        match self {
            CheckKind::Query { sql, expect } => {
                w.tag(0);
                sql.put(w);
                expect.put(w);
            }
            CheckKind::Result {
                session,
                result,
                expect,
            } => {
                w.tag(1);
                session.put(w);
                result.put(w);
                expect.put(w);
            }
            CheckKind::Figure {
                session,
                figure,
                bound,
            } => {
                w.tag(2);
                session.put(w);
                figure.put(w);
                bound.put(w);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            0 => Ok(CheckKind::Query {
                sql: Codec::get(r)?,
                expect: Codec::get(r)?,
            }),
            1 => Ok(CheckKind::Result {
                session: Codec::get(r)?,
                result: Codec::get(r)?,
                expect: Codec::get(r)?,
            }),
            2 => Ok(CheckKind::Figure {
                session: Codec::get(r)?,
                figure: Codec::get(r)?,
                bound: Codec::get(r)?,
            }),
            _ => r.bad_tag(),
        }
    }
}

impl Codec for Expectation {
    fn put(&self, w: &mut Writer) {
        match self {
            Expectation::Rows(rows) => {
                w.tag(0);
                rows.put(w);
            }
            Expectation::RowCount(n) => {
                w.tag(1);
                n.put(w);
            }
            Expectation::Scalar(bound) => {
                w.tag(2);
                bound.put(w);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            0 => Ok(Expectation::Rows(Codec::get(r)?)),
            1 => Ok(Expectation::RowCount(Codec::get(r)?)),
            2 => Ok(Expectation::Scalar(Codec::get(r)?)),
            _ => r.bad_tag(),
        }
    }
}

impl Codec for Expected {
    fn put(&self, w: &mut Writer) {
        match self {
            Expected::Null => w.tag(0),
            Expected::Int(n) => {
                w.tag(1);
                n.put(w);
            }
            Expected::Float(x) => {
                w.tag(2);
                x.put(w);
            }
            Expected::Text(s) => {
                w.tag(3);
                s.put(w);
            }
            Expected::Bool(b) => {
                w.tag(4);
                b.put(w);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            0 => Ok(Expected::Null),
            1 => Ok(Expected::Int(Codec::get(r)?)),
            2 => Ok(Expected::Float(Codec::get(r)?)),
            3 => Ok(Expected::Text(Codec::get(r)?)),
            4 => Ok(Expected::Bool(Codec::get(r)?)),
            _ => r.bad_tag(),
        }
    }
}
