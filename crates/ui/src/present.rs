//! Presentation: turning runs, views and traces into what the panels draw (text with
//! marks, windows of rows, lane segments merged to screen resolution, before → after
//! lines). Pure functions, no DOM, tested natively. Nothing here decides what the
//! simulation does; it only arranges what the engine reported.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use engine::{Event, LaneState, Mark, MarkKind, Segment, TraceEntry};
use lesson::{value_text, ToggledRange};

use crate::run::RunSummary;
use crate::t;

/// Colour classes for sessions; the text always names the session as well.
pub const SESSION_COLOURS: usize = 8;

pub fn session_class(index: usize) -> String {
    format!("sess-{}", index % SESSION_COLOURS)
}

/// Virtual time for people, as the interface's language writes it: `0 ms`, `0.021 ms`,
/// `2,500.185 ms` (Polish `2 500,185 ms`), to the microsecond.
pub fn ms_label(us: u64) -> String {
    crate::i18n::ms(us)
}

/// `12345678` → `12,345,678` (Polish `12 345 678`, with no-break spaces).
pub fn group_digits(n: u64) -> String {
    crate::i18n::group_digits(n)
}

/// A measured figure as the interface's language writes numbers (`2,500.185`, Polish
/// `2 500,185`), to the thousandth, as check details write theirs.
pub fn figure_label(value: f64) -> String {
    if value.is_finite() && value >= 0.0 {
        let thousandths = (value * 1000.0).round() as u64;
        crate::i18n::decimal(thousandths / 1000, thousandths % 1000)
    } else {
        value.to_string()
    }
}

/// µs as a plain decimal number of ms, for `data-` attributes the tests read.
pub fn ms_number(us: u64) -> String {
    crate::route::ms_text(us)
}

// ---------------------------------------------------------------------------------------
// Code with marks

/// A piece of a code listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeItem {
    Text {
        text: String,
        /// The toggle whose marker produced this text.
        toggle: Option<String>,
        /// Sessions whose current statement covers this text.
        sessions: Vec<usize>,
    },
    /// A toggle marker whose current value has no text.
    Caret { toggle: String },
    /// Where a session's current statement starts: a tag naming the session.
    Tag { session: usize },
}

/// A statement a session is at, as a byte range of the listed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatementMark {
    pub session: usize,
    pub range: Range<usize>,
}

/// Cuts `text[window]` at every toggle range and statement boundary.
pub fn code_items(
    text: &str,
    window: Range<usize>,
    toggled: &[ToggledRange],
    statements: &[StatementMark],
) -> Vec<CodeItem> {
    let window = window.start.min(text.len())..window.end.min(text.len());
    let inside = |at: usize| window.start <= at && at <= window.end;
    let mut cuts: BTreeSet<usize> = [window.start, window.end].into();
    for r in toggled
        .iter()
        .map(|t| &t.range)
        .chain(statements.iter().map(|s| &s.range))
    {
        for at in [r.start, r.end] {
            if inside(at) && text.is_char_boundary(at) {
                cuts.insert(at);
            }
        }
    }
    let cuts: Vec<usize> = cuts.into_iter().collect();
    let mut items = Vec::new();
    for (i, &a) in cuts.iter().enumerate() {
        for t in toggled
            .iter()
            .filter(|t| t.range.is_empty() && t.range.start == a)
        {
            items.push(CodeItem::Caret {
                toggle: t.toggle.clone(),
            });
        }
        for s in statements.iter().filter(|s| s.range.start == a) {
            items.push(CodeItem::Tag { session: s.session });
        }
        let Some(&b) = cuts.get(i + 1) else { break };
        let toggle = toggled
            .iter()
            .find(|t| t.range.start <= a && b <= t.range.end && !t.range.is_empty())
            .map(|t| t.toggle.clone());
        let sessions = statements
            .iter()
            .filter(|s| s.range.start <= a && b <= s.range.end)
            .map(|s| s.session)
            .collect();
        items.push(CodeItem::Text {
            text: text[a..b].to_string(),
            toggle,
            sessions,
        });
    }
    items
}

/// The lines around `span` (with `context` lines either side) as a byte range, and the
/// 1-based number of its first line.
pub fn snippet(text: &str, span: Range<usize>, context: usize) -> (Range<usize>, usize) {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| i <= text.len())
        .collect();
    let line_of = |at: usize| starts.partition_point(|&s| s <= at).saturating_sub(1);
    let first = line_of(span.start.min(text.len())).saturating_sub(context);
    let last = (line_of(span.end.saturating_sub(1).max(span.start).min(text.len())) + context)
        .min(starts.len() - 1);
    let end = starts
        .get(last + 1)
        .map_or(text.len(), |&s| s.saturating_sub(1));
    (starts[first]..end.max(starts[first]), first + 1)
}

/// Whether `title` already starts with `word` and a colon ("Exercise: fix …"), so a
/// chip saying `word` beside it would say it twice.
pub fn title_says(title: &str, word: &str) -> bool {
    title
        .strip_prefix(word)
        .is_some_and(|rest| rest.starts_with(':') || rest.starts_with('：'))
}

/// The part of a toggle's help about `chosen`, where the help describes each value in
/// turn (`two-step: … conditional: …`); all of it otherwise. A value's part starts at
/// `value: ` (at the start, or after a sentence) and runs to the next value's.
pub fn value_help<'a>(help: &'a str, values: &[String], chosen: &str) -> &'a str {
    let starts = |v: &str| -> Option<usize> {
        let marker = format!("{v}: ");
        help.match_indices(&marker)
            .map(|(i, _)| i)
            .find(|&i| i == 0 || help[..i].ends_with(". ") || help[..i].ends_with("; "))
    };
    let Some(from) = starts(chosen) else {
        return help;
    };
    let to = values
        .iter()
        .filter(|v| v.as_str() != chosen)
        .filter_map(|v| starts(v))
        .filter(|&i| i > from)
        .min()
        .unwrap_or(help.len());
    help[from..to].trim_end()
}

