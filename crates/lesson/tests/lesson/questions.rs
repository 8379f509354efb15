//! `[[questions]]`: parsed and validated with placed errors, applied by settings, and
//! judged against a finished run (the choices that hold, the figure, the moment).

use expect_test::expect;
use lockstep_lesson::{run, Lesson, Measure};

use crate::{check_error, edit};

fn with(extra: &str) -> String {
    edit(&[("max = 1\n+++", &format!("max = 1\n{extra}+++"))])
}

fn check(extra: &str, expect: expect_test::Expect) {
    let to = format!("max = 1\n{extra}+++");
    check_error(&[("max = 1\n+++", to.as_str())], expect);
}

const GOOD: &str = r#"
[[questions]]
name = "b-wait"
ask = "READPAST off: how long will B wait?"
when = { readpast = "off" }
session = "B"
figure = "wait_ms"
explain = "Nothing is locked."
choices = [
  { label = "0 ms", max = 1 },
  { label = "About 1 s", min = 900, max = 1100 },
  { label = "An error", session = "B", figure = "errors", min = 1 },
]

[[questions]]
name = "rows"
ask = "How many rows are left?"
sql = "SELECT COUNT(*) FROM t"
explain = "Nobody inserts any."
choices = [{ label = "None", equals = 0 }, { label = "Some", min = 1 }]
"#;

#[test]
fn questions_parse_apply_by_settings_and_judge_a_run() {
    let lesson = Lesson::parse("lessons/tiny.md", &with(GOOD)).unwrap();
    let names: Vec<(&str, u32)> = lesson
        .questions
        .iter()
        .map(|q| (q.name.as_str(), q.line))
        .collect();
    assert_eq!(names, [("b-wait", 21), ("rows", 34)]);
    assert_eq!(
        lesson.questions[1].measure,
        Measure::Sql("SELECT COUNT(*) FROM t".into())
    );
    let on = lesson.apply(&lesson.settings_default()).unwrap();
    assert_eq!(on.questions.len(), 1, "b-wait is about READPAST off only");
    let off = lesson
        .apply(&lesson.settings_with([("readpast", "off")]).unwrap())
        .unwrap();
    assert_eq!(off.questions.len(), 2);
    let mut report = run(&off, 1).unwrap();
    let trace = report.trace.entries.clone();
    let judged: Vec<(String, Vec<usize>, usize)> = off
        .questions
        .iter()
        .map(|q| {
            let j = q
                .judge(&report.outcome, &trace, None, &mut |sql| {
                    report.simulation.query(sql)
                })
                .unwrap();
            (j.detail, j.right, j.moment)
        })
        .collect();
    // B never waits, so its wait's moment is the end of the run.
    assert_eq!(
        judged,
        [
            ("B wait_ms = 0".to_string(), vec![0], trace.len()),
            (
                "(SELECT COUNT(*) FROM t) = 0".to_string(),
                vec![0],
                trace.len()
            ),
        ]
    );
}

#[test]
fn bad_questions_are_placed() {
    check(
        "\n[[questions]]\nname = \"Bad Name\"\nask = \"?\"\nfigure = \"errors\"\nexplain = \".\"\nchoices = [{ label = \"a\", equals = 0 }, { label = \"b\", min = 1 }]\n",
        expect![[r#"
            lessons/tiny.md:21:8: question `Bad Name`: a name is lower-case words joined by `-` (`b-wait`)
        "#]],
    );
    check(
        "\n[[questions]]\nname = \"q\"\nask = \"?\"\nexplain = \".\"\nchoices = [{ label = \"a\", equals = 0 }, { label = \"b\", min = 1 }]\n",
        expect![[r#"
            lessons/tiny.md:21:8: question `q` needs `figure = "..."` (with `session` for one session's) or `sql = "..."`: the number the run gives
        "#]],
    );
    check(
        "\n[[questions]]\nname = \"q\"\nask = \"?\"\nsession = \"C\"\nfigure = \"wait_ms\"\nexplain = \".\"\nchoices = [{ label = \"a\", equals = 0 }, { label = \"b\" }]\n",
        expect![[r#"
            lessons/tiny.md:26:51: question `q`: choice `b` needs `min`, `max` or `equals` (not `equals` with the others)
        "#]],
    );
    check(
        "\n[[questions]]\nname = \"q\"\nask = \"?\"\nsession = \"C\"\nfigure = \"wait_ms\"\nexplain = \".\"\nchoices = [{ label = \"a\", equals = 0 }, { label = \"b\", min = 1 }]\n",
        expect![[r#"
            lessons/tiny.md:23:11: a question names session `C`, which no block defines
        "#]],
    );
    check(
        "\n[[questions]]\nname = \"q\"\nask = \"?\"\nwhen = { speed = \"fast\" }\nsql = \"SELECT 1\"\nexplain = \".\"\nchoices = [{ label = \"a\", equals = 1 }]\n",
        expect![[r#"
            lessons/tiny.md:23:10: unknown toggle `speed` in `when` (toggles: readpast)
            lessons/tiny.md:26:11: question `q` needs at least two `choices`
        "#]],
    );
}

/// The verdict's moment is the event that decides the answer, not the end of the run:
/// where B reads past the locked task when it never waits, and, for SQL in a run
/// without an anomaly, the last change to the table it reads (consumer2 moving order
/// 101 into shipment after consumer1's rollback).
#[test]
fn the_moment_is_the_event_that_decides() {
    let cases = [
        (
            "queue-wait-or-skip.md",
            include_str!("../../../../lessons/queue-wait-or-skip.md"),
            ("readpast", "on"),
            "B skips task (1) with READPAST",
        ),
        (
            "teradata-consume.md",
            include_str!("../../../../lessons/teradata-consume.md"),
            ("end", "rollback"),
            "consumer2 inserts shipment",
        ),
    ];
    for (file, text, setting, want) in cases {
        let lesson = Lesson::parse(file, text).unwrap();
        let applied = lesson
            .apply(&lesson.settings_with([setting]).unwrap())
            .unwrap();
        let mut report = run(&applied, 1).unwrap();
        let trace = report.trace.entries.clone();
        let judged = applied.questions[0]
            .judge(&report.outcome, &trace, None, &mut |sql| {
                report.simulation.query(sql)
            })
            .unwrap();
        let line = trace[judged.moment - 1].event.to_string();
        assert!(line.starts_with(want), "{file}: {line}");
        assert!(judged.moment < trace.len(), "{file}: not the end");
    }
}
