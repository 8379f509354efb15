//! `lockstep prerender`: each lesson as static HTML (`lesson::Compiled::first_paint_html`),
//! one `<id>.html` per lesson, and `ids.js` listing them. The app's build (a Trunk hook)
//! writes them to `target/prerender/`, copies the pages into `dist/prerender/` and inlines
//! `ids.js` in `index.html`, which shows the lesson's text and code while the wasm loads.

use lesson::Compiled;

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
    for lesson in lessons {
        ids.push(lesson.id.clone());
        let out = args.out.join(format!("{}.html", lesson.id));
        let html = Compiled::new(lesson).first_paint_html();
        if let Err(e) = std::fs::write(&out, html) {
            eprintln!("{}: cannot write: {e}", out.display());
            bad = true;
        }
    }
    // The ids, for index.html (Trunk inlines this file): it asks only for pages that
    // exist, so an unknown lesson id costs no failed request.
    ids.sort();
    let list: Vec<String> = ids.iter().map(|id| format!("{id:?}")).collect();
    let js = format!("var LOCKSTEP_PRERENDERED = [{}];\n", list.join(", "));
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