/// The indentation (spaces) that every non-blank line of `text[window]` shares.
pub fn common_indent(text: &str, window: Range<usize>) -> usize {
    text.get(window)
        .unwrap_or("")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .min()
        .unwrap_or(0)
}

/// Takes up to `n` leading spaces off every line of the items' text, so a statement
/// deep inside a procedure starts at the left edge of a narrow panel. A tag (which
/// sits after the indentation, where its statement starts) ends a line's indentation.
pub fn dedent(items: Vec<CodeItem>, n: usize) -> Vec<CodeItem> {
    if n == 0 {
        return items;
    }
    // Spaces still to take off the current line (None: past its indentation).
    let mut left = Some(n);
    items
        .into_iter()
        .map(|item| match item {
            CodeItem::Text {
                text,
                toggle,
                sessions,
            } => {
                let mut out = String::with_capacity(text.len());
                for c in text.chars() {
                    match (c, left) {
                        ('\n', _) => left = Some(n),
                        (' ', Some(k)) if k > 0 => {
                            left = Some(k - 1);
                            continue;
                        }
                        _ => left = None,
                    }
                    out.push(c);
                }
                CodeItem::Text {
                    text: out,
                    toggle,
                    sessions,
                }
            }
            other => {
                left = None;
                other
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// What one step did to the tables

/// Rows a step changed, inserted or skipped, read from its trace events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepMarks {
    /// (table, key) → changed columns.
    pub changed: BTreeMap<(String, String), Vec<String>>,
    pub inserted: BTreeSet<(String, String)>,
    /// (table, key) → "worker1 skipped it: worker2 holds X".
    pub skipped: BTreeMap<(String, String), Vec<String>>,
    /// A deadlock in this step: (victim, cycle).
    pub deadlock: Option<(String, Vec<String>)>,
}

impl StepMarks {
    pub fn of(events: &[TraceEntry]) -> StepMarks {
        let mut marks = StepMarks::default();
        for entry in events {
            match &entry.event {
                Event::RowUpdated {
                    table,
                    key,
                    changes,
                    ..
                } => {
                    let cols = marks
                        .changed
                        .entry((table.to_string(), key.clone()))
                        .or_default();
                    cols.extend(changes.iter().map(|(c, _, _)| c.clone()));
                }
                Event::RowInserted { table, key, .. } => {
                    marks.inserted.insert((table.to_string(), key.clone()));
                }
                Event::RowSkipped {
                    session,
                    table,
                    key,
                    holder,
                    held,
                    wanted,
                    clause,
                    held_name,
                    wanted_name,
                } => {
                    marks
                        .skipped
                        .entry((table.to_string(), key.clone()))
                        .or_default()
                        .push(t!(
                            "row-skipped",
                            session = session.to_string(),
                            clause = clause.to_string(),
                            holder = holder.to_string(),
                            held = held_name.map_or_else(|| held.to_string(), str::to_string),
                            wanted = wanted_name.map_or_else(|| wanted.to_string(), str::to_string)
                        ));
                }
                Event::Deadlock { victim, cycle } => {
                    marks.deadlock = Some((victim.clone(), cycle.clone()))
                }
                _ => {}
            }
        }
        marks
    }

    pub fn touches(&self, table: &str, key: &str) -> bool {
        let k = (table.to_string(), key.to_string());
        self.changed.contains_key(&k) || self.inserted.contains(&k) || self.skipped.contains_key(&k)
    }
}

/// A row change from the trace, for tables too big to show the changed row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecentChange {
    pub table: String,
    pub key: String,
    pub at_us: u64,
    /// The event's own line (`A updates task (20017): status 'new' -> ...`).
    pub text: String,
}

/// Rows per table that the tables keep in view as recently changed.
pub const RECENT_PER_TABLE: usize = 3;
/// How many events back the tables look for them.
pub const RECENT_LOOK_BACK: usize = 5000;

/// The latest change of each row, newest first, at most `per_table` rows per table,
/// looking back at most `look_back` events from the end of `events`.
pub fn recent_changes(
    events: &[TraceEntry],
    per_table: usize,
    look_back: usize,
) -> Vec<RecentChange> {
    let mut out: Vec<RecentChange> = Vec::new();
    for entry in events.iter().rev().take(look_back) {
        let (table, key) = match &entry.event {
            Event::RowUpdated { table, key, .. }
            | Event::RowInserted { table, key, .. }
            | Event::RowDeleted { table, key, .. } => (table, key),
            _ => continue,
        };
        let seen = out.iter().filter(|c| *c.table == **table).count();
        if seen >= per_table || out.iter().any(|c| *c.table == **table && c.key == *key) {
            continue;
        }
        out.push(RecentChange {
            table: table.to_string(),
            key: key.clone(),
            at_us: entry.at_us,
            text: crate::i18n::event_line(&entry.event),
        });
    }
    out
}

/// A window of a table's rows: a row by index, or rows not shown (counted when the
/// keys tell how many).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowSlot {
    Row(usize),
    Gap(Option<usize>),
}

/// Which of a view's rows to show: every focus row (locked, changed, skipped), its
/// neighbours, then the first rows, up to about `limit`, in key order. `keys` are the
/// view's rows (a window the engine chose) and `total` the table's size; gaps between
/// integer keys are counted, the rest of the table is the last gap.
pub fn row_window(keys: &[String], total: usize, focus: &[usize], limit: usize) -> Vec<RowSlot> {
    let n = keys.len();
    let int = |i: usize| keys[i].parse::<i64>().ok();
    let mut chosen: BTreeSet<usize> = focus.iter().copied().filter(|&i| i < n).collect();
    // A neighbour in the view is a neighbour in the table unless integer keys say that
    // rows lie between (the engine's window holds a far focus row without its own).
    let adjacent = |a: usize, b: usize| match (int(a), int(b)) {
        (Some(x), Some(y)) => x.abs_diff(y) == 1,
        _ => true,
    };
    let around: Vec<usize> = chosen
        .iter()
        .flat_map(|&i| [(i, i.wrapping_sub(1)), (i, i + 1)])
        .filter(|&(i, j)| j < n && adjacent(i, j))
        .map(|(_, j)| j)
        .collect();
    for i in around.into_iter().chain(0..n) {
        if chosen.len() >= limit.max(focus.len()) {
            break;
        }
        chosen.insert(i);
    }
    let mut slots = Vec::new();
    let mut hidden_counted = 0usize;
    let mut prev: Option<usize> = None;
    for i in chosen.iter().copied() {
        let skipped_in_view = match prev {
            Some(p) => i - p - 1,
            None => i,
        };
        let by_keys = match (prev.and_then(int), int(i)) {
            (Some(a), Some(b)) if b > a + 1 => Some((b - a - 1) as usize),
            (Some(_), Some(_)) => Some(0),
            _ => None,
        };
        let gap = match (by_keys, skipped_in_view) {
            (Some(k), s) => Some(k.max(s)),
            (None, 0) => Some(0),
            (None, s) if prev.is_none() => Some(s),
            (None, _) => None,
        };
        match gap {
            Some(0) => {}
            Some(k) => {
                hidden_counted += k;
                slots.push(RowSlot::Gap(Some(k)));
            }
            None => slots.push(RowSlot::Gap(None)),
        }
        slots.push(RowSlot::Row(i));
        prev = Some(i);
    }
    let shown = chosen.len();
    let rest = total.saturating_sub(shown + hidden_counted);
    if rest > 0 {
        slots.push(RowSlot::Gap(Some(rest)));
    }
    slots
}

/// What a reader narrows a big table to: text in the key or a cell, a session (rows it
/// locks, changed and has not committed, or names in a cell), rows locked now, rows
/// marked as anomalies (row keys handed in by whoever finds them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableFilter {
    pub search: String,
    pub session: Option<String>,
    pub locked: bool,
    pub anomalies: bool,
}

