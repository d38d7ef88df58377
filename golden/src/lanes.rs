//! Beats of L operations (contract §8): slot j of a beat is empty or holds
//! one operation; a beat is applied as its operations in slot order, slot 0
//! first, unless it breaks the rule of §8.2 (an operation other than a query
//! above slot 0, or any operation above slot 0 beside a write in slot 0), in
//! which case nothing of it is applied.
//!
//! Written as the contract says it, operation after operation: the model has
//! no notion of lanes running side by side, which is the hardware's business.

use thiserror::Error;

use crate::counting::CountingFilter;
use crate::error::KeyError;
use crate::partitioned::{Op, PartitionedFilter};

/// Lanes a beat may have: L in 1 ..= MAX_LANES (contract §8.3).
pub const MAX_LANES: usize = 128;

/// What became of a beat (contract §8.1, §8.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BeatOutcome {
    /// Every slot empty: no beat, nothing taken.
    NoBeat,
    /// Applied in slot order; slot j's response `hit` (None for an empty slot).
    Taken(Vec<Option<bool>>),
    /// Refused as a whole: nothing applied. `slot` is the lowest slot above 0
    /// that holds an operation other than a query.
    Refused { slot: usize },
}

/// A beat that cannot be built at all (before anything of it is applied).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BeatError {
    #[error("a beat of {0} slots: lanes = {0} is not allowed (allowed: 1 ..= {MAX_LANES})")]
    Lanes(usize),
    #[error("slot {slot}: {error}")]
    Key { slot: usize, error: KeyError },
}

/// The lowest slot above 0 that breaks the rule of contract §8.2, if any:
/// one holding an operation other than a query (op code 0), or, when slot 0
/// holds an insert, a clear or a delete, one holding any operation.
pub fn rule_breaker(beat: &[Option<Op>]) -> Option<usize> {
    let slot0_writes = matches!(beat.first(), Some(Some(op)) if op.code() != 0);
    beat.iter()
        .enumerate()
        .skip(1)
        .find_map(|(slot, op)| match op {
            None => None,
            Some(Op::Query(_)) if !slot0_writes => None,
            Some(_) => Some(slot),
        })
}

/// A filter beats apply to: the plain filter of contract §5, or the counting filter of
/// §7 (§8.3: lanes are the same for both; a delete is a write, slot 0 alone).
pub trait BeatFilter {
    /// The key fits the filter's key width (§2).
    fn check_beat_key(&self, key: u128) -> Result<(), KeyError>;
    /// One operation of the sequence, and its response `hit`.
    fn apply_one(&mut self, op: Op) -> Result<bool, KeyError>;
}

impl BeatFilter for PartitionedFilter {
    fn check_beat_key(&self, key: u128) -> Result<(), KeyError> {
        self.check_key(key)
    }
    fn apply_one(&mut self, op: Op) -> Result<bool, KeyError> {
        self.apply(op)
    }
}

impl BeatFilter for CountingFilter {
    fn check_beat_key(&self, key: u128) -> Result<(), KeyError> {
        self.check_key(key)
    }
    fn apply_one(&mut self, op: Op) -> Result<bool, KeyError> {
        self.apply(op)
    }
}

/// Applies one beat to `filter` (contract §8): checks its width and every key first,
/// then either refuses it or applies its operations in slot order.
pub fn apply_beat<F: BeatFilter>(
    filter: &mut F,
    beat: &[Option<Op>],
) -> Result<BeatOutcome, BeatError> {
    if beat.is_empty() || beat.len() > MAX_LANES {
        return Err(BeatError::Lanes(beat.len()));
    }
    for (slot, op) in beat.iter().enumerate() {
        if let Some(Op::Query(key) | Op::Insert(key) | Op::Delete(key)) = op {
            filter
                .check_beat_key(*key)
                .map_err(|error| BeatError::Key { slot, error })?;
        }
    }
    if beat.iter().all(Option::is_none) {
        return Ok(BeatOutcome::NoBeat);
    }
    if let Some(slot) = rule_breaker(beat) {
        return Ok(BeatOutcome::Refused { slot });
    }
    let mut hits = Vec::with_capacity(beat.len());
    for op in beat {
        hits.push(op.map(|op| filter.apply_one(op).expect("keys checked above")));
    }
    Ok(BeatOutcome::Taken(hits))
}

impl PartitionedFilter {
    /// Applies one beat (contract §8): [`apply_beat`].
    pub fn apply_beat(&mut self, beat: &[Option<Op>]) -> Result<BeatOutcome, BeatError> {
        apply_beat(self, beat)
    }
}

impl CountingFilter {
    /// Applies one beat (contract §8.3): [`apply_beat`].
    pub fn apply_beat(&mut self, beat: &[Option<Op>]) -> Result<BeatOutcome, BeatError> {
        apply_beat(self, beat)
    }
}
