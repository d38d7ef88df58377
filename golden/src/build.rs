//! Building a filter from a key file (contract §2.1), streaming: the input is
//! read in chunks of whole lines ([`crate::keys::LineChunks`]) and never held
//! whole. With several threads, each worker parses the chunks it is given and
//! inserts their keys into a filter of its own; the workers' filters are ORed
//! at the end, which is exactly the filter of all the keys (a union of filters
//! is lossless, and insertion order does not change a filter's bits).
//!
//! A counting filter (contract §7) builds the same way: with inserts only, a
//! counter started at 0 holds min(S, increments it received), so the workers'
//! counters combine by saturating addition: min(S, min(S, x) + min(S, y)) =
//! min(S, x + y).

use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Mutex};

use crate::config::CoreParams;
use crate::counting::{CounterBits, CountingFilter};
use crate::keys::{parse_lines, Chunk, KeyFileError, LineChunks, CHUNK_BYTES};
use crate::partitioned::PartitionedFilter;

/// A filter a key file can be built into: empty from a configuration, keys
/// inserted, and two filters of disjoint key streams combined into the filter
/// of both.
pub trait Buildable: Sized + Send {
    fn empty(cfg: CoreParams) -> Self;
    fn insert_key(&mut self, key: u128);
    fn key_bits(&self) -> u32;
    fn combine(self, other: &Self) -> Self;
}

impl Buildable for PartitionedFilter {
    fn empty(cfg: CoreParams) -> Self {
        PartitionedFilter::new(cfg)
    }
    fn insert_key(&mut self, key: u128) {
        // parse_lines has checked the width; insert cannot fail.
        let _ = self.insert(key);
    }
    fn key_bits(&self) -> u32 {
        self.config().key_bits
    }
    fn combine(self, other: &Self) -> Self {
        self.union(other)
            .expect("every worker's filter has the build's configuration")
    }
}

impl Buildable for CountingFilter {
    fn empty(cfg: CoreParams) -> Self {
        let c =
            CounterBits::new(cfg.counter_bits).expect("a validated configuration's counter width");
        CountingFilter::new(cfg, c)
    }
    fn insert_key(&mut self, key: u128) {
        let _ = self.insert(key);
    }
    fn key_bits(&self) -> u32 {
        self.config().key_bits
    }
    fn combine(self, other: &Self) -> Self {
        let s = self.saturation() as u32;
        let banks: Vec<Vec<u8>> = (0..self.config().k as usize)
            .map(|p| {
                let (a, b) = (self.bank(p).unwrap_or(&[]), other.bank(p).unwrap_or(&[]));
                a.iter()
                    .zip(b)
                    .map(|(&x, &y)| (x as u32 + y as u32).min(s) as u8)
                    .collect()
            })
            .collect();
        CountingFilter::from_counters(*self.config(), self.counter_bits(), &banks)
            .expect("every worker's filter has the build's configuration")
    }
}

/// What a build read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Keys inserted (duplicates included).
    pub keys: u64,
    /// Lines read.
    pub lines: u64,
    /// Bytes read.
    pub bytes: u64,
}

/// How far a build has come: bytes and lines of the key file read so far.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildProgress {
    pub bytes: u64,
    pub lines: u64,
}

/// Inserts every key of `input` (a key file called `name` in messages) into a
/// new filter of `cfg`, using `threads` threads (1 = all on the calling
/// thread). `progress` is called on the calling thread after every chunk read.
/// The first bad line of the file (the lowest line number) is the error.
pub fn build_filter<R: Read>(
    cfg: CoreParams,
    input: R,
    name: &str,
    threads: usize,
    progress: impl FnMut(BuildProgress),
) -> Result<(PartitionedFilter, BuildStats), KeyFileError> {
    build(cfg, input, name, threads, progress)
}

/// [`build_filter`] for a counting filter of `cfg` (its `counter_bits`).
pub fn build_counting_filter<R: Read>(
    cfg: CoreParams,
    input: R,
    name: &str,
    threads: usize,
    progress: impl FnMut(BuildProgress),
) -> Result<(CountingFilter, BuildStats), KeyFileError> {
    build(cfg, input, name, threads, progress)
}

