//! Reading a translation file and checking it against its original: the same toggles
//! (names, values, order), checks (`original` names, count, order), property and
//! question keys, anomaly and hint counts, and every `sql` block byte for byte.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::{AnomalyText, CheckText, QuestionText, ToggleText, Translation, TRANSLATION_LANGS};
use crate::markdown::{sql_fences, SqlFence};
use crate::source::SourceFile;
use crate::{Lesson, LessonError};

/// What a translation's front matter may hold: texts, and the keys that tie each entry
/// to the original's. Anything else (dialect, seed, sql, when...) is the original's.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTranslation {
    id: Spanned<String>,
    lang: Spanned<String>,
    title: Spanned<String>,
    summary: Spanned<String>,
    goal: Option<Spanned<String>>,
    #[serde(default)]
    hints: Vec<RawHint>,
    #[serde(default)]
    toggles: Vec<RawToggle>,
    #[serde(default)]
    checks: Vec<RawCheck>,
    #[serde(default)]
    anomalies: Vec<RawAnomaly>,
    #[serde(default)]
    properties: Vec<RawKeyed>,
    #[serde(default)]
    questions: Vec<RawQuestion>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHint {
    text: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToggle {
    name: Spanned<String>,
    values: Spanned<Vec<String>>,
    label: Spanned<String>,
    help: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    original: Spanned<String>,
    name: Spanned<String>,
    hint: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAnomaly {
    label: Spanned<String>,
    verb: Option<Spanned<String>>,
}

/// A property: its unchanged `name` and translated `label`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKeyed {
    name: Spanned<String>,
    label: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuestion {
    name: Spanned<String>,
    ask: Spanned<String>,
    explain: Spanned<String>,
    choices: Spanned<Vec<String>>,
}

/// The verb an anomaly rule has when its lesson leaves `verb` out (front.rs).
const DEFAULT_VERB: &str = "wrote";

impl Translation {
    /// Parses `lessons/<lang>/<id>.md` and checks it against `original`, the parsed
    /// `lessons/<id>.md`. `file_name` appears in errors; its stem must be the original's
    /// id and its directory, when it has one, the language. Errors come sorted by
    /// position, each saying what drifted.
    pub fn parse(
        file_name: &str,
        text: &str,
        original: &Lesson,
    ) -> Result<Translation, Vec<LessonError>> {
        let source = SourceFile::new(file_name, text);
        let mut errors = Vec::new();
        let translation = parse_translation(&source, original, &mut errors);
        errors.sort_by_key(|e| (e.line, e.col));
        errors.dedup();
        match translation {
            Some(t) if errors.is_empty() => Ok(t),
            _ => Err(errors),
        }
    }
}

/// Errors at offsets of the front matter, which starts at byte `base` of the file.
struct Report<'a> {
    source: &'a SourceFile,
    base: usize,
    errors: &'a mut Vec<LessonError>,
}

impl Report<'_> {
    fn at(&mut self, span: Range<usize>, message: String) {
        self.errors
            .push(self.source.error(self.base + span.start, message));
    }

    /// A required text: present (serde saw to that) and not blank.
    fn text(&mut self, value: &Spanned<String>, what: &str) -> String {
        if value.get_ref().trim().is_empty() {
            self.at(value.span(), format!("{what} is empty: translate it"));
        }
        value.get_ref().clone()
    }

    /// A list whose entries pair with the original's, one for one: says so when the
    /// counts differ, at the first extra entry or at the last one (`spans`, each
    /// entry's first key), else at the front matter's start.
    fn count(&mut self, key: &str, spans: &[Range<usize>], original: usize, missing: &str) {
        let given = spans.len();
        if given == original {
            return;
        }
        let span = spans
            .get(original)
            .or(spans.last())
            .cloned()
            .unwrap_or(0..0);
        let message = if given > original {
            format!("[[{key}]]: {given} entries, the original has {original}: remove this one and those after it")
        } else {
            format!("[[{key}]]: {given} entries, the original has {original} (missing: {missing})")
        };
        self.at(span, message);
    }
}

