//! Prototype screen of cheaper keyed networks (Feistel on LUT4).
//!
//! `cargo run --release -p golden --example hash_networks -- W SEEDS QUERIES SPEC...`
//! SPEC: `ideal`, `spn/R`, or `fe/G/TAPS;TAPS.../R` (G: maj, chi, simon or a
//! hex truth table of g(a, b, c), bit a + 2b + 4c).

use golden::spn::{SpnBlocks, SPN};
use golden::splitmix::splitmix64_output;
use golden::structured::{run_suite, Addresser, SuiteOptions, Summary};

#[derive(Clone, Debug)]
struct FeistelDesign {
    /// Truth table of g: bit (a + 2b + 4c) is g(a, b, c).
    g: u8,
    /// Tap shifts per round (round i uses taps[i % len]).
    taps: Vec<[u32; 3]>,
    rounds: u32,
}

struct Feistel {
    h: u32,
    mask: u64,
    anf: [bool; 8],
    taps: Vec<[u32; 3]>,
    /// keys[t][i] = (kin, kout)
    keys: Vec<Vec<(u64, u64)>>,
    key_bits: u32,
    bank_bits: u32,
}

fn anf_of(g: u8) -> [bool; 8] {
    let mut t: [u8; 8] = std::array::from_fn(|v| (g >> v) & 1);
    for i in 0..3 {
        for v in 0..8 {
            if v >> i & 1 == 1 {
                t[v] ^= t[v ^ (1 << i)];
            }
        }
    }
    std::array::from_fn(|m| t[m] == 1)
}

impl Feistel {
    fn new(d: &FeistelDesign, seed: u64, key_bits: u32, bank_bits: u32, blocks: u32) -> Self {
        let h = key_bits / 2;
        let mask = (1u64 << h) - 1;
        let keys = (0..blocks)
            .map(|t| {
                (0..d.rounds)
                    .map(|i| {
                        let k = splitmix64_output(seed, 64 * t as u64 + i as u64);
                        (k & mask, (k >> h) & mask)
                    })
                    .collect()
            })
            .collect();
        Feistel {
            h,
            mask,
            anf: anf_of(d.g),
            taps: d.taps.clone(),
            keys,
            key_bits,
            bank_bits,
        }
    }

    #[inline(always)]
    fn rotr(&self, x: u64, s: u32) -> u64 {
        if s == 0 {
            x
        } else {
            ((x >> s) | (x << (self.h - s))) & self.mask
        }
    }

    #[inline(always)]
    fn g(&self, a: u64, b: u64, c: u64) -> u64 {
        let n = &self.anf;
        let mut o = 0;
        if n[0] {
            o ^= self.mask;
        }
        if n[1] {
            o ^= a;
        }
        if n[2] {
            o ^= b;
        }
        if n[3] {
            o ^= a & b;
        }
        if n[4] {
            o ^= c;
        }
        if n[5] {
            o ^= a & c;
        }
        if n[6] {
            o ^= b & c;
        }
        if n[7] {
            o ^= a & b & c;
        }
        o
    }

    /// X_{R+1} in the low half, X_R in the high half.
    fn block(&self, t: usize, key: u128) -> u128 {
        let mut x0 = key as u64 & self.mask;
        let mut x1 = (key >> self.h) as u64 & self.mask;
        for (i, &(kin, kout)) in self.keys[t].iter().enumerate() {
            let [s1, s2, s3] = self.taps[i % self.taps.len()];
            let y = x1 ^ kin;
            let f = self.g(self.rotr(y, s1), self.rotr(y, s2), self.rotr(y, s3)) ^ kout;
            (x0, x1) = (x1, x0 ^ f);
        }
        (x1 as u128) | (x0 as u128) << self.h
    }
}

impl Addresser for Feistel {
    fn addresses_into(&self, key: u128, out: &mut [u32]) {
        let w = self.key_bits;
        let b = self.bank_bits;
        let mut blocks = [0u128; 16];
        let needed = (out.len() as u32 * b).div_ceil(w) as usize;
        for (t, block) in blocks.iter_mut().enumerate().take(needed) {
            *block = self.block(t, key);
        }
        for (p, address) in out.iter_mut().enumerate() {
            let g = p as u32 * b;
            let (t, offset) = ((g / w) as usize, g % w);
            let mut value = blocks[t] >> offset;
            if offset + b > w {
                value |= blocks[t + 1] << (w - offset);
            }
            *address = value as u32 & ((1 << b) - 1);
        }
    }
}

/// First i such that every bit of X_i and X_{i+1} depends on every key bit.
fn full_diffusion(d: &FeistelDesign, key_bits: u32) -> Option<u32> {
    let h = (key_bits / 2) as usize;
    let mut x0: Vec<u128> = (0..h).map(|j| 1u128 << j).collect();
    let mut x1: Vec<u128> = (0..h).map(|j| 1u128 << (h + j)).collect();
    let all = if key_bits == 128 {
        u128::MAX
    } else {
        (1u128 << key_bits) - 1
    };
    for i in 0..32u32 {
        let taps = d.taps[i as usize % d.taps.len()];
        let next: Vec<u128> = (0..h)
            .map(|j| {
                taps.iter()
                    .fold(x0[j], |u, &s| u | x1[(j + s as usize) % h])
            })
            .collect();
        x0 = x1;
        x1 = next;
        if x0.iter().chain(x1.iter()).all(|&d| d == all) {
            return Some(i + 1);
        }
    }
    None
}

struct Spn {
    blocks: SpnBlocks,
    bank_bits: u32,
}

impl Addresser for Spn {
    fn addresses_into(&self, key: u128, out: &mut [u32]) {
        self.blocks.addresses_into(key, self.bank_bits, out);
    }
}

