use std::collections::BTreeSet;

use super::*;

/// The message ids a catalogue file defines (terms, `-name`, are private to it).
fn keys(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_lowercase()))
        .filter_map(|l| l.split_once(" =").map(|(k, _)| k.trim().to_owned()))
        .collect()
}

fn keys_of(lang: Lang) -> BTreeSet<String> {
    let mut all = BTreeSet::new();
    for (area, text) in CATALOGUES[lang.index()] {
        for key in keys(text) {
            assert!(
                all.insert(key.clone()),
                "{}/{area}.ftl: `{key}` defined twice",
                lang.as_str()
            );
        }
    }
    all
}

/// Every `t!("...")` key in the sources of the crates that speak: this one, the
/// browser app and the CLI.
fn keys_used() -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs: Vec<_> = ["src", "../ui/src", "../cli/src"]
        .iter()
        .map(|d| root.join(d))
        .collect();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                // Comments name the macro without using it.
                let code: String = text
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .collect::<Vec<_>>()
                    .join("\n");
                for (at, _) in code.match_indices("t!(") {
                    // `t!(` alone: not `format!(`, `print!(` and the like.
                    if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let Some(rest) = code[at + 3..].trim_start().strip_prefix('"') else {
                        continue;
                    };
                    let key = &rest[..rest.find('"').unwrap()];
                    // A message id; anything else is a string that merely reads `t!(`.
                    if key
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                    {
                        used.insert(key.to_owned());
                    }
                }
            }
        }
    }
    used
}

#[test]
fn every_key_is_in_every_language() {
    let en = keys_of(Lang::En);
    assert!(en.len() > 50, "only {} keys", en.len());
    for lang in [Lang::Pl, Lang::Ja] {
        let other = keys_of(lang);
        let missing: Vec<_> = en.difference(&other).collect();
        let extra: Vec<_> = other.difference(&en).collect();
        assert!(
            missing.is_empty(),
            "missing in {}: {missing:?}",
            lang.as_str()
        );
        assert!(extra.is_empty(), "only in {}: {extra:?}", lang.as_str());
    }
    let used = keys_used();
    assert!(used.len() > 50, "only {} keys used", used.len());
    let absent: Vec<_> = used.difference(&en).collect();
    assert!(
        absent.is_empty(),
        "used in code, absent from en: {absent:?}"
    );
}

#[test]
fn every_message_formats_without_errors_in_every_language() {
    for lang in Lang::ALL {
        with_bundle(lang, |bundle| {
            for key in keys_of(lang) {
                let message = bundle.get_message(&key).unwrap();
                let pattern = message
                    .value()
                    .unwrap_or_else(|| panic!("{key} has no value"));
                let mut errors = Vec::new();
                let _ = bundle.format_pattern(pattern, None, &mut errors);
                // Unset arguments are the only errors allowed without arguments.
                for error in errors {
                    let text = format!("{error:?}");
                    assert!(
                        text.contains("Reference"),
                        "{}: {key}: {text}",
                        lang.as_str()
                    );
                }
            }
        });
    }
}

#[test]
fn polish_rows_take_the_catalogue_plural_forms() {
    let rows = |n: u64| text_in(Lang::Pl, "rows", &[("count", Arg::from(n))]);
    assert_eq!(rows(1), "1 wiersz");
    assert_eq!(rows(2), "2 wiersze");
    assert_eq!(rows(4), "4 wiersze");
    assert_eq!(rows(5), "5 wierszy");
    assert_eq!(rows(12), "12 wierszy");
    assert_eq!(rows(22), "22 wiersze");
    assert_eq!(rows(1500), "1500 wierszy");
    assert_eq!(rows(20_040), "20\u{a0}040 wierszy");
}

#[test]
fn english_and_japanese_rows() {
    let rows = |lang, n: u64| text_in(lang, "rows", &[("count", Arg::from(n))]);
    assert_eq!(rows(Lang::En, 1), "1 row");
    assert_eq!(rows(Lang::En, 2), "2 rows");
    assert_eq!(rows(Lang::En, 1500), "1,500 rows");
    assert_eq!(rows(Lang::Ja, 1), "1 行");
    assert_eq!(rows(Lang::Ja, 5), "5 行");
}

