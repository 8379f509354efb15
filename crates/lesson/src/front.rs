//! The TOML front matter: its raw shape (what serde accepts) and its validation into
//! the lesson's metadata, toggles and checks.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use crate::anomaly::{AnomalyRule, AnomalyRuleKind, RulePlaces};
use crate::block::resolve_condition;
use crate::check::{Bound, Check, CheckKind, Expectation, Expected, Figure};
use crate::property::{Builtin, Property, PropertyKind};
use crate::question::Question;
use crate::source::SourceFile;
use crate::toggle::RESERVED_TOGGLE_NAMES;
use crate::toggle::{is_toggle_name, is_toggle_value, Condition, Toggle};
use crate::{Kind, LessonError};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFront {
    id: Spanned<String>,
    title: String,
    dialect: RawDialect,
    summary: String,
    #[serde(default)]
    covers: Vec<Spanned<String>>,
    kind: Option<Spanned<Kind>>,
    seed: Option<u64>,
    goal: Option<Spanned<String>>,
    #[serde(default)]
    hints: Vec<RawHint>,
    seeds: Option<Spanned<Vec<Spanned<u64>>>>,
    #[serde(default)]
    toggles: Vec<RawToggle>,
    #[serde(default)]
    checks: Vec<RawCheck>,
    #[serde(default)]
    anomalies: Vec<RawAnomaly>,
    #[serde(default)]
    properties: Vec<RawProperty>,
    #[serde(default)]
    questions: Vec<crate::question::front::RawQuestion>,
}