/// Inserts every key of `input` into a new [`Buildable`] filter (see [`build_filter`]).
pub fn build<F: Buildable, R: Read>(
    cfg: CoreParams,
    input: R,
    name: &str,
    threads: usize,
    mut progress: impl FnMut(BuildProgress),
) -> Result<(F, BuildStats), KeyFileError> {
    let mut chunks = LineChunks::new(input, name);
    if threads <= 1 {
        let mut filter = F::empty(cfg);
        let mut keys = 0;
        let mut buffer = Vec::with_capacity(CHUNK_BYTES);
        while let Some(chunk) = chunks.next_chunk(buffer)? {
            keys += insert_chunk(&mut filter, &chunk, name)?;
            buffer = chunk.data;
            progress(BuildProgress {
                bytes: chunks.bytes_read(),
                lines: chunks.lines(),
            });
        }
        let stats = BuildStats {
            keys,
            lines: chunks.lines(),
            bytes: chunks.bytes_read(),
        };
        return Ok((filter, stats));
    }

    // Lowest line number of any error so far; chunks starting after it are skipped.
    let first_error_line = AtomicU64::new(u64::MAX);
    let errors: Mutex<Vec<KeyFileError>> = Mutex::new(Vec::new());
    let keys = AtomicU64::new(0);
    // Bounded queues: at most 2 chunks per worker in flight, so memory stays
    // bounded by about 3 * threads * CHUNK_BYTES whatever the input.
    let (work_tx, work_rx) = mpsc::sync_channel::<Chunk>(2 * threads);
    let work_rx = Mutex::new(work_rx);
    let (spare_tx, spare_rx) = mpsc::channel::<Vec<u8>>();
    let filters = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let spare_tx = spare_tx.clone();
                let (work_rx, first_error_line, errors, keys) =
                    (&work_rx, &first_error_line, &errors, &keys);
                scope.spawn(move || {
                    let mut filter = F::empty(cfg);
                    loop {
                        let next = work_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        let Ok(chunk) = next else { break };
                        if chunk.first_line < first_error_line.load(Ordering::Relaxed) {
                            match insert_chunk(&mut filter, &chunk, name) {
                                Ok(n) => {
                                    keys.fetch_add(n, Ordering::Relaxed);
                                }
                                Err(err) => {
                                    first_error_line.fetch_min(err.line(), Ordering::Relaxed);
                                    errors.lock().unwrap_or_else(|e| e.into_inner()).push(err);
                                }
                            }
                        }
                        let _ = spare_tx.send(chunk.data);
                    }
                    filter
                })
            })
            .collect();
        drop(spare_tx);
        while first_error_line.load(Ordering::Relaxed) == u64::MAX {
            let buffer = spare_rx
                .try_recv()
                .unwrap_or_else(|_| Vec::with_capacity(CHUNK_BYTES));
            match chunks.next_chunk(buffer) {
                Ok(Some(chunk)) => {
                    if work_tx.send(chunk).is_err() {
                        break;
                    }
                    progress(BuildProgress {
                        bytes: chunks.bytes_read(),
                        lines: chunks.lines(),
                    });
                }
                Ok(None) => break,
                Err(err) => {
                    first_error_line.fetch_min(err.line(), Ordering::Relaxed);
                    errors.lock().unwrap_or_else(|e| e.into_inner()).push(err);
                    break;
                }
            }
        }
        drop(work_tx);
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect::<Vec<_>>()
    });
    let mut errors = errors.into_inner().unwrap_or_else(|e| e.into_inner());
    if !errors.is_empty() {
        errors.sort_by_key(KeyFileError::line);
        return Err(errors.swap_remove(0));
    }
    let mut filters = filters.into_iter();
    let mut filter = filters.next().unwrap_or_else(|| F::empty(cfg));
    for other in filters {
        filter = filter.combine(&other);
    }
    let stats = BuildStats {
        keys: keys.into_inner(),
        lines: chunks.lines(),
        bytes: chunks.bytes_read(),
    };
    Ok((filter, stats))
}

