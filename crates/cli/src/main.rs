//! `lockstep`: runs and validates lesson files headless.

/// mimalloc instead of the system's malloc: see `lockstep_cli::alloc`.
#[global_allocator]
static ALLOCATOR: lockstep_cli::alloc::MiMalloc = lockstep_cli::alloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // Rust ignores SIGPIPE, so printing to a reader that has gone (`| head`) fails, and
    // `println!` panics. A command-line tool ends quietly there, as the signal's default
    // does.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    lockstep_cli::main()
}