impl TableFilter {
    pub fn active(&self) -> bool {
        !self.search.trim().is_empty() || self.session.is_some() || self.locked || self.anomalies
    }
}

/// The rows of `t` that `filter` keeps, as indexes in key order. `highlighted` holds
/// `(table, key)` pairs of rows with anomalies.
pub fn filter_rows(
    t: &engine::TableView,
    filter: &TableFilter,
    highlighted: &BTreeSet<(String, String)>,
) -> Vec<usize> {
    let needle = filter.search.trim().to_lowercase();
    (0..t.rows.len())
        .filter(|&i| {
            let row = &t.rows[i];
            let cells = || row.values.iter().map(|v| value_text(v).to_lowercase());
            let text_ok = needle.is_empty()
                || row.key.to_lowercase() == needle
                || row.key.to_lowercase().contains(&needle)
                || cells().any(|c| c.contains(&needle));
            let session_ok = filter.session.as_ref().is_none_or(|s| {
                let low = s.to_lowercase();
                row.locks.iter().any(|b| b.session == *s)
                    || row.uncommitted_by.as_deref() == Some(s)
                    || cells().any(|c| c == low)
            });
            let locked_ok = !filter.locked || !row.locks.is_empty();
            let anomaly_ok =
                !filter.anomalies || highlighted.contains(&(t.name.clone(), row.key.clone()));
            text_ok && session_ok && locked_ok && anomaly_ok
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Timeline lanes at screen resolution

#[derive(Clone, Debug, PartialEq)]
pub enum SegKind {
    Running,
    Waiting {
        resource: String,
        holders: Vec<String>,
    },
    Sleeping,
    /// Teradata: a consume waiting for a row of an empty queue table.
    Delayed {
        table: String,
    },
    /// Many stretches too short to draw one by one.
    Mixed {
        running_us: u64,
        waiting_us: u64,
        sleeping_us: u64,
        waits: usize,
        count: usize,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct DisplaySeg {
    pub from_us: u64,
    pub to_us: u64,
    pub kind: SegKind,
    /// The statement this stretch belongs to (an index into the lane's
    /// [`StatementStart`]s), when the window is narrow enough to tell statements apart.
    pub statement: Option<usize>,
}

impl DisplaySeg {
    /// `running`, `waiting`, `sleeping`, or for a mix the state that took most time.
    pub fn state_name(&self) -> &'static str {
        match &self.kind {
            SegKind::Running => "running",
            SegKind::Waiting { .. } => "waiting",
            SegKind::Sleeping => "sleeping",
            SegKind::Delayed { .. } => "delayed",
            SegKind::Mixed { .. } => "mixed",
        }
    }

    pub fn dominant(&self) -> &'static str {
        match &self.kind {
            SegKind::Mixed {
                running_us,
                waiting_us,
                sleeping_us,
                ..
            } => {
                if waiting_us >= running_us && waiting_us >= sleeping_us {
                    "waiting"
                } else if sleeping_us >= running_us {
                    "sleeping"
                } else {
                    "running"
                }
            }
            _ => self.state_name(),
        }
    }

    /// One sentence for a title and screen readers.
    pub fn describe(&self, session: &str) -> String {
        let span = t!(
            "overview-value",
            from = ms_label(self.from_us),
            to = ms_label(self.to_us)
        );
        match &self.kind {
            SegKind::Running => t!("seg-runs", session = session, span = span),
            SegKind::Sleeping => t!("seg-sleeps", session = session, span = span),
            SegKind::Delayed { table } => {
                t!(
                    "seg-delayed",
                    session = session,
                    span = span,
                    table = table.to_string()
                )
            }
            SegKind::Waiting { resource, holders } => {
                let whom = if holders.is_empty() {
                    t!("code-earlier-waiters")
                } else {
                    holders.join(", ")
                };
                t!(
                    "seg-waits",
                    session = session,
                    whom = whom,
                    span = span,
                    resource = crate::i18n::resource_words(resource)
                )
            }
            SegKind::Mixed {
                running_us,
                waiting_us,
                sleeping_us,
                waits,
                count,
            } => t!(
                "seg-mixed",
                session = session,
                span = span,
                count = *count,
                running = ms_label(*running_us),
                sleeping = ms_label(*sleeping_us),
                waiting = ms_label(*waiting_us),
                waits = *waits
            ),
        }
    }
}

fn seg_kind(state: &LaneState) -> SegKind {
    match state {
        LaneState::Running => SegKind::Running,
        LaneState::Waiting { resource, holders } => SegKind::Waiting {
            resource: resource.clone(),
            holders: holders.clone(),
        },
        LaneState::Sleeping => SegKind::Sleeping,
        LaneState::Delayed { table } => SegKind::Delayed {
            table: table.clone(),
        },
    }
}

/// Merges a lane's segments so that none is shorter than `min_us` (a pixel or so):
/// equal neighbours join, and runs of short stretches become one `Mixed` segment.
pub fn display_segments(segments: &[Segment], min_us: u64) -> Vec<DisplaySeg> {
    merge_pieces(segments.iter().map(|s| (s.clone(), None)), min_us)
}

/// Where a statement starts on a session's lane: its time, the trace index of its
/// `StatementStarted`, its kind (`UPDATE`) and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatementStart {
    pub at_us: u64,
    pub event: usize,
    pub label: &'static str,
    pub line: u32,
}

/// Per session (in `sessions` order), the statements it started, in time order.
pub fn statement_starts(trace: &[TraceEntry], sessions: &[String]) -> Vec<Vec<StatementStart>> {
    let mut out = vec![Vec::new(); sessions.len()];
    for (event, entry) in trace.iter().enumerate() {
        if let Event::StatementStarted {
            session,
            label,
            line,
            ..
        } = &entry.event
        {
            if let Some(k) = sessions.iter().position(|s| **s == **session) {
                out[k].push(StatementStart {
                    at_us: entry.at_us,
                    event,
                    label,
                    line: *line,
                });
            }
        }
    }
    out
}

/// A lane's segments inside `from_us..to_us`, clipped to it, cut where each statement
/// starts and merged at `min_us` (a pixel or so of the window): zoomed in, every
/// statement long enough to draw is its own segment; zoomed out, they merge as in
/// [`display_segments`]. Only the window is arranged, so a deep zoom into a long run
/// costs what the screen shows.
pub fn window_segments(
    segments: &[Segment],
    starts: &[StatementStart],
    from_us: u64,
    to_us: u64,
    min_us: u64,
) -> Vec<DisplaySeg> {
    // Segments are in time order: skip to the first that reaches the window.
    let first = segments.partition_point(|s| s.to_us < from_us);
    let mut pieces: Vec<(Segment, Option<usize>)> = Vec::new();
    for seg in segments[first..].iter().take_while(|s| s.from_us <= to_us) {
        let (a, b) = (seg.from_us.max(from_us), seg.to_us.min(to_us));
        if b < a || (b == a && seg.to_us > seg.from_us) {
            continue;
        }
        // The statement running at `a`, then each one that starts inside the piece.
        let mut at = a;
        let mut k = starts.partition_point(|s| s.at_us <= a).checked_sub(1);
        for (j, start) in starts
            .iter()
            .enumerate()
            .skip(starts.partition_point(|s| s.at_us <= a))
            .take_while(|(_, s)| s.at_us < b)
        {
            if start.at_us > at {
                pieces.push((piece(seg, at, start.at_us), k));
                at = start.at_us;
            }
            k = Some(j);
        }
        pieces.push((piece(seg, at, b), k));
    }
    merge_pieces(pieces.into_iter(), min_us)
}

fn piece(seg: &Segment, from_us: u64, to_us: u64) -> Segment {
    Segment {
        from_us,
        to_us,
        state: seg.state.clone(),
    }
}

fn merge_pieces(
    pieces: impl Iterator<Item = (Segment, Option<usize>)>,
    min_us: u64,
) -> Vec<DisplaySeg> {
    let mut out: Vec<DisplaySeg> = Vec::new();
    let mut mixed: Option<DisplaySeg> = None;
    let flush = |out: &mut Vec<DisplaySeg>, mixed: &mut Option<DisplaySeg>| {
        if let Some(m) = mixed.take() {
            out.push(m);
        }
    };
    for (seg, statement) in pieces {
        let kind = seg_kind(&seg.state);
        let long = seg.to_us.saturating_sub(seg.from_us) >= min_us;
        if long {
            flush(&mut out, &mut mixed);
            match out.last_mut() {
                Some(last)
                    if last.kind == kind
                        && last.to_us == seg.from_us
                        && last.statement == statement =>
                {
                    last.to_us = seg.to_us
                }
                _ => out.push(DisplaySeg {
                    from_us: seg.from_us,
                    to_us: seg.to_us,
                    kind,
                    statement,
                }),
            }
            continue;
        }
        let d = seg.to_us.saturating_sub(seg.from_us);
        let m = mixed.get_or_insert(DisplaySeg {
            from_us: seg.from_us,
            to_us: seg.to_us,
            kind: SegKind::Mixed {
                running_us: 0,
                waiting_us: 0,
                sleeping_us: 0,
                waits: 0,
                count: 0,
            },
            statement: None,
        });
        m.to_us = seg.to_us;
        if let SegKind::Mixed {
            running_us,
            waiting_us,
            sleeping_us,
            waits,
            count,
        } = &mut m.kind
        {
            *count += 1;
            match seg.state {
                LaneState::Running => *running_us += d,
                LaneState::Waiting { .. } => {
                    *waiting_us += d;
                    *waits += 1;
                }
                // Delayed (a Teradata consume on an empty queue) waits for data.
                LaneState::Delayed { .. } => *waiting_us += d,
                LaneState::Sleeping => *sleeping_us += d,
            }
        }
        if m.to_us - m.from_us >= min_us {
            flush(&mut out, &mut mixed);
        }
    }
    flush(&mut out, &mut mixed);
    out
}

#[derive(Clone, Debug, PartialEq)]
pub struct DisplayMark {
    pub at_us: u64,
    /// Trace index of the first mark of the cluster (clicking goes there).
    pub event: usize,
    pub kind: MarkKind,
    pub count: usize,
}

impl DisplayMark {
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            MarkKind::Error { .. } => "error",
            MarkKind::Skipped => "skipped",
            MarkKind::Deadlock => "deadlock",
            MarkKind::Result => "result",
            MarkKind::Committed => "commit",
            MarkKind::RolledBack => "rollback",
            MarkKind::ExternalCall => "external-call",
        }
    }

    /// A short visible label: `✕ 650`, `⤼`, `✓`.
    pub fn symbol(&self) -> String {
        match self.kind {
            MarkKind::Error { number, sqlstate } => {
                if number == engine::UNNUMBERED && sqlstate.is_none() {
                    "✕".into()
                } else {
                    format!("✕{}", engine::error_code(number, sqlstate))
                }
            }
            MarkKind::Skipped => "⤼".into(),
            MarkKind::Deadlock => "☠".into(),
            MarkKind::Result => "◆".into(),
            MarkKind::Committed => "✓".into(),
            MarkKind::RolledBack => "↺".into(),
            MarkKind::ExternalCall => "☎".into(),
        }
    }

    pub fn describe(&self, session: &str) -> String {
        let what = match self.kind {
            MarkKind::Error { number, sqlstate } => {
                t!(
                    "mark-error",
                    number = crate::i18n::error_code(number, sqlstate)
                )
            }
            MarkKind::Skipped => t!("mark-skipped"),
            MarkKind::Deadlock => t!("mark-deadlock"),
            MarkKind::Result => t!("mark-result"),
            MarkKind::Committed => t!("mark-commit"),
            MarkKind::RolledBack => t!("mark-rollback"),
            MarkKind::ExternalCall => t!("mark-call"),
        };
        if self.count > 1 {
            t!(
                "mark-times",
                session = session,
                what = what,
                count = self.count,
                time = ms_label(self.at_us)
            )
        } else {
            t!(
                "mark-at",
                session = session,
                what = what,
                time = ms_label(self.at_us)
            )
        }
    }
}

