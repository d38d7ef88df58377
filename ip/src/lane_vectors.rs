//! Portable test vectors for `bloom_lanes_axis` (L keys per beat, docs/core.md
//! "Lanes"): a seeded stream of beats with every response beat the golden
//! model expects (contract §8, `PartitionedFilter::apply_beat`, or
//! `CountingFilter::apply_beat` for a counting filter's lanes), written as
//! plain hex files any Verilog simulator reads with `$readmemh` (the testbench
//! is [`crate::lane_testbench`]).
//!
//! The traffic: read beats (up to L queries, slots empty at random, keys
//! inserted before, keys of the last few beats again, random keys), write
//! beats (an insert or op 3 in slot 0, rare clears; of a counting filter, op 3
//! is a delete, mostly of a key inserted before), beats with no operation
//! (taken and dropped: no response beat) and beats that break the rule of
//! contract §8.2 (refused: every slot that held an operation answers 0 with
//! its tag and the beat's refused flag); random idle cycles at the source and
//! random stalls at the sink, long enough now and then to fill the response
//! beats' FIFO. The configuration is checked by the testbench generated with the
//! RTL, which knows it (it drives the streams only, not the register block).
//!
//! Files (format 2; one hex word a line; `stim.hex` and `expect.hex` end with
//! an end mark at the index the config gives, so a short, long or foreign file
//! is refused):
//! - `config.hex`, 32-bit words: [`LANES_MAGIC`], format, L, k, bank_bits,
//!   key_bits, hash (register code), seed bits 31:0, seed bits 63:32, stim
//!   lines, expect lines, beats, response beats, counter_bits.
//! - `stim.hex`, [`LANE_STEP_BITS`]-bit lines: bits 159:156 the kind. A beat is
//!   a header line (kind 0: 155:148 idle cycles of s_axis_tvalid before it)
//!   and L slot lines (kind 1: 140 the slot holds an operation, 137:136 op,
//!   135:128 tag, 127:0 key); kind 15 ends the file.
//! - `expect.hex`, 32-bit lines: a response beat is a header line (kind 0:
//!   23:16 cycles the sink holds m_axis_tready low before taking it, 0 the
//!   refused flag, m_axis_tuser) and L slot lines (kind 1: 9 tkeep, 8 hit,
//!   7:0 tag; an empty slot reads keep 0, hit 0, tag 0); then the end mark
//!   0xF0000000.

use bloom_params::CoreParams;
use golden::rng::SplitMix64;
use golden::{BeatOutcome, Op};
use serde::Serialize;

use crate::vectors::{hash_code, Golden, VectorError, MAX_OPS};

pub const LANES_MAGIC: u32 = 0x424C_564C;
pub const LANES_FORMAT: u32 = 2;
pub const LANE_STEP_BITS: u32 = 160;
pub const LANES_CONFIG_WORDS: usize = 14;
const KIND_BEAT: u32 = 0;
const KIND_SLOT: u32 = 1;
const KIND_END: u32 = 15;
/// Keys kept as candidates for queries that hit.
const INSERTED_KEPT: usize = 4096;
/// Beats whose keys a read beat may query again (read-after-write hazards).
pub const RECENT_BEATS: usize = 4;

/// One slot of a beat: (op code, key, tag), or empty.
pub type Slot = Option<(u8, u128, u8)>;

/// One request beat and the idle cycles of the source before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beat {
    pub gap: u8,
    pub slots: Vec<Slot>,
}

/// One response beat and the sink's stall before taking it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResponseBeat {
    pub stall: u8,
    pub refused: bool,
    /// Per slot: (keep, hit, tag).
    pub slots: Vec<(bool, bool, u8)>,
}