#[test]
fn english_numbers_and_durations() {
    set_lang(Lang::En);
    assert_eq!(group_digits(1500), "1,500");
    assert_eq!(group_digits(1_234_567), "1,234,567");
    assert_eq!(ms(1_500_000), "1,500 ms");
    assert_eq!(ms(2_500_185), "2,500.185 ms");
    assert_eq!(ms(21), "0.021 ms");
    assert_eq!(seconds(2500), "2.5 s");
}

#[test]
fn polish_numbers_and_durations() {
    set_lang(Lang::Pl);
    // Four digits stay whole (CLDR's minimum grouping digits for Polish is 2).
    assert_eq!(group_digits(1500), "1500");
    assert_eq!(group_digits(15_000), "15\u{a0}000");
    assert_eq!(group_digits(1_234_567), "1\u{a0}234\u{a0}567");
    assert_eq!(ms(1_500_000), "1500 ms");
    assert_eq!(ms(2_500_185), "2500,185 ms");
    assert_eq!(ms(12_500_185), "12\u{a0}500,185 ms");
    assert_eq!(seconds(2500), "2,5 s");
    assert_eq!(seconds(3000), "3 s");
    set_lang(Lang::En);
}

#[test]
fn japanese_numbers_and_durations() {
    set_lang(Lang::Ja);
    assert_eq!(group_digits(1500), "1,500");
    assert_eq!(ms(1_500_000), "1,500 ms");
    assert_eq!(seconds(2500), "2.5 s");
    set_lang(Lang::En);
}

/// A Japanese sentence keeps its spaces beside names, numbers and SQL, and drops the
/// one between a placeable that ends in Japanese and the particle after it.
#[test]
fn japanese_sets_no_space_between_its_own_words() {
    let access = t!("trace-access-index-seek" in Lang::Ja, index = "ix_task_queue");
    let line = t!("trace-reads" in Lang::Ja, session = "A", access = access, table = "task",
        rows = 1, reads_name = "論理読み取り", reads = 3);
    assert_eq!(
        line,
        "A がインデックス ix_task_queue のシークで task を 1 行読み取ります: 論理読み取り 3"
    );
    assert_eq!(
        tighten_japanese("ある行 を（UPDATE） 読む".into()),
        "ある行を（UPDATE）読む"
    );
    assert_eq!(
        tighten_japanese("B は 2 行 SELECT です".into()),
        "B は 2 行 SELECT です"
    );
    // Polish and English keep every space.
    let pl = t!("trace-access-index-seek" in Lang::Pl, index = "ix");
    assert!(pl.contains(' '), "{pl}");
}

#[test]
fn the_browser_languages_pick_the_first_spoken_one() {
    assert_eq!(Lang::from_browser(&["pl-PL", "en-US"]), Lang::Pl);
    assert_eq!(Lang::from_browser(&["de-DE", "ja"]), Lang::Ja);
    assert_eq!(Lang::from_browser(&["en-US"]), Lang::En);
    assert_eq!(Lang::from_browser(&["fr"]), Lang::En);
    assert_eq!(Lang::from_browser::<&str>(&[]), Lang::En);
    for lang in Lang::ALL {
        assert_eq!(Lang::parse(lang.as_str()), Some(lang));
    }
}

#[test]
fn a_missing_key_falls_back_to_english_then_shows_a_marker() {
    assert_eq!(text_in(Lang::Pl, "no-such-key", &[]), "⟦no-such-key⟧");
}

