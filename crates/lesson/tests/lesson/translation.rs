//! Translations (`lessons/<lang>/<id>.md`): each kind of drift from the original is
//! refused at its `file:line:col`, and an accepted translation gives the original
//! lesson with its texts.

use expect_test::{expect, Expect};
use lockstep_lesson::{narrative_html, run, Compiled, Lesson, Translation};

const ORIGINAL: &str = r#"+++
id = "tiny"
title = "Tiny"
dialect = "tsql"
summary = "Two sessions and a lock."

[[toggles]]
name = "readpast"
label = "READPAST"
values = ["on", "off"]
help = "Skip locked rows."

[[checks]]
name = "B does not wait"
when = { readpast = "on" }
session = "B"
figure = "wait_ms"
max = 1

[[checks]]
name = "no errors"
figure = "errors"
equals = 0

[[anomalies]]
kind = "duplicate"
table = "t"
columns = ["id"]
label = "row written twice"
verb = "inserted"

[[properties]]
name = "no-errors"
label = "Nobody fails"
holds = "no-errors"

[[questions]]
name = "b-wait"
ask = "How long will B wait?"
session = "B"
figure = "wait_ms"
explain = "It depends on READPAST."
choices = [
  { label = "Not at all", max = 1 },
  { label = "A while", min = 1 },
]
+++

# Tiny

Some prose.

```sql setup
CREATE TABLE t (id int PRIMARY KEY);
INSERT INTO t (id) VALUES (1), (2);
```

```sql session=A
BEGIN TRAN;
SELECT id FROM t WITH (UPDLOCK);
WAITFOR DELAY '00:00:01';
COMMIT;
```

```sql session=B start=500ms
SELECT id FROM t WITH ({{readpast: on=READPAST, }}ROWLOCK);
```
"#;

const TRANSLATED_FRONT: &str = r#"+++
id = "tiny"
lang = "pl"
title = "Malutka"
summary = "Dwie sesje i blokada."

[[toggles]]
name = "readpast"
values = ["on", "off"]
label = "READPAST"
help = "Pomija zablokowane wiersze."

[[checks]]
original = "B does not wait"
name = "B nie czeka"

[[checks]]
original = "no errors"
name = "bez błędów"

[[anomalies]]
label = "wiersz zapisany dwa razy"
verb = "wstawiła"

[[properties]]
name = "no-errors"
label = "Nikt nie kończy błędem"

[[questions]]
name = "b-wait"
ask = "Jak długo B będzie czekać?"
explain = "To zależy od READPAST."
choices = ["Wcale", "Chwilę"]
+++
"#;

/// The Markdown after a lesson's front matter.
fn body(lesson: &str) -> &str {
    let after = &lesson[3..];
    &after[after.find("+++\n").expect("closing +++") + 4..]
}

/// The Polish translation: [`TRANSLATED_FRONT`], and the original's narrative with its
/// prose translated (the same `sql` blocks, as a translation has them).
fn translated() -> String {
    let narrative = body(ORIGINAL)
        .replacen("# Tiny\n\nSome prose.", "# Malutka\n\nTrochę prozy.", 1)
        .replacen(
            "```sql session=A",
            "- Lista, jak w oryginale.\n\n```sql session=A",
            1,
        );
    format!("{TRANSLATED_FRONT}{narrative}")
}

fn original() -> Lesson {
    Lesson::parse("lessons/tiny.md", ORIGINAL).expect("the original parses")
}

fn parse(text: &str) -> Result<Translation, String> {
    Translation::parse("lessons/pl/tiny.md", text, &original()).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        lines.join("\n")
    })
}

/// The errors of the translation with `from` replaced by `to` (once).
fn drift(from: &str, to: &str, expect: Expect) {
    assert!(
        translated().contains(from),
        "{from:?} is not in the fixture"
    );
    let text = translated().replacen(from, to, 1);
    let errors = parse(&text).expect_err("a drifted translation is refused");
    expect.assert_eq(&errors);
}

#[test]
fn the_fixture_is_a_valid_translation() {
    let t = parse(&translated()).unwrap();
    assert_eq!((t.id.as_str(), t.lang.as_str()), ("tiny", "pl"));
    assert_eq!(t.check_name("no errors"), "bez błędów");
    assert_eq!(t.check_name("not a check"), "not a check");
}