/// What a lanes vector set holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LaneVectorStats {
    pub beats: u64,
    /// Beats with no operation (taken and dropped, no response beat).
    pub empty_beats: u64,
    pub read_beats: u64,
    pub write_beats: u64,
    pub refused_beats: u64,
    /// Operations in beats taken and not refused.
    pub operations: u64,
    pub queries: u64,
    pub query_hits: u64,
    pub inserts: u64,
    /// Op 3 in slot 0 of a plain filter (it answers it as a query).
    pub reserved_op3: u64,
    /// Op 3 in slot 0 of a counting filter: deletes, and those carried out (every
    /// counter of the key non-zero; contract §7.2).
    pub deletes: u64,
    pub deletes_carried_out: u64,
    pub clears: u64,
    /// Queries of a key written by one of the few beats before.
    pub hazards: u64,
    /// Response beats the sink stalls before taking.
    pub stalled_responses: u64,
}

#[derive(Clone, Debug)]
pub struct LaneVectors {
    pub params: CoreParams,
    pub lanes: usize,
    pub seed: u64,
    pub beats: Vec<Beat>,
    pub responses: Vec<ResponseBeat>,
    pub stats: LaneVectorStats,
}

struct Builder {
    lanes: usize,
    key_bits: u32,
    filter: Golden,
    rng: SplitMix64,
    inserted: Vec<u128>,
    recent: Vec<Vec<u128>>,
    beats: Vec<Beat>,
    responses: Vec<ResponseBeat>,
    stats: LaneVectorStats,
}

impl Builder {
    fn gap(&mut self) -> u8 {
        let r = self.rng.below(100);
        if r < 80 {
            0
        } else if r < 95 {
            1 + self.rng.below(4) as u8
        } else {
            5 + self.rng.below(36) as u8
        }
    }

    fn stall(&mut self) -> u8 {
        let r = self.rng.below(100);
        if r < 85 {
            0
        } else if r < 97 {
            1 + self.rng.below(8) as u8
        } else {
            20 + self.rng.below(41) as u8
        }
    }

    fn tag(&mut self) -> u8 {
        self.rng.below(256) as u8
    }

    fn query_key(&mut self) -> u128 {
        let r = self.rng.below(100);
        let recent: Vec<u128> = self.recent.iter().flatten().copied().collect();
        if r < 15 && !recent.is_empty() {
            self.stats.hazards += 1;
            recent[self.rng.below(recent.len() as u64) as usize]
        } else if r < 50 && !self.inserted.is_empty() {
            self.inserted[self.rng.below(self.inserted.len() as u64) as usize]
        } else {
            self.rng.key(self.key_bits)
        }
    }

    fn write_key(&mut self) -> u128 {
        if self.rng.chance(0.2) && !self.inserted.is_empty() {
            self.inserted[self.rng.below(self.inserted.len() as u64) as usize]
        } else {
            self.rng.key(self.key_bits)
        }
    }

    /// A read beat: every slot a query with probability 3/4, at least one.
    fn read_slots(&mut self) -> Vec<Slot> {
        let mut slots: Vec<Slot> = vec![None; self.lanes];
        for slot in slots.iter_mut() {
            if self.rng.chance(0.75) {
                let key = self.query_key();
                *slot = Some((0, key, self.tag()));
            }
        }
        if slots.iter().all(Option::is_none) {
            let j = self.rng.below(self.lanes as u64) as usize;
            let key = self.query_key();
            slots[j] = Some((0, key, self.tag()));
        }
        slots
    }

    /// A write beat: an insert (89 %), op 3 (10 %) or a clear (1 %) in slot 0 alone;
    /// of a counting filter, 69 % inserts and 30 % deletes.
    fn write_slots(&mut self) -> Vec<Slot> {
        let mut slots: Vec<Slot> = vec![None; self.lanes];
        let r = self.rng.below(1000);
        let op3_below = if self.counting() { 310 } else { 100 };
        let op = if r < 10 {
            2
        } else if r < op3_below {
            3
        } else {
            1
        };
        let key = match op {
            2 => 0,
            3 if self.counting() => self.delete_key(),
            _ => self.write_key(),
        };
        slots[0] = Some((op, key, self.tag()));
        slots
    }

    fn counting(&self) -> bool {
        matches!(self.filter, Golden::Counting(_))
    }