/// One of each detail, with numbers below a thousand (no digit groups).
fn details() -> Vec<lesson::Detail> {
    use lesson::{Bound, Detail, Figure, Whose};
    let at_least = Bound {
        min: Some(1.0),
        ..Bound::default()
    };
    vec![
        Detail::QueryFailed {
            line: 1,
            col: 8,
            message: "Invalid column name 'x'.".into(),
        },
        Detail::NoSession {
            session: "C".into(),
        },
        Detail::NoResult {
            session: "B".into(),
            sets: 1,
            result: 2,
        },
        Detail::NoResult {
            session: "B".into(),
            sets: 0,
            result: 1,
        },
        Detail::Figure {
            whose: Whose::Session("B".into()),
            figure: Figure::WaitMs,
            value: 0.0,
            bound: at_least,
        },
        Detail::Figure {
            whose: Whose::All,
            figure: Figure::Errors,
            value: 2.0,
            bound: Bound {
                equals: Some(0.0),
                ..Bound::default()
            },
        },
        Detail::Figure {
            whose: Whose::Run,
            figure: Figure::EndMs,
            value: 2.5,
            bound: Bound {
                min: Some(1.0),
                max: Some(3.0),
                ..Bound::default()
            },
        },
        Detail::Rows {
            got: "[[1, 'A']]".into(),
        },
        Detail::RowsDiffer {
            expected: "[[1]]".into(),
            got: "[]".into(),
        },
        Detail::RowCount {
            expected: 1,
            got: 0,
            rows: None,
        },
        Detail::RowCount {
            expected: 2,
            got: 3,
            rows: Some("[[1], [2], [3]]".into()),
        },
        Detail::Scalar {
            value: 1.0,
            bound: Bound {
                max: Some(0.0),
                ..Bound::default()
            },
        },
        Detail::Scalar {
            value: 1.0,
            bound: Bound::default(),
        },
        Detail::NotANumber { got: "'x'".into() },
        Detail::NotOneNumber { got: "[]".into() },
        Detail::NoSeedRun,
        Detail::SessionError {
            session: "A".into(),
            number: 1205,
            sqlstate: None,
            message: "deadlock".into(),
        },
        Detail::SessionError {
            session: "B".into(),
            number: 3960,
            sqlstate: Some("40001".into()),
            message: "could not serialize access".into(),
        },
    ]
}

#[test]
fn english_details_read_as_the_cli_writes_them() {
    set_lang(Lang::En);
    for d in details() {
        assert_eq!(detail(&d), d.to_string());
    }
    // A setting that does not fit, as `--set` reports it (`readpast=` has no value).
    let empty = lesson::SettingsError::NotAValue {
        name: "readpast".into(),
        value: String::new(),
        values: vec!["on".into(), "off".into()],
    };
    assert_eq!(
        settings_error(&empty),
        "toggle `readpast` needs a value (values: on, off)"
    );
    for e in settings_errors().into_iter().chain([empty]) {
        assert_eq!(settings_error(&e), e.to_string());
    }
}

#[test]
fn polish_and_japanese_details_are_translated_with_their_numbers() {
    use lesson::{Bound, Detail, Figure, Whose};
    let waited = Detail::Figure {
        whose: Whose::Session("B".into()),
        figure: Figure::WaitMs,
        value: 1500.0,
        bound: Bound {
            min: Some(1000.0),
            ..Bound::default()
        },
    };
    set_lang(Lang::Pl);
    assert_eq!(
        detail(&waited),
        "B: wait_ms = 1500 (oczekiwano co najmniej 1000)"
    );
    let sets = |n| Detail::NoResult {
        session: "B".into(),
        sets: n,
        result: 3,
    };
    assert!(detail(&sets(1)).contains("1 zbiór wyników"));
    assert!(detail(&sets(2)).contains("2 zbiory wyników"));
    assert!(detail(&sets(5)).contains("5 zbiorów wyników"));
    for d in details() {
        assert_ne!(detail(&d), d.to_string(), "{d:?} is not translated");
    }
    set_lang(Lang::Ja);
    assert_eq!(detail(&waited), "B の wait_ms = 1,500 (期待値 1,000 以上)");
    // An error's number is a code: no digit groups in any language.
    let error = Detail::Figure {
        whose: Whose::Session("A".into()),
        figure: Figure::ErrorNumber,
        value: 3811.0,
        bound: Bound {
            equals: Some(3811.0),
            ..Bound::default()
        },
    };
    assert_eq!(detail(&error), "A の error_number = 3811 (期待値 3811)");
    set_lang(Lang::Pl);
    assert!(
        detail(&error).starts_with("A: error_number = 3811 ("),
        "{}",
        detail(&error)
    );
    set_lang(Lang::En);
}

/// One of each settings error.
fn settings_errors() -> Vec<lesson::SettingsError> {
    use lesson::SettingsError;
    vec![
        SettingsError::UnknownToggle {
            name: "colour".into(),
            known: vec!["readpast".into(), "ranks".into()],
        },
        SettingsError::UnknownToggle {
            name: "colour".into(),
            known: Vec::new(),
        },
        SettingsError::NotAValue {
            name: "readpast".into(),
            value: "maybe".into(),
            values: vec!["on".into(), "off".into()],
        },
    ]
}

