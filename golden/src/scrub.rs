//! The scrub's reference (docs/contract.md §5.2), written from the contract alone: per
//! bank the offset D_p (the soft changes since the last clear or reset), and for a scrub
//! in progress the soft changes it will see (those at addresses it has not read yet).
//!
//! It knows nothing of cycles: the caller says when a scrub starts, when it reads its
//! next address (a slot), when a clear is committed, when a reset happens and when a
//! bit changes outside the operations; [`ScrubModel::finish`] gives the mismatch bits.

/// One bank's soft change: its bit (counter) at `addr` went from zero to non-zero (`+1`)
/// or from non-zero to zero (`-1`); a change that keeps it zero or non-zero is 0.
pub fn soft_delta(before: u8, after: u8) -> i64 {
    (after != 0) as i64 - (before != 0) as i64
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScrubModel {
    k: usize,
    bank_size: u32,
    /// D_p: the sum of the soft changes of bank p since its last clear or reset.
    offset: Vec<i64>,
    /// The scrub in progress: the addresses it has read (0 ..= read - 1) and, per bank,
    /// the soft changes it sees.
    running: Option<(u32, Vec<i64>)>,
    /// What the last scrub that ended reported (bit p: bank p).
    mismatch: u16,
}

impl ScrubModel {
    /// `k` banks of `bank_size` addresses, after a reset: no offset, no scrub, no report.
    pub fn new(k: usize, bank_size: u32) -> ScrubModel {
        ScrubModel {
            k,
            bank_size,
            offset: vec![0; k],
            running: None,
            mismatch: 0,
        }
    }

    /// A reset: the scrub in progress ends without result, the report is 0, and the
    /// recount makes every fill counter equal its bank (every D_p 0).
    pub fn reset(&mut self) {
        *self = ScrubModel::new(self.k, self.bank_size);
    }

    /// A clear is committed: the banks are empty and the fill counters 0 (D_p 0), and
    /// the scrub in progress counts only what follows.
    pub fn clear(&mut self) {
        self.offset.iter_mut().for_each(|d| *d = 0);
        if let Some((_, seen)) = &mut self.running {
            seen.iter_mut().for_each(|d| *d = 0);
        }
    }

    /// A soft change of bank `bank` at `addr`, of `delta` (see [`soft_delta`]).
    pub fn soft_change(&mut self, bank: usize, addr: u32, delta: i64) {
        self.offset[bank] += delta;
        if let Some((read, seen)) = &mut self.running {
            if addr >= *read {
                seen[bank] += delta;
            }
        }
    }

    /// D_p of every bank.
    pub fn offsets(&self) -> &[i64] {
        &self.offset
    }

    /// Whether a scrub is in progress.
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// A scrub starts (the core is not scrubbing): it sees every D_p so far.
    pub fn start(&mut self) {
        assert!(self.running.is_none(), "a scrub is already in progress");
        self.running = Some((0, self.offset.clone()));
    }

    /// The scrub reads its next address in every bank. Returns true when that was the
    /// last one (the scrub's last slot).
    pub fn slot(&mut self) -> bool {
        let (read, _) = self.running.as_mut().expect("no scrub in progress");
        *read += 1;
        *read == self.bank_size
    }

    /// The scrub ends: bank p is reported iff the soft changes it saw sum to non-zero.
    pub fn finish(&mut self) -> u16 {
        let (_, seen) = self.running.take().expect("no scrub in progress");
        self.mismatch = seen
            .iter()
            .enumerate()
            .filter(|(_, d)| **d != 0)
            .fold(0u16, |m, (p, _)| m | 1 << p);
        self.mismatch
    }

    /// The power-up check shows its report (docs/contract.md §5.3, [`power_up_report`])
    /// in place of the last scrub's.
    pub fn power_up(&mut self, report: u16) {
        self.mismatch = report;
    }

    /// What the last scrub (or the power-up check) reported (0 after a reset).
    pub fn mismatch(&self) -> u16 {
        self.mismatch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_soft_change_is_seen_by_the_scrub_that_reads_it_after() {
        let mut m = ScrubModel::new(3, 4);
        m.soft_change(1, 2, soft_delta(1, 0));
        m.start();
        assert!(!m.slot());
        m.soft_change(2, 0, 1); // already read: the next scrub's
        m.soft_change(0, 3, 1); // not yet read: this one's
        assert!(!m.slot() && !m.slot() && m.slot());
        assert_eq!(m.finish(), 0b011);
        m.start();
        for _ in 0..4 {
            m.slot();
        }
        assert_eq!(m.finish(), 0b111);
    }

    #[test]
    fn changes_that_cancel_clears_and_resets_report_nothing() {
        let mut m = ScrubModel::new(2, 2);
        m.soft_change(0, 0, 1);
        m.soft_change(0, 1, -1);
        m.soft_change(1, 1, 1);
        m.start();
        m.slot();
        m.clear();
        m.slot();
        assert_eq!(m.finish(), 0);
        m.soft_change(1, 0, 1);
        m.reset();
        assert_eq!((m.offsets(), m.mismatch()), (&[0, 0][..], 0));
    }
}

/// The power-up check's report (docs/contract.md §5.3): bit p set iff bank p's fill
/// after the first recount (`fills`) differs from the fill the image gave it (`image`).
pub fn power_up_report(image: &[u32], fills: &[u32]) -> u16 {
    image
        .iter()
        .zip(fills)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .fold(0u16, |m, (p, _)| m | 1 << p)
}

#[cfg(test)]
mod power_up_tests {
    use super::power_up_report;

    #[test]
    fn banks_whose_fill_differs_from_the_image_are_reported() {
        assert_eq!(power_up_report(&[3, 0, 7], &[3, 0, 7]), 0);
        assert_eq!(power_up_report(&[3, 0, 7], &[2, 0, 8]), 0b101);
        assert_eq!(power_up_report(&[0; 16], &[1; 16]), 0xffff);
    }
}