    /// A delete's key: mostly one inserted before (so that it is carried out and its
    /// counters go down), else a random one (all k counters seldom non-zero: not
    /// carried out).
    fn delete_key(&mut self) -> u128 {
        if self.rng.chance(0.8) && !self.inserted.is_empty() {
            self.inserted[self.rng.below(self.inserted.len() as u64) as usize]
        } else {
            self.rng.key(self.key_bits)
        }
    }

    /// A beat that breaks contract §8.2 (needs L >= 2).
    fn refused_slots(&mut self) -> Vec<Slot> {
        if self.rng.chance(0.5) {
            let mut slots = self.read_slots();
            let j = 1 + self.rng.below(self.lanes as u64 - 1) as usize;
            let op = 1 + self.rng.below(3) as u8;
            let key = self.write_key();
            slots[j] = Some((op, key, self.tag()));
            slots
        } else {
            let mut slots = self.write_slots();
            let j = 1 + self.rng.below(self.lanes as u64 - 1) as usize;
            let key = self.query_key();
            slots[j] = Some((0, key, self.tag()));
            slots
        }
    }

    fn op_of(code: u8, key: u128) -> Op {
        match code {
            0 => Op::Query(key),
            1 => Op::Insert(key),
            2 => Op::Clear,
            _ => Op::Delete(key),
        }
    }

    /// Draws one beat, applies it to the golden model and records both sides.
    /// Returns the operations it holds.
    fn beat(&mut self) -> u64 {
        let r = self.rng.below(100);
        let slots = if r < 2 {
            vec![None; self.lanes]
        } else if r < 5 && self.lanes > 1 {
            self.refused_slots()
        } else if r < 30 {
            self.write_slots()
        } else {
            self.read_slots()
        };
        let gap = self.gap();
        let ops: Vec<Option<Op>> = slots
            .iter()
            .map(|s| s.map(|(code, key, _)| Self::op_of(code, key)))
            .collect();
        let outcome = match &mut self.filter {
            Golden::Plain(f) => f.apply_beat(&ops),
            Golden::Counting(f) => f.apply_beat(&ops),
        }
        .expect("keys are drawn within key_bits and L is allowed");
        self.stats.beats += 1;
        let held = slots.iter().filter(|s| s.is_some()).count() as u64;
        match outcome {
            BeatOutcome::NoBeat => self.stats.empty_beats += 1,
            BeatOutcome::Refused { .. } => {
                self.stats.refused_beats += 1;
                let stall = self.stall();
                self.respond(stall, true, &slots, &vec![Some(false); self.lanes]);
            }
            BeatOutcome::Taken(hits) => {
                self.stats.operations += held;
                match slots[0] {
                    Some((1, key, _)) => {
                        self.stats.write_beats += 1;
                        self.stats.inserts += 1;
                        if self.inserted.len() < INSERTED_KEPT {
                            self.inserted.push(key);
                        } else {
                            let i = self.rng.below(INSERTED_KEPT as u64) as usize;
                            self.inserted[i] = key;
                        }
                    }
                    Some((2, _, _)) => {
                        self.stats.write_beats += 1;
                        self.stats.clears += 1;
                        self.inserted.clear();
                    }
                    Some((3, _, _)) => {
                        self.stats.write_beats += 1;
                        if self.counting() {
                            self.stats.deletes += 1;
                            self.stats.deletes_carried_out += (hits[0] == Some(true)) as u64;
                        } else {
                            self.stats.reserved_op3 += 1;
                        }
                    }
                    _ => self.stats.read_beats += 1,
                }
                for (s, h) in slots.iter().zip(&hits) {
                    if let (Some((0, _, _)), Some(hit)) = (s, h) {
                        self.stats.queries += 1;
                        self.stats.query_hits += *hit as u64;
                    }
                }
                let keys: Vec<u128> = slots.iter().flatten().map(|s| s.1).collect();
                self.recent.push(keys);
                if self.recent.len() > RECENT_BEATS {
                    self.recent.remove(0);
                }
                let stall = self.stall();
                self.respond(stall, false, &slots, &hits);
            }
        }
        self.beats.push(Beat { gap, slots });
        held
    }

