//! Native/wasm parity: the digest of each lesson's default run (every toggle at its
//! default, the lesson's own seed), computed the same way in both builds so that
//! `cargo xtask parity` can compare them.
//!
//! Natively, the `lockstep-parity` binary prints one line per lesson. For wasm32 the
//! library is built as a cdylib with a tiny C ABI ([`ffi`]; no wasm-bindgen, no
//! imports), so Node can `WebAssembly.instantiate` the raw module; `e2e/parity.mjs`
//! drives it and prints the same lines:
//!
//! ```sh
//! cargo rustc -p lockstep-parity --lib --crate-type cdylib --target wasm32-unknown-unknown --release
//! node e2e/parity.mjs target/wasm32-unknown-unknown/release/lockstep_parity.wasm lessons
//! cargo run -p lockstep-parity --release -- lessons
//! ```

use std::fmt::{self, Write as _};

/// `events=N checks=P/T fnv1a64=HEX` for the lesson's default run: the number of trace
/// entries, the checks that passed out of those that apply, and an FNV-1a 64 hash of
/// the trace text (every entry's `Display`, one line each, as the CLI prints it). An
/// error is the lesson failing to parse, apply or run, as one line.
pub fn default_run_digest(file_name: &str, text: &str) -> Result<String, String> {
    let lesson = lesson::Lesson::parse(file_name, text).map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    let applied = lesson
        .apply(&lesson.settings_default())
        .map_err(|e| e.to_string())?;
    let report = lesson::run(&applied, lesson.seed).map_err(|e| e.to_string())?;
    let trace = &report.trace;
    let mut hash = Fnv1a64::default();
    // Writing into the hasher cannot fail; hashing as we format never holds the text
    // of the claim race's long trace in memory.
    let _ = write!(hash, "{trace}");
    let passed = report.checks.iter().filter(|c| c.passed).count();
    Ok(format!(
        "events={} checks={passed}/{} fnv1a64={:016x}",
        trace.entries.len(),
        report.checks.len(),
        hash.0
    ))
}

/// One output line: `<file name>\t<digest>`, or `<file name>\terror: <message>`, with
/// line breaks in the message replaced so the line stays one line.
pub fn digest_line(file_name: &str, text: &str) -> String {
    let result = match default_run_digest(file_name, text) {
        Ok(digest) => digest,
        Err(message) => format!("error: {}", message.replace(['\r', '\n'], " ")),
    };
    format!("{file_name}\t{result}")
}

/// FNV-1a, 64 bits: tiny, dependency-free and the same on every target (std's hasher
/// may change between Rust releases).
struct Fnv1a64(u64);

impl Default for Fnv1a64 {
    fn default() -> Self {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }
}

impl fmt::Write for Fnv1a64 {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for &byte in s.as_bytes() {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        Ok(())
    }
}

/// The C ABI the wasm module exports. Compiled on every target, so native tests and
/// clippy cover it too. The caller (JS) owns nothing Rust-side except through these
/// functions:
///
/// 1. `parity_alloc(len)` for the file name and for the text, and copy the UTF-8 bytes
///    into memory at the returned addresses;
/// 2. `parity_digest(name, name_len, text, text_len)`: 0 if it ran, 1 if the lesson
///    failed (the result is then the error message), 2 if the input is not UTF-8;
/// 3. read `parity_result_len()` bytes at `parity_result_ptr()` (valid until the next
///    `parity_digest`);
/// 4. `parity_free(ptr, len)` both inputs.
///
/// Memory may grow during a call, so JS must take a fresh view of it afterwards.
pub mod ffi {
    use std::cell::RefCell;

    thread_local! {
        static RESULT: RefCell<String> = const { RefCell::new(String::new()) };
    }

    /// `len` bytes for the caller to fill; free them with [`parity_free`].
    #[no_mangle]
    pub extern "C" fn parity_alloc(len: usize) -> *mut u8 {
        let mut buffer = std::mem::ManuallyDrop::new(Vec::<u8>::with_capacity(len));
        buffer.as_mut_ptr()
    }

