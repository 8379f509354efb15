//! Lesson format tests: data-driven, one input per case, errors as snapshots.

use engine::{Block, Outcome, QueryError, ResultSet, SessionOutcome, SqlErrorInfo, Value};
use expect_test::{expect, Expect};
use lockstep_lesson::{
    evaluate_checks, narrative_html, parse_duration_us, run, Applied, Lesson, Settings,
};

/// A small valid lesson; malformed cases are edits of it.
const BASE: &str = r#"+++
id = "tiny"
title = "Tiny"
dialect = "tsql"
summary = "Two sessions and a lock."
covers = ["Q3"]

[[toggles]]
name = "readpast"
label = "READPAST"
values = ["on", "off"]

[[checks]]
name = "B does not wait"
when = { readpast = "on" }
session = "B"
figure = "wait_ms"
max = 1
+++

Narrative.

```sql setup
CREATE TABLE t (id int PRIMARY KEY);
```

```sql session=A start=0
SELECT id FROM t WITH (UPDLOCK, {{readpast: on=READPAST, }}ROWLOCK);
```

```sql session=B start=1500ms
SELECT id FROM t;
```
"#;

pub(crate) fn edit(edits: &[(&str, &str)]) -> String {
    let mut text = BASE.to_string();
    for (from, to) in edits {
        assert!(text.contains(from), "BASE has no {from:?}");
        text = text.replacen(from, to, 1);
    }
    text
}

fn errors_of(file: &str, text: &str) -> String {
    match Lesson::parse(file, text) {
        Ok(_) => "ok".to_string(),
        Err(errors) => errors.iter().map(|e| format!("{e}\n")).collect(),
    }
}

pub(crate) fn check_error(edits: &[(&str, &str)], expect: Expect) {
    expect.assert_eq(&errors_of("lessons/tiny.md", &edit(edits)));
}