    fn respond(&mut self, stall: u8, refused: bool, slots: &[Slot], hits: &[Option<bool>]) {
        self.stats.stalled_responses += (stall > 0) as u64;
        let slots = slots
            .iter()
            .zip(hits)
            .map(|(s, h)| match s {
                Some((_, _, tag)) => (true, !refused && h.unwrap_or(false), *tag),
                None => (false, false, 0),
            })
            .collect();
        self.responses.push(ResponseBeat {
            stall,
            refused,
            slots,
        });
    }
}

/// A vector set of about `ops` operations (slots holding one) in beats of
/// `lanes` slots for `bloom_lanes_axis` of `params`, starting from `filter`'s
/// contents (empty, or the image the banks are preloaded with).
pub fn generate_lanes(
    params: &CoreParams,
    lanes: usize,
    filter: Golden,
    ops: u64,
    seed: u64,
) -> Result<LaneVectors, VectorError> {
    if ops == 0 || ops > MAX_OPS {
        return Err(VectorError::Ops(ops));
    }
    if filter.config() != params {
        return Err(VectorError::Golden(
            "the golden model's configuration differs from the core's".into(),
        ));
    }
    if !(2..=golden::MAX_LANES).contains(&lanes) {
        return Err(VectorError::Golden(format!(
            "lanes = {lanes}: lane vectors need 2 ..= {}",
            golden::MAX_LANES
        )));
    }
    let mut b = Builder {
        lanes,
        key_bits: params.key_bits,
        filter,
        rng: SplitMix64::new(seed),
        inserted: Vec::new(),
        recent: Vec::new(),
        beats: Vec::new(),
        responses: Vec::new(),
        stats: LaneVectorStats::default(),
    };
    let mut done = 0;
    while done < ops {
        done += b.beat();
    }
    Ok(LaneVectors {
        params: *params,
        lanes,
        seed,
        beats: b.beats,
        responses: b.responses,
        stats: b.stats,
    })
}

fn line160(kind: u32, high: u32, low: u128) -> String {
    // bits 159:128 = kind (4 bits) and 28 bits of `high`, 127:0 = low
    let top = (kind << 28) | (high & 0x0fff_ffff);
    format!("{top:08x}{low:032x}\n")
}

impl LaneVectors {
    /// Lines of `stim.hex` before its end mark.
    pub fn stim_lines(&self) -> usize {
        self.beats.len() * (1 + self.lanes)
    }

    /// Lines of `expect.hex` before its end mark.
    pub fn expect_lines(&self) -> usize {
        self.responses.len() * (1 + self.lanes)
    }

    /// The words of `config.hex`.
    pub fn config_words(&self) -> [u32; LANES_CONFIG_WORDS] {
        let p = &self.params;
        [
            LANES_MAGIC,
            LANES_FORMAT,
            self.lanes as u32,
            p.k,
            p.bank_bits,
            p.key_bits,
            hash_code(p),
            p.seed as u32,
            (p.seed >> 32) as u32,
            self.stim_lines() as u32,
            self.expect_lines() as u32,
            self.beats.len() as u32,
            self.responses.len() as u32,
            p.counter_bits,
        ]
    }

    pub fn config_hex(&self) -> String {
        self.config_words()
            .iter()
            .map(|w| format!("{w:08x}\n"))
            .collect()
    }

    pub fn stim_hex(&self) -> String {
        let mut s = String::with_capacity((self.stim_lines() + 1) * 41);
        for beat in &self.beats {
            // header: 155:148 the gap, i.e. bits 27:20 of the top word
            s += &line160(KIND_BEAT, (beat.gap as u32) << 20, 0);
            for slot in &beat.slots {
                let (valid, op, tag, key) = match slot {
                    Some((op, key, tag)) => (1u128, *op as u128, *tag as u128, *key),
                    None => (0, 0, 0, 0),
                };
                // 140 valid, 137:136 op, 135:128 tag: bits 12, 9:8, 7:0 of the top word
                let high = ((valid as u32) << 12) | ((op as u32) << 8) | tag as u32;
                s += &line160(KIND_SLOT, high, key);
            }
        }
        s += &line160(KIND_END, 0, 0);
        s
    }

