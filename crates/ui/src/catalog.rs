//! The lessons built into the app: `build.rs` parses, validates and compiles every
//! `lessons/*.md` (a lesson with an error fails the build), and this module reads the
//! compiled form once, on first use. The Markdown arrives as HTML, so the wasm carries
//! no TOML or Markdown parser. Translations arrive with their lessons, as texts and HTML.

use std::rc::Rc;

use lesson::{Compiled, Lesson};

/// `lesson::Compiled::encode_all` of every lesson file, written by `build.rs`.
const COMPILED_LESSONS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/lessons.bin"));

/// Lesson ids in the order the list shows them (the published contract of
/// `lessons/README.md`); lessons not named here follow by id, exercises after the
/// lessons they build on.
pub const LESSON_ORDER: &[&str] = &[
    "queue-wait-or-skip",
    "queue-claim-race",
    "queue-isolation",
    "queue-priority",
    "queue-filtered-index",
    "queue-output-trigger",
    // PostgreSQL: the wait-or-skip counterpart first, as SQL Server's group starts.
    "pg-queue-skip-locked",
    "pg-claim-race",
    "pg-isolation",
    "pg-partial-index",
    "pg-write-skew",
    "pg-send-double-click",
    "pg-foreign-key-locks",
];

/// One embedded lesson with the HTML of its Markdown (the lesson's raw HTML escaped).
#[derive(Clone, Debug)]
pub struct Entry {
    pub lesson: Rc<Lesson>,
    /// The narrative, each `sql` block a placeholder (`lesson::narrative_html`).
    pub narrative_html: Rc<str>,
    /// An exercise's goal; empty for a plain lesson.
    pub goal_html: String,
    /// An exercise's hints, in order.
    pub hints_html: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Catalog {
    pub entries: Vec<Entry>,
    /// Translated entries: (language, entry), the lesson being the original with the
    /// translation's texts (`lesson::Lesson::translated`).
    pub translated: Vec<(String, Entry)>,
}

impl Entry {
    fn new(c: Compiled) -> Entry {
        Entry {
            lesson: Rc::new(c.lesson),
            narrative_html: c.narrative_html.into(),
            goal_html: c.goal_html,
            hints_html: c.hints_html,
        }
    }
}

impl Catalog {
    /// Reads lessons compiled by `lesson::Compiled::encode_all`, in list order.
    pub fn decode(bytes: &[u8]) -> Result<Catalog, lesson::DecodeError> {
        let compiled = Compiled::decode_all(bytes)?;
        let mut translated = Vec::new();
        for c in &compiled {
            for t in &c.translations {
                if let Some(entry) = c.translated(&t.texts.lang) {
                    translated.push((t.texts.lang.clone(), Entry::new(entry)));
                }
            }
        }
        let mut entries: Vec<Entry> = compiled.into_iter().map(Entry::new).collect();
        let rank = |id: &str| {
            LESSON_ORDER
                .iter()
                .position(|k| *k == id)
                .unwrap_or(LESSON_ORDER.len())
        };
        let key = |e: &Entry| {
            let l = &e.lesson;
            (rank(&l.id), l.kind == lesson::Kind::Exercise, l.id.clone())
        };
        entries.sort_by_key(key);
        Ok(Catalog {
            entries,
            translated,
        })
    }

    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.lesson.id == id)
    }

    /// The lesson `id` in `lang` (`en`, `pl`, `ja`) and whether that language has a
    /// translation of it; a lesson without one falls back to English (`false`).
    pub fn get_in(&self, id: &str, lang: &str) -> Option<(&Entry, bool)> {
        let english = self.get(id)?;
        if lang == "en" {
            return Some((english, true));
        }
        let translated = self
            .translated
            .iter()
            .find(|(l, e)| l == lang && e.lesson.id == id)
            .map(|(_, e)| e);
        Some(translated.map_or((english, false), |e| (e, true)))
    }

    /// A check's name as lesson `id`'s translation into `lang` gives it. Runs judge the
    /// original lesson's checks (the same SQL in every language), so results carry its
    /// names; a translation lists the same checks in the same order.
    pub fn check_name_in(&self, id: &str, name: &str, lang: &str) -> String {
        let translated = self
            .get(id)
            .zip(self.get_in(id, lang))
            .and_then(|(en, (tr, _))| {
                let at = en.lesson.checks.iter().position(|c| c.name == name)?;
                Some(tr.lesson.checks.get(at)?.name.clone())
            });
        translated.unwrap_or_else(|| name.to_string())
    }

    pub fn lesson(&self, id: &str) -> Option<&Rc<Lesson>> {
        self.get(id).map(|e| &e.lesson)
    }

    pub fn ids(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.lesson.id.as_str()).collect()
    }
}