    /// Frees a buffer from [`parity_alloc`].
    ///
    /// # Safety
    ///
    /// `ptr` and `len` must come from one `parity_alloc(len)` call, freed once.
    #[no_mangle]
    pub unsafe extern "C" fn parity_free(ptr: *mut u8, len: usize) {
        // SAFETY: the caller passes back exactly what parity_alloc handed out: a
        // Vec<u8> allocation of capacity `len`. Length 0, so no element is dropped.
        drop(unsafe { Vec::from_raw_parts(ptr, 0, len) });
    }

    /// Runs the lesson (file name and text as UTF-8 bytes) and keeps the digest or the
    /// error for [`parity_result_ptr`] / [`parity_result_len`].
    ///
    /// # Safety
    ///
    /// Each (pointer, length) pair must be `len` initialised bytes, e.g. a buffer from
    /// [`parity_alloc`] that the caller filled.
    #[no_mangle]
    pub unsafe extern "C" fn parity_digest(
        name: *const u8,
        name_len: usize,
        text: *const u8,
        text_len: usize,
    ) -> u32 {
        // SAFETY: guaranteed by the caller (see above); the slices live only in this call.
        let (name, text) = unsafe {
            (
                std::slice::from_raw_parts(name, name_len),
                std::slice::from_raw_parts(text, text_len),
            )
        };
        let (status, result) = match (std::str::from_utf8(name), std::str::from_utf8(text)) {
            (Ok(name), Ok(text)) => match super::default_run_digest(name, text) {
                Ok(digest) => (0, digest),
                Err(message) => (1, message),
            },
            _ => (2, "the file name or text is not UTF-8".to_owned()),
        };
        RESULT.with(|r| *r.borrow_mut() = result);
        status
    }

    /// Where the last result's UTF-8 bytes start.
    #[no_mangle]
    pub extern "C" fn parity_result_ptr() -> *const u8 {
        RESULT.with(|r| r.borrow().as_ptr())
    }

    /// How many bytes the last result has.
    #[no_mangle]
    pub extern "C" fn parity_result_len() -> usize {
        RESULT.with(|r| r.borrow().len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fnv(s: &str) -> u64 {
        let mut hash = Fnv1a64::default();
        hash.write_str(s).unwrap();
        hash.0
    }

    #[test]
    fn fnv1a64_matches_reference_values() {
        assert_eq!(fnv(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv("foobar"), 0x8594_4171_f739_67e8);
    }

    const LESSON: &str = include_str!("../../../lessons/queue-wait-or-skip.md");

    #[test]
    fn digest_is_stable_and_one_line() {
        let first = default_run_digest("queue-wait-or-skip.md", LESSON).unwrap();
        assert!(first.starts_with("events="), "{first}");
        assert_eq!(
            default_run_digest("queue-wait-or-skip.md", LESSON).unwrap(),
            first
        );
        let line = digest_line("x.md", "not a lesson\n");
        assert!(line.starts_with("x.md\terror: "), "{line}");
        assert!(!line.contains('\n'), "{line}");
    }

    #[test]
    fn ffi_round_trip_gives_the_native_digest() {
        // What e2e/parity.mjs does, through the same functions.
        fn pass(bytes: &[u8]) -> *mut u8 {
            let ptr = ffi::parity_alloc(bytes.len());
            // SAFETY: ptr has room for bytes.len() bytes (parity_alloc).
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len()) };
            ptr
        }
        let name = "queue-wait-or-skip.md";
        let (name_ptr, text_ptr) = (pass(name.as_bytes()), pass(LESSON.as_bytes()));
        // SAFETY: both buffers hold the bytes copied in above.
        let status = unsafe { ffi::parity_digest(name_ptr, name.len(), text_ptr, LESSON.len()) };
        // SAFETY: the result stays valid until the next parity_digest on this thread.
        let result = unsafe {
            std::slice::from_raw_parts(ffi::parity_result_ptr(), ffi::parity_result_len())
        };
        assert_eq!(status, 0);
        assert_eq!(
            std::str::from_utf8(result).unwrap(),
            default_run_digest(name, LESSON).unwrap()
        );
        // SAFETY: each pair is one parity_alloc, freed once.
        unsafe {
            ffi::parity_free(name_ptr, name.len());
            ffi::parity_free(text_ptr, LESSON.len());
        }
    }
}
