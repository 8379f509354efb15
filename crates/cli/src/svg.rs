//! `run --svg`: the timeline of one run as a self-contained SVG, the static fallback
//! for pages that cannot run the wasm player (a blog without scripts, a printout).
//!
//! Hand-written text rather than an SVG crate: the drawing is rectangles, paths and
//! text, and the parts that need care (escaping, merging, clustering) are ours either
//! way. No fonts, scripts, styles or links from outside: the file opens on its own.

use std::fmt::Write as _;

use engine::{Lane, LaneState, MarkKind, Outcome, Segment, TraceEntry};
use i18n::t;
use lesson::{event_text, ms, value_text, CheckResult};

/// What the picture shows, beyond the lanes: said in the title and the outcome.
pub struct SvgRun<'a> {
    pub title: &'a str,
    pub lesson_id: &'a str,
    pub seed: u64,
    /// `readpast=off ranks=3,1,1`, or empty.
    pub settings: String,
    /// One more phrase for the subtitle (e.g. "with the exercise's solution").
    pub note: Option<String>,
    pub lanes: &'a [Lane],
    pub trace: &'a [TraceEntry],
    pub outcome: &'a Outcome,
    /// The `logical_reads` column as the lesson's database names it.
    pub reads_name: &'a str,
    pub checks: &'a [CheckResult],
}

const WIDTH: f64 = 1000.0;
const MARGIN: f64 = 16.0;
const LABEL_W: f64 = 112.0;
const PLOT_X0: f64 = MARGIN + LABEL_W;
/// Room on the right for marks that sit beside one another at the end of the run.
const PLOT_X1: f64 = WIDTH - MARGIN - 24.0;
const LANE_H: f64 = 48.0;
const BAR_H: f64 = 22.0;
/// A wait narrower than this does not stand alone: it joins a "mixed" run. Anything
/// drawn is at least this wide, so nothing vanishes.
const MIN_PX: f64 = 2.0;
/// Running and sleeping stand alone only from this width: a loop of short sleeps and
/// statements (the claim race) would otherwise draw a rectangle per iteration. Waits
/// are what a learner looks for, so they keep the finer threshold.
const ALONE_PX: f64 = 6.0;
/// A mixed run is cut after this width, so that a phase change stays visible.
const MIXED_MAX_PX: f64 = 24.0;
/// Marks of one kind closer than this are drawn as one, with a count.
const MARK_BUCKET_PX: f64 = 8.0;
/// Average advance of an 11 px system-ui glyph, to decide whether a label fits.
const CHAR_W: f64 = 6.3;
const FONT: &str = "system-ui, -apple-system, 'Segoe UI', Roboto, Ubuntu, Cantarell, 'Noto Sans', 'Helvetica Neue', Arial, sans-serif";

const RUNNING: (&str, &str) = ("#b2f2bb", "#2b8a3e");
const WAITING: (&str, &str) = ("#ffc9c9", "#c92a2a");
const SLEEPING: (&str, &str) = ("#dee2e6", "#495057");
const DELAYED: (&str, &str) = ("#d0ebff", "#1864ab");
const TEXT: &str = "#212529";
const MUTED: &str = "#495057";