/// Marks of one kind closer than `min_us` become one mark with a count. Commits are
/// left out of crowded lanes (`keep_commits` false): errors and skips matter more.
pub fn display_marks(marks: &[Mark], min_us: u64, keep_commits: bool) -> Vec<DisplayMark> {
    let mut out: Vec<DisplayMark> = Vec::new();
    for m in marks {
        if !keep_commits && m.kind == MarkKind::Committed {
            continue;
        }
        let same = out
            .iter_mut()
            .rev()
            .find(|d| std::mem::discriminant(&d.kind) == std::mem::discriminant(&m.kind));
        match same {
            Some(d) if d.kind == m.kind && m.at_us.saturating_sub(d.at_us) < min_us => d.count += 1,
            _ => out.push(DisplayMark {
                at_us: m.at_us,
                event: m.event,
                kind: m.kind.clone(),
                count: 1,
            }),
        }
    }
    out
}

/// A tick's label: whole seconds as `2 s` when the ticks are whole seconds apart.
pub fn tick_label(us: u64, step_us: u64) -> String {
    if step_us >= 1_000_000 && step_us % 1_000_000 == 0 {
        format!("{} s", us / 1_000_000)
    } else {
        ms_label(us)
    }
}

/// Round tick positions (µs) inside `from_us..=to_us`, about `want` of them, and the
/// step between them.
pub fn ticks_in(from_us: u64, to_us: u64, want: u64) -> (Vec<u64>, u64) {
    let span = to_us.saturating_sub(from_us);
    if span == 0 {
        return (vec![from_us], 1);
    }
    let raw = (span / want.max(1)).max(1);
    let mut step = 1u64;
    while step * 10 <= raw {
        step *= 10;
    }
    for m in [1, 2, 5, 10] {
        if step * m >= raw {
            step *= m;
            break;
        }
    }
    let first = from_us.div_ceil(step);
    ((first..=to_us / step).map(|i| i * step).collect(), step)
}