/// `when = { toggle = "value" }` of a check or a property.
pub(crate) type RawWhen = Spanned<BTreeMap<Spanned<String>, Spanned<toml::Value>>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProperty {
    name: Spanned<String>,
    label: Spanned<String>,
    when: Option<RawWhen>,
    always: Option<Spanned<String>>,
    at_end: Option<Spanned<String>>,
    holds: Option<Spanned<Builtin>>,
    min: Option<Spanned<f64>>,
    max: Option<Spanned<f64>>,
    equals: Option<Spanned<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAnomaly {
    kind: Spanned<AnomalyRuleKind>,
    table: Spanned<String>,
    columns: Option<Spanned<Vec<Spanned<String>>>>,
    label: Spanned<String>,
    verb: Option<Spanned<String>>,
    match_table: Option<Spanned<String>>,
    match_columns: Option<Spanned<Vec<Spanned<String>>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHint {
    text: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum RawDialect {
    Tsql,
    Teradata,
    Postgres,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToggle {
    name: Spanned<String>,
    label: String,
    values: Spanned<Vec<Spanned<String>>>,
    default: Option<Spanned<String>>,
    help: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    name: Spanned<String>,
    when: Option<RawWhen>,
    sql: Option<Spanned<String>>,
    expect: Option<Spanned<Vec<Vec<Spanned<toml::Value>>>>>,
    expect_rows: Option<Spanned<u64>>,
    expect_min: Option<Spanned<f64>>,
    expect_max: Option<Spanned<f64>>,
    session: Option<Spanned<String>>,
    result: Option<Spanned<u64>>,
    figure: Option<Spanned<Figure>>,
    min: Option<Spanned<f64>>,
    max: Option<Spanned<f64>>,
    equals: Option<Spanned<f64>>,
    bug: Option<bool>,
}

/// Front matter, validated. Session names in checks are checked later, against blocks.
pub(crate) struct Front {
    pub id: String,
    pub title: String,
    pub dialect: engine::Dialect,
    pub summary: String,
    pub covers: Vec<String>,
    pub kind: Kind,
    /// File offset of `kind` (or of the front matter when it is absent).
    pub kind_offset: usize,
    pub seed: u64,
    /// Present exactly when `kind = "exercise"`.
    pub exercise: Option<FrontExercise>,
    pub toggles: Vec<Toggle>,
    /// File offsets of each toggle's name.
    pub toggle_offsets: Vec<usize>,
    /// Toggles declared with a name that is refused (reserved, or not a name): their
    /// declaration's error is the one to report, not an unknown toggle at every use.
    pub rejected_toggles: Vec<String>,
    pub checks: Vec<Check>,
    /// File offsets of each check's `session`, if any.
    pub check_sessions: Vec<Option<(usize, String)>>,
    pub anomalies: Vec<AnomalyRule>,
    pub properties: Vec<Property>,
    pub questions: Vec<Question>,
    /// File offsets and names of the sessions questions name.
    pub question_sessions: Vec<(usize, String)>,
}

/// The exercise fields of the front matter, validated.
pub(crate) struct FrontExercise {
    pub goal: String,
    pub goal_offset: usize,
    pub hints: Vec<String>,
    pub seeds: Vec<u64>,
}

/// How many seeds `Check` runs when an exercise does not list `seeds`.
pub const DEFAULT_EXERCISE_SEEDS: u64 = 5;
/// Most seeds an exercise may list: the browser runs them all on every Check.
pub const MAX_EXERCISE_SEEDS: usize = 20;

/// Reads the front matter `text`, which starts at byte `base` of the file.
pub(crate) fn parse_front(
    source: &SourceFile,
    text: &str,
    base: usize,
    errors: &mut Vec<LessonError>,
) -> Option<Front> {
    let raw: RawFront = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            errors.push(toml_error(source, text, base, &e, |m| {
                toml_hint(m).to_string()
            }));
            return None;
        }
    };
    let err = |errors: &mut Vec<LessonError>, span: Range<usize>, message: String| {
        errors.push(source.error(base + span.start, message));
    };

    let stem = file_stem(&source.name);
    if *raw.id.get_ref() != stem {
        err(
            errors,
            raw.id.span(),
            format!(
                "id `{}` does not match the file name `{}`: ids equal the file stem",
                raw.id.get_ref(),
                stem
            ),
        );
    }
    for c in &raw.covers {
        if !is_seed_id(c.get_ref()) {
            err(
                errors,
                c.span(),
                format!(
                    "`{}` in covers is not a scenario ID such as Q3",
                    c.get_ref()
                ),
            );
        }
    }

    let kind = raw.kind.as_ref().map_or(Kind::Lesson, |k| *k.get_ref());
    let kind_offset = base + raw.kind.as_ref().map_or(0, |k| k.span().start);
    let seed = raw.seed.unwrap_or(0);
    let exercise = exercise_fields(&raw, kind, seed, &mut |span, message| {
        err(errors, span, message)
    })
    .map(|e| FrontExercise {
        goal_offset: base + e.goal_offset,
        ..e
    });

    let mut toggles: Vec<Toggle> = Vec::new();
    let mut toggle_offsets = Vec::new();
    let mut rejected_toggles = Vec::new();
    for t in raw.toggles {
        let name = t.name.get_ref();
        if !is_toggle_name(name) {
            err(
                errors,
                t.name.span(),
                format!("bad toggle name `{name}`: use lower-case letters, digits and `_`"),
            );
            rejected_toggles.push(name.clone());
            continue;
        }
        if RESERVED_TOGGLE_NAMES.contains(&name.as_str()) {
            err(
                errors,
                t.name.span(),
                format!(
                    "toggle name `{name}` is reserved: player URLs use it (reserved: {})",
                    RESERVED_TOGGLE_NAMES.join(", ")
                ),
            );
            rejected_toggles.push(name.clone());
            continue;
        }
        if toggles.iter().any(|x| x.name == *name) {
            err(
                errors,
                t.name.span(),
                format!("toggle `{name}` is declared twice"),
            );
            continue;
        }
        let mut values: Vec<String> = Vec::new();
        let mut ok = true;
        for v in t.values.get_ref() {
            let value = v.get_ref();
            if !is_toggle_value(value) {
                err(errors, v.span(), format!("bad value `{value}` of toggle `{name}`: use letters, digits, `_`, `-`, `.` or `,`"));
                ok = false;
            } else if values.contains(value) {
                err(
                    errors,
                    v.span(),
                    format!("value `{value}` is listed twice in toggle `{name}`"),
                );
                ok = false;
            } else {
                values.push(value.clone());
            }
        }
        if ok && values.len() < 2 {
            err(
                errors,
                t.values.span(),
                format!("toggle `{name}` needs at least two values"),
            );
        }
        let default = match &t.default {
            None => 0,
            Some(d) => match values.iter().position(|v| v == d.get_ref()) {
                Some(i) => i,
                None => {
                    if ok {
                        let message = format!(
                            "default `{}` is not a value of toggle `{name}` (values: {})",
                            d.get_ref(),
                            values.join(", ")
                        );
                        err(errors, d.span(), message);
                    }
                    0
                }
            },
        };
        // A toggle with a bad value or default is kept (its error is reported) so that
        // spans and conditions naming it do not add errors of their own.
        if !values.is_empty() {
            toggle_offsets.push(base + t.name.span().start);
            toggles.push(Toggle {
                name: name.clone(),
                label: t.label,
                values,
                default,
                help: t.help,
            });
        }
    }

    let dialect = match raw.dialect {
        RawDialect::Tsql => engine::Dialect::TSql,
        RawDialect::Teradata => engine::Dialect::Teradata,
        RawDialect::Postgres => engine::Dialect::Postgres,
    };
    let mut checks = Vec::new();
    let mut check_sessions = Vec::new();
    for c in raw.checks {
        let before = errors.len();
        let name_span = c.name.span();
        let (line, col) = source.position(base + name_span.start);
        let name = c.name.get_ref().clone();
        if name.trim().is_empty() {
            err(
                errors,
                name_span.clone(),
                "a check needs a non-empty `name`".to_string(),
            );
        } else if checks.iter().any(|x: &Check| x.name == name) {
            err(
                errors,
                name_span.clone(),
                format!("two checks are named `{name}`"),
            );
        }
        let when = conditions(c.when.as_ref(), &toggles, &mut |span, message| {
            err(errors, span, message)
        });
        if let Some(f) = &c.figure {
            if let Some(why) = figure_outside_dialect(*f.get_ref(), dialect) {
                err(errors, f.span(), format!("check `{name}`: {why}"));
            }
        }
        let kind = check_kind(&c, &name, &mut |span, message| err(errors, span, message));
        if let (Some(CheckKind::Query { .. }), Some(sql)) = (&kind, &c.sql) {
            check_query_in(
                text,
                dialect,
                sql,
                &format!("check `{name}`"),
                &mut |span, message| err(errors, span, message),
            );
        }
        if let (Some(kind), true) = (kind, errors.len() == before) {
            check_sessions.push(
                c.session
                    .as_ref()
                    .map(|s| (base + s.span().start, s.get_ref().clone())),
            );
            checks.push(Check {
                name,
                when,
                kind,
                bug: c.bug.unwrap_or(false),
                line,
                col,
            });
        }
    }

    let mut anomalies = Vec::new();
    for a in raw.anomalies {
        let before = errors.len();
        let (line, col) = source.position(base + a.kind.span().start);
        let label = a.label.get_ref().trim().to_string();
        if label.is_empty() {
            err(
                errors,
                a.label.span(),
                "an anomaly needs a non-empty `label`: what it means, in a few words".to_string(),
            );
        }
        if !is_sql_name(a.table.get_ref()) {
            err(
                errors,
                a.table.span(),
                format!(
                    "anomaly table `{}` is not a table name (letters, digits and `_`)",
                    a.table.get_ref()
                ),
            );
        }
        let kind = *a.kind.get_ref();
        let at = |span: Range<usize>| source.position(base + span.start);
        let mut places = RulePlaces {
            table: at(a.table.span()),
            match_table: a.match_table.as_ref().map_or((0, 0), |m| at(m.span())),
            ..RulePlaces::default()
        };
        let names = |list: &Spanned<Vec<Spanned<String>>>,
                     errors: &mut Vec<LessonError>,
                     places: &mut Vec<(u32, u32)>| {
            let mut out: Vec<String> = Vec::new();
            for c in list.get_ref() {
                let name = c.get_ref();
                if !is_sql_name(name) {
                    err(
                        errors,
                        c.span(),
                        format!("`{name}` is not a column name (letters, digits and `_`)"),
                    );
                } else if out.iter().any(|x| x.eq_ignore_ascii_case(name)) {
                    err(errors, c.span(), format!("column `{name}` is listed twice"));
                } else {
                    out.push(name.clone());
                    places.push(at(c.span()));
                }
            }
            out
        };
        let columns = match (&a.columns, kind) {
            (Some(c), AnomalyRuleKind::Lost | AnomalyRuleKind::Kept) => {
                err(
                    errors,
                    c.span(),
                    format!(
                        "a `{}` anomaly watches whole rows: leave out `columns`",
                        kind.name()
                    ),
                );
                Vec::new()
            }
            (None, AnomalyRuleKind::Lost | AnomalyRuleKind::Kept) => Vec::new(),
            (Some(c), _) if c.get_ref().is_empty() => {
                err(
                    errors,
                    c.span(),
                    match kind {
                        AnomalyRuleKind::Unmatched => "`columns` is empty: name the columns whose values `match_table` must have",
                        _ => "`columns` is empty: name the columns whose values must not repeat",
                    }
                    .to_string(),
                );
                Vec::new()
            }
            (Some(c), _) => names(c, errors, &mut places.columns),
            (None, _) => {
                err(
                    errors,
                    a.kind.span(),
                    format!("a `{}` anomaly needs `columns`", kind.name()),
                );
                Vec::new()
            }
        };
        let match_table = match (&a.match_table, kind) {
            (Some(m), AnomalyRuleKind::Unmatched) => {
                if !is_sql_name(m.get_ref()) {
                    err(
                        errors,
                        m.span(),
                        format!(
                            "`match_table` `{}` is not a table name (letters, digits and `_`)",
                            m.get_ref()
                        ),
                    );
                }
                Some(m.get_ref().clone())
            }
            (None, AnomalyRuleKind::Unmatched) => {
                err(
                    errors,
                    a.kind.span(),
                    "an `unmatched` anomaly needs `match_table`: the table that must have a matching row".to_string(),
                );
                None
            }
            (Some(m), _) => {
                err(
                    errors,
                    m.span(),
                    "only an `unmatched` anomaly has a `match_table`".to_string(),
                );
                None
            }
            (None, _) => None,
        };
        let match_columns = match &a.match_columns {
            Some(m) if kind != AnomalyRuleKind::Unmatched => {
                err(
                    errors,
                    m.span(),
                    "only an `unmatched` anomaly has `match_columns`".to_string(),
                );
                Vec::new()
            }
            Some(m) => {
                let list = names(m, errors, &mut places.match_columns);
                if m.get_ref().len() != columns.len() {
                    err(
                        errors,
                        m.span(),
                        format!(
                            "`match_columns` names {} column(s) and `columns` {}: one for each",
                            m.get_ref().len(),
                            columns.len()
                        ),
                    );
                }
                list
            }
            None => Vec::new(),
        };
        let verb = match &a.verb {
            Some(v) if v.get_ref().trim().is_empty() => {
                err(
                    errors,
                    v.span(),
                    "`verb` is empty: a past tense such as \"claimed\", or leave it out"
                        .to_string(),
                );
                String::new()
            }
            Some(v) => v.get_ref().trim().to_string(),
            None => "wrote".to_string(),
        };
        if errors.len() == before {
            anomalies.push(AnomalyRule {
                kind,
                table: a.table.get_ref().clone(),
                columns,
                label,
                verb,
                match_table,
                match_columns,
                line,
                col,
                places,
            });
        }
    }

    let mut properties: Vec<Property> = Vec::new();
    for p in raw.properties {
        let before = errors.len();
        for sql in [&p.always, &p.at_end].into_iter().flatten() {
            check_query_in(
                text,
                dialect,
                sql,
                &format!("property `{}`", p.name.get_ref()),
                &mut |span, message| err(errors, span, message),
            );
        }
        let parsed = property(
            source,
            base,
            &p,
            &toggles,
            &properties,
            &mut |span, message| err(errors, span, message),
        );
        if let (Some(property), true) = (parsed, errors.len() == before) {
            properties.push(property);
        }
    }

    let mut questions: Vec<Question> = Vec::new();
    let mut question_sessions = Vec::new();
    for q in &raw.questions {
        let before = errors.len();
        for f in q.figures() {
            if let Some(why) = figure_outside_dialect(*f.get_ref(), dialect) {
                err(errors, f.span(), why);
            }
        }
        for sql in q.queries() {
            check_query_in(
                text,
                dialect,
                sql,
                &format!("question `{}`", q.name()),
                &mut |span, message| err(errors, span, message),
            );
        }
        let parsed = crate::question::front::question(
            source,
            base,
            q,
            &toggles,
            &questions,
            &mut |span, message| err(errors, span, message),
        );
        if let (Some((question, sessions)), true) = (parsed, errors.len() == before) {
            questions.push(question);
            question_sessions.extend(sessions);
        }
    }

    Some(Front {
        id: raw.id.into_inner(),
        title: raw.title,
        dialect,
        summary: raw.summary,
        covers: raw.covers.into_iter().map(Spanned::into_inner).collect(),
        kind,
        kind_offset,
        seed,
        exercise,
        toggles,
        toggle_offsets,
        rejected_toggles,
        checks,
        check_sessions,
        anomalies,
        properties,
        questions,
        question_sessions,
    })
}

/// Property names: lower-case words joined by `-` (`no-double-claim`), as
/// `lockstep explore --property` and links write them.
pub(crate) fn is_property_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && !s.ends_with('-')
        && !s.contains("--")
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// One `[[properties]]` table, validated: a name, a label, and exactly one of `always`,
/// `at_end` (with a bound) or `holds` (without one).
fn property(
    source: &SourceFile,
    base: usize,
    p: &RawProperty,
    toggles: &[Toggle],
    earlier: &[Property],
    err: &mut dyn FnMut(Range<usize>, String),
) -> Option<Property> {
    let name = p.name.get_ref().clone();
    let (line, col) = source.position(base + p.name.span().start);
    if !is_property_name(&name) {
        err(
            p.name.span(),
            format!("bad property name `{name}`: use lower-case words joined by `-`, such as `no-double-claim`"),
        );
    } else if earlier.iter().any(|x| x.name == name) {
        err(p.name.span(), format!("two properties are named `{name}`"));
    } else if let Some(b) = Builtin::ALL.iter().find(|b| b.name() == name) {
        if p.holds.as_ref().map(|h| *h.get_ref()) != Some(*b) {
            err(
                p.name.span(),
                format!("`{name}` is the name of a built-in property: use it with holds = \"{name}\", or choose another name"),
            );
        }
    }
    let label = p.label.get_ref().trim().to_string();
    if label.is_empty() {
        err(
            p.label.span(),
            format!("property `{name}` needs a non-empty `label`: what it promises, in a sentence"),
        );
    }
    let when = conditions(p.when.as_ref(), toggles, err);
    let given: Vec<(&str, Range<usize>)> = [
        ("always", p.always.as_ref().map(Spanned::span)),
        ("at_end", p.at_end.as_ref().map(Spanned::span)),
        ("holds", p.holds.as_ref().map(Spanned::span)),
    ]
    .into_iter()
    .filter_map(|(k, s)| s.map(|s| (k, s)))
    .collect();
    match given.as_slice() {
        [] => {
            err(
                p.name.span(),
                format!("property `{name}` needs one of `always = \"SQL\"`, `at_end = \"SQL\"` or `holds = \"no-errors\"`"),
            );
            return None;
        }
        [_] => {}
        [_, (key, span), ..] => {
            err(
                span.clone(),
                format!("property `{name}`: `{key}` cannot go with `{}`; a property is one of `always`, `at_end` and `holds`", given[0].0),
            );
            return None;
        }
    }
    let get = |v: &Option<Spanned<f64>>| v.as_ref().map(|s| *s.get_ref());
    let bound = Bound {
        min: get(&p.min),
        max: get(&p.max),
        equals: get(&p.equals),
    };
    let bound_span = [&p.equals, &p.min, &p.max]
        .into_iter()
        .find_map(|v| v.as_ref().map(Spanned::span));
    let kind = if let Some(holds) = &p.holds {
        if let Some(span) = bound_span {
            err(
                span,
                format!("property `{name}`: a built-in (`holds`) takes no bound"),
            );
            return None;
        }
        PropertyKind::Builtin(*holds.get_ref())
    } else {
        let sql = p.always.as_ref().or(p.at_end.as_ref())?;
        if sql.get_ref().trim().is_empty() {
            err(sql.span(), format!("property `{name}`: the SQL is empty"));
            return None;
        }
        let message = match (bound.equals, bound.min, bound.max) {
            (Some(_), None, None) | (None, Some(_), _) | (None, _, Some(_)) => None,
            (Some(_), _, _) => Some(format!(
                "property `{name}`: `equals` excludes `min` and `max`"
            )),
            (None, None, None) => Some(format!(
                "property `{name}` needs a bound on its SQL's number: `equals`, `min` or `max`"
            )),
        };
        if let Some(message) = message {
            err(sql.span(), message);
            return None;
        }
        if let (Some(min), Some(max)) = (bound.min, bound.max) {
            if min > max {
                let at = p.min.as_ref().map_or_else(|| sql.span(), Spanned::span);
                err(
                    at,
                    inverted(&format!("property `{name}`"), "min", "max", min, max),
                );
                return None;
            }
        }
        let sql = sql.get_ref().clone();
        if p.always.is_some() {
            PropertyKind::Always { sql, bound }
        } else {
            PropertyKind::AtEnd { sql, bound }
        }
    };
    Some(Property {
        name,
        label,
        when,
        kind,
        line,
        col,
    })
}

/// A table or column name as lessons write them: `claim`, `task_id`, `external_system`.
fn is_sql_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `goal`, `[[hints]]` and `seeds`: required, allowed and allowed for exercises only.
fn exercise_fields(
    raw: &RawFront,
    kind: Kind,
    seed: u64,
    err: &mut dyn FnMut(Range<usize>, String),
) -> Option<FrontExercise> {
    if kind != Kind::Exercise {
        let only = |key: &str| {
            format!("`{key}` belongs to exercises: add kind = \"exercise\" or remove it")
        };
        if let Some(goal) = &raw.goal {
            err(goal.span(), only("goal"));
        }
        if let Some(hint) = raw.hints.first() {
            err(hint.text.span(), only("[[hints]]"));
        }
        if let Some(seeds) = &raw.seeds {
            err(seeds.span(), only("seeds"));
        }
        return None;
    }
    let mut ok = true;
    let goal = match &raw.goal {
        Some(goal) if !goal.get_ref().trim().is_empty() => goal.get_ref().clone(),
        Some(goal) => {
            err(
                goal.span(),
                "`goal` is empty: say what the learner must achieve".into(),
            );
            ok = false;
            String::new()
        }
        None => {
            let at = raw.kind.as_ref().map_or(0..0, Spanned::span);
            err(at, "an exercise needs a `goal`: one or two sentences saying what the learner must achieve".into());
            ok = false;
            String::new()
        }
    };
    let mut hints = Vec::new();
    for hint in &raw.hints {
        if hint.text.get_ref().trim().is_empty() {
            err(hint.text.span(), "a hint's `text` is empty".into());
            ok = false;
        }
        hints.push(hint.text.get_ref().clone());
    }
    let seeds = match &raw.seeds {
        // The lesson's seed and the ones after it: the same runs on every machine.
        None => (0..DEFAULT_EXERCISE_SEEDS)
            .map(|k| seed.wrapping_add(k))
            .collect(),
        Some(list) => {
            let mut seeds: Vec<u64> = Vec::new();
            if list.get_ref().is_empty() {
                err(list.span(), "`seeds` is empty: list the seeds Check runs, such as [1, 2, 3, 4, 5], or leave it out".into());
                ok = false;
            } else if list.get_ref().len() > MAX_EXERCISE_SEEDS {
                err(list.span(), format!("`seeds` lists {} seeds; at most {MAX_EXERCISE_SEEDS} (Check runs every one in the browser)", list.get_ref().len()));
                ok = false;
            }
            for s in list.get_ref() {
                if seeds.contains(s.get_ref()) {
                    err(s.span(), format!("seed {} is listed twice", s.get_ref()));
                    ok = false;
                }
                seeds.push(*s.get_ref());
            }
            seeds
        }
    };
    let goal_offset = raw.goal.as_ref().map_or(0, |g| g.span().start);
    ok.then_some(FrontExercise {
        goal,
        goal_offset,
        hints,
        seeds,
    })
}

/// The conditions of a `when` table, each bad one reported at its key.
pub(crate) fn conditions(
    when: Option<&RawWhen>,
    toggles: &[Toggle],
    err: &mut dyn FnMut(Range<usize>, String),
) -> Vec<Condition> {
    let mut out = Vec::new();
    for (key, value) in when.map(Spanned::get_ref).into_iter().flatten() {
        match condition(key.get_ref(), value.get_ref(), toggles) {
            Ok(cond) => out.push(cond),
            // At the value when the toggle exists (the value is what is wrong).
            Err(message) if toggles.iter().any(|t| t.name == *key.get_ref()) => {
                err(value.span(), message)
            }
            Err(message) => err(key.span(), message),
        }
    }
    out
}

/// `when = { readpast = "on" }` or `{ claim = ["two-step", "conditional"] }`.
fn condition(name: &str, value: &toml::Value, toggles: &[Toggle]) -> Result<Condition, String> {
    let values: Vec<&str> = match value {
        toml::Value::String(s) => vec![s.as_str()],
        toml::Value::Array(items) => {
            let strings: Option<Vec<&str>> = items.iter().map(toml::Value::as_str).collect();
            strings.ok_or_else(|| {
                format!("`when.{name}` lists toggle values as strings, such as \"on\"")
            })?
        }
        _ => {
            return Err(format!(
                "`when.{name}` is a toggle value as a string (\"on\") or a list of them"
            ))
        }
    };
    resolve_condition(name, values, toggles)
}

/// Parses the query `sql` of `what` (a check, property or question) as a run would,
/// so a mistake in it is found under every setting and placed in the file, not only
/// when a run reaches it.
pub(crate) fn check_query_in(
    text: &str,
    dialect: engine::Dialect,
    sql: &Spanned<String>,
    what: &str,
    err: &mut dyn FnMut(Range<usize>, String),
) {
    if let Err(e) = engine::check_query(dialect, sql.get_ref()) {
        let place = place_in_string(text, sql.span(), sql.get_ref(), e.line, e.col);
        err(place..place, format!("{what}: {}", e.message));
    }
}

/// Where line `line`, column `col` (1-based, in characters) of a TOML string's value
/// lies in the front matter `text`, the string being written at `span`: exact when it
/// is written as its value is (no escapes), else the string's start.
fn place_in_string(text: &str, span: Range<usize>, value: &str, line: u32, col: u32) -> usize {
    let Some(raw) = text.get(span.clone()) else {
        return span.start;
    };
    // A triple-quoted string drops the line break right after its opening quotes.
    let triple = raw.starts_with("\"\"\"") || raw.starts_with("'''");
    let mut start = span.start + if triple { 3 } else { 1 };
    if triple {
        let rest = &text[start.min(text.len())..];
        start += if rest.starts_with("\r\n") {
            2
        } else {
            usize::from(rest.starts_with('\n'))
        };
    }
    if !text.get(start..).is_some_and(|t| t.starts_with(value)) {
        return span.start;
    }
    let mut offset = 0;
    for (n, l) in value.split_inclusive('\n').enumerate() {
        if n + 1 == line as usize {
            let col = (col as usize).saturating_sub(1);
            offset += l.char_indices().nth(col).map_or(l.len(), |(b, _)| b);
            return start + offset;
        }
        offset += l.len();
    }
    start + offset
}

/// Why `figure` does not belong to a lesson in `dialect`; None when it does.
fn figure_outside_dialect(figure: Figure, dialect: engine::Dialect) -> Option<String> {
    use engine::Dialect::Postgres;
    match (figure, dialect) {
        // The simulator numbers every error as SQL Server would; a PostgreSQL error
        // is known by its SQLSTATE, which no number stands for.
        (Figure::ErrorNumber, Postgres) => Some(
            "`error_number` is SQL Server's and Teradata's error number; a PostgreSQL \
             error has a SQLSTATE: count errors with `errors` (the matrix and the trace \
             show the SQLSTATE), or catch it in a DO block and keep `SQLSTATE` in a table \
             for an `sql` check"
                .to_string(),
        ),
        (Figure::SharedBuffersHit, d) if d != Postgres => Some(
            "`shared_buffers_hit` is PostgreSQL's name for the figure: use `logical_reads`"
                .to_string(),
        ),
        _ => None,
    }
}

/// Which kind of check the keys describe, refusing keys of another kind.
fn check_kind(
    c: &RawCheck,
    name: &str,
    err: &mut dyn FnMut(Range<usize>, String),
) -> Option<CheckKind> {
    let sql_keys: [(&str, Option<Range<usize>>); 4] = [
        ("expect", c.expect.as_ref().map(Spanned::span)),
        ("expect_rows", c.expect_rows.as_ref().map(Spanned::span)),
        ("expect_min", c.expect_min.as_ref().map(Spanned::span)),
        ("expect_max", c.expect_max.as_ref().map(Spanned::span)),
    ];
    let figure_keys: [(&str, Option<Range<usize>>); 3] = [
        ("min", c.min.as_ref().map(Spanned::span)),
        ("max", c.max.as_ref().map(Spanned::span)),
        ("equals", c.equals.as_ref().map(Spanned::span)),
    ];
    let refuse = |keys: &[(&str, Option<Range<usize>>)],
                  kind: &str,
                  err: &mut dyn FnMut(Range<usize>, String)| {
        let mut ok = true;
        for (key, span) in keys {
            if let Some(span) = span {
                err(
                    span.clone(),
                    format!("check `{name}`: `{key}` does not belong to a {kind}"),
                );
                ok = false;
            }
        }
        ok
    };
    if let Some(figure) = &c.figure {
        let mut ok = refuse(
            &sql_keys,
            "figure check (use `min`, `max` or `equals`)",
            err,
        );
        ok &= refuse(
            &[
                ("sql", c.sql.as_ref().map(Spanned::span)),
                ("result", c.result.as_ref().map(Spanned::span)),
            ],
            "figure check",
            err,
        );
        let figure_value = *figure.get_ref();
        match (figure_value, &c.session) {
            (Figure::EndMs, Some(s)) => {
                err(
                    s.span(),
                    format!(
                        "check `{name}`: `end_ms` is a figure of the whole run; remove `session`"
                    ),
                );
                ok = false;
            }
            (Figure::ErrorNumber, None) => {
                err(
                    figure.span(),
                    format!("check `{name}`: `error_number` needs a `session`"),
                );
                ok = false;
            }
            _ => {}
        }
        let bound = figure_bound(c, name, figure.span(), err)?;
        return ok.then(|| CheckKind::Figure {
            session: c.session.as_ref().map(|s| s.get_ref().clone()),
            figure: figure_value,
            bound,
        });
    }
    let kind = if c.sql.is_some() {
        "SQL check (use `expect`, `expect_rows`, `expect_min` or `expect_max`)"
    } else {
        "result check (use `expect`, `expect_rows`, `expect_min` or `expect_max`)"
    };
    let mut ok = refuse(&figure_keys, kind, err);
    let expect = expectation(c, name, err);
    if let Some(sql) = &c.sql {
        ok &= refuse(
            &[
                ("session", c.session.as_ref().map(Spanned::span)),
                ("result", c.result.as_ref().map(Spanned::span)),
            ],
            "SQL check (it reads the final state, not a session)",
            err,
        );
        if sql.get_ref().trim().is_empty() {
            err(sql.span(), format!("check `{name}`: `sql` is empty"));
            ok = false;
        }
        let expect = expect?;
        return ok.then(|| CheckKind::Query {
            sql: sql.get_ref().clone(),
            expect,
        });
    }
    match (&c.session, &c.result) {
        (Some(session), Some(result)) => {
            if *result.get_ref() == 0 {
                err(
                    result.span(),
                    format!(
                        "check `{name}`: `result` counts from 1 (the session's first result set)"
                    ),
                );
                ok = false;
            }
            let expect = expect?;
            ok.then(|| CheckKind::Result {
                session: session.get_ref().clone(),
                result: usize::try_from(*result.get_ref()).unwrap_or(usize::MAX),
                expect,
            })
        }
        (Some(session), None) => {
            err(
                session.span(),
                format!("check `{name}`: a session check needs `figure = \"...\"` or `result = N`"),
            );
            None
        }
        (None, Some(result)) => {
            err(
                result.span(),
                format!("check `{name}`: `result` needs `session`"),
            );
            None
        }
        (None, None) => {
            err(
                c.name.span(),
                format!("check `{name}` needs `sql = \"...\"`, `figure = \"...\"`, or `session` with `result`"),
            );
            None
        }
    }
}

fn figure_bound(
    c: &RawCheck,
    name: &str,
    at: Range<usize>,
    err: &mut dyn FnMut(Range<usize>, String),
) -> Option<Bound> {
    let get = |v: &Option<Spanned<f64>>| v.as_ref().map(|s| *s.get_ref());
    let bound = Bound {
        min: get(&c.min),
        max: get(&c.max),
        equals: get(&c.equals),
    };
    match bound {
        Bound {
            equals: Some(_),
            min: None,
            max: None,
        } => Some(bound),
        Bound {
            equals: Some(_), ..
        } => {
            err(
                at,
                format!("check `{name}`: `equals` excludes `min` and `max`"),
            );
            None
        }
        Bound {
            min: None,
            max: None,
            ..
        } => {
            err(
                at,
                format!("check `{name}` needs a bound: `min`, `max` or `equals`"),
            );
            None
        }
        Bound {
            min: Some(min),
            max: Some(max),
            ..
        } if min > max => {
            let at = c.min.as_ref().map_or(at, Spanned::span);
            err(
                at,
                inverted(&format!("check `{name}`"), "min", "max", min, max),
            );
            None
        }
        _ => Some(bound),
    }
}

/// The message for a lower bound above the upper one: no number could pass.
fn inverted(what: &str, low: &str, high: &str, min: f64, max: f64) -> String {
    format!("{what}: `{low}` ({min}) is above `{high}` ({max}), so nothing can pass; swap them")
}

fn expectation(
    c: &RawCheck,
    name: &str,
    err: &mut dyn FnMut(Range<usize>, String),
) -> Option<Expectation> {
    let scalar = c.expect_min.is_some() || c.expect_max.is_some();
    let given = usize::from(c.expect.is_some())
        + usize::from(c.expect_rows.is_some())
        + usize::from(scalar);
    let at = c.sql.as_ref().map_or_else(|| c.name.span(), Spanned::span);
    if given == 0 {
        err(at, format!("check `{name}` needs an expectation: `expect`, `expect_rows`, `expect_min` or `expect_max`"));
        return None;
    }
    if given > 1 {
        err(at, format!("check `{name}` has more than one of `expect`, `expect_rows` and `expect_min`/`expect_max`"));
        return None;
    }
    if let Some(n) = &c.expect_rows {
        return Some(Expectation::RowCount(*n.get_ref()));
    }
    if scalar {
        let get = |v: &Option<Spanned<f64>>| v.as_ref().map(|s| *s.get_ref());
        if let (Some(min), Some(max)) = (get(&c.expect_min), get(&c.expect_max)) {
            if min > max {
                let at = c.expect_min.as_ref().map_or(at, Spanned::span);
                let what = format!("check `{name}`");
                err(at, inverted(&what, "expect_min", "expect_max", min, max));
                return None;
            }
        }
        return Some(Expectation::Scalar(Bound {
            min: get(&c.expect_min),
            max: get(&c.expect_max),
            equals: None,
        }));
    }
    let rows = c.expect.as_ref()?;
    let mut out = Vec::new();
    let mut ok = true;
    for row in rows.get_ref() {
        let mut cells = Vec::new();
        for cell in row {
            match expected(cell.get_ref()) {
                Some(e) => cells.push(e),
                None => {
                    err(cell.span(), format!("check `{name}`: a cell of `expect` is a number, string, boolean or \"NULL\""));
                    ok = false;
                }
            }
        }
        out.push(cells);
    }
    ok.then_some(Expectation::Rows(out))
}

fn expected(v: &toml::Value) -> Option<Expected> {
    Some(match v {
        toml::Value::String(s) if s == "NULL" => Expected::Null,
        toml::Value::String(s) => Expected::Text(s.clone()),
        toml::Value::Integer(i) => Expected::Int(*i),
        toml::Value::Float(f) => Expected::Float(*f),
        toml::Value::Boolean(b) => Expected::Bool(*b),
        toml::Value::Datetime(d) => Expected::Text(d.to_string()),
        toml::Value::Array(_) | toml::Value::Table(_) => return None,
    })
}

/// `lessons/queue-wait-or-skip.md` → `queue-wait-or-skip`.
pub(crate) fn file_stem(name: &str) -> &str {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.strip_suffix(".md").unwrap_or(base)
}

/// Scenario IDs of SCENARIOS.md: a capital letter and a number (Q3, T11, I4).
fn is_seed_id(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && s.len() > 1
        && chars.all(|c| c.is_ascii_digit())
}

/// A front matter's TOML error at its place in the file, with `hint(message)` added;
/// a list left open is named, with where its `]` belongs.
pub(crate) fn toml_error(
    source: &SourceFile,
    text: &str,
    base: usize,
    e: &toml::de::Error,
    hint: impl Fn(&str) -> String,
) -> LessonError {
    let offset = e.span().map_or(0, |s| s.start);
    let message = e.message().trim().replace('\n', "; ");
    match unclosed_list(text, offset) {
        // TOML reads on into the next line and complains there; say where the `]`
        // goes and which list lacks it.
        Some((open, end)) => {
            let (line, col) = source.position(base + open);
            source.error(
                base + end,
                format!("front matter: the list opened at {line}:{col} has no closing `]`: end it here ({message})"),
            )
        }
        None => source.error(
            base + offset,
            format!("front matter: {message}{}", hint(&message)),
        ),
    }
}

/// For a TOML error at `offset` inside a list that a later line leaves open by
/// starting a new key or table: the offset of the list's `[` and of the end of the last
/// line before that key or table that holds something, where the missing `]` belongs.
/// An error among a list's own elements (a missing comma between two values) gives
/// `None`.
fn unclosed_list(text: &str, offset: usize) -> Option<(usize, usize)> {
    let offset = offset.min(text.len());
    let error_line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    // The innermost `[` still open where the error is, outside strings and comments.
    let mut open: Vec<usize> = Vec::new();
    let mut chars = text[..offset].char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' | '\'' => {
                let mut escaped = false;
                for (_, d) in chars.by_ref() {
                    if d == c && !escaped || d == '\n' {
                        break;
                    }
                    escaped = c == '"' && d == '\\' && !escaped;
                }
            }
            '#' => {
                for (_, d) in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '[' => open.push(i),
            ']' => {
                open.pop();
            }
            _ => {}
        }
    }
    let open = *open.last()?;
    let after_open = text[open..].find('\n').map_or(text.len(), |i| open + i + 1);
    // Lines after the list's own, up to the error's: (start offset, text).
    let mut at = after_open;
    let own = text[..after_open].trim_end_matches('\n');
    let own_start = own.rfind('\n').map_or(0, |i| i + 1);
    let mut end = own_start + content_len(&own[own_start..]);
    for line in text[after_open..error_line_end.max(after_open)].split('\n') {
        let start = at;
        at += line.len() + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let is_key = trimmed.split_once('=').is_some_and(|(key, _)| {
            let key = key.trim();
            !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-.\"".contains(c))
        });
        let is_header =
            trimmed.starts_with('[') && trimmed.ends_with(']') && !trimmed.contains(',');
        if is_key || is_header {
            return Some((open, end));
        }
        end = start + content_len(line);
    }
    None
}

/// The length of a TOML line without its trailing comment and spaces.
fn content_len(line: &str) -> usize {
    let mut quote = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) => {
                if c == q && !escaped {
                    quote = None;
                }
                escaped = q == '"' && c == '\\' && !escaped;
            }
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' => return line[..i].trim_end().len(),
            None => {}
        }
    }
    line.trim_end().len()
}

/// How to write what a TOML type error wanted, for the mistakes authors make.
fn toml_hint(message: &str) -> &'static str {
    if message.contains("expected a sequence") && message.contains("invalid type: map") {
        "; a list of tables takes `[[name]]` before each item, e.g. `[[toggles]]`"
    } else if message.contains("expected a sequence") {
        // A value where a list was wanted: most often a row of `expect` without its
        // own brackets (`expect = [1, 80]`).
        "; write a list in brackets, and a list of rows as a list of lists, e.g. `expect = [[1, 80]]`"
    } else if message.contains("expected a map") {
        "; write a table, e.g. `when = { readpast = \"on\" }`"
    } else if message.contains("invalid type: string") && message.contains("expected u") {
        "; write the number without quotes"
    } else {
        ""
    }
}