fn insert_chunk<F: Buildable>(
    filter: &mut F,
    chunk: &Chunk,
    name: &str,
) -> Result<u64, KeyFileError> {
    let key_bits = filter.key_bits();
    parse_lines(&chunk.data, chunk.first_line, key_bits, name, |key| {
        filter.insert_key(key)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::HashFamily;

    fn key_text(n: u64) -> Vec<u8> {
        let mut text = Vec::new();
        let mut x = 0x1234_5678u64;
        for i in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if i % 3 == 0 {
                text.extend_from_slice(format!("{x:#x}\n").as_bytes());
            } else {
                text.extend_from_slice(format!("{x}  # key {i}\n").as_bytes());
            }
        }
        text
    }

    #[test]
    fn threads_build_the_same_filter_as_one_thread() {
        let cfg = CoreParams::new(5, 10, 64, HashFamily::H3, 3).unwrap();
        let text = key_text(200_000);
        assert!(text.len() > 3 * CHUNK_BYTES, "spans several chunks");
        let (one, stats) = build_filter(cfg, &text[..], "k", 1, |_| {}).unwrap();
        assert_eq!(stats.keys, 200_000);
        assert_eq!(stats.lines, 200_000);
        assert_eq!(stats.bytes, text.len() as u64);
        let mut naive = PartitionedFilter::new(cfg);
        crate::keys::read_keys(&text[..], "k", 64, |k| {
            naive.insert(k).unwrap();
        })
        .unwrap();
        assert_eq!(one, naive);
        for threads in [2, 3, 8] {
            let (many, many_stats) = build_filter(cfg, &text[..], "k", threads, |_| {}).unwrap();
            assert_eq!(many, one, "{threads} threads");
            assert_eq!(many.fill(), one.fill());
            assert_eq!(many_stats, stats);
        }
    }

    #[test]
    fn counting_threads_build_the_same_counters_as_one_thread_and_as_naive_inserts() {
        // c = 2 and about 1.5 keys per counter: many counters saturate (so the saturating
        // combine is exercised), many do not.
        let cfg = CoreParams::new(3, 16, 64, HashFamily::H3, 9)
            .unwrap()
            .with_counter_bits(2)
            .unwrap();
        let mut text = key_text(100_000);
        text.extend_from_slice(&key_text(1_000)); // repeated keys
        let mut naive = CountingFilter::new(cfg, CounterBits::new(2).unwrap());
        crate::keys::read_keys(&text[..], "k", 64, |k| {
            naive.insert(k).unwrap();
        })
        .unwrap();
        assert!(naive.saturated().iter().sum::<u32>() > 0);
        assert!(naive.fill().iter().sum::<u32>() > naive.saturated().iter().sum::<u32>());
        for threads in [1, 2, 3, 8] {
            let (built, stats) =
                build_counting_filter(cfg, &text[..], "k", threads, |_| {}).unwrap();
            assert_eq!(built, naive, "{threads} threads");
            assert_eq!(stats.keys, 101_000);
        }
        // And c = 4 with few keys: nothing saturates; counters equal the increments.
        let cfg4 = CoreParams::new(4, 12, 64, HashFamily::Crc, 1)
            .unwrap()
            .with_counter_bits(4)
            .unwrap();
        let small = key_text(3_000);
        let (one, _) = build_counting_filter(cfg4, &small[..], "k", 1, |_| {}).unwrap();
        let (four, _) = build_counting_filter(cfg4, &small[..], "k", 4, |_| {}).unwrap();
        assert_eq!(one, four);
    }

    #[test]
    fn the_first_bad_line_is_the_error_whatever_the_threads() {
        let cfg = CoreParams::new(2, 8, 32, HashFamily::Crc, 0).unwrap();
        let mut text = Vec::new();
        for i in 0..400_000u64 {
            match i {
                150_000 => text.extend_from_slice(b"4294967296\n"),
                390_000 => text.extend_from_slice(b"nonsense\n"),
                _ => text.extend_from_slice(format!("{}\n", i * 7).as_bytes()),
            }
        }
        for threads in [1, 2, 4] {
            let err = build_filter(cfg, &text[..], "keys", threads, |_| {}).unwrap_err();
            assert_eq!(err.line(), 150_001, "{threads} threads: {err}");
            assert!(err.to_string().contains("does not fit in 32 bits"), "{err}");
        }
    }
}