#[test]
fn polish_and_japanese_settings_errors_are_translated_with_their_names() {
    let [unknown, none, value] = <[_; 3]>::try_from(settings_errors()).unwrap();
    set_lang(Lang::Pl);
    assert_eq!(
        settings_error(&unknown),
        "nieznany przełącznik `colour` (przełączniki: readpast, ranks)"
    );
    assert_eq!(
        settings_error(&none),
        "nieznany przełącznik `colour`: ta lekcja nie ma przełączników"
    );
    assert_eq!(
        settings_error(&value),
        "`maybe` nie jest wartością przełącznika `readpast` (wartości: on, off)"
    );
    set_lang(Lang::Ja);
    assert_eq!(
        settings_error(&unknown),
        "`colour` は不明な切り替えです (切り替え: readpast, ranks)"
    );
    assert_eq!(
        settings_error(&value),
        "`maybe` は切り替え `readpast` の値ではありません (値: on, off)"
    );
    for e in settings_errors() {
        let text = settings_error(&e);
        for english in ["unknown", "toggle", "is not", "values"] {
            assert!(!text.contains(english), "{text}");
        }
    }
    set_lang(Lang::En);
}

#[test]
fn explore_and_progress_counts_take_their_plural_forms() {
    let breaks = |lang, statements: u64, switches: u64, states: u64| {
        text_in(
            lang,
            "explore-breaks",
            &[
                ("label", Arg::from("No duplicate")),
                ("statements", Arg::from(statements)),
                ("switches", Arg::from(switches)),
                ("detail", Arg::from("x")),
                ("states", Arg::from(states)),
                ("took", Arg::from(3u64)),
            ],
        )
    };
    let en = breaks(Lang::En, 12, 1, 1);
    assert!(
        en.contains("after 12 statements (1 context switch)"),
        "{en}"
    );
    assert!(en.contains("after 1 state in"), "{en}");
    let pl = breaks(Lang::Pl, 12, 1, 1752);
    assert!(
        pl.contains("po 12 instrukcjach (1 przełączeniu kontekstu)"),
        "{pl}"
    );
    assert!(pl.contains("po 1752 stanach"), "{pl}");
    let holds = |states: u64, schedules: u64| {
        text_in(
            Lang::Pl,
            "explore-holds",
            &[
                ("label", Arg::from("x")),
                ("bounds", Arg::from("")),
                ("states", Arg::from(states)),
                ("schedules", Arg::from(schedules)),
                ("took", Arg::from(3u64)),
            ],
        )
    };
    assert!(
        holds(63, 4).contains("63 stany i 4 harmonogramy"),
        "{}",
        holds(63, 4)
    );
    assert!(
        holds(65, 12).contains("65 stanów i 12 harmonogramów"),
        "{}",
        holds(65, 12)
    );
    let steps = |lang, n: u64| {
        text_in(
            lang,
            "run-progress",
            &[("steps", Arg::from(n)), ("time", Arg::from("1 ms"))],
        )
    };
    assert_eq!(
        steps(Lang::Pl, 3),
        "3 kroki silnika, 1 ms czasu wirtualnego"
    );
    assert_eq!(
        steps(Lang::Pl, 5),
        "5 kroków silnika, 1 ms czasu wirtualnego"
    );
    assert_eq!(steps(Lang::En, 1), "1 engine step, 1 ms of virtual time");
}

/// A check's rows read as a reader says them: one value plainly, each row in
/// parentheses, none as it is; a quoted comma or bracket is the value's own.
#[test]
fn rows_in_a_detail_are_plain_when_there_is_one_value_or_one_row() {
    let rows = |got: &str| crate::detail(&lesson::Detail::Rows { got: got.into() });
    set_lang(Lang::En);
    assert_eq!(rows("[[197]]"), "got 197");
    assert_eq!(rows("[[3, \"BUSY\", NULL]]"), "got (3, \"BUSY\", NULL)");
    assert_eq!(rows("[[\"a, [b]\"]]"), "got \"a, [b]\"");
    assert_eq!(rows("[[1, \"A\"], [2, NULL]]"), "got (1, \"A\"), (2, NULL)");
    assert_eq!(rows("[]"), "got []");
    assert_eq!(
        crate::detail(&lesson::Detail::RowsDiffer {
            expected: "[[0]]".into(),
            got: "[[197]]".into(),
        }),
        "expected 0, got 197"
    );
}