#[test]
fn a_toggle_name_that_drifts() {
    drift(
        "name = \"readpast\"",
        "name = \"read_past\"",
        expect![[
            r#"lessons/pl/tiny.md:8:8: toggle `read_past`: the original's toggle here is `readpast` (names are keys: copy them, in the original's order)"#
        ]],
    );
}

#[test]
fn toggle_values_that_drift() {
    drift(
        "values = [\"on\", \"off\"]",
        "values = [\"off\", \"on\"]",
        expect![[
            r#"lessons/pl/tiny.md:9:10: toggle `readpast`: values ["off", "on"], the original's are ["on", "off"] (values are a contract: copy them)"#
        ]],
    );
    drift(
        "values = [\"on\", \"off\"]",
        "values = [\"włączone\", \"wyłączone\"]",
        expect![[
            r#"lessons/pl/tiny.md:9:10: toggle `readpast`: values ["włączone", "wyłączone"], the original's are ["on", "off"] (values are a contract: copy them)"#
        ]],
    );
}

#[test]
fn a_toggle_without_the_help_the_original_has() {
    drift(
        "help = \"Pomija zablokowane wiersze.\"\n",
        "",
        expect![[
            r#"lessons/pl/tiny.md:10:9: toggle `readpast` has `help` in the original: translate it"#
        ]],
    );
}

#[test]
fn a_check_whose_original_name_drifts() {
    drift(
        "original = \"no errors\"",
        "original = \"No errors\"",
        expect!["lessons/pl/tiny.md:18:12: check `original` is `No errors`; the original's check here is `no errors` (copy its name verbatim)"],
    );
}

