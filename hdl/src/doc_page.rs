//! A Markdown page with generated sections: the text between the lines
//! `<!-- NAME:begin -->` and `<!-- NAME:end -->` is made from declarations or
//! data (port tables, register maps, figures), and a test checks the page
//! against them, or rewrites those sections when `BLOOM_UPDATE_SNAPSHOTS=1`.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// Held from [`DocPage::open`] to [`DocPage::finish`] while pages are rewritten, so
/// that two tests of one binary rewriting the same page (core.md has two) do not
/// each write back their own copy over the other's sections.
static REWRITING: Mutex<()> = Mutex::new(());

/// Where a generated section sits in a Markdown page: the text between the lines
/// `<!-- NAME:begin -->` and `<!-- NAME:end -->`. `page` names the page in the error.
pub fn generated_section(doc: &str, page: &str, name: &str) -> Result<Range<usize>, String> {
    let (begin, end) = (
        format!("<!-- {name}:begin -->\n"),
        format!("<!-- {name}:end -->"),
    );
    let start = doc
        .find(&begin)
        .ok_or_else(|| format!("{page} has no `{}`", begin.trim()))?
        + begin.len();
    let stop = doc[start..]
        .find(&end)
        .ok_or_else(|| format!("{page} has no `{end}`"))?
        + start;
    Ok(start..stop)
}

/// A page whose generated sections a test checks (or, with
/// `BLOOM_UPDATE_SNAPSHOTS=1`, rewrites: [`DocPage::finish`] writes the page).
pub struct DocPage {
    path: PathBuf,
    page: String,
    regenerate: String,
    doc: String,
    update: bool,
    _rewriting: Option<MutexGuard<'static, ()>>,
}

impl DocPage {
    /// The page at `path`, named `page` in messages; `regenerate` is the test
    /// command that rewrites it (run with `BLOOM_UPDATE_SNAPSHOTS=1`).
    ///
    /// # Panics
    /// When the page cannot be read.
    pub fn open(path: &Path, page: &str, regenerate: &str) -> DocPage {
        let update = std::env::var("BLOOM_UPDATE_SNAPSHOTS").as_deref() == Ok("1");
        // A test that panicked while holding the lock leaves the page as it was.
        let rewriting = update.then(|| REWRITING.lock().unwrap_or_else(|e| e.into_inner()));
        let doc = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        DocPage {
            path: path.to_path_buf(),
            page: page.to_string(),
            regenerate: regenerate.to_string(),
            doc,
            update,
            _rewriting: rewriting,
        }
    }

    /// Checks that section `name` is `text` (made from `source`), or replaces it.
    ///
    /// # Panics
    /// When the section is missing, or differs and the page is not being rewritten.
    pub fn section(&mut self, name: &str, text: &str, source: &str) {
        let range =
            generated_section(&self.doc, &self.page, name).unwrap_or_else(|e| panic!("{e}"));
        if self.update {
            self.doc.replace_range(range, text);
        } else {
            assert_eq!(
                &self.doc[range],
                text,
                "{}'s section `{name}` differs from {source}; regenerate with BLOOM_UPDATE_SNAPSHOTS=1 {}",
                self.page,
                self.regenerate
            );
        }
    }

    /// Writes the page when it is being rewritten.
    ///
    /// # Panics
    /// When the page cannot be written.
    pub fn finish(self) {
        if self.update {
            // Written beside the page and renamed over it, so that a test reading
            // the page meanwhile sees the old page or the new one, never a part.
            let temp = self
                .path
                .with_extension(format!("tmp-{}", std::process::id()));
            std::fs::write(&temp, &self.doc)
                .and_then(|()| std::fs::rename(&temp, &self.path))
                .unwrap_or_else(|e| panic!("writing {}: {e}", self.path.display()));
        }
    }
}
