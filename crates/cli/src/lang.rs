//! `--lang`: lesson texts in another language, from the translation next to a lesson
//! (`lessons/pl/<id>.md` for `lessons/<id>.md`). Only texts change: what runs, and the
//! JSON, are the original's.

use std::path::{Path, PathBuf};

use lesson::{Lesson, LessonError, Translation, TRANSLATION_LANGS};

/// The languages `--lang` takes: English (the originals) and [`TRANSLATION_LANGS`].
pub(crate) const LANGS: [&str; 3] = ["en", "pl", "ja"];

/// Where the translation of the lesson at `lesson` into `lang` lives.
pub(crate) fn translation_path(lesson: &Path, lang: &str) -> PathBuf {
    let dir = lesson.parent().unwrap_or(Path::new(""));
    dir.join(lang).join(lesson.file_name().unwrap_or_default())
}

/// A file in a language's directory (`lessons/pl/x.md`) is a translation, not a lesson.
pub(crate) fn is_translation(path: &Path) -> bool {
    path.parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .is_some_and(|n| TRANSLATION_LANGS.contains(&n))
}

/// The translation of `lesson` (read from `path`) into `lang`, checked against it:
/// `None` for English and when there is no such file.
pub(crate) fn read_translation(
    path: &Path,
    lesson: &Lesson,
    lang: &str,
) -> Option<Result<Translation, Vec<LessonError>>> {
    if lang == "en" {
        return None;
    }
    let file = translation_path(path, lang);
    let text = std::fs::read_to_string(&file).ok()?;
    Some(Translation::parse(
        &file.display().to_string(),
        &text,
        lesson,
    ))
}

/// As [`read_translation`], saying on stderr when the lesson is not translated into
/// `lang` (its text stays English); the messages to print when the translation has
/// errors.
pub(crate) fn translation(
    path: &Path,
    lesson: &Lesson,
    lang: &str,
) -> Result<Option<Translation>, Vec<String>> {
    match read_translation(path, lesson, lang) {
        None => {
            if lang != "en" {
                eprintln!(
                    "note: {} has no translation into `{lang}` ({}): its text is in English",
                    lesson.id,
                    translation_path(path, lang).display()
                );
            }
            Ok(None)
        }
        Some(Ok(t)) => Ok(Some(t)),
        Some(Err(errors)) => Err(errors.iter().map(ToString::to_string).collect()),
    }
}