#[test]
fn checks_in_another_order() {
    let text = translated()
        .replacen("B does not wait", "@", 1)
        .replacen(
            "original = \"no errors\"",
            "original = \"B does not wait\"",
            1,
        )
        .replacen("@", "no errors", 1);
    expect![[r#"
        lessons/pl/tiny.md:14:12: check `original` is `no errors`; the original's check here is `B does not wait` (copy its name verbatim)
        lessons/pl/tiny.md:18:12: check `original` is `B does not wait`; the original's check here is `no errors` (copy its name verbatim)"#]]
    .assert_eq(&parse(&text).unwrap_err());
}

#[test]
fn a_missing_check_and_an_extra_one() {
    drift(
        "[[checks]]\noriginal = \"no errors\"\nname = \"bez błędów\"\n\n",
        "",
        expect!["lessons/pl/tiny.md:14:12: [[checks]]: 1 entries, the original has 2 (missing: `no errors`)"],
    );
    drift(
        "[[anomalies]]",
        "[[checks]]\noriginal = \"extra\"\nname = \"dodatkowy\"\n\n[[anomalies]]",
        expect!["lessons/pl/tiny.md:22:12: [[checks]]: 3 entries, the original has 2: remove this one and those after it"],
    );
}

#[test]
fn a_check_hint_the_original_lacks() {
    drift(
        "name = \"bez błędów\"",
        "name = \"bez błędów\"\nhint = \"podpowiedź\"",
        expect![
            "lessons/pl/tiny.md:20:8: check `no errors` has no `hint` in the original: remove it"
        ],
    );
}

#[test]
fn property_and_question_keys_that_drift() {
    drift(
        "name = \"no-errors\"",
        "name = \"bez-bledow\"",
        expect!["lessons/pl/tiny.md:26:8: property `bez-bledow`: the original's property here is `no-errors` (names are keys: copy them, in the original's order)"],
    );
    drift(
        "name = \"b-wait\"",
        "name = \"b-czeka\"",
        expect!["lessons/pl/tiny.md:30:8: question `b-czeka`: the original's question here is `b-wait` (names are keys: copy them, in the original's order)"],
    );
    drift(
        "choices = [\"Wcale\", \"Chwilę\"]",
        "choices = [\"Wcale\"]",
        expect![[
            r#"lessons/pl/tiny.md:33:11: question `b-wait`: 1 choice, the original has 2, in this order: "Not at all", "A while""#
        ]],
    );
}

#[test]
fn anomaly_count_and_verb() {
    drift(
        "[[anomalies]]\nlabel = \"wiersz zapisany dwa razy\"\nverb = \"wstawiła\"\n\n",
        "",
        expect!["lessons/pl/tiny.md:2:1: [[anomalies]]: 0 entries, the original has 1 (missing: `row written twice`)"],
    );
    drift(
        "verb = \"wstawiła\"\n",
        "",
        expect!["lessons/pl/tiny.md:22:9: the original's anomaly `row written twice` has verb `inserted`: translate it as `verb`"],
    );
}

#[test]
fn fields_beyond_the_format_are_refused() {
    drift(
        "lang = \"pl\"",
        "lang = \"pl\"\ndialect = \"tsql\"",
        expect![[
            r#"lessons/pl/tiny.md:4:1: front matter: unknown field `dialect`, expected one of `id`, `lang`, `title`, `summary`, `goal`, `hints`, `toggles`, `checks`, `anomalies`, `properties`, `questions` (a translation holds only texts; everything else is the original's)"#
        ]],
    );
    drift(
        "name = \"B nie czeka\"",
        "name = \"B nie czeka\"\nmax = 1",
        expect!["lessons/pl/tiny.md:16:1: front matter: unknown field `max`, expected one of `original`, `name`, `hint` (a translation holds only texts; everything else is the original's)"],
    );
    drift(
        "label = \"READPAST\"",
        "label = \"READPAST\"\ndefault = \"off\"",
        expect![[
            r#"lessons/pl/tiny.md:11:1: front matter: unknown field `default`, expected one of `name`, `values`, `label`, `help` (a translation holds only texts; everything else is the original's)"#
        ]],
    );
}

#[test]
fn id_and_lang_must_match_the_file() {
    drift(
        "id = \"tiny\"",
        "id = \"small\"",
        expect![[
            r#"lessons/pl/tiny.md:2:6: id `small`: a translation's id is its original's (`tiny`) and its file stem (`tiny`)"#
        ]],
    );
    drift(
        "lang = \"pl\"",
        "lang = \"ja\"",
        expect![[
            r#"lessons/pl/tiny.md:3:8: lang `ja`, but the file is in `pl/`: a translation lives in lessons/<lang>/"#
        ]],
    );
    drift(
        "lang = \"pl\"",
        "lang = \"de\"",
        expect![[
            r#"lessons/pl/tiny.md:3:8: lang `de` is not a language lessons are translated into (pl, ja)"#
        ]],
    );
    drift(
        "title = \"Malutka\"",
        "title = \" \"",
        expect![[r#"lessons/pl/tiny.md:4:9: `title` is empty: translate it"#]],
    );
}

#[test]
fn sql_blocks_must_be_the_originals_byte_for_byte() {
    // A keyword translated inside the SQL.
    drift(
        "WAITFOR DELAY '00:00:01';\nCOMMIT;\n```\n\n```sql session=B",
        "WAITFOR DELAY '00:00:02';\nCOMMIT;\n```\n\n```sql session=B",
        expect!["lessons/pl/tiny.md:50:1: sql block 2 (```sql session=A) differs from the original's (line 58) at its line 3: `WAITFOR DELAY '00:00:02';` here, `WAITFOR DELAY '00:00:01';` there; copy every sql block as it is"],
    );
    // A toggle marker changed.
    drift(
        "{{readpast: on=READPAST, }}",
        "{{readpast: on=READPAST,}}",
        expect!["lessons/pl/tiny.md:55:1: sql block 3 (```sql session=B start=500ms) differs from the original's (line 65) at its line 1: `SELECT id FROM t WITH ({{readpast: on=READPAST,}}ROWLOCK);` here, `SELECT id FROM t WITH ({{readpast: on=READPAST, }}ROWLOCK);` there; copy every sql block as it is"],
    );
    // An info string changed.
    drift(
        "```sql session=B start=500ms",
        "```sql session=B start=0.5s",
        expect!["lessons/pl/tiny.md:54:1: sql block 3 is ```sql session=B start=0.5s; the original's (line 65) is ```sql session=B start=500ms: copy every sql block as it is"],
    );
    // A block dropped, and one added.
    drift(
        "```sql session=B start=500ms\nSELECT id FROM t WITH ({{readpast: on=READPAST, }}ROWLOCK);\n```\n",
        "",
        expect!["lessons/pl/tiny.md:54:1: 2 sql blocks, the original has 3: block 3 (```sql session=B start=500ms, line 65) and those after it are missing"],
    );
    drift(
        "Trochę prozy.",
        "Trochę prozy.\n\n```sql\nSELECT 1;\n```",
        expect![[r#"
            lessons/pl/tiny.md:40:1: sql block 1 is ```sql; the original's (line 53) is ```sql setup: copy every sql block as it is
            lessons/pl/tiny.md:58:1: sql block 4 (```sql session=B start=500ms): the original has 3 sql blocks; a translation adds none"#]],
    );
}

#[test]
fn a_translated_lesson_is_the_original_with_its_texts() {
    let original = original();
    let t = parse(&translated()).unwrap();
    let lesson = original.translated(&t);
    assert_eq!(lesson.title, "Malutka");
    assert_eq!(lesson.summary, "Dwie sesje i blokada.");
    assert_eq!(lesson.toggles[0].label, "READPAST");
    assert_eq!(
        lesson.toggles[0].help.as_deref(),
        Some("Pomija zablokowane wiersze.")
    );
    assert_eq!(lesson.toggles[0].values, original.toggles[0].values);
    let names: Vec<&str> = lesson.checks.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["B nie czeka", "bez błędów"]);
    assert_eq!(lesson.anomalies[0].label, "wiersz zapisany dwa razy");
    assert_eq!(lesson.anomalies[0].verb, "wstawiła");
    assert_eq!(lesson.properties[0].label, "Nikt nie kończy błędem");
    assert_eq!(lesson.questions[0].ask, "Jak długo B będzie czekać?");
    let choices: Vec<&str> = lesson.questions[0]
        .choices
        .iter()
        .map(|c| c.label.as_str())
        .collect();
    assert_eq!(choices, ["Wcale", "Chwilę"]);
    // What runs is the original's: the same blocks, checks' kinds and bounds.
    assert_eq!(
        format!("{:?}", lesson.blocks),
        format!("{:?}", original.blocks)
    );
    for (a, b) in lesson.checks.iter().zip(&original.checks) {
        assert_eq!((&a.kind, &a.when), (&b.kind, &b.when));
    }
    let settings = lesson.settings_with([("readpast", "off")]).unwrap();
    let ours = run(&lesson.apply(&settings).unwrap(), 1).unwrap();
    let theirs = run(&original.apply(&settings).unwrap(), 1).unwrap();
    assert_eq!(ours.outcome.end_us, theirs.outcome.end_us);
    assert!(ours.outcome.end_us > 0);
    let verdicts = |r: &lockstep_lesson::RunReport| -> Vec<bool> {
        r.checks.iter().map(|c| c.passed).collect()
    };
    assert_eq!(verdicts(&ours), verdicts(&theirs));
    assert_eq!(ours.checks[0].name, "bez błędów");
    // The narrative is the translation's, its blocks the same placeholders.
    let html = narrative_html(&lesson);
    assert!(html.contains("Trochę prozy.") && !html.contains("Some prose."));
    for i in 0..3 {
        assert!(html.contains(&format!("data-block=\"{i}\"")), "{html}");
    }
}

#[test]
fn compiled_translations_read_back_without_their_markdown() {
    let mut compiled = Compiled::new(original());
    compiled.add_translation(parse(&translated()).unwrap());
    let bytes = Compiled::encode_all(std::slice::from_ref(&compiled));
    let back = Compiled::decode_all(&bytes).unwrap().remove(0);
    assert_eq!(back.translations.len(), 1);
    assert_eq!(back.translations[0].texts.body, "");
    let pl = back.translated("pl").expect("a Polish translation");
    assert_eq!(pl.lesson.title, "Malutka");
    assert!(
        pl.narrative_html.contains("<h1>Malutka</h1>"),
        "{}",
        pl.narrative_html
    );
    assert_eq!(
        pl.narrative_html,
        compiled.translated("pl").unwrap().narrative_html
    );
    assert!(back.translated("ja").is_none());
    // A lesson without translations costs one byte more than before.
    let plain = Compiled::encode_all(&[Compiled::new(original())]);
    assert!(
        bytes.len() > plain.len() + 200,
        "{} vs {}",
        bytes.len(),
        plain.len()
    );
}

const EXERCISE_FRONT: &str = r#"+++
id = "drill"
title = "Drill"
dialect = "tsql"
summary = "Fix the wait."
kind = "exercise"
seeds = [1, 2]
goal = "Make B not wait."

[[hints]]
text = "Try READPAST."

[[hints]]
text = "Or a hint."

[[checks]]
name = "B does not wait"
session = "B"
figure = "wait_ms"
max = 1
+++
"#;

/// An exercise on [`ORIGINAL`]'s setup and session A, B's SQL to fix.
fn exercise() -> String {
    let narrative = body(ORIGINAL);
    let setup_and_a = &narrative
        [narrative.find("```sql setup").unwrap()..narrative.find("```sql session=B").unwrap()];
    format!(
        "{EXERCISE_FRONT}\n{setup_and_a}```sql session=B start=500ms editable=b\nSELECT id FROM t WITH (UPDLOCK);\n```\n\n```sql solution=b\nSELECT id FROM t WITH (READPAST, UPDLOCK);\n```\n"
    )
}

const EXERCISE_PL_FRONT: &str = r#"+++
id = "drill"
lang = "pl"
title = "Ćwiczenie"
summary = "Usuń czekanie."
goal = "Spraw, by B nie czekała."

[[hints]]
text = "Spróbuj READPAST."

[[hints]]
text = "Albo podpowiedź."

[[checks]]
original = "B does not wait"
name = "B nie czeka"
+++
"#;

fn exercise_pl() -> String {
    format!("{EXERCISE_PL_FRONT}{}", body(&exercise()))
}

fn exercise_errors(text: &str) -> String {
    let original = Lesson::parse("drill.md", &exercise()).expect("the exercise parses");
    match Translation::parse("pl/drill.md", text, &original) {
        Ok(_) => String::new(),
        Err(errors) => {
            let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
            lines.join("\n")
        }
    }
}

#[test]
fn an_exercise_translates_its_goal_and_hints_and_keeps_its_solution() {
    assert_eq!(exercise_errors(&exercise_pl()), "");
    let original = Lesson::parse("drill.md", &exercise()).unwrap();
    let t = Translation::parse("pl/drill.md", &exercise_pl(), &original).unwrap();
    let lesson = original.translated(&t);
    let exercise = lesson.exercise.as_ref().unwrap();
    assert_eq!(exercise.goal, "Spraw, by B nie czekała.");
    assert_eq!(exercise.hints, ["Spróbuj READPAST.", "Albo podpowiedź."]);
    assert_eq!(exercise.seeds, [1, 2]);
    assert_eq!(exercise.solutions.len(), 1);
    expect!["pl/drill.md:9:8: [[hints]]: 1 entries, the original has 2 (missing: hint 2)"]
        .assert_eq(&exercise_errors(&exercise_pl().replacen(
            "\n[[hints]]\ntext = \"Albo podpowiedź.\"\n",
            "",
            1,
        )));
    expect![[r#"pl/drill.md:4:9: the original is an exercise: translate its `goal` too"#]]
        .assert_eq(&exercise_errors(&exercise_pl().replacen(
            "goal = \"Spraw, by B nie czekała.\"\n",
            "",
            1,
        )));
    // The solution is an sql block like any other.
    expect!["pl/drill.md:36:1: sql block 4 (```sql solution=b) differs from the original's (line 39) at its line 1: `SELECT id FROM t WITH (UPDLOCK, READPAST);` here, `SELECT id FROM t WITH (READPAST, UPDLOCK);` there; copy every sql block as it is"]
        .assert_eq(&exercise_errors(&exercise_pl().replacen(
            "(READPAST, UPDLOCK)",
            "(UPDLOCK, READPAST)",
            1,
        )));
    // A plain lesson's translation has no goal.
    let plain = translated().replacen("lang = \"pl\"", "lang = \"pl\"\ngoal = \"Cel.\"", 1);
    expect![[
        r#"lessons/pl/tiny.md:4:8: `goal` belongs to exercises, and the original is not one"#
    ]]
    .assert_eq(&parse(&plain).unwrap_err());
}
