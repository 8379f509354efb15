//! `lockstep prerender`: each lesson as static HTML (`lesson::Compiled::first_paint_html`),
//! one `<id>.html` per lesson and `<lang>/<id>.html` per translation, and `ids.js` listing
//! them. The app's build (a Trunk hook) writes them to `target/prerender/`, copies the
//! pages into `dist/prerender/` and inlines `ids.js` in `index.html`, which shows the
//! lesson's text and code, in the page's language where there is a translation, while
//! the wasm loads.

use std::collections::BTreeMap;
use std::path::Path;

use lesson::{Compiled, TRANSLATION_LANGS};

use crate::args::PrerenderArgs;
use crate::exercises_cmd::parse_lessons;
use crate::exit::{BAD_INPUT, OK};

pub fn command(args: &PrerenderArgs) -> u8 {
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        eprintln!("{}: cannot create: {e}", args.out.display());
        return BAD_INPUT;
    }
    let (lessons, mut bad) = parse_lessons(&args.paths);
    let mut ids: Vec<String> = Vec::new();
    let mut translated: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for lesson in lessons {
        ids.push(lesson.id.clone());
        for lang in TRANSLATION_LANGS {
            let path = Path::new(lesson.file_name());
            match crate::lang::read_translation(path, &lesson, lang) {
                None => {}
                Some(Ok(t)) => {
                    let out = args.out.join(lang).join(format!("{}.html", lesson.id));
                    let html = Compiled::new(lesson.translated(&t)).first_paint_html();
                    bad |= !write(&out, &html);
                    translated.entry(lang).or_default().push(lesson.id.clone());
                }
                Some(Err(errors)) => {
                    for e in &errors {
                        eprintln!("{e}");
                    }
                    bad = true;
                }
            }
        }
        let out = args.out.join(format!("{}.html", lesson.id));
        bad |= !write(&out, &Compiled::new(lesson).first_paint_html());
    }
    // The ids, for index.html (Trunk inlines this file): it asks only for pages that
    // exist, so an unknown lesson id costs no failed request.
    let list = |ids: &mut Vec<String>| {
        ids.sort();
        let quoted: Vec<String> = ids.iter().map(|id| format!("{id:?}")).collect();
        format!("[{}]", quoted.join(", "))
    };
    let by_lang: Vec<String> = translated
        .iter_mut()
        .map(|(lang, ids)| format!("{lang:?}: {}", list(ids)))
        .collect();
    let js = format!(
        "var LOCKSTEP_PRERENDERED = {};\nvar LOCKSTEP_PRERENDERED_LANG = {{{}}};\n",
        list(&mut ids),
        by_lang.join(", ")
    );
    let ids_file = args.out.join("ids.js");
    if let Err(e) = std::fs::write(&ids_file, js) {
        eprintln!("{}: cannot write: {e}", ids_file.display());
        bad = true;
    }
    if bad {
        BAD_INPUT
    } else {
        OK
    }
}

/// Writes one page, creating its language's directory; false (said on stderr) on failure.
fn write(out: &Path, html: &str) -> bool {
    let written = out
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(out, html));
    match written {
        Ok(()) => true,
        Err(e) => {
            eprintln!("{}: cannot write: {e}", out.display());
            false
        }
    }
}