/// Round tick positions (µs) for an axis from 0 to `end_us`, about `want` of them.
pub fn ticks(end_us: u64, want: u64) -> Vec<u64> {
    if end_us == 0 {
        return vec![0];
    }
    let raw = (end_us / want.max(1)).max(1);
    let mut step = 1u64;
    while step * 10 <= raw {
        step *= 10;
    }
    for m in [1, 2, 5, 10] {
        if step * m >= raw {
            step *= m;
            break;
        }
    }
    (0..=end_us / step).map(|i| i * step).collect()
}

// ---------------------------------------------------------------------------------------
// Before → after

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub what: String,
    pub before: String,
    pub after: String,
}

/// What changed between two runs of a lesson: settings, each session's wait, delay,
/// running time, errors, results and reads, the end time, and checks that exist in
/// both.
pub fn changes(before: &RunSummary, after: &RunSummary) -> Vec<Change> {
    let mut out = Vec::new();
    let mut push = |what: String, b: String, a: String| {
        if b != a {
            out.push(Change {
                what,
                before: b,
                after: a,
            });
        }
    };
    for (name, value) in after.key.settings.iter() {
        let old = before.key.settings.get(name).unwrap_or("—");
        push(
            t!(
                "change-toggle",
                label = crate::catalog::toggle_label(&after.key.lesson_id, name)
            ),
            old.to_string(),
            value.to_string(),
        );
    }
    if before.key.seed != after.key.seed {
        push(
            t!("change-seed"),
            before.key.seed.to_string(),
            after.key.seed.to_string(),
        );
    }
    for s in &after.outcome.sessions {
        let Some(old) = before.outcome.sessions.iter().find(|o| o.name == s.name) else {
            push(
                t!("change-runs", session = &s.name),
                t!("change-no"),
                t!("change-yes"),
            );
            continue;
        };
        push(
            t!("change-waited", session = &s.name),
            ms_label(old.wait_us),
            ms_label(s.wait_us),
        );
        push(
            t!("change-delayed", session = &s.name),
            ms_label(old.delayed_us),
            ms_label(s.delayed_us),
        );
        push(
            t!("change-ran", session = &s.name),
            ms_label(old.elapsed_us),
            ms_label(s.elapsed_us),
        );
        push(
            t!("change-errors", session = &s.name),
            errors_text(&old.errors),
            errors_text(&s.errors),
        );
        push(
            t!("change-got", session = &s.name),
            results_text(&old.results),
            results_text(&s.results),
        );
        push(
            t!(
                "change-reads",
                session = &s.name,
                reads = reads_label(after.reads_name)
            ),
            old.logical_reads.to_string(),
            s.logical_reads.to_string(),
        );
    }
    for old in &before.outcome.sessions {
        if !after.outcome.sessions.iter().any(|s| s.name == old.name) {
            push(
                t!("change-runs", session = &old.name),
                t!("change-yes"),
                t!("change-no"),
            );
        }
    }
    push(
        t!("change-end"),
        ms_label(before.end_us),
        ms_label(after.end_us),
    );
    push(
        t!("change-anomalies"),
        before.anomalies.to_string(),
        after.anomalies.to_string(),
    );
    for c in &after.checks {
        if let Some(old) = before.checks.iter().find(|o| o.name == c.name) {
            let verdict = |p: bool| {
                if p {
                    t!("change-passed")
                } else {
                    t!("change-failed")
                }
            };
            let name = crate::catalog::catalog().check_name_in(
                &after.key.lesson_id,
                &c.name,
                crate::i18n::lang().as_str(),
            );
            push(
                t!("change-check", name = name),
                verdict(old.passed),
                verdict(c.passed),
            );
        }
    }
    out
}