thread_local! {
    static CATALOG: Rc<Catalog> = Rc::new(
        // build.rs wrote these bytes with the same lesson crate: a failure is a build bug.
        Catalog::decode(COMPILED_LESSONS).expect("the lessons compiled by build.rs read back"),
    );
}

/// The embedded lessons (read on first call, then shared).
/// `lesson` as the page's language shows it: its translation's texts (title, checks,
/// properties, anomalies, questions), else itself. Runs use the original; a
/// translation lists the same checks, properties and rules in the same order.
pub fn shown(lesson: &Lesson) -> Rc<Lesson> {
    let lang = crate::i18n::lang();
    catalog()
        .get_in(&lesson.id, lang.as_str())
        .map_or_else(|| Rc::new(lesson.clone()), |(e, _)| Rc::clone(&e.lesson))
}

/// `Some("en")` for a lesson's own words (toggles, questions, checks) on a page in
/// another language the lesson has no translation into: its `lang` attribute, so a
/// screen reader reads them with an English voice.
pub fn words_lang(lesson_id: &str) -> Option<&'static str> {
    let lang = crate::i18n::lang();
    if lang == crate::i18n::Lang::En {
        return None;
    }
    let translated = catalog().get_in(lesson_id, lang.as_str())?.1;
    (!translated).then_some("en")
}

/// Property `name`'s label in the page's language (a translation keeps the name), else
/// `label` (a built-in property's, or an untranslated lesson's).
pub fn property_label(lesson_id: &str, name: &str, label: &str) -> String {
    catalog()
        .get_in(lesson_id, crate::i18n::lang().as_str())
        .and_then(|(e, _)| e.lesson.properties.iter().find(|p| p.name == name).cloned())
        .map(|p| p.label)
        .or_else(|| builtin_label(name, label))
        .unwrap_or_else(|| label.to_string())
}

/// A built-in property's label in the page's language (no lesson declares those, so
/// no translation carries them); None for a lesson's own property of that name.
fn builtin_label(name: &str, label: &str) -> Option<String> {
    let builtin = lesson::Builtin::ALL
        .into_iter()
        .find(|b| b.name() == name && b.property().label == label)?;
    Some(match builtin {
        lesson::Builtin::NoErrors => crate::t!("property-no-errors"),
        lesson::Builtin::NoDeadlock => crate::t!("property-no-deadlock"),
    })
}

/// Toggle `name`'s label in the page's language (a translation keeps the name), else
/// the original's label, else the name itself.
pub fn toggle_label(lesson_id: &str, name: &str) -> String {
    let catalog = catalog();
    let label = |lesson: &Lesson| {
        lesson
            .toggles
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.label.clone())
    };
    catalog
        .get_in(lesson_id, crate::i18n::lang().as_str())
        .and_then(|(e, _)| label(&e.lesson))
        .or_else(|| catalog.lesson(lesson_id).and_then(|l| label(l)))
        .unwrap_or_else(|| name.to_string())
}

