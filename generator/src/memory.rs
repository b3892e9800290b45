//! Memory a solve has freed, given back to the system. glibc's allocator keeps
//! freed heap pages for its own reuse; a solve's scans and plies free their
//! lists (hundreds of megabytes on a 5-piece ending) in many pieces, which
//! would stay counted to the process while the codes are made beside the
//! states (the retrograde solver gives them back then, once a solve: once a
//! tier, or once a slice of a pawn ending's placements), and the chess solver
//! once more when a tier is done. Elsewhere (another allocator, another
//! system) this does nothing.

/// Returns the allocator's free pages to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) fn give_back() {
    // SAFETY: malloc_trim only releases free memory of the allocator's own
    // heaps; it touches no allocation in use.
    #[allow(unsafe_code)]
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(crate) fn give_back() {}