#[test]
fn a_parse_error_is_reworded_and_sql_words_stay_as_written() {
    let cases = [
        "found 'WHERE', expected one of: ',', ')' (the '(' on the line above, at column 28, is not closed)",
        "found ';', expected one of: ',', a table hint, ')'",
        "unexpected end of input, expected one of: END, ';', a statement",
        "found 'FROM', expected one of: '*', an expression",
        "found 'x', expected TRY",
        "found 'y', expected one of: ',', ')' (the '(' 3 lines up, at column 5, is not closed)",
        "not simulated: cursors",
        "found 'ORDER', expected one of: an operator, ',', ')' (the string opened 2 lines up, at column 9, runs to here: is its closing quote missing?)",
        "found 'COMMIT', expected ';' (a statement ends at its ';': without one, PostgreSQL reads this line as more of the statement above)",
    ];
    set_lang(Lang::En);
    for c in cases {
        assert_eq!(parse_error(c), c, "English stays as the parser words it");
    }
    set_lang(Lang::Pl);
    let pl: Vec<String> = cases.iter().map(|c| parse_error(c)).collect();
    assert_eq!(
        pl,
        [
            "znaleziono 'WHERE', oczekiwano jednego z: ',', ')' (nawias '(' w wierszu wyżej, w kolumnie 28, nie jest zamknięty)",
            "znaleziono ';', oczekiwano jednego z: ',', wskazówka tabeli, ')'",
            "nieoczekiwany koniec tekstu, oczekiwano jednego z: END, ';', instrukcja",
            "znaleziono 'FROM', oczekiwano jednego z: '*', wyrażenie",
            "znaleziono 'x', oczekiwano: TRY",
            "znaleziono 'y', oczekiwano jednego z: ',', ')' (nawias '(' 3 wiersze wyżej, w kolumnie 5, nie jest zamknięty)",
            "nie jest symulowane: cursors",
            "znaleziono 'ORDER', oczekiwano jednego z: operator, ',', ')' (tekst otwarty 2 wiersze wyżej, w kolumnie 9, ciągnie się aż tutaj: czy brakuje zamykającego apostrofu?)",
            "znaleziono 'COMMIT', oczekiwano: ';' (instrukcja kończy się na swoim ';': bez niego PostgreSQL czyta ten wiersz jako dalszy ciąg instrukcji powyżej)",
        ]
    );
    set_lang(Lang::Ja);
    assert_eq!(
        parse_error(cases[0]),
        "'WHERE' があります。次のいずれかが必要です: ',', ')' (1 行上の 28 列目の '(' が閉じていません)"
    );
    // A shape it does not know is left whole.
    let odd = "found 'rank' (a reserved word in Teradata), expected an identifier";
    assert_eq!(parse_error(odd), odd);
    set_lang(Lang::En);
}

/// The scheduler keeps the command its help names on one line by finding it in the
/// text (`command_kept_whole`): each language writes it verbatim.
#[test]
fn the_schedule_help_names_the_command_verbatim() {
    for lang in Lang::ALL {
        let help = text_in(lang, "schedule-string-help", &[]);
        assert!(
            help.contains("lockstep run --schedule"),
            "{}: {help}",
            lang.as_str()
        );
    }
}

#[test]
fn a_key_range_is_named_in_the_language_the_rest_of_the_resource_stays() {
    for (lang, resource, shown) in [
        (
            Lang::Pl,
            "KEY send (end of index)",
            "KEY send (koniec indeksu)",
        ),
        (
            Lang::Pl,
            "KEY t (range below 5)",
            "KEY t (zakres poniżej 5)",
        ),
        (
            Lang::Ja,
            "KEY send (end of index)",
            "KEY send (インデックスの末尾)",
        ),
        (Lang::Ja, "KEY t (range below 5)", "KEY t (5 より下の範囲)"),
        (Lang::En, "KEY t (range below 5)", "KEY t (range below 5)"),
        (Lang::Pl, "KEY task (1)", "KEY task (1)"),
        (Lang::Pl, "advisory 1", "advisory 1"),
    ] {
        assert_eq!(key_words(lang, resource), shown);
    }
}