pub fn catalog() -> Rc<Catalog> {
    CATALOG.with(Rc::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_properties_speak_the_page_language() {
        let english = lesson::Builtin::NoErrors.property().label;
        crate::i18n::set_lang(crate::i18n::Lang::Pl);
        let pl = property_label("send-wait-for-lock", "no-errors", &english);
        let deadlock = property_label(
            "queue-isolation",
            "no-deadlock",
            &lesson::Builtin::NoDeadlock.property().label,
        );
        // A lesson's own property keeps its own label.
        let own = property_label("send-wait-for-lock", "no-errors", "Mine");
        crate::i18n::set_lang(crate::i18n::Lang::En);
        assert_eq!(pl, "Żadna sesja nie kończy się błędem");
        assert_eq!(deadlock, "Bez zakleszczenia");
        assert_eq!(own, "Mine");
        assert_eq!(
            property_label("send-wait-for-lock", "no-errors", &english),
            english
        );
    }

    #[test]
    fn embedded_lessons_read_back_in_list_order_with_their_html() {
        let catalog = catalog();
        let ids = catalog.ids();
        for id in [
            "queue-wait-or-skip",
            "queue-claim-race",
            "queue-isolation",
            "queue-priority",
        ] {
            assert!(ids.contains(&id), "{id} missing from {ids:?}");
        }
        assert_eq!(ids[0], "queue-wait-or-skip");
        // Exercises come after the lessons: a learner meets `send-*` before the
        // exercise that builds on them.
        let last_lesson = ids
            .iter()
            .rposition(|id| catalog.get(id).unwrap().lesson.kind != lesson::Kind::Exercise)
            .unwrap();
        let first_exercise = ids
            .iter()
            .position(|id| id.starts_with("exercise-"))
            .unwrap();
        assert!(last_lesson < first_exercise, "{ids:?}");
        let entry = catalog.get("queue-claim-race").unwrap();
        assert!(entry.narrative_html.contains("data-block=\"0\""));
        let exercise = catalog.get("exercise-claim-fix").unwrap();
        assert!(!exercise.goal_html.is_empty());
        assert!(!exercise.hints_html.is_empty());
    }

    #[test]
    fn check_names_in_a_language_follow_the_translation_by_position() {
        let catalog = catalog();
        let name = "Without READPAST, B waits about 2.5 s: the rest of A's 4 s hold";
        let pl = catalog.check_name_in("queue-wait-or-skip", name, "pl");
        assert_ne!(pl, name);
        let (entry, _) = catalog.get_in("queue-wait-or-skip", "pl").unwrap();
        assert_eq!(pl, entry.lesson.checks[2].name);
        assert_eq!(
            catalog.check_name_in("queue-wait-or-skip", name, "en"),
            name
        );
        // Unknown names and untranslated lessons keep the name they have.
        assert_eq!(
            catalog.check_name_in("queue-wait-or-skip", "no such", "pl"),
            "no such"
        );
        let untranslated = catalog.lesson("send-double-click").unwrap().checks[0]
            .name
            .clone();
        assert_eq!(
            catalog.check_name_in("send-double-click", &untranslated, "ja"),
            untranslated
        );
    }

    #[test]
    fn a_lesson_in_another_language_is_its_translation_or_english() {
        let catalog = catalog();
        let (lang, translated) = catalog
            .translated
            .first()
            .expect("lessons/pl or lessons/ja has a translation");
        let id = translated.lesson.id.as_str();
        let english = catalog.get(id).unwrap();
        let (entry, has) = catalog.get_in(id, lang).unwrap();
        assert!(has);
        assert_ne!(entry.lesson.title, english.lesson.title);
        assert_ne!(entry.narrative_html, english.narrative_html);
        // The same blocks, so the same placeholders, as the English narrative.
        let placeholders = |html: &str| html.matches("data-block=").count();
        assert_eq!(
            placeholders(&entry.narrative_html),
            placeholders(&english.narrative_html)
        );
        assert_eq!(entry.lesson.toggles.len(), english.lesson.toggles.len());
        let (en, has) = catalog.get_in(id, "en").unwrap();
        assert!(has && std::ptr::eq(en, english));
        // A language the lesson is not translated into falls back to English.
        let untranslated = catalog
            .ids()
            .into_iter()
            .find(|id| {
                !catalog
                    .translated
                    .iter()
                    .any(|(l, e)| l == "ja" && e.lesson.id == *id)
            })
            .unwrap();
        let (entry, has) = catalog.get_in(untranslated, "ja").unwrap();
        assert!(!has);
        assert!(std::ptr::eq(entry, catalog.get(untranslated).unwrap()));
        assert!(catalog.get_in("no-such-lesson", "pl").is_none());
    }
}
