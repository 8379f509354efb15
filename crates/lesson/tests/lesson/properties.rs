//! `[[properties]]`: parsed and validated with placed errors, applied by settings, and
//! checked against a simulation's state without changing what happens next.

use engine::{Mode, Sink};
use expect_test::expect;
use lockstep_lesson::{find_property, Lesson, PropertyKind};

use crate::{check_error, edit};

/// BASE with `extra` added at the end of its front matter.
fn with(extra: &str) -> Vec<(&'static str, String)> {
    vec![("max = 1\n+++", format!("max = 1\n{extra}+++"))]
}

fn check(extra: &str, expect: expect_test::Expect) {
    let edits = with(extra);
    let edits: Vec<(&str, &str)> = edits.iter().map(|(a, b)| (*a, b.as_str())).collect();
    check_error(&edits, expect);
}

/// One property named `x` with these keys.
fn check_x(keys: &str, expect: expect_test::Expect) {
    check(
        &format!(
            "\n[[properties]]\nname = \"x\"\nlabel = \"X\"\n{}",
            keys.trim_start()
        ),
        expect,
    );
}

const GOOD: &str = r#"
[[properties]]
name = "one-row"
label = "At most one row"
always = "SELECT COUNT(*) FROM t"
max = 1

[[properties]]
name = "empty-at-end"
label = "Empty at the end"
when = { readpast = "off" }
at_end = "SELECT COUNT(*) FROM t"
equals = 0

[[properties]]
name = "no-deadlock"
label = "No deadlock"
holds = "no-deadlock"
"#;

#[test]
fn properties_parse_with_their_kinds_and_apply_by_settings() {
    let text = edit(&[("max = 1\n+++", &format!("max = 1\n{GOOD}+++"))]);
    let lesson = Lesson::parse("lessons/tiny.md", &text).unwrap();
    let kinds: Vec<(&str, &str, u32)> = lesson
        .properties
        .iter()
        .map(|p| {
            let kind = match p.kind {
                PropertyKind::Always { .. } => "always",
                PropertyKind::AtEnd { .. } => "at_end",
                PropertyKind::Builtin(_) => "holds",
            };
            (p.name.as_str(), kind, p.line)
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("one-row", "always", 21),
            ("empty-at-end", "at_end", 27),
            ("no-deadlock", "holds", 34)
        ]
    );
    let on = lesson.apply(&lesson.settings_default()).unwrap();
    assert_eq!(on.properties.len(), 2);
    let off = lesson
        .apply(&lesson.settings_with([("readpast", "off")]).unwrap())
        .unwrap();
    assert_eq!(off.properties.len(), 3);
    // A built-in is there by name even when the lesson does not declare it.
    let p = find_property(&on.properties, "no-errors").expect("built-in");
    assert_eq!(
        (p.label.as_str(), p.line),
        ("No session ends with an error", 0)
    );
    assert!(find_property(&on.properties, "empty-at-end").is_none());
}

#[test]
fn a_property_is_one_of_always_at_end_and_holds() {
    check_x(
        r#"
always = "SELECT 1"
holds = "no-errors"
"#,
        expect![[r#"
            lessons/tiny.md:24:9: property `x`: `holds` cannot go with `always`; a property is one of `always`, `at_end` and `holds`
        "#]],
    );
    check_x(
        r#"
"#,
        expect![[r#"
            lessons/tiny.md:21:8: property `x` needs one of `always = "SQL"`, `at_end = "SQL"` or `holds = "no-errors"`
        "#]],
    );
}

#[test]
fn sql_properties_need_a_bound_and_built_ins_take_none() {
    check_x(
        r#"
at_end = "SELECT 1"
"#,
        expect![[r#"
            lessons/tiny.md:23:10: property `x` needs a bound on its SQL's number: `equals`, `min` or `max`
        "#]],
    );
    check_x(
        r#"
always = "SELECT 1"
equals = 0
max = 2
"#,
        expect![[r#"
            lessons/tiny.md:23:10: property `x`: `equals` excludes `min` and `max`
        "#]],
    );
    check(
        r#"
[[properties]]
name = "no-errors"
label = "X"
holds = "no-errors"
max = 0
"#,
        expect![[r#"
            lessons/tiny.md:24:7: property `no-errors`: a built-in (`holds`) takes no bound
        "#]],
    );
}

#[test]
fn property_names_are_kebab_case_unique_and_not_a_built_in_s() {
    check(
        r#"
[[properties]]
name = "No_Double"
label = "X"
holds = "no-errors"

[[properties]]
name = "twice"
label = "X"
holds = "no-errors"

[[properties]]
name = "twice"
label = " "
holds = "no-errors"

[[properties]]
name = "no-deadlock"
label = "X"
always = "SELECT 0"
max = 0
"#,
        expect![[r#"
            lessons/tiny.md:21:8: bad property name `No_Double`: use lower-case words joined by `-`, such as `no-double-claim`
            lessons/tiny.md:31:8: two properties are named `twice`
            lessons/tiny.md:32:9: property `twice` needs a non-empty `label`: what it promises, in a sentence
            lessons/tiny.md:36:8: `no-deadlock` is the name of a built-in property: use it with holds = "no-deadlock", or choose another name
        "#]],
    );
    check_x(
        r#"
holds = "no-lost-rows"
"#,
        expect![[r#"
            lessons/tiny.md:23:9: front matter: unknown variant `no-lost-rows`, expected `no-errors` or `no-deadlock`
        "#]],
    );
}

#[test]
fn checking_a_property_reads_the_state_and_changes_nothing() {
    let text = edit(&[("max = 1\n+++", &format!("max = 1\n{GOOD}+++"))]);
    let lesson = Lesson::parse("lessons/tiny.md", &text).unwrap();
    let applied = lesson
        .apply(&lesson.settings_with([("readpast", "off")]).unwrap())
        .unwrap();
    let mut checked = engine::Simulation::new(&applied.scenario, 0).unwrap();
    checked.set_mode(Mode::Untimed);
    checked.set_sink(Sink::Nothing);
    let mut plain = checked.clone();
    while !checked.is_finished() {
        for p in &applied.properties {
            assert_eq!(p.violation(&mut checked), Ok(None), "{}", p.name);
        }
        assert_eq!(checked.fingerprint(), plain.fingerprint());
        let pick = checked.enabled()[0];
        checked.step_session(pick).unwrap();
        plain.step_session(pick).unwrap();
    }
    assert_eq!(checked.outcome(), plain.outcome());
    // A property whose SQL fails is the lesson's error, named.
    let mut bad = applied.properties[0].clone();
    bad.kind = PropertyKind::Always {
        sql: "SELECT COUNT(*) FROM nowhere".into(),
        bound: lockstep_lesson::Bound::default(),
    };
    let e = bad.violation(&mut checked).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("property `one-row`: query failed"),
        "{e}"
    );
}
