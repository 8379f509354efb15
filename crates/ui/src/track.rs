//! A lane track's drawing (its segments, marks and anomaly marks) and the whole-run
//! strip's lanes, as markup rather than Yew nodes.
//!
//! The claim race's lanes held about 2 200 elements (two lanes of ~280 segments, each
//! with a hidden span of screen-reader text, 488 anomaly marks, and 530 boxes in the
//! whole-run strip). Yew attaches an element with a call from wasm to the DOM per
//! element and per attribute, about 90 ms for this page; one string parsed by the
//! browser is a few ms. So a track is one string, with the classes and attributes the
//! browser tests and the styles read; clicks on its marks are handled by the track
//! (`components/lanes.rs`). A segment's sentence is its accessible name (`role="img"`,
//! `aria-label`) rather than a hidden span: the browser lays out (and, cold, shapes)
//! every span's text, hidden or not. The whole-run strip draws each lane as one CSS
//! gradient instead of a box per stretch.

use std::fmt::Write;

use lesson::{escape_html, Anomaly, AnomalyRule};

use crate::present::{ms_label, ms_number, DisplayMark, DisplaySeg, SegKind, StatementStart};
use crate::t;
use crate::zoom::Window;

fn percent(w: &Window, us: u64) -> f64 {
    w.fraction(us) * 100.0
}

/// The markup inside a lane's track for the window `w`: the stretch before the session
/// starts (if `start_us` is in the window), `segments`, `marks` and the session's
/// `anomalies` (the run's, with the lesson's anomaly rules as shown that word them), in
/// that order.
pub fn track_html(
    session: &str,
    w: &Window,
    start_us: u64,
    segments: &[DisplaySeg],
    starts: &[StatementStart],
    marks: &[DisplayMark],
    (anomalies, rules): (&[Anomaly], &[AnomalyRule]),
) -> String {
    let mut out = String::with_capacity(segments.len() * 400 + anomalies.len() * 200);
    if start_us > w.from_us {
        // The time alone where the words would be cut (a phone, Polish), and nothing
        // where even that would be (the title has it): style.css picks by the
        // segment's width.
        let time = ms_label(start_us);
        let _ = write!(
            out,
            r#"<span class="seg seg--idle" style="left: 0%; width: {:.3}%" data-state="not-started" title="{long}"><span class="seg__label"><span class="seg__long">{long}</span><span class="seg__short">{}</span></span></span>"#,
            percent(w, start_us).min(100.0),
            escape_html(&time),
            long = escape_html(&t!("lane-starts", time = &time)),
        );
    }
    for seg in segments {
        segment_html(&mut out, session, w, seg, starts);
    }
    for m in marks {
        let description = escape_html(&m.describe(session));
        let left = percent(w, m.at_us);
        let count = if m.count > 1 {
            format!("×{}", m.count)
        } else {
            String::new()
        };
        let symbol = m.symbol();
        let edge = mark_edge(left, symbol.chars().count() + count.chars().count());
        let _ = write!(
            out,
            r#"<span class="mark mark--{kind}{edge}" style="left: {left:.3}%" data-kind="{kind}" title="{description}"><span aria-hidden="true">{symbol}{count}</span><span class="visually-hidden">{description}</span></span>"#,
            kind = m.kind_name(),
            symbol = escape_html(&symbol),
        );
    }
    for a in anomalies
        .iter()
        .filter(|a| a.session == session && w.contains(a.at_us))
    {
        // The track's click handler seeks to the anomaly by `data-event`.
        let _ = write!(
            out,
            r#"<span class="anomaly-mark" style="left: {:.3}%" data-testid="anomaly" data-event="{}" title="{}" aria-hidden="true"></span>"#,
            percent(w, a.at_us).clamp(0.0, 100.0),
            a.event,
            escape_html(&t!(
                "anomaly-at",
                anomaly = crate::anomaly_text::text(a, rules),
                time = ms_label(a.at_us)
            )),
        );
    }
    out
}

