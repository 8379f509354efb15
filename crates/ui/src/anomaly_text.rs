//! An anomaly in the page's language: its label from the translated lesson's rule (or
//! the catalogue, for errors and deadlock victims), its evidence from the catalogue.
//! Runs find anomalies with the original lesson's rules; a translation lists the same
//! rules in the same order, so a rule is found by its place in the original.

use lesson::{values_text, Anomaly, AnomalyKind, AnomalyRule, Applied};

use crate::catalog::catalog;
use crate::i18n::Arg;
use crate::t;

/// The rules a run applied (`applied.anomalies`), each with the translation's label
/// and verb where the page's language has them.
pub fn rules_shown(applied: &Applied) -> Vec<AnomalyRule> {
    let catalog = catalog();
    let lang = crate::i18n::lang();
    let (Some(en), Some((shown, translated))) = (
        catalog.get(&applied.lesson_id),
        catalog.get_in(&applied.lesson_id, lang.as_str()),
    ) else {
        return applied.anomalies.clone();
    };
    applied
        .anomalies
        .iter()
        .map(|rule| {
            let mut shown = en
                .lesson
                .anomalies
                .iter()
                .position(|r| r == rule)
                .and_then(|at| shown.lesson.anomalies.get(at))
                .cloned()
                .unwrap_or_else(|| rule.clone());
            // An untranslated lesson's English verb would sit inside a sentence of
            // another language: the catalogue's plain "wrote" reads right there.
            if !translated {
                shown.verb = t!("why-verb-wrote");
            }
            shown
        })
        .collect()
}

/// The anomaly's few words: its rule's label, "deadlock victim", "error 2601".
pub fn label(a: &Anomaly, rules: &[AnomalyRule]) -> String {
    let rule = match &a.kind {
        AnomalyKind::Duplicate(d) => d.rule,
        AnomalyKind::Unmatched(u) => u.rule,
        AnomalyKind::Lost(l) => l.rule,
        AnomalyKind::Kept(k) => k.rule,
        AnomalyKind::DeadlockVictim => return t!("anomaly-deadlock-victim"),
        AnomalyKind::Error { number, sqlstate } => {
            return t!(
                "anomaly-error",
                number = crate::i18n::error_code(*number, *sqlstate)
            )
        }
    };
    rules
        .get(rule)
        .map_or_else(|| a.label.clone(), |r| r.label.clone())
}

/// `worker2: task claimed again (claim (2) repeats task_id 1 of claim (1))`,
/// as `Anomaly`'s `Display` writes it in English.
pub fn text(a: &Anomaly, rules: &[AnomalyRule]) -> String {
    let keys = |rows: &[(String, usize)]| {
        rows.iter()
            .map(|(k, _)| k.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let evidence = match &a.kind {
        AnomalyKind::Duplicate(d) => Some(crate::i18n::text(
            if d.by_update {
                "anomaly-updated-to-repeat"
            } else {
                "anomaly-repeats"
            },
            &[
                ("table", Arg::from(&d.table)),
                ("key", Arg::from(&d.key)),
                ("values", Arg::from(values_text(&d.values))),
                ("first", Arg::from(&d.first_key)),
            ],
        )),
        AnomalyKind::Unmatched(u) => {
            let has = t!(
                "anomaly-unmatched",
                table = &u.table,
                key = &u.key,
                values = values_text(&u.values),
                other = &u.match_table
            );
            let has = match u.error {
                Some((_, number)) => t!(
                    "anomaly-unmatched-error",
                    unmatched = has,
                    session = &u.session,
                    number = number.to_string()
                ),
                None => has,
            };
            Some(match &u.removed {
                Some((_, by)) => t!(
                    "anomaly-unmatched-removed",
                    unmatched = has,
                    by = by,
                    other = &u.match_table,
                    key = u.values_key()
                ),
                None => has,
            })
        }
        AnomalyKind::Lost(l) => Some(match &l.returned {
            Some(row) => t!(
                "anomaly-lost-returned",
                table = &l.table,
                keys = keys(&l.rows),
                row = row,
                number = l.error.1.to_string()
            ),
            None => t!(
                "anomaly-lost",
                table = &l.table,
                keys = keys(&l.rows),
                number = l.error.1.to_string()
            ),
        }),
        AnomalyKind::Kept(k) => Some(t!(
            "anomaly-kept",
            table = &k.table,
            keys = keys(&k.rows),
            number = k.error.1.to_string()
        )),
        AnomalyKind::DeadlockVictim | AnomalyKind::Error { .. } => None,
    };
    let label = label(a, rules);
    match evidence {
        Some(evidence) => format!("{}: {label} ({evidence})", a.session),
        None => format!("{}: {label}", a.session),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In English the words are `Display`'s, for every anomaly the shipped lessons'
    /// default runs find.
    #[test]
    fn english_reads_as_display() {
        crate::i18n::set_lang(crate::i18n::Lang::En);
        let catalog = catalog();
        let mut seen = 0;
        for entry in &catalog.entries {
            let lesson = &entry.lesson;
            let Ok(applied) = lesson.apply(&lesson.settings_default()) else {
                continue;
            };
            let Ok(report) = lesson::run_with(&applied, lesson.seed, None) else {
                continue;
            };
            let rules = rules_shown(&applied);
            for a in &report.anomalies {
                assert_eq!(text(a, &rules), a.to_string(), "{}", lesson.id);
                seen += 1;
            }
        }
        assert!(seen >= 5, "only {seen} anomalies");
    }

    #[test]
    fn polish_takes_the_translated_rule_label() {
        let catalog = catalog();
        let lesson = &catalog.get("send-double-click").unwrap().lesson;
        let applied = lesson.apply(&lesson.settings_default()).unwrap();
        let report = lesson::run_with(&applied, lesson.seed, None).unwrap();
        let a = report.anomalies.first().expect("an anomaly");
        crate::i18n::set_lang(crate::i18n::Lang::Pl);
        let rules = rules_shown(&applied);
        let shown = text(a, &rules);
        crate::i18n::set_lang(crate::i18n::Lang::En);
        assert_ne!(shown, a.to_string());
        assert!(!shown.contains(&a.label), "{shown}");
    }
}