fn parse_translation(
    source: &SourceFile,
    original: &Lesson,
    errors: &mut Vec<LessonError>,
) -> Option<Translation> {
    let text = source.text.as_str();
    let (front_range, body_offset) = match crate::split_front_matter(text) {
        Ok(split) => split,
        Err((at, message)) => {
            errors.push(source.error(at, message.replacen("a lesson", "a translation", 1)));
            return None;
        }
    };
    let raw: RawTranslation = match toml::from_str(&text[front_range.clone()]) {
        Ok(raw) => raw,
        Err(e) => {
            let front = &text[front_range.clone()];
            errors.push(crate::front::toml_error(
                source,
                front,
                front_range.start,
                &e,
                |m| {
                    if m.starts_with("unknown field") {
                        " (a translation holds only texts; everything else is the original's)"
                            .into()
                    } else {
                        String::new()
                    }
                },
            ));
            return None;
        }
    };
    let mut report = Report {
        source,
        base: front_range.start,
        errors,
    };

    let stem = crate::front::file_stem(&source.name);
    let id = raw.id.get_ref();
    if id != stem || *id != original.id {
        report.at(
            raw.id.span(),
            format!(
                "id `{id}`: a translation's id is its original's (`{}`) and its file stem (`{stem}`)",
                original.id
            ),
        );
    }
    let lang = raw.lang.get_ref();
    let dir = directory(&source.name);
    if !TRANSLATION_LANGS.contains(&lang.as_str()) {
        report.at(
            raw.lang.span(),
            format!(
                "lang `{lang}` is not a language lessons are translated into ({})",
                TRANSLATION_LANGS.join(", ")
            ),
        );
    } else if dir.is_some_and(|d| d != lang.as_str()) {
        report.at(
            raw.lang.span(),
            format!(
                "lang `{lang}`, but the file is in `{}/`: a translation lives in lessons/<lang>/",
                dir.unwrap_or_default()
            ),
        );
    }
    let title = report.text(&raw.title, "`title`");
    let summary = report.text(&raw.summary, "`summary`");

    let exercise = original.exercise.as_ref();
    let goal = match (&raw.goal, exercise) {
        (Some(goal), Some(_)) => Some(report.text(goal, "`goal`")),
        (Some(goal), None) => {
            report.at(
                goal.span(),
                "`goal` belongs to exercises, and the original is not one".to_string(),
            );
            None
        }
        (None, Some(_)) => {
            report.at(
                raw.title.span(),
                "the original is an exercise: translate its `goal` too".to_string(),
            );
            None
        }
        (None, None) => None,
    };
    let original_hints = exercise.map_or(&[][..], |e| &e.hints[..]);
    let spans: Vec<_> = raw.hints.iter().map(|h| h.text.span()).collect();
    report.count(
        "hints",
        &spans,
        original_hints.len(),
        &format!("hint {}", raw.hints.len() + 1),
    );
    let hints = raw
        .hints
        .iter()
        .map(|h| report.text(&h.text, "a hint's `text`"))
        .collect();

    let toggles = toggles(&raw, original, &mut report);
    let checks = checks(&raw, original, &mut report);

    let spans: Vec<_> = raw.anomalies.iter().map(|a| a.label.span()).collect();
    report.count(
        "anomalies",
        &spans,
        original.anomalies.len(),
        &original
            .anomalies
            .get(raw.anomalies.len())
            .map_or_else(String::new, |a| format!("`{}`", a.label)),
    );
    let mut anomalies = Vec::new();
    for (a, o) in raw.anomalies.iter().zip(&original.anomalies) {
        let label = report.text(&a.label, "an anomaly's `label`");
        let verb = match &a.verb {
            Some(v) => Some(report.text(v, "an anomaly's `verb`")),
            None if o.verb != DEFAULT_VERB => {
                report.at(
                    a.label.span(),
                    format!(
                        "the original's anomaly `{}` has verb `{}`: translate it as `verb`",
                        o.label, o.verb
                    ),
                );
                None
            }
            None => None,
        };
        anomalies.push(AnomalyText { label, verb });
    }

    let spans: Vec<_> = raw.properties.iter().map(|p| p.name.span()).collect();
    report.count(
        "properties",
        &spans,
        original.properties.len(),
        &names(
            original.properties.iter().map(|p| &p.name),
            raw.properties.len(),
        ),
    );
    let mut properties = Vec::new();
    for (p, o) in raw.properties.iter().zip(&original.properties) {
        same_key(&mut report, &p.name, &o.name, "property");
        properties.push(report.text(&p.label, "a property's `label`"));
    }

    let spans: Vec<_> = raw.questions.iter().map(|q| q.name.span()).collect();
    report.count(
        "questions",
        &spans,
        original.questions.len(),
        &names(
            original.questions.iter().map(|q| &q.name),
            raw.questions.len(),
        ),
    );
    let mut questions = Vec::new();
    for (q, o) in raw.questions.iter().zip(&original.questions) {
        same_key(&mut report, &q.name, &o.name, "question");
        let ask = report.text(&q.ask, "a question's `ask`");
        let explain = report.text(&q.explain, "a question's `explain`");
        let choices = q.choices.get_ref();
        if choices.len() != o.choices.len() {
            report.at(
                q.choices.span(),
                format!(
                    "question `{}`: {} choice{}, the original has {}, in this order: {}",
                    o.name,
                    choices.len(),
                    if choices.len() == 1 { "" } else { "s" },
                    o.choices.len(),
                    o.choices
                        .iter()
                        .map(|c| format!("\"{}\"", c.label))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        } else if choices.iter().any(|c| c.trim().is_empty()) {
            report.at(
                q.choices.span(),
                format!("question `{}`: a choice is empty: translate it", o.name),
            );
        }
        questions.push(QuestionText {
            ask,
            explain,
            choices: choices.clone(),
        });
    }

    let body = text[body_offset..].to_string();
    sql_blocks(source, &body, body_offset, original, errors);
    Some(Translation {
        id: original.id.clone(),
        lang: lang.clone(),
        title,
        summary,
        goal,
        hints,
        toggles,
        checks,
        anomalies,
        properties,
        questions,
        body,
    })
}

fn toggles(raw: &RawTranslation, original: &Lesson, report: &mut Report<'_>) -> Vec<ToggleText> {
    let spans: Vec<_> = raw.toggles.iter().map(|t| t.name.span()).collect();
    report.count(
        "toggles",
        &spans,
        original.toggles.len(),
        &names(original.toggles.iter().map(|t| &t.name), raw.toggles.len()),
    );
    let mut out = Vec::new();
    for (t, o) in raw.toggles.iter().zip(&original.toggles) {
        let name_ok = same_key(report, &t.name, &o.name, "toggle");
        if name_ok && *t.values.get_ref() != o.values {
            report.at(
                t.values.span(),
                format!(
                    "toggle `{}`: values [{}], the original's are [{}] (values are a contract: copy them)",
                    o.name,
                    quoted(t.values.get_ref()),
                    quoted(&o.values)
                ),
            );
        }
        let label = report.text(&t.label, "a toggle's `label`");
        let help = match (&t.help, &o.help) {
            (Some(help), Some(_)) => Some(report.text(help, "a toggle's `help`")),
            (Some(help), None) => {
                report.at(
                    help.span(),
                    format!(
                        "toggle `{}` has no `help` in the original: remove it",
                        o.name
                    ),
                );
                None
            }
            (None, Some(_)) => {
                report.at(
                    t.label.span(),
                    format!(
                        "toggle `{}` has `help` in the original: translate it",
                        o.name
                    ),
                );
                None
            }
            (None, None) => None,
        };
        out.push(ToggleText { label, help });
    }
    out
}

fn checks(raw: &RawTranslation, original: &Lesson, report: &mut Report<'_>) -> Vec<CheckText> {
    let spans: Vec<_> = raw.checks.iter().map(|c| c.original.span()).collect();
    report.count(
        "checks",
        &spans,
        original.checks.len(),
        &names(original.checks.iter().map(|c| &c.name), raw.checks.len()),
    );
    let mut out = Vec::new();
    for (c, o) in raw.checks.iter().zip(&original.checks) {
        if *c.original.get_ref() != o.name {
            report.at(
                c.original.span(),
                format!(
                    "check `original` is `{}`; the original's check here is `{}` (copy its name verbatim)",
                    c.original.get_ref(),
                    o.name
                ),
            );
        }
        if let Some(hint) = &c.hint {
            report.at(
                hint.span(),
                format!(
                    "check `{}` has no `hint` in the original: remove it",
                    o.name
                ),
            );
        }
        let name = report.text(&c.name, "a check's `name`");
        out.push(CheckText {
            original: o.name.clone(),
            name,
        });
    }
    out
}

/// A key that must be the original's (a toggle's, property's or question's `name`).
fn same_key(report: &mut Report<'_>, key: &Spanned<String>, original: &str, what: &str) -> bool {
    if key.get_ref() == original {
        return true;
    }
    report.at(
        key.span(),
        format!(
            "{what} `{}`: the original's {what} here is `{original}` (names are keys: copy them, in the original's order)",
            key.get_ref()
        ),
    );
    false
}

/// The original's names from index `from` on, for a message about missing entries.
fn names<'a>(all: impl Iterator<Item = &'a String>, from: usize) -> String {
    let rest: Vec<String> = all.skip(from).map(|n| format!("`{n}`")).collect();
    rest.join(", ")
}

fn quoted(values: &[String]) -> String {
    let list: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
    list.join(", ")
}

/// The directory a file name sits in: `lessons/pl/x.md` → `pl`.
fn directory(name: &str) -> Option<&str> {
    let mut parts = name.rsplit(['/', '\\']);
    parts.next();
    parts.next()
}

/// Every `sql` block of the original, info string and text, in order, byte for byte.
fn sql_blocks(
    source: &SourceFile,
    body: &str,
    base: usize,
    original: &Lesson,
    errors: &mut Vec<LessonError>,
) {
    let ours = sql_fences(body);
    let theirs = sql_fences(&original.body);
    let original_line = |f: &SqlFence| original.source.position(original.body_offset + f.at).0;
    for (i, (t, o)) in ours.iter().zip(&theirs).enumerate() {
        let n = i + 1;
        let at = original_line(o);
        if t.info != o.info {
            errors.push(source.error(
                base + t.at,
                format!(
                    "sql block {n} is ```{}; the original's (line {at}) is ```{}: copy every sql block as it is",
                    t.info, o.info
                ),
            ));
            // With a block added or dropped, the ones after it are out of step: the
            // first is the one to fix.
            if ours.len() != theirs.len() {
                break;
            }
        } else if t.text != o.text {
            let (k, ours_line, theirs_line) = first_difference(&t.text, &o.text);
            errors.push(source.error(
                base + line_after(body, t.at, k + 1),
                format!(
                    "sql block {n} (```{}) differs from the original's (line {at}) at its line {}: `{}` here, `{}` there; copy every sql block as it is",
                    o.info,
                    k + 1,
                    ours_line.trim_end(),
                    theirs_line.trim_end()
                ),
            ));
        }
    }
    if ours.len() > theirs.len() {
        let extra = &ours[theirs.len()];
        errors.push(source.error(
            base + extra.at,
            format!(
                "sql block {} (```{}): the original has {} sql blocks; a translation adds none",
                theirs.len() + 1,
                extra.info,
                theirs.len()
            ),
        ));
    } else if ours.len() < theirs.len() {
        let missing = &theirs[ours.len()];
        errors.push(source.error(
            base + body.len(),
            format!(
                "{} sql blocks, the original has {}: block {} (```{}, line {}) and those after it are missing",
                ours.len(),
                theirs.len(),
                ours.len() + 1,
                missing.info,
                original_line(missing)
            ),
        ));
    }
}

/// The first line (from 0) where two texts differ, and that line of each ("" past the end).
fn first_difference<'a>(a: &'a str, b: &'a str) -> (usize, &'a str, &'a str) {
    let mut la = a.split('\n');
    let mut lb = b.split('\n');
    let mut k = 0;
    loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => k += 1,
            (x, y) => return (k, x.unwrap_or(""), y.unwrap_or("")),
        }
    }
}

/// The offset `lines` lines after the line at `from` in `text` (clamped to its end).
fn line_after(text: &str, from: usize, lines: usize) -> usize {
    let mut at = from;
    for _ in 0..lines {
        match text[at..].find('\n') {
            Some(i) => at += i + 1,
            None => return text.len(),
        }
    }
    at
}