/// Near an edge a mark's label hangs inwards, so the track does not cut it. A label is
/// centred on its moment, so it overflows when the edge is nearer than half its width:
/// about 1.5 % of a phone's track per character (0.7 rem type on a track of some
/// 280 px), so `✕40001` turns inwards 10 % from the edge, a lone `✓` 2.5 %.
fn mark_edge(left_pct: f64, label_chars: usize) -> &'static str {
    let margin = 1.0 + 1.5 * label_chars as f64;
    if left_pct < margin {
        " mark--start"
    } else if left_pct > 100.0 - margin {
        " mark--end"
    } else {
        ""
    }
}

fn segment_html(
    out: &mut String,
    session: &str,
    w: &Window,
    seg: &DisplaySeg,
    starts: &[StatementStart],
) {
    let left = percent(w, seg.from_us).max(0.0);
    let width = (percent(w, seg.to_us).min(100.0) - left).max(0.25);
    let statement = seg.statement.and_then(|k| starts.get(k));
    let mut description = seg.describe(session);
    if let Some(s) = statement {
        let _ = write!(
            description,
            " ({})",
            t!(
                "lane-statement",
                label = s.label.to_string(),
                line = s.line.to_string()
            )
        );
    }
    let (label, holders) = match &seg.kind {
        SegKind::Waiting { holders, .. } => {
            let whom = if holders.is_empty() {
                t!("lane-queue")
            } else {
                holders.join(", ")
            };
            (Some(t!("lane-waits", whom = whom)), holders.join(","))
        }
        SegKind::Sleeping => (Some(t!("lane-sleeps")), String::new()),
        SegKind::Delayed { table } => (
            Some(t!("lane-delayed", table = table.to_string())),
            String::new(),
        ),
        SegKind::Running => (statement.map(|s| s.label.to_string()), String::new()),
        SegKind::Mixed { .. } => (None, String::new()),
    };
    let mixed = matches!(seg.kind, SegKind::Mixed { .. });
    // Zoomed in, a statement's segment starts with a visible edge.
    let own = statement.filter(|_| !mixed);
    let description = escape_html(&description);
    let _ = write!(
        out,
        r#"<span class="seg seg--{dominant}{mixed}{stmt}" style="left: {left:.3}%; width: {width:.3}%" data-state="{state}" data-holders="{holders}"{statement} data-from-ms="{from}" data-to-ms="{to}" title="{description}" role="img" aria-label="{description}">"#,
        dominant = seg.dominant(),
        mixed = if mixed { " seg--mixed" } else { "" },
        stmt = if own.is_some_and(|s| s.at_us == seg.from_us) {
            " seg--stmt"
        } else {
            ""
        },
        state = seg.state_name(),
        holders = escape_html(&holders),
        statement = own.map_or(String::new(), |s| format!(
            r#" data-statement="{}""#,
            escape_html(&format!("{} line {}", s.label, s.line))
        )),
        from = ms_number(seg.from_us),
        to = ms_number(seg.to_us),
    );
    if let Some(label) = label.filter(|_| width >= 8.0) {
        let _ = write!(
            out,
            r#"<span class="seg__label" aria-hidden="true">{}</span>"#,
            escape_html(&label)
        );
    }
    out.push_str("</span>");
}

/// The colour of a stretch in the whole-run strip (the lanes' colours, without their
/// patterns: the strip is a few pixels high).
fn strip_colour(seg: &DisplaySeg) -> &'static str {
    match seg.dominant() {
        "waiting" => "var(--wait)",
        "sleeping" => "var(--sleep)",
        "delayed" => "var(--delay)",
        _ => "var(--run)",
    }
}

