//! The lessons built into the app: every `lessons/*.md` embedded by `build.rs`, parsed
//! once on first use. A file that fails to parse stays in the catalog with its errors,
//! so the list and its page can say what is wrong instead of leaving a dead link.

use std::rc::Rc;

use lesson::Lesson;

include!(concat!(env!("OUT_DIR"), "/lessons.rs"));

/// Lesson ids in the order the list shows them (the published contract of
/// `lessons/README.md`); lessons not named here follow, by id.
pub const LESSON_ORDER: &[&str] = &[
    "queue-wait-or-skip",
    "queue-claim-race",
    "queue-isolation",
    "queue-priority",
    "queue-filtered-index",
    "queue-output-trigger",
];

/// One embedded lesson file.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The file stem, which a valid lesson's `id` equals.
    pub id: String,
    pub file_name: String,
    pub lesson: Result<Rc<Lesson>, Vec<String>>,
}

#[derive(Clone, Debug, Default)]
pub struct Catalog {
    pub entries: Vec<Entry>,
}

impl Catalog {
    /// Parses `(file name, text)` pairs; errors are kept as `file:line:col: message`.
    pub fn parse(files: &[(&str, &str)]) -> Catalog {
        let mut entries: Vec<Entry> = files
            .iter()
            .map(|(name, text)| Entry {
                id: name.strip_suffix(".md").unwrap_or(name).to_string(),
                file_name: name.to_string(),
                lesson: Lesson::parse(name, text)
                    .map(Rc::new)
                    .map_err(|errors| errors.iter().map(ToString::to_string).collect()),
            })
            .collect();
        let rank = |id: &str| {
            LESSON_ORDER
                .iter()
                .position(|k| *k == id)
                .unwrap_or(LESSON_ORDER.len())
        };
        entries.sort_by(|a, b| (rank(&a.id), &a.id).cmp(&(rank(&b.id), &b.id)));
        Catalog { entries }
    }

    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    pub fn ids(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.id.as_str()).collect()
    }
}

thread_local! {
    static CATALOG: Rc<Catalog> = Rc::new(Catalog::parse(LESSON_FILES));
}

/// The embedded lessons (parsed on first call, then shared).
pub fn catalog() -> Rc<Catalog> {
    CATALOG.with(Rc::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_lessons_parse_and_keep_their_order() {
        let catalog = catalog();
        for entry in &catalog.entries {
            if let Err(errors) = &entry.lesson {
                panic!("{} does not parse:\n{}", entry.file_name, errors.join("\n"));
            }
        }
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
    }

    #[test]
    fn a_broken_file_is_kept_with_its_error() {
        let catalog = Catalog::parse(&[
            ("broken.md", "no front matter"),
            ("queue-priority.md", "+++\n"),
        ]);
        assert_eq!(catalog.ids(), ["queue-priority", "broken"]);
        let errors = catalog.get("broken").unwrap().lesson.as_ref().unwrap_err();
        assert!(errors[0].starts_with("broken.md:1:1: "), "{errors:?}");
    }
}