pub use crate::i18n::reads_label;

pub fn errors_text(errors: &[engine::SqlErrorInfo]) -> String {
    if errors.is_empty() {
        t!("change-none")
    } else {
        errors
            .iter()
            .map(|e| crate::i18n::error_code(e.number, e.sqlstate))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The first row of each result set: `2, task 2, 3, B`.
pub fn results_text(results: &[engine::ResultSet]) -> String {
    if results.is_empty() {
        return t!("change-no-result");
    }
    results
        .iter()
        .map(|r| match r.rows.first() {
            Some(row) => row.iter().map(value_text).collect::<Vec<_>>().join(", "),
            None => t!("table-no-rows"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_without_a_number_is_named_in_the_pages_language() {
        let error = |number, sqlstate| engine::SqlErrorInfo {
            number,
            severity: 0,
            state: 0,
            message: String::new(),
            caught: false,
            sqlstate,
            at: None,
        };
        let errors = [error(engine::UNNUMBERED, None), error(0, Some("40001"))];
        crate::i18n::set_lang(crate::i18n::Lang::Pl);
        assert_eq!(errors_text(&errors), "(bez numeru), 40001");
        crate::i18n::set_lang(crate::i18n::Lang::En);
        assert_eq!(errors_text(&errors), "(no number), 40001");
    }

    #[test]
    fn ms_labels() {
        assert_eq!(ms_label(0), "0 ms");
        assert_eq!(ms_label(21), "0.021 ms");
        assert_eq!(ms_label(2_500_185), "2,500.185 ms");
        assert_eq!(ms_label(4_000_000), "4,000 ms");
        assert_eq!(ms_label(1_234_567_890), "1,234,567.89 ms");
    }

    fn tr(toggle: &str, range: Range<usize>) -> ToggledRange {
        ToggledRange {
            toggle: toggle.into(),
            range,
        }
    }

    #[test]
    fn code_is_cut_at_toggles_and_statements() {
        let text = "SELECT a FROM t WITH (UPDLOCK, ROWLOCK);";
        let toggled = [tr("readpast", 31..31)];
        let statements = [StatementMark {
            session: 1,
            range: 0..text.len(),
        }];
        let items = code_items(text, 0..text.len(), &toggled, &statements);
        assert_eq!(
            items,
            [
                CodeItem::Tag { session: 1 },
                CodeItem::Text {
                    text: "SELECT a FROM t WITH (UPDLOCK, ".into(),
                    toggle: None,
                    sessions: vec![1]
                },
                CodeItem::Caret {
                    toggle: "readpast".into()
                },
                CodeItem::Text {
                    text: "ROWLOCK);".into(),
                    toggle: None,
                    sessions: vec![1]
                },
            ]
        );
        let items = code_items("ab", 0..2, &[tr("x", 1..2)], &[]);
        assert_eq!(
            items,
            [
                CodeItem::Text {
                    text: "a".into(),
                    toggle: None,
                    sessions: vec![]
                },
                CodeItem::Text {
                    text: "b".into(),
                    toggle: Some("x".into()),
                    sessions: vec![]
                },
            ]
        );
    }

    #[test]
    fn snippets_take_whole_lines() {
        let text = "l1\nl2\nl3 stmt\nl4\nl5\n";
        let at = text.find("stmt").unwrap();
        let (range, first) = snippet(text, at..at + 4, 1);
        assert_eq!(&text[range], "l2\nl3 stmt\nl4");
        assert_eq!(first, 2);
        let (range, first) = snippet(text, 0..2, 0);
        assert_eq!((&text[range], first), ("l1", 1));
    }

    fn keys(range: std::ops::Range<i64>) -> Vec<String> {
        range.map(|k| k.to_string()).collect()
    }

    #[test]
    fn row_windows_keep_focus_and_count_gaps() {
        assert_eq!(
            row_window(&keys(1..4), 3, &[], 5),
            [RowSlot::Row(0), RowSlot::Row(1), RowSlot::Row(2)]
        );
        // A view of 100 rows; focus on the 51st.
        let slots = row_window(&keys(1..101), 100, &[50], 6);
        use RowSlot::*;
        assert_eq!(
            slots,
            [
                Row(0),
                Row(1),
                Row(2),
                Gap(Some(46)),
                Row(49),
                Row(50),
                Row(51),
                Gap(Some(48))
            ]
        );
        // The engine's window: keys 1-3 and the locked 228 of a 500-row table.
        let view: Vec<String> = ["1", "2", "3", "228"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            row_window(&view, 500, &[3], 10),
            [
                Row(0),
                Row(1),
                Row(2),
                Gap(Some(224)),
                Row(3),
                Gap(Some(272))
            ]
        );
        // A far row's neighbour in the view (12) is not its neighbour in the table.
        let view: Vec<String> = (1..=12)
            .map(|k| k.to_string())
            .chain(["20003".to_string()])
            .collect();
        assert_eq!(
            row_window(&view, 20_040, &[12], 4),
            [
                Row(0),
                Row(1),
                Row(2),
                Gap(Some(19_999)),
                Row(12),
                Gap(Some(37))
            ]
        );
        // Text keys: gaps within the view are counted, the rest is the last gap.
        let view: Vec<String> = ["a", "b", "q"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            row_window(&view, 9, &[2], 2),
            [Gap(Some(1)), Row(1), Row(2), Gap(Some(6))]
        );
        // Focus always shows, even past the limit.
        let many: Vec<usize> = (10..30).collect();
        let shown = row_window(&keys(1..101), 100, &many, 5)
            .iter()
            .filter(|s| matches!(s, Row(_)))
            .count();
        assert_eq!(shown, 20);
    }

    #[test]
    fn big_tables_filter_by_text_session_locks_and_anomalies() {
        use engine::{LockBadge, RowView, TableView, Value};
        let row = |key: &str, who: &str, locked_by: Option<&str>| RowView {
            key: key.into(),
            values: vec![Value::Int(key.parse().unwrap()), Value::Text(who.into())],
            locks: locked_by
                .map(|s| {
                    vec![LockBadge {
                        session: s.into(),
                        mode: engine::locks::LockMode::X,
                    }]
                })
                .unwrap_or_default(),
            uncommitted_by: None,
        };
        let t = TableView {
            name: "claim".into(),
            columns: vec!["task_id".into(), "process".into()],
            rows: vec![
                row("1", "worker1", None),
                row("2", "worker2", Some("worker2")),
                row("17", "worker1", None),
                row("117", "worker2", None),
            ],
            total_rows: 4,
            table_locks: vec![],
        };
        let none = BTreeSet::new();
        let keep = |f: TableFilter, h: &BTreeSet<(String, String)>| filter_rows(&t, &f, h);
        assert!(!TableFilter::default().active());
        assert_eq!(keep(TableFilter::default(), &none), [0, 1, 2, 3]);
        let search = |s: &str| TableFilter {
            search: s.into(),
            ..TableFilter::default()
        };
        assert_eq!(keep(search("17"), &none), [2, 3]);
        assert_eq!(keep(search(" WORKER2 "), &none), [1, 3]);
        let by = TableFilter {
            session: Some("worker1".into()),
            ..TableFilter::default()
        };
        assert_eq!(keep(by, &none), [0, 2]);
        let locked = TableFilter {
            locked: true,
            ..TableFilter::default()
        };
        assert_eq!(keep(locked, &none), [1]);
        let anomalies = TableFilter {
            anomalies: true,
            ..TableFilter::default()
        };
        assert_eq!(keep(anomalies.clone(), &none), Vec::<usize>::new());
        let marked: BTreeSet<(String, String)> = [("claim".to_string(), "117".to_string())].into();
        assert_eq!(keep(anomalies, &marked), [3]);
    }

    fn seg(from: u64, to: u64, state: LaneState) -> Segment {
        Segment {
            from_us: from,
            to_us: to,
            state,
        }
    }

    #[test]
    fn lanes_merge_short_stretches() {
        let wait = LaneState::Waiting {
            resource: "KEY task (1)".into(),
            holders: vec!["A".into()],
        };
        let segs = [
            seg(0, 100, LaneState::Running),
            seg(100, 200, LaneState::Running),
            seg(200, 205, LaneState::Running),
            seg(205, 210, LaneState::Sleeping),
            seg(210, 400, wait.clone()),
        ];
        let out = display_segments(&segs, 50);
        assert_eq!(out.len(), 3, "{out:?}");
        assert_eq!(
            (out[0].from_us, out[0].to_us, out[0].state_name()),
            (0, 200, "running")
        );
        assert_eq!(out[1].state_name(), "mixed");
        assert_eq!(
            out[2].describe("B"),
            "B waits for A from 0.21 ms to 0.4 ms, for a lock on KEY task (1)"
        );
    }

    fn start(at_us: u64, label: &'static str) -> StatementStart {
        StatementStart {
            at_us,
            event: at_us as usize,
            label,
            line: 1,
        }
    }

    /// Zoomed in, one running stretch shows as one segment per statement; zoomed out,
    /// the same stretch merges; only the window is arranged.
    #[test]
    fn windows_cut_lanes_at_statements() {
        let segs = [
            seg(0, 300, LaneState::Running),
            seg(300, 1300, LaneState::Sleeping),
            seg(1300, 1400, LaneState::Running),
        ];
        let starts = [
            start(0, "SET"),
            start(10, "SELECT"),
            start(200, "WAITFOR"),
            start(1300, "UPDATE"),
        ];
        let out = window_segments(&segs, &starts, 0, 1400, 5);
        let shown: Vec<(u64, u64, &str, Option<&str>)> = out
            .iter()
            .map(|d| {
                (
                    d.from_us,
                    d.to_us,
                    d.state_name(),
                    d.statement.map(|i| starts[i].label),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                (0, 10, "running", Some("SET")),
                (10, 200, "running", Some("SELECT")),
                (200, 300, "running", Some("WAITFOR")),
                (300, 1300, "sleeping", Some("WAITFOR")),
                (1300, 1400, "running", Some("UPDATE")),
            ]
        );
        // Coarse: the 10 µs SET becomes part of a mixed stretch.
        let out = window_segments(&segs, &starts, 0, 1400, 100);
        assert_eq!(out[0].state_name(), "mixed");
        // A window in the middle of the sleep: one clipped piece.
        let out = window_segments(&segs, &starts, 500, 600, 1);
        assert_eq!(
            (out.len(), out[0].from_us, out[0].to_us, out[0].state_name()),
            (1, 500, 600, "sleeping")
        );
        assert_eq!(out[0].statement, Some(2));
    }

    #[test]
    fn ticks_in_a_window() {
        assert_eq!(ticks_in(1_234, 1_290, 5), (vec![1_240, 1_260, 1_280], 20));
        assert_eq!(
            ticks_in(0, 50_000, 5).0,
            [0, 10_000, 20_000, 30_000, 40_000, 50_000]
        );
        assert_eq!(ticks_in(7, 7, 5), (vec![7], 1));
    }

    #[test]
    fn marks_cluster() {
        let marks: Vec<Mark> = (0..10)
            .map(|i| Mark {
                at_us: i * 10,
                event: i as usize,
                kind: MarkKind::Skipped,
            })
            .collect();
        let out = display_marks(&marks, 50, true);
        assert_eq!(out.iter().map(|m| m.count).collect::<Vec<_>>(), [5, 5]);
    }

    #[test]
    fn recent_changes_keep_the_latest_per_row() {
        let entry = |at_us: u64, key: &str| TraceEntry {
            at_us,
            event: Event::RowInserted {
                session: "A".into(),
                table: "claim".into(),
                key: key.into(),
            },
        };
        let trace = [entry(1, "1"), entry(2, "2"), entry(3, "3"), entry(4, "2")];
        let recent = recent_changes(&trace, 2, 100);
        let keys: Vec<(&str, u64)> = recent.iter().map(|c| (c.key.as_str(), c.at_us)).collect();
        assert_eq!(keys, [("2", 4), ("3", 3)]);
        assert_eq!(recent[0].text, "A inserts claim (2)");
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(
            ticks(4_000_334, 6),
            [0, 1_000_000, 2_000_000, 3_000_000, 4_000_000]
        );
        assert_eq!(ticks(365_389, 6), [0, 100_000, 200_000, 300_000]);
        assert_eq!(ticks(0, 6), [0]);
        assert_eq!(tick_label(3_000_000, 1_000_000), "3 s");
        assert_eq!(tick_label(300_000, 100_000), "300 ms");
    }

    #[test]
    fn dedent_takes_the_shared_indentation_off_every_line() {
        let text = "BEGIN\n            UPDATE t\n              SET a = 1\n\n            WHERE id = 2;\nEND";
        let start = text.find("UPDATE").unwrap();
        let end = text.find(';').unwrap() + 1;
        let (window, _) = snippet(text, start..end, 0);
        assert_eq!(common_indent(text, window.clone()), 12);
        let marks = [StatementMark {
            session: 0,
            range: start..end,
        }];
        let items = dedent(code_items(text, window, &[], &marks), 12);
        let shown: String = items
            .iter()
            .map(|i| match i {
                CodeItem::Text { text, .. } => text.clone(),
                CodeItem::Tag { .. } => "[tag]".into(),
                CodeItem::Caret { .. } => "^".into(),
            })
            .collect();
        assert_eq!(shown, "[tag]UPDATE t\n  SET a = 1\n\nWHERE id = 2;");
    }

    #[test]
    fn a_toggle_help_shows_the_chosen_values_part() {
        let values = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let claim = "two-step: SELECT the next id, then UPDATE it. conditional: the UPDATE also requires status = 'new' and retries when it changed nothing. one-statement: UPDATE a TOP (1) CTE with UPDLOCK, READPAST, ROWLOCK. one-statement-no-updlock: the same with READPAST and ROWLOCK only.";
        let v = values(&[
            "two-step",
            "conditional",
            "one-statement",
            "one-statement-no-updlock",
        ]);
        assert_eq!(
            value_help(claim, &v, "two-step"),
            "two-step: SELECT the next id, then UPDATE it."
        );
        assert_eq!(
            value_help(claim, &v, "one-statement"),
            "one-statement: UPDATE a TOP (1) CTE with UPDLOCK, READPAST, ROWLOCK."
        );
        assert_eq!(
            value_help(claim, &v, "one-statement-no-updlock"),
            "one-statement-no-updlock: the same with READPAST and ROWLOCK only."
        );
        // A help that is one sentence for all values, or names only some: all of it.
        let plain =
            "With READPAST a reader skips rows that another session has locked instead of waiting.";
        assert_eq!(value_help(plain, &values(&["on", "off"]), "on"), plain);
        let some = "on: an UPDATE marks the entry DONE, as polling the receiver's queue would.";
        assert_eq!(value_help(some, &values(&["off", "on"]), "off"), some);
        assert_eq!(value_help(some, &values(&["off", "on"]), "on"), some);
    }

    #[test]
    fn a_title_that_names_its_kind_needs_no_chip() {
        assert!(title_says("Exercise: fix the two-step claim", "Exercise"));
        assert!(title_says(
            "演習：ジョブを失わないTeradataコンシューマー",
            "演習"
        ));
        assert!(!title_says("Exercises for a workshop", "Exercise"));
        assert!(!title_says("Fix the claim", "Exercise"));
    }
}