    pub fn expect_hex(&self) -> String {
        let mut s = String::with_capacity((self.expect_lines() + 1) * 9);
        for r in &self.responses {
            s += &format!(
                "{:08x}\n",
                (KIND_BEAT << 28) | ((r.stall as u32) << 16) | r.refused as u32
            );
            for (keep, hit, tag) in &r.slots {
                s += &format!(
                    "{:08x}\n",
                    (KIND_SLOT << 28) | ((*keep as u32) << 9) | ((*hit as u32) << 8) | *tag as u32
                );
            }
        }
        s += &format!("{:08x}\n", KIND_END << 28);
        s
    }

    /// `vectors.json`: what the set holds, for people (no testbench reads it).
    pub fn summary_json(&self) -> serde_json::Value {
        serde_json::json!({
            "format": LANES_FORMAT,
            "core": self.params,
            "lanes": self.lanes,
            "traffic_seed": self.seed,
            "beats": self.beats.len(),
            "response_beats": self.responses.len(),
            "stats": self.stats,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(lanes: usize, ops: u64) -> LaneVectors {
        let params = CoreParams {
            k: 3,
            bank_bits: 7,
            key_bits: 32,
            ..CoreParams::default()
        };
        let filter = golden::PartitionedFilter::try_new(params).unwrap();
        generate_lanes(&params, lanes, Golden::Plain(filter), ops, 7).unwrap()
    }

    #[test]
    fn a_counting_filters_set_deletes_and_says_its_counter_bits() {
        let params = CoreParams {
            k: 3,
            bank_bits: 6,
            key_bits: 32,
            counter_bits: 2,
            ..CoreParams::default()
        };
        let filter = crate::vectors::empty_filter(&params).unwrap();
        assert!(matches!(filter, Golden::Counting(_)));
        let v = generate_lanes(&params, 3, filter, 3000, 7).unwrap();
        assert!(v.stats.deletes > 100, "{:?}", v.stats);
        assert!(
            v.stats.deletes_carried_out > v.stats.deletes / 2
                && v.stats.deletes_carried_out < v.stats.deletes,
            "{:?}",
            v.stats
        );
        assert_eq!(v.stats.reserved_op3, 0);
        assert_eq!(v.config_words()[13], 2);
        assert_eq!(set(3, 300).config_words()[13], 1);
        assert_eq!(set(3, 3000).stats.deletes, 0);
    }

    #[test]
    fn every_kind_of_beat_appears_and_the_files_are_as_long_as_the_config_says() {
        let v = set(4, 4000);
        let s = &v.stats;
        assert!(s.operations + s.refused_beats > 0 && s.beats as usize == v.beats.len());
        for (name, n) in [
            ("empty", s.empty_beats),
            ("read", s.read_beats),
            ("write", s.write_beats),
            ("refused", s.refused_beats),
            ("query hits", s.query_hits),
            ("hazards", s.hazards),
            ("clears", s.clears),
            ("stalls", s.stalled_responses),
        ] {
            assert!(n > 0, "no {name} in {s:?}");
        }
        assert_eq!(v.responses.len() as u64, s.beats - s.empty_beats);
        let words = v.config_words();
        assert_eq!(v.stim_hex().lines().count(), words[9] as usize + 1);
        assert_eq!(v.expect_hex().lines().count(), words[10] as usize + 1);
        assert!(v.stim_hex().lines().all(|l| l.len() == 40));
    }

    #[test]
    fn a_refused_beat_answers_zero_with_its_tags_and_the_same_seed_gives_the_same_set() {
        let v = set(3, 3000);
        let refused: Vec<_> = v.responses.iter().filter(|r| r.refused).collect();
        assert!(!refused.is_empty());
        for r in refused {
            assert!(r.slots.iter().all(|(_, hit, _)| !hit));
            assert!(r.slots.iter().any(|(keep, _, _)| *keep));
        }
        assert_eq!(set(3, 3000).stim_hex(), v.stim_hex());
        assert!(generate_lanes(
            &v.params,
            1,
            Golden::Plain(golden::PartitionedFilter::try_new(v.params).unwrap()),
            10,
            1
        )
        .is_err());
    }
}
