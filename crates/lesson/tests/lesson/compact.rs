//! The compiled form the browser app embeds: every lesson reads back as it was parsed,
//! and bytes this build did not write are refused, never misread.

use lockstep_lesson::{narrative_html, Compiled, Kind};

use crate::explorable::lessons;

#[test]
fn every_lesson_reads_back_as_parsed_with_its_html() {
    let compiled: Vec<Compiled> = lessons().into_iter().map(Compiled::new).collect();
    let bytes = Compiled::encode_all(&compiled);
    let back = Compiled::decode_all(&bytes).expect("reads back");
    assert_eq!(back.len(), compiled.len());
    for (a, b) in compiled.iter().zip(&back) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", a.lesson.id);
        assert_eq!(b.narrative_html, narrative_html(&b.lesson));
        let exercise = b.lesson.kind == Kind::Exercise;
        assert_eq!(!b.goal_html.is_empty(), exercise, "{}", a.lesson.id);
        let hints = b.lesson.exercise.as_ref().map_or(0, |e| e.hints.len());
        assert_eq!(b.hints_html.len(), hints, "{}", a.lesson.id);
    }
    assert!(back.iter().any(|c| c.goal_html.contains("<code>")));
}

fn lesson(id: &str) -> lockstep_lesson::Lesson {
    lessons()
        .into_iter()
        .find(|l| l.id == id)
        .unwrap_or_else(|| panic!("no lesson {id}"))
}

/// The first paint is the narrative with each block's default text as escaped code.
#[test]
fn the_first_paint_is_the_narrative_with_the_default_code() {
    let lesson = lesson("queue-wait-or-skip");
    let applied = lesson.apply(&lesson.settings_default()).expect("applies");
    let html = Compiled::new(lesson).first_paint_html();
    // It asks a question at its default settings: the page hides the answer while the
    // learner predicts.
    assert!(html.starts_with(
        "<article class=\"first-paint prose\" data-lesson=\"queue-wait-or-skip\" data-asks data-may-ask>"
    ));
    assert!(!html.contains("lockstep-block"), "a placeholder is left");
    let code_blocks = html
        .matches("<pre class=\"first-paint__code\"><code>")
        .count();
    assert_eq!(code_blocks, applied.blocks.len());
    // The default toggle (READPAST on) is in the code, escaped like all of it.
    assert!(html.contains("WITH (UPDLOCK, READPAST, ROWLOCK)"), "{html}");
    assert!(!html.contains("<script"));
}

/// A lesson that asks nothing at its default settings shows its text at once.
#[test]
fn the_first_paint_of_a_lesson_without_questions_hides_nothing() {
    let lesson = lesson("pg-isolation");
    assert!(lesson.questions.is_empty());
    let html = Compiled::new(lesson).first_paint_html();
    assert!(html.starts_with("<article class=\"first-paint prose\" data-lesson=\"pg-isolation\">"));
}

/// A lesson whose question applies only at other settings (teradata-consume asks only
/// when the consumer rolls back) says it may ask: a link that chooses those settings
/// hides the answer in the first paint too.
#[test]
fn the_first_paint_says_a_question_may_apply_at_other_settings() {
    let lesson = lesson("teradata-consume");
    assert!(!lesson.questions.is_empty());
    let html = Compiled::new(lesson).first_paint_html();
    assert!(html.starts_with(
        "<article class=\"first-paint prose\" data-lesson=\"teradata-consume\" data-may-ask>"
    ));
}

#[test]
fn bytes_not_written_by_this_build_are_refused() {
    let compiled: Vec<Compiled> = lessons().into_iter().take(2).map(Compiled::new).collect();
    let bytes = Compiled::encode_all(&compiled);
    let err = Compiled::decode_all(&bytes[..bytes.len() - 1]).unwrap_err();
    assert_eq!(err.message, "unexpected end");
    let err = Compiled::decode_all(b"PK\x03\x04").unwrap_err();
    assert_eq!(
        err.to_string(),
        "compiled lessons, byte 4: not compiled lessons (bad magic number)"
    );
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        Compiled::decode_all(&longer).unwrap_err().message,
        "bytes left over"
    );
}
