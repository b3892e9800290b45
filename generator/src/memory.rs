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

/// Asks the system to back `memory`, not written yet, with huge pages where
/// it can (Linux's transparent huge pages, which most systems give only to
/// memory that asks). The states of a six-piece solve span gigabytes and
/// are reached at random: with pages of 4 KiB nearly every access misses the
/// processor's table of pages as well as its caches (figures in
/// `docs/scaling.md`). Elsewhere, or where the system declines, nothing
/// changes.
#[cfg(target_os = "linux")]
pub(crate) fn huge_pages<T>(memory: &mut [std::mem::MaybeUninit<T>]) {
    let start = memory.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(memory);
    // SAFETY: sysconf reads a constant of the system; the advice covers
    // whole pages (of the system's own size, 4 KiB or more) within
    // `memory`, which this process owns, and MADV_HUGEPAGE changes how the
    // pages are backed, never their contents or whether they may be read
    // and written.
    #[allow(unsafe_code)]
    unsafe {
        let page = usize::try_from(libc::sysconf(libc::_SC_PAGESIZE)).unwrap_or(0);
        if page == 0 {
            return;
        }
        let (first, last) = (start.next_multiple_of(page), end / page * page);
        if first < last {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn huge_pages<T>(_memory: &mut [std::mem::MaybeUninit<T>]) {}

/// What a solve needs in memory, said before it starts and refused where the
/// run cannot count on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Need {
    /// What needs it: the largest table a run solves, named.
    pub what: String,
    pub bytes: u64,
}

impl Need {
    /// Whether `can` bytes (what the run was told, or else what the system
    /// has available) cover this need; an error that gives both figures and
    /// what to do where not. Where the system says nothing, the need passes.
    pub fn check(&self, can: Option<u64>) -> anyhow::Result<()> {
        let Some(can) = can.or_else(available) else {
            return Ok(());
        };
        if self.bytes <= can {
            return Ok(());
        }
        anyhow::bail!(
            "{} needs about {} of memory, and this run can count on {}: free memory, \
             or give tbgen --memory GB where more is there than the system says available",
            self.what,
            gb(self.bytes),
            gb(can)
        )
    }
}

/// Bytes as gigabytes (10^9 bytes) with one decimal, or below one as megabytes.
pub fn gb(bytes: u64) -> String {
    match bytes >= 1_000_000_000 {
        true => format!("{:.1} GB", bytes as f64 / 1e9),
        false => format!("{} MB", bytes.div_ceil(1_000_000)),
    }
}

/// The memory the system says is available to a new process (Linux's
/// `MemAvailable`), if it says.
fn available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_need_beyond_the_memory_given_is_refused_with_both_figures() {
        let need = Need {
            what: "KRBvKRN".into(),
            bytes: 17_200_000_000,
        };
        assert!(need.check(Some(17_200_000_000)).is_ok());
        let said = need.check(Some(12_340_000_000)).unwrap_err().to_string();
        assert!(said.contains("KRBvKRN needs about 17.2 GB"), "{said}");
        assert!(said.contains("can count on 12.3 GB"), "{said}");
        assert!(said.contains("--memory"), "{said}");
        assert_eq!(gb(7_612_000), "8 MB");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_system_says_what_is_available() {
        let bytes = available().expect("/proc/meminfo has MemAvailable");
        assert!(bytes > 1 << 20, "{bytes}");
    }
}