#[test]
fn base_is_valid() {
    check_error(&[], expect![[r#"ok"#]]);
}

// ---- malformed lessons: each gets one precise error ----

#[test]
fn bad_toml() {
    check_error(
        &[("title = \"Tiny\"", "title = \"Tiny")],
        expect![[r#"
        lessons/tiny.md:3:14: front matter: invalid basic string, expected `"`
    "#]],
    );
}

/// A list missing its `]`: TOML complains on the next line; the error says where the
/// `]` goes and which list lacks it, on one line or over several.
#[test]
fn a_list_without_its_closing_bracket_is_named_where_it_ends() {
    check_error(
        &[("covers = [\"Q3\"]", "covers = [\"Q3\" # the seed's IDs")],
        expect![[r#"
            lessons/tiny.md:6:15: front matter: the list opened at 6:10 has no closing `]`: end it here (missing comma between array elements, expected `,`)
        "#]],
    );
    check_error(
        &[(
            "values = [\"on\", \"off\"]",
            "values = [\n  \"on\",\n  \"off\", # the two\n\n",
        )],
        expect![[r#"
            lessons/tiny.md:13:9: front matter: the list opened at 11:10 has no closing `]`: end it here (missing comma between array elements, expected `,`)
        "#]],
    );
    // A missing comma between two elements is still TOML's own error.
    check_error(
        &[(
            "values = [\"on\", \"off\"]",
            "values = [\n  \"on\"\n  \"off\"\n]",
        )],
        expect![[r#"
            lessons/tiny.md:13:3: front matter: missing comma between array elements, expected `,`
        "#]],
    );
}

/// One error for a refused toggle name, at its declaration: its uses in `when` and in
/// markers are not unknown toggles besides.
#[test]
fn toggle_names_the_player_url_uses_are_reserved() {
    check_error(
        &[
            ("name = \"readpast\"", "name = \"t\""),
            ("{{readpast:", "{{t:"),
            ("readpast = \"on\"", "t = \"on\""),
        ],
        expect![[r#"
            lessons/tiny.md:9:8: toggle name `t` is reserved: player URLs use it (reserved: t, e, seed, view, theme, anomaly, schedule, steps, why, tab, lang, speed)
        "#]],
    );
}

#[test]
fn unknown_front_matter_key() {
    check_error(
        &[("title = ", "titel = ")],
        expect![[r#"
            lessons/tiny.md:3:1: front matter: unknown field `titel`, expected one of `id`, `title`, `dialect`, `summary`, `covers`, `kind`, `seed`, `goal`, `hints`, `seeds`, `toggles`, `checks`, `anomalies`, `properties`, `questions`
        "#]],
    );
}

#[test]
fn missing_front_matter() {
    check_error(
        &[("+++\nid", "id")],
        expect![[r#"
        lessons/tiny.md:1:1: a lesson starts with TOML front matter between two `+++` lines
    "#]],
    );
}

#[test]
fn unclosed_front_matter() {
    check_error(
        &[("max = 1\n+++", "max = 1\n++")],
        expect![[r#"
        lessons/tiny.md:1:1: front matter opened here is never closed by a `+++` line
    "#]],
    );
}

#[test]
fn id_differs_from_file_name() {
    check_error(
        &[("id = \"tiny\"", "id = \"tinny\"")],
        expect![[r#"
        lessons/tiny.md:2:6: id `tinny` does not match the file name `tiny`: ids equal the file stem
    "#]],
    );
}

#[test]
fn unknown_toggle_in_span() {
    check_error(
        &[("{{readpast: on", "{{readpst: on")],
        expect![[r#"
            lessons/tiny.md:28:35: unknown toggle `readpst` in marker (toggles: readpast)
        "#]],
    );
}

#[test]
fn value_not_among_toggle_values() {
    check_error(
        &[("{{readpast: on=", "{{readpast: yes=")],
        expect![[r#"
        lessons/tiny.md:28:45: `yes` is not a value of toggle `readpast` (values: on, off)
    "#]],
    );
}

#[test]
fn unterminated_code_block() {
    check_error(
        &[("SELECT id FROM t;\n```\n", "SELECT id FROM t;\n")],
        expect![[r#"
        lessons/tiny.md:31:1: unterminated code block: this fence is never closed
    "#]],
    );
}

#[test]
fn unterminated_span() {
    check_error(
        &[("READPAST, }}ROWLOCK", "READPAST, ROWLOCK")],
        expect![[r#"
            lessons/tiny.md:28:33: unterminated toggle marker: this `{{` has no closing `}}`
        "#]],
    );
}

/// Reported where the open marker is: a `{{` left open met the next marker's, lines
/// later, and the error pointed there.
#[test]
fn nested_span() {
    check_error(
        &[("READPAST, }}", "{{readpast}} }}")],
        expect![[r#"
            lessons/tiny.md:28:33: toggle marker not closed: this `{{` meets another `{{` before its `}}` (markers cannot nest: close this one with `}}`)
        "#]],
    );
}

#[test]
fn span_without_value_text() {
    check_error(
        &[("{{readpast: on=READPAST, }}", "{{readpast: READPAST}}")],
        expect![[r#"
        lessons/tiny.md:28:45: expected `value=text` in the marker of toggle `readpast`, found `READPAST`
    "#]],
    );
}

#[test]
fn duplicate_session_name() {
    check_error(
        &[
            ("session=B", "session=A"),
            ("session = \"B\"", "session = \"A\""),
        ],
        expect![[r#"
        lessons/tiny.md:31:1: duplicate session name `A` (first defined at line 27); give one block a `when`
    "#]],
    );
}

#[test]
fn missing_session() {
    check_error(
        &[
            ("```sql session=A start=0", "```sql show"),
            ("```sql session=B start=1500ms", "```sql show"),
        ],
        expect![[r#"
            lessons/tiny.md:20:1: the lesson has no session: add a block ```sql session=NAME
        "#]],
    );
}

#[test]
fn bad_start_time() {
    check_error(
        &[("start=1500ms", "start=1500")],
        expect![[r#"
        lessons/tiny.md:31:24: bad start time `1500`: write a number with a unit, such as 1500ms, 1.5s, 250us, or 0
    "#]],
    );
}

#[test]
fn unknown_block_attribute() {
    check_error(
        &[("session=B start=1500ms", "session=B begin=1500ms")],
        expect![[r#"
            lessons/tiny.md:31:18: unknown attribute `begin` in a sql block's info string (expected setup, show, session=NAME, start=TIME, when="TOGGLE=VALUE", editable[=ID], solution=ID)
        "#]],
    );
}

#[test]
fn block_attribute_without_value() {
    check_error(
        &[("session=B start=1500ms", "session start=1500ms")],
        expect![[r#"
        lessons/tiny.md:31:8: `session` needs a value: session=...
    "#]],
    );
}

#[test]
fn sql_block_without_role() {
    check_error(
        &[("```sql setup", "```sql")],
        expect![[r#"
            lessons/tiny.md:23:4: a sql block needs a role: `sql setup`, `sql session=NAME` or `sql show` (attributes: setup, show, session=NAME, start=TIME, when="TOGGLE=VALUE", editable[=ID], solution=ID)
        "#]],
    );
}

#[test]
fn unknown_check_figure() {
    check_error(
        &[("figure = \"wait_ms\"", "figure = \"wait_sec\"")],
        expect![[r#"
            lessons/tiny.md:17:10: front matter: unknown variant `wait_sec`, expected one of `wait_ms`, `errors`, `caught_errors`, `error_number`, `statements`, `logical_reads`, `result_rows`, `result_sets`, `end_ms`, `elapsed_ms`, `delayed_ms`, `open_at_end`, `shared_buffers_hit`
        "#]],
    );
}

#[test]
fn check_when_names_unknown_toggle() {
    check_error(
        &[(
            "when = { readpast = \"on\" }",
            "when = { readpst = \"on\" }",
        )],
        expect![[r#"
        lessons/tiny.md:15:10: unknown toggle `readpst` in `when` (toggles: readpast)
    "#]],
    );
}

#[test]
fn check_when_value_not_among_toggle_values() {
    check_error(
        &[(
            "when = { readpast = \"on\" }",
            "when = { readpast = [\"on\", \"of\"] }",
        )],
        expect![[r#"
            lessons/tiny.md:15:21: `of` is not a value of toggle `readpast` (values: on, off)
        "#]],
    );
}

#[test]
fn block_when_names_unknown_toggle() {
    check_error(
        &[(
            "session=B start=1500ms",
            "session=B start=1500ms when=\"workers=4\"",
        )],
        expect![[r#"
        lessons/tiny.md:31:37: unknown toggle `workers` in `when` (toggles: readpast)
    "#]],
    );
}

#[test]
fn block_when_value_not_among_toggle_values() {
    check_error(
        &[(
            "session=B start=1500ms",
            "session=B start=1500ms when=\"readpast=maybe\"",
        )],
        expect![[r#"
        lessons/tiny.md:31:37: `maybe` is not a value of toggle `readpast` (values: on, off)
    "#]],
    );
}

#[test]
fn check_session_not_defined() {
    check_error(
        &[("session = \"B\"", "session = \"C\"")],
        expect![[r#"
        lessons/tiny.md:16:11: check `B does not wait` names session `C`, which no block defines (sessions: A, B)
    "#]],
    );
}

#[test]
fn check_mixes_kinds() {
    check_error(
        &[("max = 1", "max = 1\nexpect_rows = 0")],
        expect![[r#"
        lessons/tiny.md:19:15: check `B does not wait`: `expect_rows` does not belong to a figure check (use `min`, `max` or `equals`)
    "#]],
    );
}

/// A PostgreSQL error has a SQLSTATE, not a number; a figure under another dialect's
/// name is refused too, each where it is written.
#[test]
fn a_figure_of_another_dialect_is_refused() {
    check_error(
        &[
            ("dialect = \"tsql\"", "dialect = \"postgres\""),
            (
                "WITH (UPDLOCK, {{readpast: on=READPAST, }}ROWLOCK)",
                "{{readpast: on=FOR UPDATE SKIP LOCKED| off=FOR UPDATE}}",
            ),
            (
                "figure = \"wait_ms\"\nmax = 1",
                "figure = \"error_number\"\nequals = 0",
            ),
        ],
        expect![[r#"
            lessons/tiny.md:17:10: check `B does not wait`: `error_number` is SQL Server's and Teradata's error number; a PostgreSQL error has a SQLSTATE: count errors with `errors` (the matrix and the trace show the SQLSTATE), or catch it in a DO block and keep `SQLSTATE` in a table for an `sql` check
        "#]],
    );
    check_error(
        &[("figure = \"wait_ms\"", "figure = \"shared_buffers_hit\"")],
        expect![[r#"
            lessons/tiny.md:17:10: check `B does not wait`: `shared_buffers_hit` is PostgreSQL's name for the figure: use `logical_reads`
        "#]],
    );
}

/// A check's SQL is parsed with the lesson, and its mistake placed in the file: in a
/// one-line string at the very token, in a multi-line one too.
#[test]
fn check_sql_is_parsed_and_placed_in_the_file() {
    check_error(
        &[(
            "[[checks]]\nname = \"B does not wait\"",
            "[[checks]]\nname = \"count\"\nsql = \"SELECT COUNT(*) FRM t\"\nexpect = [[0]]\n\n[[checks]]\nname = \"B does not wait\"",
        )],
        expect![[r#"
            lessons/tiny.md:15:28: check `count`: found 't', expected one of: ',', FROM, WHERE, GROUP, HAVING, UNION, EXCEPT, INTERSECT, ORDER, ';', a statement
        "#]],
    );
    check_error(
        &[(
            "[[checks]]\nname = \"B does not wait\"",
            "[[checks]]\nname = \"two\"\nsql = \"\"\"\nSELECT 1;\nSELECT id\n  FROM t WHERE;\"\"\"\nexpect = [[0]]\n\n[[checks]]\nname = \"B does not wait\"",
        )],
        expect![[r#"
            lessons/tiny.md:18:15: check `two`: found ';', expected an expression
        "#]],
    );
}

#[test]
fn marker_with_one_brace_says_it_takes_two() {
    let text = edit(&[("{{readpast: on=READPAST, }}", "{readpast: on=READPAST, }")]);
    let lesson = Lesson::parse("lessons/tiny.md", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let applied = lesson
        .apply(&lesson.settings_default())
        .unwrap_or_else(|e| panic!("{e}"));
    let err = run(&applied, 1).map(|_| ()).unwrap_err();
    expect!["lessons/tiny.md:28:33: unexpected character '{' (a toggle marker takes two braces: {{toggle: value=text | ...}})"].assert_eq(&err.to_string());
}

/// A property's and a question's queries are parsed with the lesson too.
#[test]
fn property_and_question_sql_is_parsed_and_placed_in_the_file() {
    check_error(
        &[(
            "[[checks]]\nname = \"B does not wait\"",
            "[[properties]]\nname = \"few\"\nlabel = \"Few rows\"\nalways = \"SELECT COUNT(*) FROM t WHERE\"\nmax = 2\n\n\
             [[questions]]\nname = \"rows\"\nask = \"How many?\"\nexplain = \"Two.\"\nsql = \"SELECT COUNT(*) FROM\"\n\
             choices = [{ label = \"two\", equals = 2 }, { label = \"other\", min = 3 }]\n\n\
             [[checks]]\nname = \"B does not wait\"",
        )],
        expect![[r#"
            lessons/tiny.md:16:39: property `few`: unexpected end of input, expected an expression
            lessons/tiny.md:23:28: question `rows`: unexpected end of input, expected one of: '(', a variable, an identifier
        "#]],
    );
}

#[test]
fn marker_alternative_without_value() {
    check_error(
        &[(
            "{{readpast: on=READPAST, }}",
            "{{readpast: on=READPAST, | =NOLOCK, }}",
        )],
        expect![[r#"
            lessons/tiny.md:28:60: an alternative in the marker of toggle `readpast` lacks its value before `=` (values: on, off)
        "#]],
    );
}

#[test]
fn check_without_bound() {
    check_error(
        &[("max = 1\n", "")],
        expect![[r#"
        lessons/tiny.md:17:10: check `B does not wait` needs a bound: `min`, `max` or `equals`
    "#]],
    );
}

#[test]
fn toggle_default_not_a_value() {
    check_error(
        &[(
            "values = [\"on\", \"off\"]",
            "values = [\"on\", \"off\"]\ndefault = \"maybe\"",
        )],
        expect![[r#"
        lessons/tiny.md:12:11: default `maybe` is not a value of toggle `readpast` (values: on, off)
    "#]],
    );
}

#[test]
fn toggle_that_switches_nothing() {
    check_error(
        &[("[[checks]]", "[[toggles]]\nname = \"tasks\"\nlabel = \"Tasks\"\nvalues = [\"500\", \"600\"]\n\n[[checks]]")],
        expect![[r#"
            lessons/tiny.md:14:8: toggle `tasks` switches nothing: no marker, block `when` or check `when` uses it
        "#]],
    );
}

/// Several setup blocks run in file order, each a batch of its own (joined with GO);
/// an engine error in the second is placed in the file, not in the joined script.
#[test]
fn two_setup_blocks_run_in_file_order() {
    let text = edit(&[(
        "```sql session=A start=0",
        "```sql setup\nSELECT 1 WHERE;\n```\n\n```sql session=A start=0",
    )]);
    let lesson = Lesson::parse("lessons/tiny.md", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let applied = lesson
        .apply(&lesson.settings_default())
        .unwrap_or_else(|e| panic!("{e}"));
    expect![[r#"
        CREATE TABLE t (id int PRIMARY KEY);
        GO
        SELECT 1 WHERE;
    "#]]
    .assert_eq(&applied.scenario.setup);
    let second = applied.scenario.setup.find("SELECT").expect("second block");
    assert_eq!(applied.setup_position(second + 3), Some((1, 3)));
    assert_eq!(applied.setup_position(2), Some((0, 2)));
    let err = run(&applied, 1).map(|_| ()).unwrap_err();
    expect![[r#"lessons/tiny.md:28:15: found ';', expected an expression"#]]
        .assert_eq(&err.to_string());
}

#[test]
fn a_session_block_in_another_language_is_an_error_not_narrative() {
    check_error(
        &[(
            "```sql session=B start=1500ms",
            "```SQL session=B start=1500ms",
        )],
        expect![[r#"
            lessons/tiny.md:31:1: a lesson block's fence starts with `sql` (this one, `SQL`, would be a code sample in the text): write ```sql session=B start=1500ms
        "#]],
    );
}

#[test]
fn a_start_finer_than_a_microsecond_says_so() {
    check_error(
        &[("start=1500ms", "start=1500.0001ms")],
        expect![[r#"
            lessons/tiny.md:31:24: bad start time `1500.0001ms`: the simulator's clock counts whole microseconds; round it, such as 1us or 300ms
        "#]],
    );
}

#[test]
fn a_bound_whose_min_is_above_its_max_is_an_error() {
    check_error(
        &[("max = 1\n", "min = 3\nmax = 1\n")],
        expect![[r#"
            lessons/tiny.md:18:7: check `B does not wait`: `min` (3) is above `max` (1), so nothing can pass; swap them
        "#]],
    );
}

#[test]
fn toml_type_errors_say_how_to_write_it() {
    check_error(
        &[("[[toggles]]", "[toggles]")],
        expect![[r#"
            lessons/tiny.md:8:1: front matter: invalid type: map, expected a sequence; a list of tables takes `[[name]]` before each item, e.g. `[[toggles]]`
        "#]],
    );
    check_error(
        &[("when = { readpast = \"on\" }", "when = \"readpast=on\"")],
        expect![[r#"
            lessons/tiny.md:15:8: front matter: invalid type: string "readpast=on", expected a map; write a table, e.g. `when = { readpast = "on" }`
        "#]],
    );
    // A row of `expect` without its own brackets.
    check_error(
        &[(
            "[[checks]]",
            "[[checks]]\nname = \"count\"\nsql = \"SELECT COUNT(*) FROM t\"\nexpect = [1, 80]\n\n[[checks]]",
        )],
        expect![[r#"
            lessons/tiny.md:16:11: front matter: invalid type: integer `1`, expected a sequence; write a list in brackets, and a list of rows as a list of lists, e.g. `expect = [[1, 80]]`
        "#]],
    );
}

#[test]
fn several_errors_come_sorted() {
    check_error(
        &[
            ("start=1500ms", "start=soon"),
            ("{{readpast: on", "{{readpst: on"),
            ("covers = [\"Q3\"]", "covers = [\"q3\"]"),
        ],
        expect![[r#"
            lessons/tiny.md:6:11: `q3` in covers is not a scenario ID such as Q3
            lessons/tiny.md:28:35: unknown toggle `readpst` in marker (toggles: readpast)
            lessons/tiny.md:31:24: bad start time `soon`: write a number with a unit, such as 1500ms, 1.5s, 250us, or 0
        "#]],
    );
}

// ---- toggles, rendering and positions ----

/// A lesson using every kind of marker and conditional blocks.
const QUEUE: &str = r#"+++
id = "queue"
title = "Queue"
dialect = "tsql"
summary = "Markers of every kind."
covers = ["Q3", "Q9"]
seed = 7

[[toggles]]
name = "readpast"
label = "READPAST"
values = ["on", "off"]

[[toggles]]
name = "ranks"
label = "Ranks"
values = ["3,3,2,2,1", "3,1,1"]

[[toggles]]
name = "workers"
label = "Workers"
values = ["2", "4"]
default = "4"

[[checks]]
name = "C waits"
when = { workers = "4", readpast = ["off"] }
session = "C"
figure = "wait_ms"
min = 100
+++

# Queue <em>raw</em>

```sql setup
CREATE TABLE task (id int IDENTITY PRIMARY KEY, rank tinyint NOT NULL);
{{ranks:
| 3,3,2,2,1=
INSERT INTO task (rank) VALUES (3), (3), (2), (2), (1);
| 3,1,1=
INSERT INTO task (rank) VALUES (3), (1), (1);
}}
```

```sql session=A
SELECT TOP (1) id FROM task WITH (UPDLOCK, {{readpast: on=READPAST, }}ROWLOCK);
```

```sql session=B start=1.5s
-- {{workers}} workers
SELECT TOP (1) id FROM task WITH (UPDLOCK, {{readpast: on=READPAST, | *=}}ROWLOCK);
```

```sql session=C start=2s when="workers=4"
SELECT 1;
```

```sql show
ORDER BY rank DESC
```
"#;

fn queue() -> Lesson {
    Lesson::parse("lessons/queue.md", QUEUE).unwrap_or_else(|e| panic!("{e:?}"))
}

fn settings(lesson: &Lesson, pairs: &[(&str, &str)]) -> Settings {
    lesson
        .settings_with(pairs.iter().copied())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Rendered blocks with toggled text in ⟦ ⟧, then the scenario's shape.
fn show_applied(applied: &Applied) -> String {
    let mut out = format!("settings: {}\n", applied.settings);
    for b in &applied.blocks {
        let mut text = String::new();
        let mut pos = 0;
        for t in &b.toggled {
            text.push_str(&b.text[pos..t.range.start]);
            text.push_str(&format!("⟦{}:{}⟧", t.toggle, &b.text[t.range.clone()]));
            pos = t.range.end;
        }
        text.push_str(&b.text[pos..]);
        out.push_str(&format!(
            "-- block {} {:?} {:?}\n{text}",
            b.block, b.role, b.engine_block
        ));
    }
    let sessions: Vec<String> = applied
        .scenario
        .sessions
        .iter()
        .map(|s| format!("{}@{}us", s.name, s.start_us))
        .collect();
    out.push_str(&format!("sessions: {}\n", sessions.join(" ")));
    let checks: Vec<&str> = applied.checks.iter().map(|c| c.name.as_str()).collect();
    out.push_str(&format!("checks: {checks:?}\n"));
    out
}

fn check_applied(pairs: &[(&str, &str)], expect: Expect) {
    let lesson = queue();
    let applied = lesson
        .apply(&settings(&lesson, pairs))
        .unwrap_or_else(|e| panic!("{e}"));
    expect.assert_eq(&show_applied(&applied));
}

#[test]
fn apply_defaults() {
    check_applied(
        &[],
        expect![[r#"
        settings: readpast=on ranks=3,3,2,2,1 workers=4
        -- block 0 Setup Some(Setup)
        CREATE TABLE task (id int IDENTITY PRIMARY KEY, rank tinyint NOT NULL);
        ⟦ranks:INSERT INTO task (rank) VALUES (3), (3), (2), (2), (1);⟧
        -- block 1 Session { name: "A", start_us: 0 } Some(Session(0))
        SELECT TOP (1) id FROM task WITH (UPDLOCK, ⟦readpast:READPAST, ⟧ROWLOCK);
        -- block 2 Session { name: "B", start_us: 1500000 } Some(Session(1))
        -- ⟦workers:4⟧ workers
        SELECT TOP (1) id FROM task WITH (UPDLOCK, ⟦readpast:READPAST, ⟧ROWLOCK);
        -- block 3 Session { name: "C", start_us: 2000000 } Some(Session(2))
        SELECT 1;
        -- block 4 Show None
        ORDER BY rank DESC
        sessions: A@0us B@1500000us C@2000000us
        checks: []
    "#]],
    );
}

#[test]
fn apply_every_toggle_switched() {
    check_applied(
        &[("readpast", "off"), ("ranks", "3,1,1"), ("workers", "2")],
        expect![[r#"
        settings: readpast=off ranks=3,1,1 workers=2
        -- block 0 Setup Some(Setup)
        CREATE TABLE task (id int IDENTITY PRIMARY KEY, rank tinyint NOT NULL);
        ⟦ranks:INSERT INTO task (rank) VALUES (3), (1), (1);⟧
        -- block 1 Session { name: "A", start_us: 0 } Some(Session(0))
        SELECT TOP (1) id FROM task WITH (UPDLOCK, ⟦readpast:⟧ROWLOCK);
        -- block 2 Session { name: "B", start_us: 1500000 } Some(Session(1))
        -- ⟦workers:2⟧ workers
        SELECT TOP (1) id FROM task WITH (UPDLOCK, ⟦readpast:⟧ROWLOCK);
        -- block 4 Show None
        ORDER BY rank DESC
        sessions: A@0us B@1500000us
        checks: []
    "#]],
    );
}

#[test]
fn block_conditions_unquoted_and_with_alternatives() {
    let text = QUEUE
        .replace("when=\"workers=4\"", "when=workers=4")
        .replace(
            "```sql show",
            "```sql show when=\"readpast=on|off workers=2\"",
        );
    let lesson = Lesson::parse("lessons/queue.md", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let shown = |pairs: &[(&str, &str)]| {
        let applied = lesson
            .apply(&settings(&lesson, pairs))
            .unwrap_or_else(|e| panic!("{e}"));
        applied.blocks.iter().map(|b| b.block).collect::<Vec<_>>()
    };
    assert_eq!(shown(&[]), [0, 1, 2, 3]);
    assert_eq!(
        shown(&[("workers", "2"), ("readpast", "off")]),
        [0, 1, 2, 4]
    );
}

#[test]
fn apply_makes_the_scenario_from_rendered_text() {
    let lesson = queue();
    let applied = lesson
        .apply(&lesson.settings_default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(applied.scenario.dialect, engine::Dialect::TSql);
    assert_eq!(applied.scenario.setup, applied.blocks[0].text);
    assert_eq!(applied.scenario.sessions[1].sql, applied.blocks[2].text);
}

#[test]
fn narrative_markdown_has_rendered_blocks() {
    let lesson = queue();
    let applied = lesson
        .apply(&settings(&lesson, &[("workers", "2"), ("readpast", "off")]))
        .unwrap_or_else(|e| panic!("{e}"));
    expect![[r#"

        # Queue <em>raw</em>

        ```sql setup
        CREATE TABLE task (id int IDENTITY PRIMARY KEY, rank tinyint NOT NULL);
        INSERT INTO task (rank) VALUES (3), (3), (2), (2), (1);
        ```

        ```sql session=A
        SELECT TOP (1) id FROM task WITH (UPDLOCK, ROWLOCK);
        ```

        ```sql session=B start=1.5s
        -- 2 workers
        SELECT TOP (1) id FROM task WITH (UPDLOCK, ROWLOCK);
        ```



        ```sql show
        ORDER BY rank DESC
        ```
    "#]]
    .assert_eq(&applied.narrative_markdown);
}

#[test]
fn settings_errors() {
    let lesson = queue();
    let err = |pairs: &[(&str, &str)]| {
        lesson
            .settings_with(pairs.iter().copied())
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    expect!["unknown toggle `readpst` (toggles: readpast, ranks, workers)"]
        .assert_eq(&err(&[("readpst", "on")]));
    expect!["`maybe` is not a value of toggle `readpast` (values: on, off)"]
        .assert_eq(&err(&[("readpast", "maybe")]));
}

#[test]
fn settings_errors_are_data_with_the_english_display() {
    let lesson = queue();
    let error = |name, value| {
        lesson
            .settings_with([(name, value)])
            .map(|_| ())
            .unwrap_err()
    };
    assert_eq!(
        error("readpast", "maybe"),
        lockstep_lesson::SettingsError::NotAValue {
            name: "readpast".into(),
            value: "maybe".into(),
            values: vec!["on".into(), "off".into()],
        }
    );
    assert_eq!(
        error("readpst", "on"),
        lockstep_lesson::SettingsError::UnknownToggle {
            name: "readpst".into(),
            known: vec!["readpast".into(), "ranks".into(), "workers".into()],
        }
    );
    let none = lockstep_lesson::SettingsError::UnknownToggle {
        name: "speed".into(),
        known: Vec::new(),
    };
    assert_eq!(
        none.to_string(),
        "unknown toggle `speed`: this lesson has no toggles"
    );
}

#[test]
fn combinations_default_first_then_product() {
    let lesson = queue();
    let combos = lesson.all_combinations();
    let list: Vec<String> = combos.settings.iter().map(|s| s.to_string()).collect();
    expect![[r#"
        (
            8,
            false,
            [
                "readpast=on ranks=3,3,2,2,1 workers=4",
                "readpast=on ranks=3,3,2,2,1 workers=2",
                "readpast=on ranks=3,1,1 workers=4",
                "readpast=on ranks=3,1,1 workers=2",
                "readpast=off ranks=3,3,2,2,1 workers=4",
                "readpast=off ranks=3,3,2,2,1 workers=2",
                "readpast=off ranks=3,1,1 workers=4",
                "readpast=off ranks=3,1,1 workers=2",
            ],
        )
    "#]]
    .assert_debug_eq(&(combos.total, combos.capped, list));
}

#[test]
fn combinations_past_the_cap_try_every_value() {
    let lesson = queue();
    let combos = lesson.combinations(4);
    let list: Vec<String> = combos.settings.iter().map(|s| s.to_string()).collect();
    expect![[r#"
        (
            8,
            true,
            [
                "readpast=on ranks=3,3,2,2,1 workers=4",
                "readpast=off ranks=3,3,2,2,1 workers=4",
                "readpast=on ranks=3,1,1 workers=4",
                "readpast=on ranks=3,3,2,2,1 workers=2",
            ],
        )
    "#]]
    .assert_debug_eq(&(combos.total, combos.capped, list));
}

#[test]
fn conditional_duplicate_sessions_clash_in_apply() {
    let text = QUEUE.replace(
        "```sql session=C start=2s when=\"workers=4\"",
        "```sql session=B start=2s when=\"workers=4\"",
    );
    let text = text.replace("session = \"C\"", "session = \"B\"");
    let lesson = Lesson::parse("lessons/queue.md", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let err = lesson
        .apply(&lesson.settings_default())
        .map(|_| ())
        .unwrap_err();
    expect!["lessons/queue.md:54:1: session `B` is defined twice with readpast=on ranks=3,3,2,2,1 workers=4 (lines 49 and 54); give the blocks exclusive `when` conditions"].assert_eq(&err.to_string());
    assert!(lesson
        .apply(&settings(&lesson, &[("workers", "2")]))
        .is_ok());
}

#[test]
fn no_session_for_some_settings() {
    let text = QUEUE
        .replace(
            "```sql session=A\n",
            "```sql session=A when=\"workers=4\"\n",
        )
        .replace(
            "```sql session=B start=1.5s\n",
            "```sql session=B start=1.5s when=\"workers=4\"\n",
        );
    let lesson = Lesson::parse("lessons/queue.md", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let err = lesson
        .apply(&settings(&lesson, &[("workers", "2")]))
        .map(|_| ())
        .unwrap_err();
    expect!["lessons/queue.md:45:1: no session runs with readpast=on ranks=3,3,2,2,1 workers=2: every session block's `when` excludes it"].assert_eq(&err.to_string());
}

/// Engine errors arrive as (block, line, col) in the rendered text; they must land on
/// the same characters in the lesson file, through toggled text too.
#[test]
fn engine_positions_map_back_to_the_file() {
    let lesson = queue();
    let applied = lesson
        .apply(&settings(&lesson, &[("ranks", "3,1,1")]))
        .unwrap_or_else(|e| panic!("{e}"));
    let at = |block, line, col| applied.locate(block, line, col, "msg").to_string();
    let found = [
        // `CREATE` in setup, first line
        at(Block::Setup, 1, 1),
        // in `VALUES` of the INSERT that came from the `3,1,1` alternative
        at(Block::Setup, 2, 26),
        // `ROWLOCK` in A after the toggled `READPAST, `
        at(Block::Session(0), 1, 54),
        // inside the inserted `{{workers}}` value: the marker itself
        at(Block::Session(1), 1, 4),
        // past the end of a line: clamped to its end
        at(Block::Session(1), 2, 999),
        at(Block::Session(2), 1, 8),
    ];
    expect![[r#"
        [
            "lessons/queue.md:36:1: msg",
            "lessons/queue.md:41:26: msg",
            "lessons/queue.md:46:71: msg",
            "lessons/queue.md:50:4: msg",
            "lessons/queue.md:51:84: msg",
            "lessons/queue.md:55:8: msg",
        ]
    "#]]
    .assert_debug_eq(&found);
}

#[test]
fn narrative_html_escapes_raw_html_and_marks_blocks() {
    let lesson = queue();
    expect![[r#"
        <h1>Queue &lt;em&gt;raw&lt;/em&gt;</h1>
        <div class="lockstep-block" data-block="0"></div>
        <div class="lockstep-block" data-block="1"></div>
        <div class="lockstep-block" data-block="2"></div>
        <div class="lockstep-block" data-block="3"></div>
        <div class="lockstep-block" data-block="4"></div>
    "#]]
    .assert_eq(&narrative_html(&lesson));
}

#[test]
fn markdown_html_neutralises_scripts_and_links() {
    let html = lockstep_lesson::markdown_html(
        "<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> [a](javascript:alert(1)) [b](https://example.org) [c](other.md) ![i](data:text/html,x)\n",
    );
    expect![[r##"
        &lt;script&gt;alert(1)&lt;/script&gt;
        <p>Text &lt;img src=x onerror=alert(1)&gt; <a href="#">a</a> <a href="https://example.org">b</a> <a href="other.md">c</a> <img src="#" alt="i" /></p>
    "##]].assert_eq(&html);
}

#[test]
fn crlf_lessons_parse_like_lf() {
    let crlf = QUEUE.replace('\n', "\r\n");
    let lesson = Lesson::parse("lessons/queue.md", &crlf).unwrap_or_else(|e| panic!("{e:?}"));
    let applied = lesson
        .apply(&settings(&lesson, &[("ranks", "3,1,1")]))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        applied.blocks[0].text.replace("\r\n", "\n"),
        queue()
            .apply(&settings(&queue(), &[("ranks", "3,1,1")]))
            .unwrap_or_else(|e| panic!("{e}"))
            .blocks[0]
            .text
    );
}

#[test]
fn start_times() {
    let cases = [
        "0",
        "1500ms",
        "1.5s",
        "250us",
        "0.25ms",
        "2s",
        "1.0005ms",
        "1500",
        "1.5x",
        "ms",
        "1.s",
        "-1s",
        "99999999999999999999s",
    ];
    let parsed: Vec<String> = cases
        .iter()
        .map(|c| format!("{c} -> {:?}", parse_duration_us(c)))
        .collect();
    expect![[r#"
        [
            "0 -> Some(0)",
            "1500ms -> Some(1500000)",
            "1.5s -> Some(1500000)",
            "250us -> Some(250)",
            "0.25ms -> Some(250)",
            "2s -> Some(2000000)",
            "1.0005ms -> None",
            "1500 -> None",
            "1.5x -> None",
            "ms -> None",
            "1.s -> None",
            "-1s -> None",
            "99999999999999999999s -> None",
        ]
    "#]]
    .assert_debug_eq(&parsed);
}

// ---- checks ----

fn outcome() -> Outcome {
    let session = |name: &str, wait_us, errors: Vec<u32>, rows: Vec<Vec<Value>>| SessionOutcome {
        name: name.to_string(),
        wait_us,
        statements: 4,
        errors: errors
            .into_iter()
            .map(|number| SqlErrorInfo {
                number,
                severity: 16,
                state: 1,
                message: format!("error {number}"),
                caught: false,
                sqlstate: None,
                at: None,
            })
            .collect(),
        results: vec![ResultSet {
            columns: vec!["id".into(), "owner".into()],
            rows,
        }],
        logical_reads: 9,
        elapsed_us: 3_000_000,
        delayed_us: 0,
        open_at_end: false,
    };
    Outcome {
        end_us: 4_000_250,
        sessions: vec![
            session(
                "A",
                0,
                vec![],
                vec![vec![Value::Int(1), Value::Text("A".into())]],
            ),
            session(
                "B",
                2_498_123,
                vec![650],
                vec![vec![Value::Int(2), Value::Null]],
            ),
        ],
    }
}

fn fake_query(sql: &str) -> Result<ResultSet, QueryError> {
    let rows = match sql {
        "SELECT COUNT(*) FROM claim" => vec![vec![Value::Int(498)]],
        "SELECT id, owner FROM task" => vec![
            vec![Value::Int(1), Value::Text("A".into())],
            vec![Value::Int(2), Value::Null],
        ],
        "SELECT taken FROM task" => vec![vec![Value::DateTime(1_500_000, engine::Stamp::Full(3))]],
        "SELECT nothing" => vec![],
        _ => {
            return Err(QueryError {
                line: 1,
                col: 8,
                message: "Invalid object name 'x'.".into(),
            })
        }
    };
    Ok(ResultSet {
        columns: vec!["c".into()],
        rows,
    })
}

const CHECKS: &str = r#"
[[checks]]
name = "A never waits"
session = "A"
figure = "wait_ms"
max = 1

[[checks]]
name = "B waits the rest of the hold"
session = "B"
figure = "wait_ms"
min = 2450
max = 2550

[[checks]]
name = "B fails with 650"
session = "B"
figure = "error_number"
equals = 650

[[checks]]
name = "no errors anywhere"
figure = "errors"
equals = 0

[[checks]]
name = "run ends after 4 s"
figure = "end_ms"
min = 4000

[[checks]]
name = "logical reads in range"
session = "A"
figure = "logical_reads"
min = 156
max = 192

[[checks]]
name = "result rows summed"
figure = "result_rows"
equals = 2

[[checks]]
name = "exact rows"
sql = "SELECT id, owner FROM task"
expect = [[1, "A"], [2, "NULL"]]

[[checks]]
name = "wrong rows"
sql = "SELECT id, owner FROM task"
expect = [[1, "A"], [2, "B"]]

[[checks]]
name = "count in range"
sql = "SELECT COUNT(*) FROM claim"
expect_min = 450
expect_max = 500

[[checks]]
name = "count too high"
sql = "SELECT COUNT(*) FROM claim"
expect_max = 10

[[checks]]
name = "no rows"
sql = "SELECT nothing"
expect_rows = 0

[[checks]]
name = "rows expected, some found"
sql = "SELECT id, owner FROM task"
expect_rows = 0

[[checks]]
name = "datetime as text"
sql = "SELECT taken FROM task"
expect = [["1970-01-01 00:00:01.500"]]

[[checks]]
name = "query fails"
sql = "SELECT x"
expect_rows = 0

[[checks]]
name = "what B got"
session = "B"
result = 1
expect = [[2, "NULL"]]

[[checks]]
name = "a result B never returned"
session = "B"
result = 2
expect_rows = 1
"#;

#[test]
fn checks_evaluate_with_expected_and_actual() {
    let text = BASE.replacen("+++\n\nNarrative", &format!("{CHECKS}+++\n\nNarrative"), 1);
    let lesson = Lesson::parse("lessons/tiny.md", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let results = evaluate_checks(&lesson.checks, &outcome(), &mut fake_query);
    let lines: String = results
        .iter()
        .map(|r| {
            format!(
                "{} {}:{} {}: {}\n",
                if r.passed { "PASS" } else { "FAIL" },
                r.line,
                r.col,
                r.name,
                r.detail
            )
        })
        .collect();
    expect![[r#"
        FAIL 14:8 B does not wait: B wait_ms = 2498.123 (expected at most 1)
        PASS 21:8 A never waits: A wait_ms = 0 (expected at most 1)
        PASS 27:8 B waits the rest of the hold: B wait_ms = 2498.123 (expected 2450 to 2550)
        PASS 34:8 B fails with 650: B error_number = 650 (expected 650)
        FAIL 40:8 no errors anywhere: all sessions errors = 1 (expected 0)
        PASS 45:8 run ends after 4 s: end_ms = 4000.25 (expected at least 4000)
        FAIL 50:8 logical reads in range: A logical_reads = 9 (expected 156 to 192)
        PASS 57:8 result rows summed: all sessions result_rows = 2 (expected 2)
        PASS 62:8 exact rows: got (1, "A"), (2, NULL)
        FAIL 67:8 wrong rows: expected (1, "A"), (2, "B"), got (1, "A"), (2, NULL)
        PASS 72:8 count in range: got 498 (expected 450 to 500)
        FAIL 78:8 count too high: got 498 (expected at most 10)
        PASS 83:8 no rows: expected 0 rows, got 0
        FAIL 88:8 rows expected, some found: expected 0 rows, got 2: (1, "A"), (2, NULL)
        PASS 93:8 datetime as text: got "1970-01-01 00:00:01.500"
        FAIL 98:8 query fails: query failed at 1:8: Invalid object name 'x'.
        PASS 103:8 what B got: got (2, NULL)
        FAIL 109:8 a result B never returned: session B returned 1 result set; the check reads result 2
    "#]].assert_eq(&lines);
}

#[test]
fn checks_of_a_session_that_did_not_run_fail() {
    let lesson = queue();
    let results = evaluate_checks(&lesson.checks, &outcome(), &mut fake_query);
    expect![[r#"
        [
            CheckResult {
                name: "C waits",
                passed: false,
                bug: false,
                detail: NoSession {
                    session: "C",
                },
                line: 26,
                col: 8,
            },
        ]
    "#]]
    .assert_debug_eq(&results);
}

// ---- running on the engine ----

#[test]
fn run_executes_and_evaluates_the_applied_checks() {
    let lesson = queue();
    let applied = lesson
        .apply(&settings(&lesson, &[("readpast", "off")]))
        .unwrap_or_else(|e| panic!("{e}"));
    let report = run(&applied, lesson.seed).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.seed, 7);
    assert_eq!(report.checks.len(), 1);
    assert_eq!(report.outcome.sessions.len(), 3);
}

/// Needs the real engine: the stub returns no rows and no waits.
#[test]
fn run_on_the_real_engine_passes_its_checks() {
    let text = BASE.replacen(
        "+++\n\nNarrative",
        "[[checks]]\nname = \"rows\"\nsql = \"SELECT COUNT(*) FROM t\"\nexpect = [[2]]\n\n[[checks]]\nname = \"B waits\"\nwhen = { readpast = \"off\" }\nsession = \"B\"\nfigure = \"statements\"\nmin = 1\n+++\n\nNarrative",
        1,
    )
    .replace("CREATE TABLE t (id int PRIMARY KEY);", "CREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO t VALUES (1), (2);");
    let lesson = Lesson::parse("lessons/tiny.md", &text).unwrap_or_else(|e| panic!("{e:?}"));
    for settings in lesson.all_combinations().settings {
        let applied = lesson.apply(&settings).unwrap_or_else(|e| panic!("{e}"));
        let report = run(&applied, 1).unwrap_or_else(|e| panic!("{e}"));
        assert!(report.all_passed(), "{settings}: {:?}", report.checks);
    }
}

/// Needs the real engine: the stub accepts any SQL.
#[test]
fn engine_syntax_errors_point_into_the_lesson_file() {
    let text = BASE.replace("SELECT id FROM t;", "SELECT id FROM t WHERE;");
    let lesson = Lesson::parse("lessons/tiny.md", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let applied = lesson
        .apply(&lesson.settings_default())
        .unwrap_or_else(|e| panic!("{e}"));
    let err = run(&applied, 1).map(|_| ()).unwrap_err();
    assert!(err.to_string().starts_with("lessons/tiny.md:32:"), "{err}");
}

// ---- the worked example of lessons/README.md ----

fn readme_example() -> String {
    let readme = include_str!("../../../lessons/README.md");
    let start = readme
        .find("<!-- example-start -->\n````markdown\n")
        .expect("example start marker");
    let from = &readme[start..];
    let from = &from[from.find('\n').map_or(0, |i| i + 1)..];
    let from = &from[from.find('\n').map_or(0, |i| i + 1)..];
    let end = from
        .find("````\n<!-- example-end -->")
        .expect("example end marker");
    from[..end].to_string()
}

#[test]
fn readme_example_is_a_valid_lesson() {
    let lesson = Lesson::parse("lessons/example-wait-or-skip.md", &readme_example())
        .unwrap_or_else(|e| {
            panic!(
                "{}",
                e.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        });
    let combos = lesson.all_combinations();
    assert_eq!((combos.total, combos.capped), (4, false));
    for settings in &combos.settings {
        let applied = lesson.apply(settings).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(applied.scenario.sessions.len(), 2);
        run(&applied, lesson.seed).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn readme_example_passes_its_checks_on_the_real_engine() {
    let lesson = Lesson::parse("lessons/example-wait-or-skip.md", &readme_example())
        .unwrap_or_else(|e| panic!("{e:?}"));
    for settings in lesson.all_combinations().settings {
        let applied = lesson.apply(&settings).unwrap_or_else(|e| panic!("{e}"));
        let report = run(&applied, lesson.seed).unwrap_or_else(|e| panic!("{e}"));
        let failed: Vec<_> = report.checks.iter().filter(|c| !c.passed).collect();
        assert!(failed.is_empty(), "{settings}: {failed:?}");
    }
}

#[test]
fn readme_documents_every_figure() {
    let readme = include_str!("../../../lessons/README.md");
    for figure in lockstep_lesson::Figure::ALL {
        assert!(
            readme.contains(&format!("| `{}` |", figure.name())),
            "README lacks figure {}",
            figure.name()
        );
    }
}

/// `Q1–Q3, Q9` as the ids it names: Q1, Q2, Q3, Q9.
fn expand_covers(cell: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for part in cell.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('–') {
            Some((from, to)) => {
                let (kind, from) = from.split_at(1);
                let (from, to): (u32, u32) = (from.parse().unwrap(), to[1..].parse().unwrap());
                ids.extend((from..=to).map(|n| format!("{kind}{n}")));
            }
            None => ids.push(part.to_string()),
        }
    }
    ids.sort();
    ids
}

/// The contract table of lessons/README.md says what each lesson covers; readers of
/// SCENARIOS.md follow it, so it must name what the lesson's front matter does.
#[test]
fn readme_covers_column_matches_every_lesson() {
    let readme = include_str!("../../../lessons/README.md");
    let dir = format!("{}/../../lessons", env!("CARGO_MANIFEST_DIR"));
    let table = readme
        .split("| lesson id | covers |")
        .nth(1)
        .expect("the contract table");
    let mut rows = 0;
    for line in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let [_, id, covers, ..] = cells[..] else {
            continue;
        };
        let Some(id) = id.strip_prefix('`').and_then(|i| i.strip_suffix('`')) else {
            continue;
        };
        if !covers.starts_with(['Q', 'T', 'I']) {
            continue;
        }
        let covers = covers.split(" (").next().unwrap_or(covers);
        let path = format!("{dir}/{id}.md");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let lesson = Lesson::parse(&format!("lessons/{id}.md"), &text)
            .unwrap_or_else(|e| panic!("{id}: {e:?}"));
        let mut front = lesson.covers.clone();
        front.sort();
        assert_eq!(expand_covers(covers), front, "README row of {id}");
        rows += 1;
    }
    assert!(rows >= 20, "found {rows} rows of the contract table");
}

/// Needs the real engine: the stub accepts any SQL.
#[test]
fn engine_not_simulated_errors_point_into_the_lesson_file() {
    let text = BASE.replace("SELECT id FROM t;", "SELECT id FROM t;\nOPEN c;");
    let lesson = Lesson::parse("lessons/tiny.md", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let applied = lesson
        .apply(&lesson.settings_default())
        .unwrap_or_else(|e| panic!("{e}"));
    let err = run(&applied, 1).map(|_| ()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("lessons/tiny.md:33:1: not simulated"),
        "{err}"
    );
}

// ---- robustness: no input panics ----

/// xorshift: deterministic inputs without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn parse_and_apply_everything(text: &str) {
    if let Ok(lesson) = Lesson::parse("lessons/queue.md", text) {
        let _ = narrative_html(&lesson);
        for s in lesson.combinations(8).settings {
            if let Ok(applied) = lesson.apply(&s) {
                for b in &applied.blocks {
                    for line in 0..4 {
                        let _ =
                            applied.locate(b.engine_block.unwrap_or(Block::Setup), line, 7, "m");
                    }
                }
            }
        }
    }
}

#[test]
fn truncations_never_panic() {
    for text in [QUEUE, BASE] {
        for (i, _) in text.char_indices() {
            parse_and_apply_everything(&text[..i]);
        }
    }
}

#[test]
fn random_edits_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let pieces = [
        "{{",
        "}}",
        "|",
        "=",
        ":",
        "```",
        "```sql session=Z",
        "\n",
        "+++",
        "\"",
        "é",
        "\r\n",
        "{{readpast",
        " when=\"",
        "[[checks]]",
    ];
    for _ in 0..3000 {
        let mut text = QUEUE.to_string();
        for _ in 0..(rng.next() % 4 + 1) {
            let mut at = (rng.next() as usize) % (text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            if rng.next() % 3 == 0 {
                let mut end = (at + (rng.next() as usize) % 8).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.replace_range(at..end, "");
            } else {
                text.insert_str(at, pieces[(rng.next() as usize) % pieces.len()]);
            }
        }
        parse_and_apply_everything(&text);
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(42);
    for _ in 0..2000 {
        let len = (rng.next() % 300) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| (rng.next() % 128) as u8).collect();
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if rng.next() % 2 == 0 {
            text.insert_str(0, "+++\nid = \"queue\"\n");
        }
        parse_and_apply_everything(&text);
    }
}

#[path = "lesson/anomalies.rs"]
mod anomalies;
#[path = "lesson/compact.rs"]
mod compact;
#[path = "lesson/engine.rs"]
mod engine_behaviour;
#[path = "lesson/exercise.rs"]
mod exercise;
#[path = "lesson/explorable.rs"]
mod explorable;
#[path = "lesson/foreign_keys.rs"]
mod foreign_keys;
#[path = "lesson/key_range.rs"]
mod key_range;
#[path = "lesson/matrix.rs"]
mod matrix;
#[path = "lesson/names.rs"]
mod names;
#[path = "lesson/postgres.rs"]
mod postgres;
#[path = "lesson/properties.rs"]
mod properties;
#[path = "lesson/questions.rs"]
mod questions;
#[path = "lesson/read_committed.rs"]
mod read_committed;
#[path = "lesson/robustness.rs"]
mod robustness;
#[path = "lesson/seed_000.rs"]
mod seed_000;
#[path = "lesson/seed_002.rs"]
mod seed_002;
#[path = "lesson/seed_003.rs"]
mod seed_003;
#[path = "lesson/serializable.rs"]
mod serializable;
#[path = "lesson/support.rs"]
mod support;
#[path = "lesson/translation.rs"]
mod translation;
#[path = "lesson/tsql_surface.rs"]
mod tsql_surface;