pub fn timeline_svg(run: &SvgRun<'_>) -> String {
    // A sleep cut short by a runaway stop may end past the outcome's end: keep it on
    // the page.
    let end_us = run
        .lanes
        .iter()
        .flat_map(|l| {
            l.segments
                .iter()
                .map(|s| s.to_us)
                .chain(l.marks.iter().map(|m| m.at_us))
        })
        .fold(run.outcome.end_us, u64::max)
        .max(1);
    let scale = Scale {
        us_per_px: end_us as f64 / (PLOT_X1 - PLOT_X0),
    };
    let mut body = String::new();
    let mut y = 30.0;

    // Title and what was run.
    let _ = writeln!(
        body,
        r#"<text x="{MARGIN}" y="{y}" font-size="19" font-weight="700" fill="{TEXT}">{}</text>"#,
        esc(&fit(run.title, 80))
    );
    y += 22.0;
    let seed = t!("svg-seed", seed = run.seed.to_string());
    let mut subtitle = format!("{} · {seed}", run.lesson_id);
    if !run.settings.is_empty() {
        let _ = write!(subtitle, " · {}", run.settings);
    }
    if let Some(note) = &run.note {
        let _ = write!(subtitle, " · {note}");
    }
    let end = t!("svg-ended", end = ms(run.outcome.end_us).to_string());
    let _ = write!(subtitle, " · {end}");
    let _ = writeln!(
        body,
        r#"<text x="{MARGIN}" y="{y}" font-size="13" fill="{MUTED}">{}</text>"#,
        esc(&fit(&subtitle, 150))
    );

    // Time axis: ticks in ms, grid lines through the lanes.
    y += 30.0;
    let lanes_top = y + 8.0;
    let lanes_bottom = lanes_top + LANE_H * run.lanes.len() as f64;
    let step = tick_step_us(end_us, PLOT_X1 - PLOT_X0);
    body.push_str(r##"<g class="axis" font-size="11" fill="#495057">"##);
    body.push('\n');
    let _ = writeln!(
        body,
        r##"<line x1="{PLOT_X0}" y1="{y}" x2="{PLOT_X1}" y2="{y}" stroke="#868e96"/>"##
    );
    let mut t = 0u64;
    while t <= end_us {
        let x = scale.x(t);
        // The last label would overhang the page: it ends at its tick instead.
        let anchor = if x > PLOT_X1 - 30.0 { "end" } else { "middle" };
        let _ = writeln!(
            body,
            r##"<line x1="{x:.1}" y1="{y}" x2="{x:.1}" y2="{lanes_bottom}" stroke="#e9ecef"/><line x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{y}" stroke="#868e96"/><text x="{x:.1}" y="{}" text-anchor="{anchor}">{} ms</text>"##,
            y - 4.0,
            y - 7.0,
            ms(t)
        );
        t = match t.checked_add(step) {
            Some(next) => next,
            None => break,
        };
    }
    body.push_str("</g>\n");

    // One lane per session.
    for (i, lane) in run.lanes.iter().enumerate() {
        let top = lanes_top + LANE_H * i as f64;
        lane_svg(&mut body, lane, top, &scale, run.trace);
    }
    y = lanes_bottom + 24.0;

    y = legend(&mut body, y, &scale);
    y = outcome(&mut body, y + 14.0, run.outcome, run.reads_name);
    y = checks(&mut body, y + 30.0, run.checks);
    let height = (y + MARGIN).ceil();

    let mut out = String::with_capacity(body.len() + 1024);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="{FONT}" role="img" aria-labelledby="svg-title svg-desc">"#
    );
    let _ = writeln!(
        out,
        r#"<title id="svg-title">{}</title>"#,
        esc(&t!("svg-title", title = run.title))
    );
    let _ = writeln!(
        out,
        r#"<desc id="svg-desc">{}</desc>"#,
        esc(&t!(
            "svg-desc",
            id = run.lesson_id,
            seed = run.seed.to_string(),
            settings = if run.settings.is_empty() {
                String::new()
            } else {
                format!(", {}", run.settings)
            },
            sessions = run
                .lanes
                .iter()
                .map(|l| l.session.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    );
    // Waiting is hatched and mixed runs dotted, so that neither relies on colour alone.
    out.push_str(concat!(
        "<defs><pattern id=\"hatch-wait\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">",
        "<rect width=\"6\" height=\"6\" fill=\"#ffc9c9\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#ff8787\" stroke-width=\"1.5\"/>",
        "</pattern>\n",
    ));
    for (name, (fill, dot)) in [
        ("running", RUNNING),
        ("waiting", WAITING),
        ("sleeping", SLEEPING),
    ] {
        let _ = writeln!(
            out,
            r#"<pattern id="mixed-{name}" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="4" height="4" fill="{fill}"/><circle cx="2" cy="2" r="0.8" fill="{dot}"/></pattern>"#
        );
    }
    out.push_str("</defs>\n");
    let _ = writeln!(
        out,
        r#"<rect width="{WIDTH}" height="{height}" fill="white"/>"#
    );
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

struct Scale {
    us_per_px: f64,
}

impl Scale {
    fn x(&self, us: u64) -> f64 {
        PLOT_X0 + us as f64 / self.us_per_px
    }

    fn px(&self, us: u64) -> f64 {
        us as f64 / self.us_per_px
    }
}

/// A tick every 1, 2 or 5 × 10^k µs, about every 90 px.
fn tick_step_us(end_us: u64, width_px: f64) -> u64 {
    let want = (end_us as f64 / (width_px / 90.0)).max(1.0);
    let mut step = 1u64;
    loop {
        for m in [1u64, 2, 5] {
            let s = step.saturating_mul(m);
            if s as f64 >= want {
                return s;
            }
        }
        if step > u64::MAX / 10 {
            return u64::MAX;
        }
        step *= 10;
    }
}

/// What one drawn stretch of a lane is.
#[derive(Clone, Debug, PartialEq)]
enum Drawn {
    State(LaneState),
    /// Stretches too short to draw one by one; time per state, in µs.
    Mixed {
        running_us: u64,
        waiting_us: u64,
        sleeping_us: u64,
        count: usize,
    },
}

#[derive(Clone, Debug)]
struct Stretch {
    from_us: u64,
    to_us: u64,
    drawn: Drawn,
}

/// A run of short segments being gathered.
struct Gather {
    from_us: u64,
    to_us: u64,
    running_us: u64,
    waiting_us: u64,
    sleeping_us: u64,
    count: usize,
    /// The state of every segment so far, while they are all the same.
    uniform: Option<LaneState>,
}

impl Gather {
    fn add(&mut self, seg: &Segment) {
        let dur = seg.to_us.saturating_sub(seg.from_us);
        self.to_us = seg.to_us;
        self.count += 1;
        match seg.state {
            LaneState::Running => self.running_us += dur,
            LaneState::Waiting { .. } => self.waiting_us += dur,
            // A delayed consume waits for a row: drawn with the waits.
            LaneState::Sleeping => self.sleeping_us += dur,
            LaneState::Delayed { .. } => self.waiting_us += dur,
        }
        if self.uniform.as_ref() != Some(&seg.state) {
            self.uniform = None;
        }
    }

    /// A run of one state is drawn as that state, resource and holders included.
    fn done(self) -> Stretch {
        let drawn = match self.uniform {
            Some(state) => Drawn::State(state),
            None => Drawn::Mixed {
                running_us: self.running_us,
                waiting_us: self.waiting_us,
                sleeping_us: self.sleeping_us,
                count: self.count,
            },
        };
        Stretch {
            from_us: self.from_us,
            to_us: self.to_us,
            drawn,
        }
    }
}

/// The lane's segments at this scale: a wait of at least [`MIN_PX`], or another
/// segment of at least [`ALONE_PX`], stands alone (joined with an equal neighbour);
/// shorter ones gather into a run, cut every
/// [`MIXED_MAX_PX`], drawn as their state when they share one and as "mixed"
/// otherwise. So a lane of thousands of segments becomes at most a few hundred.
fn merge(segments: &[Segment], scale: &Scale) -> Vec<Stretch> {
    let mut out: Vec<Stretch> = Vec::new();
    let mut gather: Option<Gather> = None;
    let push = |out: &mut Vec<Stretch>, s: Stretch| match out.last_mut() {
        Some(last)
            if last.to_us == s.from_us
                && last.drawn == s.drawn
                && !matches!(s.drawn, Drawn::Mixed { .. }) =>
        {
            last.to_us = s.to_us;
        }
        _ => out.push(s),
    };
    for seg in segments {
        let dur = seg.to_us.saturating_sub(seg.from_us);
        let alone_px = match seg.state {
            LaneState::Waiting { .. } | LaneState::Delayed { .. } => MIN_PX,
            LaneState::Running | LaneState::Sleeping => ALONE_PX,
        };
        if scale.px(dur) >= alone_px {
            if let Some(g) = gather.take() {
                push(&mut out, g.done());
            }
            push(
                &mut out,
                Stretch {
                    from_us: seg.from_us,
                    to_us: seg.to_us,
                    drawn: Drawn::State(seg.state.clone()),
                },
            );
            continue;
        }
        let g = gather.get_or_insert_with(|| Gather {
            from_us: seg.from_us,
            to_us: seg.from_us,
            running_us: 0,
            waiting_us: 0,
            sleeping_us: 0,
            count: 0,
            uniform: Some(seg.state.clone()),
        });
        g.add(seg);
        if scale.px(g.to_us - g.from_us) >= MIXED_MAX_PX {
            if let Some(g) = gather.take() {
                push(&mut out, g.done());
            }
        }
    }
    if let Some(g) = gather.take() {
        push(&mut out, g.done());
    }
    out
}

fn state_colours(state: &LaneState) -> (&'static str, &'static str) {
    match state {
        LaneState::Running => RUNNING,
        LaneState::Waiting { .. } => WAITING,
        LaneState::Sleeping => SLEEPING,
        LaneState::Delayed { .. } => DELAYED,
    }
}

/// `waiting on KEY task (1) for A`.
fn waiting_label(resource: &str, holders: &[String]) -> String {
    if holders.is_empty() {
        t!("svg-waiting-queued", resource = resource)
    } else {
        t!(
            "svg-waiting-for",
            resource = resource,
            holders = holders.join(", ")
        )
    }
}

fn lane_svg(out: &mut String, lane: &Lane, top: f64, scale: &Scale, trace: &[TraceEntry]) {
    let bar_y = top + 6.0;
    let _ = writeln!(
        out,
        r#"<g class="lane" data-session="{}">"#,
        esc(&lane.session)
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{:.1}" text-anchor="end" font-size="14" font-weight="700" fill="{TEXT}">{}</text>"#,
        PLOT_X0 - 10.0,
        bar_y + BAR_H / 2.0 + 5.0,
        esc(&fit(&lane.session, 14))
    );
    // Narrow stretches last, on top, so that a neighbour cannot cover them.
    let (wide, narrow): (Vec<Stretch>, Vec<Stretch>) = merge(&lane.segments, scale)
        .into_iter()
        .partition(|s| scale.px(s.to_us - s.from_us) >= MIN_PX);
    for s in wide.iter().chain(&narrow) {
        stretch_svg(out, &lane.session, s, bar_y, scale);
    }
    marks_svg(out, lane, bar_y + BAR_H + 10.0, scale, trace);
    out.push_str("</g>\n");
}

fn stretch_svg(out: &mut String, session: &str, s: &Stretch, y: f64, scale: &Scale) {
    let x = scale.x(s.from_us);
    let w = scale.px(s.to_us - s.from_us).max(MIN_PX);
    let span = t!(
        "svg-span",
        from = ms(s.from_us).to_string(),
        to = ms(s.to_us).to_string(),
        length = ms(s.to_us - s.from_us).to_string()
    );
    let (fill, stroke, title, label) = match &s.drawn {
        Drawn::State(state) => {
            let (fill, stroke) = state_colours(state);
            let (title, label) = match state {
                LaneState::Running => (
                    t!("svg-runs", session = session, span = &span),
                    t!("svg-running"),
                ),
                LaneState::Sleeping => (
                    t!("svg-sleeps", session = session, span = &span),
                    t!("svg-sleeping"),
                ),
                LaneState::Waiting { resource, holders } => {
                    let label = waiting_label(resource, holders);
                    let title = t!(
                        "svg-is-waiting",
                        session = session,
                        label = &label,
                        span = &span
                    );
                    (title, label)
                }
                LaneState::Delayed { table } => {
                    let label = t!("svg-delayed-empty", table = table);
                    let title = t!(
                        "svg-consume-delayed",
                        session = session,
                        label = &label,
                        span = &span
                    );
                    (title, label)
                }
            };
            let fill = if matches!(state, LaneState::Waiting { .. }) {
                "url(#hatch-wait)"
            } else {
                fill
            };
            (fill, stroke, title, label)
        }
        Drawn::Mixed {
            running_us,
            waiting_us,
            sleeping_us,
            count,
        } => {
            let dominant = if waiting_us >= running_us && waiting_us >= sleeping_us {
                ("url(#mixed-waiting)", "none")
            } else if sleeping_us >= running_us {
                ("url(#mixed-sleeping)", "none")
            } else {
                ("url(#mixed-running)", "none")
            };
            let title = t!(
                "svg-mixed-title",
                session = session,
                count = count.to_string(),
                span = &span,
                running = ms(*running_us).to_string(),
                waiting = ms(*waiting_us).to_string(),
                sleeping = ms(*sleeping_us).to_string()
            );
            let length = s.to_us - s.from_us;
            let label = t!(
                "svg-mixed-label",
                running = percent(*running_us, length).to_string(),
                waiting = percent(*waiting_us, length).to_string(),
                sleeping = percent(*sleeping_us, length).to_string()
            );
            (dominant.0, dominant.1, title, label)
        }
    };
    // Mixed runs are cut every few pixels for resolution, not because anything
    // happened there: no border, so that they read as one band.
    let _ = writeln!(
        out,
        r#"<rect x="{x:.2}" y="{y:.1}" width="{w:.2}" height="{BAR_H}" fill="{fill}" stroke="{stroke}" stroke-width="1"><title>{}</title></rect>"#,
        esc(&title)
    );
    // The label goes inside when it fits; the tooltip always has it.
    let room = w - 8.0;
    let short = short_label(&s.drawn);
    let shown = [label.as_str(), short.as_str()]
        .into_iter()
        .find(|l| !l.is_empty() && l.chars().count() as f64 * CHAR_W <= room);
    if let Some(text) = shown {
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.1}" font-size="11" fill="{TEXT}" pointer-events="none">{}</text>"#,
            x + 4.0,
            y + BAR_H / 2.0 + 4.0,
            esc(text)
        );
    }
}

/// A shorter label for narrow stretches.
fn short_label(drawn: &Drawn) -> String {
    match drawn {
        Drawn::State(LaneState::Running) => t!("svg-short-run"),
        Drawn::State(LaneState::Waiting { .. }) => t!("svg-short-wait"),
        Drawn::State(LaneState::Sleeping) => t!("svg-short-sleep"),
        Drawn::State(LaneState::Delayed { .. }) => t!("svg-short-delayed"),
        Drawn::Mixed { .. } => t!("svg-short-mixed"),
    }
}

fn percent(part: u64, whole: u64) -> u64 {
    if whole == 0 {
        0
    } else {
        ((part as f64 / whole as f64) * 100.0).round() as u64
    }
}

/// Mark kinds in the order they sit side by side when they share a place.
fn mark_rank(kind: &MarkKind) -> u8 {
    match kind {
        MarkKind::Error { .. } => 0,
        MarkKind::Deadlock => 1,
        MarkKind::Skipped => 2,
        MarkKind::ExternalCall => 3,
        MarkKind::Result => 4,
        MarkKind::Committed => 5,
        MarkKind::RolledBack => 6,
    }
}

fn mark_name(kind: &MarkKind, count: usize) -> String {
    // `count` picks the plural form; `n` is how it is written (no digit groups, as
    // every figure in the export).
    let n = count.to_string();
    match kind {
        MarkKind::Error { number, sqlstate } => t!(
            "svg-mark-error",
            count = count,
            n = n,
            number = engine::error_code(*number, *sqlstate)
        ),
        MarkKind::Skipped => t!("svg-mark-skip", count = count, n = n),
        MarkKind::Deadlock => t!("svg-mark-deadlock", count = count, n = n),
        MarkKind::Result => t!("svg-mark-result", count = count, n = n),
        MarkKind::Committed => t!("svg-mark-commit", count = count, n = n),
        MarkKind::RolledBack => t!("svg-mark-rollback", count = count, n = n),
        MarkKind::ExternalCall => t!("svg-mark-call", count = count, n = n),
    }
}

/// The shape of a mark centred at (x, y), as SVG.
fn mark_shape(kind: &MarkKind, x: f64, y: f64) -> String {
    match kind {
        MarkKind::Error { .. } => {
            format!(r##"<circle cx="{x:.2}" cy="{y:.1}" r="5" fill="#e03131" stroke="#862e2e"/>"##)
        }
        MarkKind::Deadlock => format!(
            r##"<path d="M{:.2} {:.1}l10 10m0 -10l-10 10" stroke="#000" stroke-width="2.5"/>"##,
            x - 5.0,
            y - 5.0
        ),
        MarkKind::Skipped => format!(
            r##"<path d="M{:.2} {:.1}l10 5l-10 5z" fill="#f08c00" stroke="#a35200"/>"##,
            x - 5.0,
            y - 5.0
        ),
        MarkKind::ExternalCall => format!(
            r##"<rect x="{:.2}" y="{:.1}" width="9" height="9" fill="#7048e8" stroke="#432874"/>"##,
            x - 4.5,
            y - 4.5
        ),
        MarkKind::Result => format!(
            r##"<path d="M{x:.2} {:.1}l5 5l-5 5l-5 -5z" fill="#1c7ed6" stroke="#114f87"/>"##,
            y - 5.0
        ),
        MarkKind::Committed => format!(
            r##"<path d="M{:.2} {y:.1}l3.5 4l6 -8" fill="none" stroke="#2b8a3e" stroke-width="2.5"/>"##,
            x - 4.5
        ),
        MarkKind::RolledBack => format!(
            r##"<circle cx="{x:.2}" cy="{y:.1}" r="4.5" fill="white" stroke="#ae3ec9" stroke-width="2.5"/>"##
        ),
    }
}

/// Marks in a strip under the bar: one per kind and bucket of [`MARK_BUCKET_PX`], with
/// a count; errors keep their number in text.
fn marks_svg(out: &mut String, lane: &Lane, y: f64, scale: &Scale, trace: &[TraceEntry]) {
    struct Cluster<'a> {
        bucket: i64,
        kind: &'a MarkKind,
        first_us: u64,
        last_us: u64,
        first_event: usize,
        count: usize,
    }
    let mut clusters: Vec<Cluster<'_>> = Vec::new();
    for m in &lane.marks {
        let bucket = (scale.px(m.at_us) / MARK_BUCKET_PX).floor() as i64;
        match clusters
            .iter_mut()
            .rev()
            .take(8)
            .find(|c| c.bucket == bucket && c.kind == &m.kind)
        {
            Some(c) => {
                c.count += 1;
                c.last_us = m.at_us;
            }
            None => clusters.push(Cluster {
                bucket,
                kind: &m.kind,
                first_us: m.at_us,
                last_us: m.at_us,
                first_event: m.event,
                count: 1,
            }),
        }
    }
    clusters.sort_by_key(|c| (c.bucket, mark_rank(c.kind)));
    // Kinds sharing a bucket sit side by side.
    let mut placed: Vec<(f64, &Cluster<'_>)> = Vec::new();
    for c in &clusters {
        let x = match placed.last() {
            Some((px, prev)) if prev.bucket == c.bucket => px + 11.0,
            _ => scale.x(c.first_us),
        };
        placed.push((x, c));
    }
    for (i, (x, c)) in placed.iter().enumerate() {
        let x = *x;
        let what = mark_name(c.kind, c.count);
        let when = if c.count == 1 {
            t!("svg-mark-at", at = ms(c.first_us).to_string())
        } else {
            t!(
                "svg-mark-between",
                from = ms(c.first_us).to_string(),
                to = ms(c.last_us).to_string()
            )
        };
        let event = trace
            .get(c.first_event)
            .map(|e| event_text(&e.event))
            .unwrap_or_default();
        let title = if c.count == 1 {
            t!(
                "svg-mark-title",
                session = &lane.session,
                what = what,
                when = when,
                event = event
            )
        } else {
            t!(
                "svg-mark-title-first",
                session = &lane.session,
                what = what,
                when = when,
                event = event
            )
        };
        let _ = writeln!(
            out,
            "<g><title>{}</title>{}</g>",
            esc(&fit(&title, 300)),
            mark_shape(c.kind, x, y)
        );
        let text = match c.kind {
            MarkKind::Error { number, sqlstate } if c.count == 1 => {
                engine::error_code(*number, *sqlstate)
            }
            MarkKind::Error { number, sqlstate } => {
                format!("{} ×{}", engine::error_code(*number, *sqlstate), c.count)
            }
            _ if c.count > 1 => format!("×{}", c.count),
            _ => continue,
        };
        // A count or number is written only where it does not run into the next mark;
        // the tooltip always has it.
        let room = placed
            .get(i + 1)
            .map_or(f64::INFINITY, |(next, _)| next - x - 12.0);
        if text.chars().count() as f64 * 6.0 > room {
            continue;
        }
        let colour = if matches!(c.kind, MarkKind::Error { .. }) {
            "#c92a2a"
        } else {
            MUTED
        };
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.1}" font-size="10" font-weight="700" fill="{colour}">{}</text>"#,
            x + 6.5,
            y + 3.5,
            esc(&text)
        );
    }
}

fn legend(out: &mut String, y: f64, scale: &Scale) -> f64 {
    let _ = writeln!(
        out,
        r#"<g class="legend" font-size="12" fill="{TEXT}"><text x="{MARGIN}" y="{y}" font-weight="700">Legend</text>"#
    );
    // Items flow left to right and wrap at the page's edge.
    let mut row = y + 20.0;
    let mut x = MARGIN;
    let place = |width: f64, row: &mut f64, x: &mut f64| {
        if *x > MARGIN + 5.0 && *x + width > WIDTH - MARGIN {
            *x = MARGIN;
            *row += 20.0;
        }
        let at = *x;
        *x += width;
        at
    };
    let swatches: [(&str, &str, String); 5] = [
        (RUNNING.0, RUNNING.1, t!("svg-key-running")),
        ("url(#hatch-wait)", WAITING.1, t!("svg-key-waiting")),
        (SLEEPING.0, SLEEPING.1, t!("svg-key-sleeping")),
        (DELAYED.0, DELAYED.1, t!("svg-key-delayed")),
        ("url(#mixed-sleeping)", "none", t!("svg-key-mixed")),
    ];
    for (fill, stroke, text) in swatches {
        let width = 28.0 + text.chars().count() as f64 * 6.4 + 18.0;
        let at = place(width, &mut row, &mut x);
        let _ = writeln!(
            out,
            r#"<rect x="{at}" y="{}" width="22" height="12" fill="{fill}" stroke="{stroke}"/><text x="{}" y="{row}">{}</text>"#,
            row - 10.0,
            at + 28.0,
            esc(&text)
        );
    }
    row += 22.0;
    x = MARGIN;
    let kinds: [(MarkKind, String); 7] = [
        (
            MarkKind::Error {
                number: 0,
                sqlstate: None,
            },
            t!("svg-key-error"),
        ),
        (MarkKind::Skipped, t!("svg-key-skip")),
        (MarkKind::Deadlock, t!("svg-key-deadlock")),
        (MarkKind::Result, t!("svg-key-result")),
        (MarkKind::Committed, t!("svg-key-commit")),
        (MarkKind::RolledBack, t!("svg-key-rollback")),
        (MarkKind::ExternalCall, t!("svg-key-call")),
    ];
    for (kind, text) in &kinds {
        let width = 15.0 + text.chars().count() as f64 * 6.4 + 20.0;
        let at = place(width, &mut row, &mut x) + 5.0;
        let _ = writeln!(
            out,
            r#"{}<text x="{}" y="{row}">{}</text>"#,
            mark_shape(kind, at, row - 4.0),
            at + 10.0,
            esc(text)
        );
    }
    let row2 = row;
    let note = t!(
        "svg-scale-note",
        px = round3(scale.us_per_px / 1000.0).to_string(),
        min = MIN_PX.to_string(),
        alone = ALONE_PX.to_string(),
        bucket = MARK_BUCKET_PX.to_string()
    );
    let mut yy = row2 + 22.0;
    for line in wrap(&note, 150) {
        let _ = writeln!(
            out,
            r#"<text x="{MARGIN}" y="{yy}" fill="{MUTED}">{}</text>"#,
            esc(&line)
        );
        yy += 16.0;
    }
    out.push_str("</g>\n");
    yy
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn outcome(out: &mut String, y: f64, outcome: &Outcome, reads_name: &str) -> f64 {
    let _ = writeln!(
        out,
        r#"<g class="outcome" font-size="12" fill="{TEXT}"><text x="{MARGIN}" y="{y}" font-weight="700">{}</text>"#,
        esc(&t!("svg-outcome", end = ms(outcome.end_us).to_string()))
    );
    let cols = [
        (MARGIN, t!("svg-col-session")),
        (MARGIN + 120.0, t!("svg-col-wait")),
        (MARGIN + 210.0, t!("svg-col-errors")),
        (MARGIN + 380.0, i18n::reads_label(reads_name)),
        (MARGIN + 480.0, t!("svg-col-statements")),
        (MARGIN + 570.0, t!("svg-col-first-row")),
    ];
    let mut yy = y + 20.0;
    for (x, head) in &cols {
        let _ = write!(
            out,
            r#"<text x="{x}" y="{yy}" font-weight="700" fill="{MUTED}">{}</text>"#,
            esc(head)
        );
    }
    out.push('\n');
    for s in &outcome.sessions {
        yy += 17.0;
        let errors = if s.errors.is_empty() {
            t!("svg-none")
        } else {
            let numbers: Vec<String> = s.errors.iter().map(|e| e.code()).collect();
            fit(&numbers.join(", "), 26)
        };
        let first_row = s.results.iter().find_map(|r| r.rows.first()).map_or_else(
            || t!("svg-no-result"),
            |row| row.iter().map(value_text).collect::<Vec<_>>().join(", "),
        );
        let error_detail: Vec<String> = s
            .errors
            .iter()
            .map(|e| format!("{}: {}", e.code(), e.message))
            .collect();
        let cells = [
            fit(&s.name, 18),
            ms(s.wait_us).to_string(),
            errors,
            s.logical_reads.to_string(),
            s.statements.to_string(),
            fit(&first_row, 60),
        ];
        for ((x, _), cell) in cols.iter().zip(&cells) {
            let _ = write!(out, r#"<text x="{x}" y="{yy}">{}</text>"#, esc(cell));
        }
        if !error_detail.is_empty() {
            // The messages, for a tooltip over the numbers.
            let _ = write!(
                out,
                r#"<rect x="{}" y="{}" width="160" height="16" fill="transparent"><title>{}</title></rect>"#,
                cols[2].0,
                yy - 12.0,
                esc(&fit(&error_detail.join("; "), 600))
            );
        }
        out.push('\n');
    }
    out.push_str("</g>\n");
    yy
}

fn checks(out: &mut String, y: f64, checks: &[CheckResult]) -> f64 {
    let passed = checks.iter().filter(|c| c.passed).count();
    let _ = writeln!(
        out,
        r#"<g class="checks" font-size="12" fill="{TEXT}"><text x="{MARGIN}" y="{y}" font-weight="700">{}</text>"#,
        esc(&t!(
            "svg-checks",
            passed = passed.to_string(),
            failed = (checks.len() - passed).to_string()
        ))
    );
    let mut yy = y;
    if checks.is_empty() {
        yy += 18.0;
        let _ = writeln!(
            out,
            r#"<text x="{MARGIN}" y="{yy}" fill="{MUTED}">{}</text>"#,
            esc(&t!("svg-no-check"))
        );
    }
    for c in checks {
        yy += 18.0;
        let (word, colour) = if c.passed {
            (t!("run-pass"), "#2b8a3e")
        } else {
            (t!("run-fail"), "#c92a2a")
        };
        let line = format!("{} — {}", c.name, crate::run_cmd::detail_text(&c.detail));
        // The verdict's word is as wide as its language writes it (PASS: 40 px).
        let indent = word
            .chars()
            .map(|ch| if ch.is_ascii() { 8.0 } else { 13.0 })
            .sum::<f64>()
            .max(32.0)
            + 8.0;
        let _ = writeln!(
            out,
            r#"<g><title>{}</title><text x="{MARGIN}" y="{yy}" font-weight="700" fill="{colour}">{word}</text><text x="{}" y="{yy}">{}</text></g>"#,
            esc(&fit(&line, 600)),
            MARGIN + indent,
            esc(&fit(&line, 140))
        );
    }
    out.push_str("</g>\n");
    yy
}

/// At most `max` characters, an ellipsis standing for the rest.
fn fit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

/// Words into lines of at most `width` characters (a longer word gets a line alone).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Text for XML content and attribute values. Characters XML 1.0 cannot hold at all
/// (most control characters: a SQL value may contain them) become U+FFFD.
pub fn esc(text: &str) -> String {
    let allowed: String = text
        .chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => '\u{fffd}',
            c => c,
        })
        .collect();
    lesson::escape_html(&allowed).replace('\'', "&apos;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(from_us: u64, to_us: u64, state: LaneState) -> Segment {
        Segment {
            from_us,
            to_us,
            state,
        }
    }

    #[test]
    fn escapes_markup_and_drops_control_characters() {
        assert_eq!(
            esc("a<b & \"c\" 'd'>\u{1}"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\u{fffd}"
        );
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step_us(4_000_334, 858.0), 500_000);
        assert_eq!(tick_step_us(1, 858.0), 1);
        assert!(tick_step_us(u64::MAX, 858.0) >= u64::MAX / 10);
    }

    #[test]
    fn short_stretches_merge_and_long_ones_stand_alone() {
        let scale = Scale { us_per_px: 1000.0 };
        let mut segments = Vec::new();
        // 100 loops of 0.1 ms running + 0.9 ms sleeping: all below 2 px.
        for k in 0..100 {
            let t = k * 1000;
            segments.push(seg(t, t + 100, LaneState::Running));
            segments.push(seg(t + 100, t + 1000, LaneState::Sleeping));
        }
        segments.push(seg(100_000, 600_000, LaneState::Running));
        let merged = merge(&segments, &scale);
        assert!(merged.len() <= 6, "{merged:?}");
        assert!(matches!(merged[0].drawn, Drawn::Mixed { .. }));
        let last = merged.last().expect("a stretch");
        assert_eq!(
            (last.from_us, last.to_us, &last.drawn),
            (100_000, 600_000, &Drawn::State(LaneState::Running))
        );
    }

    #[test]
    fn a_lone_short_stretch_keeps_its_state() {
        let scale = Scale { us_per_px: 1000.0 };
        let merged = merge(
            &[
                seg(0, 10, LaneState::Running),
                seg(10, 500_000, LaneState::Sleeping),
            ],
            &scale,
        );
        assert_eq!(merged[0].drawn, Drawn::State(LaneState::Running));
        assert_eq!(merged[1].drawn, Drawn::State(LaneState::Sleeping));
    }
}