struct Ideal {
    seed: u64,
    bank_bits: u32,
}

impl Addresser for Ideal {
    fn addresses_into(&self, key: u128, out: &mut [u32]) {
        for (p, address) in out.iter_mut().enumerate() {
            let low = splitmix64_output(self.seed ^ (p as u64) << 56, key as u64);
            let mixed = splitmix64_output(low, (key >> 64) as u64);
            *address = (mixed >> 20) as u32 & ((1 << self.bank_bits) - 1);
        }
    }
}

fn report(label: &str, s: &Summary) {
    let w = &s.worst;
    println!(
        "{label:<40} worst {:>5.2}x ({} {} {} s{}), >1.5x {:>3}/{} >2x {:>3}, means {:.3}..{:.3} ({} {} {}), fill z {:.1}, items z {:.1}",
        w.ratio(),
        w.set.name(),
        w.query.name(),
        w.load,
        w.seed,
        s.above_1_5,
        s.cases,
        s.above_2,
        s.groups.iter().map(|g| g.mean_ratio).fold(f64::INFINITY, f64::min),
        s.groups.iter().map(|g| g.mean_ratio).fold(0.0, f64::max),
        s.worst_group.set.name(),
        s.worst_group.query.name(),
        s.worst_group.load,
        s.worst_fill_z,
        s.worst_items_z,
    );
}

fn parse_g(s: &str) -> u8 {
    // bit index v = a + 2b + 4c
    let table = |f: &dyn Fn(u8, u8, u8) -> u8| {
        (0..8u8).fold(0u8, |t, v| t | f(v & 1, v >> 1 & 1, v >> 2 & 1) << v)
    };
    match s {
        "maj" => table(&|a, b, c| (a & b) | (a & c) | (b & c)),
        "chi" => table(&|a, b, c| a ^ ((b ^ 1) & c)),
        "simon" => table(&|a, b, c| a ^ (b & c)),
        hex => u8::from_str_radix(hex, 16).expect("g"),
    }
}

/// Tap search by structural diffusion: rotation-invariant taps, so one bit
/// per half is tracked (dependencies of bit 0 of X_i as masks of the key's
/// low and high half, relative to bit 0).
fn search(h: u32, top: usize) {
    let mask = if h == 64 { u64::MAX } else { (1u64 << h) - 1 };
    let rot = |x: u64, s: u32| {
        if s == 0 {
            x
        } else {
            ((x >> s) | (x << (h - s))) & mask
        }
    };
    let triples: Vec<[u32; 3]> = (0..h)
        .flat_map(|a| (a + 1..h).flat_map(move |b| (b + 1..h).map(move |c| [a, b, c])))
        .collect();
    // (full round of one half, growth score, taps)
    let mut best: Vec<(u32, u32, [u32; 3], [u32; 3])> = Vec::new();
    for (ia, ta) in triples.iter().enumerate() {
        for tb in triples.iter().skip(ia) {
            let (mut d0, mut d1) = ((1u64, 0u64), (0u64, 1u64));
            let mut score = 0u32;
            let mut full = 0;
            for i in 0..16u32 {
                let t = if i % 2 == 0 { ta } else { tb };
                let mut n = d0;
                for &s in t {
                    // X_i[j + s] depends on key bits (position + j + s), so
                    // bit 0 picks the dependency set rotated right by s.
                    n.0 |= rot(d1.0, s);
                    n.1 |= rot(d1.1, s);
                }
                d0 = d1;
                d1 = n;
                score += d1.0.count_ones() + d1.1.count_ones();
                if d1 == (mask, mask) {
                    full = i + 1;
                    break;
                }
            }
            if full == 0 {
                continue;
            }
            best.push((full, score, *ta, *tb));
        }
    }
    best.sort_by_key(|&(f, s, _, _)| (f, std::cmp::Reverse(s)));
    for (f, s, a, b) in best.iter().take(top) {
        println!("full after {f} rounds (X_{{i+1}} of bit 0), score {s}: {a:?};{b:?}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args[0] == "search" {
        search(args[1].parse().unwrap(), args[2].parse().unwrap());
        return;
    }
    let w: u32 = args[0].parse().unwrap();
    let seeds: u64 = args[1].parse().unwrap();
    let queries: usize = args[2].parse().unwrap();
    let (k, b) = match w {
        64 => (4, 12),
        32 => (7, 13),
        128 => (4, 12),
        _ => panic!("W"),
    };
    let options = SuiteOptions {
        seeds,
        queries,
        threads: 1,
        ..SuiteOptions::full(k, b, w)
    };
    let blocks = (k * b).div_ceil(w);
    for spec in &args[3..] {
        let parts: Vec<&str> = spec.split('/').collect();
        let cases = match parts[0] {
            "ideal" => run_suite(&options, &|seed| Ideal { seed, bank_bits: b }),
            "spn" => {
                let design = SPN.with_rounds(parts[1].parse().unwrap());
                run_suite(&options, &|seed| Spn {
                    blocks: SpnBlocks::new(&design, seed, w, blocks),
                    bank_bits: b,
                })
            }
            "fe" => {
                let taps = parts[2]
                    .split(';')
                    .map(|t| {
                        let v: Vec<u32> = t.split(',').map(|x| x.parse().unwrap()).collect();
                        [v[0], v[1], v[2]]
                    })
                    .collect();
                let d = FeistelDesign {
                    g: parse_g(parts[1]),
                    taps,
                    rounds: parts[3].parse().unwrap(),
                };
                eprintln!("{spec}: full diffusion after {:?}", full_diffusion(&d, w));
                run_suite(&options, &|seed| Feistel::new(&d, seed, w, b, blocks))
            }
            _ => panic!("spec"),
        }
        .unwrap();
        report(spec, &Summary::of(&cases).unwrap());
    }
}