/// A lane of the whole-run strip as a `background-image`: a hard-stopped gradient, each
/// stretch at least `min_percent` wide (so a short one stays visible, as a box with a
/// minimum width did), gaps transparent.
pub fn strip_gradient(segments: &[DisplaySeg], full: &Window, min_percent: f64) -> String {
    let mut out = String::from("linear-gradient(to right");
    let mut at = 0.0_f64;
    for seg in segments {
        let left = percent(full, seg.from_us).max(at);
        let right = percent(full, seg.to_us).max(left + min_percent).min(100.0);
        if right <= left {
            continue;
        }
        if left > at {
            let _ = write!(out, ", transparent {at:.3}% {left:.3}%");
        }
        let _ = write!(out, ", {} {left:.3}% {right:.3}%", strip_colour(seg));
        at = right;
    }
    if at < 100.0 {
        let _ = write!(out, ", transparent {at:.3}% 100%");
    }
    out.push(')');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_mark_label_turns_inwards_farther_from_the_edge() {
        // `✕40001`, 6 characters: 92 % from the left would be cut at the right edge.
        assert_eq!(mark_edge(92.0, 6), " mark--end");
        assert_eq!(mark_edge(8.0, 6), " mark--start");
        assert_eq!(mark_edge(50.0, 6), "");
        // A lone `✓` hangs inwards only right at the edge.
        assert_eq!(mark_edge(92.0, 1), "");
        assert_eq!(mark_edge(98.0, 1), " mark--end");
        assert_eq!(mark_edge(1.0, 1), " mark--start");
    }

    fn seg(from_us: u64, to_us: u64, kind: SegKind) -> DisplaySeg {
        DisplaySeg {
            from_us,
            to_us,
            kind,
            statement: None,
        }
    }

    #[test]
    fn a_segment_has_the_attributes_the_tests_and_styles_read() {
        let w = Window {
            from_us: 0,
            to_us: 1000,
        };
        let waiting = seg(
            100,
            600,
            SegKind::Waiting {
                resource: "KEY: dbo.task (1) <a>".into(),
                holders: vec!["A".into()],
            },
        );
        let html = track_html("B", &w, 0, &[waiting], &[], &[], (&[], &[]));
        assert!(
            html.starts_with(r#"<span class="seg seg--waiting" style="left: 10.000%; width: 50.000%" data-state="waiting" data-holders="A" data-from-ms="0.1" data-to-ms="0.6" title=""#),
            "{html}"
        );
        // Text from the run is escaped: the resource's `<a>` stays text.
        assert!(html.contains("&lt;a&gt;"), "{html}");
        assert!(!html.contains("<a>"), "{html}");
        assert!(
            html.contains(
                r#"<span class="seg__label" aria-hidden="true">waits for A</span></span>"#
            ),
            "{html}"
        );
        // Its sentence is its accessible name: no element of its own to lay out.
        assert!(html.contains(r#"role="img" aria-label="B waits"#), "{html}");
        assert_eq!(html.matches("<span").count(), 2, "{html}");
        assert_eq!(html.matches("</span>").count(), 2, "{html}");
    }

    #[test]
    fn a_session_that_starts_late_shows_the_stretch_before() {
        let w = Window {
            from_us: 0,
            to_us: 2000,
        };
        let html = track_html("B", &w, 500, &[], &[], &[], (&[], &[]));
        assert!(
            html.starts_with(r#"<span class="seg seg--idle" style="left: 0%; width: 25.000%" data-state="not-started" title="starts at 0.5 ms">"#),
            "{html}"
        );
    }

    #[test]
    fn the_strip_is_one_gradient_with_gaps_and_short_stretches_widened() {
        let full = Window {
            from_us: 0,
            to_us: 1000,
        };
        let segs = [
            seg(100, 200, SegKind::Running),
            seg(200, 201, SegKind::Sleeping),
            seg(500, 1000, SegKind::Delayed { table: "q".into() }),
        ];
        assert_eq!(
            strip_gradient(&segs, &full, 0.2),
            "linear-gradient(to right, transparent 0.000% 10.000%, var(--run) 10.000% 20.000%, \
             var(--sleep) 20.000% 20.200%, transparent 20.200% 50.000%, var(--delay) 50.000% 100.000%)"
        );
        assert_eq!(
            strip_gradient(&[], &full, 0.2),
            "linear-gradient(to right, transparent 0.000% 100%)"
        );
    }
}
